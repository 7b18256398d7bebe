package seed

import (
	"context"

	"prima/internal/platform/db"
	"prima/internal/search"
)

// searchPins are the demo's pinned hot words (热门搜索), words the demo
// titles and posts hold, so each finds something: a fresh install has no
// searches yet, and an empty 热门搜索 reads as a broken page. The operator
// replaces them with POST /api/admin/search/pins.
var searchPins = []string{"猫咪", "街舞", "深夜食堂", "北京", "露营", "吉他"}

// seedSearchPins writes the pinned words in tx, through the same rule an
// operator's pins go through.
func seedSearchPins(ctx context.Context, tx *db.Tx) error {
	return search.SetPins(ctx, tx, searchPins)
}
