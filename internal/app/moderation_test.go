package app_test

import (
	"fmt"
	"strings"
	"testing"

	"prima/internal/app/apptest"
	"prima/internal/platform/httpx"
)

// issue 20 §5: the blocked-words rule in the four places users write text,
// its operator calls and their refusals, on both engines.
func TestBlockedWords(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := newOps(t, s)
		mod := s.Operator(t, "mod_w", httpx.RoleModerator).Token
		other := s.Operator(t, "content_w", httpx.RoleContent).Token
		alice, _ := register(t, s, "alice_w")
		_, bobID := register(t, s, "bob_w")
		audits := func() int { return o.count(t, `SELECT COUNT(*) FROM audit_log WHERE action = 'moderation.words'`) }

		// Another role may not read or write the list; bad lists change nothing.
		o.call(t, other, "GET", "/api/admin/moderation/words", "", 403)
		o.call(t, other, "POST", "/api/admin/moderation/words", `{"words":["bad"]}`, 403)
		o.call(t, mod, "POST", "/api/admin/moderation/words", `{}`, 422, "缺少参数 words")
		o.call(t, mod, "POST", "/api/admin/moderation/words", `{"words":["a\u0007b"]}`, 422)
		o.call(t, mod, "POST", "/api/admin/moderation/words", `{"words":["a\u0000b"]}`, 422)
		o.call(t, mod, "POST", "/api/admin/moderation/words", `{"words":["`+strings.Repeat("长", 33)+`"]}`, 422, "超过 32 个字")
		many := make([]string, 2001)
		for i := range many {
			many[i] = fmt.Sprintf(`"w%d"`, i)
		}
		o.call(t, mod, "POST", "/api/admin/moderation/words", `{"words":[`+strings.Join(many, ",")+`]}`, 422, "最多 2000 个")
		if n := audits(); n != 0 {
			t.Fatalf("refused lists wrote %d audit rows", n)
		}

		// Saving trims, drops empties and repeats after folding (ＢＡＤ = bad).
		got := decode[struct {
			Words     []string `json:"words"`
			UpdatedAt int64    `json:"updatedAt"`
		}](t, o.call(t, mod, "POST", "/api/admin/moderation/words", `{"words":[" bad ","","ＢＡＤ","广告","Spam"]}`, 200))
		if strings.Join(got.Words, "|") != "bad|广告|Spam" || got.UpdatedAt == 0 {
			t.Fatalf("saved %+v", got)
		}
		o.call(t, mod, "POST", "/api/admin/moderation/words", `{"words":["bad","广告","Spam"]}`, 200) // the same list
		if n := audits(); n != 1 {
			t.Fatalf("%d moderation.words rows, want 1 (the same list again writes none)", n)
		}
		if out := string(o.call(t, o.op, "GET", "/api/admin/moderation/words", "", 200)); !strings.Contains(out, `"广告"`) {
			t.Fatalf("owner reads %s", out)
		}

		// Each place refuses, naming the word, and stores nothing; width
		// and case fold (ＢＡＤ, BaD, ｓｐａｍ).
		counts := func() string {
			return fmt.Sprint(o.count(t, `SELECT COUNT(*) FROM posts`), o.count(t, `SELECT COUNT(*) FROM comments`),
				o.count(t, `SELECT COUNT(*) FROM messages`), o.count(t, `SELECT COUNT(*) FROM users WHERE name LIKE '%d%'`))
		}
		before := counts()
		o.call(t, alice, "POST", "/api/app/community/post", `{"kind":"article","title":"好东西 ＢＡＤ","html":"<p>x</p>"}`, 422, "违禁词「bad」")
		o.call(t, alice, "POST", "/api/app/community/post", `{"kind":"article","title":"周末","html":"<p>加我看广告</p>"}`, 422, "违禁词「广告」")
		o.call(t, alice, "POST", "/api/app/mine/info", `{"name":"BaD boy"}`, 422, "违禁词「bad」")
		o.call(t, alice, "POST", "/api/app/message/send", fmt.Sprintf(`{"uid":%d,"kind":"text","text":"hi ｓｐａｍ","clientId":"w1"}`, bobID), 422, "违禁词「Spam」")
		if after := counts(); after != before {
			t.Fatalf("refusals stored rows: %s -> %s", before, after)
		}
		post := decode[struct {
			ID int64 `json:"id"`
		}](t, o.call(t, alice, "POST", "/api/app/community/post", `{"kind":"article","title":"周末去爬山","html":"<p>风景好</p>"}`, 200)).ID
		o.call(t, alice, "POST", "/api/app/community/comment", fmt.Sprintf(`{"postID":%d,"text":"ＢＡＤ！"}`, post), 422, "内容包含违禁词「bad」，请修改后再发送")
		if n := o.count(t, `SELECT COUNT(*) FROM comments`); n != 0 {
			t.Fatalf("a refused comment stored %d rows", n)
		}
		// Clean text passes everywhere.
		o.call(t, alice, "POST", "/api/app/community/comment", fmt.Sprintf(`{"postID":%d,"text":"好看"}`, post), 200)
		o.call(t, alice, "POST", "/api/app/message/send", fmt.Sprintf(`{"uid":%d,"kind":"text","text":"你好","clientId":"w2"}`, bobID), 200)
		o.call(t, alice, "POST", "/api/app/mine/info", `{"name":"爱丽丝"}`, 200)

		// An article is checked on its words, not its markup.
		o.call(t, mod, "POST", "/api/admin/moderation/words", `{"words":["strong"]}`, 200)
		o.call(t, alice, "POST", "/api/app/community/post", `{"kind":"article","title":"加粗测试","html":"<p><strong>加粗</strong></p>"}`, 200)
		o.call(t, alice, "POST", "/api/app/community/post", `{"kind":"article","title":"加粗测试二","html":"<p>very ＳＴＲＯＮＧ</p>"}`, 422, "违禁词「strong」")

		// Clearing the list lets the word through again.
		o.call(t, mod, "POST", "/api/admin/moderation/words", `{"words":[]}`, 200)
		o.call(t, alice, "POST", "/api/app/community/comment", fmt.Sprintf(`{"postID":%d,"text":"bad"}`, post), 200)
		if n := audits(); n != 3 {
			t.Fatalf("%d moderation.words rows, want 3", n)
		}
	})
}

// Bulk review, video reports and message reports, as a moderator.
func TestModerationQueues(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := newOps(t, s)
		mod := s.Operator(t, "mod_q", httpx.RoleModerator).Token
		other := s.Operator(t, "finance_q", httpx.RoleFinance).Token
		alice, aliceID := register(t, s, "alice_q")
		bob, _ := register(t, s, "bob_q")
		p1, p2, p3 := modPost(t, s, aliceID, "pending", 0), modPost(t, s, aliceID, "pending", 0), modPost(t, s, aliceID, "published", 0)
		review := "/api/admin/community/posts/review"

		// Bulk: bounds, a missing id changes nothing, a decided one is skipped.
		o.call(t, other, "POST", review, fmt.Sprintf(`{"ids":[%d],"approve":true}`, p1), 403)
		o.call(t, mod, "POST", review, `{"ids":[],"approve":true}`, 422, "1 到 100")
		ids := make([]string, 101)
		for i := range ids {
			ids[i] = fmt.Sprint(i + 1)
		}
		o.call(t, mod, "POST", review, `{"ids":[`+strings.Join(ids, ",")+`],"approve":true}`, 422)
		o.call(t, mod, "POST", review, fmt.Sprintf(`{"ids":[%d],"id":%d,"approve":true}`, p1, p1), 422)
		o.call(t, mod, "POST", review, fmt.Sprintf(`{"ids":[%d,%d],"approve":false}`, p1, p2), 422, "驳回需填写原因")
		o.call(t, mod, "POST", review, fmt.Sprintf(`{"ids":[%d,987654],"approve":false,"reason":"广告"}`, p1), 404)
		if n := o.count(t, `SELECT COUNT(*) FROM posts WHERE state = 'pending'`); n != 2 {
			t.Fatalf("%d pending after refusals, want 2", n)
		}
		out := decode[struct {
			Changed int     `json:"changed"`
			IDs     []int64 `json:"ids"`
			Skipped []int64 `json:"skipped"`
		}](t, o.call(t, mod, "POST", review, fmt.Sprintf(`{"ids":[%d,%d,%d,%d],"approve":false,"reason":"广告"}`, p1, p2, p3, p1), 200))
		if out.Changed != 2 || fmt.Sprint(out.IDs) != fmt.Sprint([]int64{p1, p2}) || fmt.Sprint(out.Skipped) != fmt.Sprint([]int64{p3}) {
			t.Fatalf("bulk answer %+v", out)
		}
		if n := o.count(t, `SELECT COUNT(*) FROM posts WHERE state = 'rejected' AND reason = '广告'`); n != 2 {
			t.Fatalf("%d rejected", n)
		}
		if n := o.count(t, `SELECT COUNT(*) FROM audit_log WHERE action = 'post.reject'`); n != 2 {
			t.Fatalf("%d post.reject rows, want 2", n)
		}
		if n := o.count(t, `SELECT COUNT(*) FROM notices WHERE user_id = ? AND kind = 'post_review'`, aliceID); n != 2 {
			t.Fatalf("%d notices, want 2", n)
		}

		// Video reports: a user's report shows in the queue; unpublish
		// handles every open report of the video once.
		f := newVideoFixture(t, s)
		o.call(t, alice, "POST", "/api/app/vid/report", fmt.Sprintf(`{"id":%d,"reason":"vulgar"}`, f.free), 200)
		o.call(t, bob, "POST", "/api/app/vid/report", fmt.Sprintf(`{"id":%d,"reason":"illegal"}`, f.free), 200)
		o.call(t, bob, "POST", "/api/app/vid/report", fmt.Sprintf(`{"id":%d,"reason":"broken"}`, f.vip), 200)
		o.call(t, other, "GET", "/api/admin/videos/reports", "", 403)
		o.call(t, mod, "GET", "/api/admin/videos/reports?status=bogus", "", 422)
		o.call(t, mod, "GET", "/api/admin/videos/reports?cursor=abc", "", 422)
		type vr struct {
			List []struct {
				VideoID   int64            `json:"videoId"`
				Count     int64            `json:"count"`
				Reasons   map[string]int64 `json:"reasons"`
				Published bool             `json:"published"`
			} `json:"list"`
			NextCursor *string `json:"nextCursor"`
		}
		page := decode[vr](t, o.call(t, mod, "GET", "/api/admin/videos/reports?size=1", "", 200))
		if len(page.List) != 1 || page.NextCursor == nil || page.List[0].VideoID != max(f.free, f.vip) {
			t.Fatalf("first page %+v", page)
		}
		page = decode[vr](t, o.call(t, mod, "GET", "/api/admin/videos/reports?size=1&cursor="+*page.NextCursor, "", 200))
		if len(page.List) != 1 || page.NextCursor != nil {
			t.Fatalf("second page %+v", page)
		}
		all := decode[vr](t, o.call(t, mod, "GET", "/api/admin/videos/reports", "", 200))
		for _, v := range all.List {
			if v.VideoID == f.free && (v.Count != 2 || v.Reasons["vulgar"] != 1 || !v.Published) {
				t.Fatalf("free video's reports %+v", v)
			}
		}
		o.call(t, mod, "POST", "/api/admin/videos/reports/resolve", fmt.Sprintf(`{"id":%d,"action":"delete"}`, f.free), 422)
		o.call(t, mod, "POST", "/api/admin/videos/reports/resolve", `{"id":987654,"action":"dismiss"}`, 404)
		o.call(t, mod, "POST", "/api/admin/videos/reports/resolve", fmt.Sprintf(`{"id":%d,"action":"unpublish"}`, f.free), 200)
		o.call(t, mod, "POST", "/api/admin/videos/reports/resolve", fmt.Sprintf(`{"id":%d,"action":"dismiss"}`, f.free), 409)
		o.call(t, mod, "POST", "/api/admin/videos/reports/resolve", fmt.Sprintf(`{"id":%d,"action":"dismiss"}`, f.vip), 200)
		if n := o.count(t, `SELECT COUNT(*) FROM videos WHERE id = ? AND published = 0`, f.free); n != 1 {
			t.Fatal("unpublish left the video published")
		}
		if n := o.count(t, `SELECT COUNT(*) FROM videos WHERE id = ? AND published = 1`, f.vip); n != 1 {
			t.Fatal("dismiss changed the video")
		}
		if n := o.count(t, `SELECT COUNT(*) FROM audit_log WHERE action IN ('video.report.resolve', 'video.unpublish')`); n != 3 {
			t.Fatalf("%d video audit rows, want 3", n)
		}
		if res := decode[vr](t, o.call(t, mod, "GET", "/api/admin/videos/reports?status=resolved", "", 200)); len(res.List) != 2 {
			t.Fatalf("resolved %+v", res)
		}

		// Message reports: dismiss, or mute the reported user.
		o.call(t, bob, "POST", "/api/app/message/report", fmt.Sprintf(`{"uid":%d,"reason":"骚扰"}`, aliceID), 200)
		var rid int64
		if err := s.App.DB.QueryRow(t.Context(), `SELECT MAX(id) FROM message_reports`).Scan(&rid); err != nil {
			t.Fatal(err)
		}
		resolve := "/api/admin/message/reports/resolve"
		o.call(t, other, "POST", resolve, fmt.Sprintf(`{"id":%d,"action":"dismiss"}`, rid), 403)
		o.call(t, mod, "POST", resolve, fmt.Sprintf(`{"id":%d,"action":"ban"}`, rid), 422)
		o.call(t, mod, "POST", resolve, fmt.Sprintf(`{"id":%d,"action":"mute","minutes":0,"reason":"x"}`, rid), 422)
		o.call(t, mod, "POST", resolve, fmt.Sprintf(`{"id":%d,"action":"mute","minutes":60}`, rid), 422)
		o.call(t, mod, "POST", resolve, `{"id":987654,"action":"dismiss"}`, 404)
		if n := o.count(t, `SELECT COUNT(*) FROM community_mutes`); n != 0 {
			t.Fatal("a refused handling muted")
		}
		o.call(t, mod, "GET", "/api/admin/message/reports?status=open", "", 200)
		o.call(t, mod, "POST", resolve, fmt.Sprintf(`{"id":%d,"action":"mute","minutes":60,"reason":"骚扰他人"}`, rid), 200)
		o.call(t, mod, "POST", resolve, fmt.Sprintf(`{"id":%d,"action":"dismiss"}`, rid), 409)
		if n := o.count(t, `SELECT COUNT(*) FROM community_mutes WHERE user_id = ?`, aliceID); n != 1 {
			t.Fatal("mute did not mute the reported user")
		}
		if n := o.count(t, `SELECT COUNT(*) FROM audit_log WHERE action IN ('message.report.resolve', 'user.mute')`); n != 2 {
			t.Fatalf("%d message audit rows, want 2", n)
		}
		if out := string(o.call(t, mod, "GET", "/api/admin/message/reports?status=resolved", "", 200)); !strings.Contains(out, `"resolution":"mute"`) {
			t.Fatalf("resolved message reports %s", out)
		}
		o.call(t, mod, "GET", "/api/admin/message/reports?status=closed", "", 422)
		_ = alice
	})
}
