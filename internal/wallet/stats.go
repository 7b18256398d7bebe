package wallet

import (
	"context"

	"prima/internal/platform/db"
	"prima/internal/stats"
)

// MoneyFigures is a day's money for the statistics (stats.Money): the
// orders paid in the span and still paid (one refunded since drops out when
// the day is rolled up again), by product and by pay type; the users who
// paid, and those of them who had never paid before; the withdrawals paid
// out in the span. Fiat in cents.
func (s *Service) MoneyFigures(ctx context.Context, sp stats.Span) (stats.MoneyFigures, error) {
	f := stats.MoneyFigures{ByProvider: map[string]int64{}}
	from, to := sp.From.Unix(), sp.To.Unix()
	type sum struct {
		product, payType string
		cents            int64
	}
	sums, err := db.All(ctx, s.db, func(r db.Scanner) (sum, error) {
		var v sum
		err := r.Scan(&v.product, &v.payType, &v.cents)
		return v, err
	}, `SELECT product_type, pay_type, SUM(amount) FROM orders
		WHERE paid_at > 0 AND paid_at >= ? AND paid_at < ? AND status = 'paid' GROUP BY product_type, pay_type`, from, to)
	if err != nil {
		return f, err
	}
	for _, v := range sums {
		if v.product == "vip" {
			f.VIP += v.cents
		} else {
			f.Topup += v.cents
		}
		f.ByProvider[v.payType] += v.cents
	}
	if err := s.db.QueryRow(ctx, `SELECT COUNT(DISTINCT user_id) FROM orders
		WHERE paid_at > 0 AND paid_at >= ? AND paid_at < ? AND status = 'paid'`, from, to).Scan(&f.Payers); err != nil {
		return f, err
	}
	if err := s.db.QueryRow(ctx, `SELECT COUNT(DISTINCT o.user_id) FROM orders o
		WHERE o.paid_at > 0 AND o.paid_at >= ? AND o.paid_at < ? AND o.status = 'paid'
		AND NOT EXISTS (SELECT 1 FROM orders p WHERE p.user_id = o.user_id AND p.paid_at > 0 AND p.paid_at < ?)`,
		from, to, from).Scan(&f.FirstPayments); err != nil {
		return f, err
	}
	err = s.db.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(amount), 0) FROM withdrawals
		WHERE decided_at > 0 AND decided_at >= ? AND decided_at < ? AND status = 'paid'`, from, to).Scan(&f.Withdrawals, &f.WithdrawCents)
	return f, err
}
