package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
)

// detailPost writes a post row straight into the table (the publish call
// has its own tests) and returns its id.
func detailPost(t *testing.T, s *apptest.Server, author int64, kind, state, title, body string, coins int64) int64 {
	t.Helper()
	var id int64
	err := s.App.DB.QueryRow(context.Background(), `INSERT INTO posts (author_id, kind, title, body, coins, state, created_at, published_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, 100, 100, 100) RETURNING id`, author, kind, title, body, coins, state).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// TestPostDetailAPI runs the detail, like and comment calls through the
// whole server: who may call, the refusals that change nothing, and an
// article's pictures signed in the answer.
func TestPostDetailAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		alice, aUID := register(t, s, "alice_d")
		bob, bUID := register(t, s, "bobby_d")
		o := &ops{s: s}
		guest := apitest.GuestLogin(t, s.Handler, apitest.DevID(41))
		pic := upload(t, s, alice, "a.jpg", jpegBytes(t))
		bobPic := upload(t, s, bob, "b.jpg", jpegBytes(t))
		body := fmt.Sprintf(`<p>看图</p><img data-asset="%d"><img data-asset="%d"><p>完</p>`, pic, bobPic)
		art := detailPost(t, s, aUID, "article", "published", "文章", body, 0)
		pending := detailPost(t, s, aUID, "picture", "pending", "", "待审", 0)

		type detail struct {
			ID        int64  `json:"id"`
			Text      string `json:"text"`
			HTML      string `json:"html"`
			Mine      bool   `json:"mine"`
			ViewCount int64  `json:"viewCount"`
			Access    struct {
				Allowed bool `json:"allowed"`
			} `json:"access"`
		}
		d := decode[detail](t, o.call(t, "", "GET", fmt.Sprintf("/api/app/community/post?id=%d", art), "", 200))
		if !d.Access.Allowed || d.Mine || d.ViewCount != 1 || strings.Count(d.HTML, "<img ") != 1 ||
			!strings.Contains(d.HTML, fmt.Sprintf(`data-asset="%d"`, pic)) || !strings.Contains(d.HTML, `src="/media/s/`) ||
			strings.Contains(d.HTML, fmt.Sprintf(`data-asset="%d"`, bobPic)) {
			t.Fatalf("article detail %+v", d)
		}
		o.call(t, "", "GET", fmt.Sprintf("/api/app/community/post?id=%d", pending), "", 404)
		o.call(t, bob, "GET", fmt.Sprintf("/api/app/community/post?id=%d", pending), "", 404)
		o.call(t, alice, "GET", fmt.Sprintf("/api/app/community/post?id=%d", pending), "", 200)
		o.call(t, "", "GET", "/api/app/community/post?id=-1", "", 422)
		o.call(t, "", "GET", "/api/app/community/post", "", 422)

		// Likes.
		like := fmt.Sprintf(`{"id":%d,"isLike":true}`, art)
		o.call(t, "", "POST", "/api/app/community/post/like", like, 401)
		o.call(t, guest, "POST", "/api/app/community/post/like", like, 403, "注册")
		o.call(t, bob, "POST", "/api/app/community/post/like", fmt.Sprintf(`{"id":%d,"isLike":true}`, pending), 404)
		o.call(t, alice, "POST", "/api/app/community/post/like", fmt.Sprintf(`{"id":%d,"isLike":true}`, pending), 409)
		o.call(t, bob, "POST", "/api/app/community/post/like", `{"id":0,"isLike":true}`, 422)
		o.call(t, bob, "POST", "/api/app/community/post/like", fmt.Sprintf(`{"id":%d}`, art), 422)
		o.call(t, bob, "POST", "/api/app/community/post/like", `{"id":"1","isLike":true}`, 400)
		if n := o.count(t, `SELECT COUNT(*) FROM post_likes`); n != 0 {
			t.Fatalf("refused likes left %d rows", n)
		}
		type liked struct {
			Liked     bool  `json:"liked"`
			LikeCount int64 `json:"likeCount"`
		}
		if l := decode[liked](t, o.call(t, bob, "POST", "/api/app/community/post/like", like, 200)); l != (liked{true, 1}) {
			t.Fatalf("like %+v", l)
		}

		// Comments.
		c := func(tok, body string, status int, tip ...string) json.RawMessage {
			return o.call(t, tok, "POST", "/api/app/community/comment", body, status, tip...)
		}
		c("", fmt.Sprintf(`{"postID":%d,"text":"hi"}`, art), 401)
		c(guest, fmt.Sprintf(`{"postID":%d,"text":"hi"}`, art), 403)
		c(bob, fmt.Sprintf(`{"postID":%d,"text":"a\u0000b"}`, art), 422)
		c(bob, fmt.Sprintf(`{"postID":%d,"text":"a\u0007b"}`, art), 422)
		c(bob, fmt.Sprintf(`{"postID":%d,"text":"  "}`, art), 422)
		c(bob, fmt.Sprintf(`{"postID":%d,"text":"%s"}`, art, strings.Repeat("长", 501)), 422)
		c(bob, `{"text":"hi"}`, 422)
		c(bob, fmt.Sprintf(`{"postID":%d,"text":"hi"}`, pending), 404)
		c(alice, fmt.Sprintf(`{"postID":%d,"text":"hi"}`, pending), 409)
		c(bob, fmt.Sprintf(`{"postID":%d,"parentID":-2,"text":"hi"}`, art), 422)
		if n := o.count(t, `SELECT COUNT(*) FROM comments`); n != 0 {
			t.Fatalf("refused comments left %d rows", n)
		}
		type comment struct {
			ID     int64  `json:"id"`
			Text   string `json:"text"`
			Author struct {
				UID int64 `json:"uid"`
			} `json:"author"`
		}
		top := decode[comment](t, c(bob, fmt.Sprintf(`{"postID":%d,"text":"第一行\n第二行\t<b>x</b>"}`, art), 200))
		if top.Text != "第一行\n第二行\t<b>x</b>" || top.Author.UID != bUID {
			t.Fatalf("comment %+v", top)
		}
		reply := decode[comment](t, c(alice, fmt.Sprintf(`{"postID":%d,"parentID":%d,"text":"谢谢"}`, art, top.ID), 200))
		c(bob, fmt.Sprintf(`{"postID":%d,"parentID":%d,"text":"deep"}`, art, reply.ID), 422, "两层")
		c(bob, fmt.Sprintf(`{"postID":%d,"parentID":%d,"replyToUID":987654,"text":"who"}`, art, top.ID), 422)
		if n := o.count(t, `SELECT COUNT(*) FROM notices WHERE user_id = ? AND kind IN ('comment', 'post_like')`, aUID); n != 2 {
			t.Fatalf("%d notices to the author", n)
		}
		if n := o.count(t, `SELECT COUNT(*) FROM notices WHERE user_id = ? AND kind = 'reply' AND ref = ?`, bUID, fmt.Sprint(art)); n != 1 {
			t.Fatalf("%d reply notices", n)
		}
		page := decode[struct {
			Total int `json:"total"`
			List  []struct {
				ID         int64     `json:"id"`
				ReplyCount int64     `json:"replyCount"`
				Replies    []comment `json:"replies"`
			} `json:"list"`
		}](t, o.call(t, "", "GET", fmt.Sprintf("/api/app/community/comments?postID=%d", art), "", 200))
		if page.Total != 1 || page.List[0].ReplyCount != 1 || len(page.List[0].Replies) != 1 || page.List[0].Replies[0].ID != reply.ID {
			t.Fatalf("comments %+v", page)
		}
		o.call(t, "", "GET", fmt.Sprintf("/api/app/community/comments?postID=%d", pending), "", 404)
		o.call(t, "", "GET", fmt.Sprintf("/api/app/community/comments?postID=%d&pageSize=51", art), "", 422)

		// Deleting: another user's comment or post is 404 and changes nothing.
		o.call(t, bob, "POST", "/api/app/community/comment/delete", fmt.Sprintf(`{"id":%d}`, reply.ID), 404)
		o.call(t, alice, "POST", "/api/app/community/comment/delete", fmt.Sprintf(`{"id":%d}`, top.ID), 200) // the post's author
		o.call(t, bob, "POST", "/api/app/community/post/delete", fmt.Sprintf(`{"id":%d}`, art), 404)
		if n := o.count(t, `SELECT comment_count FROM posts WHERE id = ?`, art); n != 1 {
			t.Fatalf("comment_count %d", n)
		}
		o.call(t, alice, "POST", "/api/app/community/post/delete", fmt.Sprintf(`{"id":%d}`, art), 200)
		o.call(t, alice, "GET", fmt.Sprintf("/api/app/community/post?id=%d", art), "", 404)
		o.call(t, alice, "POST", "/api/app/community/post/delete", fmt.Sprintf(`{"id":%d}`, art), 404)
	})
}

// A paid video post: everyone gets the preview playlist, only those with
// access the master, whose signed token covers the full ladder.
func TestPostDetailVideoPlayback(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		alice, aUID := register(t, s, "alice_v")
		bob, _ := register(t, s, "bobby_v")
		o := &ops{s: s}
		var asset int64
		err := s.App.DB.QueryRow(context.Background(), `INSERT INTO media_assets (owner_uid, kind, state, source_key, hls_prefix, preview_prefix, poster_key, width, height, duration_ms, created_at, updated_at)
			VALUES (?, 'video', 'ready', 'src/v', 'v1/hls/', 'v1/preview/', 'v1/poster.jpg', 640, 360, 5000, 1, 1) RETURNING id`, aUID).Scan(&asset)
		if err != nil {
			t.Fatal(err)
		}
		id := detailPost(t, s, aUID, "video", "published", "", "看视频", 30)
		if _, err := s.App.DB.Exec(context.Background(), `UPDATE posts SET video_asset_id = ? WHERE id = ?`, asset, id); err != nil {
			t.Fatal(err)
		}
		type pb struct {
			Video *struct {
				State string `json:"state"`
			} `json:"video"`
			Access struct {
				Allowed bool   `json:"allowed"`
				Reason  string `json:"reason"`
			} `json:"access"`
			Playback *struct {
				Master  string `json:"master"`
				Preview string `json:"preview"`
			} `json:"playback"`
		}
		url := fmt.Sprintf("/api/app/community/post?id=%d", id)
		for _, tok := range []string{"", bob} {
			d := decode[pb](t, o.call(t, tok, "GET", url, "", 200))
			if d.Access.Allowed || d.Playback == nil || d.Playback.Master != "" || !strings.Contains(d.Playback.Preview, "v1/preview/") {
				t.Fatalf("locked video post (token %q): %+v %+v", tok, d.Access, d.Playback)
			}
		}
		d := decode[pb](t, o.call(t, alice, "GET", url, "", 200))
		if !d.Access.Allowed || d.Playback == nil || !strings.Contains(d.Playback.Master, "v1/hls/") || d.Video == nil || d.Video.State != "ready" {
			t.Fatalf("author's video post: %+v %+v", d.Access, d.Playback)
		}
	})
}
