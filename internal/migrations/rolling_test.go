package migrations_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// rollingFrom is the first migration written under the rolling-upgrade
// rule (docs/architecture.md, *Migrations and rolling upgrades*): older
// ones ran before Prima had clusters and are left as they are.
const rollingFrom = "0030"

// contract matches statements that break the build still running on other
// nodes during a rolling upgrade: the old code reads or writes what they
// take away or change.
var contract = regexp.MustCompile(`(?i)\b(DROP\s+TABLE|DROP\s+COLUMN|RENAME\s+(TO|COLUMN)|ALTER\s+COLUMN\s+\S+\s+(TYPE|SET\s+NOT\s+NULL)|ADD\s+COLUMN\b[^;\n]*)`)

// markedContract is the line a contracting migration must carry, naming the
// migration that expanded (added the replacement) in an earlier release.
var markedContract = regexp.MustCompile(`(?m)^-- contract: expanded by (\d{4})_\w+`)

// TestMigrationsExpandThenContract: during a rolling upgrade old and new
// nodes share the database, so a migration only adds (tables, nullable or
// defaulted columns, indexes). Taking something away is a later release's
// migration, marked with the expanding one, once no running build uses it.
func TestMigrationsExpandThenContract(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		files, err := filepath.Glob(filepath.Join(engine, "*.sql"))
		if err != nil || len(files) < 30 {
			t.Fatalf("%s migrations: %v (%d files)", engine, err, len(files))
		}
		for _, f := range files {
			name := filepath.Base(f)
			if name < rollingFrom {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			sql := stripComments(string(b))
			for _, m := range contract.FindAllString(sql, -1) {
				if addsSafely(m) {
					continue
				}
				mark := markedContract.FindStringSubmatch(string(b))
				if mark == nil || mark[1] >= name[:4] {
					t.Errorf("%s/%s: %q takes away what the build before it uses: split it (expand now, contract in a later release, marked \"-- contract: expanded by NNNN_name\")", engine, name, m)
				}
			}
		}
	}
}

// addsSafely: an ADD COLUMN the old build's inserts still satisfy
// (nullable, or NOT NULL with a default).
func addsSafely(m string) bool {
	u := strings.ToUpper(m)
	if !strings.HasPrefix(u, "ADD") {
		return false
	}
	return !regexp.MustCompile(`\bNOT\s+NULL\b`).MatchString(u) || strings.Contains(u, "DEFAULT")
}

func stripComments(s string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if i := strings.Index(line, "--"); i >= 0 {
			line = line[:i]
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// The rule finds what it is for.
func TestContractStatementsAreFound(t *testing.T) {
	for _, s := range []string{"ALTER TABLE users DROP COLUMN vip_level", "DROP TABLE search_docs", "ALTER TABLE a RENAME TO b",
		"ALTER TABLE a RENAME COLUMN x TO y", "ALTER TABLE a ALTER COLUMN x TYPE BIGINT", "ALTER TABLE a ALTER COLUMN x SET NOT NULL",
		"ALTER TABLE a ADD COLUMN x BIGINT NOT NULL"} {
		if m := contract.FindString(s); m == "" || addsSafely(m) {
			t.Errorf("%q is not seen as contracting", s)
		}
	}
	for _, s := range []string{"ALTER TABLE a ADD COLUMN x BIGINT NOT NULL DEFAULT 0", "ALTER TABLE a ADD COLUMN x TEXT", "CREATE INDEX a_x ON a(x)", "CREATE TABLE t (id BIGINT NOT NULL)"} {
		if m := contract.FindString(s); m != "" && !addsSafely(m) {
			t.Errorf("%q is seen as contracting", s)
		}
	}
}
