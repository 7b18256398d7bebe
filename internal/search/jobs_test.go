package search

import (
	"context"
	"slices"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/jobs"
)

// TestUpgradeRebuildsTheIndex: after the migration that empties the index,
// a database with content gets one reindex job, and running it makes the
// content findable again; a new database and other migrations get none.
func TestUpgradeRebuildsTheIndex(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		depth := func() int64 {
			t.Helper()
			n, err := jobs.Depth(ctx, d)
			if err != nil {
				t.Fatal(err)
			}
			return n[jobs.Available]
		}
		if err := EnqueueRebuild(ctx, d, rebuildMigrations); err != nil || depth() != 0 {
			t.Fatalf("an empty database got a rebuild (%v)", err)
		}
		f, home, sub, _, _ := setup(t, d)
		v := f.video("升级以后还能找到", home, sub, 1, 0)
		// What the migration leaves: an empty index.
		if d.Engine == db.SQLite {
			f.exec(`INSERT INTO search_fts (search_fts) VALUES ('delete-all')`)
		} else {
			f.exec(`DELETE FROM search_fts`)
		}
		if err := EnqueueRebuild(ctx, d, []string{"0027_moderation"}); err != nil || depth() != 0 {
			t.Fatalf("another migration got a rebuild (%v)", err)
		}
		for range 2 { // a second start before the job ran adds none
			if err := EnqueueRebuild(ctx, d, append([]string{"0028_search"}, rebuildMigrations...)); err != nil {
				t.Fatal(err)
			}
		}
		if n := depth(); n != 1 {
			t.Fatalf("%d rebuild jobs, want 1", n)
		}
		if _, total := search(t, d, q("升级")); total != 0 {
			t.Fatal("found before the rebuild: the index was not empty")
		}
		queue := jobs.New(d, jobs.Config{Workers: 1})
		RegisterJobs(queue, d)
		if err := queue.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer queue.Stop(ctx)
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			var state string
			if err := d.QueryRow(ctx, `SELECT state FROM jobs WHERE kind = ?`, ReindexKind).Scan(&state); err != nil {
				t.Fatal(err)
			}
			if state == string(jobs.Succeeded) {
				break
			}
			if state == string(jobs.Dead) || time.Now().After(deadline) {
				t.Fatalf("rebuild job %s", state)
			}
		}
		if hits, _ := search(t, d, q("升级")); len(hits) != 1 || hits[0].ID != v {
			t.Fatalf("after the rebuild: %+v", hits)
		}
	})
}

// TestPostgresPlansAgree: the id walk, the GIN path and the GIN slice
// (query.go, pgWindow) find the same window, whichever the statistics pick.
func TestPostgresPlansAgree(t *testing.T) {
	d := dbtest.Open(t, db.Postgres)
	f, home, sub, short, ssub := setup(t, d)
	words := []string{"的猫", "北京的", "猫咪日常", "iPhone 的教程", "今天", "北京大学"}
	for i := range 300 {
		m, s := home, sub
		if i%4 == 0 {
			m, s = short, ssub
		}
		f.video(words[i%len(words)]+words[(i/7)%len(words)], m, s, int64(i), int64(i%13))
	}
	f.exec(`ANALYZE search_fts`)
	ctx := context.Background()
	window := func(plan int, span int64, text, kind string) []int64 {
		lo, hi := idRange(kind)
		w := pgWindow(ctx, d, tsQuery(queryTokens(text), false, nil), lo, hi, plan, span)
		ids, err := db.All(ctx, d, scanID, w.sql, w.args(Window, 0)...)
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}
	for _, text := range []string{"的", "猫", "北京", "日常", "iphone 教程", "没有的词"} {
		for _, kind := range []string{"", KindVideo, KindShort} {
			want := window(planGIN, 0, text, kind)
			if text != "没有的词" && len(want) == 0 {
				t.Errorf("%q %q: nothing found", text, kind)
			}
			for _, p := range []struct {
				plan int
				span int64
			}{{planWalk, 0}, {planSlice, 10}, {planSlice, 120}, {planSlice, 1000}} {
				if got := window(p.plan, p.span, text, kind); !slices.Equal(got, want) {
					t.Fatalf("%q %q: plan %d span %d found %d ids, GIN %d", text, kind, p.plan, p.span, len(got), len(want))
				}
				// As Search composes it: counted, and ranked.
				lo, hi := idRange(kind)
				w := pgWindow(ctx, d, tsQuery(queryTokens(text), false, nil), lo, hi, p.plan, p.span)
				var n int
				if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM (`+w.sql+`) w`, w.args(Window, 0)...).Scan(&n); err != nil || n != len(want) {
					t.Fatalf("%q %q plan %d: count %d (%v), want %d", text, kind, p.plan, n, err, len(want))
				}
				sql, args := w.ranked(kind, RankWindow, "r.id DESC", nil, 20, 0)
				top, err := db.All(ctx, d, scanID, sql, args...)
				if err != nil || !slices.Equal(top, want[:min(20, len(want))]) {
					t.Fatalf("%q %q plan %d: ranked %v (%v)", text, kind, p.plan, top, err)
				}
			}
		}
	}
	// The statistics are read, and decide as they would at a million rows.
	pgStats.forget()
	defer pgStats.forget()
	if plan, _ := pgStats.plan(ctx, d, []string{"的"}, false); plan != planGIN || pgStats.freq["的"] < 0.5 {
		t.Errorf("300 rows: plan %d, share of 的 %v; want GIN and about 0.7", plan, pgStats.freq["的"])
	}
	pgStats.mu.Lock()
	pgStats.rows = 1e6
	pgStats.mu.Unlock()
	if plan, _ := pgStats.plan(ctx, d, []string{"的"}, false); plan != planWalk {
		t.Errorf("的: plan %d, want the walk", plan)
	}
	if plan, _ := pgStats.plan(ctx, d, []string{"没有"}, false); plan != planGIN {
		t.Errorf("an unlisted token: plan %d, want GIN", plan)
	}
}
