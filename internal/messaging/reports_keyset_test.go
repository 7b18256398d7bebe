package messaging

import (
	"context"
	"slices"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
)

// The operators' message reports page by keyset: a walk by cursor gives
// every report of the filter once, newest first.
func TestReportsKeyset(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		want := map[string][]int64{}
		for i := 0; i < 13; i++ {
			reported := []int64{alice, bob}[i%2]
			state := []string{ReportOpen, ReportResolved, ReportOpen}[i%3]
			var id int64
			if err := d.QueryRow(ctx, `INSERT INTO message_reports (reporter_id, reported_id, reason, created_at, state) VALUES (?, ?, 'spam', 100, ?) RETURNING id`,
				carol, reported, state).Scan(&id); err != nil {
				t.Fatal(err)
			}
			want["all"] = append([]int64{id}, want["all"]...)
			want[state] = append([]int64{id}, want[state]...)
			if reported == alice {
				want["alice"] = append([]int64{id}, want["alice"]...)
				if state == ReportOpen {
					want["alice open"] = append([]int64{id}, want["alice open"]...)
				}
			}
		}
		walk := func(reported int64, state string, size int) []int64 {
			var got []int64
			var after int64
			for range 50 {
				p, err := f.s.Reports(ctx, reported, state, after, size)
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range p.List {
					got = append(got, r.ID)
				}
				if p.NextCursor == nil {
					return got
				}
				keys, ok := httpx.ParseCursor(*p.NextCursor, 1)
				if !ok {
					t.Fatalf("cursor %q", *p.NextCursor)
				}
				after = keys[0]
			}
			t.Fatal("the walk does not end")
			return nil
		}
		for name, q := range map[string]struct {
			uid   int64
			state string
		}{"all": {0, ""}, ReportOpen: {0, ReportOpen}, ReportResolved: {0, ReportResolved}, "alice": {alice, ""}, "alice open": {alice, ReportOpen}} {
			if got := walk(q.uid, q.state, 2); !slices.Equal(got, want[name]) {
				t.Errorf("%s: %v, want %v", name, got, want[name])
			}
		}
	})
}
