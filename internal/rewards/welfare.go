package rewards

import (
	"context"
	"errors"
	"fmt"
	"time"

	"prima/internal/account"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/realtime"
	"prima/internal/wallet"
)

// Welfare keeps points, check-in, tasks and points prizes.
type Welfare struct {
	db     *db.DB
	Wallet Granter
	// Now is the clock; tests fix it to cross Shanghai midnight.
	Now func() time.Time
	// Events tells the user's open apps that their points changed, as
	// wallet.changed (once per transaction with the wallet's own); nil
	// sends nothing.
	Events realtime.Publisher
	// Counters count task progress, one per metric: checkin is rewards'
	// own, the others are the owning domains' and the app adds them. A
	// task whose metric has no counter fails to count rather than show 0.
	Counters map[string]Counter
}

// NewWelfare returns the welfare service on d, granting through g,
// telling points changes through events and counting task progress with
// counters (the owning domains'; checkin is rewards' own and always there).
func NewWelfare(d *db.DB, g Granter, events realtime.Publisher, counters map[string]Counter) *Welfare {
	w := &Welfare{db: d, Wallet: g, Now: time.Now, Events: events, Counters: map[string]Counter{"checkin": countCheckins}}
	for metric, count := range counters {
		w.Counters[metric] = count
	}
	return w
}

// Errors of the welfare rules; the HTTP layer turns them into envelopes.
var (
	ErrShortPoints    = errors.New("rewards: not enough points")
	ErrCheckedIn      = errors.New("rewards: checked in today already")
	ErrNoTask         = errors.New("rewards: no such task")
	ErrTaskNotDone    = errors.New("rewards: task not done yet")
	ErrTaskClaimed    = errors.New("rewards: task claimed already")
	ErrNoPrize        = errors.New("rewards: no such prize")
	ErrOutOfStock     = errors.New("rewards: prize out of stock")
	ErrPrizeLimit     = errors.New("rewards: prize limit per user reached")
	ErrPointsReplayed = errors.New("rewards: points key used before")
	ErrBadConfig      = errors.New("rewards: bad configuration")
	ErrExchangeBusy   = errors.New("rewards: the same exchange is in progress")
)

// AddPoints moves uid's points by delta inside tx and writes the ledger
// row. A debit is a conditional update, so parallel spends never take the
// balance below zero (ErrShortPoints); key is unique across the ledger, so
// a replay fails with ErrPointsReplayed and the caller's tx rolls back.
// It returns the balance after.
func (w *Welfare) AddPoints(ctx context.Context, tx *db.Tx, uid, delta int64, kind, key, ref string, now time.Time) (int64, error) {
	if uid <= 0 || delta == 0 || kind == "" || key == "" {
		return 0, fmt.Errorf("rewards: bad points move uid %d delta %d kind %q key %q", uid, delta, kind, key)
	}
	// The balance is a column of account's users row; the ledger is ours.
	bal, ok, err := account.MovePoints(ctx, tx, uid, delta)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, ErrShortPoints
	}
	_, err = tx.Exec(ctx, `INSERT INTO point_entries (user_id, delta, balance_after, kind, key, ref, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, uid, delta, bal, kind, key, ref, now.Unix())
	if db.IsUnique(err) {
		return 0, ErrPointsReplayed
	}
	if err != nil {
		return 0, err
	}
	wallet.ChangedOnce(tx, w.Events, uid, "points")
	return bal, nil
}

// Points is uid's balance (account.Points: a column of the users row).
func (w *Welfare) Points(ctx context.Context, uid int64) (int64, error) {
	return account.Points(ctx, w.db, uid)
}

// PointEntry is one row of the caller's points record.
type PointEntry struct {
	ID           int64  `json:"id"`
	Delta        int64  `json:"delta"`
	BalanceAfter int64  `json:"balanceAfter"`
	Kind         string `json:"kind"`
	Ref          string `json:"ref"`
	CreatedAt    int64  `json:"createdAt"`
}

// PointRecords is a page of uid's points entries, newest first.
type PointRecords = httpx.Page[PointEntry]

// Records lists uid's points entries.
func (w *Welfare) Records(ctx context.Context, uid int64, num, size int) (PointRecords, error) {
	p := PointRecords{List: []PointEntry{}, PageNumber: num, PageSize: size}
	if err := w.db.QueryRow(ctx, `SELECT COUNT(*) FROM point_entries WHERE user_id = ?`, uid).Scan(&p.Total); err != nil {
		return p, err
	}
	list, err := db.All(ctx, w.db, func(s db.Scanner) (PointEntry, error) {
		var e PointEntry
		err := s.Scan(&e.ID, &e.Delta, &e.BalanceAfter, &e.Kind, &e.Ref, &e.CreatedAt)
		return e, err
	}, `SELECT id, delta, balance_after, kind, ref, created_at FROM point_entries WHERE user_id = ?
		ORDER BY id DESC LIMIT ? OFFSET ?`, uid, size, (num-1)*size)
	if err != nil {
		return p, err
	}
	p.List = list
	p.HasMore = num*size < p.Total
	return p, nil
}

func (w *Welfare) tx(ctx context.Context, fn func(ctx context.Context, tx *db.Tx) error) error {
	return w.db.Tx(ctx, fn)
}

// PointEntries is up to limit of uid's points entries as the console's
// wallet view shows them (wallet.PointsBook), newest first by
// (created_at, id), after the position (at, id); at 0 is the first page.
func (w *Welfare) PointEntries(ctx context.Context, uid, at, id int64, limit int) ([]wallet.AdminEntry, error) {
	var where db.Where
	where.And("user_id = ?", uid)
	if at > 0 {
		where.And("(created_at < ? OR (created_at = ? AND id < ?))", at, at, id)
	}
	return db.All(ctx, w.db, func(s db.Scanner) (wallet.AdminEntry, error) {
		var (
			e  = wallet.AdminEntry{Account: wallet.Points}
			ts int64
		)
		err := s.Scan(&e.ID, &e.Amount, &e.Balance, &e.Type, &e.Ref, &ts)
		e.CreatedAt = time.Unix(ts, 0).UTC()
		if e.Type == "adjust" {
			// An operator's adjustment keeps its reason as the ref.
			e.Memo, e.Ref = e.Ref, ""
		}
		return e, err
	}, `SELECT id, delta, balance_after, kind, ref, created_at FROM point_entries`+where.Clause()+`
		ORDER BY created_at DESC, id DESC LIMIT ?`, append(where.Args(), limit)...)
}

// AdjustPoints is an operator's change of uid's points in tx (kind
// "adjust", the reason kept as the entry's ref), for wallet.PointsBook.
func (w *Welfare) AdjustPoints(ctx context.Context, tx *db.Tx, uid, delta int64, key, memo string, now time.Time) (int64, error) {
	return w.AddPoints(ctx, tx, uid, delta, "adjust", key, memo, now)
}

// PointsShort reports err is a debit below zero (ErrShortPoints).
func (w *Welfare) PointsShort(err error) bool { return errors.Is(err, ErrShortPoints) }

var _ wallet.PointsBook = (*Welfare)(nil)
