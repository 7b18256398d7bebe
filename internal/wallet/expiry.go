package wallet

import (
	"context"
	"errors"

	"prima/internal/platform/db"
	"prima/internal/platform/jobs"
)

// ExpireOrderKind is the job that closes an unpaid order at its expiry.
const ExpireOrderKind = "wallet.order.expire"

type expirePayload struct {
	OrderNo string `json:"orderNo"`
}

// errNotYet: the expiry job ran before the order's expiry (clocks of two
// nodes apart); it retries.
var errNotYet = errors.New("order not yet expired")

// ExpireOrder closes order no when it is still pending and past its expiry;
// otherwise it changes nothing (paid, cancelled, already expired). It
// reports whether it expired the order.
func (s *Service) ExpireOrder(ctx context.Context, no string) (bool, error) {
	now := s.now()
	var done bool
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		o, err := orderForUpdate(ctx, tx, no)
		if errors.Is(err, ErrNoOrder) {
			return nil
		}
		if err != nil || o.Status != OrderPending {
			return err
		}
		if now.Before(o.ExpiresAt) {
			return errNotYet
		}
		res, err := tx.Exec(ctx, `UPDATE orders SET status = 'expired', closed_at = ? WHERE order_no = ? AND status = 'pending' AND expires_at <= ?`,
			now.Unix(), no, now.Unix())
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if done = n == 1; err != nil || !done {
			return err
		}
		return releaseNewUser(ctx, tx, no)
	})
	return done, err
}

// RegisterJobs adds the wallet's background jobs to q: the order expiry.
func (s *Service) RegisterJobs(q *jobs.Queue) {
	jobs.Register(q, ExpireOrderKind, func(ctx context.Context, j jobs.Job, p expirePayload) error {
		_, err := s.ExpireOrder(ctx, p.OrderNo)
		return err
	}, jobs.KindOpts{MaxAttempts: 10})
}
