package account

import (
	"context"
	"errors"
	"testing"
	"time"

	"prima/internal/membership"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// The tier expiries are account's columns; membership's rule for moving
// them runs here, on the caller's transaction.

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
		extend := func(level, days int, at time.Time) membership.User {
			t.Helper()
			var u membership.User
			if err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				var err error
				u, err = ExtendTier(ctx, tx, uid, level, days, at)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			return u
		}
		// One day of super VIP: level 2 today, the VIP year untouched.
		u := extend(membership.LevelSVIP, 1, now)
		if u.SvipExpireAt != n+86400 || u.VipExpireAt != n+300*86400 || membership.ActiveVipLevel(u, now) != 2 {
			t.Fatalf("after a day of super VIP: %+v", u)
		}
		// 30 more VIP days add to the remaining 300, not to today.
		if u = extend(membership.LevelVIP, 30, now); u.VipExpireAt != n+330*86400 {
			t.Fatalf("VIP extended to %d, want +330 days", u.VipExpireAt-n)
		}
		// A lapsed tier starts again from now.
		later := now.Add(10 * 24 * time.Hour)
		if u = extend(membership.LevelSVIP, 7, later); u.SvipExpireAt != later.Unix()+7*86400 {
			t.Fatalf("lapsed super VIP restarted at %d", u.SvipExpireAt-later.Unix())
		}
		err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := ExtendTier(ctx, tx, uid+100, membership.LevelVIP, 1, now)
			return err
		})
		if !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("unknown user: %v", err)
		}
		for _, bad := range [][2]int{{0, 1}, {3, 1}, {1, 0}, {1, -5}} {
			if err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				_, err := ExtendTier(ctx, tx, uid, bad[0], bad[1], now)
				return err
			}); err == nil {
				t.Errorf("level %d, %d days accepted", bad[0], bad[1])
			}
		}
	})
}

func TestRetractTakesDaysBackNotPastNow(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Unix(1_800_000_000, 0)
		n := now.Unix()
		var uid int64
		// 40 VIP days left, 2 super VIP days left.
		if err := d.QueryRow(ctx, `INSERT INTO users (vip_expire_at, svip_expire_at, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id`,
			n+40*86400, n+2*86400, n, n).Scan(&uid); err != nil {
			t.Fatal(err)
		}
		retract := func(level, days int, at time.Time) (membership.User, error) {
			var u membership.User
			err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				var err error
				u, err = RetractTier(ctx, tx, uid, level, days, at)
				return err
			})
			return u, err
		}
		u, err := retract(membership.LevelVIP, 30, now)
		if err != nil || u.VipExpireAt != n+10*86400 || u.SvipExpireAt != n+2*86400 {
			t.Fatalf("30 of 40 VIP days back: %+v %v", u, err)
		}
		// More days than are left: the tier ends now, not in the past.
		u, err = retract(membership.LevelSVIP, 30, now)
		if err != nil || u.SvipExpireAt != n || u.VipExpireAt != n+10*86400 {
			t.Fatalf("30 super VIP days of 2 left: %+v %v", u, err)
		}
		// A tier that already ran out stays as it was.
		later := now.Add(20 * 24 * time.Hour)
		u, err = retract(membership.LevelVIP, 5, later)
		if err != nil || u.VipExpireAt != n+10*86400 {
			t.Fatalf("retract from an expired tier: %+v %v", u, err)
		}
		if _, err := retract(3, 1, now); err == nil {
			t.Fatal("level 3 retracted")
		}
		if _, err := retract(membership.LevelVIP, 0, now); err == nil {
			t.Fatal("0 days retracted")
		}
		if _, err := d.Exec(ctx, `DELETE FROM users WHERE id = ?`, uid); err != nil {
			t.Fatal(err)
		}
		if _, err := retract(membership.LevelVIP, 1, now); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("unknown user: %v", err)
		}
	})
}
