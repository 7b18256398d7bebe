// Command jobqueue measures Prima's job queue (internal/platform/jobs)
// against River (github.com/riverqueue/river with its pgx v5 driver) on the
// local PostgreSQL, and Prima's queue alone on SQLite, where River v0.51 has
// no driver.
//
// It is a separate module so that River and its dependencies never enter
// Prima's go.mod. Run it from this directory: `go run . -rounds 3`.
//
// Three figures per queue, each the best of -rounds interleaved rounds:
//
//   - enqueue: a business transaction (insert one order row) with one job
//     enqueued inside it, committed; the same transaction without the job
//     is the baseline, so the difference is what a job costs the request
//     that enqueues it.
//   - pickup: from that commit to the handler starting, on an idle queue,
//     one job at a time. Prima wakes its own workers after the commit;
//     River hears of the insert through PostgreSQL LISTEN/NOTIFY.
//   - throughput: -jobs jobs already queued, handlers that do nothing,
//     -workers jobs at once; jobs per second until all have run.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"prima/internal/migrations"
	"prima/internal/platform/db"
	"prima/internal/platform/jobs"
)

var (
	pgURL         = flag.String("pg", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "PostgreSQL server to create the bench databases on")
	nEnqueue      = flag.Int("enqueue", 2000, "transactions measured for the enqueue latency")
	nPickup       = flag.Int("pickup", 200, "jobs measured for the pickup latency")
	nJobs         = flag.Int("jobs", 20000, "jobs run for the throughput")
	workerSet     = flag.String("workers", "2,32", "concurrency levels for the throughput")
	rounds        = flag.Int("rounds", 3, "interleaved rounds; each figure is the best round")
	nRiverDefault = flag.Int("river-default-jobs", 1000, "jobs run for the throughput of River with its defaults (it runs at most 10 per worker per second)")
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

type result struct {
	name                             string
	baseP50, baseP99, jobP50, jobP99 time.Duration
	pickP50, pickP99                 time.Duration
	throughput                       map[int]float64
}

func main() {
	flag.Parse()
	ctx := context.Background()
	var levels []int
	for _, s := range strings.Split(*workerSet, ",") {
		var n int
		if _, err := fmt.Sscan(s, &n); err != nil || n <= 0 {
			fail(fmt.Errorf("-workers: %q", s))
		}
		levels = append(levels, n)
	}

	targets := []func(context.Context, []int) (result, error){runPrimaPG, runRiverTuned, runRiver, runPrimaSQLite}
	best := map[string]*result{}
	var order []string
	for r := 1; r <= *rounds; r++ {
		for _, run := range targets {
			res, err := run(ctx, levels)
			if err != nil {
				fail(err)
			}
			fmt.Fprintf(os.Stderr, "round %d %-22s enqueue p50 %v (baseline %v), pickup p50 %v, throughput %v\n",
				r, res.name, res.jobP50, res.baseP50, res.pickP50, res.throughput)
			b, ok := best[res.name]
			if !ok {
				order = append(order, res.name)
				best[res.name] = &res
				continue
			}
			b.baseP50, b.baseP99 = min(b.baseP50, res.baseP50), min(b.baseP99, res.baseP99)
			b.jobP50, b.jobP99 = min(b.jobP50, res.jobP50), min(b.jobP99, res.jobP99)
			b.pickP50, b.pickP99 = min(b.pickP50, res.pickP50), min(b.pickP99, res.pickP99)
			for k, v := range res.throughput {
				b.throughput[k] = max(b.throughput[k], v)
			}
		}
	}

	fmt.Printf("| queue | tx without job p50 / p99 | tx with job p50 / p99 | pickup p50 / p99 |")
	for _, l := range levels {
		fmt.Printf(" jobs/s at %d |", l)
	}
	fmt.Printf("\n| --- | ---: | ---: | ---: |")
	for range levels {
		fmt.Printf(" ---: |")
	}
	fmt.Println()
	for _, name := range order {
		b := best[name]
		fmt.Printf("| %s | %s / %s | %s / %s | %s / %s |", b.name, ms(b.baseP50), ms(b.baseP99), ms(b.jobP50), ms(b.jobP99), ms(b.pickP50), ms(b.pickP99))
		for _, l := range levels {
			fmt.Printf(" %.0f |", b.throughput[l])
		}
		fmt.Println()
	}
}

// ---- Prima ----

func runPrimaPG(ctx context.Context, levels []int) (result, error) {
	url, drop, err := freshPG(ctx, "prima_bench_jobs_prima")
	if err != nil {
		return result{}, err
	}
	defer drop()
	return runPrima(ctx, "prima (PostgreSQL)", url, levels)
}

func runPrimaSQLite(ctx context.Context, levels []int) (result, error) {
	dir, err := os.MkdirTemp("", "prima-bench-jobs")
	if err != nil {
		return result{}, err
	}
	defer os.RemoveAll(dir)
	return runPrima(ctx, "prima (SQLite)", filepath.Join(dir, "prima.db"), levels)
}

func runPrima(ctx context.Context, name, url string, levels []int) (result, error) {
	res := result{name: name, throughput: map[int]float64{}}
	d, err := db.Open(ctx, url)
	if err != nil {
		return res, err
	}
	defer d.Close()
	if _, err := migrations.Apply(ctx, d); err != nil {
		return res, err
	}
	if _, err := d.Exec(ctx, `CREATE TABLE bench_orders (id BIGINT PRIMARY KEY, amount BIGINT NOT NULL)`); err != nil {
		return res, err
	}
	var id int64
	order := func(withJob bool) error {
		id++
		return d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			if _, err := tx.Exec(ctx, `INSERT INTO bench_orders (id, amount) VALUES (?, ?)`, id, 100); err != nil {
				return err
			}
			if !withJob {
				return nil
			}
			_, err := jobs.Enqueue(ctx, tx, "bench.receipt", map[string]int64{"order": id}, jobs.Opts{})
			return err
		})
	}
	if res.baseP50, res.baseP99, res.jobP50, res.jobP99, err = enqueueLatency(order); err != nil {
		return res, err
	}
	if _, err := d.Exec(ctx, `DELETE FROM jobs`); err != nil {
		return res, err
	}

	// Pickup: one job at a time through an idle queue.
	started := make(chan time.Time, 1)
	q := jobs.New(d, jobs.Config{Workers: 2, Log: quiet})
	q.Handle("bench.pickup", func(ctx context.Context, j jobs.Job) error { started <- time.Now(); return nil }, jobs.KindOpts{})
	if err := q.Start(ctx); err != nil {
		return res, err
	}
	var picks []time.Duration
	for range *nPickup {
		var committed time.Time
		err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := jobs.Enqueue(ctx, tx, "bench.pickup", nil, jobs.Opts{})
			tx.AfterCommit(func() { committed = time.Now() })
			return err
		})
		if err != nil {
			return res, err
		}
		picks = append(picks, (<-started).Sub(committed))
	}
	if err := q.Stop(ctx); err != nil {
		return res, err
	}
	res.pickP50, res.pickP99 = pct(picks, 50), pct(picks, 99)

	for _, level := range levels {
		if _, err := d.Exec(ctx, `DELETE FROM jobs`); err != nil {
			return res, err
		}
		err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			for i := range *nJobs {
				if _, err := jobs.Enqueue(ctx, tx, "bench.noop", map[string]int{"i": i}, jobs.Opts{}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return res, err
		}
		var done atomic.Int64
		all := make(chan struct{})
		q := jobs.New(d, jobs.Config{Workers: level, Log: quiet})
		q.Handle("bench.noop", func(ctx context.Context, j jobs.Job) error {
			if done.Add(1) == int64(*nJobs) {
				close(all)
			}
			return nil
		}, jobs.KindOpts{})
		t0 := time.Now()
		if err := q.Start(ctx); err != nil {
			return res, err
		}
		<-all
		res.throughput[level] = float64(*nJobs) / time.Since(t0).Seconds()
		if err := q.Stop(ctx); err != nil {
			return res, err
		}
	}
	return res, nil
}

// ---- River ----

type receiptArgs struct {
	Order int64 `json:"order"`
}

func (receiptArgs) Kind() string { return "bench.receipt" }

type pickupArgs struct{}

func (pickupArgs) Kind() string { return "bench.pickup" }

type noopArgs struct {
	I int `json:"i"`
}

func (noopArgs) Kind() string { return "bench.noop" }

type funcWorker[T river.JobArgs] struct {
	river.WorkerDefaults[T]
	fn func()
}

func (w *funcWorker[T]) Work(ctx context.Context, j *river.Job[T]) error {
	w.fn()
	return nil
}

// runRiver runs River with its defaults: fetches at most every 100 ms, so
// a queue of W workers runs at most 10·W jobs a second. It is tuned for
// many workers per process; with fewer jobs (-river-default-jobs) so a run
// does not take many minutes at that rate.
func runRiver(ctx context.Context, levels []int) (result, error) {
	return riverWith(ctx, "River v0.51.1, defaults", 0, 0, *nRiverDefault, levels)
}

// runRiverTuned runs River configured for a small worker pool: the fetch
// cooldown at 1 ms and the poll at 50 ms, which is as far as its
// configuration goes towards Prima's behaviour (claim again as soon as a
// slot frees).
func runRiverTuned(ctx context.Context, levels []int) (result, error) {
	return riverWith(ctx, "River v0.51.1, tuned", time.Millisecond, 50*time.Millisecond, *nJobs, levels)
}

func riverWith(ctx context.Context, name string, cooldown, poll time.Duration, total int, levels []int) (result, error) {
	res := result{name: name, throughput: map[int]float64{}}
	url, drop, err := freshPG(ctx, "prima_bench_jobs_river")
	if err != nil {
		return res, err
	}
	defer drop()
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return res, err
	}
	defer pool.Close()
	migrator, err := rivermigrate.New(riverpgxv5.New(pool), nil)
	if err != nil {
		return res, err
	}
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return res, err
	}
	if _, err := pool.Exec(ctx, `CREATE TABLE bench_orders (id BIGINT PRIMARY KEY, amount BIGINT NOT NULL)`); err != nil {
		return res, err
	}

	newClient := func(level int, register func(*river.Workers)) (*river.Client[pgx.Tx], error) {
		w := river.NewWorkers()
		register(w)
		return river.NewClient(riverpgxv5.New(pool), &river.Config{
			FetchCooldown:     cooldown,
			FetchPollInterval: poll,
			Logger:            quiet,
			Queues:            map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: level}},
			Workers:           w,
		})
	}

	// Enqueue latency: an insert-only client (not started), as an API node
	// that leaves the work to workers would have.
	ins, err := newClient(2, func(w *river.Workers) {
		river.AddWorker(w, &funcWorker[receiptArgs]{fn: func() {}})
	})
	if err != nil {
		return res, err
	}
	var id int64
	order := func(withJob bool) error {
		id++
		tx, err := pool.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(ctx)
		if _, err := tx.Exec(ctx, `INSERT INTO bench_orders (id, amount) VALUES ($1, $2)`, id, 100); err != nil {
			return err
		}
		if withJob {
			if _, err := ins.InsertTx(ctx, tx, receiptArgs{Order: id}, nil); err != nil {
				return err
			}
		}
		return tx.Commit(ctx)
	}
	if res.baseP50, res.baseP99, res.jobP50, res.jobP99, err = enqueueLatency(order); err != nil {
		return res, err
	}
	if _, err := pool.Exec(ctx, `DELETE FROM river_job`); err != nil {
		return res, err
	}

	started := make(chan time.Time, 1)
	pc, err := newClient(2, func(w *river.Workers) {
		river.AddWorker(w, &funcWorker[pickupArgs]{fn: func() { started <- time.Now() }})
	})
	if err != nil {
		return res, err
	}
	if err := pc.Start(ctx); err != nil {
		return res, err
	}
	time.Sleep(time.Second) // let it elect a leader and listen
	var picks []time.Duration
	for range *nPickup {
		tx, err := pool.Begin(ctx)
		if err != nil {
			return res, err
		}
		if _, err := pc.InsertTx(ctx, tx, pickupArgs{}, nil); err != nil {
			return res, err
		}
		if err := tx.Commit(ctx); err != nil {
			return res, err
		}
		committed := time.Now()
		picks = append(picks, (<-started).Sub(committed))
	}
	if err := pc.Stop(ctx); err != nil {
		return res, err
	}
	res.pickP50, res.pickP99 = pct(picks, 50), pct(picks, 99)

	for _, level := range levels {
		if _, err := pool.Exec(ctx, `DELETE FROM river_job`); err != nil {
			return res, err
		}
		var done atomic.Int64
		all := make(chan struct{})
		c, err := newClient(level, func(w *river.Workers) {
			river.AddWorker(w, &funcWorker[noopArgs]{fn: func() {
				if done.Add(1) == int64(total) {
					close(all)
				}
			}})
		})
		if err != nil {
			return res, err
		}
		params := make([]river.InsertManyParams, total)
		for i := range params {
			params[i] = river.InsertManyParams{Args: noopArgs{I: i}}
		}
		if _, err := c.InsertManyFast(ctx, params); err != nil {
			return res, err
		}
		t0 := time.Now()
		if err := c.Start(ctx); err != nil {
			return res, err
		}
		<-all
		res.throughput[level] = float64(total) / time.Since(t0).Seconds()
		if err := c.Stop(ctx); err != nil {
			return res, err
		}
	}
	return res, nil
}

// ---- shared ----

// enqueueLatency times *nEnqueue transactions without a job and as many
// with one, alternating so both see the same machine.
func enqueueLatency(order func(withJob bool) error) (baseP50, baseP99, jobP50, jobP99 time.Duration, err error) {
	for range 200 { // warm pools and plan caches
		if err = order(true); err != nil {
			return
		}
	}
	var base, with []time.Duration
	for i := range 2 * *nEnqueue {
		withJob := i%2 == 1
		t0 := time.Now()
		if err = order(withJob); err != nil {
			return
		}
		if withJob {
			with = append(with, time.Since(t0))
		} else {
			base = append(base, time.Since(t0))
		}
	}
	return pct(base, 50), pct(base, 99), pct(with, 50), pct(with, 99), nil
}

// freshPG creates database name on the server (dropping a leftover) and
// returns its URL and a function that drops it.
func freshPG(ctx context.Context, name string) (string, func(), error) {
	admin, err := db.Open(ctx, *pgURL)
	if err != nil {
		return "", nil, err
	}
	defer admin.Close()
	if _, err := admin.Exec(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil {
		return "", nil, err
	}
	if _, err := admin.Exec(ctx, `CREATE DATABASE `+name); err != nil {
		return "", nil, err
	}
	cfg, err := pgx.ParseConfig(*pgURL)
	if err != nil {
		return "", nil, err
	}
	url := fmt.Sprintf("postgres://%s@%s:%d/%s?sslmode=disable", cfg.User, cfg.Host, cfg.Port, name)
	return url, func() {
		a, err := db.Open(context.Background(), *pgURL)
		if err != nil {
			return
		}
		defer a.Close()
		_, _ = a.Exec(context.Background(), `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`)
	}, nil
}

func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d.Microseconds())/1000) }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "jobqueue:", err)
	os.Exit(1)
}
