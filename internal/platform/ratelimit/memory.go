package ratelimit

import (
	"context"
	"math"
	"sync"
	"time"
)

// sweepEvery is how often Memory drops windows that have ended. Memory use
// is therefore bounded by the keys seen within the longest window plus this
// interval, however many distinct keys arrive over time.
const sweepEvery = time.Minute

// Memory is an in-process Limiter. Counters live in this process only, so
// behind a load balancer each node would allow its own limit: use Redis there.
type Memory struct {
	mu        sync.Mutex
	windows   map[string]window
	nextSweep time.Time
	now       func() time.Time // replaced by tests
}

type window struct {
	count int
	ends  time.Time
}

// NewMemory returns an empty in-process limiter.
func NewMemory() *Memory { return NewMemoryClock(time.Now) }

// NewMemoryClock is NewMemory with windows measured by now, so tests of a
// caller can move time forward instead of sleeping.
func NewMemoryClock(now func() time.Time) *Memory {
	return &Memory{windows: make(map[string]window), now: now}
}

// Allow implements Limiter.
func (m *Memory) Allow(_ context.Context, key string, limit int, win time.Duration) (bool, time.Duration, error) {
	if err := checkArgs(limit, win); err != nil {
		return false, 0, err
	}
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	// Stop counting one past the limit: the answer no longer changes and
	// the counter cannot overflow under a flood.
	w := m.bump(key, now, win, limit+1)
	if w.count > limit {
		return false, w.ends.Sub(now), nil
	}
	return true, 0, nil
}

// bump counts one call under key, opening a new window of length win when
// none is running, and stops counting at ceiling. It runs under m.mu.
func (m *Memory) bump(key string, now time.Time, win time.Duration, ceiling int) window {
	if !now.Before(m.nextSweep) {
		m.sweep(now)
	}
	w, ok := m.windows[key]
	if !ok || !now.Before(w.ends) {
		w = window{ends: now.Add(win)}
	}
	if w.count < ceiling {
		w.count++
	}
	m.windows[key] = w
	return w
}

// sweep drops every window that has ended. It runs under m.mu at most once
// per sweepEvery, so its O(keys) cost is spread over many calls.
func (m *Memory) sweep(now time.Time) {
	for k, w := range m.windows {
		if !now.Before(w.ends) {
			delete(m.windows, k)
		}
	}
	m.nextSweep = now.Add(sweepEvery)
}

// Len is the number of keys held, for tests and metrics.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.windows)
}

// Incr implements Counter.
func (m *Memory) Incr(_ context.Context, key string, win time.Duration) (int64, error) {
	if win < time.Millisecond {
		return 0, ErrBadLimit
	}
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	w := m.bump(key, now, win, math.MaxInt)
	return int64(w.count), nil
}

// Peek implements Counter.
func (m *Memory) Peek(_ context.Context, keys ...string) ([]Count, error) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Count, len(keys))
	for i, k := range keys {
		if w, ok := m.windows[k]; ok && now.Before(w.ends) {
			out[i] = Count{N: int64(w.count), TTL: w.ends.Sub(now)}
		}
	}
	return out, nil
}

// Set implements Counter.
func (m *Memory) Set(_ context.Context, key string, n int64, ttl time.Duration) error {
	if ttl < time.Millisecond {
		return ErrBadLimit
	}
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.windows[key] = window{count: int(n), ends: now.Add(ttl)}
	return nil
}

// Delete implements Counter.
func (m *Memory) Delete(_ context.Context, keys ...string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range keys {
		delete(m.windows, k)
	}
	return nil
}
