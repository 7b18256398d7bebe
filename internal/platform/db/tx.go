package db

import (
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Transactions.
//
// d.Tx(ctx, fn) hands fn a *Tx and a ctx that carries it. Three rules make
// the wrong thing loud instead of silently wrong:
//
//   - A store runs its statements on the handle it is given. Calling a *DB
//     method with a ctx that carries an open transaction of the same DB
//     panics: on SQLite that call would wait for the one writer connection
//     the transaction holds until its context expires, and on PostgreSQL it
//     would run outside the transaction and see none of its writes.
//   - d.Tx with a ctx that already carries one of d's transactions joins it:
//     fn runs inside, and the outermost call commits. A service can call
//     another service's transactional method from inside its own.
//   - A serialization failure or deadlock (PostgreSQL 40001, 40P01) or a busy
//     SQLite file re-runs the whole of fn, up to maxAttempts times. fn must
//     therefore have no effects outside the database except through
//     AfterCommit, which runs only once the commit has succeeded.

// maxAttempts bounds how often a transaction that lost a race is re-run.
const maxAttempts = 5

type txKey struct{ d *DB }

// Tx is a transaction; all its statements run on one connection.
type Tx struct {
	tx    *sql.Tx
	db    *DB
	hooks []func()
	once  map[string]bool // keys of AfterCommitOnce hooks already registered
	done  atomic.Bool
}

// Tx runs fn in a transaction on the write pool, committing when fn returns
// nil and rolling back otherwise (also when fn panics). See the rules above.
func (d *DB) Tx(ctx context.Context, fn func(ctx context.Context, tx *Tx) error) error {
	if t := d.openTx(ctx); t != nil {
		return fn(ctx, t)
	}
	if d.Engine == SQLite && d.soloCommits.Load() {
		defer d.prepareNoted()
	}
	for attempt := 1; ; attempt++ {
		err := d.runTx(ctx, fn)
		if err == nil || !IsRetryable(err) || attempt == maxAttempts {
			return err
		}
		// Back off with jitter so the racers do not collide again in step.
		wait := time.Duration(attempt*attempt)*5*time.Millisecond + rand.N(5*time.Millisecond)
		select {
		case <-ctx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

func (d *DB) runTx(ctx context.Context, fn func(ctx context.Context, tx *Tx) error) (err error) {
	if d.group != nil && !d.soloCommits.Load() {
		return d.groupTx(ctx, fn)
	}
	st, err := d.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	t := &Tx{tx: st, db: d}
	defer func() {
		if v := recover(); v != nil {
			t.done.Store(true)
			_ = st.Rollback()
			panic(v)
		}
	}()
	if err := fn(context.WithValue(ctx, txKey{d}, t), t); err != nil {
		t.done.Store(true)
		_ = st.Rollback()
		return err
	}
	t.done.Store(true)
	if err := st.Commit(); err != nil {
		return err
	}
	for _, h := range t.hooks {
		h()
	}
	return nil
}

// openTx is the still-open transaction of d that ctx carries, or nil.
func (d *DB) openTx(ctx context.Context) *Tx {
	t, _ := ctx.Value(txKey{d}).(*Tx)
	if t == nil || t.done.Load() {
		return nil
	}
	return t
}

// outsideTx panics when ctx carries an open transaction of d: the caller
// holds a *Tx and must use it (see the rules above).
func (d *DB) outsideTx(ctx context.Context) {
	if d.openTx(ctx) != nil {
		panic("db: a *DB method was called inside one of its transactions; run the statement on the *db.Tx instead")
	}
}

// AfterCommit registers fn to run once the outermost transaction commits,
// in registration order. It is dropped when the transaction rolls back or
// is re-run after a conflict. Use it for anything the database cannot take
// back: waking job workers, publishing realtime events, invalidating caches.
func (t *Tx) AfterCommit(fn func()) { t.hooks = append(t.hooks, fn) }

// AfterCommitOnce is AfterCommit for a hook that should run once however
// many parts of one transaction register it: the first registration under
// key runs, later ones are dropped. A check-in that grants points and coins
// tells the user's apps once that their wallet changed, not twice.
func (t *Tx) AfterCommitOnce(key string, fn func()) {
	if t.once[key] {
		return
	}
	if t.once == nil {
		t.once = map[string]bool{}
	}
	t.once[key] = true
	t.AfterCommit(fn)
}

// ForUpdate is the row-lock suffix for a SELECT inside a transaction:
// " FOR UPDATE" on PostgreSQL. On SQLite it is empty because every write
// transaction starts with BEGIN IMMEDIATE, which already serialises writers.
func (t *Tx) ForUpdate() string {
	if t.db.Engine == Postgres {
		return " FOR UPDATE"
	}
	return ""
}

func (t *Tx) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if st := t.db.writeStmt(q); st != nil {
		return t.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, t.db.rebind(q), args...)
}

func (t *Tx) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	if st := t.db.writeStmt(q); st != nil {
		return t.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, t.db.rebind(q), args...)
}

func (t *Tx) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if st := t.db.writeStmt(q); st != nil {
		return t.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, t.db.rebind(q), args...)
}

// Prepared writes (SQLite). Parsing SQL was a fifth of a purchase's CPU.
// database/sql reuses a statement prepared on the connection a transaction
// runs on (Tx.StmtContext), but preparing one needs that connection free,
// and inside a transaction the single writer connection is not: asking
// for it there would wait forever. So a statement first runs unprepared
// and is noted; once the transaction is over (between group batches, or
// after a commit), prepareNoted prepares the noted ones on the idle writer
// connection, and later transactions reuse them.

// writeStmt is q prepared on the writer connection, or nil (noting q).
func (d *DB) writeStmt(q string) *sql.Stmt {
	if d.Engine != SQLite {
		return nil
	}
	d.wstmts.mu.RLock()
	st := d.wstmts.m[q]
	d.wstmts.mu.RUnlock()
	if st != nil {
		return st
	}
	d.prepMu.Lock()
	if d.toPrepare == nil {
		d.toPrepare = map[string]bool{}
	}
	if len(d.toPrepare) < maxStmts {
		d.toPrepare[q] = true
	}
	d.prepMu.Unlock()
	return nil
}

// prepareNoted prepares the statements writeStmt noted. Call it with no
// transaction of d open in this goroutine.
func (d *DB) prepareNoted() {
	d.prepMu.Lock()
	qs := d.toPrepare
	d.toPrepare = nil
	d.prepMu.Unlock()
	for q := range qs {
		// Prepared outside the cache's lock: a transaction holding the
		// writer connection may be reading the cache meanwhile, and this
		// waits for that connection.
		st, err := d.write.PrepareContext(context.Background(), q)
		if err != nil {
			continue // the unprepared path reports errors
		}
		c := &d.wstmts
		c.mu.Lock()
		if _, ok := c.m[q]; ok || len(c.m) >= maxStmts {
			st.Close()
		} else {
			if c.m == nil {
				c.m = map[string]*sql.Stmt{}
			}
			c.m[q] = st
		}
		c.mu.Unlock()
	}
}

// Engine of the transaction's database, for the rare dialect-specific query.
func (t *Tx) Engine() Engine { return t.db.Engine }

// IsRetryable reports whether err means the transaction lost a race and
// running it again may succeed: a serialization failure or deadlock on
// PostgreSQL, a busy or locked database on SQLite.
func IsRetryable(err error) bool {
	if errors.Is(err, errBatchAborted) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "40001" || pe.Code == "40P01"
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		primary := se.Code() & 0xff
		return primary == sqlite3.SQLITE_BUSY || primary == sqlite3.SQLITE_LOCKED
	}
	return false
}

// Scanner is a row being read: *sql.Row or *sql.Rows.
type Scanner interface{ Scan(dest ...any) error }

// All runs a query and scans every row with scan, closing the rows and
// reporting the first error of the query, a scan or the iteration. No rows
// is an empty slice, not nil, so a JSON list says [] rather than null.
func All[T any](ctx context.Context, q Querier, scan func(Scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
