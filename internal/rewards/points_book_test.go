package rewards

import (
	"context"
	"testing"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
	"prima/internal/wallet"
)

// The wallet's console view reads and adjusts points through Welfare
// (wallet.PointsBook): an operator's adjustment lands in point_entries with
// its reason, the merged view pages it with coins, a debit below zero is
// refused and moves nothing.
func TestPointsBookThroughWallet(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		w, _ := newWelfare(d)
		s := wallet.NewService(d)
		s.Points = w
		uid := newUser(t, d)
		op := audit.Actor{UID: 99}
		if _, _, err := s.Adjust(ctx, op, wallet.Adjustment{UID: uid, Account: wallet.Points, Amount: 40, Reason: "活动补发"}, "pts-1"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Adjust(ctx, op, wallet.Adjustment{UID: uid, Account: wallet.Coins, Amount: 7, Reason: "补偿"}, "coins-1"); err != nil {
			t.Fatal(err)
		}
		// A replay of the same key changes nothing.
		if _, replay, err := s.Adjust(ctx, op, wallet.Adjustment{UID: uid, Account: wallet.Points, Amount: 40, Reason: "活动补发"}, "pts-1"); err != nil || !replay {
			t.Fatalf("replay: %v %v", replay, err)
		}
		if _, _, err := s.Adjust(ctx, op, wallet.Adjustment{UID: uid, Account: wallet.Points, Amount: -41, Reason: "扣回"}, "pts-2"); err == nil {
			t.Fatal("a points debit below zero passed")
		}
		if p := points(t, w, uid); p != 40 {
			t.Fatalf("points %d", p)
		}
		v, err := s.AdminWallet(ctx, uid, "", nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		if v.Points != 40 || len(v.Entries) != 1 || !v.HasMore || v.NextCursor == nil {
			t.Fatalf("first page: %+v", v)
		}
		keys, _ := parseKeys(*v.NextCursor)
		v2, err := s.AdminWallet(ctx, uid, "", keys, 5)
		if err != nil {
			t.Fatal(err)
		}
		all := append(v.Entries, v2.Entries...)
		if len(all) != 2 || v2.HasMore {
			t.Fatalf("entries: %+v", all)
		}
		var pts wallet.AdminEntry
		for _, e := range all {
			if e.Account == wallet.Points {
				pts = e
			}
		}
		if pts.Type != "adjust" || pts.Amount != 40 || pts.Balance != 40 || pts.Memo != "活动补发" {
			t.Fatalf("points entry: %+v", pts)
		}
		var n int
		d.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE action = 'wallet.adjust' AND after LIKE '%points%'`).Scan(&n)
		if n != 1 {
			t.Fatalf("%d points audit rows", n)
		}
	})
}

func parseKeys(c string) ([]int64, bool) { return httpx.ParseCursor(c, 3) }
