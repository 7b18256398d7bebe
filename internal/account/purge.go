package account

import (
	"context"
	"log/slog"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/jobs"
)

const (
	// PurgeSessionsKind is the recurring job that deletes dead sessions.
	PurgeSessionsKind = "account.purge_sessions"
	// RevokedSessionGrace is how long a revoked session is kept: long
	// enough to answer "when was I logged out, from which device" after
	// the fact, short enough that the table holds only live sessions and
	// the recent past.
	RevokedSessionGrace = 7 * 24 * time.Hour
	// purgeBatch bounds one delete. On SQLite a delete holds the single
	// writer, so logins wait behind it; a thousand rows is a few
	// milliseconds, and the next batch lets them in first.
	purgeBatch = 1000
)

// PurgeSessions deletes sessions that expired, or were revoked more than
// RevokedSessionGrace ago, in batches of purgeBatch rows, each its own
// transaction. It returns how many it deleted. A token whose session is
// gone is refused exactly as an expired or revoked one is.
func (s *Service) PurgeSessions(ctx context.Context) (int64, error) {
	now := s.now()
	expiredBefore := now.Unix()
	revokedBefore := now.Add(-RevokedSessionGrace).Unix()
	var total int64
	for {
		var n int64
		err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			var err error
			n, err = deleteDeadSessions(ctx, tx, expiredBefore, revokedBefore, purgeBatch)
			return err
		})
		if err != nil {
			return total, err
		}
		total += n
		if n < purgeBatch {
			return total, nil
		}
		if err := ctx.Err(); err != nil {
			return total, err
		}
	}
}

// deleteDeadSessions deletes up to limit sessions expired before
// expiredBefore or revoked before revokedBefore (unix seconds). Each side
// of the OR has its own index (migration 0003), so a batch reads only the
// rows it deletes however big the table is.
func deleteDeadSessions(ctx context.Context, q db.Querier, expiredBefore, revokedBefore int64, limit int) (int64, error) {
	res, err := q.Exec(ctx, `DELETE FROM sessions WHERE token_hash IN (
		SELECT token_hash FROM sessions WHERE expires_at < ? OR (revoked_at > 0 AND revoked_at < ?) LIMIT ?)`,
		expiredBefore, revokedBefore, limit)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// PurgeCodes deletes SMS codes that expired: they can only be refused,
// and a number asking again gets a fresh row anyway. It runs with the
// session purge.
func (s *Service) PurgeCodes(ctx context.Context) (int64, error) {
	res, err := s.db.Exec(ctx, `DELETE FROM sms_codes WHERE expires_at <= ?`, s.now().Unix())
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// RegisterJobs adds the account package's background jobs to q: the
// session purge, hourly. It is idempotent (deleting what is already gone
// deletes nothing), as every job handler must be.
func (s *Service) RegisterJobs(q *jobs.Queue) {
	jobs.Register(q, PurgeSessionsKind, func(ctx context.Context, j jobs.Job, _ struct{}) error {
		n, err := s.PurgeSessions(ctx)
		if n > 0 {
			slog.InfoContext(ctx, "purged sessions", "deleted", n)
		}
		if err != nil {
			return err
		}
		_, err = s.PurgeCodes(ctx)
		return err
	}, jobs.KindOpts{MaxAttempts: 3})
	q.Every(PurgeSessionsKind, time.Hour, PurgeSessionsKind, nil)
}
