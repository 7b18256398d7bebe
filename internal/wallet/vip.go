package wallet

import (
	"context"
	"time"

	"prima/internal/membership"
	"prima/internal/platform/db"
)

// grantVIP gives uid what VIP card p includes, inside tx: p.Days of its
// tier (extended from the later of now and that tier's expiry) and
// p.Coupons gold-video coupons (valid for the coupon kind's days). Every
// way of buying a card (coins, a paid order, an operator marking an order
// paid) goes through here, so a card gives the same thing however it was
// paid for. source names the sale ("order:<no>", "vipbuy:<txn>"): the
// coupons carry it, so a refund of that sale takes back what is left of them.
func (s *Service) grantVIP(ctx context.Context, tx *db.Tx, uid int64, p membership.Product, source string, now time.Time) (membership.User, error) {
	u, err := membership.Extend(ctx, tx, uid, p.Level, p.Days, now)
	if err != nil {
		return u, err
	}
	if p.Coupons > 0 {
		if _, err := grantCoupons(ctx, tx, uid, p.Coupons, 0, source, now); err != nil {
			return u, err
		}
	}
	return u, nil
}
