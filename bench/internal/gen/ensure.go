package gen

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"regexp"

	"prima/internal/migrations"
	"prima/internal/platform/db"
)

// EnsureSQLite makes path a catalogue of n videos: it reuses the file when
// it holds a complete data set with the current fingerprint (unless force),
// and otherwise builds it from nothing.
func EnsureSQLite(ctx context.Context, migs fs.FS, path string, n int, force bool, progress func(string)) (Report, error) {
	fp, err := Fingerprint(migs, db.SQLite, n)
	if err != nil {
		return Report{}, err
	}
	if _, err := os.Stat(path); err == nil && !force {
		d, err := db.Open(ctx, path)
		if err != nil {
			return Report{}, err
		}
		same := StoredFingerprint(ctx, d) == fp
		d.Close()
		if same {
			return Report{Engine: db.SQLite, Videos: n, Reused: true}, nil
		}
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return Report{}, err
		}
	}
	d, err := db.Open(ctx, path)
	if err != nil {
		return Report{}, err
	}
	defer d.Close()
	return build(ctx, d, "", n, fp, progress)
}

var dbName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// DatabaseURL is adminURL pointed at database name.
func DatabaseURL(adminURL, name string) (string, error) {
	u, err := url.Parse(adminURL)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	return u.String(), nil
}

// EnsurePostgres makes database name on adminURL's server a catalogue of n
// videos, reusing it when complete and current (unless force), and returns
// its URL.
func EnsurePostgres(ctx context.Context, migs fs.FS, adminURL, name string, n int, force bool, progress func(string)) (string, Report, error) {
	if !dbName.MatchString(name) {
		return "", Report{}, fmt.Errorf("database name %q: use lower-case letters, digits and _", name)
	}
	fp, err := Fingerprint(migs, db.Postgres, n)
	if err != nil {
		return "", Report{}, err
	}
	dbURL, err := DatabaseURL(adminURL, name)
	if err != nil {
		return "", Report{}, err
	}
	admin, err := db.Open(ctx, adminURL)
	if err != nil {
		return "", Report{}, err
	}
	defer admin.Close()
	var exists int
	if err := admin.QueryRow(ctx, `SELECT COUNT(*) FROM pg_database WHERE datname = ?`, name).Scan(&exists); err != nil {
		return "", Report{}, err
	}
	if exists > 0 && !force {
		d, err := db.Open(ctx, dbURL)
		if err != nil {
			return "", Report{}, err
		}
		same := StoredFingerprint(ctx, d) == fp
		d.Close()
		if same {
			return dbURL, Report{Engine: db.Postgres, Videos: n, Reused: true}, nil
		}
	}
	// WITH (FORCE) ends sessions left on it, such as a server from an
	// interrupted bench run.
	if _, err := admin.Exec(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil {
		return "", Report{}, err
	}
	if _, err := admin.Exec(ctx, `CREATE DATABASE `+name); err != nil {
		return "", Report{}, err
	}
	d, err := db.Open(ctx, dbURL)
	if err != nil {
		return "", Report{}, err
	}
	defer d.Close()
	rep, err := build(ctx, d, dbURL, n, fp, progress)
	return dbURL, rep, err
}

// build migrates d, generates n videos and marks the data set complete.
func build(ctx context.Context, d *db.DB, pgURL string, n int, fp string, progress func(string)) (Report, error) {
	if _, err := migrations.Apply(ctx, d); err != nil {
		return Report{}, err
	}
	rep, err := Generate(ctx, d, pgURL, n, progress)
	if err != nil {
		return rep, err
	}
	return rep, MarkComplete(ctx, d, fp, rep)
}
