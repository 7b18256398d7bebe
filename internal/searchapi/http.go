package searchapi

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/search"
)

// Sorts of GET /api/app/search.
var sorts = []string{"relevance", "new", "plays"}

// cleanQuery is the search text of a raw q: bytes that are not UTF-8 and
// control characters dropped (line breaks and tabs become spaces), runs of
// white space folded to one space, the ends trimmed. Unlike other text
// parameters, controls are stripped rather than refused: a search box takes
// whatever was pasted into it.
func cleanQuery(raw string) string {
	raw = strings.ToValidUTF8(raw, "")
	var b strings.Builder
	space := false
	for _, r := range raw {
		switch {
		case unicode.IsSpace(r):
			space = true
			continue
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, r == 0xfffe, r == 0xffff,
			unicode.Is(unicode.Cf, r) && r != 0x200d: // format controls (bidi overrides, zero widths), ZWJ kept for emoji
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// queryText reads and checks q: 422 when empty or over MaxQueryRunes.
func queryText(r *http.Request) (string, error) {
	text := cleanQuery(r.URL.Query().Get("q"))
	if text == "" {
		return "", search.ErrEmptyQuery
	}
	if utf8.RuneCountInString(text) > search.MaxQueryRunes {
		return "", search.ErrQueryTooLong
	}
	return text, nil
}

// Search answers GET /api/app/search?q=&kind=&moduleID=&vipLevel=&sort=&pageNumber=&pageSize=:
// one kind's results, a page at a time, in the engine's order.
func (s *Service) Search(w http.ResponseWriter, r *http.Request) error {
	viewer := httpx.UserID(r.Context())
	client := clientKey(viewer, httpx.ClientIP(r))
	if err := s.enforce(r.Context(), client); err != nil {
		return errs.Map(err)
	}
	q := httpx.Q(r)
	in := search.Query{
		ModuleID: q.Int("moduleID", 0, 1, httpx.MaxID),
		VipLevel: int(q.Int("vipLevel", -1, -1, 2)),
	}
	num, size := httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	text, err := queryText(r)
	if err != nil {
		return errs.Map(err)
	}
	in.Text = text
	in.Kind = strings.TrimSpace(r.URL.Query().Get("kind"))
	if !slices.Contains(search.Kinds, in.Kind) {
		return errs.Map(search.ErrBadKind)
	}
	in.Sort = strings.TrimSpace(r.URL.Query().Get("sort"))
	if in.Sort == "" {
		in.Sort = "relevance"
	}
	if !slices.Contains(sorts, in.Sort) {
		return errs.Map(search.ErrBadSort)
	}
	in.Offset, in.Limit = (num-1)*size, size
	page := httpx.Page[Result]{List: []Result{}, PageNumber: num, PageSize: size}
	hits, total, err := search.Search(r.Context(), s.db, in)
	if errors.Is(err, search.ErrEmptyQuery) {
		// Text with nothing to search by (only punctuation, say): no
		// results rather than an error, since the user did type something.
		return httpx.OK(w, page)
	}
	if err != nil {
		return errs.Map(err)
	}
	if page.List, err = s.hydrate(r.Context(), viewer, hits); err != nil {
		return err
	}
	page.Total = total
	page.HasMore = in.Offset+len(hits) < total && in.Offset+len(hits) < httpx.PageWindow
	if num == 1 && total > 0 {
		s.record(r.Context(), client, text)
	}
	return httpx.OK(w, page)
}

// Section is one kind of the overview.
type Section struct {
	Kind  string   `json:"kind"`
	Total int      `json:"total"`
	List  []Result `json:"list"`
}

// Overview is GET /api/app/search/overview's answer.
type Overview struct {
	Q        string    `json:"q"`
	Sections []Section `json:"sections"`
}

// Overview answers GET /api/app/search/overview?q=: the first
// OverviewSize results of every kind that has any, in the order of
// search.Kinds. It counts the query towards the hot words.
func (s *Service) Overview(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	viewer := httpx.UserID(ctx)
	client := clientKey(viewer, httpx.ClientIP(r))
	if err := s.enforce(ctx, client); err != nil {
		return errs.Map(err)
	}
	text, err := queryText(r)
	if err != nil {
		return errs.Map(err)
	}
	out := Overview{Q: text, Sections: []Section{}}
	var (
		all    []search.Hit
		totals = map[string]int{}
	)
	for _, kind := range search.Kinds {
		hits, total, err := search.Search(ctx, s.db, search.Query{Text: text, Kind: kind, VipLevel: -1, Sort: "relevance", Limit: OverviewSize})
		if errors.Is(err, search.ErrEmptyQuery) {
			return httpx.OK(w, out)
		}
		if err != nil {
			return errs.Map(err)
		}
		all = append(all, hits...)
		totals[kind] = total
	}
	results, err := s.hydrate(ctx, viewer, all)
	if err != nil {
		return err
	}
	found := 0
	for _, kind := range search.Kinds {
		sec := Section{Kind: kind, Total: totals[kind], List: []Result{}}
		for _, res := range results {
			if res.Kind == kind {
				sec.List = append(sec.List, res)
			}
		}
		if len(sec.List) > 0 {
			out.Sections = append(out.Sections, sec)
			found += sec.Total
		}
	}
	if found > 0 {
		s.record(ctx, client, text)
	}
	return httpx.OK(w, out)
}

// Suggest answers GET /api/app/search/suggest?q=: up to SuggestSize
// completions of the prefix (hot words, then titles). An empty prefix
// answers an empty list: the box was cleared while a request was on its way.
func (s *Service) Suggest(w http.ResponseWriter, r *http.Request) error {
	if err := s.enforce(r.Context(), clientKey(httpx.UserID(r.Context()), httpx.ClientIP(r))); err != nil {
		return errs.Map(err)
	}
	text, err := queryText(r)
	if errors.Is(err, search.ErrEmptyQuery) {
		return httpx.OK(w, map[string]any{"list": []string{}})
	}
	if err != nil {
		return errs.Map(err)
	}
	list, err := search.Suggest(r.Context(), s.db, text, SuggestSize)
	if errors.Is(err, search.ErrEmptyQuery) {
		list, err = nil, nil
	}
	if err != nil {
		return errs.Map(err)
	}
	if list == nil {
		list = []string{}
	}
	return httpx.OK(w, map[string]any{"list": list})
}

// Hot answers GET /api/app/search/hot: the operator's pins, then the most
// searched words of the last days, HotSize at most.
func (s *Service) Hot(w http.ResponseWriter, r *http.Request) error {
	if err := s.enforce(r.Context(), clientKey(httpx.UserID(r.Context()), httpx.ClientIP(r))); err != nil {
		return errs.Map(err)
	}
	list, err := search.Hot(r.Context(), s.db, s.now(), HotSize)
	if err != nil {
		return err
	}
	if list == nil {
		list = []search.HotWord{}
	}
	return httpx.OK(w, map[string]any{"list": list})
}

// pinsBody is the operator's pinned words, in the order they show.
type pinsBody struct {
	Words []string `json:"words"`
}

// adminPins is the pins editor's answer: the pinned words and the hot list
// the phone app gets now (GET /api/app/search/hot: the pins, then the most
// searched words of the last days).
type adminPins struct {
	Words []string         `json:"words"`
	Hot   []search.HotWord `json:"hot"`
}

// AdminPins answers GET /api/admin/search/pins: {words, hot}.
func (s *Service) AdminPins(w http.ResponseWriter, r *http.Request) error {
	words, err := search.Pins(r.Context(), s.db)
	if err != nil {
		return err
	}
	if words == nil {
		words = []string{}
	}
	hot, err := search.Hot(r.Context(), s.db, s.now(), HotSize)
	if err != nil {
		return err
	}
	if hot == nil {
		hot = []search.HotWord{}
	}
	return httpx.OK(w, adminPins{Words: words, Hot: hot})
}

// AdminSetPins answers POST /api/admin/search/pins {words}: replaces the
// pinned words (an empty list clears them), audited in the same
// transaction.
func (s *Service) AdminSetPins(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Words *[]string `json:"words"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if in.Words == nil {
		return httpx.Invalid("缺少参数 words", "words is required: a list of words, empty to clear")
	}
	words, err := checkPins(*in.Words)
	if err != nil {
		return err
	}
	actor := audit.ActorFrom(r)
	var after []string
	err = s.db.Tx(r.Context(), func(ctx context.Context, tx *db.Tx) error {
		// Saves take turns: SetPins deletes and inserts, and on PostgreSQL
		// two at once would each miss the other's new rows and collide on
		// the key (SQLite has one writer already).
		if tx.Engine() == db.Postgres {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(7250030)`); err != nil {
				return err
			}
		}
		before, err := search.Pins(ctx, tx)
		if err != nil {
			return err
		}
		if err := search.SetPins(ctx, tx, words); err != nil {
			return err
		}
		// As stored: the engine keeps words in their searched form
		// (folded case and width), which is how the hot list shows them.
		if after, err = search.Pins(ctx, tx); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{
			Actor: actor, Action: "search.pins", TargetType: "search", TargetID: "pins",
			Before: pinsBody{Words: orEmpty(before)}, After: pinsBody{Words: orEmpty(after)},
		}, s.now())
	})
	if errors.Is(err, search.ErrBadPin) {
		return httpx.Invalid("热词需含有文字或数字", "a word has nothing searchable in it: "+err.Error())
	}
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, pinsBody{Words: orEmpty(after)})
}

// checkPins trims the words and refuses empty, overlong, repeated or too
// many ones (Decode has already refused control characters).
func checkPins(in []string) ([]string, error) {
	if len(in) > MaxPins {
		return nil, httpx.Invalid(fmt.Sprintf("最多置顶%d个热词", MaxPins), fmt.Sprintf("at most %d words", MaxPins))
	}
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for i, w := range in {
		w = strings.TrimSpace(cleanQuery(w))
		switch n := utf8.RuneCountInString(w); {
		case n == 0:
			return nil, httpx.Invalid("热词不能为空", fmt.Sprintf("words[%d] is empty", i))
		case n > MaxPinRunes:
			return nil, httpx.Invalid(fmt.Sprintf("热词不能超过%d个字", MaxPinRunes), fmt.Sprintf("words[%d] is over %d characters", i, MaxPinRunes))
		}
		key := search.Normalize(w)
		if seen[key] {
			return nil, httpx.Invalid("热词重复", fmt.Sprintf("words[%d] repeats an earlier word", i))
		}
		seen[key] = true
		out = append(out, w)
	}
	return out, nil
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
