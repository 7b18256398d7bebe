package main

import (
	"bytes"
	"context"
	goio "io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"prima/internal/migrations"
	"prima/internal/platform/db"
)

// prima backup, backup list and restore from a shell: a backup with -keep,
// the list, a restore into a new data dir with its media, and a restore
// over a database that is not empty refused.
func TestBackupRestoreCommands(t *testing.T) {
	ctx := context.Background()
	data, dir := t.TempDir(), t.TempDir()
	d, err := db.Open(ctx, filepath.Join(data, "prima.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := migrations.Apply(ctx, d); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Exec(ctx, `INSERT INTO users (name, account, created_at, updated_at) VALUES ('b', 'bk', 1, 1)`); err != nil {
		t.Fatal(err)
	}
	d.Close()
	if err := os.MkdirAll(filepath.Join(data, "media", "covers"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "media", "covers", "c.jpg"), []byte("jpeg"), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(fn func([]string, goio.Writer) error, args ...string) (string, error) {
		var out bytes.Buffer
		err := fn(append(args, "-log-level", "error"), &out)
		return out.String(), err
	}
	for i := range 2 {
		out, err := run(runBackup, "-data-dir", data, "-to", dir, "-keep", "1")
		if err != nil || !strings.Contains(out, "1 media objects") || (i == 1) != strings.Contains(out, "deleted old backup") {
			t.Fatalf("backup %d: %q %v", i, out, err)
		}
	}
	out, err := run(runBackup, "list", "-data-dir", data, "-to", dir)
	if err != nil || strings.Count(out, "prima-") != 1 {
		t.Fatalf("backup list after -keep 1: %q %v", out, err)
	}
	if _, err := run(runBackup, "-data-dir", data); err == nil || !strings.Contains(err.Error(), "-to") {
		t.Errorf("backup without -to: %v", err)
	}

	fresh := t.TempDir()
	if out, err := run(runRestore, "-data-dir", fresh, "-from", dir); err != nil || !strings.Contains(out, "restored prima-") {
		t.Fatalf("restore: %q %v", out, err)
	}
	if b, err := os.ReadFile(filepath.Join(fresh, "media", "covers", "c.jpg")); err != nil || string(b) != "jpeg" {
		t.Errorf("restored media: %q %v", b, err)
	}
	r, err := db.Open(ctx, filepath.Join(fresh, "prima.db"))
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := r.QueryRow(ctx, `SELECT COUNT(*) FROM users WHERE account = 'bk'`).Scan(&n); err != nil || n != 1 {
		t.Errorf("restored user: %d %v", n, err)
	}
	r.Close()
	if _, err := run(runRestore, "-data-dir", fresh, "-from", dir); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("restore over a restored install: %v", err)
	}
}
