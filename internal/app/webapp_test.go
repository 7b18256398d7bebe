package app

import (
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
