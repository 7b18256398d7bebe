package wallet

import (
	"context"
	"time"

	"prima/internal/membership"
	"prima/internal/platform/db"
)

// grantVIP gives uid what VIP card p includes, inside tx: p.Days of its
// tier (extended from the later of now and that tier's expiry). Every way
// of buying a card (coins, a paid order, an operator marking an order
// paid) goes through here, so a card gives the same thing however it was
// paid for.
func (s *Service) grantVIP(ctx context.Context, tx *db.Tx, uid int64, p membership.Product, now time.Time) (membership.User, error) {
	return membership.Extend(ctx, tx, uid, p.Level, p.Days, now)
}
