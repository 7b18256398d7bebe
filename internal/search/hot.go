package search

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"

	"prima/internal/platform/days"
	"prima/internal/platform/db"
)

// HotWord is one hot search: an operator pin, or a word searched often in
// the last HotDays days.
type HotWord struct {
	Word   string `json:"word"`
	Pinned bool   `json:"pinned"`
	Count  int64  `json:"count"`
}

const (
	// HotDays is the sliding window of hot searches.
	HotDays = 7
	// MaxWordRunes bounds a recorded or pinned word.
	MaxWordRunes = 30
	// MaxPins bounds the operator's pinned words.
	MaxPins = 10
)

// hotWord is text as a hot word: control characters stripped, spaces
// collapsed, normalised; ok is false for junk (empty, too long, or no
// letter, digit or CJK character to search for).
func hotWord(text string) (string, bool) {
	s, err := cleanQuery(text)
	if err != nil {
		return "", false
	}
	s = Normalize(s)
	if utf8.RuneCountInString(s) > MaxWordRunes || len(queryTokens(s)) == 0 {
		return "", false
	}
	return s, true
}

// suggestNow is the clock of Suggest's hot-word window (tests move it).
var suggestNow = time.Now

func dayOf(t time.Time) int64 { return t.UTC().Unix() / 86400 }

// RecordQuery counts one search of text on now's day. Junk is skipped
// silently (it is not an error to search for "!!!").
func RecordQuery(ctx context.Context, d *db.DB, text string, now time.Time) error {
	w, ok := hotWord(text)
	if !ok {
		return nil
	}
	// search_queries counts UTC days for the hot-word window; search_days
	// counts Asia/Shanghai days for the statistics (stats.go).
	return d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO search_queries (word, day, count) VALUES (?, ?, 1)
		ON CONFLICT (word, day) DO UPDATE SET count = search_queries.count + 1`, w, dayOf(now)); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO search_days (day, word, count) VALUES (?, ?, 1)
		ON CONFLICT (day, word) DO UPDATE SET count = search_days.count + 1`, days.Of(now), w)
		return err
	})
}

// Hot is the pinned words in their order, then the most searched words of
// the last HotDays days (today included), at most limit in all.
func Hot(ctx context.Context, q db.Querier, now time.Time, limit int) ([]HotWord, error) {
	if limit <= 0 {
		return []HotWord{}, nil
	}
	pins, err := Pins(ctx, q)
	if err != nil {
		return nil, err
	}
	out := []HotWord{}
	seen := map[string]bool{}
	for _, p := range pins {
		if len(out) == limit {
			return out, nil
		}
		out = append(out, HotWord{Word: p, Pinned: true})
		seen[p] = true
	}
	words, err := db.All(ctx, q, func(r db.Scanner) (HotWord, error) {
		var h HotWord
		err := r.Scan(&h.Word, &h.Count)
		return h, err
	}, `SELECT word, SUM(count) AS n FROM search_queries WHERE day > ? GROUP BY word ORDER BY n DESC, word LIMIT ?`,
		dayOf(now)-HotDays, limit+len(pins))
	if err != nil {
		return nil, err
	}
	for _, h := range words {
		if len(out) == limit {
			break
		}
		if seen[h.Word] {
			continue
		}
		out = append(out, h)
	}
	return out, nil
}

// Pins are the operator's pinned words in order.
func Pins(ctx context.Context, q db.Querier) ([]string, error) {
	return db.All(ctx, q, func(r db.Scanner) (string, error) {
		var s string
		return s, r.Scan(&s)
	}, `SELECT word FROM search_pins ORDER BY sort, word`)
}

// SetPins replaces the pinned words (normalised, repeats dropped). An
// empty, junk or over-long word, or more than MaxPins, is ErrBadPin and
// changes nothing.
func SetPins(ctx context.Context, tx *db.Tx, words []string) error {
	var clean []string
	seen := map[string]bool{}
	for _, w := range words {
		h, ok := hotWord(w)
		if !ok {
			return ErrBadPin
		}
		if !seen[h] {
			seen[h] = true
			clean = append(clean, h)
		}
	}
	if len(clean) > MaxPins {
		return ErrBadPin
	}
	if _, err := tx.Exec(ctx, `DELETE FROM search_pins`); err != nil {
		return err
	}
	for i, w := range clean {
		if _, err := tx.Exec(ctx, `INSERT INTO search_pins (word, sort) VALUES (?, ?)`, w, i); err != nil {
			return err
		}
	}
	return nil
}

// Suggest is at most limit completions of prefix: hot words (pinned or
// searched in the window) that start with it, most searched first, then
// titles that start with it, then titles that contain it (the newest
// matches, the last word as a prefix: "iph" finds iPhone).
func Suggest(ctx context.Context, q db.Querier, prefix string, limit int) ([]string, error) {
	text, err := cleanQuery(prefix)
	if err != nil {
		return nil, err
	}
	out := []string{}
	if limit <= 0 {
		return out, nil
	}
	limit = min(limit, 20)
	norm := Normalize(text)
	toks := queryTokens(norm)
	if len(toks) == 0 {
		return out, nil
	}
	seen := map[string]bool{}
	add := func(s string) bool {
		k := Normalize(s)
		if !seen[k] && len(out) < limit {
			seen[k] = true
			out = append(out, s)
		}
		return len(out) >= limit
	}
	// Hot words: pins, then words counted in the window (substr, not a key
	// range: PostgreSQL's collation need not order by code point).
	pins, err := Pins(ctx, q)
	if err != nil {
		return nil, err
	}
	for _, p := range pins {
		if strings.HasPrefix(p, norm) && add(p) {
			return out, nil
		}
	}
	words, err := db.All(ctx, q, func(r db.Scanner) (string, error) {
		var s string
		return s, r.Scan(&s)
	}, `SELECT word FROM search_queries WHERE day > ? AND substr(word, 1, ?) = ? GROUP BY word ORDER BY SUM(count) DESC, word LIMIT ?`,
		dayOf(suggestNow())-HotDays, utf8.RuneCountInString(norm), norm, limit)
	if err != nil {
		return nil, err
	}
	for _, w := range words {
		if add(w) {
			return out, nil
		}
	}
	// Titles: of the newest 200 matches, those starting with the prefix
	// first, then the rest, newest first.
	w := newWindow(ctx, q, toks, lastIsWord(norm), Query{VipLevel: -1})
	sql, args := w.ranked("", 200, `CASE WHEN `+strpos(q)+`(lower(r.title), ?) = 1 THEN 0 ELSE 1 END, r.id DESC`, []any{norm}, 2*limit, 0)
	ids, err := db.All(ctx, q, scanID, sql, args...)
	if err != nil {
		return nil, err
	}
	found, err := items(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	for _, d := range found {
		if add(d.title) {
			break
		}
	}
	return out, nil
}

// lastIsWord reports whether s ends inside a Latin or digit word (which
// the suggestion then completes as a prefix).
func lastIsWord(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	c := runClass(r)
	return c == 2 || c == 3
}
