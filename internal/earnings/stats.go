package earnings

import (
	"context"
	"strconv"
	"time"

	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/ratelimit"
	"prima/internal/wallet"
)

// VisitRate bounds share-link visits a device may report: a landing page
// reports once, so 30 a minute is only reached by a script.
var VisitRate = struct {
	N   int
	Per time.Duration
}{30, time.Minute}

// Visit counts a visit of code's share link from device dev by uid (POST
// /api/app/userinvite/visit): once per code, device and Asia/Shanghai day.
// The caller's own code, a malformed or unknown one count nothing and are
// no error: a landing page never fails on a bad link. dev is the
// session's device ("" falls back to the user, so a session without one
// still counts once a day).
func (s *Service) Visit(ctx context.Context, uid int64, dev, code string) (bool, error) {
	if dev == "" {
		dev = "uid:" + strconv.FormatInt(uid, 10)
	}
	if s.Limiter != nil {
		if err := ratelimit.Enforce(ctx, s.Limiter, "earnings:visit:"+dev, VisitRate.N, VisitRate.Per, ratelimit.FailOpen); err != nil {
			return false, err
		}
	}
	owner, err := s.invites.CodeOwner(ctx, code)
	if err != nil || owner == 0 || owner == uid {
		return false, err
	}
	now := s.now()
	var counted bool
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		res, err := tx.Exec(ctx, `INSERT INTO share_visits (inviter_id, day, dev_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			owner, days.Of(now), dev, now.Unix())
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		counted = n == 1
		return err
	})
	return counted, err
}

// Periods of the promotion data.
const (
	PeriodDay   = "day"
	PeriodWeek  = "week"
	PeriodMonth = "month"
)

// DayStats is one day's figures (or a window's, in Stats).
type DayStats struct {
	Date            string `json:"date,omitempty"`
	Visits          int    `json:"visits"`
	Registrations   int    `json:"registrations"`
	Payers          int    `json:"payers"`
	PaidCents       int64  `json:"paidCents"`
	CommissionCents int64  `json:"commissionCents"`
}

// Stats is GET /api/app/mine/promoter/stats.
type Stats struct {
	Period string `json:"period"`
	From   string `json:"from"` // first day, YYYY-MM-DD (Asia/Shanghai)
	To     string `json:"to"`   // last day: today
	DayStats
	Series []DayStats `json:"series"`
}

// CheckPeriod validates a period ("" is day).
func CheckPeriod(p string) (string, error) {
	switch p {
	case "":
		return PeriodDay, nil
	case PeriodDay, PeriodWeek, PeriodMonth:
		return p, nil
	}
	return "", invalid("参数 period 无效", "period must be day, week or month")
}

// Stats is uid's promotion data over period: today, this week from
// Monday, or this month, in Asia/Shanghai days, with a series of one entry
// per day up to today. Counts are of uid's own invitees (level 1): share
// visits, registrations, invitees who paid (distinct; per day and over the
// window) and what they paid (refunded orders left out); commission is
// uid's of every level made in the window and not reversed. Guests:
// ErrGuest.
func (s *Service) Stats(ctx context.Context, uid int64, period string) (Stats, error) {
	period, err := CheckPeriod(period)
	if err != nil {
		return Stats{}, err
	}
	if err := s.registered(ctx, s.db, uid); err != nil {
		return Stats{}, err
	}
	today := days.Start(s.now())
	from := today
	switch period {
	case PeriodWeek:
		from = today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
	case PeriodMonth:
		from = today.AddDate(0, 0, 1-today.Day())
	}
	end := today.AddDate(0, 0, 1) // exclusive
	out := Stats{Period: period, From: days.Of(from), To: days.Of(today), Series: []DayStats{}}
	index := map[string]int{}
	for d := from; d.Before(end); d = d.AddDate(0, 0, 1) {
		index[days.Of(d)] = len(out.Series)
		out.Series = append(out.Series, DayStats{Date: days.Of(d)})
	}
	at := func(unix int64) *DayStats {
		if i, ok := index[days.Of(time.Unix(unix, 0))]; ok {
			return &out.Series[i]
		}
		return nil
	}

	visits, err := db.All(ctx, s.db, func(r db.Scanner) (struct {
		day string
		n   int
	}, error) {
		var v struct {
			day string
			n   int
		}
		return v, r.Scan(&v.day, &v.n)
	}, `SELECT day, COUNT(*) FROM share_visits WHERE inviter_id = ? AND day >= ? AND day <= ? GROUP BY day`, uid, out.From, out.To)
	if err != nil {
		return Stats{}, err
	}
	for _, v := range visits {
		if i, ok := index[v.day]; ok {
			out.Series[i].Visits += v.n
			out.Visits += v.n
		}
	}

	regs, err := s.invites.Registrations(ctx, uid, from.Unix(), end.Unix())
	if err != nil {
		return Stats{}, err
	}
	for _, r := range regs {
		if d := at(r); d != nil {
			d.Registrations++
			out.Registrations++
		}
	}

	type paid struct{ user, amount, at int64 }
	orders, err := db.All(ctx, s.db, func(r db.Scanner) (paid, error) {
		var p paid
		return p, r.Scan(&p.user, &p.amount, &p.at)
	}, `SELECT user_id, amount, paid_at FROM invitee_orders WHERE inviter_id = ? AND paid_at >= ? AND paid_at < ? AND refunded_at = 0`,
		uid, from.Unix(), end.Unix())
	if err != nil {
		return Stats{}, err
	}
	payers, dayPayers := map[int64]bool{}, map[string]bool{}
	for _, o := range orders {
		d := at(o.at)
		if d == nil {
			continue
		}
		d.PaidCents += o.amount
		out.PaidCents += o.amount
		if k := d.Date + ":" + strconv.FormatInt(o.user, 10); !dayPayers[k] {
			dayPayers[k] = true
			d.Payers++
		}
		payers[o.user] = true
	}
	out.Payers = len(payers)

	earned, err := db.All(ctx, s.db, func(r db.Scanner) ([2]int64, error) {
		var v [2]int64
		return v, r.Scan(&v[0], &v[1])
	}, `SELECT amount, created_at FROM commissions WHERE user_id = ? AND created_at >= ? AND created_at < ? AND state <> 'reversed'`,
		uid, from.Unix(), end.Unix())
	if err != nil {
		return Stats{}, err
	}
	for _, c := range earned {
		if d := at(c[1]); d != nil {
			d.CommissionCents += c[0]
			out.CommissionCents += c[0]
		}
	}
	return out, nil
}

// Contributions are what each of inviter's invitees paid (cents, refunded
// orders left out) and what inviter earned from their orders in
// commission (not reversed): the invitee list's columns (rewards asks
// through its seam, wired in internal/app).
func (s *Service) Contributions(ctx context.Context, inviter int64, invitees []int64) (paid, commission map[int64]int64, err error) {
	paid, commission = map[int64]int64{}, map[int64]int64{}
	if len(invitees) == 0 {
		return paid, commission, nil
	}
	ph, ids := db.Placeholders(len(invitees)), anySlice(invitees)
	scan := func(r db.Scanner) ([2]int64, error) {
		var v [2]int64
		return v, r.Scan(&v[0], &v[1])
	}
	rows, err := db.All(ctx, s.db, scan, `SELECT user_id, SUM(amount) FROM invitee_orders WHERE refunded_at = 0 AND user_id IN (`+ph+`) GROUP BY user_id`, ids...)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range rows {
		paid[r[0]] = r[1]
	}
	rows, err = db.All(ctx, s.db, scan, `SELECT payer_id, SUM(amount) FROM commissions WHERE user_id = ? AND state <> 'reversed' AND payer_id IN (`+ph+`)
		GROUP BY payer_id`, append([]any{inviter}, ids...)...)
	if err != nil {
		return nil, nil, err
	}
	for _, r := range rows {
		commission[r[0]] = r[1]
	}
	return paid, commission, nil
}

// IncomeMonth is one month's movements of income, in cents, each positive:
// commission and creator earnings that reached income, withdrawals asked
// (a rejected one's return is its own withdraw_return entry, not netted
// here) and income exchanged for coins.
type IncomeMonth struct {
	CommissionCents int64 `json:"commissionCents"`
	CreatorCents    int64 `json:"creatorCents"`
	WithdrawCents   int64 `json:"withdrawCents"`
	ExchangeCents   int64 `json:"exchangeCents"`
}

// IncomeSummary is GET /api/app/mine/income/summary.
type IncomeSummary struct {
	WithdrawableCents int64       `json:"withdrawableCents"`
	PendingCents      int64       `json:"pendingCents"`
	DebtCents         int64       `json:"debtCents"`
	Month             IncomeMonth `json:"month"`
}

// IncomeSummary is uid's income now (withdrawable, pending commission and
// creator earnings, debt still to pay off) and month's totals (YYYY-MM,
// Asia/Shanghai; "" this month).
func (s *Service) IncomeSummary(ctx context.Context, uid int64, month string) (IncomeSummary, error) {
	if month == "" {
		month = s.now().In(days.Zone).Format("2006-01")
	}
	from, to, ok := wallet.MonthRange(month)
	if !ok {
		return IncomeSummary{}, invalid("参数 month 无效", "month must be YYYY-MM")
	}
	var out IncomeSummary
	var err error
	if out.WithdrawableCents, err = wallet.Balance(ctx, s.db, wallet.UserIncome(uid)); err != nil {
		return out, err
	}
	if err := s.db.QueryRow(ctx, `SELECT
		COALESCE((SELECT SUM(amount) FROM commissions WHERE user_id = ? AND state = 'pending'), 0) +
		COALESCE((SELECT SUM(amount) FROM creator_earnings WHERE user_id = ? AND state = 'pending'), 0),
		COALESCE((SELECT cents FROM earning_debts WHERE user_id = ?), 0)`, uid, uid, uid).Scan(&out.PendingCents, &out.DebtCents); err != nil {
		return out, err
	}
	byKind, err := wallet.IncomeByKind(ctx, s.db, uid, from, to)
	if err != nil {
		return out, err
	}
	out.Month = IncomeMonth{CommissionCents: byKind["commission"], CreatorCents: byKind["creator"],
		WithdrawCents: -byKind["withdraw"], ExchangeCents: -byKind["exchange"]}
	return out, nil
}
