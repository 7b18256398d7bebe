package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"modernc.org/sqlite"
)

// Snapshot is a consistent copy of the whole database as of one moment,
// taken while the server keeps writing: SQLite through its online backup
// API (a file copy of a live WAL database can tear), PostgreSQL through
// pg_dump in custom format reading a snapshot exported by a transaction
// that also counts the rows, so the counts and the dump agree.
type Snapshot struct {
	File   string           // the copy, in the folder Snapshot was given
	Format string           // "sqlite" (a database file) or "pg_dump" (custom format)
	Rows   map[string]int64 // every table's rows in the copy
	Schema string           // the newest migration applied
}

// Snapshot writes a consistent copy of d into dir.
func (d *DB) Snapshot(ctx context.Context, dir string) (Snapshot, error) {
	if d.Engine == SQLite {
		return d.snapshotSQLite(ctx, dir)
	}
	return d.snapshotPostgres(ctx, dir)
}

// backuper is the method modernc's connection has (its type is unexported).
type backuper interface {
	NewBackup(dstURI string) (*sqlite.Backup, error)
	NewRestore(srcURI string) (*sqlite.Backup, error)
}

func (d *DB) snapshotSQLite(ctx context.Context, dir string) (Snapshot, error) {
	file := filepath.Join(dir, "db.sqlite")
	if err := os.Remove(file); err != nil && !errors.Is(err, os.ErrNotExist) {
		return Snapshot{}, err
	}
	conn, err := d.read.Conn(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	err = conn.Raw(func(dc any) error {
		c, ok := dc.(backuper)
		if !ok {
			return fmt.Errorf("sqlite driver %T has no backup API", dc)
		}
		b, err := c.NewBackup("file:" + file)
		if err != nil {
			return err
		}
		// One step copies every page under one read lock: the copy is the
		// database as of that moment (writers go on in the WAL meanwhile;
		// a copy in several steps would restart on each of their commits).
		if _, err := b.Step(-1); err != nil {
			_ = b.Finish()
			return err
		}
		return b.Finish()
	})
	conn.Close()
	if err != nil {
		return Snapshot{}, fmt.Errorf("sqlite backup: %w", err)
	}
	copyDB, err := sql.Open("sqlite", "file:"+file+"?mode=ro")
	if err != nil {
		return Snapshot{}, err
	}
	defer copyDB.Close()
	rows, schema, err := countRows(ctx, copyDB, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	return Snapshot{File: file, Format: "sqlite", Rows: rows, Schema: schema}, err
}

func (d *DB) snapshotPostgres(ctx context.Context, dir string) (Snapshot, error) {
	file := filepath.Join(dir, "db.pgdump")
	conn, err := d.write.Conn(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return Snapshot{}, err
	}
	defer tx.Rollback() //nolint:errcheck // read only
	var id string
	if err := tx.QueryRowContext(ctx, `SELECT pg_export_snapshot()`).Scan(&id); err != nil {
		return Snapshot{}, err
	}
	rows, schema, err := countRows(ctx, tx, `SELECT table_name FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)
	if err != nil {
		return Snapshot{}, err
	}
	// pg_dump reads the same snapshot while this transaction stays open.
	out, err := exec.CommandContext(ctx, "pg_dump", "--format=custom", "--no-owner", "--no-privileges",
		"--snapshot="+id, "--file="+file, "--dbname="+d.url).CombinedOutput()
	if err != nil {
		return Snapshot{}, fmt.Errorf("pg_dump: %w: %s", err, strings.TrimSpace(string(out)))
	}
	return Snapshot{File: file, Format: "pg_dump", Rows: rows, Schema: schema}, nil
}

type queryer interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
}

// countRows counts the rows of every table listQ names, and reads the
// newest migration.
func countRows(ctx context.Context, q queryer, listQ string) (map[string]int64, string, error) {
	rs, err := q.QueryContext(ctx, listQ)
	if err != nil {
		return nil, "", err
	}
	var names []string
	for rs.Next() {
		var n string
		if err := rs.Scan(&n); err != nil {
			rs.Close()
			return nil, "", err
		}
		names = append(names, n)
	}
	rs.Close()
	if err := rs.Err(); err != nil {
		return nil, "", err
	}
	sort.Strings(names)
	out := make(map[string]int64, len(names))
	for _, n := range names {
		var c int64
		// Table names come from the catalogue, quoted all the same.
		if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM "`+strings.ReplaceAll(n, `"`, `""`)+`"`).Scan(&c); err != nil {
			return nil, "", fmt.Errorf("count %s: %w", n, err)
		}
		out[n] = c
	}
	var schema sql.NullString
	if _, ok := out["schema_migrations"]; ok {
		if err := q.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&schema); err != nil {
			return nil, "", err
		}
	}
	return out, schema.String, nil
}

// ErrNotEmpty is returned by Restore for a database that has tables: a
// restore goes into an empty install, never over one.
var ErrNotEmpty = errors.New("the database is not empty: restore into a new, empty database")

// Restore loads a snapshot file into the empty database at url (a path or
// a postgres:// URL, as Open takes) and answers the rows of every table
// it now holds, for the caller to compare with the snapshot's.
func Restore(ctx context.Context, url, format, file string) (map[string]int64, error) {
	pg := strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://")
	if pg != (format == "pg_dump") {
		return nil, fmt.Errorf("a %s snapshot cannot go into this database (%s)", format, map[bool]string{true: "PostgreSQL", false: "SQLite"}[pg])
	}
	if !pg {
		return restoreSQLite(ctx, strings.TrimPrefix(url, "sqlite://"), file)
	}
	d, err := sql.Open("pgx", url)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	const tables = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
	var n int
	if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM (`+tables+`) t`).Scan(&n); err != nil {
		return nil, err
	}
	if n > 0 {
		return nil, ErrNotEmpty
	}
	out, err := exec.CommandContext(ctx, "pg_restore", "--no-owner", "--no-privileges", "--exit-on-error",
		"--single-transaction", "--dbname="+url, file).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("pg_restore: %w: %s", err, strings.TrimSpace(string(out)))
	}
	rows, _, err := countRows(ctx, d, tables)
	return rows, err
}

func restoreSQLite(ctx context.Context, path, file string) (map[string]int64, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, err
		}
	}
	d, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	d.SetMaxOpenConns(1)
	const tables = `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
	var n int
	if err := d.QueryRowContext(ctx, `SELECT COUNT(*) FROM (`+tables+`)`).Scan(&n); err != nil {
		return nil, err
	}
	if n > 0 {
		return nil, ErrNotEmpty
	}
	conn, err := d.Conn(ctx)
	if err != nil {
		return nil, err
	}
	err = conn.Raw(func(dc any) error {
		c, ok := dc.(backuper)
		if !ok {
			return fmt.Errorf("sqlite driver %T has no backup API", dc)
		}
		b, err := c.NewRestore("file:" + file + "?mode=ro")
		if err != nil {
			return err
		}
		if _, err := b.Step(-1); err != nil {
			_ = b.Finish()
			return err
		}
		return b.Finish()
	})
	conn.Close()
	if err != nil {
		return nil, fmt.Errorf("sqlite restore: %w", err)
	}
	rows, _, err := countRows(ctx, d, tables)
	return rows, err
}
