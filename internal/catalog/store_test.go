package catalog

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// allPublished reads a scope's published videos with a plain query, for the
// listings to be checked against.
func allPublished(t *testing.T, d *db.DB, f videoFilter) []Video {
	t.Helper()
	w, args := f.where()
	vs, err := db.All(context.Background(), d, scanVideo, "SELECT "+videoCols+" FROM videos v WHERE "+strings.ReplaceAll(w, "published", "v.published"), args...)
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

func sortedLike(vs []Video, sort int) []int64 {
	vs = slices.Clone(vs)
	slices.SortFunc(vs, func(a, b Video) int {
		ka, kb := sortKey(a, sort), sortKey(b, sort)
		return cmp.Or(cmp.Compare(kb.Val, ka.Val), cmp.Compare(kb.ID, ka.ID))
	})
	return ids(vs)
}

func ids(vs []Video) []int64 {
	out := make([]int64, len(vs))
	for i, v := range vs {
		out[i] = v.ID
	}
	return out
}

// Paging through a listing by offset and by keyset both visit every
// published video of the scope once, in the listing's order.
func TestListingsPageThroughScope(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		fx := newFixture(t, d)
		filters := map[string]videoFilter{
			"sub":         {SubModuleID: fx.rec},
			"module":      {ModuleID: fx.home},
			"sub short":   {SubModuleID: fx.rec, PlayTime: PlayTimeShort},
			"sub mid":     {SubModuleID: fx.rec, PlayTime: PlayTimeMid},
			"module long": {ModuleID: fx.home, PlayTime: PlayTimeLong},
			"sub recent":  {SubModuleID: fx.rec, Since: testNow.Add(-7 * 24 * time.Hour).Unix()},
		}
		for name, f := range filters {
			want := allPublished(t, d, f)
			if len(want) == 0 {
				t.Fatalf("%s: fixture selects nothing", name)
			}
			for sort := SortNewest; sort <= SortLiked; sort++ {
				wantIDs := sortedLike(want, sort)
				var byOffset, byKeyset []int64
				var c *cursor
				for off := 0; off < len(want)+7; off += 7 {
					page, err := listVideosOffset(ctx, d, f, sort, off, 7)
					if err != nil {
						t.Fatal(err)
					}
					byOffset = append(byOffset, ids(page)...)
					var kpage []Video
					if c == nil {
						kpage, err = listVideosOffset(ctx, d, f, sort, 0, 7)
					} else {
						kpage, err = listVideosAfter(ctx, d, f, sort, *c, 7)
					}
					if err != nil {
						t.Fatal(err)
					}
					byKeyset = append(byKeyset, ids(kpage)...)
					if len(kpage) > 0 {
						k := sortKey(kpage[len(kpage)-1], sort)
						c = &k
					}
				}
				if !slices.Equal(byOffset, wantIDs) {
					t.Errorf("%s sort %d by offset:\n got %v\nwant %v", name, sort, byOffset, wantIDs)
				}
				if !slices.Equal(byKeyset, wantIDs) {
					t.Errorf("%s sort %d by keyset:\n got %v\nwant %v", name, sort, byKeyset, wantIDs)
				}
			}
		}
		// The draft is in no listing.
		for _, v := range allPublished(t, d, videoFilter{SubModuleID: fx.rec}) {
			if v.ID == fx.draft {
				t.Fatal("unpublished video listed")
			}
		}
	})
}

func TestCountVideosIsCapped(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		fx := newFixture(t, d)
		for _, tc := range []struct {
			f     videoFilter
			limit int
			want  int
		}{
			{videoFilter{SubModuleID: fx.rec}, 1000, 45},
			{videoFilter{SubModuleID: fx.rec}, 10, 10},
			{videoFilter{ModuleID: fx.home}, 1000, 50},
			{videoFilter{SubModuleID: fx.rec, PlayTime: PlayTimeShort}, 1000, 16}, // i%6 in {0,1}: 8+8
			{videoFilter{SubModuleID: fx.rec, Since: testNow.Add(-7 * 24 * time.Hour).Unix()}, 1000, 7},
			{videoFilter{SubModuleID: fx.empty}, 1000, 0},
		} {
			n, err := countVideos(ctx, d, tc.f, tc.limit)
			if err != nil || n != tc.want {
				t.Errorf("count %+v limit %d = %d, %v; want %d", tc.f, tc.limit, n, err, tc.want)
			}
		}
	})
}

func TestSectionVideosAndTags(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		fx := newFixture(t, d)
		got, err := sectionVideos(ctx, d, []int64{fx.rec, fx.latest, fx.empty}, 4)
		if err != nil {
			t.Fatal(err)
		}
		if want := fx.recVideos[:4]; !slices.Equal(ids(got[fx.rec]), want) {
			t.Errorf("newest of 推荐: %v, want %v", ids(got[fx.rec]), want)
		}
		if len(got[fx.latest]) != 4 || len(got[fx.empty]) != 0 {
			t.Errorf("section sizes: latest %d, empty %d", len(got[fx.latest]), len(got[fx.empty]))
		}
		vs := got[fx.rec]
		if err := attachTags(ctx, d, vs); err != nil {
			t.Fatal(err)
		}
		// Video i carries tag j when i%(j+2)==0; tags list in tag sort order
		// (独家 sort 1, 高清 2, 剧情 3).
		want := [][]string{{"独家", "高清", "剧情"}, {}, {"剧情"}, {"高清"}}
		for i, v := range vs {
			if !slices.Equal(v.Tags, want[i]) {
				t.Errorf("video %d tags %v, want %v", i, v.Tags, want[i])
			}
		}
	})
}

// The listing queries walk the index made for them. This is what keeps a
// page cheap on a million rows; it fails if an index is dropped or a query stops matching the
// partial indexes' predicate.
func TestListingQueryPlans(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		fx := newFixture(t, d)
		gen := "WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM seq WHERE n < 30000) SELECT n FROM seq"
		if d.Engine == db.Postgres {
			gen = "SELECT n FROM generate_series(1::bigint, 30000::bigint) AS g(n)"
		}
		// Spread 30,000 videos over the two sections of 首页.
		_, err := d.Exec(ctx, `INSERT INTO videos (title, duration, play_count, like_count, module_id, sub_module_id, published, created_at, updated_at)
			SELECT 'bulk', (n * 7919) % 7200, (n * 104729) % 1000003, (n * 15485863) % 99991, CAST(? AS BIGINT), CASE WHEN n % 2 = 0 THEN CAST(? AS BIGINT) ELSE CAST(? AS BIGINT) END,
			CASE WHEN n % 50 = 0 THEN 0 ELSE 1 END, 1700000000 + ((n * 2654435761) % 60000000), 0 FROM (`+gen+`) s`, fx.home, fx.rec, fx.latest)
		if err != nil {
			t.Fatal(err)
		}
		analyze := "ANALYZE"
		if d.Engine == db.Postgres {
			analyze = "VACUUM ANALYZE videos"
		}
		if _, err := d.Exec(ctx, analyze); err != nil {
			t.Fatal(err)
		}
		plan := func(q string, args ...any) string {
			prefix := "EXPLAIN QUERY PLAN "
			if d.Engine == db.Postgres {
				prefix = "EXPLAIN "
			}
			rows, err := d.Query(ctx, prefix+q, args...)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			cols, _ := rows.Columns()
			var lines []string
			for rows.Next() {
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				if err := rows.Scan(ptrs...); err != nil {
					t.Fatal(err)
				}
				lines = append(lines, fmt.Sprint(vals[len(vals)-1]))
			}
			return strings.Join(lines, "\n")
		}
		for _, scope := range []string{"sub", "mod"} {
			f := videoFilter{SubModuleID: fx.rec, PlayTime: PlayTimeLong}
			if scope == "mod" {
				f = videoFilter{ModuleID: fx.home}
			}
			for sort, name := range []string{"new", "play", "like"} {
				index := "videos_" + scope + "_" + name
				w, args := f.where()
				col := sortColumn(sort)
				// The offset subquery alone: it must read only the index.
				p := plan("SELECT id FROM videos WHERE "+w+" ORDER BY "+col+" DESC, id DESC LIMIT 21 OFFSET 2000", args...)
				wantOff := "COVERING INDEX " + index
				if d.Engine == db.Postgres {
					wantOff = "Index Only Scan using " + index
				}
				if !strings.Contains(p, wantOff) || strings.Contains(p, "TEMP B-TREE") || strings.Contains(p, "Sort") {
					t.Errorf("offset %s: want %q without a sort, plan:\n%s", index, wantOff, p)
				}
				p = plan("SELECT "+videoCols+" FROM videos v WHERE "+w+" AND ("+col+", id) < (?, ?) ORDER BY "+col+" DESC, id DESC LIMIT 21",
					append(args, 1730000000, 15000)...)
				wantKey := "INDEX " + index
				if d.Engine == db.Postgres {
					wantKey = "Index Scan using " + index
				}
				if !strings.Contains(p, wantKey) || strings.Contains(p, "TEMP B-TREE") || strings.Contains(p, "Sort") {
					t.Errorf("keyset %s: want %q without a sort, plan:\n%s", index, wantKey, p)
				}
			}
		}
	})
}

func TestTTLCache(t *testing.T) {
	c := newTTLCache[int, string](time.Minute, 3)
	now := time.Unix(1000, 0)
	c.now = func() time.Time { return now }
	c.put(1, "a")
	if v, ok := c.get(1); !ok || v != "a" {
		t.Fatalf("get fresh: %q %v", v, ok)
	}
	now = now.Add(2 * time.Minute)
	if _, ok := c.get(1); ok {
		t.Fatal("expired entry returned")
	}
	c.put(2, "b")
	c.put(3, "c")
	c.put(4, "d") // full: the expired 1 goes first
	if _, ok := c.get(2); !ok {
		t.Fatal("live entry dropped while an expired one could go")
	}
	c.put(5, "e") // full of live entries: starts over
	if len(c.m) > 3 {
		t.Fatalf("cache grew to %d entries past its bound", len(c.m))
	}
	if v, ok := c.get(5); !ok || v != "e" {
		t.Fatal("newest entry lost")
	}
}
