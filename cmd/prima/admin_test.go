package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"prima/internal/app"
	"prima/internal/platform/config"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
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
			if out, err := run("secret12\n", "create", "-account", "root_ops"); err != nil || !strings.HasPrefix(out, "created operator root_ops") || !strings.Contains(out, "role owner") {
				t.Fatalf("create: %q %v", out, err)
			}
			// Again: already an operator, no password asked, nothing changes.
			if out, err := run("", "create", "-account", "ROOT_OPS"); err != nil || !strings.Contains(out, "is an operator (role owner)") {
				t.Fatalf("again: %q %v", out, err)
			}
			// A second operator with a role; -role on an existing one changes it.
			if out, err := run("secret34\n", "create", "-account", "mod_ops", "-role", "moderator"); err != nil || !strings.Contains(out, "role moderator") {
				t.Fatalf("create a moderator: %q %v", out, err)
			}
			if out, err := run("", "create", "-account", "mod_ops", "-role", "finance"); err != nil || !strings.Contains(out, "role finance") {
				t.Fatalf("make it finance: %q %v", out, err)
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
				{"secret12\n", []string{"create", "-account", "new_ops", "-role", "admin"}, "is not owner, content"},
				{"", []string{"create", "-account", "root_ops", "-role", "content"}, "the last owner"},
				{"", []string{"delete", "-account", "root_ops"}, "unknown subcommand"},
				{"", []string{"reset-totp"}, "-account is needed"},
				{"", []string{"reset-totp", "-account", "nobody_here"}, "not an operator"},
				{"", []string{"key", "-account", "nobody_here"}, "not an operator"},
				{"", []string{"key", "-account", "root_ops", "-ttl", "10s"}, "is not between"},
				{"", []string{"key", "-account", "root_ops", "-ttl", "2200h"}, "is not between"},
			} {
				if _, err := run(c.stdin, c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%v with stdin %q: %v, want %q", c.args, c.stdin, err, c.want)
				}
			}
			// A key: printed once on stdout, alone on its line; it opens the
			// console API with root_ops's role.
			key, err := run("", "key", "-account", "root_ops", "-ttl", "1h")
			key = strings.TrimSpace(key)
			if err != nil || !strings.HasPrefix(key, "pk_") || strings.Contains(key, "\n") {
				t.Fatalf("key: %q %v", key, err)
			}
			cfg, err := config.Load("test", flags)
			if err != nil {
				t.Fatal(err)
			}
			a, err := app.New(context.Background(), cfg, newLogger("error"))
			if err != nil {
				t.Fatal(err)
			}
			c, err := a.Operators.Authenticate(context.Background(), key)
			if err != nil || c.Role != httpx.RoleOwner || c.KeyID == 0 {
				t.Fatalf("the key: %+v %v", c, err)
			}
			a.Close()
			// reset-totp (what it does to sessions and the next sign-in:
			// internal/operator, TestManageOperators).
			if out, err := run("", "reset-totp", "-account", "mod_ops"); err != nil || !strings.Contains(out, "the next sign-in enrols again") {
				t.Fatalf("reset-totp: %q %v", out, err)
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
			var users, ops, owners, audits int
			d.QueryRow(context.Background(), `SELECT COUNT(*), COUNT(*) FILTER (WHERE role = 'operator') FROM users`).Scan(&users, &ops)
			d.QueryRow(context.Background(), `SELECT COUNT(*) FROM operators WHERE role = 'owner'`).Scan(&owners)
			d.QueryRow(context.Background(), `SELECT COUNT(*) FROM audit_log WHERE actor_uid = 0 AND action IN ('user.create', 'operator.create', 'operator.role', 'apikey.create', 'operator.totp.reset')`).Scan(&audits)
			if users != 2 || ops != 2 || owners != 1 || audits != 7 {
				t.Fatalf("%d users, %d operators, %d owners, %d audit rows; want 2, 2, 1, 7", users, ops, owners, audits)
			}
		})
	}
}

// prima audit verify: intact after real actions; an edited row is named
// and the exit status is non-zero.
func TestAuditVerify(t *testing.T) {
	for _, e := range []db.Engine{db.SQLite, db.Postgres} {
		t.Run(string(e), func(t *testing.T) {
			url := dbtest.URL(t, e)
			flags := []string{"-data-dir", t.TempDir(), "-database-url", url, "-log-level", "error"}
			var sink bytes.Buffer
			for _, name := range []string{"root_ops", "ops_two"} {
				if err := runAdmin(append([]string{"create", "-account", name}, flags...), stdinWith(t, "secret12\n"), &sink, &sink); err != nil {
					t.Fatal(err, sink.String())
				}
			}
			var out, errOut bytes.Buffer
			if code := cli(append([]string{"audit", "verify"}, flags...), &out, &errOut); code != 0 || !strings.Contains(out.String(), "audit log intact: 4 rows chained, last id 4, head ") {
				t.Fatalf("intact: %d %q %q", code, out.String(), errOut.String())
			}
			d, err := db.Open(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if _, err := d.Exec(context.Background(), `UPDATE audit_log SET after = '{"account":"evil","role":"owner"}' WHERE id = 3`); err != nil {
				t.Fatal(err)
			}
			out.Reset()
			errOut.Reset()
			if code := cli(append([]string{"audit", "verify"}, flags...), &out, &errOut); code != 1 || !strings.Contains(errOut.String(), "audit log broken at row 3: its contents do not match its hash") {
				t.Fatalf("tampered: %d %q %q", code, out.String(), errOut.String())
			}
		})
	}
}
