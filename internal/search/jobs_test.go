package search

import (
	"context"
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

// TestPostgresPlansAgree: the id walk and the GIN path (query.go, pgPlan)
// find the same window, whichever the statistics pick.
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
	defer pgStats.forget()
	window := func(walk bool, text, kind string) []int64 {
		pgStats.mu.Lock()
		pgStats.read = time.Now()
		pgStats.rows, pgStats.minFreq, pgStats.freq = 0, 1, nil // GIN
		if walk {
			pgStats.rows = 1e12 // any frequency makes the walk win
		}
		pgStats.mu.Unlock()
		toks := queryTokens(text)
		w := newWindow(ctx, d, toks, false, Query{Kind: kind, VipLevel: -1})
		ids, err := db.All(ctx, d, scanID, w.sql, w.args(Window, 0)...)
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}
	for _, text := range []string{"的", "猫", "北京", "日常", "iphone 教程", "没有的词"} {
		for _, kind := range []string{"", KindVideo, KindShort} {
			walk, gin := window(true, text, kind), window(false, text, kind)
			if len(walk) != len(gin) {
				t.Fatalf("%q %q: walk %d ids, GIN %d", text, kind, len(walk), len(gin))
			}
			for i := range walk {
				if walk[i] != gin[i] {
					t.Fatalf("%q %q: differ at %d", text, kind, i)
				}
			}
			if text != "没有的词" && len(walk) == 0 {
				t.Errorf("%q %q: nothing found", text, kind)
			}
		}
	}
	// The statistics are read: 的 is common, a made-up token is not.
	pgStats.forget()
	pgStats.walk(ctx, d, []string{"的"}, false)
	if pgStats.freq["的"] == 0 || pgStats.rows < 300 {
		t.Errorf("statistics not read: rows %v, 的 %v", pgStats.rows, pgStats.freq["的"])
	}
}
