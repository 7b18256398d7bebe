package jobs

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	mrand "math/rand/v2"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"prima/internal/platform/db"
)

// Job is one claimed job as a handler sees it.
type Job struct {
	ID          int64
	Kind        string
	Payload     json.RawMessage
	Attempt     int // 1 on the first try
	MaxAttempts int
	RunAt       time.Time
	CreatedAt   time.Time
	UniqueKey   string
}

// Handler does one job. A nil error marks it succeeded; an error retries it
// (or kills it after max_attempts); Permanent(err) kills it at once. The
// same job can run more than once (a worker dies after the work but before
// recording it), so a handler must be idempotent.
type Handler func(ctx context.Context, j Job) error

// Permanent marks err as one that retrying cannot fix, such as a payload
// that names a row which no longer exists: the job goes straight to dead.
func Permanent(err error) error { return permanentError{err} }

type permanentError struct{ err error }

func (p permanentError) Error() string { return p.err.Error() }
func (p permanentError) Unwrap() error { return p.err }

// KindOpts tune one kind of job.
type KindOpts struct {
	// MaxAttempts is the default for jobs of this kind (DefaultMaxAttempts).
	MaxAttempts int
	// Timeout bounds one attempt (default 10 minutes); the handler's ctx is
	// cancelled when it passes and the attempt counts as failed.
	Timeout time.Duration
}

type kind struct {
	handler Handler
	timeout time.Duration
}

// Config tunes a Queue; zero values take the defaults.
type Config struct {
	// Workers is how many jobs this process runs at once.
	Workers int
	// PollInterval is how often idle workers look for due jobs that were
	// not announced by a local commit: jobs from other processes,
	// scheduled jobs, retries (default 1 s).
	PollInterval time.Duration
	// Lease is how long a claim holds without a heartbeat (default 60 s);
	// running jobs renew it every Lease/3. A worker that dies holds its
	// jobs at most this long before the rescuer hands them to another.
	Lease time.Duration
	// RescueInterval is how often expired leases are looked for (default
	// Lease/2).
	RescueInterval time.Duration
	// Backoff is the wait before retry number attempt (1 after the first
	// failure). Default: 2 s doubling per attempt, capped at 1 h, ±20 %
	// jitter so jobs that failed together do not retry together.
	Backoff func(attempt int) time.Duration
	// PruneSucceededAfter and PruneDeadAfter: how long finished jobs stay
	// for inspection before the jobs.prune recurring job deletes them
	// (defaults 7 and 30 days). Dead jobs stay longer: someone may need to
	// read why they died.
	PruneSucceededAfter time.Duration
	PruneDeadAfter      time.Duration
	// Log receives one line per failed or dead job (default slog.Default).
	Log *slog.Logger
}

// DefaultBackoff is the retry delay described at Config.Backoff.
func DefaultBackoff(attempt int) time.Duration {
	d := 2 * time.Second * time.Duration(math.Pow(2, float64(min(max(attempt-1, 0), 12))))
	d = min(d, time.Hour)
	return time.Duration(float64(d) * (0.8 + 0.4*mrand.Float64()))
}

// Stats are counters since the queue was built, plus jobs running now.
// Enqueued counts every Enqueue in the process. They only grow, so a
// metrics exporter can report them as counters.
type Stats struct {
	Enqueued  uint64 // jobs inserted by this process (duplicates not counted)
	Claimed   uint64 // attempts started here
	Succeeded uint64
	Retried   uint64 // failed attempts scheduled to run again
	Dead      uint64 // jobs given up on here, including undecodable ones
	Rescued   uint64 // expired leases (any worker's) returned to the queue by this process
	Released  uint64 // unfinished jobs handed back at a shutdown that timed out
	LeaseLost uint64 // attempts whose lease was taken over before they finished
	Running   int64
}

var counters struct{ enqueued atomic.Uint64 }

// Queue runs the registered handlers on jobs claimed from the database.
type Queue struct {
	db    *db.DB
	cfg   Config
	log   *slog.Logger
	id    string // locked_by of this queue's claims
	kinds map[string]kind
	every []schedule

	claimed, succeeded, retried, dead, rescued, released, leaseLost atomic.Uint64
	running                                                         atomic.Int64

	mu       sync.Mutex
	started  bool
	stopped  bool
	kindList []string
	wake     chan struct{} // a local commit enqueued something, or a worker slot freed
	stopping chan struct{} // closed by Stop: claim nothing more
	base     context.Context
	cancel   context.CancelFunc // cancels running handlers at a hard stop
	loops    sync.WaitGroup
	jobs     sync.WaitGroup
	hard     atomic.Bool

	batchMu  sync.Mutex
	batch    []*pendingSuccess
	flushing bool
}

// New builds a queue on d. Register handlers and schedules, then Start it.
// A process that only enqueues needs no Queue at all.
func New(d *db.DB, cfg Config) *Queue {
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = time.Second
	}
	if cfg.Lease <= 0 {
		cfg.Lease = time.Minute
	}
	if cfg.RescueInterval <= 0 {
		cfg.RescueInterval = cfg.Lease / 2
	}
	if cfg.Backoff == nil {
		cfg.Backoff = DefaultBackoff
	}
	if cfg.PruneSucceededAfter <= 0 {
		cfg.PruneSucceededAfter = 7 * 24 * time.Hour
	}
	if cfg.PruneDeadAfter <= 0 {
		cfg.PruneDeadAfter = 30 * 24 * time.Hour
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	host, _ := os.Hostname()
	raw := make([]byte, 4)
	_, _ = rand.Read(raw)
	q := &Queue{
		db:       d,
		cfg:      cfg,
		log:      cfg.Log.With("component", "jobs"),
		id:       fmt.Sprintf("%s:%d:%s", host, os.Getpid(), hex.EncodeToString(raw)),
		kinds:    map[string]kind{},
		wake:     make(chan struct{}, 1),
		stopping: make(chan struct{}),
	}
	q.registerPrune()
	return q
}

// ID is what this queue writes into locked_by.
func (q *Queue) ID() string { return q.id }

// Handle registers h for kind. Registering after Start, or a kind twice,
// is a programming error and panics.
func (q *Queue) Handle(kindName string, h Handler, opts KindOpts) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.started {
		panic("jobs: Handle after Start")
	}
	if _, dup := q.kinds[kindName]; dup {
		panic("jobs: kind registered twice: " + kindName)
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Minute
	}
	if opts.MaxAttempts > 0 {
		kindAttempts.Store(kindName, opts.MaxAttempts)
	}
	q.kinds[kindName] = kind{handler: h, timeout: opts.Timeout}
}

// Register is Handle with the payload decoded into T. A payload that does
// not decode can never succeed, so the job goes straight to dead with the
// decoding error instead of being retried.
func Register[T any](q *Queue, kindName string, fn func(ctx context.Context, j Job, payload T) error, opts KindOpts) {
	q.Handle(kindName, func(ctx context.Context, j Job) error {
		var p T
		if err := json.Unmarshal(j.Payload, &p); err != nil {
			return Permanent(fmt.Errorf("payload does not decode as %T: %w", p, err))
		}
		return fn(ctx, j, p)
	}, opts)
}

// Start begins claiming and running jobs, rescuing expired leases and
// enqueueing recurring jobs. It returns at once; Stop ends it. ctx is only
// the parent of handler contexts' values: cancelling it does not stop the
// queue.
func (q *Queue) Start(ctx context.Context) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.started {
		return errors.New("jobs: queue already started")
	}
	q.started = true
	for k := range q.kinds {
		q.kindList = append(q.kindList, k)
	}
	sort.Strings(q.kindList)
	q.base, q.cancel = context.WithCancel(context.WithoutCancel(ctx))
	addLocal(q)
	q.loops.Add(3)
	go q.fetchLoop()
	go q.rescueLoop()
	go q.scheduleLoop()
	q.log.Info("workers started", "workers", q.cfg.Workers, "kinds", q.kindList, "id", q.id)
	return nil
}

// Stop stops claiming, then waits for running jobs until ctx ends. Jobs
// still running then have their context cancelled and are released: put
// back as available, the interrupted attempt not counted, for another
// worker (or the next start) to run. It returns an error naming how many
// were released.
func (q *Queue) Stop(ctx context.Context) error {
	q.mu.Lock()
	if !q.started || q.stopped {
		q.mu.Unlock()
		return nil
	}
	q.stopped = true
	close(q.stopping)
	q.mu.Unlock()
	removeLocal(q)
	q.loops.Wait()

	done := make(chan struct{})
	go func() { q.jobs.Wait(); close(done) }()
	select {
	case <-done:
		q.cancel()
		return nil
	case <-ctx.Done():
	}
	q.hard.Store(true)
	q.cancel()
	rctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var n int64
	err := q.write(rctx, func(ctx context.Context, w db.Querier) error {
		res, err := w.Exec(ctx, `UPDATE jobs SET state = 'available', attempt = attempt - 1, locked_by = '', locked_until = 0, run_at = ?
			WHERE state = 'running' AND locked_by = ?`, time.Now().UnixMilli(), q.id)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return fmt.Errorf("jobs: releasing unfinished jobs: %w", err)
	}
	q.released.Add(uint64(n))
	// Handlers were cancelled; give them a moment to return so they do not
	// touch a database that the caller is about to close.
	select {
	case <-done:
	case <-time.After(2 * time.Second):
	}
	if n > 0 {
		return fmt.Errorf("jobs: shutdown timed out, %d unfinished jobs released", n)
	}
	return nil
}

// Stats returns the queue's counters.
func (q *Queue) Stats() Stats {
	return Stats{
		Enqueued:  counters.enqueued.Load(),
		Claimed:   q.claimed.Load(),
		Succeeded: q.succeeded.Load(),
		Retried:   q.retried.Load(),
		Dead:      q.dead.Load(),
		Rescued:   q.rescued.Load(),
		Released:  q.released.Load(),
		LeaseLost: q.leaseLost.Load(),
		Running:   q.running.Load(),
	}
}

// Depth counts the jobs waiting, running and dead, for gauges of the
// backlog. Succeeded jobs, the bulk of the table, are left out so that each
// count reads one of the partial indexes rather than the table.
func Depth(ctx context.Context, q db.Querier) (map[State]int64, error) {
	out := map[State]int64{Available: 0, Retryable: 0, Running: 0, Dead: 0}
	rows, err := q.Query(ctx, `SELECT state, COUNT(*) FROM jobs WHERE state IN ('available', 'retryable', 'running', 'dead') GROUP BY state`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var s State
		var n int64
		if err := rows.Scan(&s, &n); err != nil {
			return nil, err
		}
		out[s] = n
	}
	return out, rows.Err()
}

// write runs fn's statement, which writes. On PostgreSQL it autocommits:
// one round trip instead of three (BEGIN, statement, COMMIT), which is most
// of a job's overhead. On SQLite it runs in a transaction because that
// begins IMMEDIATE: an autocommit statement that reads before it writes
// fails at once with SQLITE_BUSY_SNAPSHOT if another process (serve beside
// worker on one file) wrote in between, where BEGIN IMMEDIATE waits its turn.
func (q *Queue) write(ctx context.Context, fn func(ctx context.Context, w db.Querier) error) error {
	if q.db.Engine == db.Postgres {
		return fn(ctx, q.db)
	}
	return q.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error { return fn(ctx, tx) })
}

func (q *Queue) poke() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *Queue) fetchLoop() {
	defer q.loops.Done()
	t := time.NewTicker(q.cfg.PollInterval)
	defer t.Stop()
	for {
		select {
		case <-q.stopping:
			return
		default:
		}
		if free := q.cfg.Workers - int(q.running.Load()); free > 0 {
			jobs, err := q.claim(q.base, free)
			if err != nil {
				q.log.Error("claiming jobs", "err", err)
			}
			for _, j := range jobs {
				q.running.Add(1)
				q.jobs.Add(1)
				go q.work(j)
			}
			if err == nil && len(jobs) == free {
				continue // there may be more; claim again when a slot frees
			}
		}
		select {
		case <-q.stopping:
			return
		case <-t.C:
		case <-q.wake:
		}
	}
}

const jobColumns = `id, kind, payload, attempt, max_attempts, run_at, created_at, unique_key`

func scanJob(s db.Scanner) (Job, error) {
	var (
		j            Job
		payload      string
		runAt, adder int64
		key          sql.NullString
	)
	if err := s.Scan(&j.ID, &j.Kind, &payload, &j.Attempt, &j.MaxAttempts, &runAt, &adder, &key); err != nil {
		return Job{}, err
	}
	j.Payload = json.RawMessage(payload)
	j.RunAt = time.UnixMilli(runAt)
	j.CreatedAt = time.UnixMilli(adder)
	j.UniqueKey = key.String
	return j, nil
}

// claim takes up to n due jobs of the kinds registered here and marks them
// running under this queue's lease, counting the attempt.
func (q *Queue) claim(ctx context.Context, n int) ([]Job, error) {
	if len(q.kindList) == 0 {
		return nil, nil
	}
	now := time.Now().UnixMilli()
	// Only kinds this process can run: during a rolling deploy an old
	// worker must leave a new kind's jobs to the new workers.
	in := db.Placeholders(len(q.kindList))
	skip := ""
	if q.db.Engine == db.Postgres {
		// Concurrent claimers skip each other's rows instead of queueing
		// on their locks. SQLite needs nothing: its one writer serialises.
		skip = " FOR UPDATE SKIP LOCKED"
	}
	query := `UPDATE jobs SET state = 'running', attempt = attempt + 1, locked_by = ?, locked_until = ?
		WHERE id IN (SELECT id FROM jobs WHERE state IN ('available', 'retryable') AND run_at <= ? AND kind IN (` + in + `)
			ORDER BY run_at, id LIMIT ?` + skip + `)
		RETURNING ` + jobColumns
	args := []any{q.id, now + q.cfg.Lease.Milliseconds(), now}
	for _, k := range q.kindList {
		args = append(args, k)
	}
	args = append(args, n)
	var jobs []Job
	err := q.write(ctx, func(ctx context.Context, w db.Querier) error {
		var err error
		jobs, err = db.All(ctx, w, scanJob, query, args...)
		return err
	})
	if err != nil {
		return nil, err
	}
	q.claimed.Add(uint64(len(jobs)))
	return jobs, nil
}

// work runs one claimed job, heartbeating its lease, and records the result.
func (q *Queue) work(j Job) {
	defer q.jobs.Done()
	k := q.kinds[j.Kind]
	ctx, cancel := context.WithTimeout(q.base, k.timeout)
	defer cancel()

	var lost atomic.Bool
	hbDone := make(chan struct{})
	hbExited := make(chan struct{})
	go func() {
		defer close(hbExited)
		q.heartbeat(j, hbDone, func() { lost.Store(true); cancel() })
	}()
	err := q.call(ctx, k.handler, j)
	close(hbDone)
	<-hbExited
	// The slot frees as soon as the handler returns, so the fetcher claims
	// the next job while this result is written: the row stays running
	// under this queue's lease until then, so nobody else can take it, and
	// Stop still waits for the write (q.jobs).
	q.running.Add(-1)
	q.poke()

	switch {
	case lost.Load():
		q.leaseLost.Add(1)
		q.log.Warn("job lease lost; another worker may run it again", "job", j.ID, "kind", j.Kind, "attempt", j.Attempt, "err", err)
		return
	case q.hard.Load() && err != nil && errors.Is(err, context.Canceled):
		return // Stop releases it
	}
	q.finish(j, err)
}

// heartbeat renews j's lease every Lease/3 until done closes. If the row is
// no longer ours (the rescuer gave it away after a stall longer than the
// lease), it calls lost so the handler stops.
func (q *Queue) heartbeat(j Job, done <-chan struct{}, lost func()) {
	t := time.NewTicker(q.cfg.Lease / 3)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), q.cfg.Lease/3)
		var n int64
		err := q.write(ctx, func(ctx context.Context, w db.Querier) error {
			res, err := w.Exec(ctx, `UPDATE jobs SET locked_until = ? WHERE id = ? AND state = 'running' AND locked_by = ? AND attempt = ?`,
				time.Now().Add(q.cfg.Lease).UnixMilli(), j.ID, q.id, j.Attempt)
			if err != nil {
				return err
			}
			n, err = res.RowsAffected()
			return err
		})
		cancel()
		if err != nil {
			// The database may be briefly away; the lease still has two
			// thirds left, so try again at the next tick.
			q.log.Warn("job heartbeat", "job", j.ID, "err", err)
			continue
		}
		if n == 0 {
			lost()
			return
		}
	}
}

// call runs the handler, turning a panic into a failed attempt.
func (q *Queue) call(ctx context.Context, h Handler, j Job) (err error) {
	defer func() {
		if r := recover(); r != nil {
			q.log.Error("job panicked", "job", j.ID, "kind", j.Kind, "panic", r, "stack", string(debug.Stack()))
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return h(ctx, j)
}

const maxErrorText = 2000

// finish records an attempt's outcome. Every update is conditioned on the
// claim (locked_by and attempt), so a worker that lost its lease cannot
// overwrite the row of the worker that took over.
func (q *Queue) finish(j Job, runErr error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	now := time.Now()
	var (
		query string
		args  []any
		state State
	)
	var perm permanentError
	switch {
	case runErr == nil:
		state = Succeeded // recorded by succeed, in a batch
	case errors.As(runErr, &perm) || j.Attempt >= j.MaxAttempts:
		state = Dead
		query = `UPDATE jobs SET state = 'dead', finished_at = ?, last_error = ?, locked_by = '', locked_until = 0
			WHERE id = ? AND state = 'running' AND locked_by = ? AND attempt = ?`
		args = []any{now.UnixMilli(), errorText(runErr), j.ID, q.id, j.Attempt}
	default:
		state = Retryable
		query = `UPDATE jobs SET state = 'retryable', run_at = ?, last_error = ?, locked_by = '', locked_until = 0
			WHERE id = ? AND state = 'running' AND locked_by = ? AND attempt = ?`
		args = []any{now.Add(q.cfg.Backoff(j.Attempt)).UnixMilli(), errorText(runErr), j.ID, q.id, j.Attempt}
	}
	var n int64
	var err error
	if state == Succeeded {
		n, err = q.succeed(ctx, j)
	} else {
		err = q.write(ctx, func(ctx context.Context, w db.Querier) error {
			res, err := w.Exec(ctx, query, args...)
			if err != nil {
				return err
			}
			n, err = res.RowsAffected()
			return err
		})
	}
	if err != nil {
		// The row stays running; the rescuer retries it when the lease
		// expires, so the job is not lost, only delayed.
		q.log.Error("recording job result", "job", j.ID, "kind", j.Kind, "state", state, "err", err)
		return
	}
	if n == 0 {
		q.leaseLost.Add(1)
		q.log.Warn("job result dropped: lease was taken over", "job", j.ID, "kind", j.Kind, "attempt", j.Attempt)
		return
	}
	switch state {
	case Succeeded:
		q.succeeded.Add(1)
	case Dead:
		q.dead.Add(1)
		q.log.Error("job dead", "job", j.ID, "kind", j.Kind, "attempt", j.Attempt, "max_attempts", j.MaxAttempts, "err", runErr)
	case Retryable:
		q.retried.Add(1)
		q.log.Warn("job failed, will retry", "job", j.ID, "kind", j.Kind, "attempt", j.Attempt, "max_attempts", j.MaxAttempts, "err", runErr)
	}
}

// pendingSuccess is a succeeded attempt waiting to be recorded.
type pendingSuccess struct {
	id      int64
	attempt int
	done    chan error // nil: recorded; errLeaseLost: the row was not ours any more
}

var errLeaseLost = errors.New("lease lost")

// maxBatch bounds one success update (two parameters a job).
const maxBatch = 100

// succeed records j as succeeded, batched with the other workers' successes
// (group commit): the first worker to arrive writes everyone's who is
// waiting in one statement, and keeps going while more arrive. A lone
// success costs one statement as before; under load, 32 workers finishing
// together cost a few statements instead of 32. Each caller still returns
// only once its own row is written, so a freed slot never races its row.
// It returns 1 when the row was ours and is now succeeded, 0 when the lease
// had been lost.
func (q *Queue) succeed(ctx context.Context, j Job) (int64, error) {
	me := &pendingSuccess{id: j.ID, attempt: j.Attempt, done: make(chan error, 1)}
	q.batchMu.Lock()
	q.batch = append(q.batch, me)
	if q.flushing {
		q.batchMu.Unlock()
		return outcome(<-me.done)
	}
	q.flushing = true
	for len(q.batch) > 0 {
		take := q.batch[:min(len(q.batch), maxBatch)]
		q.batch = q.batch[len(take):]
		q.batchMu.Unlock()
		q.flushSuccesses(ctx, take)
		q.batchMu.Lock()
	}
	q.flushing = false
	q.batchMu.Unlock()
	return outcome(<-me.done)
}

func outcome(err error) (int64, error) {
	if errors.Is(err, errLeaseLost) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return 1, nil
}

func (q *Queue) flushSuccesses(ctx context.Context, batch []*pendingSuccess) {
	// (id = ? AND attempt = ?) OR ...: both engines use the primary key
	// for each arm, and the attempt keeps a stale claim of the same job
	// from being marked done for a newer one.
	var b strings.Builder
	args := []any{time.Now().UnixMilli(), q.id}
	for i, p := range batch {
		if i > 0 {
			b.WriteString(" OR ")
		}
		b.WriteString("(id = ? AND attempt = ?)")
		args = append(args, p.id, p.attempt)
	}
	var recorded map[int64]bool
	err := q.write(ctx, func(ctx context.Context, w db.Querier) error {
		ids, err := db.All(ctx, w, func(s db.Scanner) (int64, error) {
			var id int64
			return id, s.Scan(&id)
		}, `UPDATE jobs SET state = 'succeeded', finished_at = ?, locked_by = '', locked_until = 0
			WHERE state = 'running' AND locked_by = ? AND (`+b.String()+`) RETURNING id`, args...)
		if err != nil {
			return err
		}
		recorded = make(map[int64]bool, len(ids))
		for _, id := range ids {
			recorded[id] = true
		}
		return nil
	})
	for _, p := range batch {
		switch {
		case err != nil:
			p.done <- err
		case recorded[p.id]:
			p.done <- nil
		default:
			p.done <- errLeaseLost
		}
	}
}

func errorText(err error) string {
	s := err.Error()
	if len(s) > maxErrorText {
		s = s[:maxErrorText]
	}
	return s
}

func (q *Queue) rescueLoop() {
	defer q.loops.Done()
	t := time.NewTicker(q.cfg.RescueInterval)
	defer t.Stop()
	for {
		select {
		case <-q.stopping:
			return
		case <-t.C:
		}
		if _, err := q.Rescue(q.base); err != nil {
			q.log.Error("rescuing expired jobs", "err", err)
		}
	}
}

// Rescue returns running jobs whose lease has expired (their worker died or
// stalled) to the queue: retryable after the backoff, or dead when that was
// their last attempt. The interrupted attempt counts. Any process may run
// it; it returns how many it rescued.
func (q *Queue) Rescue(ctx context.Context) (int, error) {
	now := time.Now().UnixMilli()
	var rescued []Job
	err := q.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		rescued, err = db.All(ctx, tx, scanJob, `SELECT `+jobColumns+` FROM jobs WHERE state = 'running' AND locked_until < ? ORDER BY id LIMIT 1000`+tx.ForUpdate(), now)
		if err != nil {
			return err
		}
		for _, j := range rescued {
			msg := "lease expired: the worker stopped heartbeating (killed or stalled)"
			if j.Attempt >= j.MaxAttempts {
				_, err = tx.Exec(ctx, `UPDATE jobs SET state = 'dead', finished_at = ?, last_error = ?, locked_by = '', locked_until = 0 WHERE id = ?`, now, msg, j.ID)
			} else {
				_, err = tx.Exec(ctx, `UPDATE jobs SET state = 'retryable', run_at = ?, last_error = ?, locked_by = '', locked_until = 0 WHERE id = ?`,
					now+q.cfg.Backoff(j.Attempt).Milliseconds(), msg, j.ID)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, j := range rescued {
		q.log.Warn("job lease expired, returned to the queue", "job", j.ID, "kind", j.Kind, "attempt", j.Attempt)
	}
	q.rescued.Add(uint64(len(rescued)))
	return len(rescued), nil
}
