package jobs

import (
	"context"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"prima/internal/migrations"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// fast is a configuration that makes waits in tests short.
func fast(workers int) Config {
	return Config{
		Workers:      workers,
		PollInterval: 20 * time.Millisecond,
		Lease:        2 * time.Second,
		Backoff:      func(int) time.Duration { return 10 * time.Millisecond },
		Log:          quiet,
	}
}

func start(t *testing.T, q *Queue) {
	t.Helper()
	if err := q.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = q.Stop(ctx)
	})
}

// bothEngines runs fn on SQLite and PostgreSQL with two independent handles
// on one fresh database, as two processes would have.
func bothEngines(t *testing.T, fn func(t *testing.T, d1, d2 *db.DB)) {
	for _, e := range []db.Engine{db.SQLite, db.Postgres} {
		t.Run(string(e), func(t *testing.T) {
			ctx := context.Background()
			u := dbtest.URL(t, e)
			d1, err := db.Open(ctx, u)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { d1.Close() })
			if _, err := migrations.Apply(ctx, d1); err != nil {
				t.Fatal(err)
			}
			d2, err := db.Open(ctx, u)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { d2.Close() })
			fn(t, d1, d2)
		})
	}
}

type row struct {
	State     State
	Attempt   int
	LastError string
	RunAt     int64
	LockedBy  string
}

func jobRow(t *testing.T, d *db.DB, id int64) row {
	t.Helper()
	var r row
	err := d.QueryRow(context.Background(), `SELECT state, attempt, last_error, run_at, locked_by FROM jobs WHERE id = ?`, id).
		Scan(&r.State, &r.Attempt, &r.LastError, &r.RunAt, &r.LockedBy)
	if err != nil {
		t.Fatalf("job %d: %v", id, err)
	}
	return r
}

func count(t *testing.T, d *db.DB, where string, args ...any) int {
	t.Helper()
	var n int
	if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM jobs WHERE `+where, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func waitFor(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", within, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func enqueue(t *testing.T, d *db.DB, kind string, payload any, opts Opts) int64 {
	t.Helper()
	res, err := EnqueueNow(context.Background(), d, kind, payload, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res.ID
}

func TestEnqueueInRolledBackTransactionLeavesNothing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		boom := errors.New("business rule failed")
		err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			if _, err := Enqueue(ctx, tx, "mail.send", map[string]int{"user": 1}, Opts{}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("tx: %v", err)
		}
		if n := count(t, d, `1 = 1`); n != 0 {
			t.Fatalf("%d jobs after rollback, want 0", n)
		}
		err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := Enqueue(ctx, tx, "mail.send", map[string]int{"user": 1}, Opts{})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if n := count(t, d, `kind = 'mail.send' AND state = 'available' AND payload = '{"user":1}'`); n != 1 {
			t.Fatalf("%d jobs after commit, want 1", n)
		}
	})
}

// A job enqueued by this process runs at once after its transaction
// commits, not at the next poll (an hour away here).
func TestCommitWakesLocalWorkers(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		cfg := fast(1)
		cfg.PollInterval = time.Hour
		q := New(d, cfg)
		ran := make(chan int64, 1)
		q.Handle("wake", func(ctx context.Context, j Job) error { ran <- j.ID; return nil }, KindOpts{})
		start(t, q)
		time.Sleep(100 * time.Millisecond) // the first claim has found nothing
		var id int64
		err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
			res, err := Enqueue(ctx, tx, "wake", nil, Opts{})
			id = res.ID
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		select {
		case got := <-ran:
			if got != id {
				t.Fatalf("ran job %d, want %d", got, id)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("job did not run after commit")
		}
	})
}

func TestEnqueueRejectsBadInputAndDeduplicates(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		for name, c := range map[string]struct {
			kind    string
			payload any
			opts    Opts
		}{
			"empty kind":       {"", nil, Opts{}},
			"unmarshalable":    {"k", make(chan int), Opts{}},
			"bad raw JSON":     {"k", stdjson.RawMessage("{nope"), Opts{}},
			"too big":          {"k", strings.Repeat("x", MaxPayload), Opts{}},
			"negative retries": {"k", nil, Opts{MaxAttempts: -1}},
		} {
			if _, err := EnqueueNow(ctx, d, c.kind, c.payload, c.opts); !errors.Is(err, ErrInvalid) {
				t.Errorf("%s: err = %v, want ErrInvalid", name, err)
			}
		}
		if n := count(t, d, `1 = 1`); n != 0 {
			t.Fatalf("%d jobs after rejected enqueues", n)
		}

		first, err := EnqueueNow(ctx, d, "k", nil, Opts{UniqueKey: "video:42:transcode"})
		if err != nil || first.Duplicate {
			t.Fatalf("first: %+v %v", first, err)
		}
		// Inside a transaction a duplicate must not abort it (PostgreSQL
		// aborts a transaction on any failed statement).
		err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			again, err := Enqueue(ctx, tx, "k", nil, Opts{UniqueKey: "video:42:transcode"})
			if err != nil {
				return err
			}
			if !again.Duplicate || again.ID != first.ID {
				return fmt.Errorf("again = %+v, want duplicate of %d", again, first.ID)
			}
			_, err = Enqueue(ctx, tx, "k", nil, Opts{})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if n := count(t, d, `kind = 'k'`); n != 2 {
			t.Fatalf("%d jobs, want 2", n)
		}
	})
}

func TestTwoQueuesNeverRunAJobTwice(t *testing.T) {
	bothEngines(t, func(t *testing.T, d1, d2 *db.DB) {
		const total = 200
		var mu sync.Mutex
		runs := map[int64]int{}
		by := map[string]int{}
		handler := func(q string) Handler {
			return func(ctx context.Context, j Job) error {
				mu.Lock()
				runs[j.ID]++
				by[q]++
				mu.Unlock()
				time.Sleep(time.Millisecond)
				return nil
			}
		}
		qa, qb := New(d1, fast(4)), New(d2, fast(4))
		qa.Handle("hammer", handler("a"), KindOpts{})
		qb.Handle("hammer", handler("b"), KindOpts{})
		start(t, qa)
		start(t, qb)
		for i := range total {
			d := d1
			if i%2 == 1 {
				d = d2
			}
			enqueue(t, d, "hammer", map[string]int{"i": i}, Opts{})
		}
		waitFor(t, "all jobs to succeed", 60*time.Second, func() bool {
			return count(t, d1, `kind = 'hammer' AND state = 'succeeded'`) == total
		})
		mu.Lock()
		defer mu.Unlock()
		if len(runs) != total {
			t.Fatalf("%d distinct jobs ran, want %d", len(runs), total)
		}
		for id, n := range runs {
			if n != 1 {
				t.Errorf("job %d ran %d times", id, n)
			}
		}
		if n := count(t, d1, `kind = 'hammer' AND attempt <> 1`); n != 0 {
			t.Errorf("%d jobs took more than one attempt", n)
		}
		t.Logf("queue a ran %d, queue b ran %d", by["a"], by["b"])
	})
}

// A worker that dies mid-job leaves its row running with a lease that
// expires; another worker's rescuer puts it back and it then succeeds.
func TestAbandonedJobIsRescuedAndRetried(t *testing.T) {
	bothEngines(t, func(t *testing.T, d1, d2 *db.DB) {
		id := enqueue(t, d1, "fragile", nil, Opts{})

		cfg := fast(1)
		cfg.Lease = 300 * time.Millisecond
		dead := New(d1, cfg)
		dead.kindList = []string{"fragile"}
		claimed, err := dead.claim(context.Background(), 1)
		if err != nil || len(claimed) != 1 || claimed[0].ID != id || claimed[0].Attempt != 1 {
			t.Fatalf("claim: %+v %v", claimed, err)
		}
		// The claiming process is now "killed": no heartbeat, no result.
		if r := jobRow(t, d1, id); r.State != Running || r.LockedBy != dead.ID() {
			t.Fatalf("after claim: %+v", r)
		}

		cfg.RescueInterval = 50 * time.Millisecond
		live := New(d2, cfg)
		var attempts []int
		var mu sync.Mutex
		live.Handle("fragile", func(ctx context.Context, j Job) error {
			mu.Lock()
			attempts = append(attempts, j.Attempt)
			mu.Unlock()
			return nil
		}, KindOpts{})
		start(t, live)
		waitFor(t, "the rescued job to succeed", 10*time.Second, func() bool { return jobRow(t, d1, id).State == Succeeded })
		r := jobRow(t, d1, id)
		if r.Attempt != 2 || !strings.Contains(r.LastError, "lease expired") {
			t.Fatalf("after rescue: %+v, want attempt 2 and the lease error", r)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(attempts) != 1 || attempts[0] != 2 {
			t.Fatalf("handler saw attempts %v, want [2]", attempts)
		}
		// Succeeded also counts the built-in prune job, so it is not checked.
		if s := live.Stats(); s.Rescued != 1 || s.Dead != 0 {
			t.Fatalf("stats %+v", s)
		}
	})
}

// A job that runs for several leases keeps its claim by heartbeating, so it
// is neither rescued nor run twice.
func TestLongJobHeartbeatsItsLease(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		cfg := fast(1)
		cfg.Lease = 300 * time.Millisecond
		cfg.RescueInterval = 50 * time.Millisecond
		q := New(d, cfg)
		var runs atomic.Int32
		q.Handle("long", func(ctx context.Context, j Job) error {
			runs.Add(1)
			select {
			case <-time.After(1200 * time.Millisecond):
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}, KindOpts{})
		start(t, q)
		id := enqueue(t, d, "long", nil, Opts{})
		waitFor(t, "the long job to succeed", 10*time.Second, func() bool { return jobRow(t, d, id).State == Succeeded })
		if r := jobRow(t, d, id); r.Attempt != 1 || runs.Load() != 1 {
			t.Fatalf("attempt %d, runs %d; want 1 and 1", r.Attempt, runs.Load())
		}
		if s := q.Stats(); s.Rescued != 0 || s.LeaseLost != 0 {
			t.Fatalf("stats %+v", s)
		}
	})
}

func TestFailuresRetryWithBackoffThenDie(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		cfg := fast(1)
		var mu sync.Mutex
		var backoffs []int
		cfg.Backoff = func(attempt int) time.Duration {
			mu.Lock()
			backoffs = append(backoffs, attempt)
			mu.Unlock()
			return 50 * time.Millisecond
		}
		q := New(d, cfg)
		var calls atomic.Int32
		q.Handle("flaky", func(ctx context.Context, j Job) error {
			calls.Add(1)
			if j.Attempt == 2 {
				panic("attempt two panics")
			}
			return fmt.Errorf("upstream said 503 on attempt %d", j.Attempt)
		}, KindOpts{MaxAttempts: 3})
		start(t, q)
		id := enqueue(t, d, "flaky", nil, Opts{}) // max attempts from the kind
		waitFor(t, "the job to die", 10*time.Second, func() bool { return jobRow(t, d, id).State == Dead })
		r := jobRow(t, d, id)
		if r.Attempt != 3 || r.LastError != "upstream said 503 on attempt 3" {
			t.Fatalf("dead row %+v", r)
		}
		if calls.Load() != 3 {
			t.Fatalf("%d calls, want 3", calls.Load())
		}
		mu.Lock()
		defer mu.Unlock()
		if fmt.Sprint(backoffs) != "[1 2]" {
			t.Fatalf("backoff asked for attempts %v, want [1 2]", backoffs)
		}
		if s := q.Stats(); s.Retried != 2 || s.Dead != 1 {
			t.Fatalf("stats %+v", s)
		}
	})
}

func TestRetryWaitsForBackoff(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		cfg := fast(1)
		cfg.Backoff = func(int) time.Duration { return time.Hour }
		q := New(d, cfg)
		q.Handle("later", func(ctx context.Context, j Job) error { return errors.New("not yet") }, KindOpts{})
		start(t, q)
		before := time.Now()
		id := enqueue(t, d, "later", nil, Opts{})
		waitFor(t, "the first failure", 5*time.Second, func() bool { return jobRow(t, d, id).State == Retryable })
		time.Sleep(200 * time.Millisecond)
		r := jobRow(t, d, id)
		if r.State != Retryable || r.Attempt != 1 || r.RunAt < before.Add(time.Hour).UnixMilli() {
			t.Fatalf("row %+v: want retryable, attempt 1, run_at an hour on", r)
		}
	})
}

func TestDefaultBackoffGrowsWithJitterAndCap(t *testing.T) {
	for attempt, want := range map[int]time.Duration{1: 2 * time.Second, 2: 4 * time.Second, 5: 32 * time.Second, 12: time.Hour, 40: time.Hour} {
		for range 50 {
			got := DefaultBackoff(attempt)
			if got < want*8/10 || got > want*12/10 {
				t.Fatalf("attempt %d: %s outside %s ±20%%", attempt, got, want)
			}
		}
	}
	seen := map[time.Duration]bool{}
	for range 20 {
		seen[DefaultBackoff(3)] = true
	}
	if len(seen) < 2 {
		t.Fatal("no jitter")
	}
}

func TestUndecodablePayloadIsDeadAtOnce(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		q := New(d, fast(1))
		type resize struct {
			VideoID int64 `json:"videoId"`
		}
		var calls atomic.Int32
		Register(q, "resize", func(ctx context.Context, j Job, p resize) error {
			calls.Add(1)
			return nil
		}, KindOpts{})
		start(t, q)
		bad := enqueue(t, d, "resize", map[string]string{"videoId": "forty-two"}, Opts{})
		good := enqueue(t, d, "resize", resize{VideoID: 42}, Opts{})
		waitFor(t, "both jobs to finish", 5*time.Second, func() bool {
			return jobRow(t, d, bad).State == Dead && jobRow(t, d, good).State == Succeeded
		})
		r := jobRow(t, d, bad)
		if r.Attempt != 1 || !strings.Contains(r.LastError, "does not decode") {
			t.Fatalf("bad job %+v", r)
		}
		if calls.Load() != 1 {
			t.Fatalf("handler called %d times, want 1 (the good job)", calls.Load())
		}
	})
}

func TestPermanentErrorSkipsRetries(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		q := New(d, fast(1))
		q.Handle("gone", func(ctx context.Context, j Job) error {
			return Permanent(errors.New("video 7 was deleted"))
		}, KindOpts{})
		start(t, q)
		id := enqueue(t, d, "gone", nil, Opts{})
		waitFor(t, "the job to die", 5*time.Second, func() bool { return jobRow(t, d, id).State == Dead })
		if r := jobRow(t, d, id); r.Attempt != 1 || r.LastError != "video 7 was deleted" {
			t.Fatalf("row %+v", r)
		}
	})
}

func TestScheduledJobWaitsForRunAt(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		q := New(d, fast(1))
		ranAt := make(chan time.Time, 1)
		q.Handle("later", func(ctx context.Context, j Job) error { ranAt <- time.Now(); return nil }, KindOpts{})
		start(t, q)
		runAt := time.Now().Add(1500 * time.Millisecond)
		id := enqueue(t, d, "later", nil, Opts{RunAt: runAt})
		time.Sleep(700 * time.Millisecond)
		if r := jobRow(t, d, id); r.State != Available || r.Attempt != 0 {
			t.Fatalf("before run_at: %+v", r)
		}
		select {
		case at := <-ranAt:
			if at.Before(runAt.Truncate(time.Millisecond)) {
				t.Fatalf("ran at %s, before run_at %s", at, runAt)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("scheduled job never ran")
		}
	})
}

func TestRecurringJobIsEnqueuedOncePerPeriodAcrossQueues(t *testing.T) {
	bothEngines(t, func(t *testing.T, d1, d2 *db.DB) {
		var runs atomic.Int32
		var queues []*Queue
		for _, d := range []*db.DB{d1, d2, d1} {
			q := New(d, fast(1))
			q.Handle("report", func(ctx context.Context, j Job) error { runs.Add(1); return nil }, KindOpts{})
			q.Every("daily-report", 24*time.Hour, "report", map[string]string{"scope": "all"})
			queues = append(queues, q)
		}
		for _, q := range queues {
			start(t, q)
		}
		waitFor(t, "the period's job to run", 10*time.Second, func() bool {
			return count(t, d1, `kind = 'report' AND state = 'succeeded'`) == 1
		})
		time.Sleep(200 * time.Millisecond)
		key, _ := periodKey(schedule{name: "daily-report", every: 24 * time.Hour}, time.Now())
		if n := count(t, d1, `kind = 'report' AND unique_key = ?`, key); n != 1 {
			t.Fatalf("%d jobs with key %s, want 1", n, key)
		}
		if n := count(t, d1, `kind = 'report'`); n != 1 || runs.Load() != 1 {
			t.Fatalf("%d report jobs, %d runs; want 1 and 1", n, runs.Load())
		}
		// Every queue schedules the built-in prune too: also once.
		if n := count(t, d1, `kind = ?`, PruneKind); n != 1 {
			t.Fatalf("%d prune jobs, want 1", n)
		}
	})
}

func TestPeriodKeyIsAlignedToThePeriod(t *testing.T) {
	s := schedule{name: "hourly", every: time.Hour}
	a, startA := periodKey(s, time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC))
	b, _ := periodKey(s, time.Date(2026, 5, 1, 10, 59, 59, 0, time.UTC))
	c, _ := periodKey(s, time.Date(2026, 5, 1, 11, 0, 0, 0, time.UTC))
	if a != b || a == c || !startA.Equal(time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("keys %s %s %s, start %s", a, b, c, startA)
	}
}

// Jobs are rows: what one queue leaves behind, the next runs. A shutdown
// whose timeout passes releases running jobs without counting the attempt.
func TestJobsSurviveARestart(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		first := New(d, fast(2))
		started := make(chan struct{}, 10)
		first.Handle("work", func(ctx context.Context, j Job) error {
			started <- struct{}{}
			<-ctx.Done() // stuck until the hard stop cancels it
			return ctx.Err()
		}, KindOpts{})
		var ids []int64
		for i := range 5 {
			ids = append(ids, enqueue(t, d, "work", map[string]int{"n": i}, Opts{}))
		}
		if err := first.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		<-started
		<-started
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		err := first.Stop(ctx)
		cancel()
		if err == nil || !strings.Contains(err.Error(), "2 unfinished jobs released") {
			t.Fatalf("stop: %v", err)
		}
		if n := count(t, d, `kind = 'work' AND state = 'available' AND attempt = 0 AND locked_by = ''`); n != 5 {
			t.Fatalf("%d available untried jobs after stop, want 5", n)
		}
		if s := first.Stats(); s.Released != 2 || s.Running != 0 {
			t.Fatalf("stats %+v", s)
		}

		second := New(d, fast(2))
		var done sync.Map
		second.Handle("work", func(ctx context.Context, j Job) error { done.Store(j.ID, true); return nil }, KindOpts{})
		start(t, second)
		waitFor(t, "the new queue to run every job", 10*time.Second, func() bool {
			return count(t, d, `kind = 'work' AND state = 'succeeded' AND attempt = 1`) == 5
		})
		for _, id := range ids {
			if _, ok := done.Load(id); !ok {
				t.Errorf("job %d not run by the second queue", id)
			}
		}
	})
}

// A shutdown within its timeout lets running jobs finish.
func TestStopWaitsForRunningJobs(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		q := New(d, fast(1))
		started := make(chan struct{})
		q.Handle("slow", func(ctx context.Context, j Job) error {
			close(started)
			time.Sleep(300 * time.Millisecond)
			return nil
		}, KindOpts{})
		id := enqueue(t, d, "slow", nil, Opts{})
		if err := q.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		<-started
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := q.Stop(ctx); err != nil {
			t.Fatal(err)
		}
		if r := jobRow(t, d, id); r.State != Succeeded {
			t.Fatalf("after stop: %+v", r)
		}
		// Stopped means stopped: a new job waits for the next queue.
		id2 := enqueue(t, d, "slow", nil, Opts{})
		time.Sleep(100 * time.Millisecond)
		if r := jobRow(t, d, id2); r.State != Available {
			t.Fatalf("job ran after stop: %+v", r)
		}
	})
}

func TestPruneDeletesOldFinishedJobsInBatches(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Now()
		day := 24 * time.Hour
		insert := func(n int, state State, finishedAgo time.Duration) {
			err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				for range n {
					if _, err := tx.Exec(ctx, `INSERT INTO jobs (kind, payload, state, attempt, max_attempts, run_at, created_at, finished_at)
						VALUES ('old', '{}', ?, 1, 1, 0, 0, ?)`, string(state), now.Add(-finishedAgo).UnixMilli()); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		insert(2500, Succeeded, 8*day) // more than two batches
		insert(3, Succeeded, 6*day)
		insert(4, Dead, 31*day)
		insert(5, Dead, 8*day)
		enqueue(t, d, "pending", nil, Opts{RunAt: now.Add(-60 * day)})

		n, err := Prune(ctx, d, now, 7*day, 30*day)
		if err != nil {
			t.Fatal(err)
		}
		if n != 2504 {
			t.Fatalf("pruned %d, want 2504", n)
		}
		for where, want := range map[string]int{`state = 'succeeded'`: 3, `state = 'dead'`: 5, `state = 'available'`: 1} {
			if got := count(t, d, where); got != want {
				t.Errorf("%s: %d, want %d", where, got, want)
			}
		}
	})
}

func TestDepthCountsStates(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		enqueue(t, d, "a", nil, Opts{})
		enqueue(t, d, "a", nil, Opts{})
		got, err := Depth(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		if got[Available] != 2 || got[Dead] != 0 {
			t.Fatalf("depth %v", got)
		}
	})
}

// Successes are written in batches; each caller still learns whether its
// own row was recorded, and a claim that is no longer ours is not.
func TestSuccessBatchesRecordOnlyOwnClaims(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		for i := range 60 {
			enqueue(t, d, "batch", map[string]int{"i": i}, Opts{})
		}
		q := New(d, fast(1))
		q.kindList = []string{"batch"}
		claimed, err := q.claim(ctx, 60)
		if err != nil || len(claimed) != 60 {
			t.Fatalf("claim: %d %v", len(claimed), err)
		}
		// One claim was rescued and re-claimed elsewhere meanwhile.
		stale := claimed[7]
		if _, err := d.Exec(ctx, `UPDATE jobs SET attempt = 2, locked_by = 'other' WHERE id = ?`, stale.ID); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		got := make([]int64, len(claimed))
		errs := make([]error, len(claimed))
		for i, j := range claimed {
			wg.Go(func() { got[i], errs[i] = q.succeed(ctx, j) })
		}
		wg.Wait()
		for i, j := range claimed {
			want := int64(1)
			if j.ID == stale.ID {
				want = 0
			}
			if errs[i] != nil || got[i] != want {
				t.Errorf("job %d: %d, %v; want %d", j.ID, got[i], errs[i], want)
			}
		}
		if n := count(t, d, `state = 'succeeded'`); n != 59 {
			t.Fatalf("%d succeeded, want 59", n)
		}
		if r := jobRow(t, d, stale.ID); r.State != Running || r.LockedBy != "other" {
			t.Fatalf("stale job %+v", r)
		}
	})
}
