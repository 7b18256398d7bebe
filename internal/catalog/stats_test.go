package catalog

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// Every play counts towards its Beijing day (video_plays_daily, in the
// play's transaction), concurrent plays included; a refused play (a
// draft, no video) counts nowhere. The day's figures are the total and the
// most played with titles, most first.
func TestPlayFigures(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		s := newTestService(d, Options{})
		at := time.Date(2026, 3, 1, 15, 59, 0, 0, time.UTC) // 23:59 in Shanghai
		var mu sync.Mutex
		s.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return at }
		v := f.recVideos
		var wg sync.WaitGroup
		for range 12 {
			wg.Go(func() {
				if _, err := s.Play(ctx, 0, v[0]); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		for _, id := range []int64{v[1], v[1], v[2]} {
			if _, err := s.Play(ctx, 0, id); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Play(ctx, 0, 1<<40); err == nil {
			t.Fatal("a play of no video counted")
		}
		mu.Lock()
		at = at.Add(time.Minute) // 00:00 the next day
		mu.Unlock()
		if _, err := s.Play(ctx, 0, v[2]); err != nil {
			t.Fatal(err)
		}
		total, top, err := s.PlayFigures(ctx, "2026-03-01", 2)
		if err != nil {
			t.Fatal(err)
		}
		title := func(id int64) string {
			var s string
			if err := d.QueryRow(ctx, "SELECT title FROM videos WHERE id = ?", id).Scan(&s); err != nil {
				t.Fatal(err)
			}
			return s
		}
		if total != 15 || len(top) != 2 || top[0].Key != strconv.FormatInt(v[0], 10) || top[0].Count != 12 || top[0].Title != title(v[0]) ||
			top[1].Key != strconv.FormatInt(v[1], 10) || top[1].Count != 2 {
			t.Fatalf("2026-03-01: %d %+v", total, top)
		}
		if total, top, err = s.PlayFigures(ctx, days.Of(at), 10); err != nil || total != 1 || len(top) != 1 {
			t.Fatalf("2026-03-02: %d %+v %v", total, top, err)
		}
	})
}
