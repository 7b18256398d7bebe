package search

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func TestHotWordsAndPins(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
		rec := func(s string, at time.Time, n int) {
			for i := 0; i < n; i++ {
				if err := RecordQuery(ctx, d, s, at); err != nil {
					t.Fatal(err)
				}
			}
		}
		rec("北京", now, 3)
		rec("ＢＥＩＪＩＮＧ", now, 2) // normalised: beijing
		rec("beijing", now.Add(-24*time.Hour), 2)
		rec("猫", now.Add(-6*24*time.Hour), 5)   // inside the 7 days
		rec("狗", now.Add(-7*24*time.Hour), 9)   // just outside
		rec("!!!", now, 9)                      // junk: skipped
		rec(strings.Repeat("长", 31), now, 9)    // too long: skipped
		rec("  \x00  ", now, 9)                 // empty: skipped
		rec("a'; DROP TABLE users; --", now, 1) // data like any other
		hot, err := Hot(ctx, d, now, 10)
		if err != nil {
			t.Fatal(err)
		}
		want := []HotWord{{Word: "猫", Count: 5}, {Word: "beijing", Count: 4}, {Word: "北京", Count: 3}, {Word: "a'; drop table users; --", Count: 1}}
		if !reflect.DeepEqual(hot, want) {
			t.Fatalf("hot = %+v", hot)
		}
		// Pins come first, in order, and are not repeated below.
		err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			return SetPins(ctx, tx, []string{"北京", "新年", "北京"})
		})
		if err != nil {
			t.Fatal(err)
		}
		hot, _ = Hot(ctx, d, now, 3)
		want = []HotWord{{Word: "北京", Pinned: true}, {Word: "新年", Pinned: true}, {Word: "猫", Count: 5}}
		if !reflect.DeepEqual(hot, want) {
			t.Fatalf("hot with pins = %+v", hot)
		}
		for _, bad := range [][]string{{""}, {"  "}, {"!!!"}, {strings.Repeat("长", 31)},
			{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"}} {
			err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error { return SetPins(ctx, tx, bad) })
			if !errors.Is(err, ErrBadPin) {
				t.Errorf("pins %q: %v", bad, err)
			}
		}
		if pins, _ := Pins(ctx, d); !reflect.DeepEqual(pins, []string{"北京", "新年"}) {
			t.Errorf("a refused SetPins changed the pins: %q", pins)
		}
		// Suggestions: hot words by prefix, then titles starting with it, then containing it.
		suggestNow = func() time.Time { return now }
		defer func() { suggestNow = time.Now }()
		f, home, sub, _, _ := setup(t, d)
		f.video("北海公园", home, sub, 100, 0)
		f.video("游北京", home, sub, 200, 0)
		f.video("iPhone 教程", home, sub, 300, 0)
		if err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error { return SetPins(ctx, tx, nil) }); err != nil {
			t.Fatal(err)
		}
		rec("北京烤鸭", now, 1)
		got, err := Suggest(ctx, d, "北", 8)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"北京", "北京烤鸭", "北海公园", "游北京"}; !reflect.DeepEqual(got, want) {
			t.Errorf("suggest 北 = %q, want %q", got, want)
		}
		if got, _ := Suggest(ctx, d, "IPH", 8); !reflect.DeepEqual(got, []string{"iPhone 教程"}) {
			t.Errorf("suggest IPH = %q", got)
		}
		if got, _ := Suggest(ctx, d, "北", 1); len(got) != 1 {
			t.Errorf("limit: %q", got)
		}
		if _, err := Suggest(ctx, d, " ", 8); !errors.Is(err, ErrEmptyQuery) {
			t.Errorf("empty suggest: %v", err)
		}
	})
}

func dump(t *testing.T, d *db.DB) []string {
	t.Helper()
	rows, err := Dump(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// probeHits is every hit of each probe query, to compare the answers too.
func probeHits(t *testing.T, d *db.DB, probes []string) map[string][]string {
	out := map[string][]string{}
	for _, p := range probes {
		hits, _ := search(t, d, Query{Text: p, VipLevel: -1, Limit: 100, Sort: SortPlays})
		var keys []string
		for _, h := range hits {
			keys = append(keys, fmt.Sprintf("%s/%d", h.Kind, h.ID))
		}
		sort.Strings(keys)
		out[p] = keys
	}
	return out
}

func TestDriftTouchEqualsReindex(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f, home, sub, short, ssub := setup(t, d)
		r := rand.New(rand.NewPCG(7, 9))
		words := []string{"北京", "猫", "教程", "上海", "iPhone", "旅行", "美食", "日常"}
		title := func() string {
			return words[r.IntN(len(words))] + words[r.IntN(len(words))] + fmt.Sprint(r.IntN(3))
		}
		var videos, posts []int64
		for step := 0; step < 300; step++ {
			switch op := r.IntN(8); {
			case op == 0 || len(videos) == 0:
				m, s := home, sub
				if r.IntN(3) == 0 {
					m, s = short, ssub
				}
				videos = append(videos, f.video(title(), m, s, int64(step), int64(r.IntN(100))))
			case op == 1 || len(posts) == 0:
				posts = append(posts, f.post(title(), "正文"+title(), []string{"pending", "published"}[r.IntN(2)], int64(step)))
			case op == 2:
				v := videos[r.IntN(len(videos))]
				f.exec(`UPDATE videos SET published = ?, title = ? WHERE id = ?`, r.IntN(2), title(), v)
				f.touch(KindVideo, v)
			case op == 3:
				v := videos[r.IntN(len(videos))]
				m, s := home, sub
				if r.IntN(2) == 0 {
					m, s = short, ssub
				}
				f.exec(`UPDATE videos SET module_id = ?, sub_module_id = ?, play_count = ? WHERE id = ?`, m, s, r.IntN(1000), v)
				f.touch([]string{KindVideo, KindShort}[r.IntN(2)], v)
			case op == 4:
				v := videos[r.IntN(len(videos))]
				f.exec(`DELETE FROM videos WHERE id = ?`, v)
				f.touch(KindVideo, v)
			case op == 5:
				p := posts[r.IntN(len(posts))]
				f.exec(`UPDATE posts SET state = ? WHERE id = ?`, []string{"published", "removed", "deleted", "rejected"}[r.IntN(4)], p)
				f.touch(KindPost, p)
			case op == 6:
				p := posts[r.IntN(len(posts))]
				f.exec(`UPDATE posts SET title = ?, body = ? WHERE id = ?`, title(), "<p>"+title()+"</p>", p)
				f.touch(KindPost, p)
			default:
				p := posts[r.IntN(len(posts))]
				f.exec(`DELETE FROM posts WHERE id = ?`, p)
				f.touch(KindPost, p)
			}
		}
		probes := append([]string{"北", "京", "猫", "iphone", "0", "1", "正文", "日常"}, words...)
		before, beforeHits := dump(t, d), probeHits(t, d, probes)
		if len(before) < 20 {
			t.Fatalf("only %d docs: the walk did little", len(before))
		}
		// A fresh index built from the same rows.
		if d.Engine == db.SQLite {
			f.exec(`INSERT INTO search_fts (search_fts) VALUES ('delete-all')`)
		} else {
			f.exec(`DELETE FROM search_fts`)
		}
		if _, err := Reindex(context.Background(), d); err != nil {
			t.Fatal(err)
		}
		after, afterHits := dump(t, d), probeHits(t, d, probes)
		if !reflect.DeepEqual(before, after) {
			t.Errorf("docs drifted: %d touched vs %d rebuilt", len(before), len(after))
		}
		if !reflect.DeepEqual(beforeHits, afterHits) {
			t.Errorf("hits drifted:\n%v\n%v", beforeHits, afterHits)
		}
		// Reindex over a live index changes nothing, and removes orphans.
		orphan := `INSERT INTO search_fts (id, tsv) VALUES (?, '孤 儿 孤儿')`
		if d.Engine == db.SQLite {
			orphan = `INSERT INTO search_fts (rowid, tokens) VALUES (?, '孤 儿 孤儿')`
		}
		f.exec(orphan, docID(KindPost, 999999))
		if _, err := Reindex(context.Background(), d); err != nil {
			t.Fatal(err)
		}
		if again := dump(t, d); !reflect.DeepEqual(again, after) {
			t.Errorf("second reindex changed the docs")
		}
	})
}

func TestParallelTouchesOnPostgres(t *testing.T) {
	d := dbtest.Open(t, db.Postgres)
	f, home, sub, _, _ := setup(t, d)
	v := f.video("并发测试", home, sub, 100, 0)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			errs <- d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
				if i%2 == 0 { // half without a row lock: Touch's own lock serialises them
					if _, err := tx.Exec(ctx, `UPDATE videos SET play_count = ? WHERE id = ?`, i, v); err != nil {
						return err
					}
				}
				return Touch(ctx, tx, KindVideo, v)
			})
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM search_fts`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("%d docs after parallel touches", n)
	}
	if _, total := search(t, d, q("并发")); total != 1 {
		t.Fatal("not found")
	}
}

// Paging through every match in relevance order crosses RankWindow without
// losing or repeating a hit; the total is capped at Window.
func TestPagingAcrossTheRankWindow(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		n := RankWindow + 120
		f, home, sub, _, _ := setup(t, d)
		for i := 0; i < n; i++ {
			title := fmt.Sprintf("小猫 %d 号", i)
			if i == n-1 {
				title = "猫" // the newest: exact title, first
			}
			f.video(title, home, sub, int64(i), int64(i%7))
		}
		for _, sortBy := range []string{SortRelevance, SortPlays, SortNew} {
			seen := map[int64]bool{}
			for off := 0; off < n+40; off += 45 {
				hits, total, err := Search(ctx, d, Query{Text: "猫", VipLevel: -1, Sort: sortBy, Offset: off, Limit: 45})
				if err != nil {
					t.Fatal(err)
				}
				if total != n {
					t.Fatalf("%s total %d, want %d", sortBy, total, n)
				}
				if off == 0 && sortBy == SortRelevance && hits[0].Title != "猫" {
					t.Errorf("exact title not first: %q", hits[0].Title)
				}
				for _, h := range hits {
					if seen[h.ID] {
						t.Fatalf("%s: %d repeated at offset %d", sortBy, h.ID, off)
					}
					seen[h.ID] = true
				}
			}
			if len(seen) != n {
				t.Errorf("%s: %d of %d hits seen", sortBy, len(seen), n)
			}
		}
	})
}
