package app_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/platform/httpx"
)

const (
	get  = http.MethodGet
	post = http.MethodPost
)

func guestBody(n int, cutInfos string) string {
	return `{"devID":"` + apitest.DevID(n) + `","sysType":"ios","cutInfos":"` + cutInfos + `"}`
}

func countRows(t *testing.T, s *apptest.Server, q string, args ...any) int {
	t.Helper()
	var n int
	if err := s.App.DB.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The whole stack on both engines: middleware order, auth wiring, the API
// 404 and every response's security headers.
func TestServerWiring(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		h := s.Handler
		var token string
		apitest.Run(t, h,
			apitest.Scenario{Name: "ping", URL: "/api/app/ping/check", ExpectedStatus: 200, Check: func(t *testing.T, res *apitest.Response) {
				if res.Header().Get("X-Request-Id") == "" || res.Header().Get("Content-Security-Policy") == "" || res.Header().Get("X-Content-Type-Options") != "nosniff" {
					t.Fatalf("missing headers: %v", res.Header())
				}
			}},
			apitest.Scenario{Name: "line check", URL: "/check", ExpectedStatus: 200, ExpectedContent: []string{"ok"}},
			apitest.Scenario{Name: "unknown api", URL: "/api/app/nope", ExpectedStatus: 404, ExpectedTip: "请求地址不存在"},
			apitest.Scenario{Name: "guest login", Method: post, URL: "/api/app/mine/login", Body: guestBody(1, ""), ExpectedStatus: 200, Check: func(t *testing.T, res *apitest.Response) {
				d := apitest.Data[struct {
					Token string `json:"token"`
					User  struct {
						UID int64 `json:"uid"`
					} `json:"user"`
				}](t, res)
				if d.Token == "" || d.User.UID == 0 {
					t.Fatalf("login data %s", res.Envelope.Data)
				}
				token = d.Token
			}},
		)
		apitest.Run(t, h,
			apitest.Scenario{Name: "info with token", URL: "/api/app/mine/info", Token: token, ExpectedStatus: 200},
			apitest.Scenario{Name: "garbage token", URL: "/api/app/mine/info", Token: "garbage", ExpectedStatus: 401},
			// A garbage token on a public route is ignored, not fatal.
			apitest.Scenario{Name: "public route with garbage token", URL: "/api/app/modules/list", Token: "garbage", ExpectedStatus: 200},
			apitest.Scenario{Name: "unknown moduleType", URL: "/api/app/modules/list?moduleType=9", ExpectedStatus: 422, ExpectedTip: "moduleType"},
		)
		// The operator API: no token 401, a guest's (phone-app) token 401
		// too, for known and unknown admin paths alike.
		for _, path := range []string{"/api/admin/audit", "/api/admin/users?account=demo", "/api/admin/nope"} {
			apitest.Run(t, h,
				apitest.Scenario{Name: path + " without a token", URL: path, ExpectedStatus: 401, ExpectedTip: "请先登录"},
				apitest.Scenario{Name: path + " as a guest", URL: path, Token: token, ExpectedStatus: 401, ExpectedTip: "登录已过期"},
			)
		}
	})
}

// A control character in a JSON text field gets the same 422 naming the
// field on both engines (PostgreSQL used to answer NUL with a 500, SQLite
// stored it), and nothing is stored.
func TestTextRuleAtGuestLogin(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		var scenarios []apitest.Scenario
		for i, bad := range []struct{ name, value string }{
			{"NUL", `a\u0000b`},
			{"bell", `\u0007`},
			{"escape", `\u001b[31mred`},
			{"newline in a single-line field", `a\nb`},
			{"tab", `a\tb`},
			{"DEL", `\u007f`},
			{"C1 control", `\u0085`},
			{"lone high surrogate", `\ud800`},
			{"lone low surrogate", `x\udc00y`},
			{"reversed pair", `\udc00\ud800`},
			{"invalid UTF-8", "a\xffb"},
			{"noncharacter", `\uffff`},
		} {
			scenarios = append(scenarios, apitest.Scenario{
				Name: bad.name, Method: post, URL: "/api/app/mine/login", Body: guestBody(100+i, bad.value),
				ExpectedStatus: 422, ExpectedTip: "参数 cutInfos 含有不允许的控制字符",
				NotExpectedContent: []string{"\\u0000b"},
			})
		}
		scenarios = append(scenarios,
			apitest.Scenario{Name: "nothing was stored", URL: "/api/app/ping/check", ExpectedStatus: 200, Check: func(t *testing.T, _ *apitest.Response) {
				if n := countRows(t, s, `SELECT COUNT(*) FROM users`); n != 0 {
					t.Fatalf("%d users after refused logins", n)
				}
			}},
			apitest.Scenario{Name: "Chinese, emoji and a surrogate pair pass", Method: post, URL: "/api/app/mine/login",
				Body: guestBody(1, `邀请 😀 \ud83d\ude00`), ExpectedStatus: 200, Check: func(t *testing.T, _ *apitest.Response) {
					var got string
					if err := s.App.DB.QueryRow(context.Background(), `SELECT cut_infos FROM devices WHERE dev_id = ?`, apitest.DevID(1)).Scan(&got); err != nil || got != "邀请 😀 😀" {
						t.Fatalf("stored %q, %v", got, err)
					}
				}},
			apitest.Scenario{Name: "a NUL in a query string", URL: "/api/app/modules/list?moduleType=%00", ExpectedStatus: 422, ExpectedTip: "moduleType"},
		)
		apitest.Run(t, s.Handler, scenarios...)
	})
}

// A body that is not JSON cannot reach an API call: a cross-site form or a
// text/plain post gets 415 before the handler runs.
func TestAPIBodyMustBeJSON(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		token := apitest.GuestLogin(t, s.Handler, apitest.DevID(1))
		login := func(name, ctype string, status int) apitest.Scenario {
			return apitest.Scenario{Name: name, Method: post, URL: "/api/app/mine/login", Body: guestBody(2, ""),
				Headers: map[string]string{"Content-Type": ctype}, ExpectedStatus: status}
		}
		unsupported := func(sc apitest.Scenario) apitest.Scenario {
			sc.ExpectedTip = "请求格式不受支持"
			sc.ExpectedContent = []string{"application/json"}
			return sc
		}
		apitest.Run(t, s.Handler,
			unsupported(login("form", "application/x-www-form-urlencoded", 415)),
			unsupported(login("text/plain", "text/plain", 415)),
			unsupported(login("multipart on a JSON route", "multipart/form-data; boundary=x", 415)),
			unsupported(login("no content type with a body", "", 415)),
			unsupported(login("garbage content type", "application/json; =", 415)),
			unsupported(login("JSON in another charset", "application/json; charset=latin1", 415)),
			apitest.Scenario{Name: "nothing was stored", URL: "/api/app/ping/check", ExpectedStatus: 200, Check: func(t *testing.T, _ *apitest.Response) {
				if n := countRows(t, s, `SELECT COUNT(*) FROM devices WHERE dev_id = ?`, apitest.DevID(2)); n != 0 {
					t.Fatalf("a refused body created a device")
				}
			}},
			unsupported(apitest.Scenario{Name: "an empty form post names its type", Method: post, URL: "/api/app/mine/logout", Token: token,
				Headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, ExpectedStatus: 415}),
			apitest.Scenario{Name: "an empty body without a type reaches the handler", Method: post, URL: "/api/app/mine/login",
				ExpectedStatus: 400, ExpectedTip: "请求内容不能为空"},
			login("JSON with utf-8 charset", "application/json; charset=UTF-8", 200),
			apitest.Scenario{Name: "an empty logout passes", Method: post, URL: "/api/app/mine/logout", Token: token, ExpectedStatus: 200},
		)
	})
}

// A wrong method on an API route is a 405 envelope with Allow; an unknown
// path stays a 404 envelope; echoed input is bounded and escaped.
func TestAPIMethodAndPath(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		allow := func(want string) func(*testing.T, *apitest.Response) {
			return func(t *testing.T, res *apitest.Response) {
				if got := res.Header().Get("Allow"); got != want {
					t.Fatalf("Allow %q, want %q", got, want)
				}
			}
		}
		long := "/api/app/" + strings.Repeat("x", 500)
		apitest.Run(t, s.Handler,
			apitest.Scenario{Name: "GET on a POST route", URL: "/api/app/mine/login", ExpectedStatus: 405, ExpectedTip: "请求方式不支持", Check: allow("POST")},
			apitest.Scenario{Name: "POST on a GET route", Method: post, URL: "/api/app/modules/list", Body: `{}`, ExpectedStatus: 405, Check: allow("GET, HEAD")},
			apitest.Scenario{Name: "DELETE on a GET route", Method: http.MethodDelete, URL: "/api/app/mine/history", ExpectedStatus: 405, Check: allow("GET, HEAD")},
			apitest.Scenario{Name: "DELETE on a GET and POST route", Method: http.MethodDelete, URL: "/api/app/mine/info", ExpectedStatus: 405, Check: allow("GET, HEAD, POST")},
			apitest.Scenario{Name: "unknown path", URL: "/api/app/nope", ExpectedStatus: 404, ExpectedTip: "请求地址不存在"},
			apitest.Scenario{Name: "unknown path with any method", Method: http.MethodPut, URL: "/api/app/nope", ExpectedStatus: 404},
			apitest.Scenario{Name: "the API root", URL: "/api/", ExpectedStatus: 404},
			apitest.Scenario{Name: "a long path is echoed bounded", URL: long, ExpectedStatus: 404, Check: func(t *testing.T, res *apitest.Response) {
				if len(res.Envelope.Msg) > 120 || !strings.Contains(res.Envelope.Msg, "…") {
					t.Fatalf("msg %q", res.Envelope.Msg)
				}
			}},
			apitest.Scenario{Name: "a control character in the path is escaped", URL: "/api/app/a%0Ab%00", ExpectedStatus: 404, Check: func(t *testing.T, res *apitest.Response) {
				if strings.ContainsAny(res.Envelope.Msg, "\n\x00") || !strings.Contains(res.Envelope.Msg, `a\nb\x00`) {
					t.Fatalf("msg %q", res.Envelope.Msg)
				}
			}},
			apitest.Scenario{Name: "a page still answers", URL: "/mine/setting", ExpectedStatus: 200},
		)
	})
}

// Per-IP limits cannot be slipped with forwarded headers unless the peer is
// a configured proxy. login/h5 allows one address 20 failed logins in ten
// minutes (account.DefaultLimits.LoginFailPerIP); the 21st is refused.
func TestClientIPAndRateLimit(t *testing.T) {
	attempts := func(t *testing.T, h http.Handler, peer string, header func(i int) (string, string)) []int {
		var codes []int
		for i := range 22 {
			k, v := header(i)
			res := apitest.Scenario{Method: post, URL: "/api/app/mine/login/h5", RemoteAddr: peer,
				Body: fmt.Sprintf(`{"account":"nobody%d","passWord":"wrong123","sysType":"h5"}`, i), Headers: map[string]string{k: v}}.Send(t, h)
			codes = append(codes, res.Code)
		}
		return codes
	}
	xRealIP := func(i int) (string, string) { return "X-Real-IP", fmt.Sprintf("198.51.100.%d", i+1) }
	xff := func(i int) (string, string) { return "X-Forwarded-For", fmt.Sprintf("198.51.100.%d, 10.0.0.7", i+1) }

	t.Run("spoofed from an untrusted loopback peer", func(t *testing.T) {
		s := apptest.New(t, "sqlite")
		codes := attempts(t, s.Handler, "127.0.0.1:5000", xRealIP)
		if codes[19] != 401 || codes[20] != 429 {
			t.Fatalf("X-Real-IP from an untrusted peer slipped the limit: %v", codes)
		}
	})
	t.Run("forwarded by a trusted proxy", func(t *testing.T) {
		s := apptest.New(t, "postgres", "-trusted-proxies", "10.0.0.0/8")
		for _, c := range attempts(t, s.Handler, "10.0.0.8:5000", xff) {
			if c != 401 {
				t.Fatalf("clients behind a trusted proxy share one address: %d", c)
			}
		}
		// The same headers from outside the proxy range count as one client.
		codes := attempts(t, s.Handler, "203.0.113.5:5000", xff)
		if codes[19] != 401 || codes[20] != 429 {
			t.Fatalf("X-Forwarded-For from an untrusted peer believed: %v", codes)
		}
	})
}

func TestHealthAndReadiness(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		apitest.Run(t, s.Handler,
			apitest.Scenario{Name: "healthz", URL: "/healthz", ExpectedStatus: 200, ExpectedContent: []string{"ok"}},
			apitest.Scenario{Name: "readyz", URL: "/readyz", ExpectedStatus: 200, ExpectedContent: []string{`"status":"ok"`, `"database":"ok"`, `"storage":"ok"`}},
			apitest.Scenario{Name: "healthz takes GET only", Method: post, URL: "/healthz", ExpectedStatus: 405},
		)
		// Readiness follows the database; liveness does not.
		s.App.DB.Close()
		apitest.Run(t, s.Handler,
			apitest.Scenario{Name: "readyz without a database", URL: "/readyz", ExpectedStatus: 503,
				ExpectedContent: []string{`"database":"fail"`}, NotExpectedContent: []string{"sql", "closed"}},
			apitest.Scenario{Name: "healthz without a database", URL: "/healthz", ExpectedStatus: 200},
		)
	})
}

// With Redis configured, readiness asks it too.
func TestReadinessAsksRedis(t *testing.T) {
	s := apptest.New(t, "sqlite", "-redis-url", "redis://127.0.0.1:6379/0")
	apitest.Scenario{URL: "/readyz", ExpectedStatus: 200, ExpectedContent: []string{`"redis":"ok"`, `"database":"ok"`}}.Run(t, s.Handler)
}

func TestReadinessTimesOut(t *testing.T) {
	s := apptest.New(t, "sqlite")
	s.App.Checks = append(s.App.Checks, httpx.Check{Name: "stuck", Fn: func(context.Context) error { select {} }})
	start := time.Now()
	apitest.Scenario{URL: "/readyz", ExpectedStatus: 503, ExpectedContent: []string{`"stuck":"timeout"`, `"database":"ok"`}}.Run(t, s.Handler)
	if took := time.Since(start); took > httpx.ReadyTimeout+time.Second {
		t.Fatalf("readyz took %v", took)
	}
}

// Metrics count by route pattern, never by raw path.
func TestMetrics(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		for _, sc := range []apitest.Scenario{
			{URL: "/api/app/ping/check"}, {URL: "/api/app/ping/check"},
			{URL: "/api/app/nope-secret-path"}, {URL: "/api/app/modules/list?moduleType=9"},
			{URL: "/mine/setting"}, {URL: "/api/app/tag/conf/list"}, {URL: "/api/app/tag/conf/list"},
		} {
			sc.Send(t, s.Handler)
		}
		rec := httptest.NewRecorder()
		s.App.Metrics.Handler().ServeHTTP(rec, httptest.NewRequest(get, "/metrics", nil))
		out := rec.Body.String()
		pool := "main"
		if s.App.DB.Engine == "sqlite" {
			pool = "read"
		}
		for _, want := range []string{
			`prima_http_requests_total{code="2xx",route="GET /api/app/ping/check"} 2`,
			`prima_http_requests_total{code="4xx",route="/api/"} 1`,
			`prima_http_requests_total{code="4xx",route="GET /api/app/modules/list"} 1`,
			`prima_http_requests_total{code="2xx",route="/"} 1`,
			`prima_http_request_duration_seconds_bucket{code="2xx",route="GET /api/app/ping/check",le="+Inf"} 2`,
			`prima_http_requests_in_flight 0`,
			`go_goroutines`, `process_cpu_seconds_total`,
			`go_sql_open_connections{db_name="` + pool + `"}`,
			// The page cache: the tag list once from the database, once from memory.
			`prima_pagecache_lookups_total{result="miss"} 1`, `prima_pagecache_lookups_total{result="hit"} 1`,
			`prima_pagecache_entries 1`,
		} {
			if !strings.Contains(out, want) {
				t.Errorf("metrics lack %s", want)
			}
		}
		if strings.Contains(out, "nope-secret-path") {
			t.Error("a raw path became a label")
		}
	})
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// /metrics is served on its own listener and never on the public one.
func TestServeMetricsListener(t *testing.T) {
	addr, maddr := freeAddr(t), freeAddr(t)
	s := apptest.New(t, "sqlite", "-listen", addr, "-metrics-listen", maddr)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.App.Serve(ctx) }()
	fetch := func(url string) (int, string) {
		for range 100 {
			res, err := http.Get(url)
			if err != nil {
				time.Sleep(20 * time.Millisecond)
				continue
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			return res.StatusCode, string(b)
		}
		t.Fatalf("%s never answered", url)
		return 0, ""
	}
	if code, body := fetch("http://" + maddr + "/metrics"); code != 200 || !strings.Contains(body, "go_goroutines") {
		t.Fatalf("metrics listener: %d %.200s", code, body)
	}
	if _, body := fetch("http://" + addr + "/metrics"); strings.Contains(body, "go_goroutines") {
		t.Fatal("the public listener serves metrics")
	}
	if code, _ := fetch("http://" + addr + "/healthz"); code != 200 {
		t.Fatalf("healthz on the public listener: %d", code)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Serve did not stop")
	}
	if _, err := http.Get("http://" + maddr + "/metrics"); err == nil {
		t.Fatal("the metrics listener outlived Serve")
	}
}

// With PRIMA_SHUTDOWN_DRAIN, a stopping node first says it is not ready
// and closes every kept-alive connection it answers, while it still
// serves; then it stops. A balancer moves traffic away in that window.
func TestServeDrainsBeforeStopping(t *testing.T) {
	addr := freeAddr(t)
	s := apptest.New(t, "sqlite", "-listen", addr, "-shutdown-drain", "1500ms")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.App.Serve(ctx) }()
	get := func(path string) (*http.Response, string) {
		for range 100 {
			res, err := http.Get("http://" + addr + path)
			if err != nil {
				time.Sleep(20 * time.Millisecond)
				continue
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			return res, string(b)
		}
		t.Fatalf("%s never answered", path)
		return nil, ""
	}
	if res, body := get("/readyz"); res.StatusCode != 200 || !strings.Contains(body, `"accepting":"ok"`) || res.Close {
		t.Fatalf("before: %d %s close=%v", res.StatusCode, body, res.Close)
	}
	stopped := time.Now()
	cancel()
	time.Sleep(200 * time.Millisecond)
	if res, body := get("/readyz"); res.StatusCode != 503 || !strings.Contains(body, `"accepting":"fail"`) || !res.Close {
		t.Fatalf("draining: readyz %d %s close=%v", res.StatusCode, body, res.Close)
	}
	if res, _ := get("/api/app/ping/check"); res.StatusCode != 200 || !res.Close {
		t.Fatalf("draining: requests are still served, each closing its connection: %d close=%v", res.StatusCode, res.Close)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
		if time.Since(stopped) < 1500*time.Millisecond {
			t.Fatalf("stopped after %s, before the drain ended", time.Since(stopped))
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Serve did not stop")
	}
}
