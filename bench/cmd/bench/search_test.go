package main

import (
	"testing"
	"unicode/utf8"

	"prima/bench/internal/searchgen"
)

func TestSearchQueries(t *testing.T) {
	g := searchgen.New(3)
	qs := searchQueries(g, 5000, 300, 3)
	want := map[string][2]int{class1: {1, 1}, class2: {2, 2}, class4: {4, 4}, classS: {1, 2}}
	for _, c := range searchClasses {
		if len(qs[c]) != 300 {
			t.Fatalf("%s: %d queries", c, len(qs[c]))
		}
		for _, q := range qs[c] {
			if n := utf8.RuneCountInString(q); n < want[c][0] || n > want[c][1] {
				t.Fatalf("%s: query %q has %d characters", c, q, n)
			}
		}
	}
	// The one-character class holds the commonest characters (the worst
	// case for a ranked index) and rare ones.
	common, rare := 0, 0
	for _, q := range qs[class1] {
		r, _ := utf8.DecodeRuneInString(q)
		for i, c := range searchgen.Chars.Chars {
			if c == r {
				if i < 10 {
					common++
				} else if i >= 200 {
					rare++
				}
				break
			}
		}
	}
	if common < 80 || rare < 80 {
		t.Fatalf("one-character queries: %d among the top 10, %d past rank 200", common, rare)
	}
	if again := searchQueries(g, 5000, 300, 3); again[class4][17] != qs[class4][17] {
		t.Fatal("queries are not deterministic")
	}
}

func TestParseSearchFlags(t *testing.T) {
	o, err := parseSearchFlags([]string{"-n", "50000", "-engines", "sqlite"})
	if err != nil || o.n != 50000 || len(o.engines) != 1 || o.queries != 400 {
		t.Fatalf("%+v %v", o, err)
	}
	for _, bad := range [][]string{{"-n", "10"}, {"-engines", "mysql"}, {"-like-queries", "500"}} {
		if _, err := parseSearchFlags(bad); err == nil {
			t.Fatalf("%v accepted", bad)
		}
	}
}
