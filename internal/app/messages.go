package app

import (
	"context"
	"errors"

	"prima/internal/account"
	"prima/internal/media"
	"prima/internal/messaging"
	"prima/internal/platform/db"
)

// messagePeople lets the message centre look users up through the
// account rules (names, portraits, the VIP level now, guest or not).
type messagePeople struct{ s *account.Service }

func (p messagePeople) People(ctx context.Context, uids []int64) (map[int64]messaging.Person, error) {
	out := make(map[int64]messaging.Person, len(uids))
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
		out[uid] = messaging.Person{UID: u.ID, Name: pub.Name, Portrait: pub.Portrait, VipLevel: pub.VipLevel, Guest: u.IsGuest()}
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
