package blob

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func newStore(t *testing.T) (*Local, string) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "media")
	l, err := NewLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	return l, dir
}

func TestPutOpenExists(t *testing.T) {
	ctx := context.Background()
	l, dir := newStore(t)
	if ok, err := l.Exists(ctx, "covers/1.jpg"); ok || err != nil {
		t.Fatalf("exists before put: %v %v", ok, err)
	}
	if err := l.Put(ctx, "covers/1.jpg", strings.NewReader("first"), "image/jpeg"); err != nil {
		t.Fatal(err)
	}
	if err := l.Put(ctx, "covers/1.jpg", strings.NewReader("second"), "image/jpeg"); err != nil {
		t.Fatal(err)
	}
	if ok, err := l.Exists(ctx, "covers/1.jpg"); !ok || err != nil {
		t.Fatalf("exists after put: %v %v", ok, err)
	}
	rc, err := l.Open(ctx, "covers/1.jpg")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(rc)
	rc.Close()
	if string(b) != "second" {
		t.Fatalf("read %q, want the replacing write", b)
	}
	// No temporary files are left beside the target.
	ents, _ := os.ReadDir(filepath.Join(dir, "covers"))
	if len(ents) != 1 {
		t.Fatalf("covers dir holds %d entries, want 1", len(ents))
	}
	if _, err := l.Open(ctx, "covers/2.jpg"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("open missing: %v", err)
	}
	// A directory is not a file.
	if ok, _ := l.Exists(ctx, "covers"); ok {
		t.Fatal("a directory reported as a file")
	}
	if _, err := l.Open(ctx, "covers"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("open dir: %v", err)
	}
}

func TestUnsafeKeysRejected(t *testing.T) {
	ctx := context.Background()
	l, dir := newStore(t)
	for _, key := range []string{"", "/etc/passwd", "../x.jpg", "a/../../x.jpg", "a/./b.jpg", "a//b.jpg", ".hidden", "a/.tmp-1",
		`a\..\b.jpg`, "a/b.jpg/", "ü.jpg", "a b.jpg", strings.Repeat("a", 600)} {
		if err := l.Put(ctx, key, strings.NewReader("x"), ""); !errors.Is(err, ErrBadKey) {
			t.Errorf("Put(%q) = %v, want ErrBadKey", key, err)
		}
		if _, err := l.Open(ctx, key); !errors.Is(err, ErrBadKey) {
			t.Errorf("Open(%q) = %v, want ErrBadKey", key, err)
		}
		if _, err := l.Exists(ctx, key); !errors.Is(err, ErrBadKey) {
			t.Errorf("Exists(%q) = %v, want ErrBadKey", key, err)
		}
	}
	// Nothing was written outside (or inside) the store.
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "x.jpg")); err == nil {
		t.Fatal("a key escaped the store")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 0 {
		t.Fatalf("store holds %d entries after rejected puts", len(ents))
	}
}

func TestPutContentTypeMustMatchExtension(t *testing.T) {
	ctx := context.Background()
	l, _ := newStore(t)
	if err := l.Put(ctx, "covers/1.jpg", strings.NewReader("x"), "image/png"); err == nil {
		t.Fatal("png content under a .jpg key accepted")
	}
	if ok, _ := l.Exists(ctx, "covers/1.jpg"); ok {
		t.Fatal("refused put left a file")
	}
	if err := l.Put(ctx, "notes/a.txt", strings.NewReader("x"), "text/plain; charset=utf-8"); err != nil {
		t.Fatalf("parameters in the content type: %v", err)
	}
	if err := l.Put(ctx, "raw/blob.bin", strings.NewReader("x"), "application/x-custom"); err != nil {
		t.Fatalf("unknown extension: %v", err)
	}
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

func TestFailedPutKeepsOldFile(t *testing.T) {
	ctx := context.Background()
	l, dir := newStore(t)
	if err := l.Put(ctx, "a.txt", strings.NewReader("old"), ""); err != nil {
		t.Fatal(err)
	}
	if err := l.Put(ctx, "a.txt", &failReader{n: 5}, ""); err == nil {
		t.Fatal("failed reader: no error")
	}
	b, _ := os.ReadFile(filepath.Join(dir, "a.txt"))
	if string(b) != "old" {
		t.Fatalf("after a failed put the file holds %q", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("temporary file left behind: %d entries", len(ents))
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := l.Put(cctx, "b.txt", strings.NewReader("x"), ""); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled put: %v", err)
	}
}

// Concurrent writers and readers of one key: every read sees one whole version.
func TestConcurrentPutsAreAtomic(t *testing.T) {
	ctx := context.Background()
	l, _ := newStore(t)
	a := bytes.Repeat([]byte("a"), 256<<10)
	b := bytes.Repeat([]byte("b"), 256<<10)
	if err := l.Put(ctx, "k.bin", bytes.NewReader(a), ""); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := a
			if i%2 == 1 {
				src = b
			}
			for range 10 {
				if err := l.Put(ctx, "k.bin", bytes.NewReader(src), ""); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	for range 50 {
		rc, err := l.Open(ctx, "k.bin")
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(rc)
		rc.Close()
		if !bytes.Equal(got, a) && !bytes.Equal(got, b) {
			t.Fatalf("read a torn file of %d bytes", len(got))
		}
	}
	wg.Wait()
}

// DeletePrefix moves the folder away in one rename, then removes it: no
// hidden leftovers, and a stray hidden file in the store never lists.
func TestLocalDeletePrefixLeavesNothing(t *testing.T) {
	ctx := context.Background()
	l, dir := newStore(t)
	for _, k := range []string{"videos/1/hls/a.m4s", "videos/1/hls/720p/b.m4s", "videos/1/cover.jpg"} {
		if err := l.Put(ctx, k, strings.NewReader(k), ""); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "videos", "1", ".tmp-stray"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	var listed []string
	for info, err := range l.List(ctx, "videos/") {
		if err != nil {
			t.Fatal(err)
		}
		listed = append(listed, info.Key)
	}
	if len(listed) != 3 {
		t.Fatalf("listed %v", listed)
	}
	if err := l.DeletePrefix(ctx, "videos/1/hls/"); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".del-") {
			t.Fatalf("left %s behind", e.Name())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "videos", "1", "hls")); !os.IsNotExist(err) {
		t.Fatalf("folder still there: %v", err)
	}
	if ok, _ := l.Exists(ctx, "videos/1/cover.jpg"); !ok {
		t.Fatal("a neighbour of the folder went too")
	}
}

// Readiness of a local store: its folder there and writable; a lost folder
// (an unmounted disk) fails.
func TestLocalCheck(t *testing.T) {
	s, dir := newStore(t)
	if err := s.Check(context.Background()); err != nil {
		t.Fatalf("fresh store: %v", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("Check left files behind: %v", left)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := s.Check(context.Background()); err == nil {
		t.Fatal("a store whose folder is gone passed its check")
	}
}
