package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// stdinWith is a pipe holding s: not a terminal, so the password is read
// from it as with `echo pw | prima admin create ...`.
func stdinWith(t *testing.T, s string) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString(s)
	w.Close()
	t.Cleanup(func() { r.Close() })
	return r
}

func TestAdminCreate(t *testing.T) {
	for _, e := range []db.Engine{db.SQLite, db.Postgres} {
		t.Run(string(e), func(t *testing.T) {
			url := dbtest.URL(t, e)
			flags := []string{"-data-dir", t.TempDir(), "-database-url", url, "-log-level", "error"}
			run := func(stdin string, args ...string) (string, error) {
				var out, errOut bytes.Buffer
				err := runAdmin(append(args, flags...), stdinWith(t, stdin), &out, &errOut)
				return out.String(), err
			}
			if out, err := run("secret12\n", "create", "-account", "root_ops"); err != nil || !strings.HasPrefix(out, "created operator root_ops") {
				t.Fatalf("create: %q %v", out, err)
			}
			// Again: already an operator, no password asked, nothing changes.
			if out, err := run("", "create", "-account", "ROOT_OPS"); err != nil || !strings.Contains(out, "is an operator") {
				t.Fatalf("again: %q %v", out, err)
			}
			for _, c := range []struct {
				stdin string
				args  []string
				want  string
			}{
				{"abc\n", []string{"create", "-account", "new_ops"}, "6-32"},
				{"password\n", []string{"create", "-account", "new_ops"}, "letter and one digit"},
				{"", []string{"create", "-account", "new_ops"}, "no password"},
				{"secret12\n", []string{"create", "-account", "x"}, "4-20"},
				{"secret12\n", []string{"create"}, "-account is needed"},
				{"", []string{"delete", "-account", "root_ops"}, "unknown subcommand"},
			} {
				if _, err := run(c.stdin, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%v with stdin %q: %v, want %q", c.args, c.stdin, err, c.want)
				}
			}
			var sink bytes.Buffer
			if err := runAdmin(nil, stdinWith(t, ""), &sink, &sink); err == nil || !strings.Contains(err.Error(), "subcommand is needed") {
				t.Errorf("no subcommand: %v", err)
			}
			d, err := db.Open(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			var users, ops, audits int
			d.QueryRow(context.Background(), `SELECT COUNT(*), COUNT(*) FILTER (WHERE role = 'operator') FROM users`).Scan(&users, &ops)
			d.QueryRow(context.Background(), `SELECT COUNT(*) FROM audit_log WHERE actor_uid = 0 AND action = 'user.create'`).Scan(&audits)
			if users != 1 || ops != 1 || audits != 1 {
				t.Fatalf("%d users, %d operators, %d audit rows; want 1, 1, 1", users, ops, audits)
			}
		})
	}
}
