// Package blob stores media files (covers, images, video segments) behind a
// small interface: a local directory on one machine, S3-compatible object
// storage when Prima scales out. Keys are slash-separated relative paths such
// as "covers/12.jpg"; the extension names the content type.
package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Store keeps media files by key.
type Store interface {
	// Put writes the whole of r under key, replacing what was there. Readers
	// see the old file or the new one, never a partial write.
	Put(ctx context.Context, key string, r io.Reader, contentType string) error
	// Open reads the file at key; a missing key gives an error matching ErrNotFound.
	Open(ctx context.Context, key string) (io.ReadCloser, error)
	// Exists reports whether key holds a file.
	Exists(ctx context.Context, key string) (bool, error)
	// Handler serves GET and HEAD for /<key>; mount it under a prefix with
	// http.StripPrefix.
	Handler() http.Handler
}

// ErrNotFound is returned (wrapped) for a key that holds no file.
var ErrNotFound = fs.ErrNotExist

// ErrBadKey is returned for a key that could escape the store or name a
// hidden file.
var ErrBadKey = errors.New("blob: invalid key")

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

// mediaTypes fixes the types of the media Prima serves, so they do not
// depend on the host's /etc/mime.types (which often lacks the HLS ones).
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
	".m3u8": "application/vnd.apple.mpegurl",
	".vtt":  "text/vtt; charset=utf-8",
	".json": "application/json",
	".txt":  "text/plain; charset=utf-8",
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

// Local is a Store in a directory of the local filesystem.
type Local struct {
	dir string
}

var _ Store = (*Local)(nil)

// NewLocal uses dir (created if missing) as a store.
func NewLocal(dir string) (*Local, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o750); err != nil {
		return nil, fmt.Errorf("blob dir: %w", err)
	}
	return &Local{dir: abs}, nil
}

func (l *Local) path(key string) (string, error) {
	if err := CheckKey(key); err != nil {
		return "", err
	}
	return filepath.Join(l.dir, filepath.FromSlash(key)), nil
}

// Put writes to a temporary file beside the target, syncs it and renames it
// over the target, so a crash or a concurrent reader never sees half a file.
// The local store serves a file's type from its extension, so a contentType
// that contradicts the extension is refused rather than silently lost.
func (l *Local) Put(ctx context.Context, key string, r io.Reader, contentType string) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	if err := sameType(key, contentType); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := io.Copy(tmp, ctxReader{ctx, r}); err != nil {
		return fmt.Errorf("blob put %s: %w", key, err)
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Chmod(0o640); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		return err
	}
	done = true
	return nil
}

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

// Open opens the file at key.
func (l *Local) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	p, err := l.path(key)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err // *fs.PathError; errors.Is(err, ErrNotFound) holds for a missing file
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("blob open %s: %w", key, ErrNotFound)
	}
	return f, nil
}

// Exists reports whether key holds a regular file.
func (l *Local) Exists(ctx context.Context, key string) (bool, error) {
	p, err := l.path(key)
	if err != nil {
		return false, err
	}
	st, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return st.Mode().IsRegular(), nil
}

// Handler serves files with the type of their extension and a day of public
// caching, since media is read far more than it changes; a writer that
// replaces a file's content should give it a new key, or clients may see
// the old one for up to a day. http.ServeContent answers Range, HEAD and
// If-Modified-Since.
func (l *Local) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		key := strings.TrimPrefix(r.URL.Path, "/")
		p, err := l.path(key)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		f, err := os.Open(p)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil || !st.Mode().IsRegular() {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", ContentType(key))
		h.Set("Cache-Control", "public, max-age=86400")
		http.ServeContent(w, r, "", st.ModTime(), f)
	})
}
