package earnings_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/earnings"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/wallet"
)

// pay tells earnings, as the wallet's fulfil does, that payer paid order no.
func (e *env) pay(t testing.TB, payer int64, no string, amount int64) error {
	t.Helper()
	return e.d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		return e.s.OrderPaid(ctx, tx, wallet.PaidOrder{OrderNo: no, UserID: payer, Amount: amount, At: *e.clock})
	})
}

// refund tells earnings, as the wallet's Refund does, that order no was refunded.
func (e *env) refund(t testing.TB, payer int64, no string, amount int64) error {
	t.Helper()
	return e.d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		return e.s.OrderRefunded(ctx, tx, wallet.PaidOrder{OrderNo: no, UserID: payer, Amount: amount, At: *e.clock})
	})
}

type commissionRow struct {
	level              int
	user, amount, debt int64
	state              string
}

func (e *env) commissions(t testing.TB, no string) []commissionRow {
	t.Helper()
	rows, err := db.All(context.Background(), e.d, func(r db.Scanner) (commissionRow, error) {
		var c commissionRow
		return c, r.Scan(&c.level, &c.user, &c.amount, &c.debt, &c.state)
	}, `SELECT level, user_id, amount, debt, state FROM commissions WHERE order_no = ? ORDER BY level`, no)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func (e *env) approvePromoter(t testing.TB, uid int64) {
	t.Helper()
	e.exec(t, `INSERT INTO promoter_applications (user_id, channel, contact, status, created_at, decided_at) VALUES (?, 'c', 'tg@x', 'approved', ?, ?)`,
		uid, now.Unix(), now.Unix())
}

// A chain of four: D pays, C (level 1), B (level 2, an approved promoter:
// the promoter rate) and A (level 3) earn floor(amount * rate); pending
// until settleDays pass, then the job moves each into its earner's income,
// once; the list shows the order number and the payer masked.
func TestCommissionChain(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		a, b, c, dd := e.user(t, "alice"), e.user(t, "bob"), e.user(t, "carol"), e.user(t, "dave_payer")
		e.bind(t, a, b)
		e.bind(t, b, c)
		e.bind(t, c, dd)
		e.approvePromoter(t, b)
		if err := e.pay(t, dd, "P20261125040000123456", 9999); err != nil {
			t.Fatal(err)
		}
		got := e.commissions(t, "P20261125040000123456")
		want := []commissionRow{{1, c, 999, 0, "pending"}, {2, b, 499, 0, "pending"}, {3, a, 99, 0, "pending"}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("rows %v, want %v", got, want)
		}
		e.check(t)
		page, err := e.s.Commissions(ctx, c, "", 1, 20)
		if err != nil {
			t.Fatal(err)
		}
		row := page.List[0]
		if page.Total != 1 || row.OrderNo != "P202****3456" || row.Invitee != "d**r" || row.Level != 1 || row.OrderCents != 9999 ||
			row.RateBps != 1000 || row.AmountCents != 999 || row.State != "pending" || !row.SettleAt.Equal(now.AddDate(0, 0, 7)) {
			t.Fatalf("list %+v", page)
		}
		if p, _ := e.s.Promoter(ctx, b); p.PendingCents != 499 || p.SettledCents != 0 {
			t.Fatalf("bob's page %+v", p)
		}
		// Not yet due: nothing settles.
		*e.clock = now.AddDate(0, 0, 7).Add(-time.Second)
		if n, err := e.s.SettleDue(ctx); err != nil || n != 0 {
			t.Fatalf("early settle: %d %v", n, err)
		}
		*e.clock = now.AddDate(0, 0, 7)
		if n, err := e.s.SettleDue(ctx); err != nil || n != 3 {
			t.Fatalf("settle: %d %v", n, err)
		}
		if n, err := e.s.SettleDue(ctx); err != nil || n != 0 {
			t.Fatalf("second settle: %d %v", n, err)
		}
		if e.income(t, c) != 999 || e.income(t, b) != 499 || e.income(t, a) != 99 || e.income(t, dd) != 0 {
			t.Fatalf("incomes %d %d %d", e.income(t, c), e.income(t, b), e.income(t, a))
		}
		if p, _ := e.s.Promoter(ctx, b); p.PendingCents != 0 || p.SettledCents != 499 {
			t.Fatalf("bob's page after settling %+v", p)
		}
		for _, st := range []string{"settled", "pending", "reversed"} {
			p, err := e.s.Commissions(ctx, a, st, 1, 20)
			if err != nil || (st == "settled") != (p.Total == 1) {
				t.Fatalf("state %s: %+v %v", st, p, err)
			}
		}
		if _, err := e.s.Commissions(ctx, a, "paid", 1, 20); status(err) != 422 {
			t.Fatalf("bad state: %v", err)
		}
		if _, err := e.s.Commissions(ctx, e.guest(t), "", 1, 20); status(err) != 403 {
			t.Fatalf("guest: %v", err)
		}
		e.check(t)
	})
}

// Nobody earns on their own orders, along a cycle, through a shared
// device, or an amount that rounds to nothing; settleDays 0 settles in the
// payment's own transaction; a payer without an inviter costs one read.
func TestCommissionRefusals(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		a, b, x := e.user(t, "ann"), e.user(t, "ben"), e.user(t, "xia")
		// A corrupted table with a cycle: a invited b and b invited a.
		e.bind(t, a, b)
		e.bind(t, b, a)
		e.bind(t, a, x)
		if err := e.pay(t, x, "P-cycle-0001", 10000); err != nil {
			t.Fatal(err)
		}
		if got := e.commissions(t, "P-cycle-0001"); fmt.Sprint(got) != fmt.Sprint([]commissionRow{{1, a, 1000, 0, "pending"}, {2, b, 300, 0, "pending"}}) {
			t.Fatalf("cycle rows %v", got)
		}
		// b's own order: a earns (b's inviter), b never, and the chain
		// stops where it comes back to b.
		if err := e.pay(t, b, "P-own-0001", 10000); err != nil {
			t.Fatal(err)
		}
		if got := e.commissions(t, "P-own-0001"); fmt.Sprint(got) != fmt.Sprint([]commissionRow{{1, a, 1000, 0, "pending"}}) {
			t.Fatalf("own-order rows %v", got)
		}
		// Farming: a's second account on a's phone pays; a earns nothing,
		// a's inviter b still earns level 2.
		farm := e.user(t, "ann_2")
		e.bind(t, a, farm)
		e.device(t, a, "dev-ann-phone")
		e.exec(t, `INSERT INTO sessions (token_hash, user_id, dev_id, created_at, last_seen_at, expires_at) VALUES ('h1', ?, 'dev-ann-phone', ?, ?, ?)`,
			farm, now.Unix(), now.Unix(), now.Add(time.Hour).Unix())
		if err := e.pay(t, farm, "P-farm-0001", 10000); err != nil {
			t.Fatal(err)
		}
		if got := e.commissions(t, "P-farm-0001"); fmt.Sprint(got) != fmt.Sprint([]commissionRow{{2, b, 300, 0, "pending"}}) {
			t.Fatalf("farmed rows %v", got)
		}
		// 9 cents at 10% is 0: no row, no movement.
		if err := e.pay(t, x, "P-tiny-0001", 9); err != nil {
			t.Fatal(err)
		}
		if got := e.commissions(t, "P-tiny-0001"); len(got) != 0 {
			t.Fatalf("tiny rows %v", got)
		}
		// No inviter: nothing at all.
		loner := e.user(t, "loner")
		if err := e.pay(t, loner, "P-loner-001", 10000); err != nil {
			t.Fatal(err)
		}
		if n := e.count(t, `SELECT COUNT(*) FROM invitee_orders WHERE order_no = 'P-loner-001'`); n != 0 {
			t.Fatalf("a loner's order was recorded")
		}
		// settleDays 0: straight to income, in the payment's transaction.
		e.config(t, earnings.Config{Levels: []int64{1000}, PromoterLevels: []int64{2000}, SettleDays: 0, CreatorShareBps: 5000, InviteReward: "off"})
		before := e.income(t, a)
		if err := e.pay(t, x, "P-now-0001", 5000); err != nil {
			t.Fatal(err)
		}
		if got := e.commissions(t, "P-now-0001"); fmt.Sprint(got) != fmt.Sprint([]commissionRow{{1, a, 500, 0, "settled"}}) || e.income(t, a) != before+500 {
			t.Fatalf("instant rows %v, income %d", got, e.income(t, a))
		}
		if n, _ := e.s.SettleDue(ctx); n != 0 {
			t.Fatalf("settled %d again", n)
		}
		e.check(t)
	})
}

// Twenty notifies of one paid order reach earnings at once (each in its
// own transaction, as no wallet lock serialises them here): one row per
// level and one movement each.
func TestCommissionOncePerOrderAndLevel(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		a, b, c := e.user(t, "a1"), e.user(t, "b1"), e.user(t, "c1")
		e.bind(t, a, b)
		e.bind(t, b, c)
		var wg sync.WaitGroup
		for range 20 {
			wg.Go(func() {
				if err := e.pay(t, c, "P-race-0001", 3000); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if got := e.commissions(t, "P-race-0001"); fmt.Sprint(got) != fmt.Sprint([]commissionRow{{1, b, 300, 0, "pending"}, {2, a, 90, 0, "pending"}}) {
			t.Fatalf("rows %v", got)
		}
		if n := e.count(t, `SELECT COUNT(*) FROM ledger_txns WHERE kind = 'commission_pending'`); n != 2 {
			t.Fatalf("%d pending movements", n)
		}
		e.check(t)
	})
}

// Refunds: a pending commission goes back where it came from; a settled
// one stays in income and becomes a debt, which the next commission pays
// off before any of it reaches income. Income never goes below zero.
func TestCommissionRefund(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		a, b := e.user(t, "amy"), e.user(t, "bo")
		e.bind(t, a, b)
		if err := e.pay(t, b, "P-1", 10000); err != nil {
			t.Fatal(err)
		}
		if err := e.refund(t, b, "P-1", 10000); err != nil {
			t.Fatal(err)
		}
		if got := e.commissions(t, "P-1"); fmt.Sprint(got) != fmt.Sprint([]commissionRow{{1, a, 1000, 0, "reversed"}}) {
			t.Fatalf("pending refund %v", got)
		}
		// A second refund call moves nothing.
		if err := e.refund(t, b, "P-1", 10000); err != nil {
			t.Fatal(err)
		}
		if n := e.count(t, `SELECT COUNT(*) FROM ledger_txns WHERE kind = 'commission_reversed'`); n != 1 {
			t.Fatalf("%d reversals", n)
		}
		// Settled, then refunded: a debt of 1000; income untouched.
		if err := e.pay(t, b, "P-2", 10000); err != nil {
			t.Fatal(err)
		}
		*e.clock = now.AddDate(0, 0, 8)
		if _, err := e.s.SettleDue(ctx); err != nil {
			t.Fatal(err)
		}
		if err := e.refund(t, b, "P-2", 10000); err != nil {
			t.Fatal(err)
		}
		if got := e.commissions(t, "P-2"); fmt.Sprint(got) != fmt.Sprint([]commissionRow{{1, a, 1000, 1000, "reversed"}}) || e.income(t, a) != 1000 {
			t.Fatalf("settled refund %v, income %d", got, e.income(t, a))
		}
		if n := e.count(t, `SELECT cents FROM earning_debts WHERE user_id = ?`, a); n != 1000 {
			t.Fatalf("debt %d", n)
		}
		e.check(t)
		// Next commissions: 600 all to the debt, then 600 of which 400.
		for i, amount := range []int64{6000, 6000} {
			no := fmt.Sprintf("P-next-%d", i)
			if err := e.pay(t, b, no, amount); err != nil {
				t.Fatal(err)
			}
		}
		*e.clock = now.AddDate(0, 0, 16)
		if _, err := e.s.SettleDue(ctx); err != nil {
			t.Fatal(err)
		}
		if e.income(t, a) != 1200 || e.count(t, `SELECT cents FROM earning_debts WHERE user_id = ?`, a) != 0 {
			t.Fatalf("after paying the debt off: income %d", e.income(t, a))
		}
		var memo string
		if err := d.QueryRow(ctx, `SELECT memo FROM ledger_txns WHERE idem_key LIKE 'commission:settle:%' ORDER BY id DESC LIMIT 1`).Scan(&memo); err != nil || !strings.Contains(memo, "欠款") {
			t.Fatalf("memo %q %v", memo, err)
		}
		e.check(t)
	})
}

// A refund racing settlement reverses exactly once: thirty orders due for
// settlement, three settlement runs and two refunds of each order at
// once. Whatever the order, each row ends reversed, with a debt exactly
// when it had settled first, and the ledger agrees row by row.
func TestRefundRacingSettlement(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		a, b := e.user(t, "amber"), e.user(t, "basil")
		e.bind(t, a, b)
		const orders = 30
		for i := range orders {
			if err := e.pay(t, b, fmt.Sprintf("P-r-%02d", i), 1000+int64(i)); err != nil {
				t.Fatal(err)
			}
		}
		*e.clock = now.AddDate(0, 0, 30)
		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() {
				if _, err := e.s.SettleDue(ctx); err != nil {
					t.Error(err)
				}
			})
		}
		for i := range orders {
			for range 2 {
				wg.Go(func() {
					// Spread over the settlement runs, so some orders are
					// refunded before theirs and some after.
					time.Sleep(time.Duration(i) * time.Millisecond)
					if err := e.refund(t, b, fmt.Sprintf("P-r-%02d", i), 1000+int64(i)); err != nil {
						t.Error(err)
					}
				})
			}
		}
		wg.Wait()
		var settledFirst, reversedPending int64
		for i := range orders {
			rows := e.commissions(t, fmt.Sprintf("P-r-%02d", i))
			if len(rows) != 1 || rows[0].state != "reversed" {
				t.Fatalf("order %d: %v", i, rows)
			}
			if rows[0].debt > 0 {
				settledFirst += rows[0].debt
			} else {
				reversedPending++
			}
		}
		// What settled first reached income, less what later settlements
		// paid of the debts earlier refunds made; the rest is owed.
		debts := e.count(t, `SELECT COALESCE(SUM(cents), 0) FROM earning_debts`)
		paidOff := e.count(t, `SELECT COALESCE(SUM(e.amount), 0) FROM ledger_entries e JOIN ledger_accounts x ON x.id = e.account_id
			WHERE x.kind = 'sys:cent:earning_debt' AND e.amount > 0`)
		if e.income(t, a) != settledFirst-paidOff || debts != settledFirst-paidOff {
			t.Fatalf("income %d, debts %d; settled first %d, paid off %d", e.income(t, a), debts, settledFirst, paidOff)
		}
		t.Logf("%d reversed while pending, %d cents settled first, %d of it paid off by later commission", reversedPending, settledFirst, paidOff)
		e.check(t)
	})
}

// The invariant check catches a row that disagrees with the ledger.
func TestCheckFindsDrift(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		e := newEnv(t, d)
		a, b := e.user(t, "ash"), e.user(t, "bay")
		e.bind(t, a, b)
		if err := e.pay(t, b, "P-drift", 10000); err != nil {
			t.Fatal(err)
		}
		e.check(t)
		e.exec(t, `UPDATE commissions SET amount = amount + 1`)
		err := wallet.Check(context.Background(), d, earnings.Check)
		if err == nil || !strings.Contains(err.Error(), "pending commission rows say 1001, the ledger holds 1000") {
			t.Fatalf("drifted amount: %v", err)
		}
		e.exec(t, `UPDATE commissions SET amount = amount - 1, state = 'settled'`)
		if err := wallet.Check(context.Background(), d, earnings.Check); err == nil || !strings.Contains(err.Error(), "commission:settle:") {
			t.Fatalf("settled without its movement: %v", err)
		}
	})
}
