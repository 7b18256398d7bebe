package wallet

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// The daily reconciliation (issue 21: GET /api/admin/reconciliation): for
// each Asia/Shanghai day, each book's own rows against the ledger's system
// account that stands for them. A book and its account are written in one
// transaction, so on a sound database every diff is 0; a non-zero diff is a
// movement without its row (a hand-made entry) or a row without its
// movement. The wallet's books are the orders (money in, per provider,
// against sys:cent:payments) and the approved withdrawals (money out,
// against sys:cent:payouts); earnings' are asked through EarningsBooks.

// MaxReconDays bounds one reconciliation's range.
const MaxReconDays = 92

// ReconPair is one book's total of a day against the ledger's: diff =
// ledger - records.
type ReconPair struct {
	Records int64 `json:"records"`
	Ledger  int64 `json:"ledger"`
	Diff    int64 `json:"diff"`
}

func pair(records, ledger int64) ReconPair {
	return ReconPair{Records: records, Ledger: ledger, Diff: ledger - records}
}

// ProviderRecon is one provider's money in of a day: its orders paid that
// day less those refunded that day (records) against the movements of
// sys:cent:payments naming its orders.
type ProviderRecon struct {
	PayType  string `json:"payType"`
	Paid     int64  `json:"paid"`
	Refunded int64  `json:"refunded"`
	ReconPair
}

// TopupRecon is a day's money in: every provider's orders against every
// movement of sys:cent:payments (one naming no order shows here only).
type TopupRecon struct {
	ReconPair
	Providers []ProviderRecon `json:"providers"`
}

// ReconDay is one day of the reconciliation.
type ReconDay struct {
	Date       string     `json:"date"` // YYYY-MM-DD, Asia/Shanghai
	OK         bool       `json:"ok"`   // every diff is 0
	Topup      TopupRecon `json:"topup"`
	Payouts    ReconPair  `json:"payouts"`
	Commission ReconPair  `json:"commission"`
	Creator    ReconPair  `json:"creator"`
}

// EarningsBooks are earnings' books per day (earnings implements them,
// wired in internal/app): commission made against the movements into
// sys:cent:commission_pending, creator earnings made against those into
// sys:cent:creator_pending, each keyed by date, over unix seconds
// [from, to).
type EarningsBooks interface {
	DailyBooks(ctx context.Context, from, to int64) (commission, creator map[string]ReconPair, err error)
}

// DayOf is the Asia/Shanghai date of SQL's day number (unix seconds + 8 h)
// / 86400.
func DayOf(n int64) string { return time.Unix(n*86400, 0).UTC().Format(time.DateOnly) }

// DayNumber is the SQL expression of column's Asia/Shanghai day number
// (DayOf reads it back): the zone is a fixed UTC+8 (platform/days).
func DayNumber(column string) string { return "((" + column + " + 28800) / 86400)" }

// LedgerDaily sums, per Asia/Shanghai day of [from, to), the entries of
// system account kind made by movements of kind txnKind ("" any): what
// another domain reconciles its rows against.
func LedgerDaily(ctx context.Context, q db.Querier, account, txnKind string, from, to int64) (map[string]int64, error) {
	where, args := "", []any{account, from, to}
	if txnKind != "" {
		where, args = " AND t.kind = ?", append(args, txnKind)
	}
	return daily(ctx, q, `SELECT `+DayNumber("e.created_at")+` AS d, SUM(e.amount) FROM ledger_entries e
		JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_txns t ON t.id = e.txn_id
		WHERE a.user_id = 0 AND a.kind = ? AND e.created_at >= ? AND e.created_at < ?`+where+` GROUP BY d`, args...)
}

// daily runs a query answering (day number, sum) rows.
func daily(ctx context.Context, q db.Querier, query string, args ...any) (map[string]int64, error) {
	rows, err := db.All(ctx, q, func(s db.Scanner) ([2]int64, error) {
		var v [2]int64
		return v, s.Scan(&v[0], &v[1])
	}, query, args...)
	out := make(map[string]int64, len(rows))
	for _, r := range rows {
		out[DayOf(r[0])] += r[1]
	}
	return out, err
}

// byProvider runs a query answering (day number, payType, sum) rows.
func byProvider(ctx context.Context, q db.Querier, query string, args ...any) (map[string]map[string]int64, error) {
	type row struct {
		day    int64
		payTyp string
		sum    int64
	}
	rows, err := db.All(ctx, q, func(s db.Scanner) (row, error) {
		var v row
		return v, s.Scan(&v.day, &v.payTyp, &v.sum)
	}, query, args...)
	out := map[string]map[string]int64{}
	for _, r := range rows {
		d := DayOf(r.day)
		if out[d] == nil {
			out[d] = map[string]int64{}
		}
		out[d][r.payTyp] += r.sum
	}
	return out, err
}

// Reconcile is the reconciliation of the Asia/Shanghai days from..to
// (both included), newest first.
func (s *Service) Reconcile(ctx context.Context, from, to time.Time) ([]ReconDay, error) {
	lo, hi := days.Start(from).Unix(), days.Start(to).AddDate(0, 0, 1).Unix()
	paid, err := byProvider(ctx, s.db, `SELECT `+DayNumber("paid_at")+` AS d, pay_type, SUM(amount) FROM orders
		WHERE paid_at >= ? AND paid_at < ? AND status IN ('paid', 'refunded') GROUP BY d, pay_type`, lo, hi)
	if err != nil {
		return nil, err
	}
	refunded, err := byProvider(ctx, s.db, `SELECT `+DayNumber("closed_at")+` AS d, pay_type, SUM(amount) FROM orders
		WHERE status = 'refunded' AND closed_at >= ? AND closed_at < ? GROUP BY d, pay_type`, lo, hi)
	if err != nil {
		return nil, err
	}
	// Money in is what leaves sys:cent:payments (a payment is -amount
	// there, a refund +amount); movements naming no order count as "".
	ledgerIn, err := byProvider(ctx, s.db, `SELECT `+DayNumber("e.created_at")+` AS d, COALESCE(o.pay_type, ''), -SUM(e.amount)
		FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_txns t ON t.id = e.txn_id
		LEFT JOIN orders o ON o.order_no = t.ref AND t.ref <> ''
		WHERE a.user_id = 0 AND a.kind = ? AND e.created_at >= ? AND e.created_at < ? GROUP BY d, COALESCE(o.pay_type, '')`,
		SysPayments, lo, hi)
	if err != nil {
		return nil, err
	}
	payouts, err := daily(ctx, s.db, `SELECT `+DayNumber("decided_at")+` AS d, SUM(amount - fee) FROM withdrawals
		WHERE status = 'paid' AND decided_at >= ? AND decided_at < ? GROUP BY d`, lo, hi)
	if err != nil {
		return nil, err
	}
	ledgerOut, err := LedgerDaily(ctx, s.db, SysPayouts, "", lo, hi)
	if err != nil {
		return nil, err
	}
	var commission, creator map[string]ReconPair
	if s.Books != nil {
		if commission, creator, err = s.Books.DailyBooks(ctx, lo, hi); err != nil {
			return nil, err
		}
	}
	out := []ReconDay{}
	for d := days.Start(to); !d.Before(days.Start(from)); d = d.AddDate(0, 0, -1) {
		date := d.Format(time.DateOnly)
		day := ReconDay{Date: date, Topup: TopupRecon{Providers: []ProviderRecon{}},
			Payouts: pair(payouts[date], ledgerOut[date]), Commission: commission[date], Creator: creator[date]}
		names := map[string]bool{}
		for _, m := range []map[string]int64{paid[date], refunded[date], ledgerIn[date]} {
			for n := range m {
				names[n] = true
			}
		}
		for _, p := range s.Pay.Providers {
			names[p.Name()] = true
		}
		var records, ledger int64
		for n := range names {
			ledger += ledgerIn[date][n]
			if n == "" {
				continue
			}
			p := ProviderRecon{PayType: n, Paid: paid[date][n], Refunded: refunded[date][n]}
			p.ReconPair = pair(p.Paid-p.Refunded, ledgerIn[date][n])
			records += p.Records
			day.Topup.Providers = append(day.Topup.Providers, p)
		}
		sort.Slice(day.Topup.Providers, func(i, j int) bool { return day.Topup.Providers[i].PayType < day.Topup.Providers[j].PayType })
		day.Topup.ReconPair = pair(records, ledger)
		day.OK = day.Topup.Diff == 0 && day.Payouts.Diff == 0 && day.Commission.Diff == 0 && day.Creator.Diff == 0
		for _, p := range day.Topup.Providers {
			day.OK = day.OK && p.Diff == 0
		}
		out = append(out, day)
	}
	return out, nil
}

// ParseDay reads a YYYY-MM-DD date as the start of that Asia/Shanghai day.
func ParseDay(s string) (time.Time, bool) {
	t, err := time.ParseInLocation(time.DateOnly, s, days.Zone)
	if err != nil || t.Format(time.DateOnly) != s || t.Year() < 2000 || t.Year() > 2100 {
		return time.Time{}, false
	}
	return t, true
}

// AdminReconciliation is GET /api/admin/reconciliation?from&to (dates,
// Asia/Shanghai, both included; to defaults to today, from to six days
// before to; at most MaxReconDays) -> {from, to, timezone, days: [ReconDay]}.
func (h *Handler) AdminReconciliation(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	fromS, toS := q.String("from"), q.String("to")
	if err := q.Err(); err != nil {
		return err
	}
	to := days.Start(h.s.now())
	if toS != "" {
		t, ok := ParseDay(toS)
		if !ok {
			return httpx.Invalid("参数 to 无效", "to must be a date YYYY-MM-DD (2000..2100)")
		}
		to = t
	}
	from := to.AddDate(0, 0, -6)
	if fromS != "" {
		t, ok := ParseDay(fromS)
		if !ok {
			return httpx.Invalid("参数 from 无效", "from must be a date YYYY-MM-DD (2000..2100)")
		}
		from = t
	}
	if from.After(to) {
		return httpx.Invalid("开始日期不能晚于结束日期", "from is after to")
	}
	if n := int(to.Sub(from).Hours()/24) + 1; n > MaxReconDays {
		return httpx.Invalid(fmt.Sprintf("一次最多对账 %d 天", MaxReconDays), fmt.Sprintf("%d days asked, at most %d", n, MaxReconDays))
	}
	list, err := h.s.Reconcile(r.Context(), from, to)
	if err != nil {
		return err
	}
	return httpx.OK(w, map[string]any{"from": from.Format(time.DateOnly), "to": to.Format(time.DateOnly),
		"timezone": "Asia/Shanghai", "days": list})
}

// CheckResult is what a run of the ledger's invariants found.
type CheckResult struct {
	OK        bool      `json:"ok"`
	Movements int64     `json:"movements"`
	Entries   int64     `json:"entries"`
	Breaches  []string  `json:"breaches"`
	CheckedAt time.Time `json:"checkedAt"`
}

// RunCheck runs what `prima wallet check` runs (Check with s.Invariants)
// and counts the ledger's rows, audited ("wallet.check", the result's
// counts and breaches) once it is done.
func (s *Service) RunCheck(ctx context.Context, actor audit.Actor) (CheckResult, error) {
	found, err := Breaches(ctx, s.db, s.Invariants...)
	if err != nil {
		return CheckResult{}, err
	}
	res := CheckResult{OK: len(found) == 0, Breaches: found, CheckedAt: s.now().UTC().Truncate(time.Second)}
	if res.Breaches == nil {
		res.Breaches = []string{}
	}
	if err := s.db.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM ledger_txns), (SELECT COUNT(*) FROM ledger_entries)`).Scan(&res.Movements, &res.Entries); err != nil {
		return CheckResult{}, err
	}
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		after := res
		if len(after.Breaches) > 20 {
			after.Breaches = after.Breaches[:20]
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "wallet.check", TargetType: "ledger", TargetID: "all", After: after}, s.now())
	})
	return res, err
}

// AdminCheck is POST /api/admin/wallet/check {} -> CheckResult.
func (h *Handler) AdminCheck(w http.ResponseWriter, r *http.Request) error {
	var b struct{}
	if err := httpx.Decode(w, r, &b); err != nil {
		return err
	}
	res, err := h.s.RunCheck(r.Context(), audit.ActorFrom(r))
	if err != nil {
		return err
	}
	return httpx.OK(w, res)
}
