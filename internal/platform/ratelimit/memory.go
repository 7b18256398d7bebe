package ratelimit

import (
	"context"
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
	if !now.Before(m.nextSweep) {
		m.sweep(now)
	}
	w, ok := m.windows[key]
	if !ok || !now.Before(w.ends) {
		w = window{ends: now.Add(win)}
	}
	// Stop counting one past the limit: the answer no longer changes and
	// the counter cannot overflow under a flood.
	if w.count <= limit {
		w.count++
	}
	m.windows[key] = w
	if w.count > limit {
		return false, w.ends.Sub(now), nil
	}
	return true, 0, nil
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
