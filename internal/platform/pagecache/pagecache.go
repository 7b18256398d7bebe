// Package pagecache keeps encoded answers of public API calls in memory:
// the catalogue pages every visitor gets alike, which change only when an
// operator (or an uploader's publish) writes.
//
// An entry is the gzipped success envelope with its ETag. It leaves the
// cache three ways:
//
//   - Invalidate, called after every write that changes what the cached
//     calls answer (and, through Cluster, on every other node before the
//     writer's request returns): the entry is gone, never served again;
//   - its age passing the TTL: counters in the pages (plays, likes) and
//     time windows (announcements, ads, "new this week") move without a
//     write anyone invalidates for, so an entry is refreshed after TTL.
//     The first request after that still gets the old entry while one
//     background fill replaces it, so a hot page never stalls all its
//     readers at once;
//   - the byte budget: past it, entries not read since the last sweep go
//     first.
//
// What a fill returns must not depend on who asks: callers key an entry
// by everything the answer depends on, and personal fields never enter.
package pagecache

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"hash/fnv"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"prima/internal/platform/httpx"
)

// Defaults for New.
const (
	DefaultBudget = 32 << 20 // bytes of gzipped bodies
	DefaultTTL    = 30 * time.Second
	// fillTimeout bounds a fill, which no request's cancellation ends
	// (others may be waiting for it).
	fillTimeout = 10 * time.Second
)

// Fill computes an entry's data, the `data` of a success envelope. An error
// is answered as the handler's error and nothing is cached.
type Fill func(ctx context.Context) (any, error)

// Cache is one process's cache of encoded pages. The zero value is not
// usable; a nil *Cache serves every request by its fill, uncached.
type Cache struct {
	budget int64
	ttl    time.Duration
	now    func() time.Time
	// onInvalidate runs after every Invalidate (Cluster publishes there).
	onInvalidate atomic.Pointer[func(ctx context.Context)]

	mu      sync.RWMutex
	entries map[string]*entry
	bytes   int64
	// gen moves on every Invalidate: a fill that began under an older
	// generation may have read the database before the write, so it is
	// answered but not stored.
	gen uint64
	// filling holds the keys being filled: later readers of the same key
	// wait for that fill instead of running their own.
	filling map[string]*flight

	hits, misses, stale, drops atomic.Uint64
}

type entry struct {
	gz      []byte // the gzipped body
	size    int    // the body's length before gzip
	etag    string
	expires time.Time
	used    atomic.Bool // read since the last budget sweep
	// refreshing is set while one background fill replaces the entry.
	refreshing atomic.Bool
}

type flight struct {
	done chan struct{}
	e    *entry
	err  error
}

// Options configure New; zero fields take the defaults.
type Options struct {
	Budget int64         // bytes of gzipped bodies kept; DefaultBudget
	TTL    time.Duration // how long an entry is fresh; DefaultTTL
	Now    func() time.Time
}

// New returns an empty cache.
func New(o Options) *Cache {
	c := &Cache{budget: o.Budget, ttl: o.TTL, now: o.Now, entries: map[string]*entry{}, filling: map[string]*flight{}}
	if c.budget <= 0 {
		c.budget = DefaultBudget
	}
	if c.ttl <= 0 {
		c.ttl = DefaultTTL
	}
	if c.now == nil {
		c.now = time.Now
	}
	return c
}

// Serve answers r with key's entry, filling it on a miss. A request whose
// If-None-Match names the entry's ETag gets 304 and no body; one that
// accepts gzip gets the stored bytes as they are.
func (c *Cache) Serve(w http.ResponseWriter, r *http.Request, key string, fill Fill) error {
	if c == nil {
		data, err := fill(r.Context())
		if err != nil {
			return err
		}
		return httpx.OK(w, data)
	}
	e, err := c.get(r.Context(), key, fill)
	if err != nil {
		return err
	}
	return write(w, r, e)
}

// get is key's entry: fresh from the map, stale while one background fill
// replaces it, or filled now (one fill per key at a time).
func (c *Cache) get(ctx context.Context, key string, fill Fill) (*entry, error) {
	c.mu.RLock()
	e := c.entries[key]
	gen := c.gen
	c.mu.RUnlock()
	if e != nil {
		e.used.Store(true)
		if c.now().Before(e.expires) {
			c.hits.Add(1)
			return e, nil
		}
		c.stale.Add(1)
		if e.refreshing.CompareAndSwap(false, true) {
			go c.refresh(context.WithoutCancel(ctx), key, gen, fill)
		}
		return e, nil
	}
	c.misses.Add(1)

	c.mu.Lock()
	if f := c.filling[key]; f != nil {
		c.mu.Unlock()
		select {
		case <-f.done:
			return f.e, f.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	f := &flight{done: make(chan struct{})}
	c.filling[key] = f
	gen = c.gen
	c.mu.Unlock()

	// The fill outlives a client that goes away: others may be waiting
	// for it, and their answers must not fail with its cancellation.
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), fillTimeout)
	f.e, f.err = c.fill(fctx, key, gen, fill)
	cancel()
	c.mu.Lock()
	delete(c.filling, key)
	c.mu.Unlock()
	close(f.done)
	return f.e, f.err
}

// refresh replaces a stale entry in the background.
func (c *Cache) refresh(ctx context.Context, key string, gen uint64, fill Fill) {
	ctx, cancel := context.WithTimeout(ctx, fillTimeout)
	defer cancel()
	if _, err := c.fill(ctx, key, gen, fill); err != nil {
		slog.WarnContext(ctx, "page cache: refresh failed, serving the old page until the next try", "key", key, "err", err)
		c.mu.RLock()
		if e := c.entries[key]; e != nil {
			e.refreshing.Store(false)
		}
		c.mu.RUnlock()
	}
}

// fill computes and encodes key's entry and stores it unless an
// Invalidate came in between.
func (c *Cache) fill(ctx context.Context, key string, gen uint64, fill Fill) (*entry, error) {
	data, err := fill(ctx)
	if err != nil {
		return nil, err
	}
	e, err := encode(data)
	if err != nil {
		return nil, err
	}
	e.expires = c.now().Add(c.ttl)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return e, nil
	}
	if old := c.entries[key]; old != nil {
		c.bytes -= int64(len(old.gz))
	}
	c.entries[key] = e
	c.bytes += int64(len(e.gz))
	if c.bytes > c.budget {
		c.sweep()
	}
	return e, nil
}

// sweep makes room, under c.mu: entries not read since the last sweep go
// first (map order is random, so which of them is arbitrary), then, if
// that is not enough, any, down to 90 % of the budget.
func (c *Cache) sweep() {
	goal := c.budget / 10 * 9
	for pass := 0; pass < 2 && c.bytes > goal; pass++ {
		for k, e := range c.entries {
			if c.bytes <= goal {
				break
			}
			if pass == 0 && e.used.Swap(false) {
				continue
			}
			delete(c.entries, k)
			c.bytes -= int64(len(e.gz))
			c.drops.Add(1)
		}
	}
}

// Invalidate drops every entry, on this node at once and, through the
// hook Cluster sets, on the others. Writers call it after their commit.
func (c *Cache) Invalidate(ctx context.Context) {
	if c == nil {
		return
	}
	c.drop()
	if f := c.onInvalidate.Load(); f != nil {
		(*f)(ctx)
	}
}

// drop forgets every entry and moves the generation on.
func (c *Cache) drop() {
	c.mu.Lock()
	c.gen++
	clear(c.entries)
	c.bytes = 0
	c.mu.Unlock()
}

// Stats are a cache's counters since start.
type Stats struct {
	Hits, Misses, Stale, Evicted uint64
	Entries                      int
	Bytes                        int64
}

// Stats reads the counters.
func (c *Cache) Stats() Stats {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return Stats{Hits: c.hits.Load(), Misses: c.misses.Load(), Stale: c.stale.Load(), Evicted: c.drops.Load(), Entries: len(c.entries), Bytes: c.bytes}
}

// encode makes the success envelope httpx.OK writes, gzipped, with its
// ETag (a hash of the plain body, weak because the same ETag names the
// plain and the gzipped form).
func encode(data any) (*entry, error) {
	var plain bytes.Buffer
	if err := json.NewEncoder(&plain).Encode(httpx.Success(data)); err != nil {
		return nil, err
	}
	h := fnv.New64a()
	_, _ = h.Write(plain.Bytes())
	var gz bytes.Buffer
	zw := gzipWriters.Get().(*gzip.Writer)
	zw.Reset(&gz)
	_, _ = zw.Write(plain.Bytes())
	if err := zw.Close(); err != nil {
		return nil, err
	}
	gzipWriters.Put(zw)
	return &entry{gz: bytes.Clone(gz.Bytes()), size: plain.Len(), etag: `W/"` + strconv.FormatUint(h.Sum64(), 36) + `"`}, nil
}

var (
	gzipWriters = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression); return w }}
	gzipReaders sync.Pool
	plainBufs   = sync.Pool{New: func() any { return new(bytes.Buffer) }}
)

// write answers with e: 304 when the client has it, the stored gzip when
// the client takes gzip, else the plain body.
func write(w http.ResponseWriter, r *http.Request, e *entry) error {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	// The browser (or a CDN) may keep the page but asks each time: the
	// answer is a 304 until an operator's change makes a new ETag.
	h.Set("Cache-Control", "no-cache")
	h.Set("ETag", e.etag)
	if matches(r.Header.Get("If-None-Match"), e.etag) {
		w.WriteHeader(http.StatusNotModified)
		return nil
	}
	if acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		h.Set("Content-Length", strconv.Itoa(len(e.gz)))
		_, _ = w.Write(e.gz)
		return nil
	}
	buf := plainBufs.Get().(*bytes.Buffer)
	defer plainBufs.Put(buf)
	buf.Reset()
	buf.Grow(e.size)
	if err := gunzip(buf, e.gz); err != nil {
		return err
	}
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	_, _ = w.Write(buf.Bytes())
	return nil
}

func gunzip(dst *bytes.Buffer, gz []byte) error {
	zr, _ := gzipReaders.Get().(*gzip.Reader)
	var err error
	if zr == nil {
		zr, err = gzip.NewReader(bytes.NewReader(gz))
	} else {
		err = zr.Reset(bytes.NewReader(gz))
	}
	if err != nil {
		return err
	}
	defer gzipReaders.Put(zr)
	_, err = io.Copy(dst, zr)
	return err
}

// acceptsGzip: gzip is among the request's Accept-Encoding codings and not
// refused with q=0.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") || strings.TrimSpace(name) == "*" {
			q := strings.ReplaceAll(strings.TrimSpace(params), " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}

// matches says whether an If-None-Match header names etag (weak
// comparison, as RFC 9110 has for If-None-Match).
func matches(header, etag string) bool {
	if header == "" {
		return false
	}
	if strings.TrimSpace(header) == "*" {
		return true
	}
	want := strings.TrimPrefix(etag, "W/")
	for _, t := range strings.Split(header, ",") {
		if strings.TrimPrefix(strings.TrimSpace(t), "W/") == want {
			return true
		}
	}
	return false
}
