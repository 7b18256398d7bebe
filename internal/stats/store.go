package stats

import (
	"context"
	"encoding/json"
	"fmt"

	"prima/internal/platform/db"
)

// Day is one day of GET /api/admin/stats/daily. Money in cents.
type Day struct {
	Day           string           `json:"day"`
	Rolled        bool             `json:"rolled"` // false: never rolled up, all zeros
	ActiveUsers   int64            `json:"activeUsers"`
	NewGuests     int64            `json:"newGuests"`
	Registrations int64            `json:"registrations"`
	Payers        int64            `json:"payers"`
	Revenue       Revenue          `json:"revenue"`
	ByProvider    map[string]int64 `json:"byProvider"`
	Withdrawals   Withdrawals      `json:"withdrawals"`
	Plays         int64            `json:"plays"`
	Searches      int64            `json:"searches"`
	Funnel        Funnel           `json:"funnel"`
}

// Revenue is a day's paid orders in cents.
type Revenue struct {
	Topup int64 `json:"topup"`
	VIP   int64 `json:"vip"`
	Total int64 `json:"total"`
}

// Withdrawals are a day's paid-out withdrawals.
type Withdrawals struct {
	Count int64 `json:"count"`
	Cents int64 `json:"cents"`
}

// Funnel is visit -> registration -> first payment on one day.
type Funnel struct {
	Visits        int64 `json:"visits"`
	Registrations int64 `json:"registrations"`
	FirstPayments int64 `json:"firstPayments"`
}

// dayRow is a row of stats_daily.
type dayRow struct {
	day string
	UserFigures
	MoneyFigures
	plays, searches, visits int64
	updatedAt               int64
}

func (r dayRow) view() Day {
	bp := r.ByProvider
	if bp == nil {
		bp = map[string]int64{}
	}
	return Day{Day: r.day, Rolled: r.updatedAt > 0, ActiveUsers: r.ActiveUsers, NewGuests: r.NewGuests,
		Registrations: r.Registrations, Payers: r.Payers,
		Revenue:     Revenue{Topup: r.Topup, VIP: r.VIP, Total: r.Topup + r.VIP},
		ByProvider:  bp,
		Withdrawals: Withdrawals{Count: r.Withdrawals, Cents: r.WithdrawCents},
		Plays:       r.plays, Searches: r.searches,
		Funnel: Funnel{Visits: r.visits, Registrations: r.Registrations, FirstPayments: r.FirstPayments}}
}

const dayCols = `day, active_users, new_guests, registrations, payers, first_payments, topup_cents, vip_cents,
	by_provider, withdraw_count, withdraw_cents, plays, searches, visits, updated_at`

// putDay writes r unless the day's row holds figures read later (a
// newer updated_at), and says whether it wrote.
func putDay(ctx context.Context, tx *db.Tx, r dayRow) (bool, error) {
	bp := r.ByProvider
	if bp == nil {
		bp = map[string]int64{}
	}
	js, err := json.Marshal(bp)
	if err != nil {
		return false, err
	}
	res, err := tx.Exec(ctx, `INSERT INTO stats_daily (`+dayCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (day) DO UPDATE SET active_users = excluded.active_users, new_guests = excluded.new_guests,
		registrations = excluded.registrations, payers = excluded.payers, first_payments = excluded.first_payments,
		topup_cents = excluded.topup_cents, vip_cents = excluded.vip_cents, by_provider = excluded.by_provider,
		withdraw_count = excluded.withdraw_count, withdraw_cents = excluded.withdraw_cents, plays = excluded.plays,
		searches = excluded.searches, visits = excluded.visits, updated_at = excluded.updated_at
		WHERE excluded.updated_at >= stats_daily.updated_at`,
		r.day, r.ActiveUsers, r.NewGuests, r.Registrations, r.Payers, r.FirstPayments, r.Topup, r.VIP,
		string(js), r.Withdrawals, r.WithdrawCents, r.plays, r.searches, r.visits, r.updatedAt)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// putTop replaces day's rows of kind with top.
func putTop(ctx context.Context, tx *db.Tx, day, kind string, top []Count) error {
	if _, err := tx.Exec(ctx, `DELETE FROM stats_top WHERE day = ? AND kind = ?`, day, kind); err != nil {
		return err
	}
	for _, c := range top {
		if _, err := tx.Exec(ctx, `INSERT INTO stats_top (day, kind, item, title, count) VALUES (?, ?, ?, ?, ?)`,
			day, kind, c.Key, c.Title, c.Count); err != nil {
			return err
		}
	}
	return nil
}

func daysBetween(ctx context.Context, q db.Querier, from, to string) (map[string]dayRow, error) {
	rows, err := db.All(ctx, q, func(s db.Scanner) (dayRow, error) {
		var r dayRow
		var bp string
		if err := s.Scan(&r.day, &r.ActiveUsers, &r.NewGuests, &r.Registrations, &r.Payers, &r.FirstPayments,
			&r.Topup, &r.VIP, &bp, &r.Withdrawals, &r.WithdrawCents, &r.plays, &r.searches, &r.visits, &r.updatedAt); err != nil {
			return r, err
		}
		if err := json.Unmarshal([]byte(bp), &r.ByProvider); err != nil {
			return r, fmt.Errorf("stats_daily %s by_provider: %w", r.day, err)
		}
		return r, nil
	}, `SELECT `+dayCols+` FROM stats_daily WHERE day >= ? AND day <= ? ORDER BY day`, from, to)
	if err != nil {
		return nil, err
	}
	out := make(map[string]dayRow, len(rows))
	for _, r := range rows {
		out[r.day] = r
	}
	return out, nil
}

func topBetween(ctx context.Context, q db.Querier, kind, from, to string, limit int) ([]TopItem, error) {
	return db.All(ctx, q, func(s db.Scanner) (TopItem, error) {
		var t TopItem
		err := s.Scan(&t.Key, &t.Title, &t.Count)
		return t, err
	}, `SELECT item, MAX(title), SUM(count) AS n FROM stats_top WHERE kind = ? AND day >= ? AND day <= ?
		GROUP BY item ORDER BY n DESC, item LIMIT ?`, kind, from, to, limit)
}
