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
