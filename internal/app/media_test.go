package app

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"prima/internal/platform/blob"
	"prima/internal/platform/blob/s3test"
	"prima/internal/platform/config"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// With an S3 endpoint and bucket configured, app.New stores media in the
// bucket and /media/ streams it through the whole middleware chain: public
// covers unsigned, videos by signed URL with ranges passed to S3, active
// content refused.
func TestMediaFromS3(t *testing.T) {
	srv := s3test.Start(t)
	s3 := srv.Config(t, "prima")
	cfg, err := config.Load("test", []string{"-data-dir", t.TempDir(), "-database-url", dbtest.URL(t, db.SQLite),
		"-s3-endpoint", s3.Endpoint, "-s3-bucket", s3.Bucket, "-s3-access-key", s3.AccessKey,
		"-s3-secret-key", s3.SecretKey, "-s3-region", s3.Region, "-s3-prefix", s3.Prefix})
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if _, ok := a.Media.(*blob.S3); !ok {
		t.Fatalf("media store is %T, want S3", a.Media)
	}
	h, err := a.Handler()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for k, v := range map[string]string{"covers/1.jpg": "cover", "videos/1/full.mp4": "0123456789", "covers/x.html": "<script>"} {
		if err := a.Media.Put(ctx, k, strings.NewReader(v), ""); err != nil {
			t.Fatal(err)
		}
	}
	get := func(path string, hdr ...string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", path, nil)
		r.Header.Set("Accept-Encoding", "gzip")
		for i := 0; i+1 < len(hdr); i += 2 {
			r.Header.Set(hdr[i], hdr[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec
	}
	if rec := get("/media/covers/1.jpg"); rec.Code != 200 || rec.Body.String() != "cover" || rec.Header().Get("Content-Type") != "image/jpeg" {
		t.Fatalf("cover: %d %q %v", rec.Code, rec.Body, rec.Header())
	}
	u, err := a.Signer.URL("videos/1/full.mp4", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	rec := get(u, "Range", "bytes=2-5")
	if rec.Code != 206 || rec.Body.String() != "2345" || rec.Header().Get("Content-Range") != "bytes 2-5/10" {
		t.Fatalf("signed range: %d %q %v", rec.Code, rec.Body, rec.Header())
	}
	if rec := get("/media/videos/1/full.mp4"); rec.Code != 403 {
		t.Fatalf("unsigned video: %d", rec.Code)
	}
	if rec := get("/media/covers/x.html"); rec.Code != 404 {
		t.Fatalf("html: %d %q", rec.Code, rec.Body)
	}
	if csp := get("/media/covers/1.jpg").Header().Get("Content-Security-Policy"); !strings.Contains(csp, "sandbox") {
		t.Fatalf("media CSP %q", csp)
	}
}

// A wrong S3 key stops the start instead of failing the first upload.
func TestMediaS3MisconfiguredFailsStart(t *testing.T) {
	srv := s3test.Start(t)
	s3 := srv.Config(t, "")
	cfg, err := config.Load("test", []string{"-data-dir", t.TempDir(), "-database-url", dbtest.URL(t, db.SQLite),
		"-s3-endpoint", s3.Endpoint, "-s3-bucket", s3.Bucket, "-s3-access-key", s3.AccessKey, "-s3-secret-key", "wrong"})
	if err != nil {
		t.Fatal(err)
	}
	if a, err := New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil))); err == nil {
		a.Close()
		t.Fatal("started with a wrong S3 secret")
	}
}

// After a rotation (PRIMA_SECRET_PREVIOUS holds the old secret) URLs signed
// before it keep working; without it they stop.
func TestMediaSecretRotation(t *testing.T) {
	dir, dbURL := t.TempDir(), dbtest.URL(t, db.SQLite)
	open := func(args ...string) *App {
		cfg, err := config.Load("test", append([]string{"-data-dir", dir, "-database-url", dbURL}, args...))
		if err != nil {
			t.Fatal(err)
		}
		a, err := New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		return a
	}
	const oldSecret, newSecret = "old-secret-0123456789abcdef0123", "new-secret-0123456789abcdef0123"
	before := open("-secret", oldSecret)
	if err := before.Media.Put(context.Background(), "videos/1/a.mp4", strings.NewReader("video"), ""); err != nil {
		t.Fatal(err)
	}
	u, _ := before.Signer.URL("videos/1/a.mp4", time.Hour)
	for _, tc := range []struct {
		args []string
		want int
	}{
		{[]string{"-secret", newSecret, "-secret-previous", oldSecret}, 200},
		{[]string{"-secret", newSecret}, 403},
	} {
		h, err := open(tc.args...).Handler()
		if err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", u, nil))
		if rec.Code != tc.want {
			t.Errorf("%v: %d, want %d", tc.args, rec.Code, tc.want)
		}
	}
}
