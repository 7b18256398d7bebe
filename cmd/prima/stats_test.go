package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"prima/internal/migrations"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// `prima stats rollup` rolls the days asked up from the owners' records
// (rows written here as the app would), prints each and writes its audit
// row; a bad day is refused before anything is opened.
func TestStatsRollupCommand(t *testing.T) {
	ctx := context.Background()
	url := dbtest.URL(t, db.SQLite)
	d, err := db.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := migrations.Apply(ctx, d); err != nil {
		t.Fatal(err)
	}
	// 2026-03-02 00:30 Asia/Shanghai is 1772382600.
	for _, q := range []string{
		`INSERT INTO users (name, account, created_at, updated_at, registered_at, began_guest) VALUES ('游客1', NULL, 1772382600, 1, 0, 1), ('小明', 'xm', 1772382600, 1, 1772382600, 0)`,
		`INSERT INTO user_days (day, user_id) VALUES ('2026-03-02', 1), ('2026-03-02', 2), ('2026-03-01', 1)`,
		`INSERT INTO video_plays_daily (day, video_id, plays) VALUES ('2026-03-02', 7, 5)`,
	} {
		if _, err := d.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	args := []string{"rollup", "-day", "2026-03-01", "-to", "2026-03-02", "-data-dir", t.TempDir(), "-database-url", url, "-log-level", "error"}
	if err := runStats(args, &out, &out); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if !strings.Contains(s, "2026-03-01: 1 active, 0 new guests, 0 registrations") ||
		!strings.Contains(s, "2026-03-02: 2 active, 1 new guests, 1 registrations, 0 payers, revenue 0 cents, 5 plays") {
		t.Fatalf("output: %q", s)
	}
	var audits int
	if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE action = 'stats.rollup' AND actor_uid = 0`).Scan(&audits); err != nil || audits != 2 {
		t.Fatalf("%d audit rows (%v), want 2", audits, err)
	}
	for _, bad := range [][]string{{"rollup", "-day", "2026-02-30"}, {"rollup", "-day", "2026-03-02", "-to", "2026-03-01"}, {"check"}} {
		if err := runStats(append(bad, "-data-dir", t.TempDir(), "-database-url", url), &out, &out); err == nil {
			t.Errorf("prima stats %v: no error", bad)
		}
	}
}
