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

// searchTouchTagged touches every video carrying tag id (a tag's name is
// part of what finds its videos). The ids are read first, so a caller
// that is about to untag them passes the ids it read instead.
func searchTagVideos(ctx context.Context, tx *db.Tx, tag int64) ([]int64, error) {
	return db.All(ctx, tx, func(r db.Scanner) (int64, error) {
		var v int64
		return v, r.Scan(&v)
	}, "SELECT video_id FROM video_tags WHERE tag_id = ? ORDER BY video_id", tag)
}

func searchTouchVideos(ctx context.Context, tx *db.Tx, ids []int64) error {
	for _, id := range ids {
		if err := searchTouchVideo(ctx, tx, id); err != nil {
			return err
		}
	}
	return nil
}
