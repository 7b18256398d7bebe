package search

import (
	"context"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"prima/internal/platform/db"
)

// Touch makes the index agree with item (kind, id) as tx sees it: the doc
// exists exactly while anyone may see the item, with its current text and
// filters. Call it in the transaction that changes the item. KindVideo and
// KindShort name the same videos row; either re-reads it and files it under
// the kind its module gives it.
func Touch(ctx context.Context, tx *db.Tx, kind string, id int64) error {
	if !validKind(kind) {
		return ErrBadKind
	}
	if id <= 0 || id > maxRef {
		return fmt.Errorf("search: %s id %d out of the index's range", kind, id)
	}
	src := sourceKind(kind)
	if err := lockItems(ctx, tx, src, []int64{id}); err != nil {
		return err
	}
	docs, err := loadDocs(ctx, tx, src, []int64{id}, true)
	if err != nil {
		return fmt.Errorf("search: load %s %d: %w", kind, id, err)
	}
	kinds := []string{src}
	if src == KindVideo {
		kinds = []string{KindVideo, KindShort}
	}
	for _, k := range kinds {
		if err := deleteDocs(ctx, tx, docID(k, id), docID(k, id)); err != nil {
			return err
		}
	}
	if d := docs[id]; d != nil && d.visible {
		return insertDocs(ctx, tx, []*doc{d})
	}
	return nil
}

// lockItems makes transactions that index the same items take turns on
// PostgreSQL (SQLite has one writer), so none inserts a doc another is
// inserting, and none writes a doc from a row older than the one another
// wrote. Locks are taken in one order, so two Reindex runs cannot deadlock.
func lockItems(ctx context.Context, tx *db.Tx, src string, ids []int64) error {
	if tx.Engine() != db.Postgres || len(ids) == 0 {
		return nil
	}
	keys := make([]string, 0, len(ids))
	for _, id := range ids {
		h := fnv.New32a()
		fmt.Fprintf(h, "%s/%d", src, id)
		keys = append(keys, "("+strconv.Itoa(int(int32(h.Sum32())))+")")
	}
	_, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(7250028, k) FROM (SELECT k FROM (VALUES `+strings.Join(keys, ", ")+`) v(k) ORDER BY k OFFSET 0) s`)
	return err
}

// deleteDocs removes the docs with ids in [lo, hi].
func deleteDocs(ctx context.Context, tx *db.Tx, lo, hi int64) error {
	q := `DELETE FROM search_fts WHERE id BETWEEN ? AND ?`
	if tx.Engine() == db.SQLite {
		q = `DELETE FROM search_fts WHERE rowid BETWEEN ? AND ?`
	}
	_, err := tx.Exec(ctx, q, lo, hi)
	return err
}

// insertBatch bounds the rows of one INSERT (two arguments each).
const insertBatch = 500

// insertDocs indexes docs (none may be in the index): those with nothing
// to match are left out.
func insertDocs(ctx context.Context, tx *db.Tx, docs []*doc) error {
	row := `(?, ?)`
	q := `INSERT INTO search_fts (rowid, tokens) VALUES `
	if tx.Engine() == db.Postgres {
		// array_to_tsvector takes the tokens as they are (no parser, no
		// dictionary, no positions), dropping repeats.
		row = `(?, array_to_tsvector(string_to_array(?, ' ')))`
		q = `INSERT INTO search_fts (id, tsv) VALUES `
	}
	for len(docs) > 0 {
		n := min(len(docs), insertBatch)
		var rows []string
		var args []any
		for _, d := range docs[:n] {
			toks := d.tokens()
			if toks == nil {
				continue
			}
			rows = append(rows, row)
			args = append(args, docID(d.kind, d.refID), strings.Join(toks, " "))
		}
		if len(rows) > 0 {
			if _, err := tx.Exec(ctx, q+strings.Join(rows, ", "), args...); err != nil {
				return err
			}
		}
		docs = docs[n:]
	}
	return nil
}
