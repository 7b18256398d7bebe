package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is a Limiter whose counters live in Redis, shared by every node.
type Redis struct {
	rdb    redis.UniversalClient
	prefix string
}

// NewRedis counts in rdb under keys that start with prefix (so several
// installs or tests can share one Redis). The caller owns rdb, which the
// rest of the process shares (redisx.Dial), and closes it.
func NewRedis(rdb redis.UniversalClient, prefix string) *Redis {
	return &Redis{rdb: rdb, prefix: prefix}
}

// Ping checks that the server answers, for the readiness check.
func (r *Redis) Ping(ctx context.Context) error { return r.rdb.Ping(ctx).Err() }

// allowScript counts and reads the window's remaining time in one atomic
// step. The first INCR of a window sets its expiry; a key that somehow lost
// its expiry (PTTL -1) gets one again, so no counter can block forever.
var allowScript = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
`)

// Allow implements Limiter.
func (r *Redis) Allow(ctx context.Context, key string, limit int, win time.Duration) (bool, time.Duration, error) {
	if err := checkArgs(limit, win); err != nil {
		return false, 0, err
	}
	res, err := allowScript.Run(ctx, r.rdb, []string{r.prefix + key}, win.Milliseconds()).Int64Slice()
	if err != nil {
		return false, 0, fmt.Errorf("ratelimit: %w", err)
	}
	if len(res) != 2 {
		return false, 0, errors.New("ratelimit: unexpected script reply")
	}
	if res[0] > int64(limit) {
		return false, time.Duration(res[1]) * time.Millisecond, nil
	}
	return true, 0, nil
}

// incrScript is allowScript without a limit: count, open the window on the
// first count, and repair a key that lost its expiry.
var incrScript = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('PTTL', KEYS[1]) < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return n
`)

// peekScript reads value and remaining time of every key atomically.
var peekScript = redis.NewScript(`
local out = {}
for i, k in ipairs(KEYS) do
  local v = redis.call('GET', k)
  if v then
    out[#out+1] = tonumber(v) or 0
    out[#out+1] = redis.call('PTTL', k)
  else
    out[#out+1] = 0
    out[#out+1] = 0
  end
end
return out
`)

// Incr implements Counter.
func (r *Redis) Incr(ctx context.Context, key string, win time.Duration) (int64, error) {
	if win < time.Millisecond {
		return 0, ErrBadLimit
	}
	n, err := incrScript.Run(ctx, r.rdb, []string{r.prefix + key}, win.Milliseconds()).Int64()
	if err != nil {
		return 0, fmt.Errorf("ratelimit: %w", err)
	}
	return n, nil
}

// Peek implements Counter.
func (r *Redis) Peek(ctx context.Context, keys ...string) ([]Count, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	full := make([]string, len(keys))
	for i, k := range keys {
		full[i] = r.prefix + k
	}
	res, err := peekScript.Run(ctx, r.rdb, full).Int64Slice()
	if err != nil {
		return nil, fmt.Errorf("ratelimit: %w", err)
	}
	if len(res) != 2*len(keys) {
		return nil, errors.New("ratelimit: unexpected script reply")
	}
	out := make([]Count, len(keys))
	for i := range keys {
		n, ttl := res[2*i], res[2*i+1]
		if ttl < 0 { // no expiry (-1) should not happen; treat as absent rather than forever
			ttl = 0
			n = 0
		}
		out[i] = Count{N: n, TTL: time.Duration(ttl) * time.Millisecond}
	}
	return out, nil
}

// Set implements Counter.
func (r *Redis) Set(ctx context.Context, key string, n int64, ttl time.Duration) error {
	if ttl < time.Millisecond {
		return ErrBadLimit
	}
	if err := r.rdb.Set(ctx, r.prefix+key, n, ttl).Err(); err != nil {
		return fmt.Errorf("ratelimit: %w", err)
	}
	return nil
}

// Delete implements Counter.
func (r *Redis) Delete(ctx context.Context, keys ...string) error {
	if len(keys) == 0 {
		return nil
	}
	full := make([]string, len(keys))
	for i, k := range keys {
		full[i] = r.prefix + k
	}
	if err := r.rdb.Del(ctx, full...).Err(); err != nil {
		return fmt.Errorf("ratelimit: %w", err)
	}
	return nil
}
