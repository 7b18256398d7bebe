package catalog

// Keeping the search index true (docs/architecture.md, Search → Keeping
// the index true): every write that changes what may be found about a
// video calls searchTouchVideo in its own transaction, after the write.
// search.Touch re-reads the row, so the caller need not say what changed.

import (
	"context"

	"prima/internal/platform/db"
	"prima/internal/search"
)

// searchTouchVideo makes the index agree with video id. A video is found
// as a short video when its module is of type 4, else as a video.
func searchTouchVideo(ctx context.Context, tx *db.Tx, id int64) error {
	return search.Touch(ctx, tx, search.KindVideo, id)
}

// searchTagVideos is the videos carrying tag id: a tag's name is indexed
// text of its videos, so renaming or deleting it touches each of them
// (DeleteTag reads them before it untags them).
func searchTagVideos(ctx context.Context, tx *db.Tx, tag int64) ([]int64, error) {
	return db.All(ctx, tx, func(r db.Scanner) (int64, error) {
		var v int64
		return v, r.Scan(&v)
	}, "SELECT video_id FROM video_tags WHERE tag_id = ? ORDER BY video_id", tag)
}

// searchTouchVideos touches each of ids in tx. A tag on thousands of
// videos costs a Touch each, once, in the operator's rare tag call.
func searchTouchVideos(ctx context.Context, tx *db.Tx, ids []int64) error {
	for _, id := range ids {
		if err := searchTouchVideo(ctx, tx, id); err != nil {
			return err
		}
	}
	return nil
}
