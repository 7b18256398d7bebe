package db_test

import (
	"context"
	"reflect"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func TestPlaceholders(t *testing.T) {
	for n, want := range map[int]string{-1: "", 0: "", 1: "?", 3: "?, ?, ?"} {
		if got := db.Placeholders(n); got != want {
			t.Errorf("Placeholders(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestBoolInt(t *testing.T) {
	if db.BoolInt(true) != 1 || db.BoolInt(false) != 0 {
		t.Fatalf("BoolInt: true=%d false=%d", db.BoolInt(true), db.BoolInt(false))
	}
}

func TestWhere(t *testing.T) {
	var none db.Where
	if none.Clause() != "" || len(none.Args()) != 0 {
		t.Fatalf("empty Where: %q %v", none.Clause(), none.Args())
	}

	var w db.Where
	w.And("a = ?", 1)
	w.And("b > 0")
	w.And("c BETWEEN ? AND ?", 2, 3)
	if got, want := w.Clause(), " WHERE a = ? AND b > 0 AND c BETWEEN ? AND ?"; got != want {
		t.Fatalf("Clause = %q, want %q", got, want)
	}
	if got, want := w.Args(), []any{1, 2, 3}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Args = %v, want %v", got, want)
	}
	// Two statements extend the same arguments; neither sees the other's,
	// even when the arguments were grown one at a time (spare capacity).
	var g db.Where
	for i := range 3 {
		g.And("x = ?", i)
	}
	count, page := append(g.Args(), "count"), append(g.Args(), "page")
	if !reflect.DeepEqual(count, []any{0, 1, 2, "count"}) || !reflect.DeepEqual(page, []any{0, 1, 2, "page"}) {
		t.Fatalf("appends shared storage: %v %v", count, page)
	}
}

// The built pieces run as written on both engines.
func TestBuiltSQLRuns(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		if _, err := d.Exec(ctx, `CREATE TABLE build_test (id BIGINT PRIMARY KEY, name TEXT NOT NULL, flag SMALLINT NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		var ids []any
		for i, name := range []string{"p", "q", "r"} {
			if _, err := d.Exec(ctx, `INSERT INTO build_test (id, name, flag) VALUES (?, ?, ?)`, i+1, name, db.BoolInt(name == "q")); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, i+1)
		}
		var w db.Where
		w.And("id IN ("+db.Placeholders(len(ids))+")", ids...)
		w.And("flag = ?", db.BoolInt(true))
		var name string
		if err := d.QueryRow(ctx, `SELECT name FROM build_test`+w.Clause(), w.Args()...).Scan(&name); err != nil || name != "q" {
			t.Fatalf("built query: %q %v", name, err)
		}
	})
}
