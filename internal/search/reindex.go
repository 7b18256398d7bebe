package search

import (
	"context"

	"prima/internal/platform/db"
)

// reindexBatch is how many source rows one Reindex transaction covers.
const reindexBatch = 1000

// Reindex makes the whole index agree with the source tables. It walks each
// source table by id in batches, one transaction each: the batch's rows are
// read in one query, every doc in the batch's id range is dropped and the
// visible ones written again, so docs of rows that are gone go too. Search
// keeps answering meanwhile. It returns the number of docs.
func Reindex(ctx context.Context, d *db.DB) (int, error) {
	for _, src := range []string{KindVideo, KindGallery, KindPost, KindTopic, KindUser} {
		kinds := []string{src}
		if src == KindVideo {
			kinds = []string{KindVideo, KindShort}
		}
		after := int64(0)
		for done := false; !done; {
			ids, err := db.All(ctx, d, scanID, `SELECT id FROM `+sourceTables[src]+` WHERE id > ? AND id <= ? ORDER BY id LIMIT ?`, after, int64(maxRef), reindexBatch)
			if err != nil {
				return 0, err
			}
			last := int64(maxRef) // the last batch also clears the docs past the last row
			if len(ids) == reindexBatch {
				last = ids[len(ids)-1]
			} else {
				done = true
			}
			err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				if err := lockItems(ctx, tx, src, ids); err != nil {
					return err
				}
				docs, err := loadDocs(ctx, tx, src, ids, true)
				if err != nil {
					return err
				}
				for _, k := range kinds {
					if err := clearBatch(ctx, tx, src, k, ids, after, last); err != nil {
						return err
					}
				}
				var visible []*doc
				for _, id := range ids {
					if x := docs[id]; x != nil && x.visible {
						visible = append(visible, x)
					}
				}
				return insertDocs(ctx, tx, visible)
			})
			if err != nil {
				return 0, err
			}
			after = last
		}
	}
	if d.Engine == db.SQLite {
		// Merge the FTS5 segments the batches wrote into one b-tree.
		if _, err := d.Exec(ctx, `INSERT INTO search_fts (search_fts) VALUES ('optimize')`); err != nil {
			return 0, err
		}
	} else {
		// Fresh statistics: the window picks its plan by how common each
		// token is (query.go, pgPlan).
		if _, err := d.Exec(ctx, `ANALYZE search_fts`); err != nil {
			return 0, err
		}
		pgStats.forget()
		// The runs of common tokens, from the index just written (runs.go).
		if err := Runs(ctx, d); err != nil {
			return 0, err
		}
	}
	total := 0
	counts, err := Counts(ctx, d)
	for _, n := range counts {
		total += n
	}
	return total, err
}

// clearBatch deletes kind's docs of the items ids and of items in
// (after, last] that no longer exist. A doc in the range whose item exists
// but was not among ids (a row created since ids were read) is left alone:
// its own transaction indexed it.
func clearBatch(ctx context.Context, tx *db.Tx, src, kind string, ids []int64, after, last int64) error {
	col := "id"
	if tx.Engine() == db.SQLite {
		col = "rowid"
	}
	base := docID(kind, 0)
	q := `DELETE FROM search_fts WHERE ` + col + ` BETWEEN ? AND ? AND (NOT EXISTS (SELECT 1 FROM ` + sourceTables[src] + ` x WHERE x.id = ` + col + ` - ?)`
	args := []any{docID(kind, after+1), docID(kind, last), base}
	if len(ids) > 0 {
		in, idArgs := inList(ids)
		q += ` OR ` + col + ` - ? IN ` + in
		args = append(append(args, base), idArgs...)
	}
	_, err := tx.Exec(ctx, q+`)`, args...)
	return err
}

func scanID(r db.Scanner) (int64, error) {
	var id int64
	err := r.Scan(&id)
	return id, err
}

// Counts is the number of docs of each kind, for `prima reindex`.
func Counts(ctx context.Context, q db.Querier) (map[string]int, error) {
	out := map[string]int{}
	for _, k := range Kinds {
		lo, hi := idRange(k)
		var n int
		if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM `+idTable(q)+` WHERE id BETWEEN ? AND ?`, lo, hi).Scan(&n); err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, nil
}

// idTable lists the doc ids: on SQLite FTS5's own table of doc sizes (kept
// for contentless delete), on PostgreSQL search_fts.
func idTable(q db.Querier) string {
	if isSQLite(q) {
		return "search_fts_docsize"
	}
	return "search_fts"
}
