package seed

import (
	"context"
	"testing"

	"prima/internal/membership"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func TestSeedVIPProducts(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		seed := func() int {
			var n int
			if err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				var err error
				n, err = seedVIPProducts(ctx, tx, 1_800_000_000)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if n := seed(); n != len(demoVIPProducts) {
			t.Fatalf("seeded %d cards", n)
		}
		if n := seed(); n != 0 {
			t.Fatalf("a second seed added %d cards", n)
		}
		ps, err := membership.Products(ctx, d)
		if err != nil || len(ps) != len(demoVIPProducts) {
			t.Fatalf("%d cards, %v", len(ps), err)
		}
		var newUser, svipCoupons int
		for _, p := range ps {
			if p.Coins <= 0 || p.Price <= 0 || p.Days <= 0 {
				t.Errorf("card %+v lacks a price", p)
			}
			if p.NewUser {
				newUser++
			}
			if p.Level == membership.LevelSVIP && p.Days == 30 {
				svipCoupons = p.Coupons
			}
		}
		if newUser != 1 || svipCoupons != 2 {
			t.Fatalf("%d new-user cards, SVIP month with %d coupons", newUser, svipCoupons)
		}
	})
}
