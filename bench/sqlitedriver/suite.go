// Package sqlitedriver measures SQLite drivers for Go on the operations Prima
// performs, so the choice of driver rests on numbers from this machine.
//
// It is its own Go module so that the drivers under comparison never become
// dependencies of the prima binary. Two drivers register the same
// database/sql name ("sqlite3"), and sql.Register panics on a duplicate, so
// each driver lives in its own sub-package (modernc, mattn, ncruces) whose
// test calls Run with an Opener; everything measured is here, shared.
//
//	cd bench/sqlitedriver && go test -run '^$' -bench . ./...
package sqlitedriver

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// Opener opens a pool on the SQLite file at path the way Prima's db package
// does: WAL, synchronous=NORMAL, busy_timeout, foreign keys, a 16 MB page
// cache. readOnly pools are opened read-only; writer pools take the write
// lock at BEGIN (BEGIN IMMEDIATE) so a transaction never fails to upgrade.
// Each driver spells these settings differently in its DSN.
type Opener func(path string, readOnly bool) (*sql.DB, error)

// Rows in the benchmark table and sub-modules they are spread over: a
// section of a big catalogue, large enough that the working set is not one
// page and small enough to build in about a second.
const (
	Rows       = 200_000
	SubModules = 50
	pageSize   = 20
)

// schema is the videos table and one listing index of Prima's catalog
// migration (internal/migrations/sqlite/0002_catalog.sql), without the
// foreign keys, which would need the modules table.
const schema = `
CREATE TABLE videos (
    id            INTEGER PRIMARY KEY,
    title         TEXT NOT NULL,
    cover         TEXT NOT NULL DEFAULT '',
    duration      INTEGER NOT NULL DEFAULT 0,
    play_count    BIGINT NOT NULL DEFAULT 0,
    like_count    BIGINT NOT NULL DEFAULT 0,
    module_id     BIGINT NOT NULL,
    sub_module_id BIGINT NOT NULL,
    vip_level     SMALLINT NOT NULL DEFAULT 0,
    coins         BIGINT NOT NULL DEFAULT 0,
    width         INTEGER NOT NULL DEFAULT 0,
    height        INTEGER NOT NULL DEFAULT 0,
    published     SMALLINT NOT NULL DEFAULT 1,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);
CREATE INDEX videos_sub_new ON videos(sub_module_id, created_at DESC, id DESC, duration) WHERE published = 1;
`

// columns are the columns a listing reads (the catalog's videoCols).
const columns = `v.id, v.title, v.cover, v.duration, v.play_count, v.like_count, v.vip_level, v.coins, v.module_id, v.sub_module_id, v.created_at`

// video is one scanned row; every listed column is read so a driver's
// decoding cost is part of what is measured.
type video struct {
	ID                            int64
	Title, Cover                  string
	Duration, PlayCount, LikeCnt  int64
	VipLevel, Coins               int64
	ModuleID, SubModuleID, Create int64
}

func scanVideo(s interface{ Scan(...any) error }, v *video) error {
	return s.Scan(&v.ID, &v.Title, &v.Cover, &v.Duration, &v.PlayCount, &v.LikeCnt,
		&v.VipLevel, &v.Coins, &v.ModuleID, &v.SubModuleID, &v.Create)
}

// PragmaDSN is the file DSN of prima's internal/platform/db, in the _pragma
// and _txlock keys that modernc and ncruces both read.
func PragmaDSN(path string, readOnly bool) string {
	q := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "synchronous(NORMAL)", "foreign_keys(ON)", "cache_size(-16000)"} {
		q.Add("_pragma", p)
	}
	if readOnly {
		q.Set("mode", "ro")
	} else {
		q.Set("_txlock", "immediate")
	}
	return "file:" + path + "?" + q.Encode()
}

// Run builds a database of Rows videos with open and runs every benchmark on
// it as a sub-benchmark of b.
func Run(b *testing.B, open Opener) {
	path := filepath.Join(b.TempDir(), "bench.db")
	w, err := open(path, false)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	checkPragmas(b, w)
	if err := fill(w); err != nil {
		b.Fatal(err)
	}
	r, err := open(path, true)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	readers := max(4, runtime.NumCPU()*2)
	r.SetMaxOpenConns(readers)
	r.SetMaxIdleConns(readers)

	b.Run("PointRead", func(b *testing.B) { loop(b, r, pointReadOnce) })
	b.Run("PointReadParallel", func(b *testing.B) { parallel(b, r, pointReadOnce) })
	b.Run("Page20", func(b *testing.B) { loop(b, r, pageOnce) })
	b.Run("Page20Parallel", func(b *testing.B) { parallel(b, r, pageOnce) })
	b.Run("Page20Offset", func(b *testing.B) { loop(b, r, offsetPageOnce) })
	b.Run("Page20OffsetParallel", func(b *testing.B) { parallel(b, r, offsetPageOnce) })
	b.Run("InsertTx", func(b *testing.B) { insertTx(b, w) })
	b.Run("BulkInsert500", func(b *testing.B) { bulkInsert(b, w) })
}

// checkPragmas fails the benchmark when a driver ignored the DSN settings,
// since a rollback-journal or synchronous=FULL run would not compare.
func checkPragmas(b *testing.B, d *sql.DB) {
	var mode string
	var sync, timeout int
	if err := d.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil {
		b.Fatal(err)
	}
	if err := d.QueryRow(`PRAGMA synchronous`).Scan(&sync); err != nil {
		b.Fatal(err)
	}
	if err := d.QueryRow(`PRAGMA busy_timeout`).Scan(&timeout); err != nil {
		b.Fatal(err)
	}
	if strings.ToLower(mode) != "wal" || sync != 1 || timeout != 10000 {
		b.Fatalf("driver ignored the DSN: journal_mode=%s synchronous=%d busy_timeout=%d, want wal 1 10000", mode, sync, timeout)
	}
}

// fill writes Rows videos spread over SubModules sub-modules in one
// transaction with a prepared multi-row INSERT.
func fill(d *sql.DB) error {
	ctx := context.Background()
	if _, err := d.ExecContext(ctx, schema); err != nil {
		return err
	}
	tx, err := d.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	const batch = 500
	st, err := tx.PrepareContext(ctx, insertSQL(batch))
	if err != nil {
		return err
	}
	args := make([]any, 0, batch*rowArgs)
	for id := int64(1); id <= Rows; id++ {
		args = appendRow(args, id)
		if len(args) == cap(args) {
			if _, err := st.ExecContext(ctx, args...); err != nil {
				return err
			}
			args = args[:0]
		}
	}
	if len(args) > 0 {
		return fmt.Errorf("rows %d not a multiple of batch %d", Rows, batch)
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	_, err = d.ExecContext(ctx, `ANALYZE`)
	return err
}

func insertSQL(rows int) string {
	var sb strings.Builder
	sb.WriteString(`INSERT INTO videos (title, cover, duration, play_count, like_count, module_id, sub_module_id, vip_level, coins, width, height, published, created_at, updated_at) VALUES `)
	for i := range rows {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`(?,?,?,?,?,?,?,?,?,?,?,?,?,?)`)
	}
	return sb.String()
}

// rowArgs is the number of values appendRow adds.
const rowArgs = 14

// appendRow adds the values of video n (ids are assigned by SQLite). Row n
// is in sub-module n%SubModules+1 and was created at 1.7e9+60n.
func appendRow(args []any, n int64) []any {
	sub := n%SubModules + 1
	return append(args, fmt.Sprintf("视频标题 %d 高清完整版", n), fmt.Sprintf("/media/covers/%d.png", n%8),
		60+n*37%3600, n*7919%1_000_000, n*104729%50_000, sub/10+1, sub, n%3, (n%5)*10, 1280, 720, 1,
		1_700_000_000+n*60, 1_700_000_000+n*60)
}

func pointReadOnce(d *sql.DB, rng *rand.Rand) error {
	var v video
	return scanVideo(d.QueryRow(`SELECT `+columns+` FROM videos v WHERE id = ?`, rng.Int64N(Rows)+1), &v)
}

// pageOnce is a moduleVideo page read by keyset, as the catalog does when
// it knows where the previous page ended: an index range from a random
// point of one sub-module, newest first, 20 rows.
func pageOnce(d *sql.DB, rng *rand.Rand) error {
	sub := rng.Int64N(SubModules) + 1
	before := int64(1_700_000_000 + 60*(rng.Int64N(Rows-SubModules*pageSize)+SubModules*pageSize))
	return scanPage(d.Query(`SELECT `+columns+` FROM videos v WHERE sub_module_id = ? AND published = 1 AND (created_at, id) < (?, ?)
		ORDER BY created_at DESC, id DESC LIMIT ?`, sub, before, 0, pageSize))
}

// offsetPageOnce is the catalog's offset page: the skip runs over the
// covering index in a subquery of ids ("deferred join"), one of the first
// 50 pages, then the page's rows are read by id.
func offsetPageOnce(d *sql.DB, rng *rand.Rand) error {
	return scanPage(d.Query(`SELECT `+columns+` FROM videos v JOIN (SELECT id FROM videos WHERE sub_module_id = ? AND published = 1
		ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?) p ON p.id = v.id ORDER BY v.created_at DESC, v.id DESC`,
		rng.Int64N(SubModules)+1, pageSize, rng.IntN(50)*pageSize))
}

func scanPage(rows *sql.Rows, err error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	n := 0
	var v video
	for rows.Next() {
		if err := scanVideo(rows, &v); err != nil {
			return err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if n != pageSize {
		return fmt.Errorf("page had %d rows, want %d", n, pageSize)
	}
	return nil
}

// loop runs op serially: the cost of one call with nothing else running.
func loop(b *testing.B, d *sql.DB, op func(*sql.DB, *rand.Rand) error) {
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		if err := op(d, rng); err != nil {
			b.Fatal(err)
		}
	}
}

// parallel runs op from 8 goroutines per CPU: a server has many more
// requests in flight than cores, and that is where a driver's locking and
// per-call overhead show.
func parallel(b *testing.B, d *sql.DB, op func(*sql.DB, *rand.Rand) error) {
	var seed atomic.Uint64
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		rng := rand.New(rand.NewPCG(seed.Add(1), 99))
		for pb.Next() {
			if err := op(d, rng); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// insertTx is one durable single-row write: BEGIN IMMEDIATE, INSERT, COMMIT,
// as a like or a play-count bump would be.
func insertTx(b *testing.B, d *sql.DB) {
	ctx := context.Background()
	n := int64(Rows)
	for b.Loop() {
		n++
		tx, err := d.BeginTx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.ExecContext(ctx, insertSQL(1), appendRow(nil, n)...); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}

// bulkInsert is one multi-row INSERT of 500 rows in its own transaction, the
// unit of the bench catalogue generator; ns/op divided by 500 is per row.
func bulkInsert(b *testing.B, d *sql.DB) {
	ctx := context.Background()
	const batch = 500
	q := insertSQL(batch)
	args := make([]any, 0, batch*rowArgs)
	n := int64(10 * Rows)
	for b.Loop() {
		args = args[:0]
		for range batch {
			n++
			args = appendRow(args, n)
		}
		tx, err := d.BeginTx(ctx, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}
