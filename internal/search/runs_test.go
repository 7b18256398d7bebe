package search

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// smallRuns makes runs tiny for a test: a token in min docs has runs of
// length ids, read read at a time, and queries take at most fresh written
// docs out of them.
func smallRuns(t *testing.T, min, length, fresh, read int) {
	old := []int{runMin, runLen, freshMax, runsRead}
	runMin, runLen, freshMax, runsRead = min, length, fresh, read
	t.Cleanup(func() { runMin, runLen, freshMax, runsRead = old[0], old[1], old[2], old[3] })
}

func windowIDs(t *testing.T, d *db.DB, w window) []int64 {
	t.Helper()
	ids, err := db.All(context.Background(), d, scanID, w.sql, w.args(Window, 0)...)
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// TestRunsAgreeWithTheIndex: the window read from a token's runs is the
// one GIN finds, right after Reindex built them and after creates, edits,
// unpublishes, deletes and module moves written since (which the runs do
// not hold: search_fresh takes them out and the live index answers for
// them); with too many written since, queries plan the window again and a
// search.runs job is asked for; Runs brings the runs up to date.
func TestRunsAgreeWithTheIndex(t *testing.T) {
	d := dbtest.Open(t, db.Postgres)
	ctx := context.Background()
	smallRuns(t, 3, 7, 40, 0)
	f, home, sub, short, ssub := setup(t, d)
	words := []string{"的猫", "北京的", "猫咪日常", "iPhone 的教程", "今天", "北京大学"}
	var vids []int64
	for i := range 200 {
		m, s := home, sub
		if i%4 == 0 {
			m, s = short, ssub
		}
		vids = append(vids, f.video(words[i%len(words)]+words[(i/7)%len(words)], m, s, int64(i), int64(i%13)))
	}
	for i := range 30 {
		f.post(words[i%len(words)], "正文的", "published", int64(i))
	}
	if _, err := Reindex(ctx, d); err != nil {
		t.Fatal(err)
	}
	count := func(table string) int {
		var n int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if count("search_runs") == 0 || count("search_fresh") != 0 {
		t.Fatalf("after Reindex: %d runs, %d fresh; want some and none", count("search_runs"), count("search_fresh"))
	}
	// planned: the kinds whose range has too many docs written since.
	check := func(stage string, planned ...string) {
		t.Helper()
		for _, read := range []int{0, 2} { // 2: several reads of runs
			runsRead = read
			for _, text := range []string{"的", "猫", "北京", "日常", "教程", "iphone", "今天", "没有"} {
				toks := queryTokens(text)
				tsq := tsQuery(toks, false, nil)
				for _, kind := range []string{"", KindVideo, KindShort, KindPost} {
					lo, hi := idRange(kind)
					want := windowIDs(t, d, pgWindow(ctx, d, tsq, lo, hi, planGIN, 0))
					w, ok, err := runsWindow(ctx, d, toks[0], tsq, lo, hi)
					if err != nil {
						t.Fatal(err)
					}
					if text == "没有" || slices.Contains(planned, kind) {
						if ok {
							t.Errorf("%s: %q %q answered from runs", stage, text, kind)
						}
						continue
					}
					if !ok {
						t.Fatalf("%s: %q %q: no runs", stage, text, kind)
					}
					if got := windowIDs(t, d, w); !slices.Equal(got, want) {
						t.Fatalf("%s: %q %q (read %d): runs give %v, the index %v", stage, text, kind, read, got, want)
					}
				}
			}
		}
		runsRead = 0
	}
	check("built")

	// Written since: each kind of change, old and new docs.
	f.video("新的猫", home, sub, 1000, 1)
	f.video("北京的今天", short, ssub, 1001, 1)
	for _, c := range []struct {
		sql string
		id  int64
	}{
		{`UPDATE videos SET title = '改了名字' WHERE id = ?`, vids[190]},
		{`UPDATE videos SET title = '改了名字' WHERE id = ?`, vids[3]},
		{`UPDATE videos SET title = '北京的猫' WHERE id = ?`, vids[10]},
		{`UPDATE videos SET published = 0 WHERE id = ?`, vids[195]},
		{`DELETE FROM videos WHERE id = ?`, vids[185]},
		{`UPDATE videos SET module_id = ` + fmt.Sprint(short) + `, sub_module_id = ` + fmt.Sprint(ssub) + ` WHERE id = ?`, vids[181]},
	} {
		f.exec(c.sql, c.id)
		f.touch(KindVideo, c.id)
	}
	f.post("今天的猫", "", "published", 1002)
	if n := count("search_fresh"); n < 9 {
		t.Fatalf("%d docs marked written since the runs; want every one touched", n)
	}
	check("written since")
	// Search itself, as a user sees it: the edits are there at once.
	hits, _ := search(t, d, Query{Text: "猫", VipLevel: -1, Sort: SortNew, Limit: 5})
	if len(hits) == 0 || hits[0].Title != "新的猫" {
		t.Errorf("newest 猫 after the writes: %v", titles(hits))
	}
	if posts, _ := search(t, d, Query{Text: "猫", Kind: KindPost, VipLevel: -1, Sort: SortNew, Limit: 5}); len(posts) == 0 || posts[0].Title != "今天的猫" {
		t.Errorf("newest 猫 post after the writes: %v", titles(posts))
	}
	if renamed, _ := search(t, d, Query{Text: "改了", VipLevel: -1, Limit: 5}); len(renamed) != 2 {
		t.Errorf("renamed videos: %v", titles(renamed))
	}
	for _, h := range hits {
		if h.ID == vids[195] || h.ID == vids[185] {
			t.Errorf("unpublished or deleted video %d found", h.ID)
		}
	}

	// More than half of FreshMax written since in a range: the runs still
	// answer, and a rebuild is asked for; more than FreshMax: the planned
	// window.
	runsJobs := `jobs WHERE kind = '` + RunsKind + `'`
	if n := count(runsJobs); n != 0 {
		t.Fatalf("%d search.runs jobs with few docs written since", n)
	}
	lo, hi := idRange(KindVideo)
	videos := count(fmt.Sprintf(`search_fresh WHERE id BETWEEN %d AND %d`, lo, hi))
	freshMax = videos // every kind's range has fewer but the whole range
	staleAsk.Lock()
	staleAsk.last = time.Time{}
	staleAsk.Unlock()
	check("half of the most written since", "")
	if n := count(runsJobs); n != 1 {
		t.Errorf("%d search.runs jobs enqueued, want 1", n)
	}
	freshMax = videos - 1
	check("too many written since", "", KindVideo)
	if err := Runs(ctx, d); err != nil {
		t.Fatal(err)
	}
	if n := count("search_fresh"); n != 0 {
		t.Errorf("%d fresh after Runs", n)
	}
	check("rebuilt")
}

// TestPagesAgree: on PostgreSQL Search reads the window once (pageOnce);
// the pages are those read part by part (pageEach, SQLite's way), across
// the ranked window's edge, for every sort.
func TestPagesAgree(t *testing.T) {
	d := dbtest.Open(t, db.Postgres)
	ctx := context.Background()
	f, home, sub, _, _ := setup(t, d)
	n := RankWindow + 60
	for i := range n {
		title := fmt.Sprintf("小猫 %d 号", i)
		switch i % 9 {
		case 0:
			title = "猫"
		case 1:
			title = "猫的一天 " + fmt.Sprint(i)
		}
		f.video(title, home, sub, int64(i), int64(i%11))
	}
	for _, sortBy := range []string{SortRelevance, SortPlays, SortNew} {
		for _, off := range []int{0, 20, 480, 490, 500, 510, n - 5, n + 10} {
			for _, limit := range []int{20, 45} {
				in := Query{Text: "猫", VipLevel: -1, Sort: sortBy, Offset: off, Limit: limit}
				w := newWindow(ctx, d, queryTokens(in.Text), false, in)
				var order string
				var args []any
				if sortBy != SortNew {
					order, args = rankOrder(d, sortBy, in.Text)
				}
				t1, once, err := pageOnce(ctx, d, w, in, order, args)
				if err != nil {
					t.Fatal(err)
				}
				t2, each, err := pageEach(ctx, d, w, in, order, args)
				if err != nil {
					t.Fatal(err)
				}
				if t1 != n || t2 != n || !slices.Equal(once, each) {
					t.Fatalf("%s offset %d limit %d: once %d %v, each %d %v", sortBy, off, limit, t1, once, t2, each)
				}
				if off < n && len(once) == 0 {
					t.Fatalf("%s offset %d: empty page", sortBy, off)
				}
			}
		}
	}
}

// TestUpgradeBuildsTheRuns: migration 0091 on a PostgreSQL database with
// docs enqueues one search.runs job (none on a new database or SQLite).
func TestUpgradeBuildsTheRuns(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		runsJobs := func() int {
			var n int
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM jobs WHERE kind = ?`, RunsKind).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		if err := EnqueueRebuild(ctx, d, []string{runsMigration}); err != nil || runsJobs() != 0 {
			t.Fatalf("an empty index got a runs job (%v)", err)
		}
		f, home, sub, _, _ := setup(t, d)
		f.video("升级", home, sub, 1, 0)
		for range 2 {
			if err := EnqueueRebuild(ctx, d, []string{"0090_jobs_kind", runsMigration}); err != nil {
				t.Fatal(err)
			}
		}
		want := 1
		if d.Engine == db.SQLite {
			want = 0
		}
		if n := runsJobs(); n != want {
			t.Fatalf("%d runs jobs, want %d", n, want)
		}
	})
}

// TestRunsKeepAWriteMadeDuringTheBuild: a doc written again after a runs
// build took its snapshot (and before it emptied search_fresh) is not
// lost: the build fails with a serialization error and runs again, and
// the runs then agree with the index.
func TestRunsKeepAWriteMadeDuringTheBuild(t *testing.T) {
	d := dbtest.Open(t, db.Postgres)
	ctx := context.Background()
	smallRuns(t, 3, 7, 40, 0)
	f, home, sub, _, _ := setup(t, d)
	var vids []int64
	for i := range 60 {
		vids = append(vids, f.video(fmt.Sprintf("猫的第%d天", i), home, sub, int64(i), 0))
	}
	if _, err := Reindex(ctx, d); err != nil {
		t.Fatal(err)
	}
	old := vids[50]
	f.exec(`UPDATE videos SET title = '北京' WHERE id = ?`, old)
	f.touch(KindVideo, old) // a fresh row the next build's snapshot sees
	built := make(chan error, 1)
	// Hold the build's lock, so it waits after taking its snapshot.
	err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(7250091)`); err != nil {
			return err
		}
		go func() { built <- Runs(context.Background(), d) }()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			var waiting bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted)`).Scan(&waiting); err != nil {
				return err
			}
			if waiting {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("the build never waited for the lock")
			}
		}
		// Written again meanwhile, outside this transaction: 猫 again.
		return d.Tx(context.Background(), func(ctx context.Context, w *db.Tx) error {
			if _, err := w.Exec(ctx, `UPDATE videos SET title = '猫又回来了' WHERE id = ?`, old); err != nil {
				return err
			}
			return Touch(ctx, w, KindVideo, old)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := <-built; err != nil {
		t.Fatal(err)
	}
	toks := queryTokens("猫")
	tsq := tsQuery(toks, false, nil)
	lo, hi := idRange(KindVideo)
	want := windowIDs(t, d, pgWindow(ctx, d, tsq, lo, hi, planGIN, 0))
	w, ok, err := runsWindow(ctx, d, toks[0], tsq, lo, hi)
	if err != nil || !ok {
		t.Fatalf("runs window: %v %v", ok, err)
	}
	if got := windowIDs(t, d, w); !slices.Equal(got, want) || !slices.Contains(got, docID(KindVideo, old)) {
		t.Fatalf("after a write during the build: runs give %v, the index %v", got, want)
	}
}
