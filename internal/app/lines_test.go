package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/catalog"
	"prima/internal/platform/httpx"
	"prima/internal/report"
)

// operatorToken makes ops_1 an operator (an owner) and signs it in to the
// console (password and TOTP): a console token.
func operatorToken(t *testing.T, s *apptest.Server) string {
	t.Helper()
	return s.Operator(t, "ops_1", httpx.RoleOwner).Token
}

func auditRows(t *testing.T, s *apptest.Server, action string) int {
	t.Helper()
	var n int
	if err := s.App.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM audit_log WHERE action = ?`, action).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func lineRows(t *testing.T, s *apptest.Server) int {
	t.Helper()
	var n int
	if err := s.App.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM delivery_lines`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestDomainsWithoutLinesAreThisServer(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		res := apitest.Scenario{URL: "http://m.prima.test/api/app/ping/domain/h5", ExpectedStatus: 200}.Run(t, s.Handler)
		d := apitest.Data[catalog.Domains](t, res)
		want := []string{"http://m.prima.test"}
		if !slices.Equal(d.API, want) || !slices.Equal(d.Image, want) || !slices.Equal(d.Video, want) || len(d.Fallback) != 0 || d.Fallback == nil {
			t.Errorf("domains %+v", d)
		}
		// The CSP is the fixed one: only this origin may be called.
		if csp := res.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self';") {
			t.Errorf("csp %q", csp)
		}
	})
}

func TestOperatorSetsLines(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		op := operatorToken(t, s)
		user := apitest.GuestLogin(t, s.Handler, apitest.DevID(1))
		body := `{"api":["https://API1.example.org/","https://api2.example.org:8443","https://api1.example.org:443"],
			"image":["https://img.example.org"],"video":[],"fallback":["https://cdn.example.net/lines.txt"]}`

		// Nobody but an operator reaches the calls, and nothing changes.
		apitest.Run(t, s.Handler,
			apitest.Scenario{Name: "no token", Method: "POST", URL: "/api/admin/lines", Body: body, ExpectedStatus: 401},
			apitest.Scenario{Name: "a user", Method: "POST", URL: "/api/admin/lines", Body: body, Token: user, ExpectedStatus: 401},
			apitest.Scenario{Name: "a user reads", URL: "/api/admin/lines", Token: user, ExpectedStatus: 401},
		)
		if lineRows(t, s) != 0 || auditRows(t, s, "lines.set") != 0 {
			t.Fatal("a refused call changed something")
		}

		// Bad entries: 422 naming the list and the entry; nothing stored.
		for _, c := range []struct{ body, tip string }{
			{`{"api":["ftp://a.example.org"]}`, "api 第 1 项"},
			{`{"api":["https://a.example.org","/relative"]}`, "api 第 2 项"},
			{`{"image":["https://user:pw@a.example.org"]}`, "image 第 1 项"},
			{`{"video":["https://a.example.org/videos"]}`, "video 第 1 项"},
			{`{"video":["https://a.example.org/?x=1"]}`, "video 第 1 项"},
			{`{"api":["https://a b.example.org"]}`, "api 第 1 项"},
			{`{"api":["https://a.example.org;script-src"]}`, "api 第 1 项"},
			{`{"fallback":["https://cdn.example.net/"]}`, "fallback 第 1 项"},
			{`{"api":["https://a.example.org#x"]}`, "api 第 1 项"},
			{`{"api":["https://a.example.org:99999"]}`, "api 第 1 项"},
			{`{"api":[""]}`, "api 第 1 项"},
			{`{"api":["https://a\u0000.example.org"]}`, "控制字符"},
			{`{"api":[` + strings.TrimSuffix(manyLines(21), ",") + `]}`, "api 第 21 项"},
		} {
			apitest.Scenario{Name: c.body, Method: "POST", URL: "/api/admin/lines", Body: c.body, Token: op,
				ExpectedStatus: 422, ExpectedTip: c.tip}.Run(t, s.Handler)
		}
		if lineRows(t, s) != 0 || auditRows(t, s, "lines.set") != 0 {
			t.Fatal("a bad call changed something")
		}

		// A good call: normalised, deduplicated, stored in order, audited.
		res := apitest.Scenario{Method: "POST", URL: "/api/admin/lines", Body: body, Token: op, ExpectedStatus: 200}.Run(t, s.Handler)
		want := catalog.Lines{API: []string{"https://api1.example.org", "https://api2.example.org:8443"},
			Image: []string{"https://img.example.org"}, Video: []string{}, Fallback: []string{"https://cdn.example.net/lines.txt"}}
		if got := apitest.Data[catalog.Lines](t, res); !equalLines(got, want) {
			t.Errorf("stored %+v", got)
		}
		got := apitest.Data[catalog.Lines](t, apitest.Scenario{URL: "/api/admin/lines", Token: op, ExpectedStatus: 200}.Run(t, s.Handler))
		if !equalLines(got, want) {
			t.Errorf("read back %+v", got)
		}
		if n := auditRows(t, s, "lines.set"); n != 1 {
			t.Fatalf("%d audit rows", n)
		}
		var after string
		if err := s.App.DB.QueryRow(context.Background(), `SELECT after FROM audit_log WHERE action = 'lines.set'`).Scan(&after); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(after, "https://api2.example.org:8443") {
			t.Errorf("audit after %s", after)
		}

		// domain/h5 answers them at once (the cache was dropped on commit);
		// the empty video list is still this server.
		res = apitest.Scenario{URL: "http://m.prima.test/api/app/ping/domain/h5", ExpectedStatus: 200}.Run(t, s.Handler)
		d := apitest.Data[catalog.Domains](t, res)
		if !slices.Equal(d.API, want.API) || !slices.Equal(d.Image, want.Image) || !slices.Equal(d.Video, []string{"http://m.prima.test"}) ||
			!slices.Equal(d.Fallback, want.Fallback) {
			t.Errorf("domains %+v", d)
		}
		// The CSP lets the page reach the lines (and any https origin, for
		// the lines a fallback file may name).
		csp := res.Header().Get("Content-Security-Policy")
		if !strings.Contains(csp, "connect-src 'self' https://api1.example.org https://api2.example.org:8443 https://img.example.org https://cdn.example.net https:;") ||
			!strings.Contains(csp, "media-src 'self' blob: https: https://api1.example.org") {
			t.Errorf("csp %q", csp)
		}

		// CORS: a page on a line may call this one; another origin may not.
		// (A preflight has no body, so it is sent without apitest.)
		pre := httptest.NewRequest("OPTIONS", "/api/app/ping/check", nil)
		pre.Header.Set("Origin", "https://api2.example.org:8443")
		pre.Header.Set("Access-Control-Request-Method", "GET")
		pre.Header.Set("Access-Control-Request-Headers", "x-app-client")
		r := httptest.NewRecorder()
		s.Handler.ServeHTTP(r, pre)
		if r.Code != 204 || r.Header().Get("Access-Control-Allow-Origin") != "https://api2.example.org:8443" ||
			!strings.Contains(r.Header().Get("Access-Control-Allow-Headers"), "X-App-Client") {
			t.Errorf("preflight %d %v", r.Code, r.Header())
		}
		res = apitest.Scenario{URL: "/api/app/ping/check", Headers: map[string]string{"Origin": "https://evil.example"}}.Send(t, s.Handler)
		if res.Header().Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("evil origin allowed: %v", res.Header())
		}
		// Media too (hls.js on a page of one line fetches from a video line),
		// with Range allowed and the range headers readable; not for
		// another origin.
		pre = httptest.NewRequest("OPTIONS", "/media/s/x/videos/1/hls/master.m3u8", nil)
		pre.Header.Set("Origin", "https://img.example.org")
		pre.Header.Set("Access-Control-Request-Method", "GET")
		pre.Header.Set("Access-Control-Request-Headers", "range")
		r = httptest.NewRecorder()
		s.Handler.ServeHTTP(r, pre)
		if r.Code != 204 || r.Header().Get("Access-Control-Allow-Origin") != "https://img.example.org" || r.Header().Get("Access-Control-Allow-Headers") != "Range" ||
			r.Header().Get("Access-Control-Allow-Methods") != "GET, HEAD" {
			t.Errorf("media preflight %d %v", r.Code, r.Header())
		}
		for origin, want := range map[string]string{"https://img.example.org": "https://img.example.org", "https://evil.example": ""} {
			get := httptest.NewRequest("GET", "/media/covers/none.jpg", nil)
			get.Header.Set("Origin", origin)
			r = httptest.NewRecorder()
			s.Handler.ServeHTTP(r, get)
			if r.Header().Get("Access-Control-Allow-Origin") != want || (want != "" && !strings.Contains(r.Header().Get("Access-Control-Expose-Headers"), "Content-Range")) {
				t.Errorf("media GET from %s: %v", origin, r.Header())
			}
		}
		// Fallback sources are file hosts, not pages.
		res = apitest.Scenario{URL: "/api/app/ping/check", Headers: map[string]string{"Origin": "https://cdn.example.net"}}.Send(t, s.Handler)
		if res.Header().Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("fallback host allowed: %v", res.Header())
		}

		// Emptying every list brings back the single-origin answer.
		apitest.Scenario{Method: "POST", URL: "/api/admin/lines", Body: `{}`, Token: op, ExpectedStatus: 200}.Run(t, s.Handler)
		d = apitest.Data[catalog.Domains](t, apitest.Scenario{URL: "http://m.prima.test/api/app/ping/domain/h5", ExpectedStatus: 200}.Run(t, s.Handler))
		if !slices.Equal(d.API, []string{"http://m.prima.test"}) || len(d.Fallback) != 0 {
			t.Errorf("after clearing %+v", d)
		}
		if n := auditRows(t, s, "lines.set"); n != 2 || lineRows(t, s) != 0 {
			t.Fatalf("%d audit rows, %d line rows", n, lineRows(t, s))
		}
	})
}

func manyLines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `"https://l%d.example.org",`, i)
	}
	return b.String()
}

func equalLines(a, b catalog.Lines) bool {
	return slices.Equal(a.API, b.API) && slices.Equal(a.Image, b.Image) && slices.Equal(a.Video, b.Video) && slices.Equal(a.Fallback, b.Fallback)
}

type reportListing struct {
	List []struct {
		ID     int64           `json:"id"`
		Kind   string          `json:"kind"`
		UID    int64           `json:"uid"`
		IP     string          `json:"ip"`
		Dev    string          `json:"dev"`
		Detail json.RawMessage `json:"detail"`
	} `json:"list"`
	Total        int                `json:"total"`
	FailingLines []report.LineCount `json:"failingLines"`
}

func reportCount(t *testing.T, s *apptest.Server) int {
	t.Helper()
	var n int
	if err := s.App.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM error_reports`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestErrorReports(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		op := operatorToken(t, s)
		guest := apitest.GuestLogin(t, s.Handler, apitest.DevID(2))
		guestUID := uidOf(t, s, guest)
		line := `{"kind":"line","appname":"prima","appv":"1.1.3","dev":"ios","userid":999,"userip":"6.6.6.6",
			"domain":{"http://127.0.0.1:9":"network","https://api2.example.org":"timeout"}}`
		post := func(name, body, token, addr string, status int, tip string) *apitest.Response {
			return apitest.Scenario{Name: name, Method: "POST", URL: "/api/app/report/error", Body: body, Token: token,
				RemoteAddr: addr, ExpectedStatus: status, ExpectedTip: tip}.Run(t, s.Handler)
		}

		// Bad reports: 4xx, nothing stored.
		post("unknown kind", `{"kind":"weather","domain":{"https://a.example.org":"timeout"}}`, "", "198.51.100.1:1", 422, "kind")
		post("no kind", `{"domain":{"https://a.example.org":"timeout"}}`, "", "198.51.100.1:1", 422, "kind")
		post("NUL", `{"kind":"line","appname":"a\u0000b","domain":{"https://a.example.org":"timeout"}}`, "", "198.51.100.1:1", 422, "控制字符")
		post("NUL in a line", `{"kind":"line","domain":{"https://a.example.org\u0000":"timeout"}}`, "", "198.51.100.1:1", 422, "控制字符")
		post("no lines", `{"kind":"line","domain":{}}`, "", "198.51.100.1:1", 422, "domain")
		post("not a line", `{"kind":"line","domain":{"javascript:alert(1)":"timeout"}}`, "", "198.51.100.1:1", 422, "domain")
		post("long field", `{"kind":"payment","payid":"`+strings.Repeat("x", 200)+`"}`, "", "198.51.100.1:1", 422, "payid")
		post("empty payment", `{"kind":"payment","payname":"alipay"}`, "", "198.51.100.1:1", 422, "payid")
		post("oversized", `{"kind":"payment","payid":"1","emsg":"`+strings.Repeat("x", report.MaxBody)+`"}`, "", "198.51.100.1:1", 413, "过大")
		if n := reportCount(t, s); n != 0 {
			t.Fatalf("%d reports stored by bad calls", n)
		}

		// A line report with a token: the uid is the token's and the
		// address the connection's, whatever the body says.
		post("line", line, guest, "198.51.100.2:1", 200, "")
		// A payment report without a token: uid 0.
		post("payment", `{"kind":"payment","appname":"prima","appv":"1.1.3","dev":"ios","payname":"alipay","payid":"p-1","paytype":"vip","payadds":"https://pay.example","emsg":"支付失败\n重试","userid":5}`,
			"", "198.51.100.3:1", 200, "")
		post("line again", `{"kind":"line","dev":"android","domain":{"http://127.0.0.1:9":"timeout"}}`, "", "198.51.100.4:1", 200, "")

		// Operators only.
		apitest.Scenario{URL: "/api/admin/reports", ExpectedStatus: 401}.Run(t, s.Handler)
		apitest.Scenario{URL: "/api/admin/reports", Token: guest, ExpectedStatus: 401}.Run(t, s.Handler)
		apitest.Scenario{URL: "/api/admin/reports?kind=weather", Token: op, ExpectedStatus: 422}.Run(t, s.Handler)
		apitest.Scenario{URL: "/api/admin/reports?pageSize=0", Token: op, ExpectedStatus: 422}.Run(t, s.Handler)

		all := apitest.Data[reportListing](t, apitest.Scenario{URL: "/api/admin/reports", Token: op, ExpectedStatus: 200}.Run(t, s.Handler))
		if all.Total != 3 || len(all.List) != 3 || all.List[0].Dev != "android" || all.List[2].Kind != "line" {
			t.Fatalf("listing %+v", all)
		}
		first := all.List[2]
		if first.UID != guestUID || first.IP != "198.51.100.2" {
			t.Errorf("line report uid %d ip %q (want %d, 198.51.100.2)", first.UID, first.IP, guestUID)
		}
		if pay := all.List[1]; pay.UID != 0 || pay.IP != "198.51.100.3" || !strings.Contains(string(pay.Detail), `"payid":"p-1"`) ||
			!strings.Contains(string(pay.Detail), `支付失败\n重试`) {
			t.Errorf("payment report %+v %s", pay, pay.Detail)
		}
		// The dead line leads the counts: two reports, the newest a timeout.
		if fl := all.FailingLines; len(fl) != 2 || fl[0].Line != "http://127.0.0.1:9" || fl[0].Reports != 2 || fl[0].LastReason != "timeout" ||
			fl[1].Line != "https://api2.example.org" || fl[1].Reports != 1 {
			t.Errorf("failing lines %+v", fl)
		}
		pays := apitest.Data[reportListing](t, apitest.Scenario{URL: "/api/admin/reports?kind=payment&pageSize=5", Token: op, ExpectedStatus: 200}.Run(t, s.Handler))
		if pays.Total != 1 || len(pays.List) != 1 || pays.List[0].Kind != "payment" {
			t.Errorf("payments %+v", pays)
		}

		// The limit: a few reports a minute per address, then 429 with
		// Retry-After; another address is not affected.
		for i := 1; i < report.PerIPLimit; i++ {
			post("within the limit", line, "", "198.51.100.2:1", 200, "")
		}
		res := post("over the limit", line, "", "198.51.100.2:1", 429, "频繁")
		if res.Header().Get("Retry-After") == "" {
			t.Error("429 without Retry-After")
		}
		post("another address", line, "", "198.51.100.9:1", 200, "")
	})
}
