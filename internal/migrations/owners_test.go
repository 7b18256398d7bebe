package migrations_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// owners says which package owns each table: the only one whose code may
// name it in SQL. Another domain asks the owner through an interface it
// declares (wired in internal/app) or listens to the owner's events
// (docs/architecture.md, *The rules*). A table a migration adds must be
// given an owner here.
var owners = map[string]string{
	"users": "account", "devices": "account", "sessions": "account", "user_bans": "account", "sms_codes": "account",
	"account_certificates": "account", "user_days": "account",

	"videos": "catalog", "video_tags": "catalog", "video_likes": "catalog", "video_collects": "catalog",
	"video_history": "catalog", "video_reports": "catalog", "tags": "catalog", "modules": "catalog",
	"ads": "catalog", "announcements": "catalog", "app_clicks": "catalog", "delivery_lines": "catalog",
	"presale_entries": "catalog", "preview_rule": "catalog", "source_entries": "catalog", "ad_clicks": "catalog",
	"video_plays_daily": "catalog",

	"posts": "community", "comments": "community", "post_likes": "community", "post_pictures": "community",
	"post_reports": "community", "topics": "community", "topic_follows": "community", "follows": "community",
	"follow_notices": "community", "community_mutes": "community", "community_settings": "community",

	"galleries": "gallery", "gallery_images": "gallery", "gallery_collects": "gallery",

	"media_assets": "media",

	"vip_products": "membership",

	"messages": "messaging", "conversations": "messaging", "message_blocks": "messaging",
	"message_reports": "messaging", "notices": "messaging",

	"commission_config": "earnings", "promoter_applications": "earnings", "commissions": "earnings",
	"creator_earnings": "earnings", "earning_debts": "earnings", "invitee_orders": "earnings", "share_visits": "earnings",

	"audit_log": "platform/audit", "audit_chain": "platform/audit",
	"jobs": "platform/jobs",

	"stats_daily": "stats", "stats_top": "stats",

	"operators": "operator", "operator_totp": "operator", "operator_recovery_codes": "operator",
	"operator_enrol_tickets": "operator", "operator_sessions": "operator", "operator_api_keys": "operator",

	"blocked_words": "wordfilter",

	"error_reports": "report", "error_report_lines": "report",

	"welfare_tasks": "rewards", "task_claims": "rewards", "checkins": "rewards", "checkin_cycle": "rewards",
	"point_entries": "rewards", "point_prizes": "rewards", "prize_exchanges": "rewards",
	"code_batches": "rewards", "redeem_codes": "rewards", "code_redemptions": "rewards",
	"invite_codes": "rewards", "invite_bindings": "rewards", "invite_config": "rewards",
	"invite_reward_devices": "rewards",

	"search_fts": "search", "search_runs": "search", "search_fresh": "search", "search_pins": "search", "search_queries": "search", "search_days": "search",

	"feedback": "support", "feedback_images": "support", "feedback_replies": "support",
	"creator_applications": "support",

	"ledger_accounts": "wallet", "ledger_entries": "wallet", "ledger_txns": "wallet", "orders": "wallet",
	"payment_callbacks": "wallet", "coin_packages": "wallet", "coupon_kinds": "wallet",
	"user_coupons": "wallet", "idempotency_keys": "wallet", "newuser_offer_claims": "wallet",
	"payout_accounts": "wallet", "withdrawals": "wallet", "video_purchases": "wallet",
	"gallery_purchases": "wallet", "post_purchases": "wallet", "provider_switches": "wallet",
	// issue 21: money
	"withdraw_settings": "wallet",
}

// reasoned lists the reads across owners that are the design, not debt.
var reasoned = map[string]string{
	// The search index is built from the items themselves: reindexing walks
	// each source table and ranking reads a candidate's current title and
	// counts from its own row, so no copy can drift (docs/architecture.md,
	// *Search*). Its sources are exactly these tables.
	"search videos": "index source", "search video_tags": "index source", "search tags": "index source",
	"search modules": "index source", "search galleries": "index source",
	"search gallery_collects": "index source", "search posts": "index source",
	"search topics": "index source", "search users": "index source", "search follows": "index source",
}

// knownDebt lists the reads across owners still to be replaced by an
// interface or an event. Shrink it; never grow it: a new cross read is a
// seam to add, not a line here.
var knownDebt = map[string]string{}

// notDomains are packages that write any table by design: the demo seed
// plants rows for every domain at install, and the *test support packages
// check invariants across tables.
func notDomain(pkg string) bool {
	return pkg == "seed" || pkg == "migrations" || strings.HasSuffix(pkg, "test")
}

// TestEveryTableHasAnOwner fails when a migration creates a table that
// owners does not name, or owners names a table no migration leaves.
func TestEveryTableHasAnOwner(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		tables := migratedTables(t, engine)
		for tb := range tables {
			if owners[tb] == "" {
				t.Errorf("%s: table %s has no owner in owners (internal/migrations/owners_test.go)", engine, tb)
			}
		}
		for tb := range owners {
			if !tables[tb] {
				t.Errorf("%s: owners names %s, which no migration leaves", engine, tb)
			}
		}
	}
}

// TestDomainsQueryOnlyTheirTables is the Go counterpart of the web's lint
// zones: it reads every non-test Go file under internal/ and fails, naming
// file:line, when a package names in SQL (or as a bare table-name string)
// a table another package owns, unless the pair is reasoned or known debt.
// A debt entry that no longer matches anything fails too, so the list
// only shrinks.
func TestDomainsQueryOnlyTheirTables(t *testing.T) {
	uses := tableUses(t, "..")
	if len(uses) < 50 {
		t.Fatalf("only %d table uses found: the scanner is broken", len(uses))
	}
	seen := map[string]bool{}
	for _, u := range uses {
		owner := owners[u.table]
		if owner == "" || owner == u.pkg || strings.HasPrefix(u.pkg, owner+"/") || notDomain(u.pkg) {
			continue
		}
		key := u.pkg + " " + u.table
		seen[key] = true
		if reasoned[key] == "" && knownDebt[key] == "" {
			t.Errorf("%s: package %s uses table %s, which %s owns; declare an interface the owner implements (docs/architecture.md, *The rules*)", u.at, u.pkg, u.table, owner)
		}
	}
	for _, list := range []map[string]string{reasoned, knownDebt} {
		for key := range list {
			if !seen[key] {
				t.Errorf("%q is listed as an exception but no longer happens: remove it", key)
			}
		}
	}
}

// The scanner must catch the forms the stores write.
func TestTableUseScanner(t *testing.T) {
	dir := t.TempDir()
	src := "package x\nconst a = `SELECT n FROM users u JOIN follows f ON f.a = u.id`\n" +
		"var b = \"INSERT INTO notices (a) VALUES (?)\"\nvar c = `UPDATE  orders SET a = 1`\n" +
		"var d = \"video_likes\"\nvar e = \"the users of this\"\n"
	if err := os.MkdirAll(filepath.Join(dir, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x", "x.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range tableUses(t, dir) {
		got = append(got, u.table)
	}
	sort.Strings(got)
	if want := "follows notices orders users video_likes"; strings.Join(got, " ") != want {
		t.Errorf("scanner found %v, want %s", got, want)
	}
}

type tableUse struct{ pkg, table, at string }

var sqlTable = regexp.MustCompile(`(?i)\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+([a-z_][a-z0-9_]*)`)

// tableUses lists each string literal naming a known table in the non-test
// Go files under root, by package path relative to root.
func tableUses(t *testing.T, root string) []tableUse {
	t.Helper()
	var out []tableUse
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		pkg := filepath.ToSlash(rel)
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			names := []string{}
			if owners[s] != "" {
				names = append(names, s) // a table name held in a variable
			}
			for _, m := range sqlTable.FindAllStringSubmatch(s, -1) {
				names = append(names, strings.ToLower(m[1]))
			}
			for _, tb := range names {
				if owners[tb] != "" {
					pos := fset.Position(lit.Pos())
					out = append(out, tableUse{pkg, tb, fmt.Sprintf("%s:%d", filepath.ToSlash(pos.Filename), pos.Line)})
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var tableDDL = regexp.MustCompile(`(?i)\b(CREATE(?:\s+VIRTUAL)?\s+TABLE|DROP\s+TABLE)\s+(?:IF\s+(?:NOT\s+)?EXISTS\s+)?([a-z_][a-z0-9_]*)`)

// migratedTables replays engine's migrations' CREATE and DROP TABLE
// statements in order and returns the tables left.
func migratedTables(t *testing.T, engine string) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(engine, "*.sql"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no %s migrations: %v", engine, err)
	}
	sort.Strings(files)
	tables := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tableDDL.FindAllStringSubmatch(string(b), -1) {
			name := strings.ToLower(m[2])
			if strings.HasPrefix(strings.ToUpper(m[1]), "DROP") {
				delete(tables, name)
			} else {
				tables[name] = true
			}
		}
	}
	return tables
}
