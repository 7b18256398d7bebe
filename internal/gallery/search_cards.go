package gallery

import (
	"context"

	"prima/internal/platform/db"
)

// GalleriesByIDs is the published galleries among ids as lists show them
// (signed cover), by id: search hydrates its hits through it. An unknown
// or unpublished id is absent.
func (s *Service) GalleriesByIDs(ctx context.Context, ids []int64) (map[int64]Gallery, error) {
	out := make(map[int64]Gallery, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	list, err := db.All(ctx, s.db, scanGallery, "SELECT "+galleryCols+galleryFrom+" WHERE g.published = 1 AND g.id IN ("+db.Placeholders(len(ids))+")", args...)
	if err != nil {
		return nil, err
	}
	if err := s.signCovers(ctx, list); err != nil {
		return nil, err
	}
	for _, g := range list {
		out[g.ID] = g
	}
	return out, nil
}
