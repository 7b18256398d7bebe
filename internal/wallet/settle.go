package wallet

import (
	"context"
	"fmt"
	"strings"
	"time"

	"prima/internal/membership"
	"prima/internal/platform/db"
)

// Outcome says what a callback or an operator call did.
type Outcome string

const (
	OutcomePaid      Outcome = "paid"      // credited now
	OutcomeReplay    Outcome = "replay"    // already in that state: nothing moved
	OutcomeCancelled Outcome = "cancelled" // pending -> cancelled
	OutcomeLate      Outcome = "late"      // paid after the order closed: recorded, nothing credited
	OutcomeIgnored   Outcome = "ignored"   // a cancel for an order no longer pending
)

// settle applies a verified callback cb from provider prov: the one path
// from a provider's word to money. Amount, currency and provider are
// compared with the order; the order's state decides the rest, and every
// state change is conditional on the state read.
func (s *Service) settle(ctx context.Context, prov string, cb Callback) (Outcome, Order, error) {
	now := s.now()
	var (
		out Outcome
		o   Order
	)
	decide := s.settleDecide(prov, cb, now, &out, &o)
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := decide(ctx, tx); err != nil {
			return err
		}
		// What came of it commits with it: one write, one commit.
		_, err := tx.Exec(ctx, `INSERT INTO payment_callbacks (provider, order_no, outcome, detail, created_at) VALUES (?, ?, ?, ?, ?)`,
			prov, cb.OrderNo, string(out), callbackDetail(cb), now.Unix())
		return err
	})
	return out, o, err
}

// clipText bounds text from a callback kept for operators.
func clipText(s string, n int) string {
	if len(s) > n {
		s = s[:n]
	}
	return strings.ToValidUTF8(s, "?")
}

// settleDecide is settle's decision inside its transaction: it sets *o and
// *out, or fails (and the transaction rolls back).
func (s *Service) settleDecide(prov string, cb Callback, now time.Time, out *Outcome, o *Order) func(ctx context.Context, tx *db.Tx) error {
	return func(ctx context.Context, tx *db.Tx) error {
		var err error
		*o, err = orderForUpdate(ctx, tx, cb.OrderNo)
		if err != nil {
			return err
		}
		if !ofGateway(prov, o.PayType) {
			return fmt.Errorf("%w: order %s is paid through %s, not %s", ErrCallback, o.OrderNo, o.PayType, prov)
		}
		if cb.Currency != o.currency {
			return fmt.Errorf("%w: currency %q, order in %s", ErrCallback, cb.Currency, o.currency)
		}
		if cb.Amount != o.Amount {
			return fmt.Errorf("%w: amount %d, order of %d", ErrCallback, cb.Amount, o.Amount)
		}
		switch cb.Status {
		case OrderPaid:
			switch {
			case o.Status == OrderPaid || o.Status == OrderRefunded:
				*out = OutcomeReplay
				return nil
			case o.Status != OrderPending || !now.Before(o.ExpiresAt) && !cb.queried:
				// Paid after the order closed (cancelled, or expired even if
				// the job has not run yet): nothing is credited; an operator
				// sees it in the callbacks and may mark the order paid.
				*out = OutcomeLate
				return nil
			}
			*out = OutcomePaid
			*o, err = s.fulfil(ctx, tx, *o, []string{OrderPending}, cb.TradeNo, 0, now)
			return err
		case OrderCancelled:
			if o.Status != OrderPending {
				*out = OutcomeIgnored
				return nil
			}
			if err := setStatus(ctx, tx, o.OrderNo, OrderPending, OrderCancelled, now); err != nil {
				return err
			}
			if err := releaseNewUser(ctx, tx, o.OrderNo); err != nil {
				return err
			}
			o.Status, o.PayURL, *out = OrderCancelled, "", OutcomeCancelled
			return nil
		}
		return fmt.Errorf("%w: status %q", ErrCallback, cb.Status)
	}
}

// fulfil marks o paid (from one of the states from, conditionally) and
// credits what it sells, in tx: the "topup" and "bonus" movements for
// coins, the money and the card's days for VIP. The ledger keys are the
// order's, so however often fulfil is reached for one order it credits
// once.
func (s *Service) fulfil(ctx context.Context, tx *db.Tx, o Order, from []string, tradeNo string, operator int64, now time.Time) (Order, error) {
	ph := db.Placeholders(len(from))
	args := []any{tradeNo, now.Unix(), o.OrderNo}
	for _, f := range from {
		args = append(args, f)
	}
	res, err := tx.Exec(ctx, `UPDATE orders SET status = 'paid', trade_no = ?, paid_at = ? WHERE order_no = ? AND status IN (`+ph+`)`, args...)
	if err != nil {
		return o, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return o, err
	} else if n != 1 {
		return o, ErrOrderState
	}
	memo := "充值 " + o.Title
	money := []Leg{{System(SysPayments), -o.Amount}, {System(SysSales), o.Amount}}
	switch o.ProductType {
	case ProductCoins:
		legs := append(money, Leg{System(SysCoinsSold), -o.Coins}, Leg{UserCoins(o.UserID), o.Coins})
		if _, err := s.Ledger.Post(ctx, tx, Transfer{Kind: "topup", Key: "topup:" + o.OrderNo, UserID: o.UserID, Ref: o.OrderNo,
			Memo: memo, OperatorID: operator, Legs: legs}, now); err != nil {
			return o, err
		}
		if o.Bonus > 0 {
			if _, err := s.Ledger.Post(ctx, tx, Transfer{Kind: "bonus", Key: "bonus:" + o.OrderNo, UserID: o.UserID, Ref: o.OrderNo,
				Memo: "充值赠送", OperatorID: operator, Legs: []Leg{{System(SysCoinsPromo), -o.Bonus}, {UserCoins(o.UserID), o.Bonus}}}, now); err != nil {
				return o, err
			}
		}
	case ProductVIP:
		if err := keepNewUserClaim(ctx, tx, o, now); err != nil {
			return o, err
		}
		if _, err := s.Ledger.Post(ctx, tx, Transfer{Kind: "buy_vip", Key: "buyvip:" + o.OrderNo, UserID: o.UserID, Ref: o.OrderNo,
			Memo: "购买 " + o.Title, OperatorID: operator, Legs: money}, now); err != nil {
			return o, err
		}
		p := membership.Product{ID: o.ProductID, Level: o.VipLevel, Name: o.Title, Days: o.VipDays, Price: o.Amount, Coupons: o.vipCoupons}
		if _, err := s.grantVIP(ctx, tx, o.UserID, p, "order:"+o.OrderNo, now); err != nil {
			return o, err
		}
	}
	if err := s.earnPaid(ctx, tx, o, now); err != nil {
		return o, err
	}
	uid := o.UserID
	s.notify(tx, uid, "topup")
	t := now.UTC().Truncate(time.Second)
	o.Status, o.TradeNo, o.PaidAt, o.PayURL = OrderPaid, tradeNo, &t, ""
	return o, nil
}

// recordCallback keeps what a callback was and what came of it, for
// operators, in its own write: a refused callback's transaction rolled back.
func (s *Service) recordCallback(ctx context.Context, prov, orderNo string, out string, detail string) {
	if len(detail) > 500 {
		detail = detail[:500]
	}
	if len(orderNo) > 64 {
		orderNo = orderNo[:64]
	}
	_, _ = s.db.Exec(context.WithoutCancel(ctx), `INSERT INTO payment_callbacks (provider, order_no, outcome, detail, created_at) VALUES (?, ?, ?, ?, ?)`,
		prov, strings.ToValidUTF8(orderNo, "?"), out, strings.ToValidUTF8(detail, "?"), s.now().Unix())
}

// MarkPaid is an operator crediting a missed payment: a pending, expired or
// cancelled order becomes paid and credits what the callback would have,
// once. A paid order answers as it is (replay true).
func (s *Service) MarkPaid(ctx context.Context, no string, operator int64, audit func(ctx context.Context, tx *db.Tx, before, after Order) error) (Order, bool, error) {
	now := s.now()
	var (
		o      Order
		replay bool
	)
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		before, err := orderForUpdate(ctx, tx, no)
		if err != nil {
			return err
		}
		switch before.Status {
		case OrderPaid:
			o, replay = before, true
			return nil
		case OrderRefunded:
			return ErrOrderState
		}
		o, err = s.fulfil(ctx, tx, before, []string{OrderPending, OrderExpired, OrderCancelled},
			fmt.Sprintf("manual:%d", operator), operator, now)
		if err != nil {
			return err
		}
		return audit(ctx, tx, before, o)
	})
	return o, replay, err
}

// CallbackRecord is one row of payment_callbacks.
type CallbackRecord struct {
	ID        int64     `json:"id"`
	Provider  string    `json:"provider"`
	OrderNo   string    `json:"orderNo"`
	Outcome   string    `json:"outcome"`
	Detail    string    `json:"detail"`
	CreatedAt time.Time `json:"createdAt"`
}

// Callbacks are the last 100 callbacks recorded, of order no when given.
func (s *Service) Callbacks(ctx context.Context, no string) ([]CallbackRecord, error) {
	where, args := "", []any{}
	if no != "" {
		where, args = " WHERE order_no = ?", append(args, no)
	}
	return db.All(ctx, s.db, func(sc db.Scanner) (CallbackRecord, error) {
		var c CallbackRecord
		var at int64
		err := sc.Scan(&c.ID, &c.Provider, &c.OrderNo, &c.Outcome, &c.Detail, &at)
		c.CreatedAt = time.Unix(at, 0).UTC()
		return c, err
	}, `SELECT id, provider, order_no, outcome, detail, created_at FROM payment_callbacks`+where+` ORDER BY id DESC LIMIT 100`, args...)
}
