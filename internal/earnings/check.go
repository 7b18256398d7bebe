package earnings

import (
	"context"
	"fmt"
	"sort"

	"prima/internal/platform/db"
	"prima/internal/wallet"
)

// Check holds earnings' rows equal to their ledger accounts (a
// wallet.Invariant: `prima wallet check` and the tests run it after the
// ledger's own checks):
//   - each user's pending commission, and pending creator earnings, equal
//     what the pending system account holds for them;
//   - each user's debt equals what the debt account holds for them;
//   - each row's movements are exactly those its state says (made; then
//     settled, reversed, or settled and owed back) and no movement keyed
//     by a row names one that does not exist.
func Check(ctx context.Context, q db.Querier) ([]string, error) {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }

	sums := func(query string) (map[int64]int64, error) {
		rows, err := db.All(ctx, q, func(s db.Scanner) ([2]int64, error) {
			var v [2]int64
			return v, s.Scan(&v[0], &v[1])
		}, query)
		out := map[int64]int64{}
		for _, r := range rows {
			if r[1] != 0 {
				out[r[0]] = r[1]
			}
		}
		return out, err
	}
	compare := func(what string, rows, ledger map[int64]int64, sign int64) {
		users := map[int64]bool{}
		for u := range rows {
			users[u] = true
		}
		for u := range ledger {
			users[u] = true
		}
		ids := make([]int64, 0, len(users))
		for u := range users {
			ids = append(ids, u)
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		for _, u := range ids {
			if rows[u] != sign*ledger[u] {
				add("user %d: %s rows say %d, the ledger holds %d", u, what, rows[u], sign*ledger[u])
			}
		}
	}
	for _, c := range []struct {
		what, query, account string
		sign                 int64
	}{
		{"pending commission", `SELECT user_id, SUM(amount) FROM commissions WHERE state = 'pending' GROUP BY user_id`, SysCommissionPending, 1},
		{"pending creator earnings", `SELECT user_id, SUM(amount) FROM creator_earnings WHERE state = 'pending' GROUP BY user_id`, SysCreatorPending, 1},
		{"debt", `SELECT user_id, cents FROM earning_debts`, SysEarningDebt, -1},
	} {
		rows, err := sums(c.query)
		if err != nil {
			return nil, err
		}
		ledger, err := wallet.HeldByUser(ctx, q, c.account)
		if err != nil {
			return nil, err
		}
		compare(c.what, rows, ledger, c.sign)
	}

	// Each row's movements, by their keys.
	type row struct {
		id, amount, debt int64
		state            string
	}
	scan := func(s db.Scanner) (row, error) {
		var r row
		return r, s.Scan(&r.id, &r.amount, &r.debt, &r.state)
	}
	for _, t := range []struct{ table, prefix string }{{"commissions", "commission:"}, {"creator_earnings", "creator:"}} {
		rows, err := db.All(ctx, q, scan, `SELECT id, amount, debt, state FROM `+t.table)
		if err != nil {
			return nil, err
		}
		keys, err := wallet.PostedKeys(ctx, q, t.prefix)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			want := map[string]bool{"new": true}
			switch {
			case r.state == StateSettled:
				want["settle"] = true
			case r.state == StateReversed && r.debt == 0:
				want["reverse"] = true
			case r.state == StateReversed && r.debt == r.amount:
				want["settle"], want["debt"] = true, true
			case r.state == StateReversed:
				add("%s %d: reversed with debt %d of %d", t.table, r.id, r.debt, r.amount)
			}
			for _, step := range []string{"new", "settle", "reverse", "debt"} {
				key := rowKey(t.prefix, step, r.id)
				if keys[key] != want[step] {
					add("%s %d (%s): movement %s posted %v, want %v", t.table, r.id, r.state, key, keys[key], want[step])
				}
				delete(keys, key)
			}
		}
		for k := range keys {
			add("movement %s belongs to no %s row", k, t.table)
		}
	}
	sort.Strings(problems)
	return problems, nil
}

// rowKey is the idempotency key of a row's movement: prefix "commission:"
// or "creator:", step "new", "settle", "reverse" or "debt".
func rowKey(prefix, step string, id int64) string {
	return fmt.Sprintf("%s%s:%d", prefix, step, id)
}
