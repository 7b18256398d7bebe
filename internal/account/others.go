package account

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"prima/internal/membership"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// What other domains read and move of a user's row, on the handle they
// pass (their own transaction when there is one): the columns stay
// account's, the SQL stays here, and each caller reaches these through a
// seam it declares or, for a step of its own transaction, by calling them
// (docs/architecture.md, *The rules*).

// Card is a user as other domains show them beside what they made or did:
// an author, an uploader, a follow list's person, a chat partner.
type Card struct {
	UID      int64
	Name     string
	Portrait string
	Bio      string
	// Guest: no account yet (a device's throwaway user).
	Guest bool
	Role  httpx.Role
	// The VIP tiers' expiries (unix seconds); VipLevel reads them.
	VipExpireAt, SvipExpireAt int64
}

// VipLevel is c's VIP level at now (membership.ActiveVipLevel).
func (c Card) VipLevel(now time.Time) int {
	return membership.ActiveVipLevel(membership.User{ID: c.UID, VipExpireAt: c.VipExpireAt, SvipExpireAt: c.SvipExpireAt}, now)
}

// Cards reads the users among uids on q in one query, by uid; a uid with
// no user is absent from the map. A page of a list asks once for all its
// rows.
func Cards(ctx context.Context, q db.Querier, uids []int64) (map[int64]Card, error) {
	out := make(map[int64]Card, len(uids))
	args := make([]any, 0, len(uids))
	seen := make(map[int64]bool, len(uids))
	for _, id := range uids {
		if !seen[id] {
			seen[id] = true
			args = append(args, id)
		}
	}
	if len(args) == 0 {
		return out, nil
	}
	list, err := db.All(ctx, q, func(s db.Scanner) (Card, error) {
		var (
			c       Card
			account sql.NullString
		)
		err := s.Scan(&c.UID, &c.Name, &c.Portrait, &c.Bio, &account, &c.Role, &c.VipExpireAt, &c.SvipExpireAt)
		c.Guest = !account.Valid || account.String == ""
		return c, err
	}, `SELECT id, name, portrait, bio, account, role, vip_expire_at, svip_expire_at FROM users WHERE id IN (`+db.Placeholders(len(args))+`)`, args...)
	for _, c := range list {
		out[c.UID] = c
	}
	return out, err
}

// Tiers reads user uid's VIP tiers and free windows on q, db.ErrNotFound
// when there is no such user: the columns membership's rules decide by
// (membership.TiersOn).
func Tiers(ctx context.Context, q db.Querier, uid int64) (membership.User, error) {
	u := membership.User{ID: uid}
	err := q.QueryRow(ctx, `SELECT vip_expire_at, svip_expire_at, gold_video_free_until, video_free_until FROM users WHERE id = ?`, uid).
		Scan(&u.VipExpireAt, &u.SvipExpireAt, &u.GoldVideoFreeUntil, &u.VideoFreeUntil)
	return u, db.NotFound(err)
}

// tierColumn is the users column of VIP tier level's expiry.
func tierColumn(level int) string {
	return map[int]string{membership.LevelVIP: "vip_expire_at", membership.LevelSVIP: "svip_expire_at"}[level]
}

// ExtendTier adds days of tier level to user uid inside tx and returns the
// user's tiers afterwards (db.ErrNotFound: no such user). The tier's
// expiry moves from the later of now and its current expiry, so buying
// early loses nothing; the other tier keeps its own expiry
// (docs/architecture.md, *VIP tiers*). One conditional statement, so
// parallel extensions add up.
func ExtendTier(ctx context.Context, tx *db.Tx, uid int64, level, days int, now time.Time) (membership.User, error) {
	col := tierColumn(level)
	if col == "" || days <= 0 {
		return membership.User{}, fmt.Errorf("extend VIP: level %d, %d days", level, days)
	}
	t := now.Unix()
	res, err := tx.Exec(ctx, `UPDATE users SET `+col+` = CASE WHEN `+col+` > ? THEN `+col+` ELSE ? END + ?, updated_at = ? WHERE id = ?`,
		t, t, int64(days)*86400, t, uid)
	if err := oneRow(res, err); err != nil {
		return membership.User{}, err
	}
	return Tiers(ctx, tx, uid)
}

// RetractTier takes days of tier level back from user uid inside tx (a
// refunded VIP order) and returns the user's tiers afterwards. The tier's
// expiry moves back by days, but never before now: days already used stay
// used, and a tier that has already run out is left as it is. The other
// tier is untouched (each tier keeps its own expiry, see ExtendTier).
func RetractTier(ctx context.Context, tx *db.Tx, uid int64, level, days int, now time.Time) (membership.User, error) {
	col := tierColumn(level)
	if col == "" || days <= 0 {
		return membership.User{}, fmt.Errorf("retract VIP: level %d, %d days", level, days)
	}
	t, d := now.Unix(), int64(days)*86400
	res, err := tx.Exec(ctx, `UPDATE users SET `+col+` = CASE WHEN `+col+` - ? > ? THEN `+col+` - ?
		WHEN `+col+` > ? THEN ? ELSE `+col+` END, updated_at = ? WHERE id = ?`,
		d, t, d, t, t, t, uid)
	if err := oneRow(res, err); err != nil {
		return membership.User{}, err
	}
	return Tiers(ctx, tx, uid)
}

// oneRow is db.ErrNotFound when an update by id changed no row.
func oneRow(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return db.ErrNotFound
	}
	return nil
}

// MovePoints moves user uid's points balance by delta inside tx, never
// below zero, and returns the balance after. ok is false, and nothing
// moved, when a debit is more than the balance or there is no such user.
// One conditional statement, so parallel debits cannot overdraw. The
// points ledger is rewards' (rewards.Welfare.AddPoints calls this).
func MovePoints(ctx context.Context, tx *db.Tx, uid, delta int64) (balance int64, ok bool, err error) {
	err = tx.QueryRow(ctx, `UPDATE users SET points = points + ? WHERE id = ? AND points + ? >= 0 RETURNING points`,
		delta, uid, delta).Scan(&balance)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return balance, err == nil, err
}

// Points is user uid's points balance, read on q; db.ErrNotFound when
// there is no such user.
func Points(ctx context.Context, q db.Querier, uid int64) (int64, error) {
	var p int64
	err := q.QueryRow(ctx, `SELECT points FROM users WHERE id = ?`, uid).Scan(&p)
	return p, db.NotFound(err)
}

// HoldUser holds user uid's row until tx ends (db.ErrNotFound when there is
// none): the wallet checks its per-user payout rules under it. On SQLite
// the single writer already serialises; on PostgreSQL the no-op update
// takes the row lock.
func HoldUser(ctx context.Context, tx *db.Tx, uid int64) error {
	res, err := tx.Exec(ctx, `UPDATE users SET updated_at = updated_at WHERE id = ?`, uid)
	return oneRow(res, err)
}

// TxDiscount is user uid's own withdrawal fee in percent, nil when the
// default applies, read on q; db.ErrNotFound when there is no such user.
func TxDiscount(ctx context.Context, q db.Querier, uid int64) (*int64, error) {
	var disc sql.NullInt64
	if err := q.QueryRow(ctx, `SELECT tx_discount FROM users WHERE id = ?`, uid).Scan(&disc); err != nil {
		return nil, db.NotFound(err)
	}
	if !disc.Valid {
		return nil, nil
	}
	return &disc.Int64, nil
}
