package search

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"prima/internal/platform/db"
)

// Dump is everything the index holds, one line per doc in id order:
// "kind/id token token …" with the tokens sorted. Tests compare it with
// what a fresh Reindex makes; it reads the whole index, so it is not for
// serving.
func Dump(ctx context.Context, d *db.DB) ([]string, error) {
	docs := map[int64][]string{}
	scan := func(r db.Scanner) (struct{}, error) {
		var id int64
		var tok string
		err := r.Scan(&id, &tok)
		docs[id] = append(docs[id], tok)
		return struct{}{}, err
	}
	var err error
	if d.Engine == db.SQLite {
		// fts5vocab lists (term, doc) pairs; it is made on the write
		// connection, where the temp schema is, and read there.
		err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			if _, err := tx.Exec(ctx, `CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_vocab USING fts5vocab(main, search_fts, instance)`); err != nil {
				return err
			}
			_, err := db.All(ctx, tx, scan, `SELECT doc, term FROM temp.search_vocab`)
			return err
		})
	} else {
		_, err = db.All(ctx, d, scan, `SELECT id, unnest(tsvector_to_array(tsv)) FROM search_fts`)
	}
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(docs))
	for id := range docs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		toks := docs[id]
		slices.Sort(toks)
		toks = slices.Compact(toks)
		kind, ref := kindOf(id)
		out = append(out, fmt.Sprintf("%s/%d %s", kind, ref, strings.Join(toks, " ")))
	}
	return out, nil
}

// Indexed reports whether item (kind, id) has a doc in the index.
func Indexed(ctx context.Context, q db.Querier, kind string, id int64) (bool, error) {
	if !validKind(kind) {
		return false, ErrBadKind
	}
	var n int
	err := q.QueryRow(ctx, `SELECT COUNT(*) FROM `+idTable(q)+` WHERE id = ?`, docID(kind, id)).Scan(&n)
	return n > 0, err
}
