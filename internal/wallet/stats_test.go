package wallet

import (
	"context"
	"fmt"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/stats"
)

// A day's money: orders paid in the Beijing day and still paid, by product
// and pay type; payers and first payments (a user who paid before the day
// is not one); withdrawals paid out that day (a rejected one is not).
func TestMoneyFigures(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		sp, err := stats.SpanOf("2026-03-01")
		if err != nil {
			t.Fatal(err)
		}
		start := sp.From.Unix() // 2026-02-28 16:00 UTC
		n := 0
		order := func(uid int64, kind, pay, status string, cents, paidAt int64) {
			t.Helper()
			n++
			if _, err := d.Exec(ctx, `INSERT INTO orders (order_no, user_id, product_type, product_id, title, amount, pay_type, status, created_at, expires_at, paid_at)
				VALUES (?, ?, ?, 1, 't', ?, ?, ?, ?, ?, ?)`, fmt.Sprintf("O%d", n), uid, kind, cents, pay, status, paidAt, paidAt+900, paidAt); err != nil {
				t.Fatal(err)
			}
		}
		order(1, "coins", "alipay", "paid", 600, start)          // first second of the day; user 1's first
		order(1, "vip", "wxpay", "paid", 3000, start+3600)       // same user again
		order(2, "coins", "alipay", "paid", 1000, start-1)       // user 2 paid the day before ...
		order(2, "coins", "sandbox", "paid", 200, start+86399)   // ... and on the day's last second: a payer, not a first
		order(3, "coins", "alipay", "refunded", 5000, start+100) // refunded since: out
		order(4, "coins", "alipay", "paid", 700, start+86400)    // the next day
		order(5, "vip", "alipay", "pending", 900, 0)             // never paid
		for i, w := range []struct {
			status  string
			decided int64
		}{{"paid", start + 10}, {"rejected", start + 20}, {"paid", start - 10}, {"pending", 0}} {
			if _, err := d.Exec(ctx, `INSERT INTO withdrawals (order_no, user_id, amount, fee, account_id, act_type, number, status, day, created_at, decided_at)
				VALUES (?, 1, ?, 0, 1, 1, '6222', ?, '2026-03-01', ?, ?)`, fmt.Sprintf("W%d", i), 10000+int64(i), w.status, start, w.decided); err != nil {
				t.Fatal(err)
			}
		}
		f, err := NewService(d).MoneyFigures(ctx, sp)
		if err != nil {
			t.Fatal(err)
		}
		want := stats.MoneyFigures{Payers: 2, FirstPayments: 1, Topup: 800, VIP: 3000,
			ByProvider: map[string]int64{"alipay": 600, "wxpay": 3000, "sandbox": 200}, Withdrawals: 1, WithdrawCents: 10000}
		if fmt.Sprint(f) != fmt.Sprint(want) {
			t.Fatalf("got  %+v\nwant %+v", f, want)
		}
	})
}
