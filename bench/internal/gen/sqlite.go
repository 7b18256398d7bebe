package gen

import (
	"context"
	"fmt"
	"strings"

	"prima/internal/platform/db"
)

const videoCols = "id, title, cover, duration, play_count, like_count, module_id, sub_module_id, vip_level, coins, width, height, published, created_at, updated_at"

// Rows per statement and per transaction on SQLite. 500 rows of 15 columns
// is 7,500 variables, under SQLite's 32,766; a transaction of 100,000 videos
// keeps the WAL to a few tens of megabytes while fsyncs stay rare.
const (
	sqliteVideoBatch = 500
	sqliteTagBatch   = 2000
	sqliteTxVideos   = 100_000
)

func valuesSQL(head string, cols, rows int) string {
	one := "(" + strings.TrimSuffix(strings.Repeat("?,", cols), ",") + ")"
	var b strings.Builder
	b.Grow(len(head) + rows*(len(one)+1))
	b.WriteString(head)
	for i := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(one)
	}
	return b.String()
}

// insertSQLite writes src's videos and their tags with multi-row INSERTs and
// returns how many video_tags rows it wrote.
func insertSQLite(ctx context.Context, d *db.DB, src *source, progress func(string)) (int, error) {
	videoSQL := valuesSQL("INSERT INTO videos ("+videoCols+") VALUES ", 15, sqliteVideoBatch)
	tagSQL := valuesSQL("INSERT INTO video_tags (video_id, tag_id) VALUES ", 2, sqliteTagBatch)
	vargs := make([]any, 0, 15*sqliteVideoBatch)
	targs := make([]any, 0, 2*sqliteTagBatch)
	tagRows := 0

	videoHead := "INSERT INTO videos (" + videoCols + ") VALUES "
	tagHead := "INSERT INTO video_tags (video_id, tag_id) VALUES "
	// put writes a buffer of rows; a full one with the prepared-once text,
	// a short one (the end of a transaction) with text sized to it.
	put := func(tx *db.Tx, full, head string, cols int, args []any) error {
		if len(args) == 0 {
			return nil
		}
		q := full
		if len(args) < cap(args) {
			q = valuesSQL(head, cols, len(args)/cols)
		}
		_, err := tx.Exec(ctx, q, args...)
		return err
	}

	for src.more() {
		err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			// Tag rows are written in their own full batches, which can run
			// ahead of their videos' batch: check foreign keys at COMMIT.
			if _, err := tx.Exec(ctx, `PRAGMA defer_foreign_keys = ON`); err != nil {
				return err
			}
			for n := 0; n < sqliteTxVideos && src.more(); n++ {
				v := src.video()
				vargs = append(vargs, v.id, v.title, v.cover, v.duration, v.playCount, v.likeCount, v.moduleID, v.subModuleID,
					v.vipLevel, v.coins, v.width, v.height, v.published, v.createdAt, v.createdAt)
				if len(vargs) == cap(vargs) {
					if err := put(tx, videoSQL, videoHead, 15, vargs); err != nil {
						return err
					}
					vargs = vargs[:0]
				}
				for _, t := range v.tags {
					targs = append(targs, v.id, t)
					if len(targs) == cap(targs) {
						if err := put(tx, tagSQL, tagHead, 2, targs); err != nil {
							return err
						}
						tagRows += len(targs) / 2
						targs = targs[:0]
					}
				}
			}
			if err := put(tx, videoSQL, videoHead, 15, vargs); err != nil {
				return err
			}
			if err := put(tx, tagSQL, tagHead, 2, targs); err != nil {
				return err
			}
			tagRows += len(targs) / 2
			vargs, targs = vargs[:0], targs[:0]
			return nil
		})
		if err != nil {
			return tagRows, err
		}
		progress(fmt.Sprintf("sqlite: %d/%d videos", src.next, src.n))
	}
	return tagRows, nil
}
