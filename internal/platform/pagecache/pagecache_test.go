package pagecache

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"prima/internal/platform/httpx"
)

// page is what a fill returns in these tests.
type page struct {
	List []string `json:"list"`
	N    int64    `json:"n"`
}

// source counts its fills and answers the current version.
type source struct {
	fills   atomic.Int64
	version atomic.Int64
}

func (s *source) fill(ctx context.Context) (any, error) {
	s.fills.Add(1)
	return page{List: []string{"a", "b"}, N: s.version.Load()}, nil
}

func serve(t *testing.T, c *Cache, key string, fill Fill, hdr http.Header) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest("GET", "/api/app/x", nil)
	for k, v := range hdr {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	if err := c.Serve(w, r, key, fill); err != nil {
		httpx.WriteError(w, r, err)
	}
	return w
}

// plain is the body httpx.OK writes for data: the cache must answer the
// same bytes.
func plain(t *testing.T, data any) string {
	t.Helper()
	w := httptest.NewRecorder()
	if err := httpx.OK(w, data); err != nil {
		t.Fatal(err)
	}
	return w.Body.String()
}

func body(t *testing.T, w *httptest.ResponseRecorder) string {
	t.Helper()
	if w.Header().Get("Content-Encoding") != "gzip" {
		return w.Body.String()
	}
	zr, err := gzip.NewReader(bytes.NewReader(w.Body.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestServeFillsOnceAndAnswersAsOKDoes(t *testing.T) {
	c := New(Options{})
	var s source
	want := plain(t, page{List: []string{"a", "b"}})

	first := serve(t, c, "k", s.fill, nil)
	if first.Code != 200 || first.Body.String() != want {
		t.Fatalf("first answer %d %q, want %q", first.Code, first.Body.String(), want)
	}
	gz := serve(t, c, "k", s.fill, http.Header{"Accept-Encoding": {"gzip, deflate, br"}})
	if gz.Header().Get("Content-Encoding") != "gzip" || body(t, gz) != want {
		t.Fatalf("gzip answer: encoding %q body %q", gz.Header().Get("Content-Encoding"), body(t, gz))
	}
	refused := serve(t, c, "k", s.fill, http.Header{"Accept-Encoding": {"gzip;q=0, identity"}})
	if refused.Header().Get("Content-Encoding") != "" || refused.Body.String() != want {
		t.Fatalf("gzip refused with q=0 but got encoding %q", refused.Header().Get("Content-Encoding"))
	}
	if n := s.fills.Load(); n != 1 {
		t.Fatalf("%d fills for three requests of one key, want 1", n)
	}
	if cc := first.Header().Get("Cache-Control"); cc != "no-cache" {
		t.Fatalf("Cache-Control %q, want no-cache (the browser revalidates)", cc)
	}
	if ct := first.Header().Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Fatalf("Content-Type %q", ct)
	}
	serve(t, c, "other", s.fill, nil)
	if n := s.fills.Load(); n != 2 {
		t.Fatalf("another key must fill its own entry: %d fills", n)
	}
}

func TestETagAnswers304UntilTheContentChanges(t *testing.T) {
	c := New(Options{})
	var s source
	etag := serve(t, c, "k", s.fill, nil).Header().Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	for _, inm := range []string{etag, `"x", ` + etag, etag[2:], "*"} {
		w := serve(t, c, "k", s.fill, http.Header{"If-None-Match": {inm}})
		if w.Code != http.StatusNotModified || w.Body.Len() != 0 {
			t.Fatalf("If-None-Match %s: %d with %d bytes, want 304 and none", inm, w.Code, w.Body.Len())
		}
	}
	if w := serve(t, c, "k", s.fill, http.Header{"If-None-Match": {`W/"other"`}}); w.Code != 200 {
		t.Fatalf("a different ETag got %d", w.Code)
	}
	s.version.Store(1)
	c.Invalidate(context.Background())
	w := serve(t, c, "k", s.fill, http.Header{"If-None-Match": {etag}})
	if w.Code != 200 || w.Header().Get("ETag") == etag {
		t.Fatalf("after a change: %d with ETag %s (was %s), want 200 and a new one", w.Code, w.Header().Get("ETag"), etag)
	}
	if got := body(t, w); got != plain(t, page{List: []string{"a", "b"}, N: 1}) {
		t.Fatalf("after a change the body is %q", got)
	}
}

func TestErrorsAreAnsweredAndNeverCached(t *testing.T) {
	c := New(Options{})
	var fills int
	fail := func(context.Context) (any, error) {
		fills++
		return nil, httpx.NotFound("栏目不存在", "no such module")
	}
	for range 2 {
		if w := serve(t, c, "k", fail, nil); w.Code != http.StatusNotFound {
			t.Fatalf("error answered %d", w.Code)
		}
	}
	if fills != 2 {
		t.Fatalf("an error was cached: %d fills for 2 requests", fills)
	}
}

func TestInvalidateDropsEveryEntry(t *testing.T) {
	c := New(Options{})
	var s source
	for i := range 5 {
		serve(t, c, fmt.Sprint("k", i), s.fill, nil)
	}
	s.version.Store(7)
	c.Invalidate(context.Background())
	for i := range 5 {
		if got := body(t, serve(t, c, fmt.Sprint("k", i), s.fill, nil)); got != plain(t, page{List: []string{"a", "b"}, N: 7}) {
			t.Fatalf("k%d after Invalidate: %q", i, got)
		}
	}
	if n := s.fills.Load(); n != 10 {
		t.Fatalf("%d fills, want 5 before and 5 after", n)
	}
}

// A fill that read the database before a write and finishes after the
// write's Invalidate must not store its old page.
func TestAFillRacingAnInvalidateIsNotStored(t *testing.T) {
	c := New(Options{})
	var s source
	entered, release := make(chan struct{}), make(chan struct{})
	slow := func(ctx context.Context) (any, error) {
		p, _ := s.fill(ctx) // reads version 0
		close(entered)
		<-release
		return p, nil
	}
	done := make(chan string)
	go func() { done <- body(t, serve(t, c, "k", slow, nil)) }()
	<-entered
	s.version.Store(1)
	c.Invalidate(context.Background())
	close(release)
	if got := <-done; got != plain(t, page{List: []string{"a", "b"}, N: 0}) {
		t.Fatalf("the racing request itself gets what it read: %q", got)
	}
	if got := body(t, serve(t, c, "k", s.fill, nil)); got != plain(t, page{List: []string{"a", "b"}, N: 1}) {
		t.Fatalf("the next request got %q: the old page was stored over the invalidation", got)
	}
}

func TestConcurrentMissesFillOnce(t *testing.T) {
	c := New(Options{})
	var s source
	gate := make(chan struct{})
	slow := func(ctx context.Context) (any, error) {
		<-gate
		return s.fill(ctx)
	}
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if w := serve(t, c, "k", slow, nil); w.Code != 200 {
				t.Errorf("got %d", w.Code)
			}
		}()
	}
	time.Sleep(50 * time.Millisecond) // let them all reach the cache
	close(gate)
	wg.Wait()
	if n := s.fills.Load(); n != 1 {
		t.Fatalf("%d fills for 16 concurrent requests of one key, want 1", n)
	}
}

// aging is a cache with a one-minute TTL on a clock that age moves two
// minutes on, making every entry stale.
func aging() (*Cache, func()) {
	now := time.Unix(1_800_000_000, 0)
	var mu sync.Mutex
	c := New(Options{TTL: time.Minute, Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }})
	return c, func() {
		mu.Lock()
		now = now.Add(2 * time.Minute)
		mu.Unlock()
	}
}

func TestAStaleEntryIsServedWhileOneRefreshReplacesIt(t *testing.T) {
	c, age := aging()
	var s source
	serve(t, c, "k", s.fill, nil)
	s.version.Store(1)
	age()
	for range 5 {
		if got := body(t, serve(t, c, "k", s.fill, nil)); got != plain(t, page{List: []string{"a", "b"}, N: 0}) {
			// Either the old page, or the new one once the refresh landed.
			if got != plain(t, page{List: []string{"a", "b"}, N: 1}) {
				t.Fatalf("stale read got %q", got)
			}
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for body(t, serve(t, c, "k", s.fill, nil)) != plain(t, page{List: []string{"a", "b"}, N: 1}) {
		if time.Now().After(deadline) {
			t.Fatal("the refresh never replaced the stale page")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if n := s.fills.Load(); n != 2 {
		t.Fatalf("%d fills: want the first and exactly one refresh", n)
	}
}

func TestTheBudgetBoundsTheBytesKept(t *testing.T) {
	const budget = 64 << 10
	c := New(Options{Budget: budget})
	big := func(i int) Fill {
		return func(context.Context) (any, error) {
			// Incompressible-ish: distinct numbers.
			list := make([]string, 200)
			for j := range list {
				list[j] = fmt.Sprint(i*1_000_003+j*7919, "-", j*j*i)
			}
			return page{List: list}, nil
		}
	}
	for i := range 400 {
		serve(t, c, fmt.Sprint("k", i), big(i), nil)
		if st := c.Stats(); st.Bytes > budget {
			t.Fatalf("after %d entries the cache holds %d bytes, over its %d budget", i+1, st.Bytes, budget)
		}
	}
	st := c.Stats()
	if st.Evicted == 0 || st.Entries == 0 {
		t.Fatalf("stats %+v: expected evictions and some entries kept", st)
	}
	// An entry read since the last sweep survives the next one rather
	// than an unread one: the hot page stays.
	serve(t, c, "hot", big(9999), nil)
	for i := 400; i < 800; i++ {
		serve(t, c, "hot", big(9999), nil)
		serve(t, c, fmt.Sprint("k", i), big(i), nil)
	}
	fills := 0
	serve(t, c, "hot", func(ctx context.Context) (any, error) { fills++; return big(9999)(ctx) }, nil)
	if fills != 0 {
		t.Fatal("the page read between every sweep was evicted")
	}
}

func TestNilCacheServesUncached(t *testing.T) {
	var c *Cache
	var s source
	for range 2 {
		if got := serve(t, c, "k", s.fill, nil).Body.String(); got != plain(t, page{List: []string{"a", "b"}}) {
			t.Fatalf("nil cache answered %q", got)
		}
	}
	if s.fills.Load() != 2 {
		t.Fatal("a nil cache must fill every time")
	}
	c.Invalidate(context.Background()) // no panic
}

func TestAcceptsGzip(t *testing.T) {
	for h, want := range map[string]bool{
		"": false, "gzip": true, "deflate, gzip;q=1.0": true, "gzip;q=0": false, "br": false, "*": true, "GZIP": true, "x-gzip": false,
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.Header.Set("Accept-Encoding", h)
		if got := acceptsGzip(r); got != want {
			t.Errorf("Accept-Encoding %q: %v, want %v", h, got, want)
		}
	}
}

var errBoom = errors.New("boom")

func TestARefreshThatFailsKeepsTheOldPage(t *testing.T) {
	c, age := aging()
	var s source
	serve(t, c, "k", s.fill, nil)
	age()
	var tries atomic.Int64
	failing := func(context.Context) (any, error) { tries.Add(1); return nil, errBoom }
	if w := serve(t, c, "k", failing, nil); w.Code != 200 {
		t.Fatalf("the stale page must still be served: %d", w.Code)
	}
	deadline := time.Now().Add(5 * time.Second)
	refreshing := func() bool {
		c.mu.RLock()
		defer c.mu.RUnlock()
		return c.entries["k"].refreshing.Load()
	}
	for tries.Load() == 0 || refreshing() {
		if time.Now().After(deadline) {
			t.Fatal("the failed refresh never finished")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if w := serve(t, c, "k", s.fill, nil); w.Code != 200 || body(t, w) != plain(t, page{List: []string{"a", "b"}}) {
		t.Fatalf("after a failed refresh: %d %q", w.Code, body(t, w))
	}
}

// The request that runs a fill may go away; the fill still finishes and a
// request waiting for it gets the page, not the first one's cancellation.
func TestAWaiterDoesNotInheritTheFillersCancellation(t *testing.T) {
	c := New(Options{})
	var s source
	started, release := make(chan struct{}), make(chan struct{})
	slow := func(ctx context.Context) (any, error) {
		close(started)
		<-release
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return s.fill(ctx)
	}
	ctx, cancel := context.WithCancel(context.Background())
	first := make(chan error)
	go func() {
		r := httptest.NewRequest("GET", "/x", nil).WithContext(ctx)
		first <- c.Serve(httptest.NewRecorder(), r, "k", slow)
	}()
	<-started
	second := make(chan *httptest.ResponseRecorder)
	go func() { second <- serve(t, c, "k", s.fill, nil) }()
	time.Sleep(20 * time.Millisecond) // the second request waits on the fill
	cancel()
	close(release)
	<-first
	if w := <-second; w.Code != 200 || body(t, w) != plain(t, page{List: []string{"a", "b"}}) {
		t.Fatalf("the waiting request got %d %q", w.Code, w.Body.String())
	}
}
