package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// conformance runs the behaviour every Limiter must have. key makes a key
// unique to the running test.
func conformance(t *testing.T, l Limiter, key func(string) string) {
	ctx := context.Background()

	t.Run("limit holds and reports retryAfter", func(t *testing.T) {
		k := key("seq")
		for i := 1; i <= 3; i++ {
			ok, ra, err := l.Allow(ctx, k, 3, time.Minute)
			if err != nil || !ok || ra != 0 {
				t.Fatalf("call %d: ok=%v retryAfter=%v err=%v, want allowed", i, ok, ra, err)
			}
		}
		for i := 4; i <= 6; i++ {
			ok, ra, err := l.Allow(ctx, k, 3, time.Minute)
			if err != nil || ok {
				t.Fatalf("call %d: ok=%v err=%v, want denied", i, ok, err)
			}
			if ra <= 0 || ra > time.Minute {
				t.Fatalf("call %d: retryAfter=%v, want in (0, 1m]", i, ra)
			}
		}
	})

	t.Run("keys are independent", func(t *testing.T) {
		a, b := key("a"), key("b")
		if ok, _, _ := l.Allow(ctx, a, 1, time.Minute); !ok {
			t.Fatal("first call on a denied")
		}
		if ok, _, _ := l.Allow(ctx, a, 1, time.Minute); ok {
			t.Fatal("second call on a allowed with limit 1")
		}
		if ok, _, _ := l.Allow(ctx, b, 1, time.Minute); !ok {
			t.Fatal("b was limited by a's count")
		}
	})

	t.Run("bad arguments are errors", func(t *testing.T) {
		for _, c := range []struct {
			limit int
			win   time.Duration
		}{{0, time.Minute}, {-1, time.Minute}, {1, 0}, {1, time.Microsecond}} {
			if _, _, err := l.Allow(ctx, key("bad"), c.limit, c.win); !errors.Is(err, ErrBadLimit) {
				t.Errorf("Allow(limit=%d, window=%v) err = %v, want ErrBadLimit", c.limit, c.win, err)
			}
		}
	})

	t.Run("limit holds under 50 goroutines", func(t *testing.T) {
		const goroutines, perG, limit = 50, 4, 37
		k := key("conc")
		var allowed, denied atomic.Int64
		var wg sync.WaitGroup
		errs := make(chan error, goroutines*perG)
		for g := 0; g < goroutines; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < perG; i++ {
					ok, _, err := l.Allow(ctx, k, limit, time.Minute)
					if err != nil {
						errs <- err
						return
					}
					if ok {
						allowed.Add(1)
					} else {
						denied.Add(1)
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if allowed.Load() != limit || denied.Load() != goroutines*perG-limit {
			t.Fatalf("allowed %d denied %d of %d calls, want exactly %d allowed", allowed.Load(), denied.Load(), goroutines*perG, limit)
		}
	})
}

func TestMemory(t *testing.T) {
	m := NewMemory()
	conformance(t, m, func(s string) string { return t.Name() + ":" + s })
}

// fakeClock drives Memory's time by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time      { return c.t }
func (c *fakeClock) add(d time.Duration) { c.t = c.t.Add(d) }
func newFakeMemory() (*Memory, *fakeClock) {
	c := &fakeClock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	return NewMemoryClock(c.now), c
}

func TestMemoryWindowResets(t *testing.T) {
	m, clock := newFakeMemory()
	ctx := context.Background()
	allow := func() (bool, time.Duration) {
		ok, ra, err := m.Allow(ctx, "k", 2, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		return ok, ra
	}
	allow()
	clock.add(4 * time.Second)
	allow()
	if ok, ra := allow(); ok || ra != 6*time.Second {
		t.Fatalf("third call: ok=%v retryAfter=%v, want denied with 6s left", ok, ra)
	}
	clock.add(6 * time.Second) // the window opened by the first call ends now
	if ok, _ := allow(); !ok {
		t.Fatal("call after the window ended was denied")
	}
}

func TestMemorySweepsEndedWindows(t *testing.T) {
	m, clock := newFakeMemory()
	ctx := context.Background()
	for i := 0; i < 1000; i++ {
		if _, _, err := m.Allow(ctx, fmt.Sprint("short", i), 1, time.Second); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := m.Allow(ctx, "long", 1, time.Hour); err != nil {
		t.Fatal(err)
	}
	if n := m.Len(); n != 1001 {
		t.Fatalf("Len = %d, want 1001", n)
	}
	clock.add(sweepEvery)
	if _, _, err := m.Allow(ctx, "trigger", 1, time.Second); err != nil {
		t.Fatal(err)
	}
	// Only the hour-long window and the call that triggered the sweep remain.
	if n := m.Len(); n != 2 {
		t.Fatalf("after sweep Len = %d, want 2", n)
	}
	if ok, _, _ := m.Allow(ctx, "long", 1, time.Hour); ok {
		t.Fatal("sweep dropped a window that had not ended")
	}
}
