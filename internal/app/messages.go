package app

import (
	"context"
	"errors"
	"time"

	"prima/internal/account"
	"prima/internal/media"
	"prima/internal/messaging"
	"prima/internal/platform/db"
)

// messagePeople lets the message centre look users up through the
// account rules (names, portraits, the VIP level now, guest or not): one
// account.Cards query for all of them.
type messagePeople struct{ d *db.DB }

func (p messagePeople) People(ctx context.Context, uids []int64) (map[int64]messaging.Person, error) {
	cards, err := account.Cards(ctx, p.d, uids)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	out := make(map[int64]messaging.Person, len(cards))
	for uid, c := range cards {
		out[uid] = messaging.Person{UID: c.UID, Name: c.Name, Portrait: c.Portrait, VipLevel: c.VipLevel(now), Guest: c.Guest}
	}
	return out, nil
}

// messagePictures lets chat pictures be uploads of the sender's own,
// handed out through signed URLs like every upload.
type messagePictures struct{ m *media.Service }

func (p messagePictures) OwnPicture(ctx context.Context, owner, id int64) (bool, error) {
	a, err := p.m.Get(ctx, id)
	if errors.Is(err, media.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return a.OwnerUID == owner && a.Kind == media.Image && a.State == media.Ready, nil
}

func (p messagePictures) Picture(ctx context.Context, id int64) (messaging.Picture, error) {
	a, err := p.m.Get(ctx, id)
	if errors.Is(err, media.ErrNotFound) {
		return messaging.Picture{}, nil
	}
	if err != nil {
		return messaging.Picture{}, err
	}
	v, err := p.m.View(a)
	if err != nil {
		return messaging.Picture{}, err
	}
	return messaging.Picture{URL: v.Display, Thumb: v.Thumb, Width: v.Width, Height: v.Height}, nil
}
