package wallet

import (
	"context"
	"errors"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func TestGrantRewardGivesEachPartOnceInTheCallersTransaction(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := NewService(d)
		uid := newUser(t, d)
		grant := func(key string, r Reward) error {
			return d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				return s.GrantReward(ctx, tx, uid, "checkin", key, "签到奖励", r, now)
			})
		}
		if err := grant("checkin:1:20261123", Reward{Coins: 30, VIPLevel: 1, VIPDays: 3, Coupons: 2}); err != nil {
			t.Fatal(err)
		}
		// The same key again moves nothing: the caller's transaction fails.
		if err := grant("checkin:1:20261123", Reward{Coins: 30}); err == nil {
			t.Fatal("a second grant under one key went through")
		}
		// A grant whose transaction rolls back leaves nothing behind.
		boom := errors.New("boom")
		err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			if err := s.GrantReward(ctx, tx, uid, "task", "task:1:x", "", Reward{Coins: 500, Coupons: 1}, now); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatal(err)
		}
		coins, err := Balance(ctx, d, UserCoins(uid))
		if err != nil || coins != 30 {
			t.Fatalf("coins %d (%v), want 30", coins, err)
		}
		var coupons int
		var vipUntil int64
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM user_coupons WHERE user_id = ?`, uid).Scan(&coupons); err != nil || coupons != 2 {
			t.Fatalf("%d coupons (%v), want 2", coupons, err)
		}
		if err := d.QueryRow(ctx, `SELECT vip_expire_at FROM users WHERE id = ?`, uid).Scan(&vipUntil); err != nil || vipUntil != now.Unix()+3*86400 {
			t.Fatalf("VIP until %d (%v), want %d", vipUntil, err, now.Unix()+3*86400)
		}
		if err := Check(ctx, d); err != nil {
			t.Fatalf("ledger after rewards: %v", err)
		}
		// Nothing, negative, absurd or levelless rewards are refused.
		for _, r := range []Reward{{}, {Coins: -1}, {Coins: maxRewardCoins + 1}, {VIPDays: 3}, {VIPLevel: 3, VIPDays: 1}, {Coupons: maxRewardCoupons + 1}} {
			if err := grant("bad", r); !errors.Is(err, ErrBadReward) {
				t.Errorf("%+v: %v, want ErrBadReward", r, err)
			}
		}
	})
}
