package search

import (
	"context"
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
// index walks matches newest first (doc ids follow recency) and stops
// here, so a query costs about the same whether a character matches 20
// titles or 500,000: relevance, sort=plays and the total are all over this
// window. sort=new is exact for the first Window matches.
const Window = 2000

// RankWindow is how many of the newest matches relevance and sort=plays
// order; matches past it (up to Window) follow newest first. Ranking reads
// each candidate's doc row, so this bounds the cost of a ranked query
// (measured: bench_test.go, docs/architecture.md *Search*).
const RankWindow = 500

// MaxLimit bounds one page.
const MaxLimit = 100

// Search runs in against the index: hits for one page and the number of
// matches (at most Window).
//
// Ranking, the same on both engines: relevance puts titles that are the
// query, then start with it, then contain it as typed, before the rest;
// then shorter titles (the match is more of the title), then popularity
// (plays, likes, posts, followers), then newest. sort=new is newest first,
// sort=plays most popular first. The engines' own scores (FTS5 bm25,
// ts_rank) are not used: bm25 computes its IDF over every match of a term,
// which for 的 is a scan of hundreds of thousands of postings and was half
// of a query's time, for an order that for one or two tokens in a short
// title is the length order above.
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
	sqlite := isSQLite(q)
	win, arg := windowSQL(sqlite, toks, false, in)
	var total int
	if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM (`+win+`) w`, arg, Window).Scan(&total); err != nil {
		return nil, 0, err
	}
	if in.Offset >= total {
		return []Hit{}, total, nil
	}
	scan := func(r db.Scanner) (Hit, error) {
		var h Hit
		var id int64
		err := r.Scan(&id, &h.Kind, &h.ID, &h.Title)
		h.Marks = marks(h.Title, toks)
		return h, err
	}
	// newest reads n matches from position off of the window's own order:
	// only those docs are read.
	newest := func(off, n int) ([]Hit, error) {
		return db.All(ctx, q, scan, `SELECT d.id, d.kind, d.ref_id, d.title FROM (`+win+` OFFSET ?) w
			CROSS JOIN search_docs d WHERE d.id = w.id ORDER BY d.id DESC`, arg, n, off)
	}
	if in.Sort == SortNew {
		hits, err := newest(in.Offset, in.Limit)
		return hits, total, err
	}
	// Relevance and plays rank the newest RankWindow matches; the rest of
	// the window follows newest first.
	hits := []Hit{}
	if in.Offset < RankWindow {
		var order string
		args := []any{arg, RankWindow}
		if in.Sort == SortPlays {
			order = "d.popularity DESC, d.id DESC"
		} else {
			find := "instr(lower(d.title), ?)"
			if !sqlite {
				find = "strpos(lower(d.title), ?)"
			}
			phrase := strings.Join(strings.Fields(Normalize(text)), " ")
			order = "CASE WHEN lower(d.title) = ? THEN 3 WHEN " + find + " = 1 THEN 2 WHEN " + find + " > 0 THEN 1 ELSE 0 END DESC, length(d.title), d.popularity DESC, d.id DESC"
			args = append(args, phrase, phrase, phrase)
		}
		n := min(in.Limit, RankWindow-in.Offset)
		ranked, err := db.All(ctx, q, scan, searchSQL(win, order), append(args, n, in.Offset)...)
		if err != nil {
			return nil, 0, err
		}
		hits = append(hits, ranked...)
	}
	if end := in.Offset + in.Limit; end > RankWindow && total > RankWindow {
		from := max(in.Offset, RankWindow)
		rest, err := newest(from, end-from)
		if err != nil {
			return nil, 0, err
		}
		hits = append(hits, rest...)
	}
	return hits, total, nil
}

// searchSQL ranks the window and cuts the page. CROSS JOIN makes SQLite
// walk the window first and look each doc up by id.
func searchSQL(win, orderBy string) string {
	return `SELECT d.id, d.kind, d.ref_id, d.title FROM (` + win + `) w CROSS JOIN search_docs d WHERE d.id = w.id
		ORDER BY ` + orderBy + ` LIMIT ? OFFSET ?`
}

// windowSQL is the query of the ids of the newest n matches (n its second
// parameter, the match its first): FTS5 or tsvector, walked in id order
// from the newest so it stops after n.
func windowSQL(sqlite bool, toks []string, prefix bool, in Query) (string, string) {
	if sqlite {
		return `SELECT rowid AS id FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT ?`, ftsMatch(toks, prefix, in)
	}
	// PostgreSQL picks between walking the id index backwards, testing each
	// row (fast when most rows match: 的), and the GIN bitmap then a top-n
	// sort (fast when few do), and with a parameter for the tsquery it often
	// guesses wrong (measured at 100,000 docs: 北京 35 ms walking vs 0.9 ms
	// from GIN). Any token of two or more characters (a bigram or a word) is
	// selective, so "id + 0" takes the walk off the table; a query of single
	// characters keeps the choice.
	order := "f.id DESC"
	for _, t := range toks {
		if utf8.RuneCountInString(t) > 1 {
			order = "f.id + 0 DESC"
			break
		}
	}
	return `SELECT f.id FROM search_fts f WHERE f.tsv @@ CAST(? AS tsquery) ORDER BY ` + order + ` LIMIT ?`, tsQuery(toks, prefix, in)
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
