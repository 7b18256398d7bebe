package wallet

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
)

// The console's order list: filters by provider (payType or gateway),
// Asia/Shanghai days, status and user, paged by keyset.
func TestAdminOrderPage(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := NewService(d)
		// 2026-11-23 00:30 Shanghai is 2026-11-22 16:30 UTC.
		day := time.Date(2026, 11, 22, 16, 30, 0, 0, time.UTC)
		rows := []struct {
			uid     int64
			payType string
			status  string
			at      time.Time
		}{
			{1, "sandbox", "paid", day.Add(-time.Hour)},          // 11-22 Shanghai
			{1, "epay_alipay", "paid", day},                      // 11-23
			{2, "epay_wxpay", "pending", day.Add(2 * time.Hour)}, // 11-23
			{2, "stripe", "refunded", day.Add(30 * time.Hour)},   // 11-24
			{3, "epayx", "paid", day.Add(31 * time.Hour)},        // 11-24, not epay's
			{3, "sandbox", "cancelled", day.Add(50 * time.Hour)}, // 11-25
		}
		for i, r := range rows {
			if _, err := d.Exec(ctx, `INSERT INTO orders (order_no, user_id, product_type, product_id, title, amount, coins, pay_type, status, created_at, expires_at)
				VALUES (?, ?, 'coins', 1, 't', 100, 10, ?, ?, ?, ?)`, fmt.Sprintf("P10%d", i), r.uid, r.payType, r.status, r.at.Unix(), r.at.Unix()+900); err != nil {
				t.Fatal(err)
			}
		}
		list := func(f AdminOrderQuery) string {
			t.Helper()
			if f.PageSize == 0 {
				f.PageSize = 50
			}
			p, err := s.AdminOrderPage(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			var nos []string
			for _, o := range p.List {
				nos = append(nos, o.OrderNo)
			}
			return strings.Join(nos, " ")
		}
		for name, c := range map[string]struct {
			f    AdminOrderQuery
			want string
		}{
			"all":            {AdminOrderQuery{}, "P105 P104 P103 P102 P101 P100"},
			"gateway epay":   {AdminOrderQuery{Provider: "epay"}, "P102 P101"},
			"payType":        {AdminOrderQuery{Provider: "epay_wxpay"}, "P102"},
			"sandbox":        {AdminOrderQuery{Provider: "sandbox"}, "P105 P100"},
			"day 11-23":      {AdminOrderQuery{From: "2026-11-23", To: "2026-11-23"}, "P102 P101"},
			"from 11-24":     {AdminOrderQuery{From: "2026-11-24"}, "P105 P104 P103"},
			"to 11-22":       {AdminOrderQuery{To: "2026-11-22"}, "P100"},
			"status and uid": {AdminOrderQuery{Status: "paid", UserID: 1}, "P101 P100"},
			"nothing":        {AdminOrderQuery{Provider: "stripe", Status: "paid"}, ""},
		} {
			if got := list(c.f); got != c.want {
				t.Errorf("%s: %q, want %q", name, got, c.want)
			}
		}
		// Keyset: two a page walks every order once.
		var all []string
		f := AdminOrderQuery{PageSize: 2}
		for {
			p, err := s.AdminOrderPage(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range p.List {
				all = append(all, o.OrderNo)
			}
			if !p.HasMore {
				break
			}
			f.After, _ = parseCursor1(*p.NextCursor)
		}
		if strings.Join(all, " ") != "P105 P104 P103 P102 P101 P100" {
			t.Fatalf("pages: %v", all)
		}

		// The handler refuses what is not a filter, with a 4xx.
		h := NewHandler(s)
		for q, want := range map[string]int{
			"provider=epay":                 200,
			"from=2026-11-23&to=2026-11-24": 200,
			"provider=EPAY":                 422,
			"provider=a%27%20OR%201%3D1":    422,
			"provider=%00sandbox":           422,
			"from=2026-13-01":               422,
			"from=2026-02-30":               422,
			"to=yesterday":                  422,
			"from=2026-11-24&to=2026-11-23": 422,
			"cursor=abc":                    422,
			"cursor=k-1":                    422,
			"pageSize=0":                    422,
			"pageSize=100000":               422,
			"uid=-1":                        422,
			"uid=99999999999999999999":      422,
			"status=lost":                   422,
			"orderNo=P1%27":                 422,
		} {
			r := httptest.NewRequest(http.MethodGet, "/api/admin/orders?"+q, nil)
			w := httptest.NewRecorder()
			err := h.AdminOrders(w, r)
			got := 200
			if err != nil {
				got = 500
				if e, ok := asHTTP(err); ok {
					got = e.Status
				}
			}
			if got != want {
				t.Errorf("%s: %d (%v), want %d", q, got, err, want)
			}
		}
		_ = httpx.MaxID
	})
}
