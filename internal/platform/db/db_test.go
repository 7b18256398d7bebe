package db_test

import (
	"context"
	"errors"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func TestPortableSQL(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if err := d.Ping(ctx); err != nil {
			t.Fatal(err)
		}
		var id int64
		err := d.QueryRow(ctx, `INSERT INTO users (name, account, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id`, "a?b", "acc", 1, 1).Scan(&id)
		if err != nil || id == 0 {
			t.Fatalf("insert returning: id=%d err=%v", id, err)
		}
		// A question mark inside a string literal is text, not a placeholder.
		var name string
		if err := d.QueryRow(ctx, `SELECT name FROM users WHERE name = 'a?b' AND id = ?`, id).Scan(&name); err != nil || name != "a?b" {
			t.Fatalf("quoted ?: %q %v", name, err)
		}
		_, err = d.Exec(ctx, `INSERT INTO users (name, account, created_at, updated_at) VALUES (?, ?, ?, ?)`, "b", "acc", 1, 1)
		if !db.IsUnique(err) {
			t.Fatalf("duplicate account: want unique violation, got %v", err)
		}
		err = d.QueryRow(ctx, `SELECT name FROM users WHERE id = ?`, id+100).Scan(&name)
		if !errors.Is(db.NotFound(err), db.ErrNotFound) {
			t.Fatalf("missing row: %v", err)
		}
		// A failed transaction leaves nothing behind.
		boom := errors.New("boom")
		err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			if _, err := tx.Exec(ctx, `UPDATE users SET name = ? WHERE id = ?`, "changed", id); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatal(err)
		}
		_ = d.QueryRow(ctx, `SELECT name FROM users WHERE id = ?`, id).Scan(&name)
		if name != "a?b" {
			t.Fatalf("rolled back update is visible: %q", name)
		}
	})
}

func TestMigrateIsIdempotent(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		var n int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM schema_migrations`).Scan(&n); err != nil || n == 0 {
			t.Fatalf("no migrations recorded: %d %v", n, err)
		}
	})
}
