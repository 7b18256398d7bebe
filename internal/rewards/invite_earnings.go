package rewards

import (
	"context"
	"errors"

	"prima/internal/platform/db"
)

// What the earnings domain reads of invitations (earnings.Invitations,
// wired in internal/app): the inviter chain a commission climbs, the codes
// share links carry, and the counts of the promotion data.

// InviterOf is uid's inviter, 0 when none, read on q (the payment's
// transaction when a commission is made).
func (s *Invites) InviterOf(ctx context.Context, q db.Querier, uid int64) (int64, error) {
	inviter, err := inviterOf(ctx, q, uid)
	if errors.Is(err, db.ErrNotFound) {
		return 0, nil
	}
	return inviter, err
}

// CodeOwner is the user whose invite code code is; 0 when the code is
// malformed or nobody's.
func (s *Invites) CodeOwner(ctx context.Context, code string) (int64, error) {
	c, ok := NormalizeInviteCode(code)
	if !ok {
		return 0, nil
	}
	uid, err := codeOwner(ctx, s.db, c)
	if errors.Is(err, db.ErrNotFound) {
		return 0, nil
	}
	return uid, err
}

// Registrations are the times (unix seconds) at which inviter's invitees
// registered, within [from, to).
func (s *Invites) Registrations(ctx context.Context, inviter, from, to int64) ([]int64, error) {
	return db.All(ctx, s.db, func(r db.Scanner) (int64, error) {
		var at int64
		return at, r.Scan(&at)
	}, `SELECT registered_at FROM invite_bindings WHERE inviter_id = ? AND registered_at >= ? AND registered_at < ? AND registered_at > 0`,
		inviter, from, to)
}

// InviteeCounts is how many invitees each of uids has (absent: none).
func (s *Invites) InviteeCounts(ctx context.Context, uids []int64) (map[int64]int, error) {
	out := map[int64]int{}
	if len(uids) == 0 {
		return out, nil
	}
	args := make([]any, len(uids))
	for i, u := range uids {
		args[i] = u
	}
	rows, err := db.All(ctx, s.db, func(r db.Scanner) ([2]int64, error) {
		var v [2]int64
		return v, r.Scan(&v[0], &v[1])
	}, `SELECT inviter_id, COUNT(*) FROM invite_bindings WHERE inviter_id IN (`+db.Placeholders(len(uids))+`) GROUP BY inviter_id`, args...)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r[0]] = int(r[1])
	}
	return out, nil
}
