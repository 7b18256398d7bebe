package httpx

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"prima/internal/apitest"
)

type loginBody struct {
	DevID   string `json:"devID"`
	SysType string `json:"sysType"`
}

func TestDecode(t *testing.T) {
	cases := []struct {
		name       string
		body       string
		wantStatus int
		wantTip    string
	}{
		{"valid", `{"devID":"abc","sysType":"ios"}`, 200, ""},
		{"unknown fields are ignored", `{"devID":"abc","extra":1}`, 200, ""},
		{"malformed", `{"devID":`, 400, "请求格式错误"},
		{"not json", `devID=abc`, 400, "请求格式错误"},
		{"empty", ``, 400, "请求内容不能为空"},
		{"wrong type names the field", `{"devID":5}`, 400, "devID"},
		{"array instead of object", `[1,2]`, 400, "请求格式错误"},
		{"two values", `{"devID":"a"}{"devID":"b"}`, 400, "请求格式错误"},
		{"oversized", `{"devID":"` + strings.Repeat("x", MaxBody) + `"}`, 413, "过大"},
	}
	h := Handler(func(w http.ResponseWriter, r *http.Request) error {
		var b loginBody
		if err := Decode(w, r, &b); err != nil {
			return err
		}
		return OK(w, b)
	})
	for _, c := range cases {
		apitest.Run(t, h, apitest.Scenario{Name: c.name, Method: "POST", URL: "/api/x", Body: c.body,
			Headers: map[string]string{"Content-Type": ""}, ExpectedStatus: c.wantStatus, ExpectedTip: c.wantTip})
	}
}

func TestQueryBounds(t *testing.T) {
	cases := []struct {
		query   string
		want    int64
		wantErr string
	}{
		{"", 20, ""},
		{"pageSize=5", 5, ""},
		{"pageSize=0", 0, "pageSize"},
		{"pageSize=100000", 0, "pageSize"},
		{"pageSize=abc", 0, "必须是整数"},
	}
	for _, c := range cases {
		r := httptest.NewRequest("GET", "/x?"+c.query, nil)
		q := Q(r)
		got := q.Int("pageSize", 20, 1, 50)
		if c.wantErr == "" {
			if q.Err() != nil || got != c.want {
				t.Errorf("%q: got %d, %v", c.query, got, q.Err())
			}
			continue
		}
		var e *Error
		if err := q.Err(); err == nil || !errors.As(err, &e) || e.Status != 422 || !strings.Contains(e.Tip, c.wantErr) {
			t.Errorf("%q: want a 422 naming %q, got %v", c.query, c.wantErr, q.Err())
		}
	}
	q := Q(httptest.NewRequest("GET", "/x", nil))
	q.Required("moduleID", 1, 1<<31)
	if q.Err() == nil {
		t.Error("a missing required parameter is accepted")
	}
}

func TestRecoverAnswersEnvelopeWithoutStack(t *testing.T) {
	h := Chain(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { panic("secret detail") }), WithRequestID, Recover)
	apitest.Scenario{URL: "/api/boom", ExpectedStatus: 500, NotExpectedContent: []string{"secret detail", "goroutine"},
		Check: func(t *testing.T, res *apitest.Response) {
			if res.Header().Get("X-Request-Id") == "" {
				t.Error("no request id")
			}
		}}.Run(t, h)
}

func TestInternalErrorHidesCause(t *testing.T) {
	h := Handler(func(w http.ResponseWriter, r *http.Request) error {
		return io.ErrUnexpectedEOF // not an *Error: must become a generic 500
	})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/x", nil))
	if rec.Code != 500 || strings.Contains(rec.Body.String(), "unexpected EOF") {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
}

// An error's Data goes into the envelope beside its tip (the console's
// 428 enrolment, its 403 step-up); without Data it is null.
func TestErrorData(t *testing.T) {
	for _, c := range []struct {
		err  *Error
		want string
	}{
		{&Error{Status: 403, Tip: "请输入动态验证码以继续", Msg: "m", Data: map[string]bool{"stepUp": true}}, `{"code":403,"tip":"请输入动态验证码以继续","msg":"m","data":{"stepUp":true}}`},
		{Forbidden("没有权限", "m"), `{"code":403,"tip":"没有权限","msg":"m","data":null}`},
	} {
		rec := httptest.NewRecorder()
		WriteError(rec, httptest.NewRequest("GET", "/api/x", nil), c.err)
		if got := strings.TrimSpace(rec.Body.String()); rec.Code != 403 || got != c.want {
			t.Errorf("%d %s, want %s", rec.Code, got, c.want)
		}
	}
}

func TestSecurityHeaders(t *testing.T) {
	h := SecurityHeaders(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	csp := rec.Header().Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self';") {
		t.Errorf("CSP allows inline script or is missing: %q", csp)
	}
	if rec.Header().Get("X-Content-Type-Options") != "nosniff" || rec.Header().Get("Referrer-Policy") == "" {
		t.Errorf("headers %v", rec.Header())
	}
}

func TestGzip(t *testing.T) {
	big := strings.Repeat(`{"title":"视频"},`, 200)
	h := Gzip(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/json":
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, big)
		case "/png":
			w.Header().Set("Content-Type", "image/png")
			_, _ = w.Write([]byte("\x89PNG...."))
		case "/range":
			w.Header().Set("Content-Type", "text/vtt")
			w.Header().Set("Content-Range", "bytes 0-9/100")
			w.WriteHeader(http.StatusPartialContent)
			_, _ = io.WriteString(w, "WEBVTT\n\n0")
		}
	}))
	get := func(path, accept string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", path, nil)
		if accept != "" {
			r.Header.Set("Accept-Encoding", accept)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec
	}
	rec := get("/json", "gzip, br")
	if rec.Header().Get("Content-Encoding") != "gzip" {
		t.Fatal("JSON not compressed")
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if string(plain) != big {
		t.Fatal("round trip differs")
	}
	if rec := get("/json", ""); rec.Header().Get("Content-Encoding") != "" || rec.Body.String() != big {
		t.Fatal("compressed for a client that did not ask")
	}
	if rec := get("/png", "gzip"); rec.Header().Get("Content-Encoding") != "" {
		t.Fatal("images are not worth compressing")
	}
	if rec := get("/range", "gzip"); rec.Header().Get("Content-Encoding") != "" || rec.Body.String() != "WEBVTT\n\n0" {
		t.Fatal("a partial response was compressed")
	}
}

func TestAccessLogLine(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	h := Chain(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(418) }), WithRequestID, AccessLog(log))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/tea", nil))
	line := buf.String()
	for _, want := range []string{"path=/tea", "status=418", "request_id="} {
		if !strings.Contains(line, want) {
			t.Errorf("log line %q lacks %q", line, want)
		}
	}
}

// A request id is taken only from a trusted proxy, and only when it is sane.
func TestRequestIDFromTrustedProxyOnly(t *testing.T) {
	trusted, _ := ParseTrustedProxies("10.0.0.0/8")
	h := Chain(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}), RealIP(trusted), WithRequestID)
	for _, c := range []struct {
		peer, id string
		kept     bool
	}{
		{"10.0.0.1:1", "abc-123_X.y", true},
		{"203.0.113.1:1", "abc-123", false},
		{"10.0.0.1:1", "has space", false},
		{"10.0.0.1:1", strings.Repeat("a", 65), false},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = c.peer
		r.Header.Set("X-Request-Id", c.id)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		got := rec.Header().Get("X-Request-Id")
		if (got == c.id) != c.kept || got == "" {
			t.Errorf("peer %s id %q: answered %q", c.peer, c.id, got)
		}
	}
}

func TestPrincipal(t *testing.T) {
	ctx := context.Background()
	if _, ok := PrincipalFrom(ctx); ok || UserID(ctx) != 0 {
		t.Fatal("an empty context has a principal")
	}
	op := WithPrincipal(ctx, Principal{UID: 7, Role: RoleOwner})
	if p, ok := PrincipalFrom(op); !ok || p.UID != 7 || !p.IsOperator() || UserID(op) != 7 {
		t.Fatalf("operator principal = %+v, %v", p, ok)
	}
	u := WithUserID(ctx, 9)
	if p, ok := PrincipalFrom(u); !ok || p.UID != 9 || p.IsOperator() || p.Role != RoleUser {
		t.Fatalf("WithUserID principal = %+v, %v", p, ok)
	}
	for r, want := range map[Role]bool{RoleUser: true, RoleOperator: true, "admin": false, "": false} {
		if r.Valid() != want {
			t.Errorf("Role(%q).Valid() = %v", r, !want)
		}
	}
	// A users row's operator flag is no console role: a phone-app token of
	// an operator is not an operator principal.
	for r, want := range map[Role]bool{RoleOwner: true, RoleContent: true, RoleModerator: true, RoleFinance: true, RoleSupport: true,
		RoleOperator: false, RoleUser: false, "admin": false, "": false} {
		if r.Console() != want {
			t.Errorf("Role(%q).Console() = %v", r, !want)
		}
		if (Principal{UID: 1, Role: r}).IsOperator() != want {
			t.Errorf("Principal with %q: IsOperator() = %v", r, !want)
		}
	}
}

// A request its client abandoned is logged as such, not as a server error.
func TestAbandonedRequestIsNotAnError(t *testing.T) {
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	defer slog.SetDefault(old)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := httptest.NewRequest("GET", "/x", nil).WithContext(ctx)
	WriteError(httptest.NewRecorder(), r, errors.New("sql: transaction has already been committed or rolled back"))
	if strings.Contains(buf.String(), "level=ERROR") || !strings.Contains(buf.String(), "abandoned") {
		t.Fatalf("log %q", buf.String())
	}
	buf.Reset()
	WriteError(httptest.NewRecorder(), httptest.NewRequest("GET", "/x", nil), errors.New("boom"))
	if !strings.Contains(buf.String(), "level=ERROR") {
		t.Fatalf("a live request's failure is not an error: %q", buf.String())
	}
}
