package app

import (
	"context"

	"prima/internal/account"
	"prima/internal/platform/db"
	"prima/internal/rewards"
)

// invitePeople shows inviters and invitees as the account rules show
// any user (the public name and portrait URL): one account.Cards query
// for all of them.
type invitePeople struct{ d *db.DB }

func (p invitePeople) InvitePeople(ctx context.Context, uids []int64) (map[int64]rewards.InvitePerson, error) {
	cards, err := account.Cards(ctx, p.d, uids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]rewards.InvitePerson, len(cards))
	for uid, c := range cards {
		out[uid] = rewards.InvitePerson{UID: c.UID, Name: c.Name, Portrait: c.Portrait}
	}
	return out, nil
}

func (invitePeople) Joined(ctx context.Context, q db.Querier, uid int64) (int64, bool, error) {
	return account.Joined(ctx, q, uid)
}

func (invitePeople) FirstDevice(ctx context.Context, q db.Querier, uid int64) (string, error) {
	return account.FirstDevice(ctx, q, uid)
}
