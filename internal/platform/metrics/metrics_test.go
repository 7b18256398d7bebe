package metrics

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/jobs"
)

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != 200 {
		t.Fatalf("scrape: %d", rec.Code)
	}
	return rec.Body.String()
}

func TestPoolsAndRequests(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		m := New(d)
		end := m.Begin(httptest.NewRequest("GET", "/x", nil))
		if out := scrape(t, m); !strings.Contains(out, "prima_http_requests_in_flight 1") {
			t.Fatal("a request in flight is not counted")
		}
		end("GET /api/app/x", 503)
		m.Begin(httptest.NewRequest("GET", "/y", nil))("", 404)
		out := scrape(t, m)
		pools := []string{"main"}
		if d.Engine == db.SQLite {
			pools = []string{"write", "read"}
		}
		want := []string{
			"prima_http_requests_in_flight 0",
			`prima_http_requests_total{code="5xx",route="GET /api/app/x"} 1`,
			`prima_http_requests_total{code="4xx",route="unrouted"} 1`,
			`prima_http_request_duration_seconds_count{code="5xx",route="GET /api/app/x"} 1`,
			"go_goroutines", "process_resident_memory_bytes",
		}
		for _, p := range pools {
			want = append(want, `go_sql_max_open_connections{db_name="`+p+`"}`, `go_sql_wait_count_total{db_name="`+p+`"}`)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("scrape lacks %s", w)
			}
		}
	})
}

// Two apps in one process (as in tests) keep separate registries.
func TestRegistriesAreSeparate(t *testing.T) {
	a, b := New(nil), New(nil)
	a.Begin(httptest.NewRequest("GET", "/", nil))("/", 200)
	if strings.Contains(scrape(t, b), `route="/"`) {
		t.Fatal("one app's requests show in another's registry")
	}
}

func TestJobsCollector(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		m := New(nil)
		q := jobs.New(d, jobs.Config{Workers: 1})
		m.Registry().MustRegister(NewJobsCollector(q, d))
		for range 3 {
			if _, err := jobs.EnqueueNow(context.Background(), d, "metrics.test", nil, jobs.Opts{}); err != nil {
				t.Fatal(err)
			}
		}
		out := scrape(t, m)
		for _, w := range []string{
			`prima_jobs_queued{state="available"} 3`,
			`prima_jobs_queued{state="dead"} 0`,
			`prima_jobs_total{event="claimed"} 0`,
			`prima_jobs_total{event="enqueued"}`,
			"prima_jobs_running 0",
		} {
			if !strings.Contains(out, w) {
				t.Errorf("scrape lacks %s", w)
			}
		}
	})
}
