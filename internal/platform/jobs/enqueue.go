// Package jobs is Prima's background job queue, stored in the database
// beside the data it works on.
//
// A domain enqueues inside its own transaction (Enqueue with the *db.Tx it
// was given), so a job exists exactly when the change that asked for it
// committed. Workers claim jobs with a lease (locked_until) that they renew
// while a job runs; a job whose worker died is returned to the queue by the
// rescuer once its lease expires. Delivery is therefore at least once:
// handlers must be idempotent. Failures retry with exponential backoff and
// jitter up to max_attempts, then the job is dead with its last error.
//
// PostgreSQL workers claim with FOR UPDATE SKIP LOCKED, so any number of
// processes share one queue. SQLite claims through its single writer
// connection (BEGIN IMMEDIATE), which serialises claims the same way.
package jobs

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"prima/internal/platform/db"
)

// State is where a job is in its life; see the jobs migration for each.
type State string

const (
	Available State = "available"
	Retryable State = "retryable"
	Running   State = "running"
	Succeeded State = "succeeded"
	Dead      State = "dead"
)

// DefaultMaxAttempts is how often a job is tried when neither the
// enqueuer nor the kind says otherwise. With the default backoff (2 s
// doubling to a 1 h cap) twenty attempts span about ten hours, long enough
// to ride out an outage of whatever the job talks to.
const DefaultMaxAttempts = 20

// Opts are the optional parts of an enqueue.
type Opts struct {
	// RunAt delays the job; zero means now.
	RunAt time.Time
	// MaxAttempts overrides the kind's default (DefaultMaxAttempts).
	MaxAttempts int
	// UniqueKey de-duplicates: while a job with the same key exists (in
	// any state, until it is pruned), enqueueing another does nothing.
	// Put a period or version in the key when the same work may recur.
	UniqueKey string
}

// Enqueued reports what Enqueue did.
type Enqueued struct {
	ID int64
	// Duplicate is true when UniqueKey matched an existing job; ID is then
	// that job's id and nothing was inserted.
	Duplicate bool
}

// ErrInvalid wraps enqueue arguments that can never succeed.
var ErrInvalid = errors.New("jobs: invalid enqueue")

// MaxPayload bounds a payload: jobs carry ids and small parameters, not
// data, which belongs in its own table or the blob store.
const MaxPayload = 64 << 10

// Enqueue adds a job of kind with payload (marshalled as JSON) through q,
// normally the caller's transaction, so the job commits or rolls back with
// the business change. When q is a transaction, workers in this process are
// woken after it commits, so the job starts without waiting for a poll.
func Enqueue(ctx context.Context, q db.Querier, kind string, payload any, opts Opts) (Enqueued, error) {
	if kind == "" {
		return Enqueued{}, fmt.Errorf("%w: empty kind", ErrInvalid)
	}
	if opts.MaxAttempts < 0 {
		return Enqueued{}, fmt.Errorf("%w: max attempts %d", ErrInvalid, opts.MaxAttempts)
	}
	body, err := encodePayload(payload)
	if err != nil {
		return Enqueued{}, err
	}
	maxAttempts := opts.MaxAttempts
	if maxAttempts == 0 {
		maxAttempts = defaultAttempts(kind)
	}
	now := time.Now()
	runAt := opts.RunAt
	if runAt.IsZero() {
		runAt = now
	}
	var key any
	if opts.UniqueKey != "" {
		key = opts.UniqueKey
	}
	var id int64
	// ON CONFLICT DO NOTHING rather than catching the unique violation:
	// on PostgreSQL a failed statement aborts the caller's transaction.
	err = q.QueryRow(ctx, `INSERT INTO jobs (kind, payload, state, attempt, max_attempts, run_at, unique_key, created_at)
		VALUES (?, ?, 'available', 0, ?, ?, ?, ?)
		ON CONFLICT (unique_key) DO NOTHING RETURNING id`,
		kind, string(body), maxAttempts, runAt.UnixMilli(), key, now.UnixMilli()).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		err = q.QueryRow(ctx, `SELECT id FROM jobs WHERE unique_key = ?`, opts.UniqueKey).Scan(&id)
		if err != nil {
			return Enqueued{}, fmt.Errorf("jobs: duplicate %q: %w", opts.UniqueKey, err)
		}
		return Enqueued{ID: id, Duplicate: true}, nil
	}
	if err != nil {
		return Enqueued{}, fmt.Errorf("jobs: enqueue %s: %w", kind, err)
	}
	counters.enqueued.Add(1)
	if tx, ok := q.(interface{ AfterCommit(func()) }); ok {
		tx.AfterCommit(wakeLocal)
	} else {
		wakeLocal()
	}
	return Enqueued{ID: id}, nil
}

// EnqueueNow is Enqueue in a transaction of its own, for callers that have
// no business change to tie the job to. A ctx that already carries a
// transaction of d joins it instead.
func EnqueueNow(ctx context.Context, d *db.DB, kind string, payload any, opts Opts) (Enqueued, error) {
	var res Enqueued
	err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		res, err = Enqueue(ctx, tx, kind, payload, opts)
		return err
	})
	return res, err
}

func encodePayload(payload any) ([]byte, error) {
	var body []byte
	switch p := payload.(type) {
	case nil:
		body = []byte("{}")
	case json.RawMessage:
		body = p
	default:
		b, err := json.Marshal(payload)
		if err != nil {
			return nil, fmt.Errorf("%w: payload: %v", ErrInvalid, err)
		}
		body = b
	}
	if !json.Valid(body) {
		return nil, fmt.Errorf("%w: payload is not JSON", ErrInvalid)
	}
	if len(body) > MaxPayload {
		return nil, fmt.Errorf("%w: payload of %d bytes is over %d", ErrInvalid, len(body), MaxPayload)
	}
	return body, nil
}

// Kind defaults set by Register; Enqueue reads them so an enqueuer need not
// know how often a kind should be tried.
var kindAttempts sync.Map // kind -> int

func defaultAttempts(kind string) int {
	if v, ok := kindAttempts.Load(kind); ok {
		return v.(int)
	}
	return DefaultMaxAttempts
}

// local is every started queue of this process. Enqueue wakes them all after
// a commit: a queue on another database merely polls once for nothing.
var local struct {
	mu sync.Mutex
	qs map[*Queue]struct{}
}

func wakeLocal() {
	local.mu.Lock()
	defer local.mu.Unlock()
	for q := range local.qs {
		q.poke()
	}
}

func addLocal(q *Queue) {
	local.mu.Lock()
	defer local.mu.Unlock()
	if local.qs == nil {
		local.qs = map[*Queue]struct{}{}
	}
	local.qs[q] = struct{}{}
}

func removeLocal(q *Queue) {
	local.mu.Lock()
	defer local.mu.Unlock()
	delete(local.qs, q)
}
