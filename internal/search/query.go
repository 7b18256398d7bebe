package search

import (
	"context"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"prima/internal/platform/db"
)

// Query is one search. Kind "" means every kind; ModuleID 0 any module;
// VipLevel -1 any access level; Sort "" is relevance.
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
// index walks matches newest first (doc ids sort by recency) and stops
// here, so a query costs the same whether a character matches 20 titles or
// 500,000: relevance, sort=plays and the total are all over this window.
// sort=new is exact (it is the window's own order).
const Window = 2000

// MaxLimit bounds one page.
const MaxLimit = 100

// candidate is one match of the window.
type candidate struct {
	id         int64
	tier       int     // how the title matches (titleTier), larger is better
	rank       float64 // the engine's relevance (bm25, ts_rank), larger is better
	popularity int64
}

// titleTier grades how title matches the query, the same on both engines:
// 4 the whole title is the query, 3 it starts with it, 2 it contains it as
// typed, 1 it holds every token, 0 only the other text matched.
func titleTier(title, query string, toks []string) int {
	t := strings.Join(strings.Fields(Normalize(title)), " ")
	switch {
	case t == query:
		return 4
	case strings.HasPrefix(t, query):
		return 3
	case strings.Contains(t, query):
		return 2
	}
	tt := Tokens(title)
	for _, k := range toks {
		if !slices.Contains(tt, k) {
			return 0
		}
	}
	return 1
}

// Search runs in against the index: hits for one page and the number of
// matches (at most Window).
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
	in.Offset = max(in.Offset, 0)
	in.Text = text
	cands, err := window(ctx, q, toks, false, in, Window)
	if err != nil {
		return nil, 0, err
	}
	order(cands, in.Sort)
	total := len(cands)
	if in.Offset >= total {
		return []Hit{}, total, nil
	}
	page := cands[in.Offset:min(total, in.Offset+in.Limit)]
	ids := make([]int64, len(page))
	for i, c := range page {
		ids[i] = c.id
	}
	hits, err := hitsByID(ctx, q, ids, toks)
	return hits, total, err
}

// order sorts the window: relevance (then popularity, then newest),
// plays/popularity (then newest), or newest.
func order(c []candidate, by string) {
	sort.SliceStable(c, func(i, j int) bool {
		a, b := c[i], c[j]
		switch by {
		case SortNew:
		case SortPlays:
			if a.popularity != b.popularity {
				return a.popularity > b.popularity
			}
		default:
			if a.tier != b.tier {
				return a.tier > b.tier
			}
			if a.rank != b.rank {
				return a.rank > b.rank
			}
			if a.popularity != b.popularity {
				return a.popularity > b.popularity
			}
		}
		return a.id > b.id
	})
}

// ftsMatch is the FTS5 expression: every token, quoted (so nothing the
// user typed is operator syntax), in the title or body column, ANDed with
// the filter tokens in the facets column. prefix makes the last token a
// prefix query.
func ftsMatch(toks []string, prefix bool, in Query) string {
	var b strings.Builder
	b.WriteString("{title body} : (")
	for i, t := range toks {
		if i > 0 {
			b.WriteString(" AND ")
		}
		b.WriteString(`"` + strings.ReplaceAll(t, `"`, `""`) + `"`)
		if prefix && i == len(toks)-1 {
			b.WriteString("*")
		}
	}
	b.WriteString(")")
	for _, f := range facetQuery(in) {
		b.WriteString(` AND facets : "` + f + `"`)
	}
	return b.String()
}

func facetQuery(in Query) []string {
	var f []string
	if in.Kind != "" {
		f = append(f, "k"+in.Kind)
	}
	if in.ModuleID > 0 {
		f = append(f, "m"+strconv.FormatInt(in.ModuleID, 10))
	}
	if in.VipLevel >= 0 { // -1 (any negative): every access level
		f = append(f, "v"+strconv.Itoa(in.VipLevel))
	}
	return f
}

// tsQuery is the PostgreSQL tsquery text: every token a quoted lexeme,
// ANDed, with the filters as lexemes too. Tokens hold only letters and
// digits (the tokenizer makes them), so no quote can appear; they are
// escaped anyway.
func tsQuery(toks []string, prefix bool, in Query) string {
	var parts []string
	esc := strings.NewReplacer(`\`, `\\`, `'`, `''`)
	for i, t := range toks {
		w := ":AB" // title or body, not the filter lexemes
		if prefix && i == len(toks)-1 {
			w = ":*AB"
		}
		parts = append(parts, "'"+esc.Replace(t)+"'"+w)
	}
	for _, f := range facetQuery(in) {
		parts = append(parts, "'"+f+"':D")
	}
	return strings.Join(parts, " & ")
}

// window reads up to n newest matches with their relevance and popularity.
func window(ctx context.Context, q db.Querier, toks []string, prefix bool, in Query, n int) ([]candidate, error) {
	var query string
	var args []any
	sqliteRank := false
	if isSQLite(q) {
		// No bm25: FTS5 computes its IDF by walking every match of every
		// phrase once per query (the whole doclist, not the window), which
		// for a common character in 1,000,000 titles cost more than the 20 ms
		// budget by itself (bench/README.md, Search). With detail=column and
		// every token required, bm25 only told title from body and long from
		// short, which titleTier and the length rank below do in Go.
		query = `SELECT w.id, 0.0, d.popularity, d.title FROM (
			SELECT rowid AS id FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT ?
		) w JOIN search_docs d ON d.id = w.id`
		sqliteRank = true
		args = []any{ftsMatch(toks, prefix, in), n}
	} else {
		// Normalisation 1: divide by 1 + log(lexemes), so shorter titles win.
		query = `SELECT w.id, ts_rank('{0, 0, 0.4, 1.0}', w.tsv, w.q, 1), d.popularity, d.title FROM (
			SELECT f.id, f.tsv, q.q FROM search_fts f, (SELECT CAST(? AS tsquery) AS q) q WHERE f.tsv @@ q.q ORDER BY f.id DESC LIMIT ?
		) w JOIN search_docs d ON d.id = w.id`
		args = []any{tsQuery(toks, prefix, in), n}
	}
	phrase := strings.Join(strings.Fields(Normalize(in.Text)), " ")
	return db.All(ctx, q, func(r db.Scanner) (candidate, error) {
		var c candidate
		var title string
		err := r.Scan(&c.id, &c.rank, &c.popularity, &title)
		c.tier = titleTier(title, phrase, toks)
		if sqliteRank {
			c.rank = 1 / float64(1+utf8.RuneCountInString(title)) // shorter titles first, as bm25's length norm did
		}
		return c, err
	}, query, args...)
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

// hitsByID reads the docs of ids, in the order of ids, with their marks.
func hitsByID(ctx context.Context, q db.Querier, ids []int64, toks []string) ([]Hit, error) {
	if len(ids) == 0 {
		return []Hit{}, nil
	}
	ph := strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ")
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	type row struct {
		id  int64
		hit Hit
	}
	rows, err := db.All(ctx, q, func(r db.Scanner) (row, error) {
		var x row
		err := r.Scan(&x.id, &x.hit.Kind, &x.hit.ID, &x.hit.Title)
		return x, err
	}, `SELECT id, kind, ref_id, title FROM search_docs WHERE id IN (`+ph+`)`, args...)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]Hit, len(rows))
	for _, x := range rows {
		x.hit.Marks = marks(x.hit.Title, toks)
		byID[x.id] = x.hit
	}
	out := make([]Hit, 0, len(ids))
	for _, id := range ids {
		if h, ok := byID[id]; ok {
			out = append(out, h)
		}
	}
	return out, nil
}
