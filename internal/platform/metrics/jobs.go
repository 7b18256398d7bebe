package metrics

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"prima/internal/platform/db"
	"prima/internal/platform/jobs"
)

// jobsCollector reports a job queue's counters and, from the database, the
// backlog by state. The backlog is the same on every process; the counters
// are this process's.
type jobsCollector struct {
	q                      *jobs.Queue
	d                      *db.DB
	events, running, depth *prometheus.Desc
}

// NewJobsCollector collects q's counters (prima_jobs_total by event,
// prima_jobs_running) and the rows of d's jobs table by state
// (prima_jobs_queued). Register it with Registry().
func NewJobsCollector(q *jobs.Queue, d *db.DB) prometheus.Collector {
	return &jobsCollector{
		q: q,
		d: d,
		events: prometheus.NewDesc("prima_jobs_total",
			"Job events in this process: enqueued, claimed, succeeded, retried, dead, rescued (expired leases returned), released (at a shutdown that timed out), lease_lost.",
			[]string{"event"}, nil),
		running: prometheus.NewDesc("prima_jobs_running", "Job handlers running in this process now.", nil, nil),
		depth: prometheus.NewDesc("prima_jobs_queued",
			"Rows of the jobs table by state (succeeded ones are not counted): the backlog shared by every process.",
			[]string{"state"}, nil),
	}
}

func (c *jobsCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.events
	ch <- c.running
	ch <- c.depth
}

func (c *jobsCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.q.Stats()
	for event, v := range map[string]uint64{
		"enqueued": s.Enqueued, "claimed": s.Claimed, "succeeded": s.Succeeded, "retried": s.Retried,
		"dead": s.Dead, "rescued": s.Rescued, "released": s.Released, "lease_lost": s.LeaseLost,
	} {
		ch <- prometheus.MustNewConstMetric(c.events, prometheus.CounterValue, float64(v), event)
	}
	ch <- prometheus.MustNewConstMetric(c.running, prometheus.GaugeValue, float64(s.Running))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	depth, err := jobs.Depth(ctx, c.d)
	if err != nil {
		// A scrape with the counters and without the backlog is more use
		// than a failed scrape; the missing series shows the gap.
		return
	}
	for state, n := range depth {
		ch <- prometheus.MustNewConstMetric(c.depth, prometheus.GaugeValue, float64(n), string(state))
	}
}
