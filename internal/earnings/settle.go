package earnings

import (
	"context"
	"log/slog"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/jobs"
)

// SettleKind is the recurring job that settles earnings whose settle time
// has passed.
const SettleKind = "earnings.settle"

// SettleEvery is how often the job runs: a row settles at most this long
// after its settle time.
const SettleEvery = time.Minute

// settleBatch is how many due rows one read picks; each settles in its own
// transaction, so a long backlog never holds the SQLite writer or many
// PostgreSQL row locks at once.
const settleBatch = 200

// RegisterJobs adds the settlement job to q, every SettleEvery. The job is
// idempotent: a row settles only from pending (a conditional update), so
// a job run twice, or beside a refund, moves each cent once.
func (s *Service) RegisterJobs(q *jobs.Queue) {
	jobs.Register(q, SettleKind, func(ctx context.Context, j jobs.Job, _ struct{}) error {
		n, err := s.SettleDue(ctx)
		if n > 0 {
			slog.InfoContext(ctx, "settled earnings", "rows", n)
		}
		return err
	}, jobs.KindOpts{MaxAttempts: 3})
	q.Every(SettleKind, SettleEvery, SettleKind, nil)
}

// SettleDue settles every pending commission and creator earning whose
// settle time has passed, oldest first, and returns how many it settled.
// It stops early, leaving the rest to the next run, when ctx ends.
func (s *Service) SettleDue(ctx context.Context) (int, error) {
	n := 0
	for _, t := range []struct {
		table  string
		settle func(ctx context.Context, tx *db.Tx, id int64, now time.Time) (bool, error)
	}{{"commissions", s.settleCommission}, {"creator_earnings", s.settleCreator}} {
		for {
			if err := ctx.Err(); err != nil {
				return n, err
			}
			now := s.now()
			ids, err := db.All(ctx, s.db, func(r db.Scanner) (int64, error) {
				var id int64
				return id, r.Scan(&id)
			}, `SELECT id FROM `+t.table+` WHERE state = 'pending' AND settle_at <= ? ORDER BY settle_at, id LIMIT ?`, now.Unix(), settleBatch)
			if err != nil {
				return n, err
			}
			for _, id := range ids {
				var done bool
				err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
					var err error
					done, err = t.settle(ctx, tx, id, now)
					return err
				})
				if err != nil {
					return n, err
				}
				if done {
					n++
				}
			}
			if len(ids) < settleBatch {
				break
			}
		}
	}
	return n, nil
}
