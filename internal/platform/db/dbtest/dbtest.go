// Package dbtest gives each test a fresh, migrated database on every engine:
// a SQLite file in the test's temp dir and a new PostgreSQL database that is
// dropped when the test ends. PostgreSQL is not optional: a store change that
// only works on SQLite must fail here, so a missing server fails the test.
package dbtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"prima/internal/migrations"
	"prima/internal/platform/db"
)

// AdminURL is the PostgreSQL server tests create their databases on;
// PRIMA_TEST_POSTGRES overrides it.
func AdminURL() string {
	if u := os.Getenv("PRIMA_TEST_POSTGRES"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

// Each runs fn as a subtest once per engine, each with its own fresh database.
func Each(t *testing.T, fn func(t *testing.T, d *db.DB)) {
	t.Helper()
	for _, e := range []db.Engine{db.SQLite, db.Postgres} {
		t.Run(string(e), func(t *testing.T) {
			fn(t, Open(t, e))
		})
	}
}

// Open returns a fresh migrated database of engine e, closed and removed
// when t ends.
func Open(t testing.TB, e db.Engine) *db.DB {
	t.Helper()
	ctx := context.Background()
	u := URL(t, e)
	d, err := db.Open(ctx, u)
	if err != nil {
		t.Fatalf("open %s: %v", e, err)
	}
	t.Cleanup(func() { d.Close() })
	if _, err := migrations.Apply(ctx, d); err != nil {
		t.Fatalf("migrate %s: %v", e, err)
	}
	return d
}

// URL makes an empty database of engine e for t and returns its URL, for
// tests that start a whole server or run the migrate command themselves.
func URL(t testing.TB, e db.Engine) string {
	t.Helper()
	if e == db.SQLite {
		return filepath.Join(t.TempDir(), "prima.db")
	}
	ctx := context.Background()
	admin, err := db.Open(ctx, AdminURL())
	if err != nil {
		t.Fatalf("PostgreSQL at %s is needed for store tests (start it, see README): %v", AdminURL(), err)
	}
	defer admin.Close()
	raw := make([]byte, 6)
	_, _ = rand.Read(raw)
	name := "prima_test_" + hex.EncodeToString(raw)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		a, err := db.Open(context.Background(), AdminURL())
		if err != nil {
			return
		}
		defer a.Close()
		_, _ = a.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	pu, err := url.Parse(AdminURL())
	if err != nil {
		t.Fatalf("PRIMA_TEST_POSTGRES: %v", err)
	}
	pu.Path = "/" + name
	return fmt.Sprint(pu)
}
