package earnings

import (
	"context"

	"prima/internal/platform/db"
	"prima/internal/wallet"
)

// DailyBooks are earnings' books of the daily reconciliation
// (wallet.EarningsBooks) over unix seconds [from, to), by Asia/Shanghai
// day: the commission made each day (every row, whatever its state now)
// against the movements that put it into SysCommissionPending, and the
// creator earnings made against those into SysCreatorPending. A row and
// its movement are made in one transaction at the same instant, so a
// difference is a movement without its row or a row without its movement.
func (s *Service) DailyBooks(ctx context.Context, from, to int64) (commission, creator map[string]wallet.ReconPair, err error) {
	book := func(table, account, kind string) (map[string]wallet.ReconPair, error) {
		rows, err := dailySums(ctx, s, `SELECT `+wallet.DayNumber("created_at")+` AS d, SUM(amount) FROM `+table+`
			WHERE created_at >= ? AND created_at < ? GROUP BY d`, from, to)
		if err != nil {
			return nil, err
		}
		ledger, err := wallet.LedgerDaily(ctx, s.db, account, kind, from, to)
		if err != nil {
			return nil, err
		}
		out := map[string]wallet.ReconPair{}
		for d, v := range rows {
			out[d] = wallet.ReconPair{Records: v, Ledger: ledger[d], Diff: ledger[d] - v}
		}
		for d, v := range ledger {
			if _, ok := rows[d]; !ok {
				out[d] = wallet.ReconPair{Ledger: v, Diff: v}
			}
		}
		return out, nil
	}
	if commission, err = book("commissions", SysCommissionPending, "commission_pending"); err != nil {
		return nil, nil, err
	}
	creator, err = book("creator_earnings", SysCreatorPending, "creator_pending")
	return commission, creator, err
}

func dailySums(ctx context.Context, s *Service, query string, args ...any) (map[string]int64, error) {
	rows, err := db.All(ctx, s.db, func(sc db.Scanner) ([2]int64, error) {
		var v [2]int64
		return v, sc.Scan(&v[0], &v[1])
	}, query, args...)
	out := map[string]int64{}
	for _, r := range rows {
		out[wallet.DayOf(r[0])] += r[1]
	}
	return out, err
}
