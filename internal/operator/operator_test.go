package operator_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/operator"
	"prima/internal/platform/audit"
	"prima/internal/platform/httpx"
)

// clock is a settable time for the operator service: TOTP steps and
// session expiry are tested by moving it.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// setClock puts s's operator service on a clock in the middle of a TOTP
// step (so ±1 step is plain to see), a day from now.
func setClock(s *apptest.Server) *clock {
	step := time.Now().Add(24*time.Hour).Unix() / 30
	c := &clock{now: time.Unix(step*30+15, 0)}
	s.App.Operators.SetClock(c.Now)
	return c
}

// signIn posts a console sign-in and checks its status; it answers the
// data's token (on 200).
func signIn(t *testing.T, s *apptest.Server, account, password, code string, status int, tip string) string {
	t.Helper()
	res := apitest.Scenario{Method: "POST", URL: "/api/admin/session",
		Body:           fmt.Sprintf(`{"account":%q,"passWord":%q,"code":%q}`, account, password, code),
		ExpectedStatus: status, ExpectedTip: tip}.Run(t, s.Handler)
	if status != 200 {
		return ""
	}
	return apitest.Data[struct {
		Token string `json:"token"`
	}](t, res).Token
}

// get calls an /api/admin GET with token and checks the status.
func get(t *testing.T, s *apptest.Server, url, token string, status int, tip string) *apitest.Response {
	t.Helper()
	return apitest.Scenario{URL: url, Token: token, ExpectedStatus: status, ExpectedTip: tip}.Run(t, s.Handler)
}

func post(t *testing.T, s *apptest.Server, url, token, body string, status int, tip string) *apitest.Response {
	t.Helper()
	return apitest.Scenario{Method: "POST", URL: url, Token: token, Body: body, ExpectedStatus: status, ExpectedTip: tip}.Run(t, s.Handler)
}

func count(t *testing.T, s *apptest.Server, q string, args ...any) int {
	t.Helper()
	var n int
	if err := s.App.DB.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

const badSignIn = "账号、密码或验证码错误"

// The first sign-in of an operator enrols TOTP: the right password gets a
// 428 with a ticket and the secret, the ticket with a code from the
// secret gets the session and ten recovery codes, once. Every wrong
// credential answers alike.
func TestSignInAndEnrol(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		ctx := context.Background()
		c := setClock(s)
		if _, _, err := s.App.Operators.Ensure(ctx, cli, "ops_new", httpx.RoleContent, "secret12"); err != nil {
			t.Fatal(err)
		}
		register(t, s, "plain_user", "secret12")

		// No oracle: unknown account, wrong password, a user who is no
		// operator, a bad account name: one answer.
		signIn(t, s, "nobody_here", "secret12", "", 401, badSignIn)
		signIn(t, s, "ops_new", "wrong999", "", 401, badSignIn)
		signIn(t, s, "plain_user", "secret12", "123456", 401, badSignIn)
		signIn(t, s, "x", "secret12", "", 401, badSignIn)
		signIn(t, s, "", "secret12", "", 422, "请输入账号")

		res := apitest.Scenario{Method: "POST", URL: "/api/admin/session", Body: `{"account":"OPS_NEW","passWord":"secret12","code":""}`,
			ExpectedStatus: http.StatusPreconditionRequired, ExpectedTip: "请先绑定动态验证码"}.Run(t, s.Handler)
		e := apitest.Data[struct{ Enrol operator.Enrolment }](t, res).Enrol
		if !strings.HasPrefix(e.Ticket, "pt_") || len(e.Secret) != 32 ||
			!strings.HasPrefix(e.OTPAuthURL, "otpauth://totp/Prima:ops_new?") || !strings.Contains(e.OTPAuthURL, "secret="+e.Secret) ||
			!strings.Contains(e.OTPAuthURL, "digits=6") || !strings.Contains(e.OTPAuthURL, "period=30") || !strings.Contains(e.OTPAuthURL, "algorithm=SHA1") {
			t.Fatalf("enrolment %+v", e)
		}
		if n := count(t, s, `SELECT COUNT(*) FROM operator_sessions`); n != 0 {
			t.Fatalf("the 428 opened %d sessions", n)
		}
		// The stored secret is sealed, not the base32 the app got.
		if n := count(t, s, `SELECT COUNT(*) FROM operator_enrol_tickets WHERE secret = ?`, e.Secret); n != 0 {
			t.Fatal("the proposed secret is stored in the clear")
		}
		code := func(at time.Time) string {
			v, err := operator.Code(e.Secret, at)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		enrol := func(ticket, code string, status int, tip string) *apitest.Response {
			t.Helper()
			return post(t, s, "/api/admin/session/enrol", "", fmt.Sprintf(`{"ticket":%q,"code":%q}`, ticket, code), status, tip)
		}
		enrol("pt_nonsense", code(c.Now()), 401, "请重新登录")
		enrol(e.Ticket, "000000", 422, "验证码错误")
		enrol(e.Ticket, code(c.Now().Add(-time.Minute)), 422, "验证码错误") // two steps off
		res = enrol(e.Ticket, code(c.Now()), 200, "")
		got := apitest.Data[struct {
			Token         string
			ExpiresAt     time.Time
			Role          httpx.Role
			RecoveryCodes []string
		}](t, res)
		if !strings.HasPrefix(got.Token, "pc_") || got.Role != httpx.RoleContent || !got.ExpiresAt.Equal(c.Now().Add(12*time.Hour).Truncate(time.Second)) {
			t.Fatalf("enrolled %+v", got)
		}
		if len(got.RecoveryCodes) != 10 {
			t.Fatalf("%d recovery codes", len(got.RecoveryCodes))
		}
		seen := map[string]bool{}
		for _, rc := range got.RecoveryCodes {
			if !regexp.MustCompile(`^[a-z2-7]{4}-[a-z2-7]{4}$`).MatchString(rc) || seen[rc] {
				t.Fatalf("recovery code %q", rc)
			}
			seen[rc] = true
			if n := count(t, s, `SELECT COUNT(*) FROM operator_recovery_codes WHERE code_hash LIKE ?`, "%"+strings.ReplaceAll(rc, "-", "")+"%"); n != 0 {
				t.Fatal("a recovery code is stored in the clear")
			}
		}
		// The ticket is single use, even with the next code.
		enrol(e.Ticket, code(c.Now().Add(30*time.Second)), 401, "请重新登录")

		// The session: who, what the menu shows, stepped up by the code.
		res = get(t, s, "/api/admin/session", got.Token, 200, "")
		sess := apitest.Data[struct {
			Account, Name string
			Role          httpx.Role
			ExpiresAt     time.Time
			IdleExpiresAt time.Time
			StepUpUntil   *time.Time
			Sections      []string
		}](t, res)
		if sess.Account != "ops_new" || sess.Role != httpx.RoleContent || strings.Join(sess.Sections, ",") != "dashboard,content,settings" ||
			sess.StepUpUntil == nil || !sess.StepUpUntil.Equal(c.Now().Add(5*time.Minute).Truncate(time.Second)) ||
			!sess.IdleExpiresAt.Equal(c.Now().Add(30*time.Minute).Truncate(time.Second)) || !sess.ExpiresAt.Equal(got.ExpiresAt) {
			t.Fatalf("session %s", res.Envelope.Data)
		}
		// From now on the password alone is not enough: the code is asked
		// for, and a wrong one answers like a wrong password.
		signIn(t, s, "ops_new", "secret12", "", 401, badSignIn)
		signIn(t, s, "ops_new", "secret12", "12345", 401, badSignIn)
		c.Add(30 * time.Second)
		signIn(t, s, "ops_new", "secret12", code(c.Now()), 200, "")
		if n := count(t, s, `SELECT COUNT(*) FROM audit_log WHERE action IN ('operator.enrol', 'operator.signin')`); n != 2 {
			t.Fatalf("%d sign-in audit rows, want 2", n)
		}
	})
}

// A ticket takes five wrong codes, then it is spent; an expired ticket is
// refused; a second ticket of an operator who enrolled meanwhile too.
func TestEnrolTicketLimits(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		c := setClock(s)
		if _, _, err := s.App.Operators.Ensure(context.Background(), cli, "ops_t", httpx.RoleOwner, "secret12"); err != nil {
			t.Fatal(err)
		}
		ticket := func() operator.Enrolment {
			res := apitest.Scenario{Method: "POST", URL: "/api/admin/session", Body: `{"account":"ops_t","passWord":"secret12"}`,
				ExpectedStatus: 428}.Run(t, s.Handler)
			return apitest.Data[struct{ Enrol operator.Enrolment }](t, res).Enrol
		}
		code := func(e operator.Enrolment) string {
			v, _ := operator.Code(e.Secret, c.Now())
			return v
		}
		a := ticket()
		for range 5 {
			post(t, s, "/api/admin/session/enrol", "", fmt.Sprintf(`{"ticket":%q,"code":"000000"}`, a.Ticket), 422, "验证码错误")
		}
		post(t, s, "/api/admin/session/enrol", "", fmt.Sprintf(`{"ticket":%q,"code":%q}`, a.Ticket, code(a)), 401, "请重新登录")

		b := ticket()
		c.Add(operator.TicketTTL)
		post(t, s, "/api/admin/session/enrol", "", fmt.Sprintf(`{"ticket":%q,"code":%q}`, b.Ticket, code(b)), 401, "请重新登录")

		d, e := ticket(), ticket()
		post(t, s, "/api/admin/session/enrol", "", fmt.Sprintf(`{"ticket":%q,"code":%q}`, d.Ticket, code(d)), 200, "")
		c.Add(30 * time.Second)
		post(t, s, "/api/admin/session/enrol", "", fmt.Sprintf(`{"ticket":%q,"code":%q}`, e.Ticket, code(e)), 401, "请重新登录")
		if n := count(t, s, `SELECT COUNT(*) FROM operator_totp`); n != 1 {
			t.Fatalf("%d TOTP rows", n)
		}
	})
}

// TOTP accepts the code of the current step and of each neighbour, not
// two steps away; a code is taken once, and never one of a step before
// the last one used.
func TestTOTPWindowsAndReplay(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		s.App.Operators.Limits.CodeFailures.N = 100 // this test is about the window, not the limit
		c := setClock(s)
		o := s.Operator(t, "ops_w", httpx.RoleOwner) // enrolled at this step
		now := c.Now()
		at := func(d time.Duration) string { return o.Code(t, now.Add(d)) }
		c.Add(5 * time.Minute)
		now = c.Now()
		signIn(t, s, "ops_w", "secret12", at(-60*time.Second), 401, badSignIn)
		signIn(t, s, "ops_w", "secret12", at(60*time.Second), 401, badSignIn)
		signIn(t, s, "ops_w", "secret12", at(-30*time.Second), 200, "")
		signIn(t, s, "ops_w", "secret12", at(-30*time.Second), 401, badSignIn) // replayed
		signIn(t, s, "ops_w", "secret12", at(0), 200, "")
		signIn(t, s, "ops_w", "secret12", at(0), 401, badSignIn)               // replayed
		signIn(t, s, "ops_w", "secret12", at(-30*time.Second), 401, badSignIn) // older than the last used
		signIn(t, s, "ops_w", "secret12", at(30*time.Second), 200, "")
		signIn(t, s, "ops_w", "secret12", at(30*time.Second), 401, badSignIn)
		if n := count(t, s, `SELECT COUNT(*) FROM operator_sessions`); n != 4 { // the enrolment's and three
			t.Fatalf("%d sessions, want 4", n)
		}
	})
}

// Five wrong codes on one operator refuse their codes, even right ones,
// from any address until the window ends; every attempt from one address
// is counted too.
func TestSignInLimits(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		c := setClock(s)
		o := s.Operator(t, "ops_l", httpx.RoleOwner)
		c.Add(time.Minute)
		for range 5 {
			signIn(t, s, "ops_l", "secret12", "000000", 401, badSignIn)
		}
		res := apitest.Scenario{Method: "POST", URL: "/api/admin/session", RemoteAddr: "198.51.100.7:1",
			Body:           fmt.Sprintf(`{"account":"ops_l","passWord":"secret12","code":%q}`, o.Code(t, c.Now())),
			ExpectedStatus: 429, ExpectedTip: "尝试次数过多"}.Run(t, s.Handler)
		if res.Header().Get("Retry-After") == "" {
			t.Fatal("no Retry-After")
		}
		// An address: 20 attempts a minute, whatever they are.
		for i := range 20 {
			apitest.Scenario{Method: "POST", URL: "/api/admin/session", RemoteAddr: "203.0.113.5:1",
				Body: fmt.Sprintf(`{"account":"nobody%d","passWord":"secret12"}`, i), ExpectedStatus: 401}.Run(t, s.Handler)
		}
		apitest.Scenario{Method: "POST", URL: "/api/admin/session", RemoteAddr: "203.0.113.5:1",
			Body: `{"account":"ops_l","passWord":"secret12"}`, ExpectedStatus: 429}.Run(t, s.Handler)
		apitest.Scenario{Method: "POST", URL: "/api/admin/session/enrol", RemoteAddr: "203.0.113.5:1",
			Body: `{"ticket":"pt_x","code":"123456"}`, ExpectedStatus: 429}.Run(t, s.Handler)
	})
}

// A recovery code signs in once in place of a TOTP code, in any case and
// with or without its dash; the others stay good.
func TestRecoveryCodes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		setClock(s)
		o := s.Operator(t, "ops_r", httpx.RoleOwner)
		rc := o.RecoveryCodes
		tok := signIn(t, s, "ops_r", "secret12", strings.ToUpper(rc[0]), 200, "")
		get(t, s, "/api/admin/session", tok, 200, "")
		signIn(t, s, "ops_r", "secret12", rc[0], 401, badSignIn)
		signIn(t, s, "ops_r", "secret12", strings.ReplaceAll(rc[1], "-", ""), 200, "")
		signIn(t, s, "ops_r", "secret12", rc[1], 401, badSignIn)
		signIn(t, s, "ops_r", "secret12", "abcd-efgh", 401, badSignIn)
		if n := count(t, s, `SELECT COUNT(*) FROM operator_recovery_codes WHERE used_at = 0`); n != 8 {
			t.Fatalf("%d unused codes, want 8", n)
		}
		if n := count(t, s, `SELECT COUNT(*) FROM audit_log WHERE action = 'operator.signin' AND after LIKE '%recovery%'`); n != 2 {
			t.Fatalf("%d recovery sign-ins audited", n)
		}
	})
}

// A console session ends 30 minutes after its last request, and 12 hours
// after its sign-in however busy it is.
func TestSessionExpiry(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		c := setClock(s)
		o := s.Operator(t, "ops_e", httpx.RoleOwner)
		c.Add(29 * time.Minute)
		get(t, s, "/api/admin/session", o.Token, 200, "")
		c.Add(29 * time.Minute) // 58 minutes after the sign-in, 29 after the last request
		get(t, s, "/api/admin/modules", o.Token, 200, "")
		c.Add(30 * time.Minute)
		get(t, s, "/api/admin/modules", o.Token, 401, "登录已过期")

		c.Add(time.Minute)
		tok := signIn(t, s, "ops_e", "secret12", o.Code(t, c.Now()), 200, "")
		for range 35 { // a request every 20 minutes
			c.Add(20 * time.Minute)
			get(t, s, "/api/admin/session", tok, 200, "")
		}
		c.Add(20 * time.Minute) // 12 h after the sign-in
		get(t, s, "/api/admin/session", tok, 401, "登录已过期")
	})
}

// Sign-out ends the session; the sessions list shows an owner everyone's
// and anyone else their own; an owner revokes anyone's, others only
// their own.
func TestSessionsListedAndRevoked(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		c := setClock(s)
		own := s.Operator(t, "ops_owner", httpx.RoleOwner)
		con := s.Operator(t, "ops_content", httpx.RoleContent)
		c.Add(time.Minute)
		con2 := signIn(t, s, "ops_content", "secret12", con.Code(t, c.Now()), 200, "")

		type row struct {
			ID      int64
			Account string
			Role    httpx.Role
			Current bool
		}
		list := func(tok string) []row {
			return apitest.Data[struct{ List []row }](t, get(t, s, "/api/admin/sessions", tok, 200, "")).List
		}
		if l := list(own.Token); len(l) != 3 || !l[2].Current || l[2].Account != "ops_owner" || l[0].Account != "ops_content" || l[0].Current {
			t.Fatalf("the owner's list %+v", l)
		}
		l := list(con.Token)
		if len(l) != 2 || l[0].Current || !l[1].Current || l[0].Role != httpx.RoleContent {
			t.Fatalf("the content operator's list %+v", l)
		}
		ownerSession := list(own.Token)[2].ID
		post(t, s, "/api/admin/sessions/revoke", con.Token, fmt.Sprintf(`{"id":%d}`, ownerSession), 404, "会话不存在")
		post(t, s, "/api/admin/sessions/revoke", con.Token, `{"id":0}`, 422, "")
		post(t, s, "/api/admin/sessions/revoke", con.Token, `{"id":987654}`, 404, "")
		res := post(t, s, "/api/admin/sessions/revoke", own.Token, fmt.Sprintf(`{"id":%d}`, l[0].ID), 200, "")
		if string(res.Envelope.Data) != `{"revoked":true}` {
			t.Fatalf("revoke: %s", res.Envelope.Data)
		}
		get(t, s, "/api/admin/session", con2, 401, "登录已过期")
		res = post(t, s, "/api/admin/sessions/revoke", con.Token, fmt.Sprintf(`{"id":%d}`, l[0].ID), 200, "")
		if string(res.Envelope.Data) != `{"revoked":false}` {
			t.Fatalf("revoke again: %s", res.Envelope.Data)
		}
		// Sign-out: this session only.
		apitest.Scenario{Method: "DELETE", URL: "/api/admin/session", Token: con.Token, ExpectedStatus: 200}.Run(t, s.Handler)
		get(t, s, "/api/admin/session", con.Token, 401, "登录已过期")
		get(t, s, "/api/admin/session", own.Token, 200, "")
		if n := count(t, s, `SELECT COUNT(*) FROM audit_log WHERE action IN ('operator.session.revoke', 'operator.signout')`); n != 2 {
			t.Fatalf("%d audit rows", n)
		}
	})
}

// PRIMA_ADMIN_ALLOW: an address outside it gets 403 from every /api/admin
// call, the sign-in and unknown paths too; inside it the console works;
// the phone app is not concerned.
func TestAdminAllowList(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		setClock(s)
		inside := "10.1.2.3:1"
		if _, _, err := s.App.Operators.Ensure(context.Background(), cli, "ops_a", httpx.RoleOwner, "secret12"); err != nil {
			t.Fatal(err)
		}
		for _, c := range []apitest.Scenario{
			{Method: "POST", URL: "/api/admin/session", Body: `{"account":"ops_a","passWord":"secret12"}`},
			{Method: "POST", URL: "/api/admin/session/enrol", Body: `{"ticket":"pt_x","code":"123456"}`},
			{URL: "/api/admin/modules"},
			{URL: "/api/admin/no/such"},
		} {
			c.ExpectedStatus, c.ExpectedTip = 403, "当前网络不允许访问管理后台"
			c.Run(t, s.Handler)
		}
		if n := count(t, s, `SELECT COUNT(*) FROM operator_enrol_tickets`); n != 0 {
			t.Fatal("a refused address got a ticket")
		}
		apitest.Scenario{Method: "POST", URL: "/api/admin/session", RemoteAddr: inside, Body: `{"account":"ops_a","passWord":"secret12"}`,
			ExpectedStatus: 428}.Run(t, s.Handler)
		apitest.Scenario{URL: "/api/admin/modules", RemoteAddr: "10.1.200.1:1", ExpectedStatus: 401, ExpectedTip: "请先登录"}.Run(t, s.Handler)
		apitest.Scenario{URL: "/api/app/modules/list", ExpectedStatus: 200}.Run(t, s.Handler)
	}, "-admin-allow", "10.1.0.0/16, 2001:db8::1")
}

var cli = audit.Actor{UID: audit.CLI}

func register(t *testing.T, s *apptest.Server, account, password string) {
	t.Helper()
	apitest.Scenario{Method: "POST", URL: "/api/app/mine/register", Body: fmt.Sprintf(`{"account":%q,"passWord":%q}`, account, password),
		ExpectedStatus: 200}.Run(t, s.Handler)
}

// Step-up: a code entered at sign-in lets step-up routes through for 5
// minutes; then they answer 403 {stepUp: true} until POST
// /api/admin/session/stepup takes a fresh code (TOTP or recovery, each
// once), which the session shows as stepUpUntil.
func TestStepUp(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		c := setClock(s)
		o := s.Operator(t, "ops_s", httpx.RoleOwner)
		_, kateUID := registerUID(t, s, "kate_s")
		setRole := func(role string, status int, tip string) *apitest.Response {
			t.Helper()
			return post(t, s, "/api/admin/operators/role", o.Token, fmt.Sprintf(`{"uid":%d,"role":%q}`, kateUID, role), status, tip)
		}
		setRole("support", 200, "")
		c.Add(operator.StepUpFor)
		res := setRole("finance", 403, "请输入动态验证码以继续")
		if string(res.Envelope.Data) != `{"stepUp":true}` {
			t.Fatalf("step-up answer %s", res.Body)
		}
		if n := count(t, s, `SELECT COUNT(*) FROM operators WHERE uid = ? AND role = 'support'`, kateUID); n != 1 {
			t.Fatal("a call without step-up changed the role")
		}
		sess := func() *time.Time {
			return apitest.Data[struct{ StepUpUntil *time.Time }](t, get(t, s, "/api/admin/session", o.Token, 200, "")).StepUpUntil
		}
		if sess() != nil {
			t.Fatal("stepUpUntil shown after it ended")
		}
		// Calls without step-up go on as before.
		get(t, s, "/api/admin/operators", o.Token, 200, "")

		stepUp := func(code string, status int, tip string) {
			t.Helper()
			post(t, s, "/api/admin/session/stepup", o.Token, fmt.Sprintf(`{"code":%q}`, code), status, tip)
		}
		stepUp("000000", 422, "验证码错误")
		stepUp("", 422, "验证码错误")
		stepUp(o.Code(t, c.Now().Add(-5*time.Minute)), 422, "验证码错误") // the sign-in's, long gone
		stepUp(o.Code(t, c.Now()), 200, "")
		if u := sess(); u == nil || !u.Equal(c.Now().Add(operator.StepUpFor).Truncate(time.Second)) {
			t.Fatalf("stepUpUntil %v", u)
		}
		setRole("finance", 200, "")
		stepUp(o.Code(t, c.Now()), 422, "验证码错误") // the same code twice
		c.Add(operator.StepUpFor + time.Second)
		setRole("content", 403, "请输入动态验证码")
		stepUp(o.RecoveryCodes[3], 200, "")
		setRole("content", 200, "")
		stepUp(o.RecoveryCodes[3], 422, "验证码错误")
		if n := count(t, s, `SELECT COUNT(*) FROM audit_log WHERE action = 'operator.stepup'`); n != 2 {
			t.Fatalf("%d step-up audit rows", n)
		}
		// Five wrong codes so far (sign-in and step-up count together):
		// the next is refused outright, a right one too.
		stepUp(o.Code(t, c.Now().Add(30*time.Second)), 429, "尝试次数过多")
	})
}

// Operators made, re-roled and reset from the console (owner, step-up):
// a new account gets a generated password shown once, with which it signs
// in and enrols; a registered account is promoted and keeps its own;
// reset-totp makes the next sign-in enrol again; the last owner stays.
func TestManageOperators(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		c := setClock(s)
		o := s.Operator(t, "ops_m", httpx.RoleOwner)
		res := post(t, s, "/api/admin/operators", o.Token, `{"account":"new_mod","role":"moderator"}`, 200, "")
		made := apitest.Data[struct {
			Operator operator.Operator
			Password *string
		}](t, res)
		if made.Password == nil || len(*made.Password) != 16 || made.Operator.Role != httpx.RoleModerator || made.Operator.TOTP || made.Operator.Account != "new_mod" {
			t.Fatalf("made %s", res.Body)
		}
		apitest.Scenario{Method: "POST", URL: "/api/admin/session", Body: fmt.Sprintf(`{"account":"new_mod","passWord":%q}`, *made.Password),
			ExpectedStatus: 428}.Run(t, s.Handler)
		post(t, s, "/api/admin/operators", o.Token, `{"account":"new_mod","role":"content"}`, 409, "已是运营人员")
		post(t, s, "/api/admin/operators", o.Token, `{"account":"new_mod2","role":"admin"}`, 422, "角色无效")
		post(t, s, "/api/admin/operators", o.Token, `{"account":"x","role":"content"}`, 422, "")
		post(t, s, "/api/admin/operators", o.Token, `{"role":"content"}`, 422, "请输入账号")
		register(t, s, "reg_user", "pass123")
		res = post(t, s, "/api/admin/operators", o.Token, `{"account":"reg_user","role":"support"}`, 200, "")
		if !strings.Contains(string(res.Envelope.Data), `"password":null`) {
			t.Fatalf("promoted %s", res.Envelope.Data)
		}
		signIn(t, s, "reg_user", "pass123", "", 428, "")

		list := apitest.Data[struct{ List []operator.Operator }](t, get(t, s, "/api/admin/operators", o.Token, 200, "")).List
		if len(list) != 3 || list[0].Account != "ops_m" || !list[0].TOTP || list[1].Role != httpx.RoleModerator || list[2].Role != httpx.RoleSupport {
			t.Fatalf("operators %+v", list)
		}

		// reset-totp: sessions end, the next sign-in enrols.
		c.Add(time.Minute)
		tok := signIn(t, s, "ops_m", "secret12", o.Code(t, c.Now()), 200, "")
		o2 := s.Operator(t, "ops_m2", httpx.RoleOwner)
		post(t, s, "/api/admin/operators/reset-totp", o2.Token, fmt.Sprintf(`{"uid":%d}`, o.UID), 200, "")
		get(t, s, "/api/admin/session", tok, 401, "登录已过期")
		get(t, s, "/api/admin/session", o.Token, 401, "登录已过期")
		signIn(t, s, "ops_m", "secret12", o.Code(t, c.Now().Add(30*time.Second)), 428, "")
		post(t, s, "/api/admin/operators/reset-totp", o2.Token, `{"uid":987654}`, 404, "运营人员不存在")

		// The last owner: ops_m2 may not leave while alone.
		post(t, s, "/api/admin/operators/role", o2.Token, fmt.Sprintf(`{"uid":%d,"role":"user"}`, o.UID), 200, "")
		post(t, s, "/api/admin/operators/role", o2.Token, fmt.Sprintf(`{"uid":%d,"role":"support"}`, o2.UID), 409, "最后一位")
		if n := count(t, s, `SELECT COUNT(*) FROM operators WHERE role = 'owner'`); n != 1 {
			t.Fatalf("%d owners", n)
		}
		// ops_m is a plain user again: the console refuses the password.
		signIn(t, s, "ops_m", "secret12", "", 401, badSignIn)
	})
}

// Two owners taking each other out of the console at once: one wins, an
// owner is left, on both engines.
func TestOwnersDemotingEachOther(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		setClock(s)
		a := s.Operator(t, "owner_a", httpx.RoleOwner)
		b := s.Operator(t, "owner_b", httpx.RoleOwner)
		var wg sync.WaitGroup
		codes := make([]int, 2)
		for i, pair := range [][2]*apptest.Operator{{a, b}, {b, a}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res := apitest.Scenario{Method: "POST", URL: "/api/admin/operators/role", Token: pair[0].Token,
					Body: fmt.Sprintf(`{"uid":%d,"role":"content"}`, pair[1].UID)}.Send(t, s.Handler)
				codes[i] = res.Code
			}()
		}
		wg.Wait()
		if n := count(t, s, `SELECT COUNT(*) FROM operators WHERE role = 'owner'`); n != 1 {
			t.Fatalf("%d owners left (answers %v)", n, codes)
		}
	})
}

// registerUID registers account and answers its phone-app token and uid.
func registerUID(t *testing.T, s *apptest.Server, account string) (string, int64) {
	t.Helper()
	res := apitest.Scenario{Method: "POST", URL: "/api/app/mine/register", Body: fmt.Sprintf(`{"account":%q,"passWord":"secret12"}`, account),
		ExpectedStatus: 200}.Run(t, s.Handler)
	d := apitest.Data[struct {
		Token string
		User  struct{ UID int64 }
	}](t, res)
	return d.Token, d.User.UID
}

// API keys: issued for an operator with a lifetime, shown once and kept
// hashed; a key acts with its operator's role as it is now, never on
// step-up or session-only calls; every use is audited, refused ones too;
// it ends at its expiry, when revoked (by its operator or an owner), and
// when its operator leaves the console.
func TestAPIKeys(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		ctx := context.Background()
		c := setClock(s)
		owner := s.Operator(t, "ops_k", httpx.RoleOwner)
		con := s.Operator(t, "ops_kc", httpx.RoleContent)
		key, k, err := s.App.Operators.IssueKey(ctx, cli, con.UID, 24*time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(key, "pk_") || k.Prefix != key[:8] || k.Role != httpx.RoleContent || k.Account != "ops_kc" ||
			!k.ExpiresAt.Equal(c.Now().Add(24*time.Hour).Truncate(time.Second)) || k.LastUsedAt != nil || k.RevokedAt != nil {
			t.Fatalf("key %s %+v", key, k)
		}
		if n := count(t, s, `SELECT COUNT(*) FROM operator_api_keys WHERE key_hash = ? OR prefix <> ?`, key, key[:8]); n != 0 {
			t.Fatal("the key is stored in the clear")
		}
		for _, ttl := range []time.Duration{0, 30 * time.Second, 91 * 24 * time.Hour} {
			if _, _, err := s.App.Operators.IssueKey(ctx, cli, con.UID, ttl); !errors.Is(err, operator.ErrKeyTTL) {
				t.Errorf("ttl %v: %v", ttl, err)
			}
		}
		if _, _, err := s.App.Operators.IssueKey(ctx, cli, 987654, time.Hour); !errors.Is(err, operator.ErrNoOperator) {
			t.Errorf("a key for nobody: %v", err)
		}

		uses := func() int {
			return count(t, s, `SELECT COUNT(*) FROM audit_log WHERE action = 'apikey.use' AND target_id = ?`, fmt.Sprint(k.ID))
		}
		get(t, s, "/api/admin/modules", key, 200, "")
		post(t, s, "/api/admin/modules", key, `{"name":"脚本栏目","moduleType":0}`, 200, "")
		if n := count(t, s, `SELECT COUNT(*) FROM audit_log WHERE action = 'module.create' AND actor_uid = ?`, con.UID); n != 1 {
			t.Fatal("the key's change is not its operator's")
		}
		get(t, s, "/api/admin/wallet?uid=1", key, 403, "没有权限")
		post(t, s, "/api/admin/source", key, `{"key":"GROUP","entries":[]}`, 403, "API 密钥不能")
		post(t, s, "/api/admin/session/stepup", key, `{"code":"123456"}`, 403, "API 密钥不能")
		apitest.Scenario{Method: "DELETE", URL: "/api/admin/session", Token: key, ExpectedStatus: 403}.Run(t, s.Handler)
		res := get(t, s, "/api/admin/session", key, 200, "")
		if d := apitest.Data[struct {
			Account     string
			Role        httpx.Role
			StepUpUntil *time.Time
		}](t, res); d.Account != "ops_kc" || d.Role != httpx.RoleContent || d.StepUpUntil != nil {
			t.Fatalf("the key's session %s", res.Envelope.Data)
		}
		if n := uses(); n != 7 {
			t.Fatalf("%d uses audited, want 7", n)
		}
		if n := count(t, s, `SELECT COUNT(*) FROM audit_log WHERE action = 'apikey.use' AND after LIKE '%"allowed":false%' AND after LIKE '%/api/admin/wallet%'`); n != 1 {
			t.Fatal("the refused use is not audited as refused")
		}
		if n := count(t, s, `SELECT COUNT(*) FROM operator_api_keys WHERE last_used_at = ?`, c.Now().Unix()); n != 1 {
			t.Fatal("last use not recorded")
		}

		// The role is read at each use.
		post(t, s, "/api/admin/operators/role", owner.Token, fmt.Sprintf(`{"uid":%d,"role":"finance"}`, con.UID), 200, "")
		get(t, s, "/api/admin/modules", key, 403, "没有权限")
		get(t, s, "/api/admin/wallet?uid=1", key, 200, "")

		// Listing and revoking: own keys for anyone, all for an owner.
		key2, k2, _ := s.App.Operators.IssueKey(ctx, cli, owner.UID, time.Hour)
		list := func(tok string) []operator.Key {
			return apitest.Data[struct{ List []operator.Key }](t, get(t, s, "/api/admin/keys", tok, 200, "")).List
		}
		if l := list(owner.Token); len(l) != 2 || l[0].ID != k2.ID || l[1].LastUsedAt == nil {
			t.Fatalf("the owner's keys %+v", l)
		}
		if l := list(con.Token); len(l) != 1 || l[0].ID != k.ID {
			t.Fatalf("own keys %+v", l)
		}
		post(t, s, "/api/admin/keys/revoke", con.Token, fmt.Sprintf(`{"id":%d}`, k2.ID), 404, "")
		get(t, s, "/api/admin/session", key2, 200, "")
		res = post(t, s, "/api/admin/keys/revoke", con.Token, fmt.Sprintf(`{"id":%d}`, k.ID), 200, "")
		if string(res.Envelope.Data) != `{"revoked":true}` {
			t.Fatalf("revoke %s", res.Envelope.Data)
		}
		get(t, s, "/api/admin/session", key, 401, "登录已过期")
		if l := list(owner.Token); l[1].RevokedAt == nil {
			t.Fatal("revokedAt not shown")
		}
		if res := post(t, s, "/api/admin/keys/revoke", owner.Token, fmt.Sprintf(`{"id":%d}`, k.ID), 200, ""); string(res.Envelope.Data) != `{"revoked":false}` {
			t.Fatalf("revoke again %s", res.Envelope.Data)
		}

		// Expiry, and an operator leaving the console.
		key3, _, _ := s.App.Operators.IssueKey(ctx, cli, owner.UID, time.Hour)
		c.Add(time.Hour)
		get(t, s, "/api/admin/session", key3, 401, "登录已过期")
		key4, _, _ := s.App.Operators.IssueKey(ctx, cli, con.UID, time.Hour)
		get(t, s, "/api/admin/session", key4, 200, "")
		owner2 := s.Operator(t, "ops_k2", httpx.RoleOwner)
		post(t, s, "/api/admin/operators/role", owner2.Token, fmt.Sprintf(`{"uid":%d,"role":"user"}`, con.UID), 200, "")
		get(t, s, "/api/admin/session", key4, 401, "登录已过期")
		if n := count(t, s, `SELECT COUNT(*) FROM operator_api_keys WHERE uid = ? AND revoked_at = 0`, con.UID); n != 0 {
			t.Fatalf("%d keys of a former operator live", n)
		}
		get(t, s, "/api/admin/session", "pk_garbage", 401, "登录已过期")
	})
}
