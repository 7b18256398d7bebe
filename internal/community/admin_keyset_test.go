package community

import (
	"context"
	"slices"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
)

// walkPages follows nextCursor from the first page to the last and
// returns every id in the order the pages gave them.
func walkPages[T any](t *testing.T, page func(cursor []int64) (httpx.KeyPage[T], error), n int, id func(T) int64) []int64 {
	t.Helper()
	var ids []int64
	var cur []int64
	for i := 0; ; i++ {
		if i > 100 {
			t.Fatal("the walk does not end")
		}
		p, err := page(cur)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range p.List {
			ids = append(ids, id(x))
		}
		if p.NextCursor == nil {
			if p.HasMore {
				t.Fatal("hasMore without a cursor")
			}
			return ids
		}
		var ok bool
		if cur, ok = httpx.ParseCursor(*p.NextCursor, n); !ok || len(p.List) != p.PageSize {
			t.Fatalf("cursor %q after a page of %d", *p.NextCursor, len(p.List))
		}
	}
}

// The operators' lists page by keyset: a walk by cursor gives every row of
// the filter once, in the list's order, ties of created_at broken by id.
func TestAdminListsKeyset(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTest(t, d)
		a, b := user(t, d, "author", true), user(t, d, "other", true)
		type post struct{ id, created int64 }
		var pending, all, mine []post
		states := []string{StatePending, StatePublished, StatePending, StateRejected, StatePending}
		for i := 0; i < 17; i++ {
			who := []int64{a, b}[i%2]
			st := states[i%len(states)]
			id := insertPostRow(t, d, who, KindPicture, st, "", "正文", 0, 0)
			// Three created_at values out of id order, with many ties.
			created := int64(300 - (i%3)*100)
			if _, err := d.Exec(ctx, `UPDATE posts SET created_at = ? WHERE id = ?`, created, id); err != nil {
				t.Fatal(err)
			}
			p := post{id, created}
			all = append(all, p)
			if st == StatePending {
				pending = append(pending, p)
			}
			if who == a {
				mine = append(mine, p)
			}
		}
		asc := func(x, y post) int {
			if x.created != y.created {
				return int(x.created - y.created)
			}
			return int(x.id - y.id)
		}
		ids := func(ps []post, desc bool) []int64 {
			ps = slices.Clone(ps)
			slices.SortFunc(ps, asc)
			if desc {
				slices.Reverse(ps)
			}
			var out []int64
			for _, p := range ps {
				out = append(out, p.id)
			}
			return out
		}
		postID := func(p AdminPost) int64 { return p.ID }
		walk := func(q AdminPostQuery) []int64 {
			return walkPages(t, func(cur []int64) (httpx.KeyPage[AdminPost], error) {
				q.After = cur
				return s.AdminPosts(ctx, a, q)
			}, 2, postID)
		}
		if got, want := walk(AdminPostQuery{State: StatePending, PageSize: 2}), ids(pending, false); !slices.Equal(got, want) {
			t.Errorf("pending queue %v, want %v (oldest first)", got, want)
		}
		if got, want := walk(AdminPostQuery{PageSize: 3}), ids(all, true); !slices.Equal(got, want) {
			t.Errorf("every post %v, want %v (newest first)", got, want)
		}
		if got, want := walk(AdminPostQuery{UID: a, PageSize: 4}), ids(mine, true); !slices.Equal(got, want) {
			t.Errorf("one author's %v, want %v", got, want)
		}
		// The state filter applies on every page.
		for _, id := range walk(AdminPostQuery{State: StatePending, PageSize: 2}) {
			if st, _ := postState(t, d, id); st != StatePending {
				t.Fatalf("post %d is %s in the pending queue", id, st)
			}
		}
		// One page of exactly the rows left has no next cursor.
		if p, _ := s.AdminPosts(ctx, a, AdminPostQuery{State: StatePending, PageSize: len(pending)}); p.NextCursor != nil || p.HasMore {
			t.Fatalf("a full last page says there is more: %+v", p.NextCursor)
		}

		// Comments: newest first by id, of one post or of all.
		var postComments, allComments []int64
		for i := 0; i < 11; i++ {
			pid := all[i%2].id
			var id int64
			if err := d.QueryRow(ctx, `INSERT INTO comments (post_id, parent_id, author_id, body, state, created_at) VALUES (?, ?, ?, '评论', 'published', 100) RETURNING id`,
				pid, int64(i%3), b).Scan(&id); err != nil {
				t.Fatal(err)
			}
			allComments = append(allComments, id)
			if pid == all[0].id {
				postComments = append(postComments, id)
			}
		}
		slices.Reverse(allComments)
		slices.Reverse(postComments)
		commentID := func(c AdminComment) int64 { return c.ID }
		got := walkPages(t, func(cur []int64) (httpx.KeyPage[AdminComment], error) {
			return s.AdminComments(ctx, all[0].id, one(cur), 2)
		}, 1, commentID)
		if !slices.Equal(got, postComments) {
			t.Errorf("one post's comments %v, want %v", got, postComments)
		}
		if got = walkPages(t, func(cur []int64) (httpx.KeyPage[AdminComment], error) { return s.AdminComments(ctx, 0, one(cur), 4) }, 1, commentID); !slices.Equal(got, allComments) {
			t.Errorf("every comment %v, want %v", got, allComments)
		}

		// Reports: open oldest first, resolved newest first.
		var open, resolved []int64
		for i := 0; i < 9; i++ {
			state := []string{"open", "resolved", "open"}[i%3]
			var id int64
			if err := d.QueryRow(ctx, `INSERT INTO post_reports (reporter_id, post_id, reason, state, created_at) VALUES (?, ?, 'spam', ?, 100) RETURNING id`,
				int64(1000+i), all[i].id, state).Scan(&id); err != nil {
				t.Fatal(err)
			}
			if state == "open" {
				open = append(open, id)
			} else {
				resolved = append(resolved, id)
			}
		}
		slices.Reverse(resolved)
		reportID := func(r AdminReport) int64 { return r.ID }
		if got = walkPages(t, func(cur []int64) (httpx.KeyPage[AdminReport], error) { return s.AdminReports(ctx, "open", one(cur), 2) }, 1, reportID); !slices.Equal(got, open) {
			t.Errorf("open reports %v, want %v", got, open)
		}
		if got = walkPages(t, func(cur []int64) (httpx.KeyPage[AdminReport], error) {
			return s.AdminReports(ctx, "resolved", one(cur), 2)
		}, 1, reportID); !slices.Equal(got, resolved) {
			t.Errorf("resolved reports %v, want %v", got, resolved)
		}
	})
}

func one(keys []int64) int64 { return first(keys) }
