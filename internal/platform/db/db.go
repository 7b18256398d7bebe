// Package db opens SQLite or PostgreSQL behind one small API so that every
// store is written once.
//
// Rules that keep the SQL portable across both engines:
//   - write placeholders as ?; they become $1, $2 ... on PostgreSQL;
//   - times are BIGINT unix seconds (UTC), flags are SMALLINT 0/1, money is BIGINT;
//   - ids are BIGINT; new rows report theirs with RETURNING id (QueryRow
//     sends any statement that is not a plain SELECT to the write pool);
//   - a transaction's statements run on the *Tx it hands out (tx.go);
//   - each engine has its own migration files, applied in version order.
//
// SQLite gets one writer connection and a pool of readers (WAL lets readers
// run beside the writer), so writes queue in Go instead of failing with
// SQLITE_BUSY.
package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Engine names the database engine behind a DB.
type Engine string

const (
	SQLite   Engine = "sqlite"
	Postgres Engine = "postgres"
)

// ErrNotFound is returned by stores when a row asked for does not exist.
var ErrNotFound = errors.New("not found")

// DB is a database handle. Plain SELECTs go to the read pool; writes and
// transactions go to the write pool; on PostgreSQL both are the same pool.
type DB struct {
	Engine Engine
	url    string // what Open was given: pg_dump and the SQLite backup need it
	read   *sql.DB
	write  *sql.DB
	stmts  stmtCache // SQLite reads only; pgx caches statements itself
	// wstmts are SQLite write statements prepared on the writer connection
	// (tx.go, *Prepared writes*); toPrepare are those seen but not yet
	// prepared.
	wstmts    stmtCache
	prepMu    sync.Mutex
	toPrepare map[string]bool
	group     *committer // SQLite: write transactions share commits (group.go)
	// soloCommits turns group commit off (benchmarks compare the two).
	soloCommits atomic.Bool
}

// Open connects to url: a postgres:// URL, or else a SQLite file path.
func Open(ctx context.Context, url string) (*DB, error) {
	if strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://") {
		return openPostgres(ctx, url)
	}
	return openSQLite(ctx, url)
}

func openPostgres(ctx context.Context, url string) (*DB, error) {
	p, err := sql.Open("pgx", url)
	if err != nil {
		return nil, err
	}
	// Idle connections as many as open ones: a smaller idle pool closes
	// connections under load only to open new ones, and each new
	// PostgreSQL session costs a process fork (seen in bench/ as 155 new
	// sessions in 10 s at 32 clients).
	p.SetMaxOpenConns(32)
	p.SetMaxIdleConns(32)
	p.SetConnMaxIdleTime(5 * time.Minute)
	if err := p.PingContext(ctx); err != nil {
		p.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	return &DB{Engine: Postgres, url: url, read: p, write: p}, nil
}

func openSQLite(ctx context.Context, path string) (*DB, error) {
	path = strings.TrimPrefix(path, "sqlite://")
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return nil, err
		}
	}
	// Each connection keeps its own page cache, on top of the operating
	// system's cache of the same file: 8 MB for the one writer, whose
	// index pages a write walks again and again, 4 MB for each reader
	// (readers come 4 or more, and their caches mostly duplicate one
	// another and the OS's). With 16 MB for every connection the
	// moduleVideo bench at 1,000,000 videos peaked at about 245 MB of
	// resident memory, 137 MB with these (bench/README.md, *Memory*).
	dsn := func(cacheKB int) string {
		q := url.Values{}
		for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "synchronous(NORMAL)", "foreign_keys(ON)", fmt.Sprintf("cache_size(-%d)", cacheKB)} {
			q.Add("_pragma", p)
		}
		return "file:" + path + "?" + q.Encode()
	}
	w, err := sql.Open("sqlite", dsn(8000)+"&_txlock=immediate")
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	w.SetConnMaxIdleTime(0)
	// The writer pings first so it creates the file and switches it to WAL
	// before readers open it.
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	r, err := sql.Open("sqlite", dsn(4000)+"&mode=ro")
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(max(4, runtime.NumCPU()*2))
	r.SetMaxIdleConns(max(4, runtime.NumCPU()*2))
	d := &DB{Engine: SQLite, url: path, read: r, write: w}
	d.startGroup()
	return d, nil
}

// Close closes both pools.
func (d *DB) Close() error {
	d.stopGroup()
	d.wstmts.close()
	d.stmts.close()
	err := d.write.Close()
	if d.read != d.write {
		err = errors.Join(err, d.read.Close())
	}
	return err
}

// Ping checks that the database answers, for health checks.
func (d *DB) Ping(ctx context.Context) error {
	if err := d.write.PingContext(ctx); err != nil {
		return err
	}
	var one int
	return d.read.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}

// Querier is what a store function needs: a DB or a Tx. A store takes the
// handle it is given and never reaches for another one, so a service can
// compose several stores into one transaction.
type Querier interface {
	Query(ctx context.Context, q string, args ...any) (*sql.Rows, error)
	QueryRow(ctx context.Context, q string, args ...any) *sql.Row
	Exec(ctx context.Context, q string, args ...any) (sql.Result, error)
}

// Query runs q: a plain read on the read pool, anything else (a write with
// RETURNING, SELECT ... FOR UPDATE) on the write pool.
func (d *DB) Query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	d.outsideTx(ctx)
	if !isRead(q) {
		return d.write.QueryContext(ctx, d.rebind(q), args...)
	}
	if st := d.readStmt(q); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return d.read.QueryContext(ctx, d.rebind(q), args...)
}

// QueryRow runs a single-row q, routed as Query routes it, so
// INSERT ... RETURNING works on a DB as it does on a Tx.
func (d *DB) QueryRow(ctx context.Context, q string, args ...any) *sql.Row {
	d.outsideTx(ctx)
	if !isRead(q) {
		return d.write.QueryRowContext(ctx, d.rebind(q), args...)
	}
	if st := d.readStmt(q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return d.read.QueryRowContext(ctx, d.rebind(q), args...)
}

// isRead reports whether q is a statement the read pool can run: a SELECT
// (not one that locks rows), VALUES or EXPLAIN. Everything else writes, or
// may: it goes to the write pool, whose SQLite connection is not read-only.
func isRead(q string) bool {
	q = strings.TrimLeft(q, " \t\r\n(")
	word := q
	if i := strings.IndexAny(q, " \t\r\n("); i >= 0 {
		word = q[:i]
	}
	switch strings.ToUpper(word) {
	case "SELECT":
		return !containsFold(q, "FOR UPDATE") && !containsFold(q, "FOR SHARE")
	case "VALUES", "EXPLAIN":
		return true
	}
	return false
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToUpper(s), sub)
}

// readStmt is the cached prepared statement for a SQLite read, or nil to
// run q unprepared. Parsing SQL was 14% of the server's CPU on the
// moduleVideo benchmark; database/sql prepares a cached *sql.Stmt once per
// connection and reuses it.
func (d *DB) readStmt(q string) *sql.Stmt {
	if d.Engine != SQLite {
		return nil
	}
	return d.stmts.get(d.read, q)
}

// stmtCache holds prepared statements by query text. Queries are constants
// or built from a bounded set of shapes (IN lists up to a page), and the
// cache stops growing at maxStmts so a caller that builds unbounded SQL
// costs only the cache's benefit, never memory.
type stmtCache struct {
	mu sync.RWMutex
	m  map[string]*sql.Stmt
}

const maxStmts = 512

func (c *stmtCache) get(pool *sql.DB, q string) *sql.Stmt {
	c.mu.RLock()
	st, ok := c.m[q]
	c.mu.RUnlock()
	if ok {
		return st
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.m[q]; ok {
		return st
	}
	if len(c.m) >= maxStmts {
		return nil
	}
	// Prepared without the request's context: the statement outlives it.
	st, err := pool.PrepareContext(context.Background(), q)
	if err != nil {
		return nil // the unprepared path reports the error
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[q] = st
	return st
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.m {
		st.Close()
	}
	c.m = nil
}

// Exec runs a write on the write pool.
func (d *DB) Exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	d.outsideTx(ctx)
	return d.write.ExecContext(ctx, d.rebind(q), args...)
}

var rebound sync.Map // query text -> postgres form; queries are constants, so this stays small

// rebind turns ? placeholders into $n on PostgreSQL, leaving quoted text alone.
func (d *DB) rebind(q string) string {
	if d.Engine != Postgres || !strings.Contains(q, "?") {
		return q
	}
	if v, ok := rebound.Load(q); ok {
		return v.(string)
	}
	var b strings.Builder
	b.Grow(len(q) + 8)
	n, quoted := 0, false
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'':
			quoted = !quoted
			b.WriteByte(c)
		case c == '?' && !quoted:
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	s := b.String()
	rebound.Store(q, s)
	return s
}

// IsUnique reports whether err is a unique or primary-key violation.
func IsUnique(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "23505"
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// IsForeignKey reports whether err is a foreign-key violation: a row still
// referenced from another table, or a reference to a row that is gone.
func IsForeignKey(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "23503"
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY
	}
	return false
}

// NotFound maps sql.ErrNoRows to ErrNotFound and leaves other errors alone.
func NotFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNotFound
	}
	return err
}
