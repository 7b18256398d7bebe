package wallet

import (
	"context"
	"fmt"
	"strings"

	"prima/internal/platform/db"
)

// Check verifies the ledger's invariants over the whole database and
// returns every breach it finds (nil when none):
//   - each movement's entries sum to zero per currency, and it has two or more;
//   - each user account's cached balance equals the sum of its entries;
//   - each user entry's balance_after is the running sum of its account;
//   - no user account is below zero;
//
// and then each of more, another domain's invariants over its rows and
// the ledger accounts they stand for (earnings.Check).
//
// Tests call it after hammering the wallet; `prima wallet check` runs it
// on a live database (it reads, so it is safe at any time, though on a
// busy database it sees one snapshot per query).
func Check(ctx context.Context, q db.Querier, more ...Invariant) error {
	problems, err := Breaches(ctx, q, more...)
	if err != nil {
		return err
	}
	if len(problems) > 0 {
		return fmt.Errorf("ledger invariants broken:\n  %s", strings.Join(problems, "\n  "))
	}
	return nil
}

// Breaches are the breaches Check reports, in words (nil: none); the error
// is only a failure to read.
func Breaches(ctx context.Context, q db.Querier, more ...Invariant) ([]string, error) {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	type row struct {
		id    int64
		extra string
		n     int64
	}
	scan := func(s db.Scanner) (row, error) {
		var r row
		return r, s.Scan(&r.id, &r.extra, &r.n)
	}
	checks := []struct {
		what, query string
	}{
		{"movement %d: %s entries sum to %d", `SELECT e.txn_id, a.currency, SUM(e.amount) FROM ledger_entries e
			JOIN ledger_accounts a ON a.id = e.account_id GROUP BY e.txn_id, a.currency HAVING SUM(e.amount) <> 0`},
		{"movement %d (%s) has %d entries", `SELECT t.id, t.kind, COUNT(e.id) FROM ledger_txns t
			LEFT JOIN ledger_entries e ON e.txn_id = t.id GROUP BY t.id, t.kind HAVING COUNT(e.id) < 2`},
		{"account %d (%s): cached balance differs from its entries by %d", `SELECT a.id, a.kind, a.balance - COALESCE(s.total, 0)
			FROM ledger_accounts a LEFT JOIN (SELECT account_id, SUM(amount) AS total FROM ledger_entries GROUP BY account_id) s
			ON s.account_id = a.id WHERE a.user_id <> 0 AND a.balance <> COALESCE(s.total, 0)`},
		{"account %d (%s) is below zero: %d", `SELECT id, kind, balance FROM ledger_accounts WHERE user_id <> 0 AND balance < 0`},
		{"entry %d (%s): balance_after is off its running sum by %d", `SELECT id, kind, balance_after - running FROM (
			SELECT e.id, a.kind, e.balance_after, SUM(e.amount) OVER (PARTITION BY e.account_id ORDER BY e.id) AS running
			FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE a.user_id <> 0) x
			WHERE balance_after <> running`},
	}
	for _, c := range checks {
		rows, err := db.All(ctx, q, scan, c.query)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			add(c.what, r.id, r.extra, r.n)
		}
	}
	for _, inv := range more {
		found, err := inv(ctx, q)
		if err != nil {
			return nil, err
		}
		problems = append(problems, found...)
	}
	return problems, nil
}

// Invariant is a domain's check of its rows against the ledger: the
// breaches it finds, in words. Check runs it after its own.
type Invariant func(ctx context.Context, q db.Querier) ([]string, error)

// HeldByUser is what system account kind holds for each user: the sum of
// its entries per user its movements concern (the withdrawals held, or
// earnings pending or owed). Users with nothing are left out.
func HeldByUser(ctx context.Context, q db.Querier, kind string) (map[int64]int64, error) {
	rows, err := db.All(ctx, q, func(s db.Scanner) ([2]int64, error) {
		var v [2]int64
		return v, s.Scan(&v[0], &v[1])
	}, `SELECT t.user_id, SUM(e.amount) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_txns t ON t.id = e.txn_id
		WHERE a.user_id = 0 AND a.kind = ? GROUP BY t.user_id HAVING SUM(e.amount) <> 0`, kind)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]int64, len(rows))
	for _, r := range rows {
		out[r[0]] = r[1]
	}
	return out, nil
}

// PostedKeys are the idempotency keys of the movements whose key starts
// with prefix: what a domain that keys its movements by its rows checks
// its rows against.
func PostedKeys(ctx context.Context, q db.Querier, prefix string) (map[string]bool, error) {
	keys, err := db.All(ctx, q, func(s db.Scanner) (string, error) {
		var k string
		return k, s.Scan(&k)
	}, `SELECT idem_key FROM ledger_txns WHERE SUBSTR(idem_key, 1, ?) = ?`, len(prefix), prefix)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool, len(keys))
	for _, k := range keys {
		out[k] = true
	}
	return out, nil
}
