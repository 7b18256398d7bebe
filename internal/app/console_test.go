package app

import (
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

// TestConsoleApp: the console answers under /admin/ only, every client
// route gets its index.html uncached, hashed assets are cached for a year,
// a missing file is a 404 (not the page), and every answer carries the
// console's strict policy: scripts and styles from this origin only, with
// no 'unsafe-inline' of either.
func TestConsoleApp(t *testing.T) {
	js := strings.Repeat("console.log('console');", 100)
	ca, err := newConsoleApp(fstest.MapFS{
		"index.html":          {Data: []byte("<!doctype html><div id=root></div><script type=module src=/admin/assets/index-abc.js></script>")},
		"assets/index-abc.js": {Data: []byte(js)},
		"assets/antd-def.css": {Data: []byte(".ant{}")},
		"favicon.svg":         {Data: []byte("<svg/>")},
		".keep":               {Data: []byte("x")},
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		method, path, enc  string
		status             int
		body, cache, ctype string
	}{
		{"GET", "/admin/", "", 200, "<div id=root>", "no-cache", "text/html"},
		{"GET", "/admin/login", "", 200, "<div id=root>", "no-cache", "text/html"},
		{"GET", "/admin/audit", "", 200, "<div id=root>", "no-cache", "text/html"},
		{"GET", "/admin/content/videos", "", 200, "<div id=root>", "no-cache", "text/html"},
		{"HEAD", "/admin/people", "", 200, "", "no-cache", "text/html"},
		{"GET", "/admin/assets/index-abc.js", "", 200, "console.log", "public, max-age=31536000, immutable", "text/javascript"},
		{"GET", "/admin/assets/index-abc.js", "gzip", 200, "", "public, max-age=31536000, immutable", "text/javascript"},
		{"GET", "/admin/assets/antd-def.css", "", 200, ".ant{}", "public, max-age=31536000, immutable", "text/css"},
		{"GET", "/admin/favicon.svg", "", 200, "<svg/>", "no-cache", "image/svg+xml"},
		{"GET", "/admin/assets/gone-999.js", "", 404, "", "", ""},
		{"GET", "/admin/assets/no-extension", "", 404, "", "", ""},
		{"GET", "/admin/robots.txt", "", 404, "", "", ""},
		{"GET", "/admin/.keep", "", 404, "", "", ""},
		{"POST", "/admin/login", "", 405, "", "", ""},
		{"GET", "/admin", "", 301, "", "", ""},
	}
	for _, c := range cases {
		r := httptest.NewRequest(c.method, c.path, nil)
		if c.enc != "" {
			r.Header.Set("Accept-Encoding", c.enc)
		}
		rec := httptest.NewRecorder()
		ca.ServeHTTP(rec, r)
		name := c.method + " " + c.path + " " + c.enc
		if rec.Code != c.status {
			t.Errorf("%s: status %d, want %d", name, rec.Code, c.status)
			continue
		}
		csp := rec.Header().Get("Content-Security-Policy")
		if csp != consoleCSP {
			t.Errorf("%s: CSP %q", name, csp)
		}
		if got := rec.Header().Get("X-Robots-Tag"); got != "noindex, nofollow" {
			t.Errorf("%s: X-Robots-Tag %q", name, got)
		}
		if c.status == 301 {
			if loc := rec.Header().Get("Location"); loc != "/admin/" {
				t.Errorf("%s: Location %q", name, loc)
			}
			continue
		}
		if c.status != 200 {
			continue
		}
		if got := rec.Header().Get("Cache-Control"); got != c.cache {
			t.Errorf("%s: cache %q, want %q", name, got, c.cache)
		}
		if got := rec.Header().Get("Content-Type"); !strings.HasPrefix(got, c.ctype) {
			t.Errorf("%s: type %q, want %q", name, got, c.ctype)
		}
		if c.enc == "gzip" && rec.Header().Get("Content-Encoding") != "gzip" {
			t.Errorf("%s: not gzipped", name)
		}
		if c.body != "" && !strings.Contains(rec.Body.String(), c.body) {
			t.Errorf("%s: body %.80q", name, rec.Body.String())
		}
	}
	// The policy itself: nothing inline, nothing scripted or framed from elsewhere.
	for _, directive := range []string{"script-src 'self';", "style-src 'self';", "object-src 'none'", "frame-ancestors 'none'", "base-uri 'none'", "connect-src 'self';"} {
		if !strings.Contains(consoleCSP, directive) {
			t.Errorf("console CSP lacks %q", directive)
		}
	}
	if strings.Contains(consoleCSP, "unsafe-inline") || strings.Contains(consoleCSP, "unsafe-eval") {
		t.Errorf("console CSP allows inline code: %q", consoleCSP)
	}
}

// TestConsoleNotBuilt: a binary built without the console says how to build it.
func TestConsoleNotBuilt(t *testing.T) {
	ca, err := newConsoleApp(fstest.MapFS{".keep": {Data: []byte("x")}})
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	ca.ServeHTTP(rec, httptest.NewRequest("GET", "/admin/login", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "make build") {
		t.Fatalf("%d %q", rec.Code, rec.Body.String())
	}
}
