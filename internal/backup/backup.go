// Package backup takes a consistent backup of an install while it keeps
// serving, and restores one into an empty install (docs/deploy.md,
// *Backups*). A backup is a folder of a blob store (a local directory or
// an S3 bucket's prefix) named for its time:
//
//	prima-20261206T213000.000Z/
//	  db.sqlite | db.pgdump   the database (SQLite online backup or pg_dump -Fc)
//	  media/<key>             every media object
//	  manifest.json           written last: counts and checksums of the rest
//
// A folder without a manifest is an unfinished backup and is never restored.
package backup

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"prima/internal/platform/blob"
	"prima/internal/platform/db"
)

// Format is the manifest's version; Restore refuses others.
const Format = 1

// Prefix starts every backup's folder name.
const Prefix = "prima-"

// Manifest describes one backup.
type Manifest struct {
	Format    int              `json:"format"`
	Name      string           `json:"name"`
	CreatedAt time.Time        `json:"createdAt"` // when the database copy was taken
	Engine    string           `json:"engine"`
	Schema    string           `json:"schema"` // the newest migration in the copy
	Database  File             `json:"database"`
	Rows      map[string]int64 `json:"rows"` // every table's rows in the copy
	Media     []File           `json:"media"`
	MediaSize int64            `json:"mediaBytes"`
}

// File is one stored file of a backup.
type File struct {
	Key    string `json:"key"` // under the backup's folder
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// Run backs d and media up into a new folder of dst and answers its
// manifest. The database copy comes first, then the media: an object the
// copy names was stored before the row naming it was committed, so it is
// there when the media are copied (one deleted in between is reported).
// work is a local folder for the database copy on its way to dst.
func Run(ctx context.Context, d *db.DB, media blob.Store, dst blob.Store, work string, now time.Time) (Manifest, error) {
	m := Manifest{Format: Format, Name: Prefix + now.UTC().Format("20060102T150405.000Z"), CreatedAt: now.UTC(), Engine: string(d.Engine)}
	tmp, err := os.MkdirTemp(work, "backup-")
	if err != nil {
		return m, err
	}
	defer os.RemoveAll(tmp)
	snap, err := d.Snapshot(ctx, tmp)
	if err != nil {
		return m, err
	}
	m.Rows, m.Schema = snap.Rows, snap.Schema
	m.Database, err = putFile(ctx, dst, m.Name+"/"+path.Base(snap.File), snap.File)
	if err != nil {
		return m, err
	}
	for info, err := range media.List(ctx, "") {
		if err != nil {
			return m, fmt.Errorf("list media: %w", err)
		}
		f, err := copyObject(ctx, media, info.Key, dst, m.Name+"/media/"+info.Key)
		if errors.Is(err, blob.ErrNotFound) {
			continue // deleted since it was listed: the copy does not name it
		}
		if err != nil {
			return m, err
		}
		m.Media = append(m.Media, f)
		m.MediaSize += f.Size
	}
	raw, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return m, err
	}
	return m, dst.Put(ctx, m.Name+"/manifest.json", strings.NewReader(string(raw)), "application/json")
}

// putFile stores the local file at p under key, with its checksum.
func putFile(ctx context.Context, dst blob.Store, key, p string) (File, error) {
	f, err := os.Open(p)
	if err != nil {
		return File{}, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return File{}, err
	}
	if err := dst.PutFile(ctx, key, p); err != nil {
		return File{}, fmt.Errorf("store %s: %w", key, err)
	}
	return File{Key: key, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// copyObject copies one object between stores, hashing it on the way.
func copyObject(ctx context.Context, from blob.Store, fromKey string, to blob.Store, toKey string) (File, error) {
	r, err := from.Open(ctx, fromKey)
	if err != nil {
		return File{}, err
	}
	defer r.Close()
	h := sha256.New()
	cr := &countingReader{r: io.TeeReader(r, h)}
	if err := to.Put(ctx, toKey, cr, ""); err != nil {
		return File{}, fmt.Errorf("copy %s: %w", fromKey, err)
	}
	return File{Key: toKey, Size: cr.n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// List answers the finished backups in store (those with a manifest),
// oldest first.
func List(ctx context.Context, store blob.Store) ([]string, error) {
	var names []string
	for info, err := range store.List(ctx, "") {
		if err != nil {
			return nil, err
		}
		dir, file, ok := strings.Cut(info.Key, "/")
		if ok && file == "manifest.json" && strings.HasPrefix(dir, Prefix) {
			names = append(names, dir)
		}
	}
	sort.Strings(names) // the names are times: lexical order is time order
	return names, nil
}

// Prune deletes all but the newest keep finished backups and answers the
// names deleted. Unfinished folders are left to the operator.
func Prune(ctx context.Context, store blob.Store, keep int) ([]string, error) {
	names, err := List(ctx, store)
	if err != nil || len(names) <= keep {
		return nil, err
	}
	gone := names[:len(names)-max(keep, 1)]
	for _, n := range gone {
		if err := store.DeletePrefix(ctx, n+"/"); err != nil {
			return nil, err
		}
	}
	return gone, nil
}

// ReadManifest reads the manifest of the backup name in store.
func ReadManifest(ctx context.Context, store blob.Store, name string) (Manifest, error) {
	var m Manifest
	r, err := store.Open(ctx, name+"/manifest.json")
	if err != nil {
		return m, fmt.Errorf("backup %s: no manifest (unfinished or not a backup): %w", name, err)
	}
	defer r.Close()
	if err := json.NewDecoder(io.LimitReader(r, 1<<30)).Decode(&m); err != nil {
		return m, fmt.Errorf("backup %s: manifest: %w", name, err)
	}
	if m.Format != Format {
		return m, fmt.Errorf("backup %s: manifest format %d, this build reads %d", name, m.Format, Format)
	}
	return m, nil
}

// Restore loads the backup name from store into the empty database at
// dbURL and the media store media, checking every checksum and that the
// restored tables hold the rows the manifest counted.
func Restore(ctx context.Context, store blob.Store, name, dbURL string, media blob.Store, work string) (Manifest, error) {
	m, err := ReadManifest(ctx, store, name)
	if err != nil {
		return m, err
	}
	tmp, err := os.MkdirTemp(work, "restore-")
	if err != nil {
		return m, err
	}
	defer os.RemoveAll(tmp)
	local := path.Join(tmp, path.Base(m.Database.Key))
	if err := fetch(ctx, store, m.Database, local); err != nil {
		return m, err
	}
	format := "sqlite"
	if m.Engine == string(db.Postgres) {
		format = "pg_dump"
	}
	rows, err := db.Restore(ctx, dbURL, format, local)
	if err != nil {
		return m, err
	}
	for t, n := range m.Rows {
		if rows[t] != n {
			return m, fmt.Errorf("restored table %s has %d rows, the backup counted %d", t, rows[t], n)
		}
	}
	prefix := m.Name + "/media/"
	for _, f := range m.Media {
		got, err := copyObject(ctx, store, f.Key, media, strings.TrimPrefix(f.Key, prefix))
		if err != nil {
			return m, err
		}
		if got.SHA256 != f.SHA256 || got.Size != f.Size {
			return m, fmt.Errorf("media %s: checksum differs from the manifest (damaged backup)", f.Key)
		}
	}
	return m, nil
}

// fetch copies a backup file to a local path and checks its checksum.
func fetch(ctx context.Context, store blob.Store, f File, local string) error {
	r, err := store.Open(ctx, f.Key)
	if err != nil {
		return err
	}
	defer r.Close()
	out, err := os.Create(local)
	if err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), r)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if n != f.Size || hex.EncodeToString(h.Sum(nil)) != f.SHA256 {
		return fmt.Errorf("%s: checksum differs from the manifest (damaged backup)", f.Key)
	}
	return nil
}
