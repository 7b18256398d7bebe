package membership

import (
	"context"
	"errors"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

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
		retract := func(level, days int, at time.Time) (User, error) {
			var u User
			err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				var err error
				u, err = Retract(ctx, tx, uid, level, days, at)
				return err
			})
			return u, err
		}
		u, err := retract(LevelVIP, 30, now)
		if err != nil || u.VipExpireAt != n+10*86400 || u.SvipExpireAt != n+2*86400 {
			t.Fatalf("30 of 40 VIP days back: %+v %v", u, err)
		}
		// More days than are left: the tier ends now, not in the past.
		u, err = retract(LevelSVIP, 30, now)
		if err != nil || u.SvipExpireAt != n || u.VipExpireAt != n+10*86400 {
			t.Fatalf("30 super VIP days of 2 left: %+v %v", u, err)
		}
		// A tier that already ran out stays as it was.
		later := now.Add(20 * 24 * time.Hour)
		u, err = retract(LevelVIP, 5, later)
		if err != nil || u.VipExpireAt != n+10*86400 {
			t.Fatalf("retract from an expired tier: %+v %v", u, err)
		}
		if _, err := retract(3, 1, now); err == nil {
			t.Fatal("level 3 retracted")
		}
		if _, err := retract(LevelVIP, 0, now); err == nil {
			t.Fatal("0 days retracted")
		}
		if _, err := d.Exec(ctx, `DELETE FROM users WHERE id = ?`, uid); err != nil {
			t.Fatal(err)
		}
		if _, err := retract(LevelVIP, 1, now); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("unknown user: %v", err)
		}
	})
}
