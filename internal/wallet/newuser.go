package wallet

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"prima/internal/account"
	"prima/internal/membership"
	"prima/internal/platform/db"
)

// New-user offers (membership.Product.NewUser) are once per account and
// once per device, since a guest can make a new account on the same phone
// (docs/architecture.md, *VIP tiers*). Every sale of one takes a claim, a
// newuser_offer_claims row, in its own transaction; the table's unique
// indexes on the account and on the device decide between sales that race.
// A coin purchase claims for good; an order claims when it is made (so two
// unpaid orders for the offer cannot both be paid) and gives the claim
// back when it expires or is cancelled unpaid.

var (
	// ErrNewUserUsed: the account or the device already had a new-user
	// offer (409).
	ErrNewUserUsed = errors.New("new-user offer already used by this account or device")
	// ErrNewUserPending: an unpaid order of the account or the device holds
	// the new-user offer (409).
	ErrNewUserPending = errors.New("new-user offer held by an unpaid order")
)

// deviceOf is the device of the request's session, as account bound it at
// login ("" without a session, or a session opened without a device).
func deviceOf(ctx context.Context) string {
	if s := account.CurrentSession(ctx); s != nil {
		return s.DevID
	}
	return ""
}

// claimNewUser takes the new-user offer for uid on device dev (productID,
// sold by source: "vipbuy:<uid>:<key>" or "order:<no>") inside tx, or says
// why it cannot: ErrNewUserPending or ErrNewUserUsed.
func claimNewUser(ctx context.Context, tx *db.Tx, uid int64, dev string, productID int64, source string, now time.Time) error {
	var d any
	if dev != "" {
		d = dev
	}
	// DO NOTHING without a target covers both unique indexes; on
	// PostgreSQL it waits for a racing claim's transaction and inserts
	// only if that one rolled back.
	res, err := tx.Exec(ctx, `INSERT INTO newuser_offer_claims (user_id, dev_id, product_id, source, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT DO NOTHING`, uid, d, productID, source, now.Unix())
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 1 {
		return nil
	}
	held, err := newUserClaim(ctx, tx, uid, dev)
	if err != nil {
		return err
	}
	if no, ok := strings.CutPrefix(held, "order:"); ok {
		var status string
		err := tx.QueryRow(ctx, `SELECT status FROM orders WHERE order_no = ?`, no).Scan(&status)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if status == OrderPending {
			return ErrNewUserPending
		}
	}
	return ErrNewUserUsed
}

// newUserClaim is the source of the claim uid or device dev holds, "" when
// neither has one: they may not have a new-user offer.
func newUserClaim(ctx context.Context, q db.Querier, uid int64, dev string) (string, error) {
	query, args := `SELECT source FROM newuser_offer_claims WHERE user_id = ?`, []any{uid}
	if dev != "" {
		query, args = query+` OR dev_id = ?`, append(args, dev)
	}
	var source string
	err := q.QueryRow(ctx, query+` ORDER BY id LIMIT 1`, args...).Scan(&source)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return source, err
}

// releaseNewUser gives back the claim of order no, closed unpaid, in tx.
func releaseNewUser(ctx context.Context, tx *db.Tx, no string) error {
	_, err := tx.Exec(ctx, `DELETE FROM newuser_offer_claims WHERE source = ?`, "order:"+no)
	return err
}

// keepNewUserClaim makes sure a new-user card's order o, being paid, holds
// the offer: a pending order does since it was made; an expired or
// cancelled one an operator marks paid gave its claim back and takes it
// again for the account (its device is not known any more), or is refused
// with ErrNewUserUsed when the account has had the offer since.
func keepNewUserClaim(ctx context.Context, tx *db.Tx, o Order, now time.Time) error {
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM newuser_offer_claims WHERE source = ?`, "order:"+o.OrderNo).Scan(&n); err != nil || n > 0 {
		return err
	}
	p, err := membership.AnyProductByID(ctx, tx, o.ProductID)
	if errors.Is(err, membership.ErrNoProduct) || (err == nil && !p.NewUser) {
		return nil
	}
	if err != nil {
		return err
	}
	if err := claimNewUser(ctx, tx, o.UserID, "", o.ProductID, "order:"+o.OrderNo, now); err != nil {
		return ErrNewUserUsed
	}
	return nil
}
