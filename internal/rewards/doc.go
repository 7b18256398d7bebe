// Package rewards is the rewards domain: points, daily check-in, tasks and
// points prizes (welfare*.go), redemption codes (codes*.go) and invitations
// (invite*.go). Each area has its own service type; all of them grant coins,
// VIP days and coupons only through the wallet (Granter), and points only
// through Welfare.AddPoints.
package rewards

import (
	"context"
	"time"

	"prima/internal/platform/db"
	"prima/internal/wallet"
)

// Granter gives coins, VIP days and coupons inside the caller's
// transaction: the wallet (wallet.(*Service).GrantReward).
type Granter interface {
	GrantReward(ctx context.Context, tx *db.Tx, uid int64, kind, key, memo string, r wallet.Reward, now time.Time) error
}
