package db_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// counters makes a small table of named counters for the transaction tests.
func counters(t *testing.T, d *db.DB, names ...string) {
	t.Helper()
	ctx := context.Background()
	if _, err := d.Exec(ctx, `CREATE TABLE tx_counters (name TEXT PRIMARY KEY, n BIGINT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if _, err := d.Exec(ctx, `INSERT INTO tx_counters (name, n) VALUES (?, 0)`, n); err != nil {
			t.Fatal(err)
		}
	}
}

func counter(t *testing.T, d *db.DB, name string) int64 {
	t.Helper()
	var n int64
	if err := d.QueryRow(context.Background(), `SELECT n FROM tx_counters WHERE name = ?`, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func mustPanic(t *testing.T, what string, fn func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", what)
		}
	}()
	fn()
}

func TestDBMethodsInsideTheirTransactionPanic(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		counters(t, d, "a")
		ctx := context.Background()
		err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			mustPanic(t, "DB.Exec", func() { _, _ = d.Exec(ctx, `UPDATE tx_counters SET n = 1`) })
			mustPanic(t, "DB.QueryRow", func() { d.QueryRow(ctx, `SELECT n FROM tx_counters`) })
			mustPanic(t, "DB.Query", func() { _, _ = d.Query(ctx, `SELECT n FROM tx_counters`) })
			_, err := tx.Exec(ctx, `UPDATE tx_counters SET n = 2 WHERE name = 'a'`)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if n := counter(t, d, "a"); n != 2 {
			t.Fatalf("n = %d, want 2", n)
		}
	})
}

func TestNestedTxJoinsAndHooksRunAfterCommit(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		counters(t, d, "a")
		ctx := context.Background()
		var ran []string
		err := d.Tx(ctx, func(ctx context.Context, outer *db.Tx) error {
			outer.AfterCommit(func() { ran = append(ran, "outer") })
			return d.Tx(ctx, func(ctx context.Context, inner *db.Tx) error {
				if inner != outer {
					t.Error("nested Tx opened a second transaction")
				}
				inner.AfterCommit(func() {
					ran = append(ran, "inner")
					// After commit the ctx's transaction is over: the DB is usable again.
					if _, err := d.Exec(ctx, `UPDATE tx_counters SET n = n + 10 WHERE name = 'a'`); err != nil {
						t.Error(err)
					}
				})
				if len(ran) != 0 {
					t.Error("a hook ran before commit")
				}
				_, err := inner.Exec(ctx, `UPDATE tx_counters SET n = n + 1 WHERE name = 'a'`)
				return err
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(ran, ",") != "outer,inner" {
			t.Fatalf("hooks ran %v", ran)
		}
		if n := counter(t, d, "a"); n != 11 {
			t.Fatalf("n = %d, want 11", n)
		}

		// An error from the nested call rolls the whole transaction back and
		// drops every hook.
		boom := errors.New("boom")
		ran = nil
		err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			tx.AfterCommit(func() { ran = append(ran, "rolled back") })
			if _, err := tx.Exec(ctx, `UPDATE tx_counters SET n = 100 WHERE name = 'a'`); err != nil {
				return err
			}
			return d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error { return boom })
		})
		if !errors.Is(err, boom) || len(ran) != 0 || counter(t, d, "a") != 11 {
			t.Fatalf("err %v, hooks %v, n %d", err, ran, counter(t, d, "a"))
		}
	})
}

func TestPanicRollsBack(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		counters(t, d, "a")
		ctx := context.Background()
		mustPanic(t, "fn", func() {
			_ = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				_, _ = tx.Exec(ctx, `UPDATE tx_counters SET n = 5`)
				panic("bug")
			})
		})
		if n := counter(t, d, "a"); n != 0 {
			t.Fatalf("a panicking transaction committed: n = %d", n)
		}
		// The write connection was returned: the next transaction runs.
		if err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := tx.Exec(ctx, `UPDATE tx_counters SET n = 1`)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	})
}

// TestForUpdateStopsLostUpdates runs read-modify-write increments from many
// goroutines. Without the row lock, PostgreSQL's read committed isolation
// lets two transactions read the same value and one increment is lost.
func TestForUpdateStopsLostUpdates(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		counters(t, d, "a")
		ctx := context.Background()
		const workers, each = 8, 10
		var wg sync.WaitGroup
		errs := make(chan error, workers*each)
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < each; i++ {
					errs <- d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
						var n int64
						if err := tx.QueryRow(ctx, `SELECT n FROM tx_counters WHERE name = 'a'`+tx.ForUpdate()).Scan(&n); err != nil {
							return err
						}
						_, err := tx.Exec(ctx, `UPDATE tx_counters SET n = ? WHERE name = 'a'`, n+1)
						return err
					})
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		if n := counter(t, d, "a"); n != workers*each {
			t.Fatalf("n = %d after %d increments", n, workers*each)
		}
	})
}

// TestDeadlockIsRetried makes two PostgreSQL transactions lock two rows in
// opposite orders. PostgreSQL aborts one with 40P01; Tx runs it again and
// both increments land, with each commit hook run once.
func TestDeadlockIsRetried(t *testing.T) {
	d := dbtest.Open(t, db.Postgres)
	counters(t, d, "a", "b")
	ctx := context.Background()
	var attempts, hooks atomic.Int32
	firstLocked := make(chan struct{}, 2)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, order := range [][2]string{{"a", "b"}, {"b", "a"}} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				n := attempts.Add(1)
				tx.AfterCommit(func() { hooks.Add(1) })
				if _, err := tx.Exec(ctx, `UPDATE tx_counters SET n = n + 1 WHERE name = ?`, order[0]); err != nil {
					return err
				}
				if n <= 2 {
					// First attempts: wait until both hold their first row.
					firstLocked <- struct{}{}
					for len(firstLocked) < 2 {
						_ = ctx.Err()
					}
				}
				_, err := tx.Exec(ctx, `UPDATE tx_counters SET n = n + 1 WHERE name = ?`, order[1])
				return err
			})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("a deadlocked transaction was not retried: %v", err)
		}
	}
	if attempts.Load() < 3 {
		t.Fatalf("%d attempts: no deadlock happened, the test proves nothing", attempts.Load())
	}
	if hooks.Load() != 2 {
		t.Fatalf("%d commit hooks ran, want 2", hooks.Load())
	}
	if a, b := counter(t, d, "a"), counter(t, d, "b"); a != 2 || b != 2 {
		t.Fatalf("a=%d b=%d, want 2 and 2", a, b)
	}
}

func TestAll(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		counters(t, d, "x", "y", "z")
		ctx := context.Background()
		scan := func(s db.Scanner) (string, error) {
			var name string
			var n int64
			err := s.Scan(&name, &n)
			return name, err
		}
		got, err := db.All(ctx, d, scan, `SELECT name, n FROM tx_counters WHERE name <> ? ORDER BY name`, "y")
		if err != nil || strings.Join(got, ",") != "x,z" {
			t.Fatalf("%v %v", got, err)
		}
		// A scan error is reported, not swallowed.
		bad := func(s db.Scanner) (string, error) {
			var a, b, c string
			return a, s.Scan(&a, &b, &c)
		}
		if _, err := db.All(ctx, d, bad, `SELECT name, n FROM tx_counters`); err == nil {
			t.Fatal("a failing scan returned no error")
		}
	})
}

func TestIsRead(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		counters(t, d, "a")
		ctx := context.Background()
		// Writes with RETURNING through QueryRow reach the write pool (the
		// SQLite read pool is read-only and would refuse them).
		var n int64
		if err := d.QueryRow(ctx, `UPDATE tx_counters SET n = n + 1 WHERE name = ? RETURNING n`, "a").Scan(&n); err != nil || n != 1 {
			t.Fatalf("UPDATE RETURNING on DB: %d %v", n, err)
		}
		if err := d.QueryRow(ctx, `  insert INTO tx_counters (name, n) VALUES ('b', 7) RETURNING n`).Scan(&n); err != nil || n != 7 {
			t.Fatalf("lowercase INSERT RETURNING: %d %v", n, err)
		}
		rows, err := d.Query(ctx, `DELETE FROM tx_counters WHERE name = 'b' RETURNING name`)
		if err != nil {
			t.Fatal(err)
		}
		rows.Close()
	})
}

// Group commit (SQLite): transactions that wait together share one commit,
// yet each keeps its own outcome: a failing or panicking member rolls back
// only its own writes, hooks run only for members that committed, and
// closing the database twice is harmless.
func TestGroupCommitKeepsEachOutcome(t *testing.T) {
	d := dbtest.Open(t, db.SQLite)
	ctx := context.Background()
	if _, err := d.Exec(ctx, `CREATE TABLE g (id INTEGER PRIMARY KEY, v INTEGER NOT NULL UNIQUE)`); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var hooks atomic.Int64
	errs := make([]error, 60)
	panics := make([]any, 60)
	for i := range 60 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { panics[i] = recover() }()
			errs[i] = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				if _, err := tx.Exec(ctx, `INSERT INTO g (v) VALUES (?)`, i); err != nil {
					return err
				}
				tx.AfterCommit(func() { hooks.Add(1) })
				switch i % 3 {
				case 1:
					return errors.New("refused")
				case 2:
					if i%6 == 2 {
						panic("member panics")
					}
					// A constraint error inside a member (its own row
					// again): the member fails, its first row goes too.
					_, err := tx.Exec(ctx, `INSERT INTO g (v) VALUES (?)`, i)
					return err
				}
				return nil
			})
		}()
	}
	wg.Wait()
	var n int64
	if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM g`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	want := 0
	for i := range 60 {
		switch {
		case i%3 == 0:
			if errs[i] != nil || panics[i] != nil {
				t.Errorf("member %d: %v %v", i, errs[i], panics[i])
			}
			want++
		case i%3 == 1:
			if errs[i] == nil || errs[i].Error() != "refused" {
				t.Errorf("member %d: %v", i, errs[i])
			}
		case i%6 == 2:
			if panics[i] != "member panics" {
				t.Errorf("member %d: panic %v", i, panics[i])
			}
		default:
			if errs[i] == nil && panics[i] == nil {
				t.Errorf("member %d inserted a duplicate", i)
			}
		}
	}
	if n != int64(want) || hooks.Load() != int64(want) {
		t.Fatalf("%d rows, %d hooks; want %d of each", n, hooks.Load(), want)
	}
	d.Close()
	d.Close()
	if err := d.Tx(ctx, func(context.Context, *db.Tx) error { return nil }); err == nil {
		t.Fatal("a transaction on a closed database succeeded")
	}
}

// Write statements are prepared between transactions (tx.go, *Prepared
// writes*): concurrent transactions, with group commit and without, must
// neither wait on each other forever nor write wrongly once their
// statements are prepared.
func TestPreparedWritesUnderConcurrency(t *testing.T) {
	for _, group := range []bool{true, false} {
		d := dbtest.Open(t, db.SQLite)
		d.SetGroupCommit(group)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		if _, err := d.Exec(ctx, `CREATE TABLE p (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)`); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 50 {
					err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
						var id int64
						if err := tx.QueryRow(ctx, `INSERT INTO p (n) VALUES (?) RETURNING id`, w*1000+i).Scan(&id); err != nil {
							return err
						}
						_, err := tx.Exec(ctx, `UPDATE p SET n = n + 1 WHERE id = ?`, id)
						return err
					})
					if err != nil {
						t.Errorf("group %v: %v", group, err)
						return
					}
				}
			}()
		}
		wg.Wait()
		var rows, sum int64
		if err := d.QueryRow(ctx, `SELECT COUNT(*), SUM(n) FROM p`).Scan(&rows, &sum); err != nil {
			t.Fatal(err)
		}
		// 8 writers x 50 rows, each n = w*1000+i+1.
		if want := int64(50*28000 + 8*1275); rows != 400 || sum != want {
			t.Errorf("group %v: %d rows summing %d, want 400 and %d", group, rows, sum, want)
		}
		cancel()
	}
}
