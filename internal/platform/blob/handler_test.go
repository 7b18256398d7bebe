package blob_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"prima/internal/platform/blob"
)

const secret = "test-secret-0123456789abcdef0123456789"

type fixture struct {
	srv    *httptest.Server
	signer *blob.Signer
	clock  *atomic.Int64 // unix seconds
	video  []byte
}

func newFixture(t *testing.T, s blob.Store) *fixture {
	t.Helper()
	ctx := context.Background()
	video := make([]byte, 1000)
	for i := range video {
		video[i] = byte(i % 251)
	}
	files := map[string][]byte{
		"covers/7.jpg":                          []byte("\xff\xd8\xff\xe0fake jpeg body"),
		"videos/3/full.mp4":                     video,
		"videos/3/hls/master.m3u8":              []byte("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\n720p/index.m3u8\n"),
		"videos/3/hls/720p/seg1.m4s":            []byte("segment one"),
		"videos/4/full.mp4":                     []byte("another video"),
		"public/page.html":                      []byte("<script>alert(1)</script>"),
		"public/app.js":                         []byte("alert(1)"),
		"public/logo.svg":                       []byte("<svg onload=alert(1)></svg>"),
		"covers/evil.svg":                       []byte("<svg onload=alert(1)></svg>"),
		"public/data.json":                      []byte(`{"a":1}`),
		"videos/3/page.html":                    []byte("<script>alert(1)</script>"),
		"public/abcdefghijklmnopqrstuvwxyz.jpg": []byte("immutable"),
	}
	for k, b := range files {
		if err := s.Put(ctx, k, bytes.NewReader(b), ""); err != nil {
			t.Fatal(err)
		}
	}
	signer, err := blob.NewSigner(secret)
	if err != nil {
		t.Fatal(err)
	}
	h := blob.NewHandler(s, signer, nil)
	clock := &atomic.Int64{}
	clock.Store(time.Now().Unix())
	blob.SetClock(signer, h, func() time.Time { return time.Unix(clock.Load(), 0) })
	srv := httptest.NewServer(http.StripPrefix("/media", h))
	t.Cleanup(srv.Close)
	return &fixture{srv: srv, signer: signer, clock: clock, video: video}
}

func (f *fixture) url(t *testing.T, key string, ttl time.Duration) string {
	t.Helper()
	u, err := f.signer.URL(key, ttl)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

type resp struct {
	status int
	header http.Header
	body   string
}

func (f *fixture) do(t *testing.T, method, path string, hdr ...string) resp {
	t.Helper()
	req, err := http.NewRequest(method, f.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("%s %s: no nosniff", method, path)
	}
	// Every answer, errors and 304s too, refuses to be framed: the CSP
	// set here replaces the app's, so it must say so itself.
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "sandbox") {
		t.Errorf("%s %s: %d with CSP %q", method, path, res.StatusCode, csp)
	}
	return resp{res.StatusCode, res.Header, string(b)}
}

func TestHandler(t *testing.T) {
	eachStore(t, func(t *testing.T, s blob.Store) {
		f := newFixture(t, s)
		hour := time.Hour

		t.Run("public cover unsigned", func(t *testing.T) {
			r := f.do(t, "GET", "/media/covers/7.jpg")
			if r.status != 200 || r.header.Get("Content-Type") != "image/jpeg" || r.body != "\xff\xd8\xff\xe0fake jpeg body" {
				t.Fatalf("%d %v %q", r.status, r.header, r.body)
			}
			if cc := r.header.Get("Cache-Control"); cc != "public, max-age=86400" {
				t.Errorf("Cache-Control %q", cc)
			}
			if r.header.Get("ETag") == "" || r.header.Get("Last-Modified") == "" || r.header.Get("Accept-Ranges") != "bytes" {
				t.Errorf("validators missing: %v", r.header)
			}
			// Revalidation by ETag and by date.
			if r2 := f.do(t, "GET", "/media/covers/7.jpg", "If-None-Match", r.header.Get("ETag")); r2.status != 304 || r2.body != "" {
				t.Errorf("If-None-Match: %d %q", r2.status, r2.body)
			}
			if r2 := f.do(t, "GET", "/media/covers/7.jpg", "If-None-Match", `"other", `+r.header.Get("ETag")); r2.status != 304 {
				t.Errorf("If-None-Match list: %d", r2.status)
			}
			if r2 := f.do(t, "GET", "/media/covers/7.jpg", "If-None-Match", `"other"`); r2.status != 200 {
				t.Errorf("If-None-Match other: %d", r2.status)
			}
			if r2 := f.do(t, "GET", "/media/covers/7.jpg", "If-Modified-Since", r.header.Get("Last-Modified")); r2.status != 304 {
				t.Errorf("If-Modified-Since: %d", r2.status)
			}
			if r2 := f.do(t, "GET", "/media/covers/7.jpg", "If-Match", `"other"`); r2.status != 412 {
				t.Errorf("If-Match other: %d", r2.status)
			}
		})

		t.Run("immutable key cached for a year", func(t *testing.T) {
			r := f.do(t, "GET", "/media/public/abcdefghijklmnopqrstuvwxyz.jpg")
			if r.status != 200 || r.header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
				t.Fatalf("%d %q", r.status, r.header.Get("Cache-Control"))
			}
		})

		t.Run("signed video", func(t *testing.T) {
			u := f.url(t, "videos/3/full.mp4", hour)
			if !strings.HasPrefix(u, "/media/s/") || !strings.HasSuffix(u, "/videos/3/full.mp4") {
				t.Fatalf("url %s", u)
			}
			r := f.do(t, "GET", u)
			if r.status != 200 || r.body != string(f.video) || r.header.Get("Content-Type") != "video/mp4" || r.header.Get("Content-Length") != "1000" {
				t.Fatalf("%d %v (%d bytes)", r.status, r.header, len(r.body))
			}
			cc := r.header.Get("Cache-Control")
			age, err := strconv.Atoi(strings.TrimPrefix(cc, "public, max-age="))
			if err != nil || age < 3600 || age > 3960 {
				t.Errorf("Cache-Control %q: want public for the token's remaining life", cc)
			}
			// The same object asked for again within the rounding step gets
			// the same URL, so caches share it.
			if again := f.url(t, "videos/3/full.mp4", hour); again != u {
				t.Errorf("URL not stable within its step: %s vs %s", u, again)
			}
		})

		t.Run("ranges", func(t *testing.T) {
			u := f.url(t, "videos/3/full.mp4", hour)
			for _, tc := range []struct {
				rng, wantRange string
				from, to       int
			}{
				{"bytes=100-199", "bytes 100-199/1000", 100, 200},
				{"bytes=990-", "bytes 990-999/1000", 990, 1000},
				{"bytes=-10", "bytes 990-999/1000", 990, 1000},
				{"bytes=995-5000", "bytes 995-999/1000", 995, 1000},
				{"bytes=0-0", "bytes 0-0/1000", 0, 1},
			} {
				r := f.do(t, "GET", u, "Range", tc.rng)
				if r.status != 206 || r.header.Get("Content-Range") != tc.wantRange || r.body != string(f.video[tc.from:tc.to]) ||
					r.header.Get("Content-Length") != strconv.Itoa(tc.to-tc.from) {
					t.Errorf("%s: %d %q len %d", tc.rng, r.status, r.header.Get("Content-Range"), len(r.body))
				}
			}
			for _, rng := range []string{"bytes=1000-", "bytes=5000-6000", "bytes=-0"} {
				r := f.do(t, "GET", u, "Range", rng)
				if r.status != 416 || r.header.Get("Content-Range") != "bytes */1000" {
					t.Errorf("%s: %d %q", rng, r.status, r.header.Get("Content-Range"))
				}
			}
			// Ranges the server may ignore give the whole file.
			for _, rng := range []string{"bytes=0-1,5-6", "items=0-1", "bytes=5-2", "bytes=x-"} {
				if r := f.do(t, "GET", u, "Range", rng); r.status != 200 || len(r.body) != 1000 {
					t.Errorf("%s: %d len %d", rng, r.status, len(r.body))
				}
			}
			etag := f.do(t, "HEAD", u).header.Get("ETag")
			if r := f.do(t, "GET", u, "Range", "bytes=0-9", "If-Range", etag); r.status != 206 {
				t.Errorf("If-Range current: %d", r.status)
			}
			if r := f.do(t, "GET", u, "Range", "bytes=0-9", "If-Range", `"stale"`); r.status != 200 || len(r.body) != 1000 {
				t.Errorf("If-Range stale: %d", r.status)
			}
		})

		t.Run("head", func(t *testing.T) {
			u := f.url(t, "videos/3/full.mp4", hour)
			r := f.do(t, "HEAD", u)
			if r.status != 200 || r.body != "" || r.header.Get("Content-Length") != "1000" || r.header.Get("Content-Type") != "video/mp4" {
				t.Fatalf("%d %v %q", r.status, r.header, r.body)
			}
			r = f.do(t, "HEAD", u, "Range", "bytes=10-19")
			if r.status != 206 || r.header.Get("Content-Range") != "bytes 10-19/1000" || r.header.Get("Content-Length") != "10" {
				t.Fatalf("head range: %d %v", r.status, r.header)
			}
		})

		t.Run("refused signatures", func(t *testing.T) {
			good := f.url(t, "videos/3/full.mp4", hour)
			token := strings.Split(good, "/")[3]
			parts := strings.Split(token, ".")
			flip := func(s string) string {
				b := []byte(s)
				if b[len(b)/2] == 'A' {
					b[len(b)/2] = 'B'
				} else {
					b[len(b)/2] = 'A'
				}
				return string(b)
			}
			other := f.url(t, "videos/4/full.mp4", hour)
			cases := map[string]string{
				"unsigned":                   "/media/videos/3/full.mp4",
				"altered key":                "/media/s/" + token + "/videos/4/full.mp4",
				"altered key, missing":       "/media/s/" + token + "/videos/5/full.mp4",
				"altered sig":                "/media/s/" + strings.Join([]string{parts[0], parts[1], parts[2], flip(parts[3])}, ".") + "/videos/3/full.mp4",
				"altered exp":                "/media/s/" + strings.Join([]string{parts[0], strconv.Itoa(mustInt(parts[1]) + 3600), parts[2], parts[3]}, ".") + "/videos/3/full.mp4",
				"widened to a folder":        "/media/s/" + strings.Join([]string{parts[0], parts[1], "2", parts[3]}, ".") + "/videos/3/full.mp4",
				"unknown key id":             "/media/s/" + strings.Join([]string{"zzzzzz", parts[1], parts[2], parts[3]}, ".") + "/videos/3/full.mp4",
				"another object's signature": "/media/s/" + strings.Split(other, "/")[3] + "/videos/3/full.mp4",
				"padded exp":                 "/media/s/" + strings.Join([]string{parts[0], "0" + parts[1], parts[2], parts[3]}, ".") + "/videos/3/full.mp4",
				"short token":                "/media/s/" + parts[0] + "." + parts[1] + "/videos/3/full.mp4",
				"empty token":                "/media/s//videos/3/full.mp4",
			}
			for name, path := range cases {
				r := f.do(t, "GET", path)
				if r.status != 403 || r.body != "forbidden\n" || r.header.Get("Cache-Control") != "no-store" {
					t.Errorf("%s (%s): %d %.40q", name, path, r.status, r.body)
				}
			}
			// Another secret signs URLs this server does not accept.
			stranger, _ := blob.NewSigner("another-secret-0123456789abcdef")
			su, _ := stranger.URL("videos/3/full.mp4", hour)
			if r := f.do(t, "GET", su); r.status != 403 {
				t.Errorf("foreign secret: %d", r.status)
			}
			// Expiry: valid until exp, refused from then on.
			short := f.url(t, "videos/3/full.mp4", time.Minute)
			if r := f.do(t, "GET", short); r.status != 200 {
				t.Fatalf("fresh short URL: %d", r.status)
			}
			now := f.clock.Load()
			defer f.clock.Store(now)
			f.clock.Add(67) // ttl plus its rounding step, at most
			if r := f.do(t, "GET", short); r.status != 403 || r.body != "forbidden\n" {
				t.Errorf("expired: %d %q", r.status, r.body)
			}
		})

		t.Run("hls folder token", func(t *testing.T) {
			master, err := f.signer.FolderURL("videos/3/hls/", "videos/3/hls/master.m3u8", hour)
			if err != nil {
				t.Fatal(err)
			}
			r := f.do(t, "GET", master)
			if r.status != 200 || r.header.Get("Content-Type") != "application/vnd.apple.mpegurl" {
				t.Fatalf("master: %d %v", r.status, r.header)
			}
			base, _ := url.Parse(master)
			resolve := func(ref string) string {
				u, _ := url.Parse(ref)
				return base.ResolveReference(u).Path
			}
			// Relative URIs as a player resolves them inherit the token.
			if r := f.do(t, "GET", resolve("720p/seg1.m4s")); r.status != 200 || r.body != "segment one" {
				t.Errorf("segment: %d %q", r.status, r.body)
			}
			if r := f.do(t, "GET", resolve("720p/seg9.m4s")); r.status != 404 {
				t.Errorf("missing segment: %d", r.status)
			}
			// Nothing outside the folder opens with it.
			for _, ref := range []string{"../full.mp4", "../../4/full.mp4", "../../../covers/7.jpg"} {
				if r := f.do(t, "GET", resolve(ref)); r.status != 403 {
					t.Errorf("%s (%s): %d", ref, resolve(ref), r.status)
				}
			}
			// The folder itself is not a key the token names.
			tok := strings.Split(master, "/")[3]
			if r := f.do(t, "GET", "/media/s/"+tok+"/videos/3/hls"); r.status != 403 && r.status != 404 {
				t.Errorf("folder as key: %d", r.status)
			}
			if _, err := f.signer.FolderURL("videos/3/hls/", "videos/4/full.mp4", hour); err == nil {
				t.Error("FolderURL accepted a key outside the folder")
			}
			if _, err := f.signer.FolderURL("videos/3/hls", "videos/3/hls/master.m3u8", hour); err == nil {
				t.Error("FolderURL accepted a folder without its slash")
			}
		})

		t.Run("active content never served", func(t *testing.T) {
			for _, key := range []string{"public/page.html", "public/app.js", "public/logo.svg", "covers/evil.svg", "public/data.json", "videos/3/page.html"} {
				if r := f.do(t, "GET", "/media/"+key); r.status != 404 || strings.Contains(r.body, "alert") {
					t.Errorf("unsigned %s: %d %q", key, r.status, r.body)
				}
				if r := f.do(t, "GET", f.url(t, key, hour)); r.status != 404 || strings.Contains(r.body, "alert") {
					t.Errorf("signed %s: %d %q", key, r.status, r.body)
				}
			}
			r := f.do(t, "GET", "/media/covers/7.jpg")
			if csp := r.header.Get("Content-Security-Policy"); !strings.Contains(csp, "sandbox") {
				t.Errorf("media CSP %q", csp)
			}
		})

		t.Run("bad paths", func(t *testing.T) {
			tok := strings.Split(f.url(t, "videos/3/full.mp4", hour), "/")[3]
			for _, p := range []string{
				"/media/covers/..%2f..%2fsecret.jpg", "/media/covers/%2e%2e/videos/3/full.mp4", "/media/covers/.tmp-1.jpg",
				"/media/covers", "/media/covers/", "/media/", "/media/s/", "/media/s/" + tok, "/media/s/" + tok + "/",
				"/media/s/" + tok + "/..%2fvideos/3/full.mp4", "/media/covers/8.jpg", "/media/covers/7.JPG%00.jpg",
			} {
				if r := f.do(t, "GET", p); r.status != 404 && r.status != 403 || strings.Contains(r.body, "jpeg body") {
					t.Errorf("%s: %d %q", p, r.status, r.body)
				}
			}
			if r := f.do(t, "POST", "/media/covers/7.jpg"); r.status != 405 || r.header.Get("Allow") != "GET, HEAD" {
				t.Errorf("POST: %d %v", r.status, r.header)
			}
			// A valid signature for a key that holds nothing is a 404.
			if r := f.do(t, "GET", f.url(t, "videos/3/none.mp4", hour)); r.status != 404 {
				t.Errorf("signed missing: %d", r.status)
			}
		})
	})
}

func mustInt(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(fmt.Sprint(s, err))
	}
	return n
}

// A rotated secret keeps URLs signed with the previous one valid while the
// server lists it, and only then.
func TestSignerRotation(t *testing.T) {
	old, _ := blob.NewSigner("old-secret-0123456789abcdef")
	u, _ := old.URL("videos/1/a.mp4", time.Hour)
	tok := strings.Split(u, "/")[3]
	rotated, _ := blob.NewSigner("new-secret-0123456789abcdef", "old-secret-0123456789abcdef")
	if !rotated.Verify(tok, "videos/1/a.mp4") {
		t.Fatal("previous secret not accepted after rotation")
	}
	nu, _ := rotated.URL("videos/1/a.mp4", time.Hour)
	if strings.Split(nu, "/")[3][:6] == tok[:6] {
		t.Fatal("new URLs still use the old key id")
	}
	fresh, _ := blob.NewSigner("new-secret-0123456789abcdef")
	if fresh.Verify(tok, "videos/1/a.mp4") {
		t.Fatal("old URL accepted once the previous secret is dropped")
	}
	if _, err := blob.NewSigner("short"); err == nil {
		t.Fatal("short secret accepted")
	}
}
