// Package wordfilter is the operator's blocked-words list (table
// blocked_words) and the rule every domain that takes user text applies
// through it: a post's title and text, a comment, a direct message and a
// profile name that contains a blocked word is refused with 422 and a tip
// naming the word, and nothing is stored.
//
// Matching folds width and case on both sides: NFKC turns full-width
// letters and digits into their half-width forms (ＢＡＤ -> BAD, ｂａｄ ->
// bad) and compatibility forms into their plain ones, then the text is
// lower-cased; a word matches anywhere in the text (substring), which is
// what a Chinese list needs (no spaces between words).
//
// The list is cached in memory. A node compares its cached version with
// the row's at most every CheckEvery (one indexed single-row read) and
// reloads the words only when the version moved; the node that saves a
// list replaces its cache when the transaction commits. So on one node a
// change applies at once, and on several nodes within CheckEvery, with no
// broadcast to lose.
package wordfilter

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// Bounds of the list.
const (
	MaxWords     = 2000 // words in the list
	MaxWordRunes = 32   // characters of one word
)

// CheckEvery is how often a node asks whether the list changed elsewhere.
const CheckEvery = 5 * time.Second

var (
	// ErrBlocked: the text contains a blocked word (422); the error is an
	// *httpx.Error whose tip names the word, and it matches ErrBlocked.
	ErrBlocked = errors.New("wordfilter: text contains a blocked word")
	// ErrInput: the list an operator saves breaks a bound (422).
	ErrInput = errors.New("wordfilter: invalid word list")
)

// List is the list as GET/POST /api/admin/moderation/words answer it.
type List struct {
	Words     []string `json:"words"`
	UpdatedAt int64    `json:"updatedAt"` // unix seconds; 0 never saved
	Version   int64    `json:"version"`
}

// Fold is s as the rule compares it: NFKC (full-width to half-width) and
// lower case.
func Fold(s string) string { return strings.ToLower(norm.NFKC.String(s)) }

// Service holds the list and its cache.
type Service struct {
	db *db.DB
	// Every overrides CheckEvery (tests); 0 uses CheckEvery.
	Every time.Duration
	now   func() time.Time

	mu      sync.Mutex
	loaded  bool
	checked time.Time
	list    List
	folded  []string
}

// New is the list over d.
func New(d *db.DB) *Service { return &Service{db: d, now: time.Now} }

// SetClock replaces the clock (tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

func (s *Service) every() time.Duration {
	if s.Every > 0 {
		return s.Every
	}
	return CheckEvery
}

// current is the cached list, refreshed when CheckEvery has passed and the
// row's version moved.
func (s *Service) current(ctx context.Context) (List, []string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if s.loaded && now.Sub(s.checked) < s.every() {
		return s.list, s.folded, nil
	}
	if s.loaded {
		var v int64
		if err := s.db.QueryRow(ctx, `SELECT version FROM blocked_words WHERE id = 1`).Scan(&v); err != nil {
			return List{}, nil, fmt.Errorf("wordfilter: version: %w", err)
		}
		if v == s.list.Version {
			s.checked = now
			return s.list, s.folded, nil
		}
	}
	l, err := load(ctx, s.db)
	if err != nil {
		return List{}, nil, err
	}
	s.setLocked(l, now)
	return s.list, s.folded, nil
}

func (s *Service) setLocked(l List, now time.Time) {
	s.list, s.folded, s.loaded, s.checked = l, foldAll(l.Words), true, now
}

func foldAll(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = Fold(w)
	}
	return out
}

func load(ctx context.Context, q db.Querier) (List, error) {
	var (
		l     List
		words string
	)
	if err := q.QueryRow(ctx, `SELECT words, version, updated_at FROM blocked_words WHERE id = 1`).Scan(&words, &l.Version, &l.UpdatedAt); err != nil {
		return List{}, fmt.Errorf("wordfilter: load: %w", err)
	}
	l.Words = split(words)
	return l, nil
}

func split(words string) []string {
	if words == "" {
		return []string{}
	}
	return strings.Split(words, "\n")
}

// Check refuses text that contains a blocked word: an *httpx.Error (422)
// whose tip names the word as the operator wrote it, matching ErrBlocked.
// Empty text and an empty list pass.
func (s *Service) Check(ctx context.Context, text string) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	l, folded, err := s.current(ctx)
	if err != nil {
		return err
	}
	if len(folded) == 0 {
		return nil
	}
	t := Fold(text)
	for i, w := range folded {
		if strings.Contains(t, w) {
			return Blocked(l.Words[i])
		}
	}
	return nil
}

// Blocked is the refusal of text holding word.
func Blocked(word string) error {
	return &httpx.Error{Status: http.StatusUnprocessableEntity,
		Tip: "内容包含违禁词「" + word + "」，请修改后再发送",
		Msg: "the text contains the blocked word " + strconv.Quote(word), Err: ErrBlocked}
}

// List is the list as saved (read through the cache's refresh rule, so an
// operator on another node sees a change within CheckEvery).
func (s *Service) List(ctx context.Context) (List, error) {
	l, _, err := s.current(ctx)
	if err != nil {
		return List{}, err
	}
	l.Words = slices.Clone(l.Words)
	return l, nil
}

func invalid(tip, msg string) error {
	return &httpx.Error{Status: http.StatusUnprocessableEntity, Tip: tip, Msg: msg, Err: ErrInput}
}

// Normalize is words as they are saved: each trimmed, empty ones dropped,
// repeats (after folding) dropped keeping the first, order kept. A word
// with a control character, longer than MaxWordRunes, or more than
// MaxWords words, is ErrInput naming the rule.
func Normalize(words []string) ([]string, error) {
	if len(words) > MaxWords*2 {
		return nil, invalid(fmt.Sprintf("违禁词最多 %d 个", MaxWords), fmt.Sprintf("at most %d words", MaxWords))
	}
	out := make([]string, 0, len(words))
	seen := map[string]bool{}
	for i, w := range words {
		w = strings.TrimSpace(w)
		if w == "" {
			continue
		}
		if !utf8.ValidString(w) || strings.ContainsFunc(w, func(r rune) bool { return unicode.IsControl(r) || r == utf8.RuneError }) {
			return nil, invalid(fmt.Sprintf("第 %d 个违禁词含有控制字符", i+1), fmt.Sprintf("word %d holds a control character", i+1))
		}
		if n := utf8.RuneCountInString(w); n > MaxWordRunes {
			return nil, invalid(fmt.Sprintf("违禁词「%s…」超过 %d 个字", string([]rune(w)[:8]), MaxWordRunes), fmt.Sprintf("word %d is longer than %d characters", i+1, MaxWordRunes))
		}
		f := Fold(w)
		if strings.TrimSpace(f) == "" {
			continue
		}
		if seen[f] {
			continue
		}
		seen[f] = true
		out = append(out, w)
	}
	if len(out) > MaxWords {
		return nil, invalid(fmt.Sprintf("违禁词最多 %d 个", MaxWords), fmt.Sprintf("at most %d words, got %d", MaxWords, len(out)))
	}
	return out, nil
}

// Set replaces the list with words (Normalize) and answers it. A change
// writes one "moderation.words" audit row (the words added and removed)
// and raises the version; the same list again changes nothing and writes
// no row.
func (s *Service) Set(ctx context.Context, actor audit.Actor, words []string) (List, error) {
	words, err := Normalize(words)
	if err != nil {
		return List{}, err
	}
	now := s.now()
	var out List
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var (
			old     string
			version int64
		)
		if err := tx.QueryRow(ctx, `SELECT words, version, updated_at FROM blocked_words WHERE id = 1`+tx.ForUpdate()).Scan(&old, &version, &out.UpdatedAt); err != nil {
			return err
		}
		joined := strings.Join(words, "\n")
		out.Words, out.Version = words, version
		if joined == old {
			return nil
		}
		before := split(old)
		out.Version, out.UpdatedAt = version+1, now.Unix()
		if _, err := tx.Exec(ctx, `UPDATE blocked_words SET words = ?, version = ?, updated_at = ?, updated_by = ? WHERE id = 1`,
			joined, out.Version, out.UpdatedAt, actor.UID); err != nil {
			return err
		}
		saved := out
		tx.AfterCommit(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			if !s.loaded || s.list.Version < saved.Version {
				s.setLocked(saved, s.now())
			}
		})
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "moderation.words", TargetType: "blocked_words", TargetID: "1",
			Before: map[string]any{"count": len(before), "removed": diff(before, words)},
			After:  map[string]any{"count": len(words), "added": diff(words, before)}}, now)
	})
	if err != nil {
		return List{}, err
	}
	return out, nil
}

// diff is the words of a not in b.
func diff(a, b []string) []string {
	in := make(map[string]bool, len(b))
	for _, w := range b {
		in[w] = true
	}
	out := []string{}
	for _, w := range a {
		if !in[w] {
			out = append(out, w)
		}
	}
	return out
}
