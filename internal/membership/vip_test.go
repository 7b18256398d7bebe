package membership

import (
	"context"
	"errors"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func TestProducts(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		for _, p := range []struct {
			level, days, sort, active int
			name                      string
		}{{2, 30, 2, 1, "超级月卡"}, {1, 30, 1, 1, "月卡"}, {1, 365, 3, 0, "旧年卡"}} {
			if _, err := d.Exec(ctx, `INSERT INTO vip_products (level, name, days, price, coins, sort, active, created_at, updated_at) VALUES (?, ?, ?, 3000, 300, ?, ?, 1, 1)`,
				p.level, p.name, p.days, p.sort, p.active); err != nil {
				t.Fatal(err)
			}
		}
		ps, err := Products(ctx, d)
		if err != nil || len(ps) != 2 || ps[0].Name != "月卡" || ps[1].Level != 2 || !ps[0].Active {
			t.Fatalf("products %+v, %v", ps, err)
		}
		if p, err := ProductByID(ctx, d, ps[1].ID); err != nil || p != ps[1] {
			t.Fatalf("by id: %+v %v", p, err)
		}
		var inactive int64
		_ = d.QueryRow(ctx, `SELECT id FROM vip_products WHERE active = 0`).Scan(&inactive)
		if _, err := ProductByID(ctx, d, inactive); !errors.Is(err, ErrNoProduct) {
			t.Fatalf("inactive product: %v", err)
		}
	})
}
