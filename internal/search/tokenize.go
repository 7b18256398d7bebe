package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// maxWordRunes bounds one Latin/digit token; a longer run is cut (tsvector
// lexemes and FTS5 terms both have limits, and nobody searches for them).
const maxWordRunes = 40

// normRune folds one rune: full-width and half-width forms to their
// canonical width (Ａ -> a, ｶ -> カ), lower case, traditional -> simplified
// where the table knows the character. It maps one rune to one rune, so a
// position in a normalised string is the same position in the original,
// which is what Marks rely on.
func normRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}
	if k := width.LookupRune(r).Kind(); k == width.EastAsianFullwidth || k == width.EastAsianHalfwidth {
		s := width.Fold.String(string(r))
		if f, n := utf8.DecodeRuneInString(s); n == len(s) {
			r = f
		}
	}
	r = unicode.ToLower(r)
	if s, ok := t2s(r); ok {
		r = s
	}
	return r
}

// Normalize folds s for matching: full-width to half-width, lower case,
// traditional to simplified characters where a table exists. It keeps the
// rune count (one rune in, one rune out).
func Normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		b.WriteRune(normRune(r))
	}
	return b.String()
}

// isCJK reports a rune that is written without spaces between words: Han
// ideographs, kana and Hangul. Each becomes a unigram and a bigram with its
// neighbour.
func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r) || r == 'ー'
}

// runClass: 0 separator, 1 CJK, 2 letter, 3 digit.
func runClass(r rune) int {
	switch {
	case isCJK(r):
		return 1
	case unicode.IsLetter(r) || unicode.Is(unicode.Mn, r):
		return 2
	case unicode.IsDigit(r) || unicode.IsNumber(r):
		return 3
	}
	return 0
}

// runs cuts normalised s into maximal runs of one class (CJK, letters,
// digits); separators end a run and are dropped. "iphone15教程" gives
// iphone, 15, 教程.
func runs(s string) [][]rune {
	var out [][]rune
	var cur []rune
	cls := 0
	for _, r := range s {
		c := runClass(r)
		if c != cls || c == 0 {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
		}
		cls = c
		if c != 0 {
			cur = append(cur, r)
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func cutWord(w []rune) string {
	if len(w) > maxWordRunes {
		w = w[:maxWordRunes]
	}
	return string(w)
}

// Tokens are s's index tokens, in order, repeats kept: each CJK run gives
// its unigrams and its bigrams, each Latin or digit run one word. The text
// is normalised first.
func Tokens(s string) []string {
	var out []string
	for _, run := range runs(Normalize(s)) {
		if isCJK(run[0]) {
			for i, r := range run {
				out = append(out, string(r))
				if i+1 < len(run) {
					out = append(out, string(run[i:i+2]))
				}
			}
			continue
		}
		out = append(out, cutWord(run))
	}
	return out
}

// queryTokens are the tokens a query must all match (ANDed), without
// repeats: a one-character CJK run is its unigram, a longer one its
// bigrams, a Latin or digit run its word. The text is normalised first.
func queryTokens(s string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, run := range runs(Normalize(s)) {
		switch {
		case !isCJK(run[0]):
			add(cutWord(run))
		case len(run) == 1:
			add(string(run))
		default:
			for i := 0; i+1 < len(run); i++ {
				add(string(run[i : i+2]))
			}
		}
	}
	return out
}

// marks are the rune ranges [start, end) of title that the query's terms
// match, sorted and merged. Each query token is looked for anywhere in the
// normalised title, so bigrams of 北京大学 that follow each other merge into
// one range.
func marks(title string, toks []string) [][2]int {
	nt := []rune(Normalize(title))
	hit := make([]bool, len(nt)+1)
	any := false
	for _, t := range toks {
		tr := []rune(t)
		if len(tr) == 0 || len(tr) > len(nt) {
			continue
		}
		for i := 0; i+len(tr) <= len(nt); i++ {
			match := true
			for j := range tr {
				if nt[i+j] != tr[j] {
					match = false
					break
				}
			}
			if match {
				for j := range tr {
					hit[i+j] = true
				}
				any = true
			}
		}
	}
	out := [][2]int{}
	if !any {
		return out
	}
	start := -1
	for i := 0; i <= len(nt); i++ {
		switch {
		case i < len(nt) && hit[i] && start < 0:
			start = i
		case (i == len(nt) || !hit[i]) && start >= 0:
			out = append(out, [2]int{start, i})
			start = -1
		}
	}
	return out
}

// cleanQuery strips control characters (NUL included) and surrounding
// space, and checks the length rules.
func cleanQuery(s string) (string, error) {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, " ")
	}
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\ufeff' {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "", ErrEmptyQuery
	}
	if utf8.RuneCountInString(s) > MaxQueryRunes {
		return "", ErrQueryTooLong
	}
	return s, nil
}
