// Package redisx dials the one Redis client a process shares: the rate
// limiter's counters and the realtime broker's pub/sub both use it, so a
// node opens one pool (plus the broker's one subscription connection) and
// closes it once on shutdown.
package redisx

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// Dial connects to a redis://, rediss:// or unix:// URL and checks that the
// server answers, so a wrong URL stops the process at start rather than at
// the first login.
func Dial(ctx context.Context, url string) (*redis.Client, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redis url: %w", err)
	}
	rdb := redis.NewClient(opt)
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := rdb.Ping(pctx).Err(); err != nil {
		rdb.Close()
		return nil, fmt.Errorf("redis ping %s: %w", opt.Addr, err)
	}
	return rdb, nil
}
