package seed

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/search"
)

// A fresh demo answers 热门搜索 with its pinned words before anyone has
// searched, and each of them finds something in the demo.
func TestFreshSeedHasHotWordsThatFindSomething(t *testing.T) {
	ctx := context.Background()
	for _, e := range []db.Engine{db.SQLite, db.Postgres} {
		t.Run(string(e), func(t *testing.T) {
			a := newApp(t, e)
			if _, err := RunWith(ctx, a, Options{Stderr: &strings.Builder{}}); err != nil {
				t.Fatal(err)
			}
			hot, err := search.Hot(ctx, a.DB, time.Now(), 10)
			if err != nil {
				t.Fatal(err)
			}
			var words []string
			for _, h := range hot {
				if !h.Pinned {
					t.Errorf("%q is hot on a fresh install that nobody searched", h.Word)
				}
				words = append(words, h.Word)
			}
			if !slices.Equal(words, searchPins) {
				t.Fatalf("hot words %v, want the pins %v", words, searchPins)
			}
			for _, w := range words {
				_, total, err := search.Search(ctx, a.DB, search.Query{Text: w, VipLevel: -1, Sort: "relevance", Limit: 10})
				if err != nil || total == 0 {
					t.Errorf("pinned %q finds %d (%v)", w, total, err)
				}
			}
		})
	}
}
