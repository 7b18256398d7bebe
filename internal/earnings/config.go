package earnings

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
)

// When an inviter's sign-up coins (rewards' invitations) are paid: never,
// once the invitee binds a phone, or on the invitee's first paid order.
const (
	InviteRewardOff     = "off"
	InviteRewardPhone   = "phone"
	InviteRewardPayment = "payment"
)

// Bounds of the operator's settings.
const (
	MaxLevels       = 3
	MaxLevelBps     = 5000
	MaxSettleDays   = 90
	MaxCreatorShare = 10000
)

// Config is the operator's commission settings (GET/POST
// /api/admin/commission/config). Rates are basis points (10000 = 100%),
// level 1 first; approved promoters earn PromoterLevels, everyone else
// Levels. A new install's: DefaultConfig.
type Config struct {
	Levels          []int64 `json:"levels"`
	PromoterLevels  []int64 `json:"promoterLevels"`
	SettleDays      int     `json:"settleDays"`
	CreatorShareBps int64   `json:"creatorShareBps"`
	InviteReward    string  `json:"inviteReward"`
}

// DefaultConfig is what migration 0045 writes: 10%, 3% and 1% up three
// levels (promoters 20%, 5%, 2%), settled after 7 days, creators get half
// of what their items sell for, and no sign-up coins for invitations
// (commission pays for real customers instead).
var DefaultConfig = Config{
	Levels: []int64{1000, 300, 100}, PromoterLevels: []int64{2000, 500, 200},
	SettleDays: 7, CreatorShareBps: 5000, InviteReward: InviteRewardOff,
}

// rates are the rates of a tier: promoters' or everyone's.
func (c Config) rates(promoter bool) []int64 {
	if promoter {
		return c.PromoterLevels
	}
	return c.Levels
}

// CheckConfig says which field of c is out of range (ErrInput naming it).
func CheckConfig(c Config) error {
	bps := func(field string, list []int64) error {
		if len(list) < 1 || len(list) > MaxLevels {
			return invalid(fmt.Sprintf("参数 %s 应有 1 到 %d 级", field, MaxLevels), field+" must have 1 to 3 levels")
		}
		for i, v := range list {
			if v < 0 || v > MaxLevelBps {
				return invalid(fmt.Sprintf("参数 %s 第 %d 级应在 0 到 %d 之间", field, i+1, MaxLevelBps),
					fmt.Sprintf("%s[%d] = %d is outside 0..%d", field, i, v, MaxLevelBps))
			}
		}
		return nil
	}
	if err := bps("levels", c.Levels); err != nil {
		return err
	}
	if err := bps("promoterLevels", c.PromoterLevels); err != nil {
		return err
	}
	switch {
	case len(c.PromoterLevels) != len(c.Levels):
		return invalid("参数 promoterLevels 的级数应与 levels 相同", "promoterLevels must have as many levels as levels")
	case c.SettleDays < 0 || c.SettleDays > MaxSettleDays:
		return invalid(fmt.Sprintf("参数 settleDays 应在 0 到 %d 之间", MaxSettleDays), "settleDays is outside 0..90")
	case c.CreatorShareBps < 0 || c.CreatorShareBps > MaxCreatorShare:
		return invalid(fmt.Sprintf("参数 creatorShareBps 应在 0 到 %d 之间", MaxCreatorShare), "creatorShareBps is outside 0..10000")
	case !slices.Contains([]string{InviteRewardOff, InviteRewardPhone, InviteRewardPayment}, c.InviteReward):
		return invalid("参数 inviteReward 无效", `inviteReward must be "off", "phone" or "payment"`)
	}
	return nil
}

// loadConfig reads the settings on q; lock takes the row's lock on a
// transaction (PostgreSQL), so a change and what reads it take turns.
func loadConfig(ctx context.Context, q db.Querier, lock bool) (Config, error) {
	query := `SELECT levels, promoter_levels, settle_days, creator_share_bps, invite_reward FROM commission_config WHERE id = 1`
	if tx, ok := q.(*db.Tx); ok && lock {
		query += tx.ForUpdate()
	}
	var (
		c              Config
		levels, plevel string
	)
	if err := q.QueryRow(ctx, query).Scan(&levels, &plevel, &c.SettleDays, &c.CreatorShareBps, &c.InviteReward); err != nil {
		return Config{}, err
	}
	if err := json.Unmarshal([]byte(levels), &c.Levels); err != nil {
		return Config{}, fmt.Errorf("commission_config.levels: %w", err)
	}
	if err := json.Unmarshal([]byte(plevel), &c.PromoterLevels); err != nil {
		return Config{}, fmt.Errorf("commission_config.promoter_levels: %w", err)
	}
	return c, nil
}

// Config is the operator's settings.
func (s *Service) Config(ctx context.Context) (Config, error) {
	return loadConfig(ctx, s.db, false)
}

// InviteReward is when invitations pay their sign-up coins, read on q
// (rewards asks through its seam, in the transaction that may pay them).
func (s *Service) InviteReward(ctx context.Context, q db.Querier) (string, error) {
	var v string
	err := q.QueryRow(ctx, `SELECT invite_reward FROM commission_config WHERE id = 1`).Scan(&v)
	return v, err
}

// SetConfig replaces the settings, audited ("commission.config", before
// and after) in the same transaction. They apply to what is earned from
// then on: rows already made keep their rate and settle time.
func (s *Service) SetConfig(ctx context.Context, actor audit.Actor, c Config) (Config, error) {
	if err := CheckConfig(c); err != nil {
		return Config{}, err
	}
	levels, _ := json.Marshal(c.Levels)
	plevels, _ := json.Marshal(c.PromoterLevels)
	now := s.now()
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		before, err := loadConfig(ctx, tx, true)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE commission_config SET levels = ?, promoter_levels = ?, settle_days = ?, creator_share_bps = ?,
			invite_reward = ?, updated_at = ? WHERE id = 1`, string(levels), string(plevels), c.SettleDays, c.CreatorShareBps, c.InviteReward, now.Unix()); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "commission.config", TargetType: "commission_config", TargetID: "1",
			Before: before, After: c}, now)
	})
	if err != nil {
		return Config{}, err
	}
	return c, nil
}
