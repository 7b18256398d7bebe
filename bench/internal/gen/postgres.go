package gen

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
)

// videoRows streams src's videos to COPY and keeps their tag rows, which
// are copied after the videos they reference.
type videoRows struct {
	src  *source
	row  []any
	tags [][]any
}

func (r *videoRows) Next() bool {
	if !r.src.more() {
		return false
	}
	v := r.src.video()
	r.row = []any{v.id, v.title, v.cover, int32(v.duration), v.playCount, v.likeCount, v.moduleID, v.subModuleID,
		int16(v.vipLevel), v.coins, int32(v.width), int32(v.height), int16(v.published), v.createdAt, v.createdAt}
	for _, t := range v.tags {
		r.tags = append(r.tags, []any{v.id, t})
	}
	return true
}

func (r *videoRows) Values() ([]any, error) { return r.row, nil }
func (r *videoRows) Err() error             { return nil }

// copyPostgres loads src with COPY in one transaction (videos, then their
// tags, so foreign keys hold row by row) and returns the tag rows written.
func copyPostgres(ctx context.Context, url string, src *source) (int, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return 0, err
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(ctx)
	// Foreign-key triggers would make COPY seven times slower here. A
	// superuser may switch them off for this transaction; the rows are
	// valid by construction, and checkReferences proves it after the load.
	var super string
	if err := tx.QueryRow(ctx, `SELECT current_setting('is_superuser')`).Scan(&super); err != nil {
		return 0, err
	}
	if super == "on" {
		if _, err := tx.Exec(ctx, `SET LOCAL session_replication_role = replica`); err != nil {
			return 0, err
		}
	}
	rows := &videoRows{src: src}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"videos"}, strings.Split(strings.ReplaceAll(videoCols, " ", ""), ","), rows); err != nil {
		return 0, fmt.Errorf("copy videos: %w", err)
	}
	n, err := tx.CopyFrom(ctx, pgx.Identifier{"video_tags"}, []string{"video_id", "tag_id"}, pgx.CopyFromRows(rows.tags))
	if err != nil {
		return 0, fmt.Errorf("copy video_tags: %w", err)
	}
	if err := checkReferences(ctx, tx); err != nil {
		return 0, err
	}
	return int(n), tx.Commit(ctx)
}

// dangling counts, per foreign key of the bulk tables, the rows whose
// parent is missing.
var dangling = []struct{ name, query string }{
	{"videos.module_id", `SELECT COUNT(*) FROM videos v LEFT JOIN modules m ON m.id = v.module_id WHERE m.id IS NULL`},
	{"videos.sub_module_id", `SELECT COUNT(*) FROM videos v LEFT JOIN modules m ON m.id = v.sub_module_id WHERE m.id IS NULL`},
	{"video_tags.video_id", `SELECT COUNT(*) FROM video_tags t LEFT JOIN videos v ON v.id = t.video_id WHERE v.id IS NULL`},
	{"video_tags.tag_id", `SELECT COUNT(*) FROM video_tags t LEFT JOIN tags g ON g.id = t.tag_id WHERE g.id IS NULL`},
}

// checkReferences does in one pass per key what the skipped triggers would
// have done row by row.
func checkReferences(ctx context.Context, tx pgx.Tx) error {
	for _, d := range dangling {
		var n int64
		if err := tx.QueryRow(ctx, d.query).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("%d rows break the foreign key %s", n, d.name)
		}
	}
	return nil
}

// finishPostgres recreates the dropped indexes, moves the id sequence past
// the explicit ids, and vacuums: the visibility map is what lets the
// covering indexes answer listings without visiting the table, as they do
// on an install where autovacuum has run.
func finishPostgres(ctx context.Context, url string, dropped []index) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `SET maintenance_work_mem = '256MB'`); err != nil {
		return err
	}
	for _, ix := range dropped {
		if _, err := conn.Exec(ctx, ix.ddl); err != nil {
			return fmt.Errorf("%s: %w", ix.name, err)
		}
	}
	if _, err := conn.Exec(ctx, `SELECT setval(pg_get_serial_sequence('videos', 'id'), (SELECT MAX(id) FROM videos))`); err != nil {
		return err
	}
	_, err = conn.Exec(ctx, `VACUUM (ANALYZE)`)
	return err
}
