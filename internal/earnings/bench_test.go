package earnings_test

import (
	"context"
	"fmt"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// BenchmarkCommission is what commission adds to a paid order: a payer
// with a three-level inviter chain (three rows, three movements) beside a
// payer without an inviter (one read), each in a transaction of its own
// as the payment's would be, and beside a transaction writing one row
// (the floor of any write). go test ./internal/earnings -run '^$' -bench Commission
func BenchmarkCommission(b *testing.B) {
	for _, engine := range []db.Engine{db.SQLite, db.Postgres} {
		b.Run(string(engine), func(b *testing.B) {
			d := dbtest.Open(b, engine)
			e := newEnv(b, d)
			a, bb, c, payer, loner := e.user(b, "a"), e.user(b, "b"), e.user(b, "c"), e.user(b, "payer"), e.user(b, "loner")
			e.bind(b, a, bb)
			e.bind(b, bb, c)
			e.bind(b, c, payer)
			seq := 0
			b.Run("chain3", func(b *testing.B) {
				for range b.N {
					seq++
					if err := e.pay(b, payer, fmt.Sprintf("P-b-%d", seq), 6000); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("no-inviter", func(b *testing.B) {
				for range b.N {
					seq++
					if err := e.pay(b, loner, fmt.Sprintf("P-n-%d", seq), 6000); err != nil {
						b.Fatal(err)
					}
				}
			})
			n := 0
			b.Run("one-row", func(b *testing.B) {
				for range b.N {
					n++
					i := n
					if err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
						_, err := tx.Exec(ctx, `INSERT INTO share_visits (inviter_id, day, dev_id, created_at) VALUES (1, 'd', ?, 1)`, fmt.Sprint(i))
						return err
					}); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
