package search

import (
	"context"
	"strconv"
	"strings"

	"prima/internal/platform/db"
)

// A page is the doc ids of one page of a query's window, in the order
// shown, and the window's size (at most Window). Sort new: newest first.
// Relevance and plays (order, from rankOrder): the newest RankWindow
// matches in that order, then the rest of the window newest first. Both
// engines give the same ids (TestPagesAgree); they differ in how often
// they read the window.

// pageEach (SQLite) reads the window once per part of the page: counted,
// ranked, the rest. FTS5 walks a doclist newest first and stops at the
// LIMIT, so each read costs about the matches it returns.
func pageEach(ctx context.Context, q db.Querier, w window, in Query, order string, orderArgs []any) (int, []int64, error) {
	var total int
	if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM (`+w.sql+`) w`, w.args(Window, 0)...).Scan(&total); err != nil {
		return 0, nil, err
	}
	if in.Offset >= total {
		return total, nil, nil
	}
	if in.Sort == SortNew {
		ids, err := db.All(ctx, q, scanID, w.sql, w.args(in.Limit, in.Offset)...)
		return total, ids, err
	}
	var ids []int64
	if in.Offset < RankWindow {
		sql, args := w.ranked(in.Kind, RankWindow, order, orderArgs, min(in.Limit, RankWindow-in.Offset), in.Offset)
		top, err := db.All(ctx, q, scanID, sql, args...)
		if err != nil {
			return 0, nil, err
		}
		ids = top
	}
	if end := in.Offset + in.Limit; end > RankWindow && total > RankWindow {
		from := max(in.Offset, RankWindow)
		rest, err := db.All(ctx, q, scanID, w.sql, w.args(end-from, from)...)
		if err != nil {
			return 0, nil, err
		}
		ids = append(ids, rest...)
	}
	return total, ids, nil
}

// pageOnce (PostgreSQL) reads the window once, in one statement that
// counts it and cuts the page from it. Every plan of the PostgreSQL window
// fetches a heap row per match it considers (GIN yields row addresses, not
// ids, and the walk tests each row), so reading it once per part cost two
// or three times the fetches (bench/README.md, *Search*).
func pageOnce(ctx context.Context, q db.Querier, w window, in Query, order string, orderArgs []any) (int, []int64, error) {
	args := w.args(Window, 0)
	sql := `WITH a AS MATERIALIZED (` + w.sql + `)`
	const newest = `array_to_string(ARRAY(SELECT id FROM a ORDER BY id DESC LIMIT ? OFFSET ?), ',')`
	top, rest := `''`, `''`
	end := in.Offset + in.Limit
	if in.Sort == SortNew {
		rest = newest
	} else {
		rows, rowArgs := rankRows(in.Kind)
		sql += `, w AS (SELECT id FROM a ORDER BY id DESC LIMIT ` + strconv.Itoa(RankWindow) + `)`
		if in.Offset < RankWindow {
			top = `array_to_string(ARRAY(SELECT r.id FROM (` + rows + `) r ORDER BY ` + order + ` LIMIT ? OFFSET ?), ',')`
			args = append(append(append(args, rowArgs...), orderArgs...), min(in.Limit, RankWindow-in.Offset), in.Offset)
		}
		if end > RankWindow {
			rest = newest
		}
	}
	if rest != `''` {
		from := in.Offset
		if in.Sort != SortNew {
			from = max(in.Offset, RankWindow)
		}
		args = append(args, end-from, from)
	}
	var total int
	var topIDs, restIDs string
	if err := q.QueryRow(ctx, sql+` SELECT (SELECT COUNT(*) FROM a), `+top+`, `+rest, args...).Scan(&total, &topIDs, &restIDs); err != nil {
		return 0, nil, err
	}
	ids, err := parseIDs(topIDs)
	if err != nil {
		return 0, nil, err
	}
	more, err := parseIDs(restIDs)
	return total, append(ids, more...), err
}

// parseIDs reads a comma-separated list of ids.
func parseIDs(s string) ([]int64, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	ids := make([]int64, 0, len(parts))
	for _, p := range parts {
		id, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, nil
}
