package search

import (
	"context"

	"prima/internal/platform/db"
)

// reindexBatch is how many items one Reindex transaction touches.
const reindexBatch = 500

// sources name each kind's source table. Videos (long and short) are one
// table: Touch files each under the kind its module gives it.
var sources = []struct{ kind, table string }{
	{KindVideo, "videos"},
	{KindGallery, "galleries"},
	{KindPost, "posts"},
	{KindTopic, "topics"},
	{KindUser, "users"},
}

// Reindex makes the whole index agree with the source tables: it touches
// every source row (batches of reindexBatch, one transaction each, oldest
// first so new doc ids keep recency order), then every doc whose source row
// is gone. Search keeps answering meanwhile. It returns the number of docs.
func Reindex(ctx context.Context, d *db.DB) (int, error) {
	for _, s := range sources {
		after := int64(0)
		for {
			ids, err := db.All(ctx, d, scanID, `SELECT id FROM `+s.table+` WHERE id > ? ORDER BY id LIMIT ?`, after, reindexBatch)
			if err != nil {
				return 0, err
			}
			if len(ids) == 0 {
				break
			}
			if err := touchAll(ctx, d, s.kind, ids); err != nil {
				return 0, err
			}
			after = ids[len(ids)-1]
		}
		// Docs whose source row no longer exists.
		orphans, err := db.All(ctx, d, scanID, `SELECT ref_id FROM search_docs d WHERE kind IN (?, ?) AND NOT EXISTS (SELECT 1 FROM `+s.table+` x WHERE x.id = d.ref_id)`,
			s.kind, map[string]string{KindVideo: KindShort}[s.kind])
		if err != nil {
			return 0, err
		}
		for len(orphans) > 0 {
			n := min(len(orphans), reindexBatch)
			if err := touchAll(ctx, d, s.kind, orphans[:n]); err != nil {
				return 0, err
			}
			orphans = orphans[n:]
		}
	}
	if d.Engine == db.SQLite {
		// Merge the FTS5 segments the batches wrote into one b-tree.
		if _, err := d.Exec(ctx, `INSERT INTO search_fts (search_fts) VALUES ('optimize')`); err != nil {
			return 0, err
		}
	}
	if d.Engine == db.Postgres {
		// Fresh statistics on the tsvectors let the planner tell common
		// lexemes from rare ones (see windowSQL).
		if _, err := d.Exec(ctx, `ANALYZE search_fts`); err != nil {
			return 0, err
		}
	}
	var n int
	err := d.QueryRow(ctx, `SELECT COUNT(*) FROM search_docs`).Scan(&n)
	return n, err
}

func touchAll(ctx context.Context, d *db.DB, kind string, ids []int64) error {
	return d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		for _, id := range ids {
			if err := Touch(ctx, tx, kind, id); err != nil {
				return err
			}
		}
		return nil
	})
}

func scanID(r db.Scanner) (int64, error) {
	var id int64
	err := r.Scan(&id)
	return id, err
}

// Counts is the number of docs of each kind, for `prima reindex`.
func Counts(ctx context.Context, q db.Querier) (map[string]int, error) {
	type kc struct {
		kind string
		n    int
	}
	rows, err := db.All(ctx, q, func(r db.Scanner) (kc, error) {
		var x kc
		err := r.Scan(&x.kind, &x.n)
		return x, err
	}, `SELECT kind, COUNT(*) FROM search_docs GROUP BY kind`)
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for _, k := range Kinds {
		out[k] = 0
	}
	for _, x := range rows {
		out[x.kind] = x.n
	}
	return out, nil
}
