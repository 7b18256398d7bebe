package blob_test

import (
	"errors"
	"regexp"
	"testing"
	"time"

	"prima/internal/platform/blob"
)

func TestNewKey(t *testing.T) {
	shape := regexp.MustCompile(`^uploads/(\d{4})/(\d{2})/[a-z2-7]{26}\.(jpg|png|mp4)$`)
	seen := map[string]bool{}
	for _, ext := range []string{".jpg", "jpg", ".JPG", ".jpeg", "png", ".mp4"} {
		before := time.Now().UTC()
		k, err := blob.NewKey("uploads", ext)
		if err != nil {
			t.Fatalf("NewKey(%q): %v", ext, err)
		}
		m := shape.FindStringSubmatch(k)
		if m == nil {
			t.Fatalf("NewKey(%q) = %q", ext, k)
		}
		if m[1] != before.Format("2006") && m[1] != time.Now().UTC().Format("2006") {
			t.Errorf("year of %q", k)
		}
		if seen[k] {
			t.Fatalf("key %q repeated", k)
		}
		seen[k] = true
		if blob.CheckKey(k) != nil || !blob.Servable(k) || !blob.Immutable(k) {
			t.Errorf("%q: a new key must be valid, servable and immutable", k)
		}
	}
	if k, _ := blob.NewKey("uploads", ".jpeg"); k[len(k)-4:] != ".jpg" {
		t.Errorf(".jpeg not normalised: %q", k)
	}
	// The client's file name never decides the type: only allowlisted
	// extensions, and no active content.
	for _, ext := range []string{".html", ".js", ".svg", ".json", "", ".", ".jpg.html", "../x.jpg", ".php"} {
		if k, err := blob.NewKey("uploads", ext); err == nil {
			t.Errorf("NewKey(%q) = %q, want an error", ext, k)
		}
	}
	for _, prefix := range []string{"", "../x", "/abs", "s", "s/x", "a//b", ".hidden"} {
		if k, err := blob.NewKey(prefix, ".jpg"); !errors.Is(err, blob.ErrBadKey) {
			t.Errorf("NewKey(%q) = %q, %v; want ErrBadKey", prefix, k, err)
		}
	}
	if _, err := blob.NewKey("community/posts", "webp"); err != nil {
		t.Errorf("nested prefix: %v", err)
	}
}

func TestImmutable(t *testing.T) {
	for key, want := range map[string]bool{
		"covers/12.jpg":                                  false,
		"ads/banner-1.jpg":                               false,
		"videos/12/hls/master.m3u8":                      false,
		"uploads/2026/11/abcdefghijklmnopqrstuvwxyz.jpg": true,
		"videos/12/hls/0123456789abcdefghij/seg1.m4s":    true,
		"videos/12/hls/0123456789ABCDEFGHIJ/seg1.m4s":    false, // uppercase is not a token
		"covers/a-very-long-descriptive-name.jpg":        false, // dashes: a name, not a token
	} {
		if got := blob.Immutable(key); got != want {
			t.Errorf("Immutable(%q) = %v, want %v", key, got, want)
		}
	}
}

func TestServableTypes(t *testing.T) {
	for key, want := range map[string]string{
		"a.jpg": "image/jpeg", "a.JPEG": "image/jpeg", "a.png": "image/png", "a.gif": "image/gif", "a.webp": "image/webp",
		"a.avif": "image/avif", "a.mp4": "video/mp4", "a.m4s": "video/iso.segment", "a.ts": "video/mp2t", "a.m4a": "audio/mp4",
		"a.aac": "audio/aac", "a.m3u8": "application/vnd.apple.mpegurl", "a.vtt": "text/vtt; charset=utf-8",
	} {
		if !blob.Servable(key) || blob.ContentType(key) != want {
			t.Errorf("%s: servable %v, type %q, want %q", key, blob.Servable(key), blob.ContentType(key), want)
		}
	}
	for _, key := range []string{"a.html", "a.htm", "a.js", "a.mjs", "a.svg", "a.json", "a.txt", "a.xml", "a.css", "a.wasm", "a", "a.pdf"} {
		if blob.Servable(key) {
			t.Errorf("%s is servable", key)
		}
	}
}
