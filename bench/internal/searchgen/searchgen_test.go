package searchgen

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTableShape(t *testing.T) {
	if len(Chars.Chars) < 1200 {
		t.Fatalf("table has %d characters, want at least 1200", len(Chars.Chars))
	}
	if Chars.Chars[0] != '的' || Chars.Chars[1] != '一' {
		t.Fatalf("table starts %q, want 的一…", string(Chars.Chars[:2]))
	}
	sum := 0.0
	for i, w := range Chars.Weight {
		sum += w
		if i > 0 && w >= Chars.Weight[i-1] {
			t.Fatalf("weight of rank %d not below rank %d", i+1, i)
		}
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Fatalf("weights sum to %v", sum)
	}
	if top := Chars.Weight[0]; top < 0.03 || top > 0.06 {
		t.Fatalf("top character weight %.3f, want 3–6 %% like 的 in running text", top)
	}
}

// Drawn characters follow the table: the observed share of each of the top
// 50 ranks is within 10 % of its weight, and the rare half of the table
// still turns up.
func TestDrawFollowsTable(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 400_000
	count := map[rune]int{}
	for range n {
		count[Chars.Draw(r)]++
	}
	for i := range 50 {
		c := Chars.Chars[i]
		got := float64(count[c]) / n
		want := Chars.Weight[i]
		if math.Abs(got-want)/want > 0.10 {
			t.Errorf("rank %d %q: share %.4f, table %.4f", i+1, string(c), got, want)
		}
	}
	rare := 0
	for _, c := range Chars.Chars[len(Chars.Chars)/2:] {
		rare += count[c]
	}
	wantRare := 0.0
	for _, w := range Chars.Weight[len(Chars.Weight)/2:] {
		wantRare += w
	}
	if got := float64(rare) / n; math.Abs(got-wantRare)/wantRare > 0.05 {
		t.Errorf("rare half: share %.4f, table %.4f", got, wantRare)
	}
}

func TestTitles(t *testing.T) {
	g := New(7)
	if g.Title(12345) != New(7).Title(12345) {
		t.Fatal("a title is not deterministic for its seed and number")
	}
	if g.Title(1) == New(8).Title(1) {
		t.Fatal("seeds do not change the titles")
	}
	const n = 50_000
	words := map[string]int{}
	latin := 0
	for i := range int64(n) {
		s := g.Title(i)
		if k := utf8.RuneCountInString(s); k < MinRunes || k > MaxRunes {
			t.Fatalf("title %d %q has %d characters", i, s, k)
		}
		if s != strings.TrimSpace(s) || strings.Contains(s, "  ") {
			t.Fatalf("title %d %q has stray spaces", i, s)
		}
		for _, w := range Words {
			if strings.Contains(s, w.Text) {
				words[w.Text]++
			}
		}
		for _, w := range Latin {
			if strings.Contains(s, w) {
				latin++
				break
			}
		}
	}
	// Placed words: the share of titles holding each is at least its
	// share (random characters can form it too) and not far above it for
	// two-character words, which chance rarely makes.
	for _, w := range Words {
		got := float64(words[w.Text]) / n
		hi := w.Share * 1.25
		if utf8.RuneCountInString(w.Text) == 1 {
			hi = w.Share + 0.02 // a single character also comes from the table
		}
		if got < w.Share*0.8 || got > hi {
			t.Errorf("%s in %.4f of titles, placed in %.4f", w.Text, got, w.Share)
		}
	}
	if got := float64(latin) / n; math.Abs(got-LatinRate) > 0.01 {
		t.Errorf("Latin words in %.3f of titles, want %.2f", got, LatinRate)
	}
}
