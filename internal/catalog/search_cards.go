package catalog

import "context"

// VideosByIDs is the published videos among ids as the home lists show
// them (tags included), by id: search hydrates its hits through it. An
// unknown or unpublished id is absent, so a hit the index still holds for a
// video that has just left the catalogue is dropped rather than shown.
func (s *Service) VideosByIDs(ctx context.Context, ids []int64) (map[int64]Video, error) {
	return s.VideoCards(ctx, ids)
}
