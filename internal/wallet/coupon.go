package wallet

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"prima/internal/account"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
)

// Coupons (docs/architecture.md, *Gold purchases and coupons*). A coupon is
// a user_coupons row; its state is read, not stored: used when used_at > 0,
// else expired once expires_at has passed (a coupon a refund took back has
// used_at couponWithdrawn and expires_at the refund's time), else unused. Paying with
// one is a conditional update, so a coupon pays once however requests race.

// GoldVideoCoupon is the coupon kind that buys one gold video: VIP cards
// include it and operators grant it (migration 0012 creates it).
const GoldVideoCoupon = 1

// couponWithdrawn is the used_at of a coupon a refund took back unused:
// not used (used_at > 0 is), never usable again (using needs used_at = 0),
// shown expired (its expires_at is the refund's time).
const couponWithdrawn = -1

// Coupon positions, in the order the backpack shows them.
// Refusals of coupons (purchaseErrs and couponGrantErrs answer them).
var (
	// ErrNoCoupon: no unused, unexpired gold-video coupon to pay with (409).
	ErrNoCoupon = errors.New("no unused gold-video coupon")
	// ErrNoUser: coupons granted to a user that does not exist (404).
	ErrNoUser = errors.New("no such user")
)

var couponPositions = []string{"unused", "used", "expired"}

// maxCouponTries bounds how often a buy looks for another coupon after a
// concurrent buy took the one it picked.
const maxCouponTries = 20

// useOneCoupon marks one of uid's unused, unexpired gold-video coupons used
// for what, inside tx, and returns its id; ErrNoCoupon when none is left. The
// soonest to expire goes first.
func useOneCoupon(ctx context.Context, tx *db.Tx, uid int64, what string, now time.Time) (int64, error) {
	t := now.Unix()
	for range maxCouponTries {
		var id int64
		err := tx.QueryRow(ctx, `SELECT id FROM user_coupons WHERE user_id = ? AND kind_id = ? AND used_at = 0 AND expires_at > ?
			ORDER BY expires_at, id LIMIT 1`, uid, GoldVideoCoupon, t).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			break
		}
		if err != nil {
			return 0, err
		}
		// Another buy may have taken it since: the condition decides.
		res, err := tx.Exec(ctx, `UPDATE user_coupons SET used_at = ?, used_for = ? WHERE id = ? AND used_at = 0 AND expires_at > ?`,
			t, what, id, t)
		if err != nil {
			return 0, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return 0, err
		} else if n == 1 {
			return id, nil
		}
	}
	return 0, ErrNoCoupon
}

// grantCoupons gives uid n gold-video coupons valid for days (the kind's
// own validity when days is 0), inside tx.
func grantCoupons(ctx context.Context, tx *db.Tx, uid int64, n, days int, source string, now time.Time) (time.Time, error) {
	if days <= 0 {
		if err := tx.QueryRow(ctx, `SELECT days FROM coupon_kinds WHERE id = ?`, GoldVideoCoupon).Scan(&days); err != nil {
			return time.Time{}, err
		}
	}
	exp := now.Add(time.Duration(days) * 24 * time.Hour).Unix()
	for range n {
		if _, err := tx.Exec(ctx, `INSERT INTO user_coupons (user_id, kind_id, source, expires_at, created_at) VALUES (?, ?, ?, ?, ?)`,
			uid, GoldVideoCoupon, source, exp, now.Unix()); err != nil {
			return time.Time{}, err
		}
	}
	return time.Unix(exp, 0).UTC(), nil
}

// retractCoupons takes back, inside tx, the coupons source gave uid (a
// refunded sale, "order:<no>"): those unused end now (the backpack shows
// them expired) and are marked withdrawn (used_at = couponWithdrawn). If
// one was used, what it bought cannot be given back by ending it, so it
// fails with ErrRefundCouponUsed and the caller's transaction rolls back.
// Withdrawing the unused ones comes first: a purchase racing to use one of
// them either committed before (and is counted below) or finds it no longer
// at used_at = 0, whatever its clock says (useOneCoupon's update is
// conditional).
func retractCoupons(ctx context.Context, tx *db.Tx, uid int64, source string, now time.Time) error {
	if _, err := tx.Exec(ctx, `UPDATE user_coupons SET expires_at = ?, used_at = ? WHERE user_id = ? AND source = ? AND used_at = 0 AND expires_at > ?`,
		now.Unix(), couponWithdrawn, uid, source, now.Unix()); err != nil {
		return err
	}
	var used int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM user_coupons WHERE user_id = ? AND source = ? AND used_at > 0`, uid, source).Scan(&used); err != nil {
		return err
	}
	if used > 0 {
		return fmt.Errorf("%w: %d of %s", ErrRefundCouponUsed, used, source)
	}
	return nil
}

// CouponGroups is uid's backpack (GET /api/app/backpack, and the user
// info's newGoldVideoCoupon): always the three groups unused, used,
// expired, each with one entry per coupon kind held in that state.
func (s *Service) CouponGroups(ctx context.Context, uid int64) ([]account.CouponGroup, error) {
	type row struct {
		pos   string
		c     account.Coupon
		first int64
	}
	rows, err := db.All(ctx, s.db, func(r db.Scanner) (row, error) {
		var x row
		err := r.Scan(&x.pos, &x.c.ID, &x.c.Name, &x.c.Count, &x.first)
		return x, err
	}, `SELECT pos, kind_id, name, COUNT(*), MIN(expires_at) FROM (
			SELECT CASE WHEN c.used_at > 0 THEN 'used' WHEN c.expires_at <= ? THEN 'expired' ELSE 'unused' END AS pos,
				c.kind_id, k.name, c.expires_at
			FROM user_coupons c JOIN coupon_kinds k ON k.id = c.kind_id WHERE c.user_id = ?) x
		GROUP BY pos, kind_id, name ORDER BY kind_id`, s.now().Unix(), uid)
	if err != nil {
		return nil, err
	}
	groups := make([]account.CouponGroup, len(couponPositions))
	at := map[string]int{}
	for i, p := range couponPositions {
		groups[i] = account.CouponGroup{Position: p, Coupons: []account.Coupon{}}
		at[p] = i
	}
	for _, x := range rows {
		exp := time.Unix(x.first, 0).UTC()
		x.c.ExpiresAt = &exp
		g := &groups[at[x.pos]]
		g.Coupons = append(g.Coupons, x.c)
	}
	return groups, nil
}

// CouponGrant is an operator's grant (POST /api/admin/coupons/grant).
type CouponGrant struct {
	UID    int64
	Count  int
	Days   int
	Reason string
	Key    string
}

// CouponGrantResult is the grant's answer.
type CouponGrantResult struct {
	UID       int64     `json:"uid"`
	Count     int       `json:"count"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// GrantCoupons gives g.Count gold-video coupons to g.UID for an operator,
// once per key, audited as "coupon.grant" in the same transaction.
func (s *Service) GrantCoupons(ctx context.Context, actor audit.Actor, g CouponGrant) (CouponGrantResult, error) {
	now := s.now()
	var out CouponGrantResult
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		req := map[string]any{"uid": g.UID, "count": g.Count, "days": g.Days, "reason": g.Reason}
		out, _, err = Once(ctx, tx, actor.UID, "admin.coupons.grant", g.Key, req, now, func() (CouponGrantResult, error) {
			if _, _, err := account.Joined(ctx, tx, g.UID); errors.Is(err, db.ErrNotFound) {
				return CouponGrantResult{}, ErrNoUser
			} else if err != nil {
				return CouponGrantResult{}, err
			}
			exp, err := grantCoupons(ctx, tx, g.UID, g.Count, g.Days, "admin:"+strconv.FormatInt(actor.UID, 10), now)
			if err != nil {
				return CouponGrantResult{}, err
			}
			res := CouponGrantResult{UID: g.UID, Count: g.Count, ExpiresAt: exp}
			return res, audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "coupon.grant", TargetType: "user",
				TargetID: strconv.FormatInt(g.UID, 10), After: map[string]any{"count": g.Count, "days": g.Days, "reason": g.Reason,
					"expiresAt": exp.Unix()}}, now)
		})
		return err
	})
	return out, err
}
