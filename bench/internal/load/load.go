// Package load is a closed-loop HTTP load generator: a fixed number of
// workers each send a request, read the whole answer, and send the next, for
// a fixed time or a fixed number of requests, whichever ends first.
//
// Closed loop means throughput and latency are measured together: a slower
// server gets fewer requests instead of a growing queue, so the numbers say
// what one server sustains with that many clients in flight.
package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Options bound a run.
type Options struct {
	Concurrency int           // workers, each with one request in flight
	Duration    time.Duration // wall-clock limit
	MaxRequests int64         // request limit; 0 means no limit but Duration
	// Check judges a response that came back with status 200; a non-nil
	// error counts it as an error. Nil accepts every 200.
	Check func(body []byte) error
	// Classes, when set, names a class for each path (same length as the
	// paths), and the result gets latencies per class as well.
	Classes []string
	// Pass sends every path exactly once (each worker its own share) and
	// ends, within the other limits.
	Pass bool
}

// Result is what a run measured. Latencies are of successful requests only;
// a fast error must not make the server look quick.
type Result struct {
	Requests   int64         // successful responses
	Errors     int64         // transport errors, non-200 statuses, failed checks
	Elapsed    time.Duration // from the first request to the last answer
	P50, P99   time.Duration
	Max        time.Duration
	FirstError string  // one example, to tell the operator what went wrong
	ByClass    []Class // per Options.Classes, in order of first appearance
}

// Class is the share of a run that went to one class of paths.
type Class struct {
	Name     string
	Requests int64
	P50, P99 time.Duration
}

// RPS is successful requests per second.
func (r Result) RPS() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// NewClient is an HTTP client for a load run against one host: enough kept-
// alive connections for every worker, and no transparent gzip, so every
// target is measured encoding plain JSON (the bare baseline does not
// compress; a run that compressed only one side would not compare).
func NewClient(concurrency int) *http.Client {
	return &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        concurrency,
			MaxIdleConnsPerHost: concurrency,
			MaxConnsPerHost:     concurrency,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true,
		},
	}
}

// Run sends GET base+path for paths in turn until the options' limits are
// reached or ctx ends. Worker i starts at a different place in paths so the
// mix is spread across workers from the first second.
func Run(ctx context.Context, c *http.Client, base string, paths []string, o Options) Result {
	if o.Concurrency < 1 || len(paths) == 0 {
		return Result{FirstError: "no workers or no paths"}
	}
	if o.Classes != nil && len(o.Classes) != len(paths) {
		return Result{FirstError: "classes and paths differ in length"}
	}
	// Class ids per path, so workers record with an index, not a map.
	var names []string
	classOf := make([]int, len(paths))
	ids := map[string]int{}
	for i, c := range o.Classes {
		id, ok := ids[c]
		if !ok {
			id = len(names)
			ids[c] = id
			names = append(names, c)
		}
		classOf[i] = id
	}
	nClass := max(1, len(names))
	ctx, cancel := context.WithTimeout(ctx, o.Duration)
	defer cancel()

	var (
		issued   atomic.Int64
		errs     atomic.Int64
		firstErr sync.Once
		errText  string
		wg       sync.WaitGroup
	)
	perWorker := make([][][]time.Duration, o.Concurrency) // worker, class, latencies
	start := time.Now()
	for w := range o.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf bytes.Buffer
			lat := make([][]time.Duration, nClass)
			next := w * len(paths) / o.Concurrency
			end := (w + 1) * len(paths) / o.Concurrency
			for ctx.Err() == nil && (!o.Pass || next < end) {
				if o.MaxRequests > 0 && issued.Add(1) > o.MaxRequests {
					break
				}
				i := next % len(paths)
				p := paths[i]
				next++
				t0 := time.Now()
				err := get(ctx, c, base+p, &buf, o.Check)
				d := time.Since(t0)
				if err != nil {
					if ctx.Err() != nil {
						break // cut off by the deadline, not the server's fault
					}
					errs.Add(1)
					firstErr.Do(func() { errText = fmt.Sprintf("GET %s: %v", p, err) })
					continue
				}
				lat[classOf[i]] = append(lat[classOf[i]], d)
			}
			perWorker[w] = lat
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)

	var all []time.Duration
	byClass := make([][]time.Duration, nClass)
	for _, w := range perWorker {
		for c, l := range w {
			all = append(all, l...)
			byClass[c] = append(byClass[c], l...)
		}
	}
	slices.Sort(all)
	r := Result{
		Requests:   int64(len(all)),
		Errors:     errs.Load(),
		Elapsed:    elapsed,
		P50:        Percentile(all, 50),
		P99:        Percentile(all, 99),
		FirstError: errText,
	}
	if len(all) > 0 {
		r.Max = all[len(all)-1]
	}
	for c, name := range names {
		l := byClass[c]
		slices.Sort(l)
		r.ByClass = append(r.ByClass, Class{Name: name, Requests: int64(len(l)), P50: Percentile(l, 50), P99: Percentile(l, 99)})
	}
	return r
}

var errStatus = errors.New("status")

func get(ctx context.Context, c *http.Client, url string, buf *bytes.Buffer, check func([]byte) error) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("X-App-Client", "devID=benchBENCHbench11732165200000;ver=1.1.3;dev=ios;h5=1")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	buf.Reset()
	if _, err := io.Copy(buf, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%w %d: %.200s", errStatus, resp.StatusCode, buf.Bytes())
	}
	if check != nil {
		return check(buf.Bytes())
	}
	return nil
}

// Percentile is the nearest-rank p-th percentile of sorted (ascending); zero
// for an empty slice.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	// Nearest rank: the smallest value with at least p% of values at or below it.
	rank := int(math.Ceil(float64(len(sorted)) * p / 100))
	rank = min(max(rank, 1), len(sorted))
	return sorted[rank-1]
}
