package account

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"prima/internal/apitest"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
)

// newTestAPI mounts the account routes as internal/app does, behind
// Authenticate.
func newTestAPI(t *testing.T, d *db.DB) (*Service, http.Handler) {
	t.Helper()
	s, _ := newTestService(t, d)
	h := NewHandler(s)
	mux := httpx.NewAPIMux()
	mux.Handle("POST /api/app/mine/login", httpx.Handler(h.GuestLogin))
	mux.Handle("POST /api/app/mine/login/h5", httpx.Handler(h.PasswordLogin))
	mux.Handle("POST /api/app/mine/register", httpx.Handler(h.Register))
	mux.Handle("POST /api/app/mine/logout", h.Require(h.Logout))
	mux.Handle("GET /api/app/mine/info", h.Require(h.Info))
	return s, h.Authenticate(mux)
}

// scenarioEnv carries what earlier scenarios learned to later ones.
type scenarioEnv struct {
	d      *db.DB
	tokens map[string]string
	uids   map[string]int64
}

type scenario struct {
	name       string
	method     string
	path       string // may hold {uid:NAME}, replaced by a saved uid
	body       string
	token      string // a literal Authorization token, or @NAME for a saved one
	ip         string // defaults to one address per scenario, so per-IP limits stay out of the way
	wantStatus int
	wantTip    string // the tip must contain this
	save       string // on success, save data.token and data.user.uid under this name
	check      func(t *testing.T, env *scenarioEnv, rec *httptest.ResponseRecorder, data json.RawMessage)
}

// run resolves the saved names and runs the scenario with apitest, which
// checks the status, envelope and tip.
func (sc scenario) run(t *testing.T, api http.Handler, env *scenarioEnv, i int) {
	t.Helper()
	path := sc.path
	for name, uid := range env.uids {
		path = strings.ReplaceAll(path, "{uid:"+name+"}", fmt.Sprint(uid))
	}
	tok := sc.token
	if name, ok := strings.CutPrefix(tok, "@"); ok {
		if tok, ok = env.tokens[name]; !ok {
			t.Fatalf("no saved token %q", name)
		}
	}
	remote := fmt.Sprintf("198.51.%d.%d:40000", i/250, i%250+1)
	if sc.ip != "" {
		remote = sc.ip + ":40000"
	}
	res := apitest.Scenario{
		Method: sc.method, URL: path, Body: sc.body, Token: tok, RemoteAddr: remote,
		Headers:        map[string]string{"X-App-Client": "devID=" + devID(900) + ";ver=1.1.3;dev=ios;h5=1"},
		ExpectedStatus: sc.wantStatus, ExpectedTip: sc.wantTip,
	}.Run(t, api)
	if sc.save != "" {
		var d struct {
			Token string `json:"token"`
			User  struct {
				UID int64 `json:"uid"`
			} `json:"user"`
		}
		if err := json.Unmarshal(res.Envelope.Data, &d); err != nil || d.Token == "" || d.User.UID == 0 {
			t.Fatalf("nothing to save in %s", res.Envelope.Data)
		}
		env.tokens[sc.save], env.uids[sc.save] = d.Token, d.User.UID
	}
	if sc.check != nil {
		sc.check(t, env, res.ResponseRecorder, res.Envelope.Data)
	}
}

func decodeMap(t *testing.T, data json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("data is not an object: %s", data)
	}
	return m
}

func keys(m map[string]any) []string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	slices.Sort(k)
	return k
}

// wantUser checks the user of a login reply: its uid (0: any) and guest flag.
func wantUser(uidName string, guest bool, account any) func(*testing.T, *scenarioEnv, *httptest.ResponseRecorder, json.RawMessage) {
	return func(t *testing.T, env *scenarioEnv, _ *httptest.ResponseRecorder, data json.RawMessage) {
		u := decodeMap(t, data)["user"].(map[string]any)
		if uidName != "" && int64(u["uid"].(float64)) != env.uids[uidName] {
			t.Fatalf("uid %v, want %s's %d", u["uid"], uidName, env.uids[uidName])
		}
		if u["isGuest"] != guest || u["account"] != account {
			t.Fatalf("user isGuest=%v account=%v, want %v %v", u["isGuest"], u["account"], guest, account)
		}
	}
}

func wantUsers(n int) func(*testing.T, *scenarioEnv, *httptest.ResponseRecorder, json.RawMessage) {
	return func(t *testing.T, env *scenarioEnv, _ *httptest.ResponseRecorder, _ json.RawMessage) {
		if got := count(t, env.d, "users"); got != n {
			t.Fatalf("%d users, want %d", got, n)
		}
	}
}

var userInfoKeys = []string{"account", "bio", "createdAt", "gender", "goldVideoFreeExpire", "hasPassword", "isGuest", "isVip", "mobile", "msgHasNew", "name", "newGoldVideoCoupon",
	"points", "portrait", "txDiscount", "uid", "videoFreeExpiration", "vipExpireDate", "vipLevel", "vipTiers"}

func TestAccountAPI(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		_, api := newTestAPI(t, d)
		env := &scenarioEnv{d: d, tokens: map[string]string{}, uids: map[string]int64{}}
		guestBody := `{"devID":"` + devID(1) + `","sysType":"ios","cutInfos":"inviter=5"}`
		const (
			post = http.MethodPost
			get  = http.MethodGet
		)
		scenarios := []scenario{
			{name: "guest login creates", method: post, path: "/api/app/mine/login", body: guestBody, wantStatus: 200, save: "guest",
				check: func(t *testing.T, env *scenarioEnv, rec *httptest.ResponseRecorder, data json.RawMessage) {
					m := decodeMap(t, data)
					if m["isNew"] != true || !slices.Equal(keys(m), []string{"isNew", "token", "user"}) {
						t.Fatalf("reply %s, want {token, isNew: true, user}", data)
					}
					wantUser("", true, nil)(t, env, rec, data)
				}},
			{name: "guest login resumes the same uid", method: post, path: "/api/app/mine/login", body: guestBody, wantStatus: 200, save: "guestAgain",
				check: func(t *testing.T, env *scenarioEnv, rec *httptest.ResponseRecorder, data json.RawMessage) {
					if decodeMap(t, data)["isNew"] != false || env.uids["guestAgain"] != env.uids["guest"] {
						t.Fatalf("resume gave %s, want uid %d", data, env.uids["guest"])
					}
				}},
			{name: "bad devID", method: post, path: "/api/app/mine/login", body: `{"devID":"abc","sysType":"ios"}`, wantStatus: 422, wantTip: "设备标识无效"},
			{name: "unknown sysType", method: post, path: "/api/app/mine/login", body: `{"devID":"` + devID(2) + `","sysType":"symbian"}`, wantStatus: 422, wantTip: "设备类型无效"},
			{name: "a long sysType is echoed bounded", method: post, path: "/api/app/mine/login", body: `{"devID":"` + devID(2) + `","sysType":"` + strings.Repeat("x", 300) + `"}`, wantStatus: 422, wantTip: "设备类型无效",
				check: func(t *testing.T, _ *scenarioEnv, rec *httptest.ResponseRecorder, _ json.RawMessage) {
					if strings.Count(rec.Body.String(), "x") > httpx.EchoLimit+10 || !strings.Contains(rec.Body.String(), "…") {
						t.Fatalf("msg repeats the whole input: %s", rec.Body)
					}
				}},
			{name: "malformed JSON", method: post, path: "/api/app/mine/login", body: `{"devID":`, wantStatus: 400, wantTip: "请求格式错误"},
			{name: "wrong type", method: post, path: "/api/app/mine/login", body: `{"devID":5,"sysType":"ios"}`, wantStatus: 400, wantTip: "devID 类型错误"},
			{name: "not an object", method: post, path: "/api/app/mine/login", body: `["x"]`, wantStatus: 400, wantTip: "请求格式错误"},
			{name: "missing fields", method: post, path: "/api/app/mine/login", body: `{}`, wantStatus: 422, wantTip: "缺少设备标识"},
			{name: "empty body", method: post, path: "/api/app/mine/login", body: ``, wantStatus: 400, wantTip: "不能为空"},
			{name: "oversize body", method: post, path: "/api/app/mine/login", body: `{"devID":"` + devID(3) + `","sysType":"ios","cutInfos":"` + strings.Repeat("x", 1<<20) + `"}`, wantStatus: 413, wantTip: "过大",
				check: func(t *testing.T, env *scenarioEnv, _ *httptest.ResponseRecorder, _ json.RawMessage) {
					wantUsers(1)(t, env, nil, nil)
				}},
			{name: "info without token", method: get, path: "/api/app/mine/info", wantStatus: 401, wantTip: "请先登录"},
			{name: "info with garbage token", method: get, path: "/api/app/mine/info", token: "garbage", wantStatus: 401, wantTip: "登录已失效，请重新登录"},
			{name: "info of a guest", method: get, path: "/api/app/mine/info", token: "@guest", wantStatus: 200,
				check: func(t *testing.T, env *scenarioEnv, _ *httptest.ResponseRecorder, data json.RawMessage) {
					m := decodeMap(t, data)
					if !slices.Equal(keys(m), userInfoKeys) {
						t.Fatalf("UserInfo keys %v, want %v", keys(m), userInfoKeys)
					}
					if m["isGuest"] != true || m["account"] != nil || m["isVip"] != false || m["vipLevel"] != 0.0 || m["txDiscount"] != nil ||
						m["vipExpireDate"] != nil || m["createdAt"] != "2026-03-01T12:00:00Z" || !strings.HasPrefix(m["name"].(string), "游客") {
						t.Fatalf("guest info %s", data)
					}
					if c, ok := m["newGoldVideoCoupon"].([]any); !ok || len(c) != 0 {
						t.Fatalf("newGoldVideoCoupon = %v, want an empty list", m["newGoldVideoCoupon"])
					}
				}},
			{name: "register short account", method: post, path: "/api/app/mine/register", body: `{"account":"ab","passWord":"pass123"}`, wantStatus: 422, wantTip: "4-20位"},
			{name: "register bad characters", method: post, path: "/api/app/mine/register", body: `{"account":"al ice!","passWord":"pass123"}`, wantStatus: 422, wantTip: "字母、数字或下划线"},
			{name: "register weak password", method: post, path: "/api/app/mine/register", body: `{"account":"alice","passWord":"password"}`, wantStatus: 422, wantTip: "字母和数字"},
			{name: "register short password", method: post, path: "/api/app/mine/register", body: `{"account":"alice","passWord":"a1"}`, wantStatus: 422, wantTip: "6-32位",
				check: func(t *testing.T, env *scenarioEnv, _ *httptest.ResponseRecorder, _ json.RawMessage) {
					wantUsers(1)(t, env, nil, nil)
				}},
			{name: "register upgrades the guest", method: post, path: "/api/app/mine/register", body: `{"account":"Alice","passWord":"alice123"}`, token: "@guest", wantStatus: 200, save: "alice",
				check: func(t *testing.T, env *scenarioEnv, rec *httptest.ResponseRecorder, data json.RawMessage) {
					if env.uids["alice"] != env.uids["guest"] {
						t.Fatalf("upgrade changed uid %d -> %d", env.uids["guest"], env.uids["alice"])
					}
					wantUser("guest", false, "Alice")(t, env, rec, data)
					wantUsers(1)(t, env, rec, data)
				}},
			{name: "the upgraded guest token is revoked", method: get, path: "/api/app/mine/info", token: "@guest", wantStatus: 401, wantTip: "登录已失效"},
			{name: "the new token works", method: get, path: "/api/app/mine/info", token: "@alice", wantStatus: 200,
				check: func(t *testing.T, env *scenarioEnv, _ *httptest.ResponseRecorder, data json.RawMessage) {
					if m := decodeMap(t, data); m["isGuest"] != false || m["account"] != "Alice" {
						t.Fatalf("info %s", data)
					}
				}},
			{name: "a second guest", method: post, path: "/api/app/mine/login", body: `{"devID":"` + devID(4) + `","sysType":"android"}`, wantStatus: 200, save: "guest2"},
			{name: "duplicate account 409", method: post, path: "/api/app/mine/register", body: `{"account":"alice","passWord":"other123"}`, token: "@guest2", wantStatus: 409, wantTip: "账号已被注册",
				check: wantUsers(2)},
			{name: "the guest is still a guest after the 409", method: get, path: "/api/app/mine/info", token: "@guest2", wantStatus: 200,
				check: func(t *testing.T, env *scenarioEnv, _ *httptest.ResponseRecorder, data json.RawMessage) {
					if m := decodeMap(t, data); m["isGuest"] != true || m["account"] != nil {
						t.Fatalf("info %s", data)
					}
				}},
			// A refused token means the caller meant to upgrade a guest it no
			// longer holds: no second account is made behind its back.
			{name: "register with a garbage token is refused", method: post, path: "/api/app/mine/register", body: `{"account":"bob_2","passWord":"bob12345"}`, token: "garbage", wantStatus: 401, wantTip: "登录已失效，请重新登录",
				check: wantUsers(2)},
			{name: "register without a token makes a new user", method: post, path: "/api/app/mine/register", body: `{"account":"bob_2","passWord":"bob12345"}`, wantStatus: 200, save: "bob",
				check: func(t *testing.T, env *scenarioEnv, rec *httptest.ResponseRecorder, data json.RawMessage) {
					wantUser("bob", false, "bob_2")(t, env, rec, data)
					wantUsers(3)(t, env, rec, data)
				}},
			{name: "login/h5", method: post, path: "/api/app/mine/login/h5", body: `{"account":"alice","passWord":"alice123","sysType":"h5"}`, wantStatus: 200, save: "aliceLogin",
				check: func(t *testing.T, env *scenarioEnv, rec *httptest.ResponseRecorder, data json.RawMessage) {
					if m := decodeMap(t, data); len(m) != 2 {
						t.Fatalf("reply %s, want {token, user}", data)
					}
					wantUser("guest", false, "Alice")(t, env, rec, data)
				}},
			{name: "login/h5 wrong password", method: post, path: "/api/app/mine/login/h5", body: `{"account":"alice","passWord":"alice124","sysType":"h5"}`, wantStatus: 401, wantTip: "账号或密码错误"},
			{name: "login/h5 unknown account", method: post, path: "/api/app/mine/login/h5", body: `{"account":"nobody","passWord":"alice123","sysType":"h5"}`, wantStatus: 401, wantTip: "账号或密码错误"},
			{name: "login/h5 missing password", method: post, path: "/api/app/mine/login/h5", body: `{"account":"alice"}`, wantStatus: 422, wantTip: "请输入密码"},
			{name: "public profile", method: get, path: "/api/app/mine/info?uid={uid:alice}", token: "@guest2", wantStatus: 200,
				check: func(t *testing.T, env *scenarioEnv, _ *httptest.ResponseRecorder, data json.RawMessage) {
					m := decodeMap(t, data)
					if want := []string{"bio", "createdAt", "gender", "isFollow", "name", "portrait", "uid", "vipLevel"}; !slices.Equal(keys(m), want) {
						t.Fatalf("PublicProfile keys %v, want only %v", keys(m), want)
					}
					// The name is the account now (the guest never chose
					// one), but no field says it is the account.
					if int64(m["uid"].(float64)) != env.uids["alice"] || m["name"] != "Alice" {
						t.Fatalf("profile %s", data)
					}
				}},
			{name: "public profile of an unknown uid", method: get, path: "/api/app/mine/info?uid=987654321", token: "@guest2", wantStatus: 404, wantTip: "用户不存在"},
			{name: "public profile with a bad uid", method: get, path: "/api/app/mine/info?uid=abc", token: "@guest2", wantStatus: 422, wantTip: "uid"},
			{name: "logout", method: post, path: "/api/app/mine/logout", body: `{}`, token: "@aliceLogin", wantStatus: 200,
				check: func(t *testing.T, _ *scenarioEnv, _ *httptest.ResponseRecorder, data json.RawMessage) {
					if string(data) != "null" {
						t.Fatalf("logout data %s, want null", data)
					}
				}},
			{name: "the logged-out token is refused", method: get, path: "/api/app/mine/info", token: "@aliceLogin", wantStatus: 401, wantTip: "登录已失效，请重新登录"},
			{name: "logout again is refused", method: post, path: "/api/app/mine/logout", body: `{}`, token: "@aliceLogin", wantStatus: 401, wantTip: "登录已失效"},
			{name: "logout without token", method: post, path: "/api/app/mine/logout", body: `{}`, wantStatus: 401, wantTip: "请先登录"},
			{name: "the other session of the user still works", method: get, path: "/api/app/mine/info", token: "@alice", wantStatus: 200},
			{name: "a garbage token on a public route is ignored", method: post, path: "/api/app/mine/login", body: `{"devID":"` + devID(6) + `","sysType":"pc"}`, token: "garbage", wantStatus: 200},
		}
		// Rate limit: five failures at one account from one address, then that
		// address waits (429) while the owner elsewhere still signs in.
		for i := 1; i <= 5; i++ {
			scenarios = append(scenarios, scenario{name: fmt.Sprintf("wrong password %d", i), method: post, path: "/api/app/mine/login/h5",
				body: `{"account":"bob_2","passWord":"wrong123","sysType":"h5"}`, ip: "203.0.113.1", wantStatus: 401, wantTip: "账号或密码错误"})
		}
		scenarios = append(scenarios, scenario{name: "rate limited", method: post, path: "/api/app/mine/login/h5",
			body: `{"account":"bob_2","passWord":"bob12345","sysType":"h5"}`, ip: "203.0.113.1", wantStatus: 429, wantTip: "操作过于频繁，请稍后再试",
			check: func(t *testing.T, _ *scenarioEnv, rec *httptest.ResponseRecorder, _ json.RawMessage) {
				if ra := rec.Header().Get("Retry-After"); ra != "60" {
					t.Fatalf("Retry-After %q, want 60", ra)
				}
			}},
			scenario{name: "the owner elsewhere is not locked out", method: post, path: "/api/app/mine/login/h5",
				body: `{"account":"bob_2","passWord":"bob12345","sysType":"h5"}`, ip: "203.0.113.99", wantStatus: 200})

		for i, sc := range scenarios {
			if !t.Run(sc.name, func(t *testing.T) { sc.run(t, api, env, i) }) {
				t.FailNow() // later scenarios build on earlier ones
			}
		}
	})
}

// A bearer header whose scheme is not Bearer is a token we refuse, not "no token".
func TestAuthorizationSchemes(t *testing.T) {
	for _, c := range []struct {
		header  string
		present bool
	}{
		{"", false}, {"Bearer ", false}, {"Bearer    ", false}, {"Bearer abc", true}, {"bearer abc", true}, {"Basic dXNlcjpwYXNz", true}, {"abc", true},
	} {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Authorization", c.header)
		if _, present := bearer(r); present != c.present {
			t.Errorf("Authorization %q: present=%v, want %v", c.header, present, c.present)
		}
	}
}

func TestAPIConcurrentGuestLogin(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		_, api := newTestAPI(t, d)
		const n = 20
		var wg sync.WaitGroup
		uids := make([]int64, n)
		codes := make([]int, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req := apitest.Scenario{Method: http.MethodPost, URL: "/api/app/mine/login", Body: `{"devID":"` + devID(77) + `","sysType":"ios"}`}.Request()
				rec := httptest.NewRecorder()
				api.ServeHTTP(rec, req)
				codes[i] = rec.Code
				var e struct {
					Data struct {
						User struct{ UID int64 } `json:"user"`
					} `json:"data"`
				}
				_ = json.Unmarshal(rec.Body.Bytes(), &e)
				uids[i] = e.Data.User.UID
			}()
		}
		wg.Wait()
		for i := range uids {
			if codes[i] != 200 || uids[i] == 0 || uids[i] != uids[0] {
				t.Fatalf("request %d: status %d uid %d (first uid %d)", i, codes[i], uids[i], uids[0])
			}
		}
		if got := count(t, d, "users"); got != 1 {
			t.Fatalf("%d users for one device, want 1", got)
		}
	})
}

// When the database fails while checking a token, an auth route answers 500:
// the user's session is not at fault and must not be sent to log in again.
func TestAuthDatabaseDown(t *testing.T) {
	d := dbtest.Open(t, db.SQLite)
	s, api := newTestAPI(t, d)
	l := guest(t, s, devID(1))
	d.Close()
	apitest.Scenario{URL: "/api/app/mine/info", Token: l.Token, ExpectedStatus: http.StatusInternalServerError, NotExpectedContent: []string{"sql"}}.Run(t, api)
	apitest.Scenario{Method: http.MethodPost, URL: "/api/app/mine/register", Body: `{"account":"zed_1","passWord":"pass123"}`, Token: l.Token,
		ExpectedStatus: http.StatusInternalServerError}.Run(t, api)
}
