package ratelimit

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"prima/internal/platform/redisx/redistest"
)

// testRedis connects to the test Redis and gives the test a random key
// prefix, deleting its keys when it ends.
func testRedis(t *testing.T) (*Redis, *redis.Client, string) {
	t.Helper()
	opt, err := redis.ParseURL(redistest.URL())
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	ctx := context.Background()
	if err := rdb.Ping(ctx).Err(); err != nil {
		t.Fatalf("Redis at %s is needed for these tests: %v", redistest.URL(), err)
	}
	raw := make([]byte, 6)
	_, _ = rand.Read(raw)
	prefix := "prima_test:" + hex.EncodeToString(raw) + ":"
	t.Cleanup(func() {
		keys, _ := rdb.Keys(context.Background(), prefix+"*").Result()
		if len(keys) > 0 {
			rdb.Del(context.Background(), keys...)
		}
		rdb.Close()
	})
	return NewRedis(rdb, prefix), rdb, prefix
}

func TestRedis(t *testing.T) {
	l, _, _ := testRedis(t)
	conformance(t, l, func(s string) string { return t.Name() + ":" + s })
}

func TestRedisWindowExpires(t *testing.T) {
	l, rdb, prefix := testRedis(t)
	ctx := context.Background()
	const win = 300 * time.Millisecond
	if ok, _, err := l.Allow(ctx, "k", 1, win); !ok || err != nil {
		t.Fatalf("first call: ok=%v err=%v", ok, err)
	}
	ok, ra, err := l.Allow(ctx, "k", 1, win)
	if ok || err != nil || ra <= 0 || ra > win {
		t.Fatalf("second call: ok=%v retryAfter=%v err=%v, want denied within %v", ok, ra, err, win)
	}
	// The counter is a real Redis key under the prefix, with an expiry.
	if ttl := rdb.PTTL(ctx, prefix+"k").Val(); ttl <= 0 || ttl > win {
		t.Fatalf("PTTL = %v, want in (0, %v]", ttl, win)
	}
	time.Sleep(ra + 50*time.Millisecond)
	if ok, _, err := l.Allow(ctx, "k", 1, win); !ok || err != nil {
		t.Fatalf("after the window: ok=%v err=%v, want allowed", ok, err)
	}
}

func TestRedisRepairsKeyWithoutExpiry(t *testing.T) {
	l, rdb, prefix := testRedis(t)
	ctx := context.Background()
	// A counter left without a TTL (say, written by an older version) must
	// not block its key forever.
	if err := rdb.Set(ctx, prefix+"stuck", 99, 0).Err(); err != nil {
		t.Fatal(err)
	}
	ok, ra, err := l.Allow(ctx, "stuck", 5, time.Minute)
	if ok || err != nil || ra != time.Minute {
		t.Fatalf("ok=%v retryAfter=%v err=%v, want denied for the full window", ok, ra, err)
	}
	if ttl := rdb.PTTL(ctx, prefix+"stuck").Val(); ttl <= 0 {
		t.Fatalf("PTTL = %v, want an expiry set", ttl)
	}
}

func TestRedisDownIsAnError(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	defer rdb.Close()
	if _, _, err := NewRedis(rdb, "x:").Allow(context.Background(), "k", 1, time.Minute); err == nil {
		t.Fatal("Allow against an unreachable Redis returned no error")
	}
}
