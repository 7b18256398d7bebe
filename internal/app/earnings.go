package app

import (
	"context"
	"errors"

	"prima/internal/account"
	"prima/internal/earnings"
	"prima/internal/platform/db"
	"prima/internal/rewards"
	"prima/internal/wallet"
)

// moneyHooks is what the wallet tells of payments, refunds and sales
// (wallet.Earnings): earnings makes commission and creator earnings, and a
// paid order may be the sign an invitation's sign-up reward waits for.
type moneyHooks struct {
	*earnings.Service
	invites *rewards.Invites
}

func (h moneyHooks) OrderPaid(ctx context.Context, tx *db.Tx, o wallet.PaidOrder) error {
	if err := h.Service.OrderPaid(ctx, tx, o); err != nil {
		return err
	}
	return h.invites.Paid(ctx, tx, o.UserID)
}

// earningsPeople shows users to the earnings domain through the account
// rules: whether they registered, whether two share a device, and their
// accounts and names (masked by earnings before an inviter sees them).
type earningsPeople struct{ s *account.Service }

func (earningsPeople) Joined(ctx context.Context, q db.Querier, uid int64) (int64, bool, error) {
	return account.Joined(ctx, q, uid)
}

func (earningsPeople) SharesDevice(ctx context.Context, q db.Querier, a, b int64) (bool, error) {
	return account.SharesDevice(ctx, q, a, b)
}

func (p earningsPeople) People(ctx context.Context, uids []int64) (map[int64]earnings.Person, error) {
	out := make(map[int64]earnings.Person, len(uids))
	for _, uid := range uids {
		if _, seen := out[uid]; seen {
			continue
		}
		u, err := p.s.User(ctx, uid)
		if errors.Is(err, db.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out[uid] = earnings.Person{Account: u.Account, Name: p.s.Profile(u).Name}
	}
	return out, nil
}
