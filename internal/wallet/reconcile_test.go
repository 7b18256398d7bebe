package wallet_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/platform/days"
	"prima/internal/wallet"
)

// The reconciliation counts Beijing days: an order marked paid a second
// before Beijing midnight is that day's, its refund a second later the next
// day's, and each day's orders agree with the ledger's movements of that
// day (paid +, refunded -), per provider and in total.
func TestReconcileDaysAndRefunds(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		e := newEnv(t, s)
		ctx := context.Background()
		clock := time.Date(2026, 3, 10, 15, 59, 0, 0, time.UTC) // 23:59 in Beijing
		s.App.Wallet.SetClock(func() time.Time { return clock })
		user := apitest.GuestLogin(t, e.h, apitest.DevID(1))
		id := e.pkg("60金币", 60, 0, 600)
		o := e.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"recon-0001"}`, id))
		clock = clock.Add(59 * time.Second) // 23:59:59
		e.call("POST", "/api/admin/orders/paid", e.ops, `{"orderNo":"`+o.OrderNo+`","reason":"补单"}`, 200)
		clock = clock.Add(time.Second) // 00:00:00 on the 11th
		e.call("POST", "/api/admin/orders/refund", e.ops, `{"orderNo":"`+o.OrderNo+`","reason":"退款"}`, 200)

		from, _ := wallet.ParseDay("2026-03-10")
		to, _ := wallet.ParseDay("2026-03-12")
		list, err := s.App.Wallet.Reconcile(ctx, from, to)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 3 || list[0].Date != "2026-03-12" || list[2].Date != "2026-03-10" {
			t.Fatalf("days %+v", list)
		}
		want := map[string][3]int64{ // paid, refunded, net
			"2026-03-10": {600, 0, 600},
			"2026-03-11": {0, 600, -600},
			"2026-03-12": {0, 0, 0},
		}
		for _, d := range list {
			if !d.OK || len(d.Topup.Providers) != 1 {
				t.Fatalf("%s: %+v", d.Date, d)
			}
			p, w := d.Topup.Providers[0], want[d.Date]
			if p.PayType != wallet.SandboxName || p.Paid != w[0] || p.Refunded != w[1] || p.Records != w[2] || p.Ledger != w[2] || p.Diff != 0 ||
				d.Topup.Records != w[2] || d.Topup.Ledger != w[2] {
				t.Fatalf("%s: %+v, want paid/refunded/net %v", d.Date, d.Topup, w)
			}
		}
		if days.Of(clock) != "2026-03-11" {
			t.Fatalf("clock %s", clock)
		}
	})
}
