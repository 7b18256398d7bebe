// Package searchgen makes the search bench's catalogue text: Chinese video
// titles whose characters follow a frequency table of common modern
// characters (chars.go) instead of random code points, with common title
// words (北京, 教程, 猫, …) and Latin words (iPhone, vlog, 4K, …) placed at
// fixed, realistic rates. Everything is deterministic for a seed and a title
// number, so SQLite and PostgreSQL get the same catalogue and a title can be
// made again without the ones before it.
package searchgen

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Version changes whenever the generated text changes.
const Version = "searchgen-1"

// Table is the character frequency table: Chars in rank order, Weight the
// probability of each (summing to 1).
type Table struct {
	Chars  []rune
	Weight []float64
	cum    []float64
}

// Zipf–Mandelbrot parameters: weight(rank) ∝ 1/(rank+q)^s, rank from 1.
// With q = 3 and s = 1.0 over this table the top character takes about 4 %
// and the first ten about 21 % of character draws, close to the published
// counts for running text (的 ≈ 4 %); titles then mix in words and Latin.
const (
	zipfQ = 3.0
	zipfS = 1.0
)

// Chars is the table built from commonChars.
var Chars = buildTable(commonChars)

func buildTable(s string) *Table {
	t := &Table{}
	seen := map[rune]bool{}
	for _, r := range s {
		if !unicode.Is(unicode.Han, r) || seen[r] {
			continue
		}
		seen[r] = true
		t.Chars = append(t.Chars, r)
	}
	total := 0.0
	for i := range t.Chars {
		w := 1 / math.Pow(float64(i+1)+zipfQ, zipfS)
		t.Weight = append(t.Weight, w)
		total += w
	}
	acc := 0.0
	for i := range t.Weight {
		t.Weight[i] /= total
		acc += t.Weight[i]
		t.cum = append(t.cum, acc)
	}
	t.cum[len(t.cum)-1] = 1
	return t
}

// Draw picks one character by the table's weights.
func (t *Table) Draw(r *rand.Rand) rune {
	return t.Chars[sort.SearchFloat64s(t.cum, r.Float64())]
}

// Word is a title word and the share of titles that contain it.
type Word struct {
	Text  string
	Share float64
}

// Words are common title words with the share of titles holding each (at
// most one per title; each title draws one with probability WordRate, the
// word then chosen by share). 猫, 北京 and 教程 are the queries the issue
// names; the shares are guesses at a video site's titles, not measured.
var Words = []Word{
	{"猫", 0.020}, {"教程", 0.015}, {"北京", 0.010}, {"美食", 0.015}, {"搞笑", 0.012},
	{"游戏", 0.012}, {"音乐", 0.010}, {"电影", 0.010}, {"旅行", 0.008}, {"上海", 0.008},
	{"日常", 0.008}, {"宝宝", 0.006}, {"健身", 0.006}, {"穿搭", 0.005}, {"化妆", 0.005},
	{"手机", 0.006}, {"测评", 0.006}, {"开箱", 0.004}, {"直播", 0.005}, {"狗", 0.010},
	{"广州", 0.004}, {"成都", 0.004}, {"火锅", 0.004}, {"减肥", 0.004}, {"钢琴", 0.003},
	{"英语", 0.004}, {"考研", 0.003}, {"篮球", 0.004}, {"足球", 0.004}, {"动漫", 0.005},
}

// Latin are Latin words placed in LatinRate of titles, chosen uniformly.
var Latin = []string{"iPhone", "vlog", "4K", "VR", "Python", "NBA", "MV", "DIY", "PS5", "Switch", "AI", "HiFi"}

const (
	LatinRate = 0.10
	MinRunes  = 6
	MaxRunes  = 30
)

// WordRate is the chance a title holds one of Words: their shares summed.
var WordRate = func() float64 {
	s := 0.0
	for _, w := range Words {
		s += w.Share
	}
	return s
}()

// Gen makes titles for one seed.
type Gen struct {
	seed    uint64
	wordCum []float64
}

func New(seed uint64) *Gen {
	g := &Gen{seed: seed}
	acc := 0.0
	for _, w := range Words {
		acc += w.Share / WordRate
		g.wordCum = append(g.wordCum, acc)
	}
	g.wordCum[len(g.wordCum)-1] = 1
	return g
}

// Title is title number i: MinRunes to MaxRunes characters in all (short
// titles commoner, as on video sites), drawn character by character from
// the table, with at most one word and one Latin word set in at random
// places, and now and then a space or an episode number.
func (g *Gen) Title(i int64) string {
	r := rand.New(rand.NewPCG(g.seed, uint64(i)))
	// Length: 6–30, skewed short (most titles are 10–20 characters).
	n := MinRunes + int(float64(MaxRunes-MinRunes+1)*math.Pow(r.Float64(), 1.6))
	if n > MaxRunes {
		n = MaxRunes
	}
	var parts []string
	used := 0
	if r.Float64() < WordRate {
		w := Words[sort.SearchFloat64s(g.wordCum, r.Float64())].Text
		parts = append(parts, w)
		used += len([]rune(w))
	}
	if r.Float64() < LatinRate {
		w := Latin[r.IntN(len(Latin))]
		parts = append(parts, " "+w+" ")
		used += len(w)
	}
	// The rest: Han characters in runs of 2–6, so the title reads as
	// several chunks with the words between them.
	for used < n {
		k := 2 + r.IntN(5)
		if k > n-used {
			k = n - used
		}
		var b strings.Builder
		for range k {
			b.WriteRune(Chars.Draw(r))
		}
		parts = append(parts, b.String())
		used += k
	}
	r.Shuffle(len(parts), func(a, b int) { parts[a], parts[b] = parts[b], parts[a] })
	t := strings.Join(parts, "")
	t = strings.Join(strings.Fields(t), " ")
	// Trim to MaxRunes (a Latin word may push it over).
	if rs := []rune(t); len(rs) > MaxRunes {
		t = strings.TrimSpace(string(rs[:MaxRunes]))
	}
	for utf8.RuneCountInString(t) < MinRunes {
		t += string(Chars.Draw(r))
	}
	return t
}

// HanRuns are the maximal runs of Han characters in s.
func HanRuns(s string) [][]rune {
	var out [][]rune
	var cur []rune
	for _, c := range s {
		if unicode.Is(unicode.Han, c) {
			cur = append(cur, c)
			continue
		}
		if len(cur) > 0 {
			out = append(out, cur)
			cur = nil
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}
