package app_test

import (
	"fmt"
	"strings"
	"testing"

	"prima/internal/account"
	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/platform/httpx"
)

type searchAnswer struct {
	List []struct {
		UID     int64  `json:"uid"`
		Mobile  string `json:"mobile"`
		Banned  bool   `json:"banned"`
		Account string `json:"account"`
	} `json:"list"`
	NextCursor *string `json:"nextCursor"`
}

func (a searchAnswer) uids() []int64 {
	var out []int64
	for _, u := range a.List {
		out = append(out, u.UID)
	}
	return out
}

// TestPeopleSearchAndDetail: the user search finds a user by uid, account
// (any case), phone as people type it and part of the name; the user page
// shows sessions, devices, VIP, and money only to the roles that read
// money; bad input is 422, an unknown uid 404, other roles 403.
func TestPeopleSearchAndDetail(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := &ops{s: s}
		support := s.Operator(t, "ops_sup", httpx.RoleSupport).Token
		mod := s.Operator(t, "ops_mod", httpx.RoleModerator).Token
		content := s.Operator(t, "ops_con", httpx.RoleContent).Token
		_, uid := register(t, s, "Findme_p")
		if _, err := s.App.DB.Exec(t.Context(), `UPDATE users SET mobile = '13800138123', name = '小明同学' WHERE id = ?`, uid); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{fmt.Sprint(uid), "findme_P", "+86 138 0013 8123", "138-0013-8123", "明同"} {
			a := decode[searchAnswer](t, o.call(t, support, "GET", "/api/admin/users/search?q="+urlQ(q), "", 200))
			if len(a.List) != 1 || a.List[0].UID != uid || a.List[0].Mobile != "138****8123" || a.NextCursor != nil {
				t.Fatalf("search %q: %+v", q, a)
			}
		}
		a := decode[searchAnswer](t, o.call(t, support, "GET", "/api/admin/users/search?q=nobody_here", "", 200))
		if len(a.List) != 0 || a.NextCursor != nil {
			t.Fatalf("search for nobody: %+v", a)
		}
		// LIKE's wildcards are text: "%" finds no one.
		if a := decode[searchAnswer](t, o.call(t, support, "GET", "/api/admin/users/search?q=%25", "", 200)); len(a.List) != 0 {
			t.Fatalf("%% matched %v", a.uids())
		}
		o.call(t, support, "GET", "/api/admin/users/search?q=", "", 422)
		o.call(t, support, "GET", "/api/admin/users/search?q=a%01b", "", 422)
		o.call(t, support, "GET", "/api/admin/users/search?q="+strings.Repeat("x", 65), "", 422)
		o.call(t, support, "GET", "/api/admin/users/search?q=x&cursor=abc", "", 422)
		o.call(t, support, "GET", "/api/admin/users/search?q=x&cursor=-4", "", 422)
		o.call(t, content, "GET", "/api/admin/users/search?q=x", "", 403)

		type detail struct {
			User struct {
				UID int64 `json:"uid"`
			} `json:"user"`
			VIP struct {
				Level int `json:"level"`
			} `json:"vip"`
			Balances *struct {
				Coins int64 `json:"coins"`
			} `json:"balances"`
			Sessions []struct {
				ID string `json:"id"`
			} `json:"sessions"`
			Orders  []any `json:"orders"`
			Invites *struct {
				InvitedCount int `json:"invitedCount"`
			} `json:"invites"`
			Ban  *account.Ban `json:"ban"`
			Mute any          `json:"mute"`
		}
		d := decode[detail](t, o.call(t, support, "GET", fmt.Sprintf("/api/admin/users/detail?uid=%d", uid), "", 200))
		if d.User.UID != uid || d.Balances == nil || d.Orders == nil || d.Invites == nil || len(d.Sessions) != 1 || d.Ban != nil || d.Mute != nil {
			t.Fatalf("detail as support: %+v", d)
		}
		d = decode[detail](t, o.call(t, mod, "GET", fmt.Sprintf("/api/admin/users/detail?uid=%d", uid), "", 200))
		if d.Balances != nil || len(d.Orders) != 0 {
			t.Fatalf("a moderator reads money: %+v", d)
		}
		o.call(t, support, "GET", "/api/admin/users/detail?uid=0", "", 422)
		o.call(t, support, "GET", "/api/admin/users/detail?uid=abc", "", 422)
		o.call(t, support, "GET", "/api/admin/users/detail?uid=987654321", "", 404)
		o.call(t, content, "GET", fmt.Sprintf("/api/admin/users/detail?uid=%d", uid), "", 403)
	})
}

func urlQ(s string) string {
	return strings.NewReplacer("+", "%2B", " ", "%20", "%", "%25").Replace(s)
}

// TestBanRule: a ban refuses sign-in every way (password, guest device,
// even a new guest on the banned user's device), ends every session at
// once, answers 403 naming the end to any token of theirs (also a session
// that slipped past, racing the ban), and lifting restores sign-in. Every
// refusal (another role, bad uid, bad minutes, a reason with control
// characters, an operator) changes nothing and writes no audit row.
func TestBanRule(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := &ops{s: s}
		support := s.Operator(t, "ops_sup", httpx.RoleSupport)
		content := s.Operator(t, "ops_con", httpx.RoleContent).Token
		tok, uid := register(t, s, "banned_p")
		tok2 := phoneLogin(t, s, "banned_p", "secret12")
		guestDev := apitest.DevID(31)
		guest := apitest.GuestLogin(t, s.Handler, guestDev)
		guestUID := decode[struct {
			UID int64 `json:"uid"`
		}](t, o.call(t, guest, "GET", "/api/app/mine/info", "", 200)).UID
		audits := func(action string) int {
			return o.count(t, `SELECT COUNT(*) FROM audit_log WHERE action = ?`, action)
		}
		ban := func(token, body string, status int, tip ...string) {
			t.Helper()
			o.call(t, token, "POST", "/api/admin/users/ban", body, status, tip...)
		}

		// Refusals: nothing stored, nothing audited, the user still in.
		ban(content, fmt.Sprintf(`{"uid":%d,"minutes":60,"reason":"x"}`, uid), 403)
		ban(tok, fmt.Sprintf(`{"uid":%d,"minutes":60,"reason":"x"}`, uid), 401)
		ban(support.Token, `{"uid":0,"minutes":60,"reason":"x"}`, 422)
		ban(support.Token, `{"uid":-5,"minutes":60,"reason":"x"}`, 422)
		ban(support.Token, `{"minutes":60,"reason":"x"}`, 422)
		ban(support.Token, `{"uid":987654321,"minutes":60,"reason":"x"}`, 404)
		ban(support.Token, fmt.Sprintf(`{"uid":%d,"minutes":-1,"reason":"x"}`, uid), 422)
		ban(support.Token, fmt.Sprintf(`{"uid":%d,"minutes":%d,"reason":"x"}`, uid, account.MaxBanMinutes+1), 422)
		ban(support.Token, fmt.Sprintf(`{"uid":%d,"minutes":99999999999999999999,"reason":"x"}`, uid), 400)
		ban(support.Token, fmt.Sprintf(`{"uid":%d,"reason":"x"}`, uid), 422)
		ban(support.Token, fmt.Sprintf(`{"uid":%d,"minutes":60,"forever":true,"reason":"x"}`, uid), 422)
		ban(support.Token, fmt.Sprintf(`{"uid":%d,"minutes":60,"reason":"  "}`, uid), 422)
		ban(support.Token, fmt.Sprintf(`{"uid":%d,"minutes":60,"reason":"a\u0001b"}`, uid), 422)
		ban(support.Token, fmt.Sprintf(`{"uid":%d,"minutes":60,"reason":"a\nb"}`, uid), 422)
		ban(support.Token, fmt.Sprintf(`{"uid":%d,"minutes":60,"reason":%q}`, uid, strings.Repeat("长", account.BanReasonMax+1)), 422)
		ban(support.Token, fmt.Sprintf(`{"uid":%d,"minutes":60,"reason":"x"}`, support.UID), 409)
		if n := o.count(t, `SELECT COUNT(*) FROM user_bans`); n != 0 || audits("user.ban") != 0 {
			t.Fatalf("refused bans left %d rows, %d audit rows", n, audits("user.ban"))
		}
		o.call(t, tok, "GET", "/api/app/mine/info", "", 200)

		// Ban for an hour: both sessions end at once, each token is 403
		// with the end, reads and writes alike; sign-in is refused.
		b := decode[account.Ban](t, o.call(t, support.Token, "POST", "/api/admin/users/ban", fmt.Sprintf(`{"uid":%d,"minutes":60,"reason":"发布违规广告"}`, uid), 200))
		if b.UID != uid || b.BannedUntil <= 0 || b.Forever || b.Reason != "发布违规广告" {
			t.Fatalf("ban answer %+v", b)
		}
		if n := o.count(t, `SELECT COUNT(*) FROM sessions WHERE user_id = ? AND revoked_at = 0`, uid); n != 0 {
			t.Fatalf("%d sessions live after the ban", n)
		}
		for _, token := range []string{tok, tok2} {
			o.call(t, token, "POST", "/api/app/mine/info", `{"bio":"x"}`, 403, "账号已被封禁（至 ")
			o.call(t, token, "GET", "/api/app/mine/info", "", 403, "发布违规广告")
			o.call(t, token, "POST", "/api/app/mine/feedback", `{"content":"让我回来"}`, 403)
		}
		apitest.Scenario{Method: "POST", URL: "/api/app/mine/login/h5", Body: `{"account":"banned_p","passWord":"secret12","sysType":"ios"}`,
			ExpectedStatus: 403, ExpectedTip: "账号已被封禁"}.Run(t, s.Handler)
		apitest.Scenario{Method: "POST", URL: "/api/app/mine/login/h5", Body: `{"account":"banned_p","passWord":"wrong-one","sysType":"ios"}`,
			ExpectedStatus: 401}.Run(t, s.Handler) // a wrong password still says only that
		if n := audits("user.ban"); n != 1 {
			t.Fatalf("%d user.ban rows", n)
		}
		// A session that slipped in (a sign-in racing the ban) is refused
		// all the same: the ban is read with every token.
		if _, err := s.App.DB.Exec(t.Context(), `UPDATE sessions SET revoked_at = 0 WHERE user_id = ?`, uid); err != nil {
			t.Fatal(err)
		}
		o.call(t, tok, "POST", "/api/app/mine/info", `{"bio":"x"}`, 403)

		// A banned guest cannot sign in again by its device, nor start
		// over as a new guest on it.
		o.call(t, support.Token, "POST", "/api/admin/users/ban", fmt.Sprintf(`{"uid":%d,"forever":true,"reason":"刷单"}`, guestUID), 200)
		o.call(t, guest, "GET", "/api/app/mine/info", "", 403, "永久")
		apitest.Scenario{Method: "POST", URL: "/api/app/mine/login", Body: `{"devID":"` + guestDev + `","sysType":"ios"}`,
			ExpectedStatus: 403, ExpectedTip: "账号已被封禁（永久）"}.Run(t, s.Handler)
		d := decode[struct {
			Ban *account.Ban `json:"ban"`
		}](t, o.call(t, support.Token, "GET", fmt.Sprintf("/api/admin/users/detail?uid=%d", guestUID), "", 200))
		if d.Ban == nil || !d.Ban.Forever || d.Ban.BannedUntil != account.BanForever {
			t.Fatalf("forever ban on the page: %+v", d.Ban)
		}

		// Lift: sign-in works again (the old tokens stay ended); lifting
		// again changes nothing and writes nothing.
		o.call(t, support.Token, "POST", "/api/admin/users/ban", fmt.Sprintf(`{"uid":%d,"minutes":0}`, uid), 200)
		if n := audits("user.unban"); n != 1 {
			t.Fatalf("%d user.unban rows", n)
		}
		fresh := phoneLogin(t, s, "banned_p", "secret12")
		o.call(t, fresh, "POST", "/api/app/mine/info", `{"bio":"回来了"}`, 200)
		o.call(t, support.Token, "POST", "/api/admin/users/ban", fmt.Sprintf(`{"uid":%d,"minutes":0}`, uid), 200)
		if n := audits("user.unban"); n != 1 {
			t.Fatalf("lifting no ban wrote a row (%d)", n)
		}
		o.call(t, support.Token, "POST", "/api/admin/users/ban", fmt.Sprintf(`{"uid":%d,"minutes":0}`, guestUID), 200)
		apitest.GuestLogin(t, s.Handler, guestDev)
	})
}

// TestMuteRuleCoversMessages: the mute at /api/admin/users/mute is the
// community's one rule: a muted user cannot post, comment or send a
// message; support may mute here but not at the moderators'
// /api/admin/community/mute; lifting restores all three.
func TestMuteRuleCoversMessages(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := &ops{s: s}
		support := s.Operator(t, "ops_sup", httpx.RoleSupport).Token
		finance := s.Operator(t, "ops_fin", httpx.RoleFinance).Token
		alice, aUID := register(t, s, "alice_mu")
		_, bUID := register(t, s, "bobby_mu")
		send := func(text, key string) string {
			return fmt.Sprintf(`{"uid":%d,"kind":"text","text":%q,"clientId":%q}`, bUID, text, key)
		}
		post := `{"kind":"article","title":"周末去爬山","html":"<p>山顶的风景很好。</p>"}`
		o.call(t, alice, "POST", "/api/app/message/send", send("你好", "k1"), 200)

		o.call(t, finance, "POST", "/api/admin/users/mute", fmt.Sprintf(`{"uid":%d,"minutes":60,"reason":"骚扰"}`, aUID), 403)
		o.call(t, support, "POST", "/api/admin/community/mute", fmt.Sprintf(`{"uid":%d,"minutes":60,"reason":"骚扰"}`, aUID), 403)
		o.call(t, support, "POST", "/api/admin/users/mute", fmt.Sprintf(`{"uid":%d,"minutes":-1,"reason":"骚扰"}`, aUID), 422)
		o.call(t, support, "POST", "/api/admin/users/mute", fmt.Sprintf(`{"uid":%d,"minutes":99999999,"reason":"骚扰"}`, aUID), 422)
		o.call(t, support, "POST", "/api/admin/users/mute", fmt.Sprintf(`{"uid":%d,"minutes":60,"reason":"a\u0000b"}`, aUID), 422)
		o.call(t, support, "POST", "/api/admin/users/mute", `{"uid":987654321,"minutes":60,"reason":"骚扰"}`, 404)
		if n := o.count(t, `SELECT COUNT(*) FROM community_mutes`); n != 0 {
			t.Fatalf("refused mutes left %d rows", n)
		}

		m := decode[struct {
			UID        int64  `json:"uid"`
			MutedUntil int64  `json:"mutedUntil"`
			Reason     string `json:"reason"`
		}](t, o.call(t, support, "POST", "/api/admin/users/mute", fmt.Sprintf(`{"uid":%d,"minutes":60,"reason":"骚扰"}`, aUID), 200))
		if m.UID != aUID || m.MutedUntil <= 0 || m.Reason != "骚扰" {
			t.Fatalf("mute answer %+v", m)
		}
		before := o.count(t, `SELECT COUNT(*) FROM messages`)
		o.call(t, alice, "POST", "/api/app/message/send", send("还在吗", "k2"), 403, "你已被禁言至 ")
		o.call(t, alice, "POST", "/api/app/community/post", post, 403, "你已被禁言至 ")
		if n := o.count(t, `SELECT COUNT(*) FROM messages`); n != before {
			t.Fatalf("a muted user's message was stored")
		}
		if n := o.count(t, `SELECT COUNT(*) FROM audit_log WHERE action = 'user.mute' AND target_id = ?`, fmt.Sprint(aUID)); n != 1 {
			t.Fatalf("%d user.mute rows", n)
		}
		d := decode[struct {
			Mute *struct {
				MutedUntil int64 `json:"mutedUntil"`
			} `json:"mute"`
		}](t, o.call(t, support, "GET", fmt.Sprintf("/api/admin/users/detail?uid=%d", aUID), "", 200))
		if d.Mute == nil || d.Mute.MutedUntil != m.MutedUntil {
			t.Fatalf("mute on the page: %+v", d.Mute)
		}
		o.call(t, support, "POST", "/api/admin/users/mute", fmt.Sprintf(`{"uid":%d,"minutes":0}`, aUID), 200)
		o.call(t, alice, "POST", "/api/app/message/send", send("还在吗", "k3"), 200)
		o.call(t, alice, "POST", "/api/app/community/post", post, 200)
	})
}

// TestRevokeOneSession: an operator ends one of a user's sessions by the
// id the user page lists; the other stays; a wrong id is 404, a malformed
// one 422, and neither changes anything.
func TestRevokeOneSession(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := &ops{s: s}
		support := s.Operator(t, "ops_sup", httpx.RoleSupport).Token
		one, uid := register(t, s, "twodev_p")
		two := phoneLogin(t, s, "twodev_p", "secret12")
		d := decode[struct {
			Sessions []struct {
				ID string `json:"id"`
			} `json:"sessions"`
		}](t, o.call(t, support, "GET", fmt.Sprintf("/api/admin/users/detail?uid=%d", uid), "", 200))
		if len(d.Sessions) != 2 {
			t.Fatalf("sessions %+v", d.Sessions)
		}
		o.call(t, support, "POST", "/api/admin/users/sessions/revoke", fmt.Sprintf(`{"uid":%d,"sessionId":"0123456789abcdef"}`, uid), 404)
		o.call(t, support, "POST", "/api/admin/users/sessions/revoke", fmt.Sprintf(`{"uid":%d,"sessionId":"nope"}`, uid), 422)
		o.call(t, support, "POST", "/api/admin/users/sessions/revoke", fmt.Sprintf(`{"uid":987654321,"sessionId":%q}`, d.Sessions[0].ID), 404)
		if n := o.count(t, `SELECT COUNT(*) FROM sessions WHERE user_id = ? AND revoked_at <> 0`, uid); n != 0 {
			t.Fatalf("refusals ended %d sessions", n)
		}
		// The most recently used (the second sign-in) is listed first.
		o.call(t, support, "POST", "/api/admin/users/sessions/revoke", fmt.Sprintf(`{"uid":%d,"sessionId":%q}`, uid, d.Sessions[0].ID), 200)
		live := 0
		for _, tok := range []string{one, two} {
			res := apitest.Scenario{Method: "GET", URL: "/api/app/mine/info", Token: tok}.Send(t, s.Handler)
			if res.Code == 200 {
				live++
			}
		}
		if live != 1 {
			t.Fatalf("%d of 2 sessions live after ending one", live)
		}
		if n := o.count(t, `SELECT COUNT(*) FROM audit_log WHERE action = 'user.sessions.revoke' AND target_id = ?`, fmt.Sprint(uid)); n != 1 {
			t.Fatalf("%d audit rows", n)
		}
	})
}
