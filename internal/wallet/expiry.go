package wallet

import (
	"context"
	"errors"
	"log/slog"

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
// reports whether it expired the order. First its provider is asked
// whether it was paid after all (askProvider, outside any transaction): a
// payment whose notice was lost is credited instead.
func (s *Service) ExpireOrder(ctx context.Context, no string) (bool, error) {
	if err := s.askProvider(ctx, no); err != nil {
		return false, err
	}
	return s.expire(ctx, no)
}

// expire is ExpireOrder's transaction, without asking the provider.
func (s *Service) expire(ctx context.Context, no string) (bool, error) {
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
		if errors.Is(err, errQuery) && j.Attempt >= queryAttempts {
			// The provider has not answered for minutes: close the order
			// without its word. A payment that lands later is recorded as
			// late, for an operator to mark paid.
			slog.WarnContext(ctx, "payment provider not answering; order expired without asking it", "order", p.OrderNo, "err", err)
			_, err = s.expire(ctx, p.OrderNo)
		}
		return err
	}, jobs.KindOpts{MaxAttempts: 10})
}
