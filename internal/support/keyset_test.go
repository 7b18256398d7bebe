package support

import (
	"context"
	"slices"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
)

// walk follows nextCursor from the first page to the last.
func walk[T any](t *testing.T, page func(after int64) (httpx.KeyPage[T], error), id func(T) int64) []int64 {
	t.Helper()
	var got []int64
	var after int64
	for range 50 {
		p, err := page(after)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range p.List {
			got = append(got, id(x))
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

// The operators' feedback and application lists page by keyset: a walk by
// cursor gives every row of the filter once, in the list's order.
func TestAdminListsKeyset(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		fb := map[string][]int64{}
		for i := 0; i < 11; i++ {
			uid := []int64{f.alice, f.bob}[i%2]
			status := []string{FeedbackOpen, FeedbackAnswer, FeedbackOpen}[i%3]
			var id int64
			if err := d.QueryRow(ctx, `INSERT INTO feedback (user_id, content, status, created_at) VALUES (?, '意见', ?, 100) RETURNING id`, uid, status).Scan(&id); err != nil {
				t.Fatal(err)
			}
			fb[""] = append([]int64{id}, fb[""]...)
			fb[status] = append([]int64{id}, fb[status]...)
			if uid == f.alice && status == FeedbackOpen {
				fb["alice open"] = append([]int64{id}, fb["alice open"]...)
			}
		}
		fbID := func(x Feedback) int64 { return x.ID }
		for _, c := range []struct {
			name   string
			uid    int64
			status string
		}{{"", 0, ""}, {FeedbackOpen, 0, FeedbackOpen}, {FeedbackAnswer, 0, FeedbackAnswer}, {"alice open", f.alice, FeedbackOpen}} {
			got := walk(t, func(after int64) (httpx.KeyPage[Feedback], error) {
				return f.s.AdminFeedback(ctx, c.uid, c.status, after, 2)
			}, fbID)
			if !slices.Equal(got, fb[c.name]) {
				t.Errorf("feedback %q: %v, want %v", c.name, got, fb[c.name])
			}
		}

		apps := map[string][]int64{}
		for i := 0; i < 10; i++ {
			status := []string{StatePending, StateApproved, StateRejected}[i%3]
			var id int64
			if err := d.QueryRow(ctx, `INSERT INTO creator_applications (user_id, name, contact, intro, category, status, created_at) VALUES (?, 'n', 'c', 'i', 'x', ?, 100) RETURNING id`,
				int64(5000+i), status).Scan(&id); err != nil {
				t.Fatal(err)
			}
			apps[""] = append([]int64{id}, apps[""]...)
			if status == StatePending {
				apps[status] = append(apps[status], id) // the queue: oldest first
			} else {
				apps[status] = append([]int64{id}, apps[status]...)
			}
		}
		appID := func(a Application) int64 { return a.ID }
		for _, status := range []string{"", StatePending, StateApproved, StateRejected} {
			got := walk(t, func(after int64) (httpx.KeyPage[Application], error) {
				return f.s.AdminApplications(ctx, status, after, 2)
			}, appID)
			if !slices.Equal(got, apps[status]) {
				t.Errorf("applications %q: %v, want %v", status, got, apps[status])
			}
		}
	})
}
