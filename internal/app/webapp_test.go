package app

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

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

// TestThemedPage: a theme chosen in the app (its cookie) comes back on the
// page's <html>, plain and gzipped, so the page paints in it before any
// script; no cookie or any other value leaves the system's; the page says
// it varies by cookie.
func TestThemedPage(t *testing.T) {
	index := "<!doctype html><html lang=\"zh-CN\"><head></head><body>" + strings.Repeat("<p>prima</p>", 100) + "</body></html>"
	wa, err := newWebApp(fstest.MapFS{"index.html": {Data: []byte(index)}})
	if err != nil {
		t.Fatal(err)
	}
	get := func(theme, enc string) (string, *httptest.ResponseRecorder) {
		r := httptest.NewRequest("GET", "/mine/setting", nil)
		if theme != "" {
			r.AddCookie(&http.Cookie{Name: "prima_theme", Value: theme})
		}
		if enc != "" {
			r.Header.Set("Accept-Encoding", enc)
		}
		rec := httptest.NewRecorder()
		wa.ServeHTTP(rec, r)
		body := rec.Body.String()
		if rec.Header().Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(zr)
			body = string(b)
		}
		return body, rec
	}
	for _, c := range []struct{ cookie, want string }{
		{"dark", `<html data-prefers-color-scheme="dark" lang="zh-CN">`},
		{"light", `<html data-prefers-color-scheme="light" lang="zh-CN">`},
		{"", `<html lang="zh-CN">`},
		{`dark" onload="x`, `<html lang="zh-CN">`},
		{"blue", `<html lang="zh-CN">`},
	} {
		for _, enc := range []string{"", "gzip"} {
			body, rec := get(c.cookie, enc)
			if !strings.Contains(body, c.want) || !strings.HasSuffix(body, "</body></html>") {
				t.Errorf("theme %q, encoding %q: %.80s", c.cookie, enc, body)
			}
			if !strings.Contains(strings.Join(rec.Header().Values("Vary"), ","), "Cookie") {
				t.Errorf("theme %q: Vary %q", c.cookie, rec.Header().Values("Vary"))
			}
		}
	}
}
