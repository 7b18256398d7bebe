// Package ratelimit counts requests per key in fixed windows, so a caller can
// refuse work past a limit (login attempts per IP, per account, ...).
//
// Two implementations share the Limiter interface: Memory for one process
// (the embedded default) and Redis for many `prima serve` nodes behind a
// load balancer, where every node must see the same counters.
//
// Both use a fixed window: the first call for a key opens a window of the
// given length and the count resets when it ends. A client can therefore
// squeeze up to 2*limit calls around a window boundary; for login and
// registration throttling that is acceptable, and it keeps the Redis side to
// one key and one round trip per call.
//
// Beside Limiter, Counter (counter.go) holds counts a caller bumps only on
// some outcomes, such as failed logins, and Enforce applies a limit with an
// explicit policy for a limiter that cannot answer: FailOpen for logins,
// FailClosed for anything guarding money, codes or SMS.
package ratelimit

import (
	"context"
	"errors"
	"time"
)

// Limiter decides whether one more call under key fits in limit calls per
// window. Every call counts, allowed or not. When ok is false, retryAfter is
// how long until the window ends. err reports a limiter that could not
// answer (Redis down); the caller decides whether to fail open or closed.
type Limiter interface {
	Allow(ctx context.Context, key string, limit int, window time.Duration) (ok bool, retryAfter time.Duration, err error)
}

// ErrBadLimit is returned for a non-positive limit or a window under a
// millisecond, which are programming errors rather than "deny".
var ErrBadLimit = errors.New("ratelimit: limit must be positive and window at least 1ms")

func checkArgs(limit int, window time.Duration) error {
	if limit <= 0 || window < time.Millisecond {
		return ErrBadLimit
	}
	return nil
}
