package rewards

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"prima/internal/platform/db"
)

func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return db.ErrNotFound
	}
	return err
}

func codeOf(ctx context.Context, q db.Querier, uid int64) (string, error) {
	var code string
	err := q.QueryRow(ctx, `SELECT code FROM invite_codes WHERE user_id = ?`, uid).Scan(&code)
	return code, notFound(err)
}

func codeOwner(ctx context.Context, q db.Querier, code string) (int64, error) {
	var uid int64
	err := q.QueryRow(ctx, `SELECT user_id FROM invite_codes WHERE code = ?`, code).Scan(&uid)
	return uid, notFound(err)
}

func inviterOf(ctx context.Context, q db.Querier, uid int64) (int64, error) {
	var inviter int64
	err := q.QueryRow(ctx, `SELECT inviter_id FROM invite_bindings WHERE invitee_id = ?`, uid).Scan(&inviter)
	return inviter, notFound(err)
}

func loadConfig(ctx context.Context, q db.Querier, lock bool) (InviteConfig, error) {
	var c InviteConfig
	query := `SELECT reward_coins, window_days, daily_cap, rules FROM invite_config WHERE id = 1`
	if tx, ok := q.(*db.Tx); ok && lock {
		query += tx.ForUpdate()
	}
	err := q.QueryRow(ctx, query).Scan(&c.RewardCoins, &c.WindowDays, &c.DailyCap, &c.Rules)
	return c, err
}

type stats struct {
	total, registered, today, week int
	coins                          int64
}

func inviteStats(ctx context.Context, q db.Querier, uid, day, week int64) (stats, error) {
	var s stats
	err := q.QueryRow(ctx, `SELECT COUNT(*),
		COALESCE(SUM(CASE WHEN registered_at > 0 THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN bound_at >= ? THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN bound_at >= ? THEN 1 ELSE 0 END), 0),
		COALESCE(SUM(reward_coins), 0)
		FROM invite_bindings WHERE inviter_id = ?`, day, week, uid).Scan(&s.total, &s.registered, &s.today, &s.week, &s.coins)
	return s, err
}

func inviteesOf(ctx context.Context, q db.Querier, uid int64, pageNumber, pageSize int) ([]Invitee, int, error) {
	var total int
	if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM invite_bindings WHERE inviter_id = ?`, uid).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := q.Query(ctx, `SELECT invitee_id, bound_at, registered_at, reward_state, reward_coins FROM invite_bindings
		WHERE inviter_id = ? ORDER BY bound_at DESC, invitee_id DESC LIMIT ? OFFSET ?`, uid, pageSize, (pageNumber-1)*pageSize)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	list := []Invitee{}
	for rows.Next() {
		var v Invitee
		var bound, registered int64
		if err := rows.Scan(&v.UID, &bound, &registered, &v.RewardState, &v.RewardCoins); err != nil {
			return nil, 0, err
		}
		v.BoundAt = time.Unix(bound, 0).UTC()
		v.Registered = registered > 0
		list = append(list, v)
	}
	return list, total, rows.Err()
}

// Invitation is one binding as the operator's list shows it: who invited
// whom, when, and what the inviter was rewarded.
type Invitation struct {
	Inviter     InvitePerson `json:"inviter"`
	Invitee     InvitePerson `json:"invitee"`
	Source      string       `json:"source"`
	BoundAt     int64        `json:"boundAt"` // unix seconds
	Registered  bool         `json:"registered"`
	RewardState string       `json:"rewardState"`
	RewardCoins int64        `json:"rewardCoins"`
}

// invitations is a keyset page of bindings, newest first by (bound_at,
// invitee_id): every one, or inviter's alone (inviter > 0). after is the
// (bound_at, invitee_id) the last page ended on (nil: the first page); it
// holds up to size+1 rows.
func invitations(ctx context.Context, q db.Querier, inviter int64, after []int64, size int) ([]Invitation, error) {
	var where []string
	var args []any
	if inviter > 0 {
		where, args = append(where, "inviter_id = ?"), append(args, inviter)
	}
	if after != nil {
		where = append(where, "(bound_at < ? OR (bound_at = ? AND invitee_id < ?))")
		args = append(args, after[0], after[0], after[1])
	}
	query := `SELECT inviter_id, invitee_id, source, bound_at, registered_at, reward_state, reward_coins FROM invite_bindings`
	if len(where) > 0 {
		query += " WHERE " + strings.Join(where, " AND ")
	}
	query += " ORDER BY bound_at DESC, invitee_id DESC LIMIT ?"
	return db.All(ctx, q, func(r db.Scanner) (Invitation, error) {
		var v Invitation
		var registered int64
		err := r.Scan(&v.Inviter.UID, &v.Invitee.UID, &v.Source, &v.BoundAt, &registered, &v.RewardState, &v.RewardCoins)
		v.Registered = registered > 0
		return v, err
	}, query, append(args, size+1)...)
}
