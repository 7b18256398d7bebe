package wallet

import (
	"context"
	"errors"
	"time"

	"prima/internal/platform/db"
)

const orderColumns = `order_no, user_id, product_type, product_id, title, amount, currency, coins, bonus, vip_level, vip_days, vip_coupons,
	pay_type, status, trade_no, pay_url, created_at, expires_at, paid_at, pay_ref`

func scanOrder(s db.Scanner) (Order, error) {
	var o Order
	var created, expires, paid int64
	err := s.Scan(&o.OrderNo, &o.UserID, &o.ProductType, &o.ProductID, &o.Title, &o.Amount, &o.currency, &o.Coins, &o.Bonus,
		&o.VipLevel, &o.VipDays, &o.vipCoupons, &o.PayType, &o.Status, &o.TradeNo, &o.PayURL, &created, &expires, &paid, &o.PayRef)
	o.CreatedAt, o.ExpiresAt = time.Unix(created, 0).UTC(), time.Unix(expires, 0).UTC()
	if paid > 0 {
		t := time.Unix(paid, 0).UTC()
		o.PaidAt = &t
	}
	if o.Status != OrderPending {
		o.PayURL = ""
	}
	return o, err
}

const packageColumns = `id, type, name, coins, bonus, price, original_price, label, sort, active`

func scanPackage(s db.Scanner) (CoinPackage, error) {
	var p CoinPackage
	var active int
	err := s.Scan(&p.ID, &p.Type, &p.Name, &p.Coins, &p.Bonus, &p.Price, &p.OriginalPrice, &p.Label, &p.Sort, &active)
	p.Active = active != 0
	return p, err
}

// orderForUpdate reads order no in tx, locking its row on PostgreSQL so
// that two callbacks, a callback and the expiry job, or a callback and an
// operator decide one after the other.
func orderForUpdate(ctx context.Context, tx *db.Tx, no string) (Order, error) {
	o, err := scanOrder(tx.QueryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE order_no = ?`+tx.ForUpdate(), no))
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return Order{}, ErrNoOrder
	}
	return o, err
}

// setStatus moves order no from one state to another, or fails with
// ErrOrderState when it is no longer in from.
func setStatus(ctx context.Context, tx *db.Tx, no, from, to string, now time.Time) error {
	res, err := tx.Exec(ctx, `UPDATE orders SET status = ?, closed_at = ? WHERE order_no = ? AND status = ?`, to, now.Unix(), no, from)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		return ErrOrderState
	}
	return nil
}

// PaidOrdersSince counts uid's orders paid at or after since (unix
// seconds): the welfare tasks' topup metric (rewards.Counter).
func PaidOrdersSince(ctx context.Context, q db.Querier, uid, since int64) (int64, error) {
	var n int64
	err := q.QueryRow(ctx, `SELECT COUNT(*) FROM orders WHERE user_id = ? AND status = 'paid' AND paid_at >= ?`, uid, since).Scan(&n)
	return n, err
}
