package community

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/membership"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func detailNotices(t *testing.T, d *db.DB, uid int64, kind string) int64 {
	t.Helper()
	return scalar(t, d, `SELECT COUNT(*) FROM notices WHERE user_id = ? AND kind = ?`, uid, kind)
}

// The detail: hidden posts are 404 for everyone they are hidden from, a
// view counts once per call except the author's, and the author alone sees
// the state.
func TestPostDetailVisibilityAndViews(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTest(t, d)
		author, other := user(t, d, "author", true), user(t, d, "other", true)
		pub := insertPostRow(t, d, author, KindPicture, StatePublished, "标题", "第一行\n第二行", 0, 0)
		for _, state := range []string{StatePending, StateRejected, StateRemoved, StateDeleted} {
			id := insertPostRow(t, d, author, KindPicture, state, "t", "b", 0, 0)
			for _, viewer := range []int64{0, other} {
				if _, err := s.Detail(ctx, viewer, id); !errors.Is(err, ErrNoPost) {
					t.Errorf("%s post seen by %d: %v", state, viewer, err)
				}
			}
			_, err := s.Detail(ctx, author, id)
			if mine := state == StatePending || state == StateRejected; mine != (err == nil) {
				t.Errorf("%s post seen by its author: %v", state, err)
			}
			if n := scalar(t, d, `SELECT view_count FROM posts WHERE id = ?`, id); n != 0 {
				t.Errorf("%s post counted %d views", state, n)
			}
		}
		if _, err := s.Detail(ctx, other, 987654); !errors.Is(err, ErrNoPost) {
			t.Fatalf("missing post: %v", err)
		}
		p, err := s.Detail(ctx, 0, pub)
		if err != nil || p.Text != "第一行\n第二行" || p.ViewCount != 1 || p.Mine || p.State != "" || !p.Access.Allowed {
			t.Fatalf("anonymous detail %+v %v", p, err)
		}
		if p, _ = s.Detail(ctx, other, pub); p.ViewCount != 2 {
			t.Fatalf("second view: %d", p.ViewCount)
		}
		if p, _ = s.Detail(ctx, author, pub); p.ViewCount != 2 || !p.Mine || p.State != StatePublished || p.Access.Reason != ReasonAuthor {
			t.Fatalf("author's view counted or not mine: %+v", p)
		}
		if _, err := s.Follow(ctx, other, author, true); err != nil {
			t.Fatal(err)
		}
		if p, _ = s.Detail(ctx, other, pub); !p.Following {
			t.Fatal("following false after following the author")
		}
	})
}

// Paid posts: a locked article shows the first 200 characters of its text
// and no html; VIP opens a VIP post, a purchase a gold one; the author
// always sees all.
func TestPostDetailAccess(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, c := newTest(t, d)
		author, other := user(t, d, "author", true), user(t, d, "other", true)
		body := "<p>" + strings.Repeat("字", 300) + "</p>"
		gold := insertPostRow(t, d, author, KindArticle, StatePublished, "金币文", body, 0, 50)
		vip := insertPostRow(t, d, author, KindArticle, StatePublished, "会员文", body, 1, 0)

		p, err := s.Detail(ctx, other, gold)
		if err != nil {
			t.Fatal(err)
		}
		if p.Access.Allowed || p.Access.Reason != membership.ReasonNeedCoins || p.Access.Unlock.Coins != 50 || p.HTML != "" {
			t.Fatalf("locked gold article %+v", p.Access)
		}
		if p.Text != strings.Repeat("字", LockedArticleRunes)+"…" {
			t.Fatalf("locked text %q", p.Text)
		}
		if p, _ = s.Detail(ctx, 0, gold); p.Access.Reason != membership.ReasonLogin || p.HTML != "" {
			t.Fatalf("anonymous gold %+v", p.Access)
		}
		if p, _ = s.Detail(ctx, author, gold); !p.Access.Allowed || p.HTML != body {
			t.Fatalf("author's gold %+v %q", p.Access, p.HTML)
		}
		if _, err := d.Exec(ctx, `INSERT INTO post_purchases (user_id, post_id, price, created_at) VALUES (?, ?, 50, 1)`, other, gold); err != nil {
			t.Fatal(err)
		}
		if p, _ = s.Detail(ctx, other, gold); !p.Access.Allowed || p.Access.Reason != membership.ReasonBought || p.HTML != body || p.Text != "" {
			t.Fatalf("bought gold %+v", p.Access)
		}
		// A purchase of another post opens nothing here.
		if p, _ = s.Detail(ctx, other, vip); p.Access.Allowed || p.Access.Reason != membership.ReasonNeedVIP {
			t.Fatalf("vip post without vip %+v", p.Access)
		}
		if _, err := d.Exec(ctx, `UPDATE users SET vip_expire_at = ? WHERE id = ?`, c.now().Add(time.Hour).Unix(), other); err != nil {
			t.Fatal(err)
		}
		if p, _ = s.Detail(ctx, other, vip); !p.Access.Allowed || p.HTML != body {
			t.Fatalf("vip post with vip %+v", p.Access)
		}
	})
}

// Article pictures: a data-asset placeholder of someone else's upload, or
// of a missing asset, never becomes an img.
func TestArticleHTMLDropsForeignPictures(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTest(t, d)
		got, err := s.articleHTML(context.Background(), 1, `<p>a</p><img data-asset="42"><p>b</p>`)
		if err != nil || got != `<p>a</p><p>b</p>` {
			t.Fatalf("%q %v", got, err)
		}
	})
}

// Likes: idempotent, counted only when a row changes, one notice a day per
// liker and post, refused for guests, hidden, pending and missing posts.
func TestPostLikes(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, c := newTest(t, d)
		author, fan := user(t, d, "author", true), user(t, d, "fan", true)
		guest := user(t, d, "游客XYZ", false)
		id := insertPostRow(t, d, author, KindPicture, StatePublished, "", "你好", 0, 0)
		pending := insertPostRow(t, d, author, KindPicture, StatePending, "", "p", 0, 0)
		deleted := insertPostRow(t, d, author, KindPicture, StateDeleted, "", "d", 0, 0)

		if _, err := s.LikePost(ctx, guest, id, true); !errors.Is(err, ErrGuest) {
			t.Fatalf("guest like: %v", err)
		}
		if _, err := s.LikePost(ctx, fan, pending, true); !errors.Is(err, ErrNoPost) {
			t.Fatalf("someone else's pending post: %v", err)
		}
		if _, err := s.LikePost(ctx, author, pending, true); !errors.Is(err, ErrNotOpen) {
			t.Fatalf("own pending post: %v", err)
		}
		for _, bad := range []int64{deleted, 987654, -1} {
			if _, err := s.LikePost(ctx, fan, bad, true); !errors.Is(err, ErrNoPost) {
				t.Fatalf("post %d: %v", bad, err)
			}
		}
		if n := scalar(t, d, `SELECT COUNT(*) FROM post_likes`); n != 0 {
			t.Fatalf("refused likes left %d rows", n)
		}
		for range 2 {
			res, err := s.LikePost(ctx, fan, id, true)
			if err != nil || res != (PostLikeResult{true, 1}) {
				t.Fatalf("like: %+v %v", res, err)
			}
		}
		for range 2 {
			if res, _ := s.LikePost(ctx, fan, id, false); res != (PostLikeResult{false, 0}) {
				t.Fatalf("unlike: %+v", res)
			}
		}
		if res, _ := s.LikePost(ctx, fan, id, true); res.LikeCount != 1 {
			t.Fatalf("relike: %+v", res)
		}
		if n := detailNotices(t, d, author, "post_like"); n != 1 {
			t.Fatalf("%d like notices within a day, want 1", n)
		}
		var ref string
		if err := d.QueryRow(ctx, `SELECT ref FROM notices WHERE user_id = ? AND kind = 'post_like'`, author).Scan(&ref); err != nil || ref != fmt.Sprint(id) {
			t.Fatalf("ref %q %v", ref, err)
		}
		c.add(25 * time.Hour)
		_, _ = s.LikePost(ctx, fan, id, false)
		_, _ = s.LikePost(ctx, fan, id, true)
		if n := detailNotices(t, d, author, "post_like"); n != 2 {
			t.Fatalf("%d like notices after a day, want 2", n)
		}
		// The author's own like counts but tells nobody.
		if res, _ := s.LikePost(ctx, author, id, true); res.LikeCount != 2 {
			t.Fatalf("author like %+v", res)
		}
		if n := detailNotices(t, d, author, "post_like"); n != 2 {
			t.Fatalf("own like noticed")
		}
		p, _ := s.Detail(ctx, fan, id)
		if !p.Liked || p.LikeCount != 2 {
			t.Fatalf("detail after likes %+v", p.Post)
		}
	})
}

// Parallel likes and unlikes by many users (and the same user twice at
// once) leave like_count equal to the rows.
func TestPostLikesConcurrent(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		if d.Engine != db.Postgres {
			t.Skip("the hammer runs on PostgreSQL")
		}
		ctx := context.Background()
		s, _ := newTest(t, d)
		author := user(t, d, "author", true)
		id := insertPostRow(t, d, author, KindPicture, StatePublished, "", "x", 0, 0)
		var users []int64
		for i := range 12 {
			users = append(users, user(t, d, "u"+string(rune('a'+i)), true))
		}
		var wg sync.WaitGroup
		for round := range 3 {
			for _, u := range users {
				for range 2 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						if _, err := s.LikePost(ctx, u, id, round != 1); err != nil {
							t.Error(err)
						}
					}()
				}
			}
			wg.Wait()
			want := int64(len(users))
			if round == 1 {
				want = 0
			}
			if got := scalar(t, d, `SELECT like_count FROM posts WHERE id = ?`, id); got != want || scalar(t, d, `SELECT COUNT(*) FROM post_likes`) != want {
				t.Fatalf("round %d: like_count %d, want %d", round, got, want)
			}
		}
		if n := detailNotices(t, d, author, "post_like"); n != int64(len(users)) {
			t.Fatalf("%d notices, want one per liker", n)
		}
	})
}

// Comments: two levels, replies only to participants, text rules, mutes,
// guests, unpublished posts, replays by clientID, and the counters.
func TestComments(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, c := newTest(t, d)
		author, a, b, x := user(t, d, "author", true), user(t, d, "ann", true), user(t, d, "ben", true), user(t, d, "xen", true)
		guest := user(t, d, "游客Q", false)
		id := insertPostRow(t, d, author, KindPicture, StatePublished, "", "帖子", 0, 0)
		pending := insertPostRow(t, d, author, KindPicture, StatePending, "", "p", 0, 0)
		other := insertPostRow(t, d, author, KindPicture, StatePublished, "", "o", 0, 0)

		add := func(uid int64, in NewComment) (Comment, error) { return s.AddComment(ctx, uid, in) }
		for _, tc := range []struct {
			uid  int64
			in   NewComment
			want error
		}{
			{a, NewComment{PostID: id, Text: "   "}, ErrCommentText},
			{a, NewComment{PostID: id, Text: strings.Repeat("长", 501)}, ErrCommentText},
			{a, NewComment{PostID: id, Text: "x", ClientID: strings.Repeat("c", 65)}, ErrCommentClient},
			{guest, NewComment{PostID: id, Text: "hi"}, ErrGuest},
			{a, NewComment{PostID: pending, Text: "hi"}, ErrNoPost},
			{author, NewComment{PostID: pending, Text: "hi"}, ErrNotOpen},
			{a, NewComment{PostID: 987654, Text: "hi"}, ErrNoPost},
			{a, NewComment{PostID: id, ParentID: 987654, Text: "hi"}, ErrNoComment},
			{a, NewComment{PostID: id, ReplyToUID: b, Text: "hi"}, ErrNotParticipant},
		} {
			if _, err := add(tc.uid, tc.in); !errors.Is(err, tc.want) {
				t.Errorf("%+v by %d: %v, want %v", tc.in, tc.uid, err, tc.want)
			}
		}
		if n := scalar(t, d, `SELECT COUNT(*) FROM comments`); n != 0 {
			t.Fatalf("refused comments left %d rows", n)
		}
		// 500 characters exactly (after trimming) is fine.
		top, err := add(a, NewComment{PostID: id, Text: "  " + strings.Repeat("长", 500) + "\n", ClientID: "k1"})
		if err != nil || top.Text != strings.Repeat("长", 500) || top.ParentID != 0 || !top.Mine || top.Author.Name != "ann" {
			t.Fatalf("comment %+v %v", top, err)
		}
		again, err := add(a, NewComment{PostID: id, Text: "another", ClientID: "k1"})
		if err != nil || again.ID != top.ID {
			t.Fatalf("replayed clientID made %+v %v", again, err)
		}
		if n := detailNotices(t, d, author, "comment"); n != 1 {
			t.Fatalf("%d comment notices", n)
		}
		// Replies: to the parent's author by default, or to a replier.
		r1, err := add(b, NewComment{PostID: id, ParentID: top.ID, Text: "回复一"})
		if err != nil || r1.ReplyTo == nil || r1.ReplyTo.UID != a {
			t.Fatalf("reply %+v %v", r1, err)
		}
		r2, err := add(a, NewComment{PostID: id, ParentID: top.ID, ReplyToUID: b, Text: "回复 ben"})
		if err != nil || r2.ReplyTo.UID != b {
			t.Fatalf("reply to a replier %+v %v", r2, err)
		}
		if _, err := add(b, NewComment{PostID: id, ParentID: top.ID, ReplyToUID: x, Text: "x"}); !errors.Is(err, ErrNotParticipant) {
			t.Fatalf("reply to an outsider: %v", err)
		}
		if _, err := add(b, NewComment{PostID: id, ParentID: r1.ID, Text: "third level"}); !errors.Is(err, ErrTooDeep) {
			t.Fatalf("third level: %v", err)
		}
		if _, err := add(b, NewComment{PostID: other, ParentID: top.ID, Text: "wrong post"}); !errors.Is(err, ErrNoComment) {
			t.Fatalf("parent of another post: %v", err)
		}
		if detailNotices(t, d, a, "reply") != 1 || detailNotices(t, d, b, "reply") != 1 {
			t.Fatal("reply notices")
		}
		for i := range 3 {
			if _, err := add(x, NewComment{PostID: id, ParentID: top.ID, Text: "more " + string(rune('0'+i))}); err != nil {
				t.Fatal(err)
			}
		}
		second, _ := add(x, NewComment{PostID: id, Text: "第二条"})
		if n := scalar(t, d, `SELECT comment_count FROM posts WHERE id = ?`, id); n != 7 {
			t.Fatalf("comment_count %d, want 7", n)
		}

		page, err := s.Comments(ctx, CommentQuery{Viewer: b, PostID: id, PageNumber: 1, PageSize: 20})
		if err != nil || page.Total != 2 || len(page.List) != 2 || page.List[0].ID != top.ID || page.List[1].ID != second.ID {
			t.Fatalf("first level %+v %v", page, err)
		}
		if l := page.List[0]; l.ReplyCount != 5 || len(l.Replies) != 3 || l.Replies[0].ID != r1.ID || !l.Replies[0].Mine || l.Mine {
			t.Fatalf("replies preview %+v", l)
		}
		replies, err := s.Comments(ctx, CommentQuery{Viewer: b, PostID: id, ParentID: top.ID, PageNumber: 2, PageSize: 2})
		if err != nil || replies.Total != 5 || len(replies.List) != 2 || !replies.HasMore {
			t.Fatalf("replies page 2: %+v %v", replies, err)
		}
		if _, err := s.Comments(ctx, CommentQuery{PostID: id, ParentID: r1.ID, PageNumber: 1, PageSize: 20}); !errors.Is(err, ErrNoComment) {
			t.Fatalf("replies of a reply: %v", err)
		}
		if _, err := s.Comments(ctx, CommentQuery{PostID: pending, PageNumber: 1, PageSize: 20}); !errors.Is(err, ErrNoPost) {
			t.Fatalf("comments of a hidden post: %v", err)
		}

		// Deleting: only the comment's author or the post's author.
		if err := s.DeleteComment(ctx, x, top.ID); !errors.Is(err, ErrNoComment) {
			t.Fatalf("someone else deletes: %v", err)
		}
		if err := s.DeleteComment(ctx, a, top.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.DeleteComment(ctx, a, top.ID); !errors.Is(err, ErrNoComment) {
			t.Fatalf("deleting twice: %v", err)
		}
		if err := s.DeleteComment(ctx, author, r1.ID); err != nil { // the post's author
			t.Fatal(err)
		}
		if err := s.DeleteComment(ctx, x, second.ID); err != nil {
			t.Fatal(err)
		}
		if n := scalar(t, d, `SELECT comment_count FROM posts WHERE id = ?`, id); n != 4 {
			t.Fatalf("comment_count %d after three deletions, want 4", n)
		}
		page, _ = s.Comments(ctx, CommentQuery{Viewer: a, PostID: id, PageNumber: 1, PageSize: 20})
		if page.Total != 1 || len(page.List) != 1 {
			t.Fatalf("after deletions %+v", page)
		}
		ph := page.List[0]
		if ph.ID != top.ID || ph.State != CommentDeleted || ph.Text != "" || ph.Mine || ph.ReplyCount != 4 || len(ph.Replies) != 3 || ph.Replies[0].ID != r2.ID {
			t.Fatalf("placeholder %+v", ph)
		}
		// A deleted parent takes no more replies.
		if _, err := add(b, NewComment{PostID: id, ParentID: top.ID, Text: "late"}); !errors.Is(err, ErrNoComment) {
			t.Fatalf("reply under a deleted comment: %v", err)
		}

		// Muted: refused until the mute ends.
		if _, err := d.Exec(ctx, `INSERT INTO community_mutes (user_id, muted_until, created_at) VALUES (?, ?, 1)`, b, c.now().Add(time.Hour).Unix()); err != nil {
			t.Fatal(err)
		}
		var m *MutedError
		if _, err := add(b, NewComment{PostID: id, Text: "muted"}); !errors.As(err, &m) {
			t.Fatalf("muted comment: %v", err)
		}
		c.add(time.Hour)
		if _, err := add(b, NewComment{PostID: id, Text: "free again"}); err != nil {
			t.Fatal(err)
		}
	})
}

// Parallel comments, replies and deletions keep comment_count and
// reply_count equal to the published rows they count.
func TestCommentsConcurrent(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		if d.Engine != db.Postgres {
			t.Skip("the hammer runs on PostgreSQL")
		}
		ctx := context.Background()
		s, _ := newTest(t, d)
		author := user(t, d, "author", true)
		id := insertPostRow(t, d, author, KindPicture, StatePublished, "", "x", 0, 0)
		top, err := s.AddComment(ctx, author, NewComment{PostID: id, Text: "top"})
		if err != nil {
			t.Fatal(err)
		}
		var users []int64
		for i := range 10 {
			users = append(users, user(t, d, "c"+string(rune('a'+i)), true))
		}
		var (
			wg  sync.WaitGroup
			mu  sync.Mutex
			ids []int64
		)
		for _, u := range users {
			for k := range 3 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					in := NewComment{PostID: id, Text: "r", ClientID: "same"}
					if k > 0 {
						in.ParentID = top.ID
						in.ClientID = ""
					}
					cm, err := s.AddComment(ctx, u, in)
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					ids = append(ids, cm.ID)
					mu.Unlock()
				}()
			}
			// The same clientID twice at once is one comment.
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := s.AddComment(ctx, u, NewComment{PostID: id, Text: "r", ClientID: "same"}); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		// Delete every other one, twice at once.
		for i, cid := range ids {
			if i%2 == 0 {
				continue
			}
			for range 2 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_ = s.DeleteComment(ctx, author, cid)
				}()
			}
		}
		wg.Wait()
		published := scalar(t, d, `SELECT COUNT(*) FROM comments WHERE post_id = ? AND state = 'published'`, id)
		if got := scalar(t, d, `SELECT comment_count FROM posts WHERE id = ?`, id); got != published {
			t.Fatalf("comment_count %d, published rows %d", got, published)
		}
		replies := scalar(t, d, `SELECT COUNT(*) FROM comments WHERE parent_id = ? AND state = 'published'`, top.ID)
		if got := scalar(t, d, `SELECT reply_count FROM comments WHERE id = ?`, top.ID); got != replies {
			t.Fatalf("reply_count %d, published replies %d", got, replies)
		}
		if n := scalar(t, d, `SELECT COUNT(*) FROM comments WHERE client_id = 'same'`); n != int64(len(users)) {
			t.Fatalf("%d comments with the repeated clientID, want one per user", n)
		}
	})
}

// Deleting a post: its author only, any state, once; it is gone afterwards.
func TestDeletePost(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTest(t, d)
		author, other := user(t, d, "author", true), user(t, d, "other", true)
		id := insertPostRow(t, d, author, KindPicture, StatePublished, "", "x", 0, 0)
		pending := insertPostRow(t, d, author, KindPicture, StatePending, "", "p", 0, 0)
		if err := s.DeletePost(ctx, other, id); !errors.Is(err, ErrNoPost) {
			t.Fatalf("someone else deletes: %v", err)
		}
		if err := s.DeletePost(ctx, author, id); err != nil {
			t.Fatal(err)
		}
		if err := s.DeletePost(ctx, author, pending); err != nil {
			t.Fatal(err)
		}
		if err := s.DeletePost(ctx, author, id); !errors.Is(err, ErrNoPost) {
			t.Fatalf("twice: %v", err)
		}
		if _, err := s.Detail(ctx, author, id); !errors.Is(err, ErrNoPost) {
			t.Fatalf("deleted post still there: %v", err)
		}
		if n := scalar(t, d, `SELECT COUNT(*) FROM posts WHERE state = 'deleted'`); n != 2 {
			t.Fatalf("%d deleted", n)
		}
	})
}
