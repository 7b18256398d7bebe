package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// Counter keeps counts that a caller bumps only on some outcomes (a failed
// login, not every login), and markers that last a while (an address that
// signed in to an account). A count lives in a window opened by its first
// Incr; a missing or ended key reads as zero.
type Counter interface {
	// Incr adds one to key and returns the new count. The first Incr of a
	// window sets it to end after window; later ones do not extend it.
	Incr(ctx context.Context, key string, window time.Duration) (int64, error)
	// Peek reads several keys in one round trip, in order.
	Peek(ctx context.Context, keys ...string) ([]Count, error)
	// Set stores n under key for ttl, replacing what was there.
	Set(ctx context.Context, key string, n int64, ttl time.Duration) error
	// Delete removes keys; missing keys are no error.
	Delete(ctx context.Context, keys ...string) error
}

// Count is a key's value and how long until it ends; zero when absent.
type Count struct {
	N   int64
	TTL time.Duration
}

// Store is what a domain's throttling needs: fixed-window limits plus
// outcome counters. Memory and Redis are both.
type Store interface {
	Limiter
	Counter
}

// Policy says what a limit does when the limiter cannot answer (Redis down).
type Policy int

const (
	// FailOpen lets the call through and logs: for logins and other calls
	// where locking every user out during an outage is worse than a short
	// stretch with only the other brakes (argon2's cost, per-node limits).
	FailOpen Policy = iota
	// FailClosed refuses the call with ErrUnavailable: for anything that
	// moves money or rewards, sends SMS or checks short codes, where an
	// outage must not become an unlimited window for abuse.
	FailClosed
)

var (
	// ErrLimited matches a *LimitedError.
	ErrLimited = errors.New("ratelimit: over the limit")
	// ErrUnavailable is a FailClosed limit whose limiter could not answer;
	// callers answer 503 ("try again later"), not 429.
	ErrUnavailable = errors.New("ratelimit: limiter unavailable")
)

// LimitedError says a limit was reached and how long until it frees.
type LimitedError struct {
	Key        string
	RetryAfter time.Duration
}

func (e *LimitedError) Error() string {
	return fmt.Sprintf("ratelimit: %s over the limit, retry after %v", e.Key, e.RetryAfter)
}
func (e *LimitedError) Is(target error) bool { return target == ErrLimited }

// RetryIn is how long until the limit frees; httpx.WriteError turns it
// into a Retry-After header for any 429 that wraps this error.
func (e *LimitedError) RetryIn() time.Duration { return e.RetryAfter }

// Enforce counts one call under key against limit per window. It returns
// nil when the call may go on, a *LimitedError when it is over, and under
// FailClosed an error matching ErrUnavailable when l cannot answer.
func Enforce(ctx context.Context, l Limiter, key string, limit int, window time.Duration, p Policy) error {
	ok, retry, err := l.Allow(ctx, key, limit, window)
	if err != nil {
		if errors.Is(err, ErrBadLimit) {
			return err // a programming error, whatever the policy
		}
		if p == FailClosed {
			return fmt.Errorf("%w: %v", ErrUnavailable, err)
		}
		slog.WarnContext(ctx, "rate limiter unavailable, allowing", "key", key, "err", err)
		return nil
	}
	if !ok {
		return &LimitedError{Key: key, RetryAfter: retry}
	}
	return nil
}
