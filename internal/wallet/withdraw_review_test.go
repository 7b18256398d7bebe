package wallet

import (
	"context"
	"errors"
	"fmt"
	"prima/internal/platform/httpx"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

var (
	opA = audit.Actor{UID: 7}
	opB = audit.Actor{UID: 8}
)

func auditCount(t *testing.T, d *db.DB, action, target string) int {
	t.Helper()
	var n int
	if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM audit_log WHERE action = ? AND target_id = ?`, action, target).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// The two-person rule: above the owner's threshold the first approval
// holds, the same operator cannot release it, another operator pays it;
// below it (or with the rule off) one approval pays; reject works at any
// point.
func TestTwoPersonApproval(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		f.s.Limiter = nil
		a := f.card(t, 1, "pw-one")
		f.earn(t, 1, 100_000)
		for _, bad := range []int64{-1, MaxTwoPersonAbove + 1} {
			if _, err := f.s.SetWithdrawSettings(ctx, audit.Actor{UID: 1000}, bad); status(err) != 422 {
				t.Fatalf("threshold %d: %v", bad, err)
			}
		}
		if n := auditCount(t, d, "withdraw.settings", "1"); n != 0 {
			t.Fatalf("refused settings wrote %d audit rows", n)
		}
		st, err := f.s.SetWithdrawSettings(ctx, audit.Actor{UID: 1000}, 10_000)
		if err != nil || st.TwoPersonAbove != 10_000 || st.UpdatedBy != 1000 {
			t.Fatalf("settings: %+v %v", st, err)
		}
		if n := auditCount(t, d, "withdraw.settings", "1"); n != 1 {
			t.Fatalf("%d settings audit rows", n)
		}
		small, _ := f.withdraw(1, 10_000, a.ID, "small")
		big, _ := f.withdraw(1, 20_000, a.ID, "big")
		other, _ := f.withdraw(1, 30_000, a.ID, "other")

		// At the threshold: one approval pays.
		w, changed, err := f.s.Decide(ctx, opA, small.OrderNo, true, "")
		if err != nil || !changed || w.Status != StatusPaid || w.AwaitingSecond {
			t.Fatalf("at threshold: %+v %v %v", w, changed, err)
		}
		// Above: the first approval holds it.
		w, changed, err = f.s.Decide(ctx, opA, big.OrderNo, true, "")
		if err != nil || changed || w.Status != StatusPending || !w.AwaitingSecond || w.FirstApproverID != opA.UID || w.FirstApprovedAt == nil {
			t.Fatalf("first approval: %+v %v %v", w, changed, err)
		}
		if n := auditCount(t, d, "withdraw.approve_first", big.OrderNo); n != 1 {
			t.Fatalf("%d approve_first rows", n)
		}
		if s := f.summary(t, 1); s.IncomeFrozen != 50_000 {
			t.Fatalf("first approval moved money: %+v", s)
		}
		// The same operator again: 409 with the zh message, nothing moved.
		_, _, err = f.s.Decide(ctx, opA, big.OrderNo, true, "")
		if status(err) != 409 || !strings.Contains(withdrawErrs.Map(err).Error()+tipOf(err), "需要另一位运营人员复核批准") {
			t.Fatalf("same operator: %v (%s)", err, tipOf(err))
		}
		// Another operator pays it; the audit names both.
		w, changed, err = f.s.Decide(ctx, opB, big.OrderNo, true, "")
		if err != nil || !changed || w.Status != StatusPaid || w.OperatorID != opB.UID || w.FirstApproverID != opA.UID || w.AwaitingSecond {
			t.Fatalf("second approval: %+v %v %v", w, changed, err)
		}
		var after string
		d.QueryRow(ctx, `SELECT after FROM audit_log WHERE action = 'withdraw.approve' AND target_id = ?`, big.OrderNo).Scan(&after)
		if !strings.Contains(after, `"firstApproverID":7`) || !strings.Contains(after, `"approverID":8`) {
			t.Fatalf("approve audit: %s", after)
		}
		// Approving a paid one changes nothing.
		if _, changed, err := f.s.Decide(ctx, opA, big.OrderNo, true, ""); err != nil || changed {
			t.Fatalf("approve paid: %v %v", changed, err)
		}
		// Reject after a first approval.
		if _, _, err := f.s.Decide(ctx, opA, other.OrderNo, true, ""); err != nil {
			t.Fatal(err)
		}
		w, changed, err = f.s.Decide(ctx, opA, other.OrderNo, false, "账户信息不符")
		if err != nil || !changed || w.Status != StatusRejected || w.AwaitingSecond {
			t.Fatalf("reject after first approval: %+v %v %v", w, changed, err)
		}
		if s := f.summary(t, 1); s.IncomeFrozen != 0 || s.Income != 100_000-30_000 {
			t.Fatalf("after all: %+v", s)
		}
		// The rule off: one approval pays a large one.
		if _, err := f.s.SetWithdrawSettings(ctx, audit.Actor{UID: 1000}, 0); err != nil {
			t.Fatal(err)
		}
		large, _ := f.withdraw(1, 50_000, a.ID, "large")
		if w, changed, err := f.s.Decide(ctx, opA, large.OrderNo, true, ""); err != nil || !changed || w.Status != StatusPaid {
			t.Fatalf("rule off: %+v %v %v", w, changed, err)
		}
		mustCheck(t, d)
	})
}

func tipOf(err error) string {
	if e, ok := asHTTP(withdrawErrs.Map(err)); ok {
		return e.Tip
	}
	return ""
}

// Two operators approving at once, many times over, can neither pay a
// withdrawal twice nor pay one without two different operators; one
// operator hammering alone never pays.
func TestTwoPersonRace(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		f.s.Limiter = nil
		f.s.Settings.WithdrawDailyCount = 100
		f.s.Settings.WithdrawDailyMax = 1 << 40
		a := f.card(t, 1, "pw-one")
		f.earn(t, 1, 1_000_000)
		if _, err := f.s.SetWithdrawSettings(ctx, audit.Actor{UID: 1000}, 1_000); err != nil {
			t.Fatal(err)
		}
		var nos []string
		for i := range 8 {
			w, err := f.withdraw(1, 10_000, a.ID, fmt.Sprintf("race-%d", i))
			if err != nil {
				t.Fatal(err)
			}
			nos = append(nos, w.OrderNo)
		}
		lone, _ := f.withdraw(1, 10_000, a.ID, "lone")
		var (
			wg       sync.WaitGroup
			paid     atomic.Int64
			same     atomic.Int64
			unexpect atomic.Int64
		)
		for _, no := range nos {
			for i := range 6 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					op := opA
					if i%2 == 1 {
						op = opB
					}
					_, changed, err := f.s.Decide(ctx, op, no, true, "")
					switch {
					case err == nil && changed:
						paid.Add(1)
					case err == nil:
					case status(err) == 409:
						same.Add(1)
					default:
						unexpect.Add(1)
						t.Error(err)
					}
				}()
			}
		}
		var loneRefused atomic.Int64
		for range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, changed, err := f.s.Decide(ctx, opA, lone.OrderNo, true, "")
				if changed {
					t.Error("one operator paid a two-person withdrawal")
				}
				if status(err) == 409 {
					loneRefused.Add(1)
				} else if err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if paid.Load() != int64(len(nos)) {
			t.Fatalf("%d payments for %d withdrawals", paid.Load(), len(nos))
		}
		if loneRefused.Load() != 5 {
			t.Fatalf("lone operator: %d refused of 6 (one records the first approval)", loneRefused.Load())
		}
		var bad, moves int
		d.QueryRow(ctx, `SELECT COUNT(*) FROM withdrawals WHERE status = 'paid' AND (first_approver_id = 0 OR first_approver_id = operator_id)`).Scan(&bad)
		d.QueryRow(ctx, `SELECT COUNT(*) FROM ledger_txns WHERE kind = 'withdraw_paid'`).Scan(&moves)
		if bad != 0 || moves != len(nos) {
			t.Fatalf("%d paid without two people; %d payout movements for %d", bad, moves, len(nos))
		}
		var st string
		var first int64
		d.QueryRow(ctx, `SELECT status, first_approver_id FROM withdrawals WHERE order_no = ?`, lone.OrderNo).Scan(&st, &first)
		if st != StatusPending || first != opA.UID {
			t.Fatalf("lone: %s first %d", st, first)
		}
		mustCheck(t, d)
	})
}

func TestBulkApprove(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		f.s.Limiter = nil
		a := f.card(t, 1, "pw-one")
		f.earn(t, 1, 100_000)
		if _, err := f.s.SetWithdrawSettings(ctx, audit.Actor{UID: 1000}, 10_000); err != nil {
			t.Fatal(err)
		}
		small, _ := f.withdraw(1, 10_000, a.ID, "b-small")
		big, _ := f.withdraw(1, 20_000, a.ID, "b-big")
		res, err := f.s.BulkApprove(ctx, opA, []string{small.OrderNo, big.OrderNo, "W404", small.OrderNo, ""})
		if err != nil {
			t.Fatal(err)
		}
		want := []BulkItem{
			{OrderNo: small.OrderNo, Changed: true, Status: StatusPaid},
			{OrderNo: big.OrderNo, AwaitingSecond: true, Status: StatusPending},
			{OrderNo: "W404", Error: "提现订单不存在"},
			{OrderNo: "", Error: "缺少参数 orderNo"},
		}
		if fmt.Sprint(res) != fmt.Sprint(want) {
			t.Fatalf("bulk:\n got %+v\nwant %+v", res, want)
		}
		res, _ = f.s.BulkApprove(ctx, opA, []string{big.OrderNo})
		if res[0].Error != "需要另一位运营人员复核批准" || res[0].Changed {
			t.Fatalf("same operator in bulk: %+v", res)
		}
		res, _ = f.s.BulkApprove(ctx, opB, []string{big.OrderNo})
		if !res[0].Changed || res[0].Status != StatusPaid {
			t.Fatalf("second operator in bulk: %+v", res)
		}
		if _, err := f.s.BulkApprove(ctx, opA, nil); status(err) != 422 {
			t.Fatalf("empty: %v", err)
		}
		if _, err := f.s.BulkApprove(ctx, opA, make([]string, MaxBulkApprove+1)); status(err) != 422 {
			t.Fatalf("too many: %v", err)
		}
		mustCheck(t, d)
	})
}

func TestWithdrawRiskAndQueue(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		f.s.Limiter = nil
		f.s.Settings.WithdrawDailyCount = 100
		a := f.card(t, 1, "pw-one")
		f.earn(t, 1, 60_000)
		created := f.now.Add(-40 * 24 * time.Hour).Unix()
		d.Exec(ctx, `UPDATE users SET created_at = ? WHERE id = 1`, created)
		for i, paidAgo := range []time.Duration{24 * time.Hour, 10 * 24 * time.Hour, 60 * 24 * time.Hour} {
			if _, err := d.Exec(ctx, `INSERT INTO orders (order_no, user_id, product_type, product_id, title, amount, coins, pay_type, status, created_at, expires_at, paid_at)
				VALUES (?, 1, 'coins', 1, 't', ?, 10, 'sandbox', 'paid', ?, ?, ?)`, fmt.Sprintf("P9%d", i), 1000*(i+1),
				f.now.Add(-paidAgo).Unix(), f.now.Unix(), f.now.Add(-paidAgo).Unix()); err != nil {
				t.Fatal(err)
			}
		}
		var nos []string
		for i := range 5 {
			w, err := f.withdraw(1, 10_000, a.ID, fmt.Sprintf("q-%d", i))
			if err != nil {
				t.Fatal(err)
			}
			nos = append(nos, w.OrderNo)
		}
		f.s.Decide(ctx, opA, nos[0], true, "")
		f.s.Decide(ctx, opA, nos[1], false, "不符")
		r, err := f.s.WithdrawRisk(ctx, nos[4])
		if err != nil {
			t.Fatal(err)
		}
		if r.UserID != 1 || r.AccountAgeDays != 40 || !r.Registered || r.TopUps7d != (Tally{1, 1000}) || r.TopUps30d != (Tally{2, 3000}) ||
			r.Paid != (Tally{1, 10_000}) || r.Rejected != (Tally{1, 10_000}) || r.Pending != (Tally{2, 20_000}) {
			t.Fatalf("risk: %+v", r)
		}
		if len(r.IncomeSources) != 2 || r.IncomeSources[0] != (IncomeSource{"commission", 60_000, 1}) ||
			r.IncomeSources[1] != (IncomeSource{"withdraw_return", 10_000, 1}) {
			t.Fatalf("income sources: %+v", r.IncomeSources)
		}
		if _, err := f.s.WithdrawRisk(ctx, "W404"); status(err) != 404 {
			t.Fatalf("unknown: %v", err)
		}
		if _, err := f.s.WithdrawRisk(ctx, strings.Repeat("9", 65)); status(err) != 404 {
			t.Fatalf("long: %v", err)
		}
		// The pending queue, oldest first, two a page.
		var got []string
		q := WithdrawalQuery{Status: StatusPending, PageSize: 2}
		for {
			p, err := f.s.AdminWithdrawalPage(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range p.List {
				got = append(got, w.OrderNo)
			}
			if !p.HasMore {
				break
			}
			keys, _ := parseCursor1(*p.NextCursor)
			q.After = keys
		}
		if fmt.Sprint(got) != fmt.Sprint(nos[2:]) {
			t.Fatalf("queue %v, want %v", got, nos[2:])
		}
		// Every state, newest first; the deciding operator named (user 2
		// stands in for an operator here).
		if _, _, err := f.s.Decide(ctx, audit.Actor{UID: 2}, nos[2], false, "核对"); err != nil {
			t.Fatal(err)
		}
		p, _ := f.s.AdminWithdrawalPage(ctx, WithdrawalQuery{PageSize: 10})
		for _, w := range p.List {
			if w.OrderNo == nos[2] && (w.OperatorName != "u2" || w.FirstApproverName != "") {
				t.Fatalf("names: %+v", w)
			}
		}
		if len(p.List) != 5 || p.List[0].OrderNo != nos[4] || p.HasMore || p.NextCursor != nil {
			t.Fatalf("all: %d first %s", len(p.List), p.List[0].OrderNo)
		}
	})
}

func parseCursor1(c string) (int64, bool) {
	keys, ok := httpx.ParseCursor(c, 1)
	if !ok {
		return 0, false
	}
	return keys[0], true
}

func asHTTP(err error) (*httpx.Error, bool) { return errors.AsType[*httpx.Error](err) }

func parseCursorN(c string, n int) ([]int64, bool) { return httpx.ParseCursor(c, n) }
