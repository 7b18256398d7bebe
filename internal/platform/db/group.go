package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
)

// Group commit (SQLite).
//
// SQLite has one writer, so write transactions run one after another, and
// most of each one's cost is its commit: writing every page it touched to
// the WAL, one system call per page. When several requests want to write
// at once, the committer runs them in one SQLite transaction instead, each
// inside a SAVEPOINT of its own, and commits once: pages they share (the
// last page of the ledger, an index's) are written once per batch, not
// once per request.
//
// Each request still behaves as its own transaction: its fn's error or
// panic rolls back to its savepoint and reaches only its caller; its
// AfterCommit hooks run, in its caller's goroutine, only once the batch has
// committed. If the batch cannot commit, or a member leaves the transaction
// unusable (an error SQLite answers by rolling back everything), no member
// is told it succeeded: the others get errBatchAborted, which is retryable,
// and Tx runs them again.
//
// fn runs on the committer's goroutine with a ctx that carries the
// caller's values but not its cancellation: on SQLite a cancelled statement
// interrupts the connection, and an interrupted write rolls back the whole
// transaction, which would be every member's. A request whose ctx ends
// while it waits in line is dropped before it runs.

// maxBatch bounds how many requests share one commit.
const maxBatch = 64

var errBatchAborted = errors.New("db: the group transaction was rolled back")

type txRequest struct {
	ctx  context.Context
	fn   func(ctx context.Context, tx *Tx) error
	done chan txOutcome
}

type txOutcome struct {
	err      error
	panicked any
	hooks    []func()
}

type committer struct {
	reqs    chan *txRequest
	stop    chan struct{}
	exit    chan struct{}
	stopped sync.Once
}

// startGroup starts d's committer (SQLite; Open calls it).
func (d *DB) startGroup() {
	d.group = &committer{reqs: make(chan *txRequest), stop: make(chan struct{}), exit: make(chan struct{})}
	go d.commitLoop()
}

// groupTx runs fn through the committer and waits for its outcome.
func (d *DB) groupTx(ctx context.Context, fn func(ctx context.Context, tx *Tx) error) error {
	c := d.group
	req := &txRequest{ctx: ctx, fn: fn, done: make(chan txOutcome, 1)}
	select {
	case c.reqs <- req:
	case <-ctx.Done():
		return ctx.Err()
	case <-c.stop:
		return sql.ErrConnDone
	}
	out := <-req.done
	if out.panicked != nil {
		panic(out.panicked)
	}
	if out.err != nil {
		return out.err
	}
	for _, h := range out.hooks {
		h()
	}
	return nil
}

// SetGroupCommit turns group commit on (the default on SQLite) or off, so
// that a benchmark can measure both in one run. PostgreSQL has none.
func (d *DB) SetGroupCommit(on bool) { d.soloCommits.Store(!on) }

// stopGroup ends the committer once the batch it runs is done (Close).
func (d *DB) stopGroup() {
	if c := d.group; c != nil {
		c.stopped.Do(func() { close(c.stop) }) // Close may be called twice
		<-c.exit
	}
}

func (d *DB) commitLoop() {
	c := d.group
	defer close(c.exit)
	for {
		var first *txRequest
		select {
		case first = <-c.reqs:
		case <-c.stop:
			return
		}
		batch := []*txRequest{first}
	more:
		for len(batch) < maxBatch {
			select {
			case r := <-c.reqs:
				batch = append(batch, r)
			default:
				break more
			}
		}
		d.runBatch(batch)
		d.prepareNoted() // the writer connection is idle now
	}
}

// runBatch runs the requests in one transaction and tells each its outcome.
func (d *DB) runBatch(batch []*txRequest) {
	outs := make([]txOutcome, len(batch))
	ran := make([]bool, len(batch)) // fn ran and its savepoint was released
	deliver := func() {
		for i, r := range batch {
			r.done <- outs[i]
		}
	}
	// abort rolls everything back: members that had succeeded are told the
	// batch failed (retryable), members not run yet likewise.
	abort := func(st *sql.Tx, cause error, from int) {
		if st != nil {
			_ = st.Rollback()
		}
		for i := range batch {
			if ran[i] || i >= from {
				outs[i] = txOutcome{err: fmt.Errorf("%w: %w", errBatchAborted, cause)}
			}
		}
		deliver()
	}
	bg := context.Background()
	st, err := d.write.BeginTx(bg, nil)
	if err != nil {
		for i := range outs {
			outs[i].err = err // busy and the like are retryable as they are
		}
		deliver()
		return
	}
	for i, r := range batch {
		if err := r.ctx.Err(); err != nil {
			outs[i].err = err
			continue
		}
		if _, err := st.ExecContext(bg, "SAVEPOINT grp"); err != nil {
			abort(st, err, i)
			return
		}
		t := &Tx{tx: st, db: d}
		err, panicked := call(r, t)
		t.done.Store(true)
		if err != nil || panicked != nil {
			outs[i] = txOutcome{err: err, panicked: panicked}
			if _, rerr := st.ExecContext(bg, "ROLLBACK TO grp"); rerr != nil {
				// fn left the transaction unusable: SQLite rolled it
				// all back. Its caller keeps its own error.
				abort(st, rerr, i+1)
				return
			}
		}
		if _, err := st.ExecContext(bg, "RELEASE grp"); err != nil {
			abort(st, err, i+1)
			return
		}
		if err == nil && panicked == nil {
			ran[i] = true
			outs[i].hooks = t.hooks
		}
	}
	if err := st.Commit(); err != nil {
		for i := range batch {
			if ran[i] {
				outs[i] = txOutcome{err: fmt.Errorf("%w: commit: %w", errBatchAborted, err)}
			}
		}
	}
	deliver()
}

// call runs one member's fn, turning a panic into a value for its caller.
func call(r *txRequest, t *Tx) (err error, panicked any) {
	defer func() {
		if v := recover(); v != nil {
			panicked = v
		}
	}()
	ctx := context.WithValue(context.WithoutCancel(r.ctx), txKey{t.db}, t)
	return r.fn(ctx, t), nil
}
