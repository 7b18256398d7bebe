package wallet_test

import (
	"context"
	"fmt"
	"net/url"
	"sync"
	"testing"
	"time"

	"prima/internal/app/apptest"
	"prima/internal/platform/db"
	"prima/internal/wallet"
)

// BenchmarkCallbacks measures paid callbacks per second through the HTTP
// route (verify, lock the order, conditional update, two ledger movements)
// with 8 callers at once, then checks the ledger. Orders are made directly
// in the database beforehand so only callbacks are timed. SQLite runs with
// group commit and, as the baseline in the same run, one commit per request.
//
//	go test ./internal/wallet/ -run '^$' -bench Callbacks -benchtime 2000x
func BenchmarkCallbacks(b *testing.B) {
	for _, c := range []struct {
		name  string
		eng   db.Engine
		group bool
	}{{"sqlite", db.SQLite, true}, {"sqlite-solo-commits", db.SQLite, false}, {"postgres", db.Postgres, false}} {
		b.Run(c.name, func(b *testing.B) {
			s := apptest.New(b, c.eng)
			s.App.DB.SetGroupCommit(c.group)
			ctx := context.Background()
			sb := s.App.Wallet.Pay.Providers[0].(*wallet.Sandbox)
			now := time.Now().Unix()
			var uid int64
			if err := s.App.DB.QueryRow(ctx, `INSERT INTO users (created_at, updated_at) VALUES (?, ?) RETURNING id`, now, now).Scan(&uid); err != nil {
				b.Fatal(err)
			}
			forms := make([]url.Values, b.N)
			for i := range forms {
				no := fmt.Sprintf("P%020d", i+1)
				if _, err := s.App.DB.Exec(ctx, `INSERT INTO orders (order_no, user_id, product_type, product_id, title, amount, coins, bonus, pay_type, created_at, expires_at)
					VALUES (?, ?, 'coins', 1, '300金币', 3000, 300, 30, 'sandbox', ?, ?)`, no, uid, now, now+3600); err != nil {
					b.Fatal(err)
				}
				forms[i] = sb.CallbackForm(wallet.Order{OrderNo: no, Amount: 3000}, "paid", "T", now)
			}
			e := &env{s: s, h: s.Handler}
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			next := make(chan url.Values)
			for range 8 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for f := range next {
						if rec := e.callback(f); rec.Code != 200 {
							b.Error(rec.Code, rec.Body)
						}
					}
				}()
			}
			for _, f := range forms {
				next <- f
			}
			close(next)
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "callbacks/s")
			var coins int64
			if err := s.App.DB.QueryRow(ctx, `SELECT balance FROM ledger_accounts WHERE user_id = ? AND kind = 'coins'`, uid).Scan(&coins); err != nil || coins != int64(b.N)*330 {
				b.Fatalf("coins %d after %d callbacks: %v", coins, b.N, err)
			}
			if err := wallet.Check(ctx, s.App.DB); err != nil {
				b.Fatal(err)
			}
		})
	}
}
