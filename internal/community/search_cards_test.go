package community

import (
	"context"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// TestSearchCardLoaders: the loaders give the public cards only: published
// posts (not the author's own pending, rejected, removed or deleted ones),
// shown topics, registered users; unknown ids are absent, not errors.
func TestSearchCardLoaders(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTest(t, d)
		author := user(t, d, "author", true)
		fan := user(t, d, "fan", true)
		guest := user(t, d, "游客ABC", false)
		if _, err := s.Follow(ctx, fan, author, true); err != nil {
			t.Fatal(err)
		}
		var shown, hidden int64
		if err := d.QueryRow(ctx, `INSERT INTO topics (name, status, created_at) VALUES ('显示', 1, 1) RETURNING id`).Scan(&shown); err != nil {
			t.Fatal(err)
		}
		if err := d.QueryRow(ctx, `INSERT INTO topics (name, status, created_at) VALUES ('隐藏', 0, 1) RETURNING id`).Scan(&hidden); err != nil {
			t.Fatal(err)
		}
		posts := map[string]int64{}
		for _, st := range []string{StatePublished, StatePending, StateRejected, StateRemoved, StateDeleted} {
			var id int64
			if err := d.QueryRow(ctx, `INSERT INTO posts (author_id, kind, topic_id, body, state, created_at, published_at, updated_at)
				VALUES (?, 'picture', ?, ?, ?, 1, 1, 1) RETURNING id`, author, hidden, "帖子 "+st, st).Scan(&id); err != nil {
				t.Fatal(err)
			}
			posts[st] = id
		}
		all := []int64{424242}
		for _, id := range posts {
			all = append(all, id)
		}
		for _, viewer := range []int64{0, author} {
			got, err := s.PostsByIDs(ctx, viewer, all)
			if err != nil {
				t.Fatal(err)
			}
			p, ok := got[posts[StatePublished]]
			if len(got) != 1 || !ok || p.Summary != "帖子 published" || p.Author.UID != author || p.Topic != nil || p.State != "" && viewer == 0 {
				t.Fatalf("viewer %d: %+v", viewer, got)
			}
		}
		ts, err := s.TopicsByIDs(ctx, fan, []int64{shown, hidden, 424242})
		if err != nil {
			t.Fatal(err)
		}
		if len(ts) != 1 || ts[shown].Name != "显示" {
			t.Fatalf("topics %+v", ts)
		}
		people, err := s.PeopleByIDs(ctx, fan, []int64{author, guest, fan, 424242, author})
		if err != nil {
			t.Fatal(err)
		}
		if len(people) != 2 || !people[author].IsFollow || people[fan].IsFollow || people[author].Name != "author" {
			t.Fatalf("people %+v", people)
		}
		if anon, err := s.PeopleByIDs(ctx, 0, []int64{author}); err != nil || anon[author].IsFollow {
			t.Fatalf("anonymous %+v %v", anon, err)
		}
		for _, empty := range [][]int64{nil, {}} {
			if m, err := s.PostsByIDs(ctx, 0, empty); err != nil || len(m) != 0 {
				t.Fatal(m, err)
			}
		}
	})
}
