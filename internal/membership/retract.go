package membership

import (
	"context"
	"fmt"
	"time"

	"prima/internal/platform/db"
)

// Retract takes days of tier level back from user uid inside tx (a refunded
// VIP order) and returns the user's tiers afterwards. The tier's expiry
// moves back by days, but never before now: days already used stay used,
// and a tier that has already run out is left as it is. The other tier is
// untouched (each tier keeps its own expiry, see Extend).
func Retract(ctx context.Context, tx *db.Tx, uid int64, level, days int, now time.Time) (User, error) {
	col := map[int]string{LevelVIP: "vip_expire_at", LevelSVIP: "svip_expire_at"}[level]
	if col == "" || days <= 0 {
		return User{}, fmt.Errorf("retract VIP: level %d, %d days", level, days)
	}
	t, d := now.Unix(), int64(days)*86400
	res, err := tx.Exec(ctx, `UPDATE users SET `+col+` = CASE WHEN `+col+` - ? > ? THEN `+col+` - ?
		WHEN `+col+` > ? THEN ? ELSE `+col+` END, updated_at = ? WHERE id = ?`,
		d, t, d, t, t, t, uid)
	if err != nil {
		return User{}, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return User{}, err
	} else if n == 0 {
		return User{}, db.ErrNotFound
	}
	return loadUser(ctx, tx, uid)
}
