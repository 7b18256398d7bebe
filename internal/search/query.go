package search

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"prima/internal/platform/db"
)

// Query is one search. Kind "" means every kind (the window then takes
// kinds in turn: videos, shorts, galleries, posts, topics, users, newest
// first within each); ModuleID 0 any module; VipLevel -1 any access level;
// Sort "" is relevance.
type Query struct {
	Text     string
	Kind     string
	ModuleID int64
	VipLevel int
	Sort     string
	Offset   int
	Limit    int
}

// Hit is one found item. Marks are the rune ranges [start, end) of Title
// that the query matched, for highlighting without HTML.
type Hit struct {
	Kind  string
	ID    int64
	Title string
	Marks [][2]int
}

// Window is how many of the newest matches a query ranks. The full-text
// index walks matches newest first (doc ids follow the items' ids) and
// stops here, so a query costs about the same whether a character matches
// 20 titles or 500,000: relevance, sort=plays and the total are all over
// this window. sort=new is exact for the first Window matches.
const Window = 2000

// RankWindow is how many of the newest matches relevance and sort=plays
// order; matches past it (up to Window) follow newest first. Ranking reads
// each candidate's row from its own table, so this bounds the cost of a
// ranked query (measured: bench/README.md *Search*).
const RankWindow = 500

// MaxLimit bounds one page.
const MaxLimit = 100

// Search runs in against the index: hits for one page and the number of
// matches (at most Window).
//
// Ranking, the same on both engines: relevance puts titles that are the
// query, then start with it, then contain it as typed, before the rest;
// then shorter titles (the match is more of the title), then popularity
// (plays, likes, favourites, posts, followers, as the items' tables have
// them now), then newest. sort=new is newest first, sort=plays most popular
// first. The engines' own scores (FTS5 bm25, ts_rank) are not used: bm25
// computes its IDF over every match of a term, which for 的 is a scan of
// hundreds of thousands of postings, for an order that for one or two
// tokens in a short title is the length order above.
func Search(ctx context.Context, q db.Querier, in Query) ([]Hit, int, error) {
	text, err := cleanQuery(in.Text)
	if err != nil {
		return nil, 0, err
	}
	if in.Kind != "" && !validKind(in.Kind) {
		return nil, 0, ErrBadKind
	}
	switch in.Sort {
	case "", SortRelevance, SortNew, SortPlays:
	default:
		return nil, 0, ErrBadSort
	}
	toks := queryTokens(text)
	if len(toks) == 0 {
		return []Hit{}, 0, nil // only punctuation: nothing can match
	}
	if in.Limit <= 0 {
		in.Limit = 20
	}
	in.Limit = min(in.Limit, MaxLimit)
	in.Offset = min(max(in.Offset, 0), Window)
	w := newWindow(ctx, q, toks, false, in)
	var order string
	var orderArgs []any
	if in.Sort != SortNew {
		order, orderArgs = rankOrder(q, in.Sort, text)
	}
	page := pageEach
	if !isSQLite(q) {
		page = pageOnce
	}
	total, ids, err := page(ctx, q, w, in, order, orderArgs)
	if err != nil {
		return nil, 0, err
	}
	found, err := items(ctx, q, ids)
	if err != nil {
		return nil, 0, err
	}
	return hitsOf(found, toks), total, nil
}

// rankOrder is the ORDER BY of a ranked window (rankRows' r.id, r.title,
// r.pop) for sort and the query's text, with its arguments.
func rankOrder(q db.Querier, sort, text string) (string, []any) {
	if sort == SortPlays {
		return "r.pop DESC, r.id DESC", nil
	}
	phrase := strings.Join(strings.Fields(Normalize(text)), " ")
	return `CASE WHEN lower(r.title) = ? THEN 3 WHEN ` + strpos(q) + `(lower(r.title), ?) = 1 THEN 2 WHEN ` + strpos(q) + `(lower(r.title), ?) > 0 THEN 1 ELSE 0 END DESC,
				length(r.title), r.pop DESC, r.id DESC`, []any{phrase, phrase, phrase}
}

// items are the visible items of doc ids, in the ids' order, read from
// their tables (one query per kind among them). An item that is gone or
// hidden since the index was read is left out.
func items(ctx context.Context, q db.Querier, ids []int64) ([]*doc, error) {
	bySrc := map[string][]int64{}
	for _, id := range ids {
		k, ref := kindOf(id)
		bySrc[sourceKind(k)] = append(bySrc[sourceKind(k)], ref)
	}
	loaded := map[string]map[int64]*doc{}
	for src, refs := range bySrc {
		docs, err := loadDocs(ctx, q, src, refs, false)
		if err != nil {
			return nil, err
		}
		loaded[src] = docs
	}
	out := make([]*doc, 0, len(ids))
	for _, id := range ids {
		k, ref := kindOf(id)
		if d := loaded[sourceKind(k)][ref]; d != nil && d.visible && d.kind == k {
			out = append(out, d)
		}
	}
	return out, nil
}

func hitsOf(docs []*doc, toks []string) []Hit {
	hits := make([]Hit, 0, len(docs))
	for _, d := range docs {
		hits = append(hits, Hit{Kind: d.kind, ID: d.refID, Title: d.title, Marks: marks(d.title, toks)})
	}
	return hits
}

// window is the query of the ids of the newest matches, newest first, its
// LIMIT and OFFSET the last two arguments.
type window struct {
	sql  string
	base []any
}

func (w window) args(limit, offset int) []any {
	return append(slices.Clone(w.base), limit, offset)
}

// rankCols are each kind's title and popularity as its source table x
// (sourceTables) has them now, for ranking a window in SQL. A post without
// a title ranks by its text's first line (Go's firstLine, which also drops
// markup, makes the title it is shown with).
var rankCols = map[string]struct{ title, pop string }{
	KindVideo:   {"x.title", "x.play_count"},
	KindShort:   {"x.title", "x.play_count"},
	KindGallery: {"x.title", "(SELECT COUNT(*) FROM gallery_collects c WHERE c.gallery_id = x.id)"},
	KindPost:    {"CASE WHEN trim(x.title) <> '' THEN x.title ELSE substr(x.body, 1, 60) END", "x.like_count"},
	KindTopic:   {"x.name", "(SELECT COUNT(*) FROM posts p WHERE p.topic_id = x.id AND p.state = 'published')"},
	KindUser:    {"x.name", "(SELECT COUNT(*) FROM follows f WHERE f.followee_id = x.id)"},
}

// ranked is the query of the doc ids of page (limit, offset) of the newest
// n matches of kind ("" every kind) in order: r.id, r.title and r.pop name
// each match's doc id, title and popularity there. Only the ranked page
// leaves the database.
func (w window) ranked(kind string, n int, order string, orderArgs []any, limit, offset int) (string, []any) {
	rows, rowArgs := rankRows(kind)
	args := append(append(append(w.args(n, 0), rowArgs...), orderArgs...), limit, offset)
	// One kind: the window is read as the join walks it. Several: read once
	// and kept, not walked again by each kind's branch.
	with := `WITH w AS (`
	if kind == "" {
		with = `WITH w AS MATERIALIZED (`
	}
	return with + w.sql + `) SELECT r.id FROM (` + rows + `) r ORDER BY ` + order + ` LIMIT ? OFFSET ?`, args
}

// rankRows is the rows of a ranked window: the ids of a relation w (id)
// joined to their kind's table (kind "" every kind), as (id, title, pop).
func rankRows(kind string) (string, []any) {
	kinds := []string{kind}
	if kind == "" {
		kinds = Kinds
	}
	var branches []string
	var args []any
	for _, k := range kinds {
		c := rankCols[k]
		lo, hi := idRange(k)
		branches = append(branches, `SELECT w.id AS id, `+c.title+` AS title, `+c.pop+` AS pop FROM w JOIN `+sourceTables[sourceKind(k)]+` x ON x.id = w.id - ? WHERE w.id BETWEEN ? AND ?`)
		args = append(args, docID(k, 0), lo, hi)
	}
	return strings.Join(branches, " UNION ALL "), args
}

// strpos is the engine's position-of-substring function (1-based, 0 when
// absent), called as strpos(haystack, needle).
func strpos(q db.Querier) string {
	if isSQLite(q) {
		return "instr"
	}
	return "strpos"
}

// newWindow builds the window of toks (the last one a prefix when prefix
// is set) with in's filters, for q's engine.
func newWindow(ctx context.Context, q db.Querier, toks []string, prefix bool, in Query) window {
	lo, hi := idRange(in.Kind)
	facets := facetQuery(in)
	if isSQLite(q) {
		return window{`SELECT rowid AS id FROM search_fts WHERE search_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rowid DESC LIMIT ? OFFSET ?`,
			[]any{ftsMatch(toks, prefix, facets), lo, hi}}
	}
	// The tsquery and the id bounds are written into the statement, not
	// passed as parameters: a cached statement's generic plan cannot know
	// how common a token is, and picked plans hundreds of times slower.
	// Both are made here (tokens hold only letters, digits and _).
	tsq := tsQuery(toks, prefix, facets)
	if len(toks) == 1 && !prefix && len(facets) == 0 {
		// One word, no filter: its runs when it is common enough to have
		// them (an error there leaves the planned window to answer).
		if w, ok, err := runsWindow(ctx, q, toks[0], tsq, lo, hi); err == nil && ok {
			return w
		}
	}
	plan, span := pgStats.plan(ctx, q, toks, prefix)
	return pgWindow(ctx, q, tsq, lo, hi, plan, span)
}

// pgWindow is the window of tsquery text tsq over doc ids [lo, hi] by plan.
func pgWindow(ctx context.Context, q db.Querier, tsq string, lo, hi int64, plan int, span int64) window {
	tsq = pgQuote(tsq)
	bounds := func(lo, hi int64) string { return strconv.FormatInt(lo, 10) + " AND " + strconv.FormatInt(hi, 10) }
	match := `SELECT id FROM search_fts WHERE tsv @@ ` + tsq + ` AND id BETWEEN `
	switch plan {
	case planWalk:
		// The id index backwards, each row tested: for common tokens, whose
		// 2,000 newest matches are among the newest few thousand rows.
		// OFFSET 0 keeps the planner from turning it into a GIN bitmap.
		return window{`SELECT id FROM (SELECT id, tsv FROM search_fts WHERE id BETWEEN ` + bounds(lo, hi) + ` ORDER BY id DESC OFFSET 0) s
			WHERE tsv @@ ` + tsq + ` ORDER BY id DESC LIMIT ? OFFSET ?`, nil}
	case planSlice:
		// Middling tokens: the GIN bitmap ANDed with the newest span ids'
		// (PostgreSQL's BitmapAnd), so only that slice's matches are
		// fetched; the older rest is searched only when the slice held
		// fewer than Window matches.
		var top int64
		if err := q.QueryRow(ctx, `SELECT COALESCE(MAX(id), 0) FROM search_fts WHERE id BETWEEN ? AND ?`, lo, hi).Scan(&top); err == nil && top-span > lo {
			cut := top - span
			win := strconv.Itoa(Window)
			return window{`WITH s AS MATERIALIZED (` + match + bounds(cut, hi) + ` ORDER BY id + 0 DESC LIMIT ` + win + `)
				SELECT id FROM (SELECT id FROM s UNION ALL
					SELECT id FROM (` + match + bounds(lo, cut-1) + ` ORDER BY id + 0 DESC LIMIT ` + win + `) t WHERE (SELECT COUNT(*) FROM s) < ` + win + `) u
				ORDER BY id DESC LIMIT ? OFFSET ?`, nil}
		}
	}
	// The GIN index, then the newest of its matches: for rare tokens.
	// "id + 0" keeps the planner from walking the id index instead.
	return window{match + bounds(lo, hi) + ` ORDER BY id + 0 DESC LIMIT ? OFFSET ?`, nil}
}

// pgQuote is tsquery text as a tsquery literal.
func pgQuote(tsq string) string {
	return "'" + strings.ReplaceAll(tsq, "'", "''") + "'::tsquery"
}

// ftsMatch is the FTS5 expression: every token quoted (so nothing the user
// typed is operator syntax), ANDed with the filter tokens. prefix makes the
// last token a prefix query.
func ftsMatch(toks []string, prefix bool, facets []string) string {
	parts := make([]string, 0, len(toks)+len(facets))
	for i, t := range toks {
		p := `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
		if prefix && i == len(toks)-1 {
			p += "*"
		}
		parts = append(parts, p)
	}
	for _, f := range facets {
		parts = append(parts, `"`+f+`"`)
	}
	return strings.Join(parts, " AND ")
}

// facetQuery are the filter tokens a query requires.
func facetQuery(in Query) []string {
	var f []string
	if in.ModuleID > 0 {
		f = append(f, "_m"+strconv.FormatInt(in.ModuleID, 10))
	}
	if in.VipLevel >= 0 { // -1 (any negative): every access level
		f = append(f, "_v"+strconv.Itoa(in.VipLevel))
	}
	return f
}

// tsQuery is the PostgreSQL tsquery text: every token a quoted lexeme,
// ANDed, with the filter lexemes. Tokens hold only letters and digits (the
// tokenizer makes them), so no quote can appear; they are escaped anyway.
func tsQuery(toks []string, prefix bool, facets []string) string {
	var parts []string
	esc := strings.NewReplacer(`\`, `\\`, `'`, `''`)
	for i, t := range toks {
		p := "'" + esc.Replace(t) + "'"
		if prefix && i == len(toks)-1 {
			p += ":*"
		}
		parts = append(parts, p)
	}
	for _, f := range facets {
		parts = append(parts, "'"+f+"'")
	}
	return strings.Join(parts, " & ")
}

// pgStats knows how common each lexeme is, from PostgreSQL's own
// statistics of the tsvector column (pg_stats.most_common_elems, kept by
// ANALYZE and autovacuum), to choose the window's plan. The planner has the
// same numbers but not the whole picture: it prices the GIN path by
// matches fetched and the id walk by rows tested, and often guesses wrong
// when the tsquery is a parameter.
var pgStats = &lexemeStats{}

type lexemeStats struct {
	mu      sync.Mutex
	read    time.Time
	freq    map[string]float64
	minFreq float64 // of the listed lexemes: an unlisted one is rarer
	rows    float64
}

// statsTTL is how long the numbers are used before they are read again.
const statsTTL = 5 * time.Minute

func (s *lexemeStats) forget() {
	s.mu.Lock()
	s.read = time.Time{}
	s.mu.Unlock()
}

// The window's plans on PostgreSQL.
const (
	planGIN   = iota // every match from GIN, the newest kept
	planWalk         // the id index backwards, each row tested
	planSlice        // GIN ANDed with the newest span ids, then the rest if needed
)

// plan picks the window's plan for toks by the share f of rows the rarest
// token matches (an AND is at least that rare; a prefix token or an
// unlisted one is taken as rare). The walk tests about Window/f rows to
// find Window matches, GIN fetches f·rows matches: the walk wins when
// f²·rows > Window (的 at a million titles: 4,600 rows tested against
// 470,000 fetched). Between rare and common (猫: 2 % of titles, 90,000 rows
// walked or 21,000 fetched at random, 160 and 550 ms measured) the slice
// fetches about 3·Window matches from the newest span = 3·Window/f ids
// (32 ms).
func (s *lexemeStats) plan(ctx context.Context, q db.Querier, toks []string, prefix bool) (plan int, span int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Since(s.read) > statsTTL {
		s.load(ctx, q)
	}
	if s.rows <= 0 {
		return planGIN, 0
	}
	f := 1.0
	for i, t := range toks {
		ft, ok := s.freq[t]
		if !ok || (prefix && i == len(toks)-1) {
			ft = s.minFreq / 2
		}
		f = min(f, ft)
	}
	switch {
	case f*f*s.rows > Window:
		return planWalk, 0
	case f*s.rows > 6*Window:
		return planSlice, int64(3 * Window / f)
	}
	return planGIN, 0
}

// load reads the statistics; on an error the old ones stay (a query must
// not fail for want of a plan hint).
func (s *lexemeStats) load(ctx context.Context, q db.Querier) {
	s.read = time.Now()
	var rows float64
	if err := q.QueryRow(ctx, `SELECT GREATEST(reltuples, 0) FROM pg_class WHERE oid = to_regclass('search_fts')`).Scan(&rows); err != nil {
		return
	}
	type ef struct {
		e string
		f float64
	}
	list, err := db.All(ctx, q, func(r db.Scanner) (ef, error) {
		var x ef
		return x, r.Scan(&x.e, &x.f)
	}, `SELECT u.e, u.f FROM pg_stats p,
		unnest(p.most_common_elems::text::text[], p.most_common_elem_freqs) AS u(e, f)
		WHERE p.schemaname = current_schema() AND p.tablename = 'search_fts' AND p.attname = 'tsv' AND u.e IS NOT NULL`)
	if err != nil {
		return
	}
	s.freq = make(map[string]float64, len(list))
	s.minFreq = 1
	for _, x := range list {
		s.freq[x.e] = x.f
		s.minFreq = min(s.minFreq, x.f)
	}
	s.rows = rows
}

// isSQLite tells the engine behind a Querier.
func isSQLite(q db.Querier) bool {
	switch v := q.(type) {
	case *db.DB:
		return v.Engine == db.SQLite
	case *db.Tx:
		return v.Engine() == db.SQLite
	}
	return true
}
