package wallet

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"prima/internal/catalog"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// BenchmarkBuyVideo measures whole purchases (idempotency key, price read,
// purchase row, ledger movement, commit) per second, 8 buyers at a time,
// each buying distinct gold videos, then checks the ledger.
// go test ./internal/wallet -run x -bench BuyVideo -benchtime 5000x
func BenchmarkBuyVideo(b *testing.B) {
	for _, c := range []struct {
		name  string
		e     db.Engine
		group bool
	}{{"sqlite", db.SQLite, true}, {"sqlite-solo-commits", db.SQLite, false}, {"postgres", db.Postgres, false}} {
		b.Run(c.name, func(b *testing.B) {
			ctx := context.Background()
			d := dbtest.Open(b, c.e)
			d.SetGroupCommit(c.group)
			s := NewService(d)
			wireGoods(s)
			const buyers = 8
			n := b.N
			var vids []int64
			uids := make([]int64, buyers)
			err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				at := now.Unix()
				mod, err := catalog.InsertModule(ctx, tx, 0, "m", 0, 1, at)
				if err != nil {
					return err
				}
				for range n {
					id, err := catalog.InsertVideo(ctx, tx, catalog.NewVideo{Title: "v", ModuleID: mod, SubModuleID: mod, Coins: 1, Published: true, CreatedAt: at})
					if err != nil {
						return err
					}
					vids = append(vids, id)
				}
				for i := range uids {
					if err := tx.QueryRow(ctx, `INSERT INTO users (created_at, updated_at) VALUES (?, ?) RETURNING id`, at, at).Scan(&uids[i]); err != nil {
						return err
					}
					if _, err := s.Ledger.Post(ctx, tx, Transfer{Kind: "topup", Key: fmt.Sprintf("topup:%d", i), UserID: uids[i], Legs: []Leg{
						{System(SysCoinsSold), -int64(n)}, {UserCoins(uids[i]), int64(n)},
					}}, now); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			var next, who atomic.Int64
			b.SetParallelism(buyers)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				w := int(who.Add(1)-1) % buyers
				for pb.Next() {
					i := next.Add(1) - 1
					if _, err := s.BuyVideo(ctx, uids[w], vids[i], false, fmt.Sprintf("bench-%d-%d", w, i)); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "buys/s")
			if err := Check(ctx, d); err != nil {
				b.Fatal(err)
			}
		})
	}
}
