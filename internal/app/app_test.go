package app

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"prima/internal/platform/config"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func newTestApp(t *testing.T, e db.Engine) http.Handler {
	t.Helper()
	cfg, err := config.Load("test", []string{"-data-dir", t.TempDir(), "-database-url", dbtest.URL(t, e)})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	h, err := a.Handler()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

type envelope struct {
	Code int             `json:"code"`
	Tip  string          `json:"tip"`
	Data json.RawMessage `json:"data"`
}

func do(t *testing.T, h http.Handler, method, path, body, token string) (*httptest.ResponseRecorder, envelope) {
	t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	var e envelope
	if strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
			t.Fatalf("%s %s: bad envelope %q", method, path, rec.Body)
		}
	}
	return rec, e
}

// The whole stack on both engines: middleware order, auth wiring, health,
// the API 404 and every response's security headers.
func TestServerWiring(t *testing.T) {
	for _, e := range []db.Engine{db.SQLite, db.Postgres} {
		t.Run(string(e), func(t *testing.T) {
			h := newTestApp(t, e)

			rec, env := do(t, h, "GET", "/api/app/ping/check", "", "")
			if rec.Code != 200 || env.Code != 200 {
				t.Fatalf("ping/check: %d %+v", rec.Code, env)
			}
			if rec.Header().Get("X-Request-Id") == "" || rec.Header().Get("Content-Security-Policy") == "" || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
				t.Fatalf("missing headers: %v", rec.Header())
			}
			if rec, _ := do(t, h, "GET", "/check", "", ""); rec.Body.String() != "ok" {
				t.Fatalf("/check: %q", rec.Body)
			}
			rec, env = do(t, h, "GET", "/api/app/nope", "", "")
			if rec.Code != 404 || env.Code != 404 || env.Tip == "" {
				t.Fatalf("unknown api: %d %+v", rec.Code, env)
			}

			// A guest signs in and the token works through the full chain;
			// a garbage token gets a clear 401.
			rec, env = do(t, h, "POST", "/api/app/mine/login", `{"devID":"AbCdEfGhIjKlMnOp1763700000000","sysType":"ios","cutInfos":""}`, "")
			if rec.Code != 200 {
				t.Fatalf("guest login: %d %s", rec.Code, rec.Body)
			}
			var login struct {
				Token string `json:"token"`
				User  struct {
					UID int64 `json:"uid"`
				} `json:"user"`
			}
			if err := json.Unmarshal(env.Data, &login); err != nil || login.Token == "" || login.User.UID == 0 {
				t.Fatalf("login data %s", env.Data)
			}
			if rec, _ := do(t, h, "GET", "/api/app/mine/info", "", login.Token); rec.Code != 200 {
				t.Fatalf("info with token: %d %s", rec.Code, rec.Body)
			}
			if rec, env := do(t, h, "GET", "/api/app/mine/info", "", "garbage"); rec.Code != 401 || env.Tip == "" {
				t.Fatalf("garbage token: %d %+v", rec.Code, env)
			}
			// A garbage token on a public route is ignored, not fatal.
			if rec, _ := do(t, h, "GET", "/api/app/modules/list", "", "garbage"); rec.Code != 200 {
				t.Fatalf("public route with garbage token: %d", rec.Code)
			}
			if rec, env := do(t, h, "GET", "/api/app/modules/list?moduleType=9", "", ""); rec.Code != 422 || !strings.Contains(env.Tip, "moduleType") {
				t.Fatalf("unknown moduleType: %d %+v", rec.Code, env)
			}
			// The operator API: no token 401, a user's token 403, for known
			// and unknown admin paths alike.
			for _, path := range []string{"/api/admin/audit", "/api/admin/users?account=demo", "/api/admin/nope"} {
				if rec, env := do(t, h, "GET", path, "", ""); rec.Code != 401 || env.Tip == "" {
					t.Fatalf("%s without a token: %d %+v", path, rec.Code, env)
				}
				if rec, env := do(t, h, "GET", path, "", login.Token); rec.Code != 403 || env.Tip == "" {
					t.Fatalf("%s as a guest: %d %+v", path, rec.Code, env)
				}
			}
		})
	}
}

func TestWebApp(t *testing.T) {
	js := strings.Repeat("console.log('prima');", 100)
	wa, err := newWebApp(fstest.MapFS{
		"index.html":             {Data: []byte("<!doctype html><div id=root></div>")},
		"assets/index-abc123.js": {Data: []byte(js)},
		"manifest.webmanifest":   {Data: []byte(`{"name":"Prima"}`)},
		".keep":                  {Data: []byte("x")},
	})
	if err != nil {
		t.Fatal(err)
	}
	get := func(path, enc string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", path, nil)
		if enc != "" {
			r.Header.Set("Accept-Encoding", enc)
		}
		rec := httptest.NewRecorder()
		wa.ServeHTTP(rec, r)
		return rec
	}
	cases := []struct {
		path, enc, wantBody, wantCache, wantEnc string
		wantStatus                              int
	}{
		{"/", "", "<div id=root>", "no-cache", "", 200},
		{"/mine/setting", "", "<div id=root>", "no-cache", "", 200},
		{"/detail/42", "", "<div id=root>", "no-cache", "", 200},
		{"/assets/index-abc123.js", "", "console.log", "public, max-age=31536000, immutable", "", 200},
		{"/assets/index-abc123.js", "gzip", "", "public, max-age=31536000, immutable", "gzip", 200},
		{"/assets/gone-999.js", "", "", "", "", 404},
		{"/favicon.ico", "", "", "", "", 404},
		{"/.keep", "", "", "", "", 404}, // the go:embed placeholder is not served
	}
	for _, c := range cases {
		rec := get(c.path, c.enc)
		if rec.Code != c.wantStatus {
			t.Errorf("%s: status %d, want %d", c.path, rec.Code, c.wantStatus)
			continue
		}
		if c.wantStatus != 200 {
			continue
		}
		if got := rec.Header().Get("Cache-Control"); got != c.wantCache {
			t.Errorf("%s: cache %q, want %q", c.path, got, c.wantCache)
		}
		if got := rec.Header().Get("Content-Encoding"); got != c.wantEnc {
			t.Errorf("%s: encoding %q, want %q", c.path, got, c.wantEnc)
		}
		if c.wantBody != "" && !strings.Contains(rec.Body.String(), c.wantBody) {
			t.Errorf("%s: body %q", c.path, rec.Body)
		}
	}
	if rec := get("/manifest.webmanifest", ""); rec.Code != 200 || !strings.Contains(rec.Header().Get("Content-Type"), "manifest") {
		t.Errorf("manifest: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	r := httptest.NewRequest("POST", "/home", nil)
	rec := httptest.NewRecorder()
	wa.ServeHTTP(rec, r)
	if rec.Code != 405 {
		t.Errorf("POST to a page: %d", rec.Code)
	}
}
