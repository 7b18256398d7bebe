package blob

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"strings"
)

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

// Check verifies that the store's folder is there and writable, for
// readiness: a lost mount or a full disk makes the node "not ready".
func (l *Local) Check(ctx context.Context) error {
	f, err := os.CreateTemp(l.dir, ".ready-*")
	if err != nil {
		return fmt.Errorf("blob dir: %w", err)
	}
	name := f.Name()
	_, err = f.Write([]byte("ok"))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if rerr := os.Remove(name); err == nil {
		err = rerr
	}
	return err
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

// PutFile copies the file through Put, so it is as atomic as any other write
// and the caller may delete its file afterwards.
func (l *Local) PutFile(ctx context.Context, key, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return l.Put(ctx, key, f, "")
}

// openRegular opens key's file and refuses directories.
func (l *Local) openRegular(key string) (*os.File, fs.FileInfo, error) {
	p, err := l.path(key)
	if err != nil {
		return nil, nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, nil, err // *fs.PathError; errors.Is(err, ErrNotFound) holds for a missing file
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("blob open %s: %w", key, ErrNotFound)
	}
	return f, st, nil
}

// Open opens the file at key.
func (l *Local) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	f, _, err := l.openRegular(key)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// OpenRange opens key at offset, limited to length bytes.
func (l *Local) OpenRange(ctx context.Context, key string, offset, length int64) (io.ReadCloser, error) {
	f, st, err := l.openRegular(key)
	if err != nil {
		return nil, err
	}
	if offset < 0 || offset >= st.Size() || length == 0 {
		f.Close()
		return nil, fmt.Errorf("blob open %s bytes %d+%d of %d: %w", key, offset, length, st.Size(), ErrRange)
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	n := st.Size() - offset
	if length > 0 && length < n {
		n = length
	}
	return &fileSection{f: f, r: io.LimitedReader{R: f, N: n}}, nil
}

// fileSection is a limited read of a file. WriteTo hands the response writer
// an *io.LimitedReader of an *os.File, the shape net/http turns into
// sendfile, so video ranges do not pass through user space.
type fileSection struct {
	f *os.File
	r io.LimitedReader
}

func (s *fileSection) Read(p []byte) (int, error) { return s.r.Read(p) }
func (s *fileSection) Close() error               { return s.f.Close() }
func (s *fileSection) WriteTo(w io.Writer) (int64, error) {
	return io.Copy(w, &s.r)
}

// Stat describes key's file; the ETag is built from size and modification
// time, which every Put changes (a rename installs a new file).
func (l *Local) Stat(ctx context.Context, key string) (Info, error) {
	p, err := l.path(key)
	if err != nil {
		return Info{}, err
	}
	st, err := os.Stat(p)
	if err != nil {
		return Info{}, err
	}
	if !st.Mode().IsRegular() {
		return Info{}, fmt.Errorf("blob stat %s: %w", key, ErrNotFound)
	}
	return localInfo(key, st), nil
}

func localInfo(key string, st fs.FileInfo) Info {
	return Info{
		Key:         key,
		Size:        st.Size(),
		ModTime:     st.ModTime().UTC(),
		ContentType: ContentType(key),
		ETag:        fmt.Sprintf(`"%x-%x"`, st.Size(), st.ModTime().UnixNano()),
	}
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

// Delete removes key's file. Empty folders stay: removing them would race a
// concurrent Put that has just created its folder.
func (l *Local) Delete(ctx context.Context, key string) error {
	p, err := l.path(key)
	if err != nil {
		return err
	}
	st, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return nil // a folder is not a file; DeletePrefix removes folders
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// List walks the folder; hidden entries (temporary files, folders being
// deleted) are skipped.
func (l *Local) List(ctx context.Context, prefix string) iter.Seq2[Info, error] {
	return func(yield func(Info, error) bool) {
		if err := CheckPrefix(prefix); err != nil {
			yield(Info{}, err)
			return
		}
		root := filepath.Join(l.dir, filepath.FromSlash(prefix))
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == root && errors.Is(err, fs.ErrNotExist) {
					return nil // an absent folder holds no files
				}
				return err
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			if p == root {
				return nil
			}
			if strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil
			}
			st, err := d.Info()
			if errors.Is(err, fs.ErrNotExist) {
				return nil // deleted while we walked
			}
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(l.dir, p)
			if err != nil {
				return err
			}
			if !yield(localInfo(filepath.ToSlash(rel), st), nil) {
				return filepath.SkipAll
			}
			return nil
		})
		if err != nil {
			yield(Info{}, err)
		}
	}
}

// DeletePrefix first renames the folder to a hidden name at the store's top
// (one atomic step: readers see the whole rendition or none of it), then
// removes the renamed tree.
func (l *Local) DeletePrefix(ctx context.Context, prefix string) error {
	if prefix == "" || CheckPrefix(prefix) != nil {
		return fmt.Errorf("%w: prefix %q", ErrBadKey, prefix)
	}
	src := filepath.Join(l.dir, filepath.FromSlash(strings.TrimSuffix(prefix, "/")))
	if st, err := os.Lstat(src); errors.Is(err, fs.ErrNotExist) || err == nil && !st.IsDir() {
		return nil // no folder by that name: nothing is under it
	}
	var raw [8]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return err
	}
	dst := filepath.Join(l.dir, ".del-"+hex.EncodeToString(raw[:]))
	if err := os.Rename(src, dst); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("blob delete %s: %w", prefix, err)
	}
	return os.RemoveAll(dst)
}
