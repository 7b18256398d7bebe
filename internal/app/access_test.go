package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
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

// accessClock is the operator service's clock in the access test, moved
// past the step-up window.
type accessClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *accessClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *accessClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// policy is who may call each /api/admin route, written out apart from
// the route table so that the table test holds the route table to it: the
// console roles besides owner (owner may call everything), and "public"
// (no credential: the sign-in), "session" (a console session, not an API
// key), "stepup" (a code entered in the last 5 minutes). A route added to
// the table needs its line here, or TestEveryAdminRouteNamesItsRoles fails.
var policy = map[string]string{
	"POST /api/admin/session":               "public",
	"POST /api/admin/session/enrol":         "public",
	"GET /api/admin/session":                "content moderator finance support",
	"DELETE /api/admin/session":             "content moderator finance support session",
	"POST /api/admin/session/stepup":        "content moderator finance support session",
	"GET /api/admin/sessions":               "content moderator finance support",
	"POST /api/admin/sessions/revoke":       "content moderator finance support",
	"GET /api/admin/keys":                   "content moderator finance support",
	"POST /api/admin/keys/revoke":           "content moderator finance support",
	"GET /api/admin/operators":              "",
	"POST /api/admin/operators":             "stepup",
	"POST /api/admin/operators/role":        "stepup",
	"POST /api/admin/operators/reset-totp":  "stepup",
	"GET /api/admin/users":                  "moderator finance support",
	"POST /api/admin/users/sessions/revoke": "moderator support",
	"GET /api/admin/audit":                  "",
	"GET /api/admin/audit.csv":              "",
	"GET /api/admin/rewards/invite":         "finance",
	"POST /api/admin/rewards/invite":        "finance stepup",
	"GET /api/admin/commission/config":      "finance",
	"POST /api/admin/commission/config":     "finance stepup",
	"GET /api/admin/promoters":              "finance",
	"POST /api/admin/promoters/decide":      "finance",
	"GET /api/admin/invites":                "finance",
	"POST /api/admin/coupons/grant":         "finance stepup",
	"GET /api/admin/media":                  "content",
	"POST /api/admin/videos/media":          "content",
	"POST /api/admin/galleries":             "content",
	"POST /api/admin/galleries/update":      "content",
	"POST /api/admin/galleries/publish":     "content",
	"POST /api/admin/galleries/images":      "content",
	"GET /api/admin/galleries/info":         "content",
	"GET /api/admin/modules":                "content",
	"POST /api/admin/modules":               "content",
	"POST /api/admin/modules/update":        "content",
	"POST /api/admin/modules/delete":        "content",
	"GET /api/admin/videos":                 "content",
	"POST /api/admin/modules/order":         "content",
	"POST /api/admin/videos/bulk":           "content",
	"POST /api/admin/media/upload":          "content",
	"GET /api/admin/videos/info":            "content",
	"POST /api/admin/videos":                "content",
	"POST /api/admin/videos/update":         "content",
	"POST /api/admin/videos/tags":           "content",
	"POST /api/admin/videos/publish":        "content",
	"POST /api/admin/videos/delete":         "content",
	"GET /api/admin/tags":                   "content",
	"POST /api/admin/tags":                  "content",
	"POST /api/admin/tags/update":           "content",
	"POST /api/admin/tags/delete":           "content",
	"GET /api/admin/lines":                  "content",
	"POST /api/admin/lines":                 "content stepup",
	"GET /api/admin/reports":                "content finance support",
	"GET /api/admin/wallet":                 "finance support",
	"POST /api/admin/wallet/adjust":         "finance stepup",
	"GET /api/admin/vip/products":           "finance",
	"POST /api/admin/vip/products":          "finance",
	"GET /api/admin/withdrawals":            "finance",
	"POST /api/admin/withdrawals/approve":   "finance stepup",
	"POST /api/admin/withdrawals/reject":    "finance",
	"GET /api/admin/orders":                 "finance support",
	"GET /api/admin/orders/callbacks":       "finance support",
	"POST /api/admin/orders/paid":           "finance stepup",
	"POST /api/admin/orders/refund":         "finance stepup",
	"GET /api/admin/currencys":              "finance",
	"POST /api/admin/currencys":             "finance",
	"GET /api/admin/source":                 "content",
	"POST /api/admin/source":                "content stepup",
	"GET /api/admin/preview":                "content",
	"POST /api/admin/preview":               "content stepup",
	"GET /api/admin/apps/clicks":            "content",
	// issue 21: money
	"GET /api/admin/withdrawals/risk":      "finance",
	"GET /api/admin/withdrawals/settings":  "finance",
	"POST /api/admin/withdrawals/settings": "stepup",
	// issue 20: catalog
	"GET /api/admin/announcements":              "content",
	"POST /api/admin/announcements":             "content",
	"POST /api/admin/announcements/delete":      "content",
	"GET /api/admin/ads":                        "content",
	"POST /api/admin/ads":                       "content",
	"POST /api/admin/ads/delete":                "content",
	"GET /api/admin/presale":                    "content",
	"POST /api/admin/presale":                   "content",
	"POST /api/admin/presale/delete":            "content",
	"GET /api/admin/galleries":                  "content",
	"GET /api/admin/feedback":                   "support",
	"POST /api/admin/feedback/reply":            "support",
	"GET /api/admin/settled":                    "support",
	"POST /api/admin/settled/approve":           "support",
	"POST /api/admin/settled/reject":            "support",
	"GET /api/admin/message/reports":            "moderator",
	"GET /api/admin/rewards/checkin":            "finance",
	"POST /api/admin/rewards/checkin":           "finance",
	"GET /api/admin/rewards/tasks":              "finance",
	"POST /api/admin/rewards/tasks":             "finance",
	"GET /api/admin/rewards/prizes":             "finance",
	"POST /api/admin/rewards/prizes":            "finance",
	"POST /api/admin/codes/batches":             "finance stepup",
	"GET /api/admin/codes/batches":              "finance",
	"POST /api/admin/codes/batches/disable":     "finance",
	"GET /api/admin/community/posts":            "moderator",
	"POST /api/admin/community/posts/review":    "moderator",
	"POST /api/admin/community/posts/pin":       "moderator",
	"POST /api/admin/community/posts/feature":   "moderator",
	"POST /api/admin/community/posts/remove":    "moderator",
	"GET /api/admin/community/comments":         "moderator",
	"POST /api/admin/community/comments/remove": "moderator",
	"GET /api/admin/community/reports":          "moderator",
	"POST /api/admin/community/reports/resolve": "moderator",
	"POST /api/admin/community/mute":            "moderator",
	"GET /api/admin/community/settings":         "moderator",
	"POST /api/admin/community/settings":        "moderator",
	"GET /api/admin/community/topics":           "moderator",
	"POST /api/admin/community/topics":          "moderator",
	"POST /api/admin/community/topics/update":   "moderator",
	"GET /api/admin/search/pins":                "content",
	"POST /api/admin/search/pins":               "content",
	"GET /api/admin/users/search":               "moderator finance support",
	"GET /api/admin/users/detail":               "moderator finance support",
	"POST /api/admin/users/ban":                 "moderator support",
	"POST /api/admin/users/mute":                "moderator support",
	"/api/admin/":                               "content moderator finance support",
	// issue 20: moderation
	"GET /api/admin/videos/reports":           "moderator",
	"POST /api/admin/videos/reports/resolve":  "moderator",
	"POST /api/admin/message/reports/resolve": "moderator",
	"GET /api/admin/moderation/words":         "moderator",
	"POST /api/admin/moderation/words":        "moderator",
	// issue 21: finance
	"GET /api/admin/providers":      "finance",
	"POST /api/admin/providers":     "finance stepup",
	"GET /api/admin/reconciliation": "finance",
	"POST /api/admin/wallet/check":  "finance",
	// issue 21: growth
	"GET /api/admin/invites/list": "finance",
	// issue 22: backups
	"GET /api/admin/backups":  "",
	"POST /api/admin/backups": "stepup",
	// issue 21: stats
	"GET /api/admin/stats/daily":   "finance",
	"GET /api/admin/stats/top":     "finance",
	"POST /api/admin/stats/rollup": "finance",
}

type rule struct {
	roles                   map[httpx.Role]bool
	public, session, stepUp bool
}

func policyOf(pattern string) (rule, bool) {
	v, ok := policy[pattern]
	r := rule{roles: map[httpx.Role]bool{httpx.RoleOwner: true}}
	for _, w := range strings.Fields(v) {
		switch w {
		case "public":
			r.public = true
		case "session":
			r.session = true
		case "stepup":
			r.stepUp, r.session = true, true
		default:
			r.roles[httpx.Role(w)] = true
		}
	}
	return r, ok
}

// caller is who calls a route in the access table: a console role, a
// phone-app token, or nobody.
type caller struct {
	name  string
	token string
	role  httpx.Role // a console role; "" for the others
}

// TestEveryAdminRouteNamesItsRoles calls every /api/admin route of the
// route table (as mounted: the list comes from the router, so a route
// added without its roles cannot be missed; each must agree with policy)
// as every console role, the
// operator's own phone-app token, a registered user, a guest, a garbage
// token and nobody, on both engines:
//   - nobody, garbage and every phone-app token: 401, nothing changed;
//   - a role the route does not name: 403 "没有权限", nothing changed;
//   - a role it names: the handler answers, as it answers the owner;
//   - a step-up route without a code in the last 5 minutes: 403 with
//     data {stepUp: true}, nothing changed; after POST
//     /api/admin/session/stepup it answers again;
//   - an API key (a content operator's): its role's routes as the role,
//     but 403 on step-up and session-only routes; every call audited.
func TestEveryAdminRouteNamesItsRoles(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		ctx := context.Background()
		clock := &accessClock{now: time.Now()}
		s.App.Operators.SetClock(clock.Now)
		routes := s.App.AdminRoutes()

		// Every /api/admin pattern of the API table went through op.
		named := map[string]bool{}
		for _, r := range routes {
			named[r.Pattern] = true
		}
		admin := 0
		for _, p := range s.App.APIPatterns() {
			if strings.Contains(p, "/api/admin") {
				admin++
				if !named[p] {
					t.Errorf("%s is mounted without naming its roles (use op(access, pattern, handler))", p)
				}
			}
		}
		if admin != len(routes) || len(routes) < 80 {
			t.Fatalf("%d admin patterns in the table, %d named by op", admin, len(routes))
		}
		rules := map[string]rule{}
		for _, r := range routes {
			p, ok := policyOf(r.Pattern)
			if !ok {
				t.Errorf("%s has no line in policy (access_test.go): say who may call it", r.Pattern)
				continue
			}
			rules[r.Pattern] = p
			var want []httpx.Role
			for _, role := range httpx.ConsoleRoles {
				if p.roles[role] && !p.public {
					want = append(want, role)
				}
			}
			if !p.public && !slices.Equal(r.Access.Roles(), want) || r.Access.IsPublic() != p.public ||
				r.Access.NeedsStepUp() != p.stepUp || r.Access.SessionsOnly() != p.session {
				t.Errorf("%s: the route table says roles %v public %v step-up %v sessions only %v; the policy %q",
					r.Pattern, r.Access.Roles(), r.Access.IsPublic(), r.Access.NeedsStepUp(), r.Access.SessionsOnly(), policy[r.Pattern])
			}
		}
		for p := range policy {
			if !named[p] {
				t.Errorf("policy names %s, which the route table does not mount", p)
			}
		}
		if t.Failed() {
			t.FailNow()
		}

		ops := map[httpx.Role]*apptest.Operator{}
		for _, r := range httpx.ConsoleRoles {
			ops[r] = s.Operator(t, "ops_"+string(r), r)
		}
		opApp := phoneLogin(t, s, "ops_owner", apptest.OperatorPassword)
		user, userUID := register(t, s, "access_user")
		guest := apitest.GuestLogin(t, s.Handler, apitest.DevID(7))
		refused := []caller{{"nobody", "", ""}, {"garbage", "garbage-token", ""}, {"a guest", guest, ""},
			{"a user", user, ""}, {"the operator's phone-app token", opApp, ""}}
		var roles []caller
		for _, r := range httpx.ConsoleRoles {
			roles = append(roles, caller{string(r), ops[r].Token, r})
		}
		// A content operator's API key: the role's routes, but no step-up
		// and no session calls; every use audited.
		keyToken, _, err := s.App.Operators.IssueKey(ctx, audit.Actor{UID: audit.CLI}, ops[httpx.RoleContent].UID, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		key := caller{"a content API key", keyToken, httpx.RoleContent}
		keyUses := 0
		keyAudit := func() int {
			t.Helper()
			var n int
			if err := s.App.DB.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE action = 'apikey.use'`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}

		// Bodies that would be valid for some routes that change things, so
		// a gate that let one through would show in the fingerprint.
		valid := map[string]string{
			"POST /api/admin/modules":                 `{"name":"拒绝","moduleType":0}`,
			"POST /api/admin/tags":                    `{"name":"拒绝"}`,
			"POST /api/admin/community/topics":        `{"name":"拒绝"}`,
			"POST /api/admin/operators":               `{"account":"sneaky_op","role":"owner"}`,
			"POST /api/admin/operators/role":          fmt.Sprintf(`{"uid":%d,"role":"owner"}`, userUID),
			"POST /api/admin/operators/reset-totp":    fmt.Sprintf(`{"uid":%d}`, ops[httpx.RoleContent].UID),
			"POST /api/admin/wallet/adjust":           fmt.Sprintf(`{"uid":%d,"account":"coins","amount":100,"reason":"x","idempotencyKey":"access-0001"}`, userUID),
			"POST /api/admin/coupons/grant":           fmt.Sprintf(`{"uid":%d,"count":1,"days":7,"reason":"x","idempotencyKey":"access-0002"}`, userUID),
			"POST /api/admin/codes/batches":           `{"name":"拒绝","reward":{"coins":1},"count":1,"usesPerCode":1}`,
			"POST /api/admin/search/pins":             `{"words":["拒绝"]}`,
			"POST /api/admin/lines":                   `{"api":["https://a.example.org"]}`,
			"POST /api/admin/users/sessions/revoke":   fmt.Sprintf(`{"uid":%d}`, userUID),
			"POST /api/admin/users/ban":               fmt.Sprintf(`{"uid":%d,"minutes":60,"reason":"拒绝"}`, userUID),
			"POST /api/admin/users/mute":              fmt.Sprintf(`{"uid":%d,"minutes":60,"reason":"拒绝"}`, userUID),
			"POST /api/admin/community/settings":      `{"review":true,"rules":"拒绝"}`,
			"POST /api/admin/rewards/invite":          `{"rewardCoins":10,"windowDays":7,"dailyCap":5}`,
			"POST /api/admin/preview":                 `{"maxSeconds":60}`,
			"POST /api/admin/commission/config":       `{"levels":[0],"promoterLevels":[0],"settleDays":0,"creatorShareBps":0,"inviteReward":"payment"}`,
			"POST /api/admin/session/stepup":          `{"code":"000000"}`,
			"POST /api/admin/currencys":               `{"name":"拒绝","coins":1,"price":1}`,
			"POST /api/admin/vip/products":            `{"level":1,"name":"拒绝","days":1,"price":1}`,
			"POST /api/admin/withdrawals/settings":    `{"twoPersonAbove":1}`,
			"POST /api/admin/community/topics/update": `{"id":1,"name":"拒绝"}`,
			"POST /api/admin/announcements":           `{"title":"拒绝"}`,
			"POST /api/admin/ads":                     `{"position":"home_banner","image":"https://a.example/x.jpg"}`,
			"POST /api/admin/presale":                 `{"type":1,"status":1,"url":"https://a.example/x.jpg"}`,
		}
		fingerprint := func() string {
			var f string
			err := s.App.DB.QueryRow(ctx, `SELECT
				(SELECT COUNT(*) FROM audit_log WHERE action <> 'apikey.use') || '/' || (SELECT COUNT(*) FROM modules) || '/' || (SELECT COUNT(*) FROM tags) || '/' ||
				(SELECT COUNT(*) FROM topics) || '/' || (SELECT COUNT(*) FROM operators) || '/' || (SELECT COUNT(*) FROM operator_totp) || '/' ||
				(SELECT COUNT(*) FROM operator_sessions WHERE revoked_at <> 0) || '/' || (SELECT COUNT(*) FROM ledger_txns) || '/' ||
				(SELECT COUNT(*) FROM user_coupons) || '/' || (SELECT COUNT(*) FROM code_batches) || '/' || (SELECT COUNT(*) FROM search_pins) || '/' ||
				(SELECT COUNT(*) FROM delivery_lines) || '/' || (SELECT COUNT(*) FROM sessions WHERE revoked_at <> 0) || '/' ||
				(SELECT COUNT(*) FROM community_settings WHERE review <> 0) || '/' || (SELECT COUNT(*) FROM users WHERE role = 'operator') || '/' || (SELECT COUNT(*) FROM audit_log WHERE action = 'commission.config')`).Scan(&f)
			if err != nil {
				t.Fatal(err)
			}
			return f
		}
		sent := 0
		send := func(r operator.Route, c caller, body string) *apitest.Response {
			t.Helper()
			sent++ // each call from its own address: the sign-in limits count per address
			if c.token == keyToken {
				keyUses++
			}
			method, path, ok := strings.Cut(r.Pattern, " ")
			if !ok { // the catch-all "/api/admin/": any method, any path
				method, path = "GET", r.Pattern+"no/such/call"
			}
			if body == "" && method == "POST" {
				body = "{}"
			}
			// Served directly: the CSV export answers text, not an envelope.
			req := apitest.Scenario{Method: method, URL: path, Token: c.token, Body: body,
				RemoteAddr: fmt.Sprintf("10.9.%d.%d:1", sent/250, sent%250)}.Request()
			res := &apitest.Response{ResponseRecorder: httptest.NewRecorder()}
			s.Handler.ServeHTTP(res.ResponseRecorder, req)
			if strings.HasPrefix(res.Header().Get("Content-Type"), "application/json") {
				if err := json.Unmarshal(res.Body.Bytes(), &res.Envelope); err != nil {
					t.Fatalf("%s %s: %v", method, path, err)
				}
			} else if res.Code != 200 || !strings.HasSuffix(path, ".csv") {
				t.Fatalf("%s %s: %d, not an envelope: %s", method, path, res.Code, res.Body)
			}
			return res
		}

		// Refusals.
		before := fingerprint()
		for _, r := range routes {
			if rules[r.Pattern].public {
				continue
			}
			for _, c := range refused {
				res := send(r, c, valid[r.Pattern])
				tip := "登录已过期"
				if c.token == "" {
					tip = "请先登录"
				}
				if res.Code != 401 || !strings.Contains(res.Envelope.Tip, tip) {
					t.Errorf("%s as %s: %d %q, want 401 %q", r.Pattern, c.name, res.Code, res.Envelope.Tip, tip)
				}
			}
			for _, c := range roles {
				if rules[r.Pattern].roles[c.role] {
					continue
				}
				if res := send(r, c, valid[r.Pattern]); res.Code != 403 || res.Envelope.Tip != "没有权限" {
					t.Errorf("%s as %s: %d %q, want 403 没有权限", r.Pattern, c.name, res.Code, res.Envelope.Tip)
				}
			}
			switch p := rules[r.Pattern]; {
			case !p.roles[key.role]:
				if res := send(r, key, valid[r.Pattern]); res.Code != 403 || res.Envelope.Tip != "没有权限" {
					t.Errorf("%s as %s: %d %q, want 403 没有权限", r.Pattern, key.name, res.Code, res.Envelope.Tip)
				}
			case p.session:
				if res := send(r, key, valid[r.Pattern]); res.Code != 403 || !strings.Contains(res.Envelope.Tip, "API 密钥不能") {
					t.Errorf("%s as %s: %d %q, want 403 API 密钥不能…", r.Pattern, key.name, res.Code, res.Envelope.Tip)
				}
			}
		}
		if n := keyAudit(); n != keyUses || n == 0 {
			t.Fatalf("%d uses of the key audited, %d made", n, keyUses)
		}
		if after := fingerprint(); after != before {
			t.Fatalf("refused calls changed something: %s -> %s", before, after)
		}

		// Allowed: each role a route names gets the owner's answer (with an
		// empty body: the handler's own 422 for most writes), never the
		// gate's. Signing out goes last.
		answers := map[string]int{}
		var signOut operator.Route
		for _, r := range routes {
			if r.Pattern == "DELETE /api/admin/session" {
				signOut = r
				continue
			}
			if rules[r.Pattern].public {
				// No credential asked: everyone gets the handler's answer.
				want := send(r, refused[0], "").Code
				for _, c := range append(slices.Clone(refused[1:]), roles...) {
					if res := send(r, c, ""); res.Code != want {
						t.Errorf("public %s as %s: %d, want %d", r.Pattern, c.name, res.Code, want)
					}
				}
				continue
			}
			for _, c := range roles { // owner first
				if !rules[r.Pattern].roles[c.role] {
					continue
				}
				res := send(r, c, "")
				if c.role == httpx.RoleOwner {
					answers[r.Pattern] = res.Code
					if res.Code == 401 || (res.Code == 403 && res.Envelope.Tip == "没有权限") || res.Code >= 500 {
						t.Errorf("%s as the owner: %d %s", r.Pattern, res.Code, res.Body)
					}
				} else if res.Code != answers[r.Pattern] {
					t.Errorf("%s as %s: %d, the owner got %d (%s)", r.Pattern, c.name, res.Code, answers[r.Pattern], res.Body)
				}
			}
			if p := rules[r.Pattern]; p.roles[key.role] && !p.session {
				if res := send(r, key, ""); res.Code != answers[r.Pattern] {
					t.Errorf("%s as %s: %d, the owner got %d (%s)", r.Pattern, key.name, res.Code, answers[r.Pattern], res.Body)
				}
			}
		}
		if n := keyAudit(); n != keyUses {
			t.Fatalf("%d uses of the key audited, %d made", n, keyUses)
		}

		// Step-up: 6 minutes after the sign-ins, the step-up routes answer
		// 403 {stepUp: true} to the roles they name, and change nothing.
		clock.Add(6 * time.Minute)
		before = fingerprint()
		stepUps := 0
		for _, r := range routes {
			if !rules[r.Pattern].stepUp {
				continue
			}
			stepUps++
			for _, c := range roles {
				if !rules[r.Pattern].roles[c.role] {
					continue
				}
				res := send(r, c, valid[r.Pattern])
				if res.Code != 403 || res.Envelope.Tip != "请输入动态验证码以继续" || string(res.Envelope.Data) != `{"stepUp":true}` {
					t.Errorf("%s as %s without a fresh code: %d %s", r.Pattern, c.name, res.Code, res.Body)
				}
			}
		}
		if after := fingerprint(); after != before {
			t.Fatalf("step-up refusals changed something: %s -> %s", before, after)
		}
		if stepUps == 0 {
			t.Fatal("no route asks for step-up")
		}
		for _, c := range roles {
			o := ops[c.role]
			apitest.Scenario{Method: "POST", URL: "/api/admin/session/stepup", Token: c.token,
				Body: fmt.Sprintf(`{"code":%q}`, o.Code(t, clock.Now())), ExpectedStatus: 200}.Run(t, s.Handler)
		}
		for _, r := range routes {
			if !rules[r.Pattern].stepUp {
				continue
			}
			for _, c := range roles {
				if rules[r.Pattern].roles[c.role] {
					if res := send(r, c, ""); res.Code != answers[r.Pattern] {
						t.Errorf("%s as %s after step-up: %d, want %d (%s)", r.Pattern, c.name, res.Code, answers[r.Pattern], res.Body)
					}
				}
			}
		}

		// Signing out: every role may; the token is then refused.
		for _, c := range roles {
			if res := send(signOut, c, ""); res.Code != 200 {
				t.Errorf("sign-out as %s: %d", c.name, res.Code)
			}
			apitest.Scenario{URL: "/api/admin/session", Token: c.token, ExpectedStatus: 401}.Run(t, s.Handler)
		}
	})
}

// phoneLogin signs account in to the phone app (a phone-app token).
func phoneLogin(t *testing.T, s *apptest.Server, account, password string) string {
	t.Helper()
	res := apitest.Scenario{Method: "POST", URL: "/api/app/mine/login/h5", Body: fmt.Sprintf(`{"account":%q,"passWord":%q,"sysType":"ios"}`, account, password),
		ExpectedStatus: 200}.Run(t, s.Handler)
	return apitest.Data[struct {
		Token string `json:"token"`
	}](t, res).Token
}
