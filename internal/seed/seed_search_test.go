package seed

import (
	"context"
	"strings"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/search"
)

// seedIndexDocs is the index's rows in a stable order.
func seedIndexDocs(t *testing.T, d *db.DB) (string, map[string]int) {
	t.Helper()
	rows, err := search.Dump(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	kinds, err := search.Counts(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(rows, "\n"), kinds
}

// TestSeedIndexesEverything: `prima seed` ends with every seeded item
// that users may see in the index, exactly as `prima reindex` builds it.
func TestSeedIndexesEverything(t *testing.T) {
	ctx := context.Background()
	for _, e := range []db.Engine{db.SQLite, db.Postgres} {
		t.Run(string(e), func(t *testing.T) {
			a := newApp(t, e)
			report, err := RunWith(ctx, a, Options{Stderr: &strings.Builder{}})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(report, "indexed for search") {
				t.Errorf("report does not say what was indexed:\n%s", report)
			}
			kept, kinds := seedIndexDocs(t, a.DB)
			t.Logf("seeded docs by kind: %v", kinds)
			for _, k := range search.Kinds {
				if kinds[k] == 0 {
					t.Errorf("no %s docs after the seed: %v", k, kinds)
				}
			}
			// What users may see, counted from the tables.
			var visibleVideos, visiblePosts, registered int
			if err := a.DB.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM videos WHERE published = 1),
				(SELECT COUNT(*) FROM posts WHERE state = 'published'), (SELECT COUNT(*) FROM users WHERE account IS NOT NULL)`).
				Scan(&visibleVideos, &visiblePosts, &registered); err != nil {
				t.Fatal(err)
			}
			if kinds[search.KindVideo]+kinds[search.KindShort] != visibleVideos || kinds[search.KindPost] != visiblePosts || kinds[search.KindUser] != registered {
				t.Errorf("docs %v, want %d videos, %d posts, %d users", kinds, visibleVideos, visiblePosts, registered)
			}
			if _, err := search.Reindex(ctx, a.DB); err != nil {
				t.Fatal(err)
			}
			if fresh, _ := seedIndexDocs(t, a.DB); fresh != kept {
				t.Errorf("the seeded index differs from a rebuild")
			}
			// The words the e2e journey searches find something.
			for _, q := range []string{"猫", "北京"} {
				_, total, err := search.Search(ctx, a.DB, search.Query{Text: q, VipLevel: -1, Sort: "relevance", Limit: 10})
				t.Logf("%q: %d hits", q, total)
				if err != nil || total == 0 {
					t.Errorf("search %q: %d hits, %v", q, total, err)
				}
			}
		})
	}
}
