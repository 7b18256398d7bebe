// Package blob stores media files (covers, images, video segments) behind a
// small interface: a local directory on one machine, S3-compatible object
// storage when Prima scales out. Keys are slash-separated relative paths such
// as "covers/12.jpg"; the extension names the content type.
//
// The package also signs media URLs (sign.go) and serves /media/ (handler.go)
// from either store, so both behave the same to a client and to a CDN.
package blob

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"mime"
	"path"
	"strings"
	"time"
)

// Store keeps media files by key. Both implementations pass the same
// conformance suite (conformance_test.go).
type Store interface {
	// Put writes the whole of r under key, replacing what was there. Readers
	// see the old file or the new one, never a partial write. contentType may
	// be empty (the extension decides); one that contradicts the extension
	// is refused.
	Put(ctx context.Context, key string, r io.Reader, contentType string) error
	// PutFile stores the local file at path under key, streaming it rather
	// than buffering it (ffmpeg output can be gigabytes).
	PutFile(ctx context.Context, key, path string) error
	// Open reads the file at key; a missing key gives an error matching ErrNotFound.
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	// OpenRange reads length bytes from offset (length < 0: to the end;
	// fewer when the file ends first). offset must lie inside the file and
	// length must not be 0, or the error matches ErrRange.
	OpenRange(ctx context.Context, key string, offset, length int64) (io.ReadCloser, error)
	// Stat describes the file at key (ErrNotFound when there is none).
	Stat(ctx context.Context, key string) (Info, error)
	// Exists reports whether key holds a file.
	Exists(ctx context.Context, key string) (bool, error)
	// Delete removes key; deleting a missing key is not an error.
	Delete(ctx context.Context, key string) error
	// List yields the files under prefix ("" for all, else a folder ending
	// in "/") in key order. Stop early by breaking out of the loop.
	List(ctx context.Context, prefix string) iter.Seq2[Info, error]
	// DeletePrefix removes every file under prefix, a non-empty folder
	// ending in "/" (an HLS rendition is deleted as one).
	DeletePrefix(ctx context.Context, prefix string) error
}

// Info describes a stored file.
type Info struct {
	Key         string
	Size        int64
	ModTime     time.Time
	ContentType string
	// ETag is a quoted HTTP entity tag that changes whenever the content
	// may have changed (S3's own ETag; size and modification time locally).
	ETag string
}

// ErrNotFound is returned (wrapped) for a key that holds no file.
var ErrNotFound = fs.ErrNotExist

// ErrBadKey is returned for a key that could escape the store or name a
// hidden file, and for a prefix that is not a folder.
var ErrBadKey = errors.New("blob: invalid key")

// ErrRange is returned by OpenRange for a range outside the file.
var ErrRange = errors.New("blob: range not satisfiable")

// maxKey bounds key length; real keys are short ("covers/123.jpg").
const maxKey = 512

// CheckKey validates a key: a relative slash-separated path of segments made
// of letters, digits, '-', '_' and '.', none empty, none starting with a dot.
// This rejects "..", absolute paths, backslashes and hidden files (the local
// store's temporary files start with a dot, so they can never be served).
func CheckKey(key string) error {
	if key == "" || len(key) > maxKey {
		return fmt.Errorf("%w: %q", ErrBadKey, key)
	}
	for _, seg := range strings.Split(key, "/") {
		if seg == "" || seg[0] == '.' {
			return fmt.Errorf("%w: %q", ErrBadKey, key)
		}
		for i := 0; i < len(seg); i++ {
			c := seg[i]
			ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
			if !ok {
				return fmt.Errorf("%w: %q", ErrBadKey, key)
			}
		}
	}
	return nil
}

// CheckPrefix validates a List or DeletePrefix prefix: empty (List only) or
// a valid key followed by "/". Folders only, so "videos/1" can never also
// match "videos/12/" the way a raw S3 prefix would.
func CheckPrefix(prefix string) error {
	if prefix == "" {
		return nil
	}
	if !strings.HasSuffix(prefix, "/") || CheckKey(strings.TrimSuffix(prefix, "/")) != nil {
		return fmt.Errorf("%w: prefix %q", ErrBadKey, prefix)
	}
	return nil
}

// mediaTypes fixes the types of the media Prima stores, so they do not
// depend on the host's /etc/mime.types (which often lacks the HLS ones).
// Storing is not serving: the handler serves only the servable subset.
var mediaTypes = map[string]string{
	".jpg":  "image/jpeg",
	".jpeg": "image/jpeg",
	".png":  "image/png",
	".gif":  "image/gif",
	".webp": "image/webp",
	".avif": "image/avif",
	".svg":  "image/svg+xml",
	".mp4":  "video/mp4",
	".m4s":  "video/iso.segment",
	".ts":   "video/mp2t",
	".m4a":  "audio/mp4",
	".aac":  "audio/aac",
	".m3u8": "application/vnd.apple.mpegurl",
	".vtt":  "text/vtt; charset=utf-8",
	".json": "application/json",
	".txt":  "text/plain; charset=utf-8",
}

// servable are the extensions /media/ delivers: passive media a browser
// renders without running anything. HTML, scripts, SVG (which can carry
// script), JSON and anything unknown are refused even when stored, so an
// upload can never become same-origin active content.
var servable = map[string]bool{
	".jpg": true, ".jpeg": true, ".png": true, ".gif": true, ".webp": true, ".avif": true,
	".mp4": true, ".m4s": true, ".ts": true, ".m4a": true, ".aac": true,
	".m3u8": true, ".vtt": true,
}

// ContentType is the media type a key's extension names, or
// application/octet-stream when the extension is unknown.
func ContentType(key string) string {
	ext := strings.ToLower(path.Ext(key))
	if t, ok := mediaTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

// Servable reports whether /media/ may deliver key's type.
func Servable(key string) bool { return servable[strings.ToLower(path.Ext(key))] }

// sameType compares media types without parameters ("text/plain; charset=utf-8"
// matches "text/plain").
func sameType(key, contentType string) error {
	if contentType == "" {
		return nil
	}
	want := ContentType(key)
	if want == "application/octet-stream" {
		return nil
	}
	a, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return fmt.Errorf("blob put %s: content type %q: %w", key, contentType, err)
	}
	b, _, _ := mime.ParseMediaType(want)
	if a != b {
		return fmt.Errorf("blob put %s: content type %s does not match the extension (%s)", key, a, b)
	}
	return nil
}

// keyEncoding spells random names in lowercase base32 without padding: 26
// characters for 128 bits, safe in keys, URLs and case-insensitive disks.
var keyEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// NewKey chooses the key of a new upload: prefix/YYYY/MM/<random>.ext, for
// example "uploads/2026/11/k5x2...q.jpg". The server picks every part; a
// client's file name never reaches a key. ext must be servable (".jpg" or
// "jpg", any case; ".jpeg" becomes ".jpg"). The random name makes the key
// immutable in the sense of the handler's caching (see Immutable).
func NewKey(prefix, ext string) (string, error) {
	if err := CheckKey(prefix); err != nil || prefix == reservedSigned || strings.HasPrefix(prefix, reservedSigned+"/") {
		return "", fmt.Errorf("%w: prefix %q", ErrBadKey, prefix)
	}
	ext = strings.ToLower(ext)
	if !strings.HasPrefix(ext, ".") {
		ext = "." + ext
	}
	if ext == ".jpeg" {
		ext = ".jpg"
	}
	if !servable[ext] {
		return "", fmt.Errorf("blob: extension %q is not an accepted media type", ext)
	}
	var raw [16]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	name := strings.ToLower(keyEncoding.EncodeToString(raw[:]))
	now := time.Now().UTC()
	return fmt.Sprintf("%s/%04d/%02d/%s%s", prefix, now.Year(), int(now.Month()), name, ext), nil
}

// Immutable reports whether key names content that is never rewritten: one
// of its segments (a file name without its extension, or a folder) is a
// version token of 20 to 64 lowercase letters and digits, as NewKey makes
// and as a versioned HLS folder ("videos/12/hls/<token>/seg1.m4s") uses.
// Such objects may be cached for a year.
func Immutable(key string) bool {
	for _, seg := range strings.Split(key, "/") {
		if i := strings.IndexByte(seg, '.'); i >= 0 {
			seg = seg[:i]
		}
		if len(seg) < 20 || len(seg) > 64 {
			continue
		}
		ok := true
		for i := 0; i < len(seg) && ok; i++ {
			c := seg[i]
			ok = c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		}
		if ok {
			return true
		}
	}
	return false
}

// ctxReader stops a long copy when the context ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
