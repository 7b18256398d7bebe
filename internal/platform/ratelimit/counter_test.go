package ratelimit

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// counterConformance is the behaviour every Counter must have.
func counterConformance(t *testing.T, c Counter, key func(string) string) {
	ctx := context.Background()
	t.Run("incr counts, peek reads, delete forgets", func(t *testing.T) {
		k, other := key("n"), key("absent")
		for want := int64(1); want <= 3; want++ {
			n, err := c.Incr(ctx, k, time.Minute)
			if err != nil || n != want {
				t.Fatalf("Incr = %d, %v; want %d", n, err, want)
			}
		}
		got, err := c.Peek(ctx, k, other)
		if err != nil || len(got) != 2 {
			t.Fatalf("Peek = %v, %v", got, err)
		}
		if got[0].N != 3 || got[0].TTL <= 0 || got[0].TTL > time.Minute {
			t.Fatalf("Peek(k) = %+v, want 3 with a TTL within a minute", got[0])
		}
		if got[1] != (Count{}) {
			t.Fatalf("Peek(absent) = %+v, want zero", got[1])
		}
		if err := c.Delete(ctx, k, other); err != nil {
			t.Fatal(err)
		}
		if got, _ := c.Peek(ctx, k); got[0] != (Count{}) {
			t.Fatalf("after Delete: %+v", got[0])
		}
		if n, _ := c.Incr(ctx, k, time.Minute); n != 1 {
			t.Fatalf("Incr after Delete = %d, want 1", n)
		}
	})
	t.Run("set replaces value and expiry", func(t *testing.T) {
		k := key("set")
		if _, err := c.Incr(ctx, k, time.Hour); err != nil {
			t.Fatal(err)
		}
		if err := c.Set(ctx, k, 7, 30*time.Second); err != nil {
			t.Fatal(err)
		}
		got, err := c.Peek(ctx, k)
		if err != nil || got[0].N != 7 || got[0].TTL <= 0 || got[0].TTL > 30*time.Second {
			t.Fatalf("Peek after Set = %+v, %v", got, err)
		}
	})
	t.Run("bad windows are errors", func(t *testing.T) {
		if _, err := c.Incr(ctx, key("bad"), 0); !errors.Is(err, ErrBadLimit) {
			t.Fatalf("Incr(window 0) = %v", err)
		}
		if err := c.Set(ctx, key("bad"), 1, 0); !errors.Is(err, ErrBadLimit) {
			t.Fatalf("Set(ttl 0) = %v", err)
		}
	})
}

func TestMemoryCounter(t *testing.T) {
	counterConformance(t, NewMemory(), func(s string) string { return t.Name() + ":" + s })
}

func TestRedisCounter(t *testing.T) {
	l, _, _ := testRedis(t)
	counterConformance(t, l, func(s string) string { return t.Name() + ":" + s })
}

func TestMemoryCounterWindowEnds(t *testing.T) {
	m, clock := newFakeMemory()
	ctx := context.Background()
	m.Incr(ctx, "k", 10*time.Second)
	clock.add(9 * time.Second)
	if n, _ := m.Incr(ctx, "k", 10*time.Second); n != 2 {
		t.Fatalf("second Incr in the window = %d, want 2", n)
	}
	clock.add(time.Second)
	if got, _ := m.Peek(ctx, "k"); got[0] != (Count{}) {
		t.Fatalf("Peek after the window = %+v, want zero", got[0])
	}
	if n, _ := m.Incr(ctx, "k", 10*time.Second); n != 1 {
		t.Fatalf("Incr after the window = %d, want a new window", n)
	}
}

// downLimiter fails like an unreachable Redis.
type downLimiter struct{}

func (downLimiter) Allow(context.Context, string, int, time.Duration) (bool, time.Duration, error) {
	return false, 0, errors.New("dial tcp 127.0.0.1:6379: connection refused")
}

func TestEnforcePolicies(t *testing.T) {
	ctx := context.Background()
	if err := Enforce(ctx, downLimiter{}, "k", 1, time.Minute, FailOpen); err != nil {
		t.Fatalf("FailOpen with the limiter down = %v, want nil", err)
	}
	if err := Enforce(ctx, downLimiter{}, "k", 1, time.Minute, FailClosed); !errors.Is(err, ErrUnavailable) || errors.Is(err, ErrLimited) {
		t.Fatalf("FailClosed with the limiter down = %v, want ErrUnavailable", err)
	}
	m := NewMemory()
	for _, p := range []Policy{FailOpen, FailClosed} {
		key := "live" + string(rune('0'+p))
		if err := Enforce(ctx, m, key, 1, time.Minute, p); err != nil {
			t.Fatalf("policy %d first call = %v", p, err)
		}
		err := Enforce(ctx, m, key, 1, time.Minute, p)
		var le *LimitedError
		if !errors.As(err, &le) || !errors.Is(err, ErrLimited) || le.RetryAfter <= 0 {
			t.Fatalf("policy %d second call = %v, want a LimitedError", p, err)
		}
	}
	if err := Enforce(ctx, m, "k", 0, time.Minute, FailOpen); !errors.Is(err, ErrBadLimit) {
		t.Fatalf("a bad limit under FailOpen = %v, want ErrBadLimit", err)
	}
}

// A Redis that does not answer: FailOpen lets the call through, FailClosed
// refuses it with ErrUnavailable, and the counters report the error.
func TestRedisDownPolicies(t *testing.T) {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	defer rdb.Close()
	l := NewRedis(rdb, "down:")
	ctx := context.Background()
	if err := Enforce(ctx, l, "k", 5, time.Minute, FailOpen); err != nil {
		t.Fatalf("FailOpen with Redis down = %v", err)
	}
	if err := Enforce(ctx, l, "k", 5, time.Minute, FailClosed); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("FailClosed with Redis down = %v", err)
	}
	if _, err := l.Incr(ctx, "k", time.Minute); err == nil {
		t.Fatal("Incr with Redis down succeeded")
	}
	if _, err := l.Peek(ctx, "k"); err == nil {
		t.Fatal("Peek with Redis down succeeded")
	}
}
