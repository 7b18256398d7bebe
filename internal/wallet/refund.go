package wallet

import (
	"context"
	"errors"
	"fmt"

	"prima/internal/membership"
	"prima/internal/platform/db"
)

// ErrRefundSpent: the coins of the order were spent; a refund would take
// the user below zero (409).
var ErrRefundSpent = errors.New("coins of the order already spent")

// ErrRefundCouponUsed: a coupon that came with the order's VIP card has
// bought something; a refund would leave the user what it bought (409).
var ErrRefundCouponUsed = errors.New("a coupon of the order already used")

// Refund reverses a paid order: the "refund" movement takes back its coins
// and bonus (ErrRefundSpent when the user spent them) and returns the money
// to the payments account, or takes back the VIP days it added
// (membership.Retract) and the coupons it gave (ErrRefundCouponUsed when
// one of them bought something). What the order gave is taken back whole,
// or the refund is refused and nothing changes: the operator settles it
// with the user another way. A refunded order answers as it is (replay
// true).
func (s *Service) Refund(ctx context.Context, no, reason string, operator int64, audit func(ctx context.Context, tx *db.Tx, before, after Order) error) (Order, bool, error) {
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
		case OrderRefunded:
			o, replay = before, true
			return nil
		case OrderPaid:
		default:
			return ErrOrderState
		}
		if err := setStatus(ctx, tx, no, OrderPaid, OrderRefunded, now); err != nil {
			return err
		}
		if before.ProductType == ProductVIP {
			if err := retractCoupons(ctx, tx, before.UserID, "order:"+no, now); err != nil {
				return err
			}
		}
		legs := []Leg{{System(SysPayments), before.Amount}, {System(SysSales), -before.Amount}}
		if before.ProductType == ProductCoins {
			legs = append(legs, Leg{UserCoins(before.UserID), -(before.Coins + before.Bonus)}, Leg{System(SysCoinsSold), before.Coins})
			if before.Bonus > 0 {
				legs = append(legs, Leg{System(SysCoinsPromo), before.Bonus})
			}
		}
		memo := "退款 " + before.Title
		if reason != "" {
			memo += "：" + reason
		}
		_, err = s.Ledger.Post(ctx, tx, Transfer{Kind: "refund", Key: "refund:" + no, UserID: before.UserID, Ref: no,
			Memo: memo, OperatorID: operator, Legs: legs}, now)
		if errors.Is(err, ErrInsufficient) {
			return fmt.Errorf("%w: %w", ErrRefundSpent, err)
		}
		if err != nil {
			return err
		}
		if before.ProductType == ProductVIP {
			if _, err := membership.Retract(ctx, tx, before.UserID, before.VipLevel, before.VipDays, now); err != nil {
				return err
			}
		}
		if err := s.earnRefunded(ctx, tx, before, now); err != nil {
			return err
		}
		o = before
		o.Status, o.PayURL = OrderRefunded, ""
		uid := o.UserID
		s.notify(tx, uid, "refund")
		return audit(ctx, tx, before, o)
	})
	return o, replay, err
}
