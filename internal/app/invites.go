package app

import (
	"context"
	"errors"

	"prima/internal/account"
	"prima/internal/platform/db"
	"prima/internal/rewards"
)

// invitePeople shows inviters and invitees as the account rules show
// any user (the public name and portrait URL).
type invitePeople struct{ s *account.Service }

func (p invitePeople) InvitePeople(ctx context.Context, uids []int64) (map[int64]rewards.InvitePerson, error) {
	out := make(map[int64]rewards.InvitePerson, len(uids))
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
		pub := p.s.Profile(u)
		out[uid] = rewards.InvitePerson{UID: u.ID, Name: pub.Name, Portrait: pub.Portrait}
	}
	return out, nil
}

func (invitePeople) Joined(ctx context.Context, q db.Querier, uid int64) (int64, bool, error) {
	return account.Joined(ctx, q, uid)
}

func (invitePeople) FirstDevice(ctx context.Context, q db.Querier, uid int64) (string, error) {
	return account.FirstDevice(ctx, q, uid)
}
