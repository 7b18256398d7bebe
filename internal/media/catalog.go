package media

import (
	"context"
	"errors"

	"prima/internal/catalog"
	"prima/internal/platform/db"
)

// What the catalog reads of uploads (catalog.Uploads): a video plays the
// upload its media_id names, whose owner is its uploader. The videos and
// their likes are the catalog's; the media pipeline only answers for its
// assets.

// UploadOf is asset id as the catalog sees it, read on q; db.ErrNotFound
// when there is none.
func (s *Service) UploadOf(ctx context.Context, q db.Querier, id int64) (catalog.Upload, error) {
	return UploadOn(ctx, q, id)
}

// UploadOn is UploadOf without a service (the wallet's sales read a video's
// uploader through it: catalog.VideoGoods).
func UploadOn(ctx context.Context, q db.Querier, id int64) (catalog.Upload, error) {
	a, err := AssetOn(ctx, q, id)
	if errors.Is(err, ErrNotFound) {
		return catalog.Upload{}, db.ErrNotFound
	}
	return catalog.Upload{ID: a.ID, Owner: a.OwnerUID, Video: a.Kind == Video, State: string(a.State),
		DurationMS: a.DurationMS, Width: a.Width, Height: a.Height}, err
}

// UploadsOf lists the ids of owner's uploads (media_assets_owner), only the
// ready ones when ready is set.
func (s *Service) UploadsOf(ctx context.Context, owner int64, ready bool) ([]int64, error) {
	cond := ""
	if ready {
		cond = ` AND state = 'ready'`
	}
	return db.All(ctx, s.db, func(sc db.Scanner) (int64, error) {
		var id int64
		err := sc.Scan(&id)
		return id, err
	}, `SELECT id FROM media_assets WHERE owner_uid = ?`+cond+` ORDER BY id`, owner)
}

var _ catalog.Uploads = (*Service)(nil)
