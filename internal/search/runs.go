package search

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/jobs"
)

// Runs (PostgreSQL; migration 0091). GIN finds a token's rows but not
// their ids: every plan of the window fetched a search_fts heap row per
// match it considered, and with the default shared_buffers most of that
// 320 MiB heap is read from the OS cache, so a one- or two-character query
// cost 50-120 ms at p99 on 1,000,000 titles. search_runs keeps each common
// token's doc ids newest first, a few rows per token, so the newest
// Window matches are a short index range; search_fresh lists the docs
// written since (kept by triggers on search_fts), which are taken out of
// the runs and tested against the live index instead. SQLite has no need:
// FTS5 walks a doclist newest first and stops at the window.

// RunMin is how many docs a token must be in to get runs: a rarer token's
// every match is at most this many heap fetches through GIN.
const RunMin = 1000

// RunLen is how many ids one run holds.
const RunLen = 1000

// FreshMax is how many docs written since the runs were built a query
// takes out of them (each is looked up in search_fts). Past half of it a
// query asks for a search.runs job to rebuild the runs; past it the query
// uses the planned window.
const FreshMax = 1000

// The sizes the code uses: the constants, made small by tests.
var (
	runMin   = RunMin
	runLen   = RunLen
	freshMax = FreshMax
	runsRead = 0 // runs read at a time; 0: enough for a window
)

// RunsKind is the job that rebuilds the runs (Runs).
const RunsKind = "search.runs"

// Runs rebuilds search_runs from search_fts and empties search_fresh, in
// one repeatable-read transaction: the runs hold the index as of its
// snapshot, and a doc written after it keeps its search_fresh row (a write
// to a row this would delete makes the transaction fail with a
// serialization error, and it is run again). SQLite: nothing to do.
func Runs(ctx context.Context, d *db.DB) error {
	if d.Engine != db.Postgres {
		return nil
	}
	return d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		for _, s := range []string{
			`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ`,
			`SET LOCAL work_mem = '256MB'`, // the sort of every posting; this transaction only
			`SELECT pg_advisory_xact_lock(7250091)`,
			`DELETE FROM search_runs`,
		} {
			if _, err := tx.Exec(ctx, s); err != nil {
				return fmt.Errorf("search runs: %s: %w", s, err)
			}
		}
		// Filter tokens (_m, _v) are only ever ANDed with a word: no runs.
		// Within a (token, kind) the ids are numbered newest first; run r
		// is numbers [r·RunLen, (r+1)·RunLen), its first id whole, then
		// each id as the step down from the one before.
		_, err := tx.Exec(ctx, `WITH common AS (
				SELECT tok FROM (SELECT unnest(tsvector_to_array(tsv)) AS tok FROM search_fts) t
				WHERE left(tok, 1) <> '_' GROUP BY tok HAVING COUNT(*) >= ?),
			p AS (
				SELECT x.tok, x.id, lag(x.id) OVER w AS prev, row_number() OVER w - 1 AS rn
				FROM (SELECT unnest(tsvector_to_array(tsv)) AS tok, id FROM search_fts) x
				WHERE x.tok IN (SELECT tok FROM common)
				WINDOW w AS (PARTITION BY x.tok, x.id >> `+strconv.Itoa(refBits)+` ORDER BY x.id DESC))
			INSERT INTO search_runs (tok, hi, lo, n, ids)
			SELECT tok, MAX(id), MIN(id), COUNT(*),
				string_agg(CASE WHEN rn % ? = 0 THEN id ELSE prev - id END::text, ',' ORDER BY id DESC)
			FROM p GROUP BY tok, id >> `+strconv.Itoa(refBits)+`, rn / ?`, runMin, runLen, runLen)
		if err != nil {
			return fmt.Errorf("search runs: build: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM search_fresh`); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `ANALYZE search_runs`)
		return err
	})
}

// runsWindow is the window of the single token tok (tsq its tsquery text)
// over doc ids [lo, hi] from its runs: the newest Window of the runs' ids
// that were not written since, and of those written since the ones that
// match now. ok is false when tok has no runs or more than FreshMax docs
// in the range were written since; the caller then plans the window.
func runsWindow(ctx context.Context, q db.Querier, tok, tsq string, lo, hi int64) (window, bool, error) {
	// Enough runs for Window ids after FreshMax are taken out; short runs
	// (a kind's oldest) can leave it short, then more are read.
	k := (Window+freshMax)/runLen + 2
	if runsRead > 0 {
		k = runsRead
	}
	// One statement, one snapshot: the runs, the fresh ids and what they
	// match now agree with each other. Its text is the same for every
	// token (a prepared statement); the fresh docs are tested one by one
	// (FILTER, so no plan can turn it into a GIN scan of the token).
	var has bool
	var nFresh int
	var fresh, live, runs string
	err := q.QueryRow(ctx, `WITH f AS MATERIALIZED (SELECT id FROM search_fresh WHERE id BETWEEN ? AND ? ORDER BY id LIMIT ?)
		SELECT EXISTS (SELECT 1 FROM search_runs WHERE tok = ?), (SELECT COUNT(*) FROM f),
			COALESCE((SELECT string_agg(id::text, ',') FROM f), ''),
			COALESCE((SELECT string_agg(s.id::text, ',') FILTER (WHERE s.tsv @@ ?::tsquery) FROM search_fts s WHERE s.id IN (SELECT id FROM f)), ''),
			COALESCE((SELECT string_agg(r.ids, ';' ORDER BY r.hi DESC) FROM (SELECT hi, ids FROM search_runs
				WHERE tok = ? AND hi >= ? AND lo <= ? ORDER BY hi DESC LIMIT ?) r), '')`,
		lo, hi, freshMax+1, tok, tsq, tok, lo, hi, k).Scan(&has, &nFresh, &fresh, &live, &runs)
	if err != nil || !has {
		return window{}, false, err
	}
	if nFresh > freshMax/2 {
		staleRuns(ctx, q) // rebuilt before queries have to do without
	}
	if nFresh > freshMax {
		return window{}, false, nil
	}
	skip := map[int64]bool{}
	freshIDs, err := parseIDs(fresh)
	if err != nil {
		return window{}, false, err
	}
	for _, id := range freshIDs {
		skip[id] = true
	}
	ids, err := parseIDs(live)
	if err != nil {
		return window{}, false, err
	}
	frozen := 0
	take := func(runs string) (int64, error) {
		last := int64(0)
		for _, r := range strings.Split(runs, ";") {
			id := int64(0)
			for i, p := range strings.Split(r, ",") {
				n, err := strconv.ParseInt(p, 10, 64)
				if err != nil {
					return 0, fmt.Errorf("search runs: %q: %w", p, err)
				}
				if i == 0 {
					id = n
				} else {
					id -= n
				}
				if id >= lo && id <= hi && !skip[id] {
					ids = append(ids, id)
					frozen++
				}
			}
			last = id
		}
		return last, nil
	}
	more := runs
	for more != "" {
		last, err := take(more)
		if err != nil {
			return window{}, false, err
		}
		if frozen >= Window || strings.Count(more, ";")+1 < k {
			break // enough, or the token's runs in the range are all read
		}
		err = q.QueryRow(ctx, `SELECT COALESCE(string_agg(r.ids, ';' ORDER BY r.hi DESC), '') FROM (SELECT hi, ids FROM search_runs
			WHERE tok = ? AND hi < ? AND lo <= ? AND hi >= ? ORDER BY hi DESC LIMIT ?) r`, tok, last, hi, lo, k).Scan(&more)
		if err != nil {
			return window{}, false, err
		}
	}
	slices.SortFunc(ids, func(a, b int64) int { return cmp.Compare(b, a) })
	ids = ids[:min(len(ids), Window)]
	var b strings.Builder
	b.WriteByte('{')
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	b.WriteByte('}')
	return window{`SELECT id FROM unnest(?::bigint[]) AS u(id) ORDER BY id DESC LIMIT ? OFFSET ?`, []any{b.String()}}, true, nil
}

// staleRuns asks for a search.runs job (at most one per ten minutes, and
// one attempt a minute from this process): the docs written since the
// runs were built are too many for queries to take out.
func staleRuns(ctx context.Context, q db.Querier) {
	staleAsk.Lock()
	defer staleAsk.Unlock()
	d, ok := q.(*db.DB)
	if !ok || time.Since(staleAsk.last) < time.Minute {
		return
	}
	staleAsk.last = time.Now()
	key := RunsKind + ":" + strconv.FormatInt(time.Now().Unix()/600, 10)
	_, _ = jobs.Enqueue(ctx, d, RunsKind, struct{}{}, jobs.Opts{UniqueKey: key})
}

var staleAsk struct {
	sync.Mutex
	last time.Time
}
