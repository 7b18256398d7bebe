package membership

import (
	"context"
	"errors"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func TestExtendKeepsEachTier(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Unix(1_800_000_000, 0)
		n := now.Unix()
		var uid int64
		// A VIP with 300 days left.
		if err := d.QueryRow(ctx, `INSERT INTO users (vip_expire_at, created_at, updated_at) VALUES (?, ?, ?) RETURNING id`, n+300*86400, n, n).Scan(&uid); err != nil {
			t.Fatal(err)
		}
		extend := func(level, days int, at time.Time) User {
			t.Helper()
			var u User
			if err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				var err error
				u, err = Extend(ctx, tx, uid, level, days, at)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			return u
		}
		// One day of super VIP: level 2 today, the VIP year untouched.
		u := extend(LevelSVIP, 1, now)
		if u.SvipExpireAt != n+86400 || u.VipExpireAt != n+300*86400 || ActiveVipLevel(u, now) != 2 {
			t.Fatalf("after a day of super VIP: %+v", u)
		}
		// 30 more VIP days add to the remaining 300, not to today.
		if u = extend(LevelVIP, 30, now); u.VipExpireAt != n+330*86400 {
			t.Fatalf("VIP extended to %d, want +330 days", u.VipExpireAt-n)
		}
		// A lapsed tier starts again from now.
		later := now.Add(10 * 24 * time.Hour)
		if u = extend(LevelSVIP, 7, later); u.SvipExpireAt != later.Unix()+7*86400 {
			t.Fatalf("lapsed super VIP restarted at %d", u.SvipExpireAt-later.Unix())
		}
		err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := Extend(ctx, tx, uid+100, LevelVIP, 1, now)
			return err
		})
		if !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("unknown user: %v", err)
		}
		for _, bad := range [][2]int{{0, 1}, {3, 1}, {1, 0}, {1, -5}} {
			if err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				_, err := Extend(ctx, tx, uid, bad[0], bad[1], now)
				return err
			}); err == nil {
				t.Errorf("level %d, %d days accepted", bad[0], bad[1])
			}
		}
	})
}

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
