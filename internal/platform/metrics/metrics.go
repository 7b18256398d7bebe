// Package metrics exposes Prima's Prometheus metrics: HTTP requests by
// route pattern and status class, requests in flight, the database pools,
// and the Go runtime and process collectors.
//
// Each App has its own registry (not the global default), so tests can
// build several apps in one process. The handler is served on its own
// listener (PRIMA_METRICS_LISTEN), never on the public one.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"prima/internal/platform/db"
)

// Metrics is one process's registry and the HTTP instruments in it.
type Metrics struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	inFlight prometheus.Gauge
}

// New registers the runtime, process and HTTP collectors, and the pool
// statistics of d when d is not nil.
func New(d *db.DB) *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "prima_http_requests_total",
			Help: "HTTP requests answered, by route pattern and status class.",
		}, []string{"route", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "prima_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route pattern and status class.",
			Buckets: prometheus.DefBuckets,
		}, []string{"route", "code"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "prima_http_requests_in_flight",
			Help: "HTTP requests being answered now.",
		}),
	}
	m.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.requests, m.latency, m.inFlight,
	)
	if d != nil {
		m.reg.MustRegister(newPoolCollector(d))
	}
	return m
}

// Registry is where other seams register their own collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// unrouted labels requests no route served (unknown non-API paths before
// the web app, requests refused before routing).
const unrouted = "unrouted"

// Begin is the hook for httpx.Observe: it counts the request in flight and,
// when it ends, by route pattern (never the raw path, so clients cannot
// make new series) and status class.
func (m *Metrics) Begin(r *http.Request) func(route string, status int) {
	start := time.Now()
	m.inFlight.Inc()
	return func(route string, status int) {
		m.inFlight.Dec()
		if route == "" {
			route = unrouted
		}
		class := strconv.Itoa(status/100) + "xx"
		m.requests.WithLabelValues(route, class).Inc()
		m.latency.WithLabelValues(route, class).Observe(time.Since(start).Seconds())
	}
}

// poolCollector reports sql.DBStats of each pool of a db.DB, under the
// names collectors.NewDBStatsCollector uses, labelled by pool.
type poolCollector struct {
	d                                                         *db.DB
	maxOpen, open, inUse, idle                                *prometheus.Desc
	waitCount, waitDuration, maxIdleClosed, maxIdleTimeClosed *prometheus.Desc
	maxLifetimeClosed                                         *prometheus.Desc
}

func newPoolCollector(d *db.DB) *poolCollector {
	desc := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc("go_sql_"+name, help, []string{"db_name"}, nil)
	}
	return &poolCollector{
		d:                 d,
		maxOpen:           desc("max_open_connections", "Maximum number of open connections to the database."),
		open:              desc("open_connections", "The number of established connections both in use and idle."),
		inUse:             desc("in_use_connections", "The number of connections currently in use."),
		idle:              desc("idle_connections", "The number of idle connections."),
		waitCount:         desc("wait_count_total", "The total number of connections waited for."),
		waitDuration:      desc("wait_duration_seconds_total", "The total time blocked waiting for a new connection."),
		maxIdleClosed:     desc("max_idle_closed_total", "The total number of connections closed due to SetMaxIdleConns."),
		maxIdleTimeClosed: desc("max_idle_time_closed_total", "The total number of connections closed due to SetConnMaxIdleTime."),
		maxLifetimeClosed: desc("max_lifetime_closed_total", "The total number of connections closed due to SetConnMaxLifetime."),
	}
}

func (c *poolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.maxOpen, c.open, c.inUse, c.idle, c.waitCount, c.waitDuration, c.maxIdleClosed, c.maxIdleTimeClosed, c.maxLifetimeClosed} {
		ch <- d
	}
}

func (c *poolCollector) Collect(ch chan<- prometheus.Metric) {
	for _, p := range c.d.Stats() {
		g := func(d *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, p.Name)
		}
		n := func(d *prometheus.Desc, v float64) {
			ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, p.Name)
		}
		g(c.maxOpen, float64(p.MaxOpenConnections))
		g(c.open, float64(p.OpenConnections))
		g(c.inUse, float64(p.InUse))
		g(c.idle, float64(p.Idle))
		n(c.waitCount, float64(p.WaitCount))
		n(c.waitDuration, p.WaitDuration.Seconds())
		n(c.maxIdleClosed, float64(p.MaxIdleClosed))
		n(c.maxIdleTimeClosed, float64(p.MaxIdleTimeClosed))
		n(c.maxLifetimeClosed, float64(p.MaxLifetimeClosed))
	}
}
