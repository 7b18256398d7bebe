package db

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"
)

// Migrate applies the migrations in fsys/<engine>/*.sql that this database
// has not seen, in file-name order, each in its own transaction. File names
// start with a version number (0001_accounts.sql); a migration is never
// edited once it has landed, only followed by a new one. It returns the
// versions it applied.
func Migrate(ctx context.Context, d *DB, fsys fs.FS) ([]string, error) {
	dir := string(d.Engine)
	names, err := fs.Glob(fsys, dir+"/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)

	if _, err := d.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)`); err != nil {
		return nil, fmt.Errorf("migrations table: %w", err)
	}
	// The versions already applied, read once: a start with nothing new
	// to apply opens no write transaction (one per migration cost a
	// SQLite server most of its start-up).
	done, err := All(ctx, d, func(s Scanner) (string, error) {
		var v string
		return v, s.Scan(&v)
	}, `SELECT version FROM schema_migrations`)
	if err != nil {
		return nil, fmt.Errorf("migrations table: %w", err)
	}
	seen := make(map[string]bool, len(done))
	for _, v := range done {
		seen[v] = true
	}
	var applied []string
	for _, name := range names {
		version := strings.TrimSuffix(path.Base(name), ".sql")
		if seen[version] {
			continue
		}
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return applied, err
		}
		done := false
		err = d.Tx(ctx, func(ctx context.Context, tx *Tx) error {
			if d.Engine == Postgres {
				// Two servers starting at once must not both apply a migration.
				if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(7250001)`); err != nil {
					return err
				}
			}
			// Checked again under the lock: another process may have
			// applied it since the read above.
			var n int
			if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM schema_migrations WHERE version = ?`, version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				done = true
				return nil
			}
			if _, err := tx.Exec(ctx, string(body)); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)`, version, time.Now().Unix())
			return err
		})
		if err != nil {
			return applied, fmt.Errorf("migration %s: %w", name, err)
		}
		if !done {
			applied = append(applied, version)
		}
	}
	return applied, nil
}
