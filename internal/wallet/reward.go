package wallet

import (
	"context"
	"errors"
	"fmt"
	"time"

	"prima/internal/account"
	"prima/internal/membership"
	"prima/internal/platform/db"
)

// SysCoinsRewards is where reward coins come from: check-in, tasks,
// redemption codes, invitations (the rewards domain).
const SysCoinsRewards = "sys:coin:rewards"

// Reward is what a reward grants; any mix of its parts, at least one.
type Reward struct {
	Coins    int64 // coins credited to the user's coin account
	VIPLevel int   // 1 VIP or 2 super VIP, with VIPDays
	VIPDays  int
	Coupons  int // gold-video coupons, valid for the coupon kind's own days
}

// Empty reports whether r grants nothing.
func (r Reward) Empty() bool { return r.Coins == 0 && r.VIPDays == 0 && r.Coupons == 0 }

// Limits of one reward, so a mistyped operator setting cannot mint a
// fortune: these are far above any sane reward.
const (
	maxRewardCoins   = 1_000_000
	maxRewardVIPDays = 3660
	maxRewardCoupons = 100
)

// ErrBadReward: a reward with nothing in it, a negative part, a VIP level
// other than 1 or 2 with days, or a part past its limit.
var ErrBadReward = errors.New("wallet: bad reward")

// CheckReward says whether r may be granted.
func CheckReward(r Reward) error {
	switch {
	case r.Empty():
		return fmt.Errorf("%w: empty", ErrBadReward)
	case r.Coins < 0 || r.VIPDays < 0 || r.Coupons < 0:
		return fmt.Errorf("%w: negative part", ErrBadReward)
	case r.Coins > maxRewardCoins || r.VIPDays > maxRewardVIPDays || r.Coupons > maxRewardCoupons:
		return fmt.Errorf("%w: part over its limit", ErrBadReward)
	case r.VIPDays > 0 && r.VIPLevel != membership.LevelVIP && r.VIPLevel != membership.LevelSVIP:
		return fmt.Errorf("%w: VIP level %d", ErrBadReward, r.VIPLevel)
	}
	return nil
}

// GrantReward gives uid the reward inside the caller's transaction: coins
// through the ledger (from SysCoinsRewards, under key), VIP days through
// membership, coupons into the backpack (their source is key, so an
// operator can trace them). key is the reward's idempotency key, unique
// per grant ("checkin:<uid>:<day>", "code:<id>:<uid>"); the caller makes
// the grant happen once (a unique row of its own in the same transaction)
// and the ledger refuses a second movement under the same key anyway.
// kind names it on the user's bill ("checkin", "task", "code", "invite").
// The user's apps hear wallet.changed after commit.
func (s *Service) GrantReward(ctx context.Context, tx *db.Tx, uid int64, kind, key, memo string, r Reward, now time.Time) error {
	if uid <= 0 || kind == "" || key == "" {
		return fmt.Errorf("%w: uid %d, kind %q, key %q", ErrBadReward, uid, kind, key)
	}
	if err := CheckReward(r); err != nil {
		return err
	}
	if r.Coins > 0 {
		posted, err := s.Ledger.Post(ctx, tx, Transfer{
			Kind: kind, Key: "reward:" + key, UserID: uid, Ref: key, Memo: memo,
			Legs: []Leg{{System(SysCoinsRewards), -r.Coins}, {UserCoins(uid), r.Coins}},
		}, now)
		if err != nil {
			return err
		}
		if posted.Replayed {
			return fmt.Errorf("wallet: reward %q granted before", key)
		}
	}
	if r.VIPDays > 0 {
		if _, err := account.ExtendTier(ctx, tx, uid, r.VIPLevel, r.VIPDays, now); err != nil {
			return err
		}
	}
	if r.Coupons > 0 {
		if _, err := grantCoupons(ctx, tx, uid, r.Coupons, 0, "reward:"+key, now); err != nil {
			return err
		}
	}
	s.notify(tx, uid, kind)
	return nil
}
