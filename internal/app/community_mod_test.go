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

// modPost writes a community post straight into the table.
func modPost(t *testing.T, s *apptest.Server, author int64, state string, coins int64) int64 {
	t.Helper()
	var id int64
	err := s.App.DB.QueryRow(context.Background(), `INSERT INTO posts (author_id, kind, title, body, coins, state, created_at, published_at, updated_at)
		VALUES (?, 'picture', '', '正文', ?, ?, 1, 1, 1) RETURNING id`, author, coins, state).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// Every operator call of the community: no token 401, a phone-app token
// (a user's, a guest's, the operator's own) 401, and none changes anything
// though the bodies are valid.
func TestCommunityModerationWhoMayCall(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := newOps(t, s)
		user, uid := register(t, s, "member_m")
		id := modPost(t, s, uid, "pending", 0)
		calls := []struct{ method, url, body string }{
			{"GET", "/api/admin/community/posts?state=pending", ""},
			{"POST", "/api/admin/community/posts/review", fmt.Sprintf(`{"id":%d,"approve":true}`, id)},
			{"POST", "/api/admin/community/posts/pin", fmt.Sprintf(`{"id":%d,"on":true}`, id)},
			{"POST", "/api/admin/community/posts/feature", fmt.Sprintf(`{"id":%d,"on":true}`, id)},
			{"POST", "/api/admin/community/posts/remove", fmt.Sprintf(`{"id":%d,"reason":"x"}`, id)},
			{"GET", "/api/admin/community/comments", ""},
			{"POST", "/api/admin/community/comments/remove", `{"id":1,"reason":"x"}`},
			{"GET", "/api/admin/community/reports?state=open", ""},
			{"POST", "/api/admin/community/reports/resolve", `{"id":1}`},
			{"POST", "/api/admin/community/mute", fmt.Sprintf(`{"uid":%d,"minutes":60,"reason":"x"}`, uid)},
			{"GET", "/api/admin/community/settings", ""},
			{"POST", "/api/admin/community/settings", `{"review":true,"rules":"r"}`},
			{"GET", "/api/admin/community/topics", ""},
			{"POST", "/api/admin/community/topics", `{"name":"猫咪"}`},
			{"POST", "/api/admin/community/topics/update", `{"id":1,"name":"狗狗"}`},
		}
		// The operator's own sign-in wrote audit rows (operator.create,
		// operator.enrol): the refused calls must add none.
		changed := `SELECT (SELECT COUNT(*) FROM posts WHERE state <> 'pending' OR pinned_at <> 0 OR featured <> 0) + (SELECT COUNT(*) FROM topics)
			+ (SELECT COUNT(*) FROM community_mutes) + (SELECT COUNT(*) FROM community_settings WHERE review <> 0 OR rules <> '')
			+ (SELECT COUNT(*) FROM notices) + (SELECT COUNT(*) FROM audit_log WHERE target_type <> 'user' OR actor_uid <> 0)`
		before := o.count(t, changed)
		for _, c := range calls {
			apitest.Scenario{Name: "anonymous " + c.url, Method: c.method, URL: c.url, Body: c.body, ExpectedStatus: 401}.Run(t, s.Handler)
			apitest.Scenario{Name: "user " + c.url, Method: c.method, URL: c.url, Body: c.body, Token: user, ExpectedStatus: 401}.Run(t, s.Handler)
			apitest.Scenario{Name: "guest " + c.url, Method: c.method, URL: c.url, Body: c.body, Token: o.user, ExpectedStatus: 401}.Run(t, s.Handler)
			apitest.Scenario{Name: "operator's app token " + c.url, Method: c.method, URL: c.url, Body: c.body, Token: o.app, ExpectedStatus: 401}.Run(t, s.Handler)
		}
		if n := o.count(t, changed); n != before {
			t.Fatalf("%d rows after refused calls", n-before)
		}
		// The user calls need a token.
		apitest.Scenario{Name: "report anonymous", Method: "POST", URL: "/api/app/community/report", Body: fmt.Sprintf(`{"postID":%d,"reason":"spam"}`, id), ExpectedStatus: 401}.Run(t, s.Handler)
		apitest.Scenario{Name: "buy anonymous", Method: "POST", URL: "/api/app/community/post/buy", Body: fmt.Sprintf(`{"id":%d,"key":"k-00000001"}`, id), ExpectedStatus: 401}.Run(t, s.Handler)
	})
}

// The moderation calls over HTTP: review with its notice, bad input, a
// report in the queue, a paid post bought once, a topic with a published
// cover, a mute that the user can see in their notices.
func TestCommunityModerationAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := newOps(t, s)
		author, aUID := register(t, s, "author_m")
		reader, rUID := register(t, s, "reader_m")
		pending := modPost(t, s, aUID, "pending", 0)
		gold := modPost(t, s, aUID, "published", 20)
		call := func(token, method, url, body string, status int, tip ...string) string {
			t.Helper()
			return string(o.call(t, token, method, url, body, status, tip...))
		}
		// Review: bad bodies first, then a rejection that needs its reason.
		call(o.op, "POST", "/api/admin/community/posts/review", `{"id":-1,"approve":true}`, 422, "参数 id 无效")
		call(o.op, "POST", "/api/admin/community/posts/review", `{"id":"1","approve":true}`, 400)
		call(o.op, "POST", "/api/admin/community/posts/review", fmt.Sprintf(`{"id":%d}`, pending), 422, "缺少参数 approve")
		call(o.op, "POST", "/api/admin/community/posts/review", fmt.Sprintf(`{"id":%d,"approve":false}`, pending), 422, "驳回需填写原因")
		call(o.op, "POST", "/api/admin/community/posts/review", fmt.Sprintf(`{"id":%d,"approve":false,"reason":"a\u0000b"}`, pending), 422)
		call(o.op, "POST", "/api/admin/community/posts/review", `{"id":987654,"approve":true}`, 404)
		out := call(o.op, "POST", "/api/admin/community/posts/review", fmt.Sprintf(`{"id":%d,"approve":false,"reason":"图片不清晰"}`, pending), 200)
		if !strings.Contains(out, `"state":"rejected"`) || !strings.Contains(out, `"reason":"图片不清晰"`) {
			t.Fatalf("reject answer %s", out)
		}
		call(o.op, "POST", "/api/admin/community/posts/review", fmt.Sprintf(`{"id":%d,"approve":true}`, pending), 409)
		notices := call(author, "GET", "/api/app/mine/notices?category=system", "", 200)
		if !strings.Contains(notices, "图片不清晰") || !strings.Contains(notices, "post_review") {
			t.Fatalf("the author's notices %s", notices)
		}
		call(o.op, "GET", "/api/admin/community/posts?state=bogus", "", 422)
		for _, bad := range []string{"/api/admin/community/posts?uid=-1", "/api/admin/community/posts?pageSize=51", "/api/admin/community/posts?state=pend%00ing",
			"/api/admin/community/reports?state=closed", "/api/admin/community/comments?postID=abc", "/api/admin/community/topics?pageNumber=0",
			// A cursor the list did not give (issue 20 §1: keyset pages).
			"/api/admin/community/posts?cursor=bogus", "/api/admin/community/posts?state=pending&cursor=k1", "/api/admin/community/comments?cursor=k-1",
			"/api/admin/community/reports?cursor=1"} {
			call(o.op, "GET", bad, "", 422)
		}
		call(o.op, "POST", "/api/admin/community/mute", fmt.Sprintf(`{"uid":%d,"minutes":99999999999999999999,"reason":"x"}`, aUID), 400)
		call(o.op, "POST", "/api/admin/community/mute", `{"uid":987654,"minutes":5,"reason":"x"}`, 404)
		call(o.op, "POST", "/api/admin/community/topics", `{"name":"猫\u0000咪"}`, 422)
		list := call(o.op, "GET", "/api/admin/community/posts?state=rejected", "", 200)
		if strings.Count(list, `"openReports":`) != 1 || !strings.Contains(list, `"nextCursor":null`) {
			t.Fatalf("rejected list %s", list)
		}

		// A report shows in the queue with its reporter; a repeat adds nothing.
		call(reader, "POST", "/api/app/community/report", fmt.Sprintf(`{"postID":%d,"reason":"bogus"}`, gold), 422)
		call(reader, "POST", "/api/app/community/report", fmt.Sprintf(`{"postID":%d,"reason":"spam"}`, pending), 404)
		call(o.user, "POST", "/api/app/community/report", fmt.Sprintf(`{"postID":%d,"reason":"spam"}`, gold), 403, "注册登录后才能举报")
		call(reader, "POST", "/api/app/community/report", fmt.Sprintf(`{"postID":%d,"reason":"spam"}`, gold), 200)
		call(reader, "POST", "/api/app/community/report", fmt.Sprintf(`{"postID":%d,"reason":"spam"}`, gold), 200)
		q := call(o.op, "GET", "/api/admin/community/reports", "", 200)
		if strings.Count(q, `"openReports":`) != 1 || !strings.Contains(q, fmt.Sprintf(`"reporter":{"uid":%d,`, rUID)) || !strings.Contains(q, `"text":"正文"`) {
			t.Fatalf("report queue %s", q)
		}

		// Buying the paid post: guests refused, one charge, then 409.
		credit(t, s, rUID, 100, "topup:reader")
		call(o.user, "POST", "/api/app/community/post/buy", fmt.Sprintf(`{"id":%d,"key":"buy-post-0001"}`, gold), 403)
		call(author, "POST", "/api/app/community/post/buy", fmt.Sprintf(`{"id":%d,"key":"buy-post-0002"}`, gold), 422)
		call(reader, "POST", "/api/app/community/post/buy", fmt.Sprintf(`{"id":%d,"key":"buy-post-0003"}`, pending), 404)
		call(reader, "POST", "/api/app/community/post/buy", fmt.Sprintf(`{"id":%d}`, gold), 422)
		b := call(reader, "POST", "/api/app/community/post/buy", fmt.Sprintf(`{"id":%d,"key":"buy-post-0004"}`, gold), 200)
		if !strings.Contains(b, `"price":20`) || !strings.Contains(b, `"coins":80`) {
			t.Fatalf("buy answer %s", b)
		}
		if again := call(reader, "POST", "/api/app/community/post/buy", fmt.Sprintf(`{"id":%d,"key":"buy-post-0004"}`, gold), 200); !strings.Contains(again, `"coins":80`) {
			t.Fatalf("replay %s", again)
		}
		call(reader, "POST", "/api/app/community/post/buy", fmt.Sprintf(`{"id":%d,"key":"buy-post-0005"}`, gold), 409, "已购买该帖子")

		// A topic with a cover published at a public URL.
		pic := upload(t, s, o.app, "cover.jpg", jpegBytes(t))
		tp := call(o.op, "POST", "/api/admin/community/topics", fmt.Sprintf(`{"name":"猫咪","description":"喵","cover":%d,"sort":3}`, pic), 200)
		if !strings.Contains(tp, `"cover":"/media/covers/`) {
			t.Fatalf("topic %s", tp)
		}
		call(o.op, "POST", "/api/admin/community/topics", `{"name":"猫咪"}`, 409, "话题名称已存在")
		call(o.op, "POST", "/api/admin/community/topics", `{"name":"狗狗","cover":987654}`, 404)
		call(o.op, "POST", "/api/admin/community/topics/update", `{"id":987654,"sort":1}`, 404)

		// Mute: the tip the user sees names the end.
		call(o.op, "POST", "/api/admin/community/mute", fmt.Sprintf(`{"uid":%d,"minutes":600000,"reason":"x"}`, aUID), 422)
		call(o.op, "POST", "/api/admin/community/mute", fmt.Sprintf(`{"uid":%d,"reason":"x"}`, aUID), 422, "缺少参数 minutes")
		call(o.op, "POST", "/api/admin/community/mute", fmt.Sprintf(`{"uid":%d,"minutes":60,"reason":"刷屏"}`, aUID), 200)
		if n := call(author, "GET", "/api/app/mine/notices?category=system", "", 200); !strings.Contains(n, "你已被禁言至") {
			t.Fatalf("mute notice %s", n)
		}
		st := call(o.op, "POST", "/api/admin/community/settings", `{"review":true,"rules":"友善交流"}`, 200)
		if !strings.Contains(st, `"review":true`) {
			t.Fatalf("settings %s", st)
		}
		if n := o.count(t, `SELECT COUNT(*) FROM audit_log WHERE action IN ('post.reject', 'topic.create', 'user.mute', 'community.settings')`); n != 4 {
			t.Fatalf("%d audit rows, want 4", n)
		}
	})
}

// The worked example of docs/operator-guide.md (*Community*), replayed:
// review on, two articles held, approve one, reject one (twice is 409),
// the author's notices, a mute that refuses the next post with its end,
// and lifting it.
func TestCommunityOperatorGuide(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := newOps(t, s)
		author, aUID := register(t, s, "xiaoming")
		call := func(token, method, url, body string, status int, tip ...string) string {
			t.Helper()
			return string(o.call(t, token, method, url, body, status, tip...))
		}
		call(o.op, "POST", "/api/admin/community/settings", `{"review":true,"rules":"友善交流，禁止广告。"}`, 200)
		a := call(author, "POST", "/api/app/community/post", `{"kind":"article","title":"周末去爬山","html":"<p>山顶的风景很好。</p>"}`, 200)
		b := call(author, "POST", "/api/app/community/post", `{"kind":"article","title":"加我领福利","html":"<p>加微信 abc123 领福利</p>"}`, 200)
		ida, idb := decode[struct{ ID int64 }](t, json.RawMessage(a)).ID, decode[struct{ ID int64 }](t, json.RawMessage(b)).ID
		if !strings.Contains(a, `"state":"pending"`) || !strings.Contains(b, `"state":"pending"`) {
			t.Fatalf("posts not held: %s %s", a, b)
		}
		q := call(o.op, "GET", "/api/admin/community/posts?state=pending", "", 200)
		if strings.Index(q, "周末去爬山") > strings.Index(q, "加我领福利") || strings.Count(q, `"openReports":`) != 2 || !strings.Contains(q, `"nextCursor":null`) {
			t.Fatalf("queue not oldest first: %s", q)
		}
		call(o.op, "POST", "/api/admin/community/posts/review", fmt.Sprintf(`{"id":%d,"approve":true}`, ida), 200)
		call(o.op, "POST", "/api/admin/community/posts/review", fmt.Sprintf(`{"id":%d,"approve":false,"reason":"含有站外联系方式"}`, idb), 200)
		call(o.op, "POST", "/api/admin/community/posts/review", fmt.Sprintf(`{"id":%d,"approve":true}`, idb), 409, "该帖子已审核或不在待审核状态")
		n := call(author, "GET", "/api/app/mine/notices?category=system", "", 200)
		for _, want := range []string{"「加我领福利」未通过审核，原因：含有站外联系方式", "「周末去爬山」已发布到社区。"} {
			if !strings.Contains(n, want) {
				t.Fatalf("notices lack %q: %s", want, n)
			}
		}
		call(o.op, "POST", "/api/admin/community/mute", fmt.Sprintf(`{"uid":%d,"minutes":1440,"reason":"连续发布广告"}`, aUID), 200)
		call(author, "POST", "/api/app/community/post", `{"kind":"article","title":"再发一次","html":"<p>x</p>"}`, 403, "你已被禁言至 ")
		if n := call(author, "GET", "/api/app/mine/notices?category=system", "", 200); !strings.Contains(n, "禁言期间不能在社区发帖、评论和发私信，原因：连续发布广告") {
			t.Fatalf("mute notice: %s", n)
		}
		call(o.op, "POST", "/api/admin/community/mute", fmt.Sprintf(`{"uid":%d,"minutes":0}`, aUID), 200)
		call(author, "POST", "/api/app/community/post", `{"kind":"article","title":"再发一次","html":"<p>x</p>"}`, 200)
		if n := o.count(t, `SELECT COUNT(*) FROM audit_log WHERE action IN ('community.settings', 'post.approve', 'post.reject', 'user.mute', 'user.unmute')`); n != 5 {
			t.Fatalf("%d audit rows, want 5", n)
		}
	})
}
