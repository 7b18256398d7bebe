package blob_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"

	"prima/internal/platform/blob"
	"prima/internal/platform/blob/s3test"
)

// eachStore runs fn on a fresh local store and on a fresh bucket of a real
// S3 server (versitygw on loopback), so both implementations answer every
// behaviour the same way.
func eachStore(t *testing.T, fn func(t *testing.T, s blob.Store)) {
	t.Run("local", func(t *testing.T) {
		l, err := blob.NewLocal(filepath.Join(t.TempDir(), "media"))
		if err != nil {
			t.Fatal(err)
		}
		fn(t, l)
	})
	t.Run("s3", func(t *testing.T) {
		srv := s3test.Start(t)
		// Keys go under a prefix, as an operator sharing a bucket would set.
		fn(t, srv.Store(t, "inst1"))
	})
}

func put(t *testing.T, s blob.Store, key, body string) {
	t.Helper()
	if err := s.Put(context.Background(), key, strings.NewReader(body), ""); err != nil {
		t.Fatalf("put %s: %v", key, err)
	}
}

// read(t)(s.Open(...)) reads a whole opened file or fails the test.
func read(t *testing.T) func(io.ReadCloser, error) string {
	return func(rc io.ReadCloser, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
}

func keys(t *testing.T, s blob.Store, prefix string) []string {
	t.Helper()
	var out []string
	for info, err := range s.List(context.Background(), prefix) {
		if err != nil {
			t.Fatalf("list %q: %v", prefix, err)
		}
		out = append(out, info.Key)
	}
	slices.Sort(out)
	return out
}

func TestConformance(t *testing.T) {
	eachStore(t, func(t *testing.T, s blob.Store) {
		ctx := context.Background()

		t.Run("put open stat exists", func(t *testing.T) {
			if ok, err := s.Exists(ctx, "covers/1.jpg"); ok || err != nil {
				t.Fatalf("exists before put: %v %v", ok, err)
			}
			if _, err := s.Stat(ctx, "covers/1.jpg"); !errors.Is(err, blob.ErrNotFound) {
				t.Fatalf("stat missing: %v", err)
			}
			if _, err := s.Open(ctx, "covers/1.jpg"); !errors.Is(err, blob.ErrNotFound) {
				t.Fatalf("open missing: %v", err)
			}
			before := time.Now().Add(-2 * time.Second)
			if err := s.Put(ctx, "covers/1.jpg", strings.NewReader("first"), "image/jpeg"); err != nil {
				t.Fatal(err)
			}
			first, err := s.Stat(ctx, "covers/1.jpg")
			if err != nil {
				t.Fatal(err)
			}
			put(t, s, "covers/1.jpg", "second!")
			if got := read(t)(s.Open(ctx, "covers/1.jpg")); got != "second!" {
				t.Fatalf("read %q, want the replacing write", got)
			}
			if ok, err := s.Exists(ctx, "covers/1.jpg"); !ok || err != nil {
				t.Fatalf("exists after put: %v %v", ok, err)
			}
			info, err := s.Stat(ctx, "covers/1.jpg")
			if err != nil {
				t.Fatal(err)
			}
			if info.Key != "covers/1.jpg" || info.Size != 7 || info.ContentType != "image/jpeg" {
				t.Fatalf("stat %+v", info)
			}
			if info.ModTime.Before(before) || info.ModTime.After(time.Now().Add(2*time.Second)) {
				t.Fatalf("modtime %v", info.ModTime)
			}
			if len(info.ETag) < 3 || info.ETag[0] != '"' || info.ETag[len(info.ETag)-1] != '"' {
				t.Fatalf("etag %q is not a quoted entity tag", info.ETag)
			}
			if info.ETag == first.ETag {
				t.Fatalf("etag %s did not change with the content", info.ETag)
			}
			// A folder is not a file.
			if ok, _ := s.Exists(ctx, "covers"); ok {
				t.Fatal("a folder reported as a file")
			}
			if _, err := s.Open(ctx, "covers"); !errors.Is(err, blob.ErrNotFound) {
				t.Fatalf("open folder: %v", err)
			}
		})

		t.Run("content type must match extension", func(t *testing.T) {
			if err := s.Put(ctx, "ct/1.jpg", strings.NewReader("x"), "image/png"); err == nil {
				t.Fatal("png content under a .jpg key accepted")
			}
			if ok, _ := s.Exists(ctx, "ct/1.jpg"); ok {
				t.Fatal("refused put left a file")
			}
			if err := s.Put(ctx, "ct/a.vtt", strings.NewReader("WEBVTT\n"), "text/vtt"); err != nil {
				t.Fatalf("parameters in the content type: %v", err)
			}
			if err := s.Put(ctx, "ct/blob.bin", strings.NewReader("x"), "application/x-custom"); err != nil {
				t.Fatalf("unknown extension: %v", err)
			}
			info, err := s.Stat(ctx, "ct/a.vtt")
			if err != nil || !strings.HasPrefix(info.ContentType, "text/vtt") {
				t.Fatalf("stat vtt: %+v %v", info, err)
			}
		})

		t.Run("unsafe keys", func(t *testing.T) {
			for _, key := range []string{"", "/etc/passwd", "../x.jpg", "a/../../x.jpg", "a/./b.jpg", "a//b.jpg", ".hidden", "a/.tmp-1",
				`a\..\b.jpg`, "a/b.jpg/", "ü.jpg", "a b.jpg", strings.Repeat("a", 600)} {
				if err := s.Put(ctx, key, strings.NewReader("x"), ""); !errors.Is(err, blob.ErrBadKey) {
					t.Errorf("Put(%q) = %v, want ErrBadKey", key, err)
				}
				if _, err := s.Open(ctx, key); !errors.Is(err, blob.ErrBadKey) {
					t.Errorf("Open(%q) = %v, want ErrBadKey", key, err)
				}
				if _, err := s.OpenRange(ctx, key, 0, 1); !errors.Is(err, blob.ErrBadKey) {
					t.Errorf("OpenRange(%q) = %v, want ErrBadKey", key, err)
				}
				if _, err := s.Stat(ctx, key); !errors.Is(err, blob.ErrBadKey) {
					t.Errorf("Stat(%q) = %v, want ErrBadKey", key, err)
				}
				if _, err := s.Exists(ctx, key); !errors.Is(err, blob.ErrBadKey) {
					t.Errorf("Exists(%q) = %v, want ErrBadKey", key, err)
				}
				if err := s.Delete(ctx, key); !errors.Is(err, blob.ErrBadKey) {
					t.Errorf("Delete(%q) = %v, want ErrBadKey", key, err)
				}
			}
			for _, prefix := range []string{"", "a", "/a/", "../", "a//", "a/../"} {
				if err := s.DeletePrefix(ctx, prefix); !errors.Is(err, blob.ErrBadKey) {
					t.Errorf("DeletePrefix(%q) = %v, want ErrBadKey", prefix, err)
				}
			}
			for _, prefix := range []string{"a", "/a/", "../", "videos/1"} {
				for _, err := range s.List(ctx, prefix) {
					if !errors.Is(err, blob.ErrBadKey) {
						t.Errorf("List(%q) = %v, want ErrBadKey", prefix, err)
					}
				}
			}
		})

		t.Run("failed put keeps the old file", func(t *testing.T) {
			put(t, s, "fail/a.txt", "old")
			if err := s.Put(ctx, "fail/a.txt", &failReader{n: 5}, ""); err == nil {
				t.Fatal("failed reader: no error")
			}
			if got := read(t)(s.Open(ctx, "fail/a.txt")); got != "old" {
				t.Fatalf("after a failed put the file holds %q", got)
			}
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			if err := s.Put(cctx, "fail/b.txt", strings.NewReader("x"), ""); err == nil {
				t.Fatal("cancelled put succeeded")
			}
			if ok, _ := s.Exists(ctx, "fail/b.txt"); ok {
				t.Fatal("cancelled put left a file")
			}
			if got := keys(t, s, "fail/"); !slices.Equal(got, []string{"fail/a.txt"}) {
				t.Fatalf("listing after failed puts: %v (temporary files must not show)", got)
			}
		})

		t.Run("large put of unknown length", func(t *testing.T) {
			// Past the S3 store's single-request size: a multipart upload.
			body := bytes.Repeat([]byte("prima large body"), 6<<20/16)
			if err := s.Put(ctx, "big/a.mp4", struct{ io.Reader }{bytes.NewReader(body)}, "video/mp4"); err != nil {
				t.Fatal(err)
			}
			if got := read(t)(s.Open(ctx, "big/a.mp4")); got != string(body) {
				t.Fatalf("read %d bytes back, want %d", len(got), len(body))
			}
			if err := s.Put(ctx, "big/a.mp4", &failReader{n: 5 << 20}, ""); err == nil {
				t.Fatal("failed reader: no error")
			}
			if info, err := s.Stat(ctx, "big/a.mp4"); err != nil || info.Size != int64(len(body)) {
				t.Fatalf("after a failed large put: %+v %v", info, err)
			}
		})

		t.Run("put file", func(t *testing.T) {
			src := filepath.Join(t.TempDir(), "out.mp4")
			body := bytes.Repeat([]byte("0123456789abcdef"), 64<<10) // 1 MiB
			if err := os.WriteFile(src, body, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := s.PutFile(ctx, "videos/9/full.mp4", src); err != nil {
				t.Fatal(err)
			}
			info, err := s.Stat(ctx, "videos/9/full.mp4")
			if err != nil || info.Size != int64(len(body)) || info.ContentType != "video/mp4" {
				t.Fatalf("stat: %+v %v", info, err)
			}
			if got := read(t)(s.Open(ctx, "videos/9/full.mp4")); got != string(body) {
				t.Fatal("content differs from the file")
			}
			if err := s.PutFile(ctx, "videos/9/none.mp4", filepath.Join(t.TempDir(), "absent")); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("missing source: %v", err)
			}
			if err := s.PutFile(ctx, "../x.mp4", src); !errors.Is(err, blob.ErrBadKey) {
				t.Fatalf("bad key: %v", err)
			}
		})

		t.Run("range", func(t *testing.T) {
			put(t, s, "r/a.mp4", "0123456789")
			for _, tc := range []struct {
				off, n int64
				want   string
			}{{0, 4, "0123"}, {3, 2, "34"}, {7, -1, "789"}, {7, 100, "789"}, {9, 1, "9"}, {0, -1, "0123456789"}} {
				if got := read(t)(s.OpenRange(ctx, "r/a.mp4", tc.off, tc.n)); got != tc.want {
					t.Errorf("OpenRange(%d, %d) = %q, want %q", tc.off, tc.n, got, tc.want)
				}
			}
			for _, tc := range [][2]int64{{10, 1}, {10, -1}, {11, 1}, {-1, 1}, {0, 0}} {
				if _, err := s.OpenRange(ctx, "r/a.mp4", tc[0], tc[1]); !errors.Is(err, blob.ErrRange) {
					t.Errorf("OpenRange(%d, %d) = %v, want ErrRange", tc[0], tc[1], err)
				}
			}
			put(t, s, "r/empty.mp4", "")
			if _, err := s.OpenRange(ctx, "r/empty.mp4", 0, -1); !errors.Is(err, blob.ErrRange) {
				t.Errorf("range of an empty file: %v", err)
			}
			if got := read(t)(s.Open(ctx, "r/empty.mp4")); got != "" {
				t.Errorf("empty file read %q", got)
			}
			if _, err := s.OpenRange(ctx, "r/none.mp4", 0, 1); !errors.Is(err, blob.ErrNotFound) {
				t.Errorf("range of a missing file: %v", err)
			}
		})

		t.Run("delete", func(t *testing.T) {
			put(t, s, "del/a.jpg", "a")
			put(t, s, "del/b.jpg", "b")
			if err := s.Delete(ctx, "del/a.jpg"); err != nil {
				t.Fatal(err)
			}
			if ok, _ := s.Exists(ctx, "del/a.jpg"); ok {
				t.Fatal("deleted file still exists")
			}
			if err := s.Delete(ctx, "del/a.jpg"); err != nil {
				t.Fatalf("deleting a missing key: %v", err)
			}
			if got := read(t)(s.Open(ctx, "del/b.jpg")); got != "b" {
				t.Fatalf("neighbour: %q", got)
			}
		})

		t.Run("list and delete prefix", func(t *testing.T) {
			for _, k := range []string{"videos/1/hls/master.m3u8", "videos/1/hls/720p/seg1.m4s", "videos/1/hls/720p/seg2.m4s",
				"videos/1/cover.jpg", "videos/12/hls/master.m3u8", "videos/1-x/a.jpg"} {
				put(t, s, k, k)
			}
			want := []string{"videos/1/hls/720p/seg1.m4s", "videos/1/hls/720p/seg2.m4s", "videos/1/hls/master.m3u8"}
			if got := keys(t, s, "videos/1/hls/"); !slices.Equal(got, want) {
				t.Fatalf("list = %v, want %v", got, want)
			}
			// A folder prefix never matches a sibling that merely starts alike.
			if got := keys(t, s, "videos/1/"); len(got) != 4 {
				t.Fatalf("list videos/1/ = %v", got)
			}
			if got := keys(t, s, "nothing/"); len(got) != 0 {
				t.Fatalf("list of an absent folder: %v", got)
			}
			all := keys(t, s, "")
			if !slices.Contains(all, "videos/12/hls/master.m3u8") || !slices.Contains(all, "covers/1.jpg") {
				t.Fatalf("list all: %v", all)
			}
			for info, err := range s.List(ctx, "videos/1/hls/") {
				if err != nil || info.Size != int64(len(info.Key)) || info.ETag == "" {
					t.Fatalf("list info %+v %v", info, err)
				}
				break // stopping early is allowed
			}
			if err := s.DeletePrefix(ctx, "videos/1/hls/"); err != nil {
				t.Fatal(err)
			}
			if got := keys(t, s, "videos/1/hls/"); len(got) != 0 {
				t.Fatalf("after delete prefix: %v", got)
			}
			if got := keys(t, s, "videos/"); !slices.Equal(got, []string{"videos/1-x/a.jpg", "videos/1/cover.jpg", "videos/12/hls/master.m3u8", "videos/9/full.mp4"}) {
				t.Fatalf("delete prefix touched its neighbours: %v", got)
			}
			if err := s.DeletePrefix(ctx, "videos/1/hls/"); err != nil {
				t.Fatalf("deleting an absent folder: %v", err)
			}
			if err := s.DeletePrefix(ctx, "videos/1/cover.jpg/"); err != nil {
				t.Fatalf("a file is not a folder: %v", err)
			}
			if ok, _ := s.Exists(ctx, "videos/1/cover.jpg"); !ok {
				t.Fatal("DeletePrefix of a file's name removed the file")
			}
		})
	})
}

// failReader fails after some bytes, like a client that disconnects mid-upload.
type failReader struct{ n int }

func (f *failReader) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("connection reset")
	}
	n := min(len(p), f.n)
	f.n -= n
	return n, nil
}

// The S3 store keeps every key under its prefix, so one bucket can hold
// several installations without one seeing the other's files.
func TestS3PrefixIsolates(t *testing.T) {
	srv := s3test.Start(t)
	cfg := srv.Config(t, "one")
	a, err := blob.NewS3(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Prefix = "two/"
	b, err := blob.NewS3(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	put(t, a, "covers/1.jpg", "a")
	if ok, _ := b.Exists(ctx, "covers/1.jpg"); ok {
		t.Fatal("a key of one prefix is visible under another")
	}
	if _, err := srv.Client().StatObject(ctx, cfg.Bucket, "one/covers/1.jpg", minioStat); err != nil {
		t.Fatalf("object not under the prefix: %v", err)
	}
	if got := keys(t, b, ""); len(got) != 0 {
		t.Fatalf("list under the other prefix: %v", got)
	}
}

func TestNewS3RefusesBadSettings(t *testing.T) {
	for _, cfg := range []blob.S3Config{
		{Endpoint: "127.0.0.1:9000", Bucket: "b"},
		{Endpoint: "ftp://x", Bucket: "b"},
		{Endpoint: "http://x/path", Bucket: "b"},
		{Endpoint: "http://x", Bucket: ""},
		{Endpoint: "http://x", Bucket: "b", Prefix: "../up"},
	} {
		if _, err := blob.NewS3(cfg); err == nil {
			t.Errorf("%+v accepted", cfg)
		}
	}
	// A bucket that does not exist fails the start-up check.
	srv := s3test.Start(t)
	cfg := srv.Config(t, "")
	cfg.Bucket += "-absent"
	s, err := blob.NewS3(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Check(context.Background()); err == nil {
		t.Fatal("missing bucket passed the check")
	}
	cfg = srv.Config(t, "")
	cfg.SecretKey = "wrong"
	s, _ = blob.NewS3(cfg)
	if err := s.Check(context.Background()); err == nil {
		t.Fatal("wrong secret passed the check")
	}
}

var minioStat = minio.StatObjectOptions{}
