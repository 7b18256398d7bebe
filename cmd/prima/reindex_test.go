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

// `prima reindex` indexes what the tables hold (rows written behind the
// index's back here) and prints the docs per kind.
func TestReindexCommand(t *testing.T) {
	for _, e := range []db.Engine{db.SQLite, db.Postgres} {
		t.Run(string(e), func(t *testing.T) {
			ctx := context.Background()
			url := dbtest.URL(t, e)
			d, err := db.Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if _, err := migrations.Apply(ctx, d); err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{
				`INSERT INTO modules (id, pid, name, module_type, created_at) VALUES (1, 0, '首页', 0, 1), (2, 1, '推荐', 0, 1)`,
				`INSERT INTO videos (title, module_id, sub_module_id, published, created_at, updated_at) VALUES ('北京一日游', 1, 2, 1, 1, 1), ('草稿', 1, 2, 0, 1, 1)`,
				`INSERT INTO users (name, account, created_at, updated_at) VALUES ('小明', 'xm', 1, 1), ('游客', NULL, 1, 1)`,
			} {
				if _, err := d.Exec(ctx, q); err != nil {
					t.Fatal(err)
				}
			}
			var out bytes.Buffer
			if err := runReindex([]string{"-data-dir", t.TempDir(), "-database-url", url, "-log-level", "error"}, &out); err != nil {
				t.Fatal(err)
			}
			s := out.String()
			if !strings.Contains(s, "2 docs") || !strings.Contains(s, "video    1") || !strings.Contains(s, "user     1") {
				t.Fatalf("output: %q", s)
			}
		})
	}
}
