package load

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

func server(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(`{"code":200}`)) })
	mux.HandleFunc("/empty", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(`{"code":500}`)) })
	mux.HandleFunc("/bad", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "boom", http.StatusInternalServerError) })
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond)
		_, _ = w.Write([]byte(`{"code":200}`))
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

func TestRunCountsErrorsAndStops(t *testing.T) {
	s := server(t)
	start := time.Now()
	r := Run(context.Background(), NewClient(4), s.URL, []string{"/ok", "/ok", "/bad", "/empty"}, Options{
		Concurrency: 4, Duration: 300 * time.Millisecond,
		Check: func(b []byte) error {
			if !bytes.HasPrefix(b, []byte(`{"code":200`)) {
				return errors.New("not a success envelope")
			}
			return nil
		},
	})
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("a 300ms run took %s", took)
	}
	if r.Requests == 0 || r.Errors == 0 {
		t.Fatalf("requests %d errors %d: want both", r.Requests, r.Errors)
	}
	// Half the paths fail (a 500 and a failed check).
	if share := float64(r.Errors) / float64(r.Requests+r.Errors); share < 0.4 || share > 0.6 {
		t.Fatalf("error share %.2f, want about 0.5", share)
	}
	if !strings.Contains(r.FirstError, "/bad") && !strings.Contains(r.FirstError, "/empty") {
		t.Fatalf("first error %q names neither failing path", r.FirstError)
	}
	if !(r.P50 > 0 && r.P50 <= r.P99 && r.P99 <= r.Max) {
		t.Fatalf("p50 %s p99 %s max %s out of order", r.P50, r.P99, r.Max)
	}
	if r.RPS() <= 0 {
		t.Fatalf("rps %f", r.RPS())
	}
}

func TestRunStopsAtMaxRequests(t *testing.T) {
	s := server(t)
	start := time.Now()
	r := Run(context.Background(), NewClient(3), s.URL, []string{"/ok"}, Options{Concurrency: 3, Duration: time.Minute, MaxRequests: 50})
	if r.Requests+r.Errors != 50 {
		t.Fatalf("sent %d requests, want exactly 50", r.Requests+r.Errors)
	}
	if time.Since(start) > 10*time.Second {
		t.Fatal("the request limit did not end the run")
	}
}

func TestRunMeasuresLatency(t *testing.T) {
	s := server(t)
	r := Run(context.Background(), NewClient(2), s.URL, []string{"/slow"}, Options{Concurrency: 2, Duration: 250 * time.Millisecond})
	if r.P50 < 20*time.Millisecond {
		t.Fatalf("p50 %s of a 20ms handler", r.P50)
	}
	// Two workers on a 20ms handler: at most about 100 requests a second.
	if r.RPS() > 110 {
		t.Fatalf("%.0f req/s from a closed loop of 2 on a 20ms handler", r.RPS())
	}
}

func TestPercentile(t *testing.T) {
	ms := func(ns ...int) []time.Duration {
		out := make([]time.Duration, len(ns))
		for i, n := range ns {
			out[i] = time.Duration(n) * time.Millisecond
		}
		return out
	}
	hundred := make([]int, 100)
	for i := range hundred {
		hundred[i] = i + 1
	}
	for _, c := range []struct {
		in   []time.Duration
		p    float64
		want time.Duration
	}{
		{nil, 50, 0},
		{ms(7), 99, 7 * time.Millisecond},
		{ms(1, 2, 3, 4), 50, 2 * time.Millisecond},
		{ms(1, 2, 3, 4), 51, 3 * time.Millisecond},
		{ms(hundred...), 99, 99 * time.Millisecond},
		{ms(hundred...), 100, 100 * time.Millisecond},
		{ms(hundred...), 0, 1 * time.Millisecond},
	} {
		if got := Percentile(c.in, c.p); got != c.want {
			t.Errorf("Percentile(%v, %v) = %v, want %v", c.in, c.p, got, c.want)
		}
	}
}

func TestRunSplitsByClass(t *testing.T) {
	s := server(t)
	r := Run(context.Background(), NewClient(4), s.URL, []string{"/ok", "/slow", "/ok", "/ok"}, Options{
		Concurrency: 4, Duration: 300 * time.Millisecond, Classes: []string{"fast", "slow", "fast", "fast"},
	})
	if len(r.ByClass) != 2 || r.ByClass[0].Name != "fast" || r.ByClass[1].Name != "slow" {
		t.Fatalf("classes %+v, want fast then slow", r.ByClass)
	}
	fast, slow := r.ByClass[0], r.ByClass[1]
	if fast.Requests+slow.Requests != r.Requests || slow.Requests == 0 {
		t.Fatalf("class counts %d+%d, total %d", fast.Requests, slow.Requests, r.Requests)
	}
	if slow.P50 < 20*time.Millisecond || fast.P50 >= 20*time.Millisecond {
		t.Fatalf("fast p50 %s, slow p50 %s", fast.P50, slow.P50)
	}
	if bad := Run(context.Background(), NewClient(1), s.URL, []string{"/ok"}, Options{Concurrency: 1, Duration: time.Second, Classes: []string{"a", "b"}}); bad.Requests != 0 || bad.FirstError == "" {
		t.Fatalf("mismatched classes ran: %+v", bad)
	}
}

func TestPassSendsEveryPathOnce(t *testing.T) {
	var mu sync.Mutex
	seen := map[string]int{}
	mux := http.NewServeMux()
	mux.HandleFunc("/p/", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Path]++
		mu.Unlock()
		_, _ = w.Write([]byte(`{"code":200}`))
	})
	s := httptest.NewServer(mux)
	defer s.Close()
	var paths []string
	for i := range 101 {
		paths = append(paths, fmt.Sprintf("/p/%d", i))
	}
	r := Run(context.Background(), NewClient(7), s.URL, paths, Options{Concurrency: 7, Duration: time.Minute, Pass: true})
	if r.Requests != 101 || len(seen) != 101 {
		t.Fatalf("%d requests over %d distinct paths, want 101 and 101", r.Requests, len(seen))
	}
	for p, n := range seen {
		if n != 1 {
			t.Fatalf("%s requested %d times", p, n)
		}
	}
}
