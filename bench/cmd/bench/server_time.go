package main

import (
	"context"
	"os"
	"strconv"
	"strings"
	"time"

	"prima/internal/platform/db"
)

// serverClock reads how long the PostgreSQL server processes of the bench
// database have been on a CPU and waiting for one (the first two fields of
// /proc/<pid>/schedstat, in ns), when the server runs on this machine. On
// a shared machine the client's wall time is mostly waiting for a core;
// the server's own CPU time per query is the work the query costs, and its
// run-queue wait says how much of the wall time the load took.
type serverClock struct {
	d    *db.DB
	pids []int
}

// newServerClock is nil when the server's processes cannot be read (SQLite,
// or a server elsewhere).
func newServerClock(ctx context.Context, d *db.DB) *serverClock {
	if d.Engine != db.Postgres {
		return nil
	}
	c := &serverClock{d: d}
	if c.refresh(ctx) != nil || len(c.pids) == 0 {
		return nil
	}
	if _, _, ok := c.read(); !ok {
		return nil
	}
	return c
}

// refresh lists the database's client backends (the pool may have opened
// or closed a connection since the last query).
func (c *serverClock) refresh(ctx context.Context) error {
	pids, err := db.All(ctx, c.d, func(r db.Scanner) (int, error) {
		var p int
		return p, r.Scan(&p)
	}, `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'`)
	c.pids = pids
	return err
}

// read sums the backends' CPU and run-queue wait; ok is false when a
// process could not be read.
func (c *serverClock) read() (run, wait time.Duration, ok bool) {
	ok = true
	for _, p := range c.pids {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(p) + "/schedstat")
		if err != nil {
			ok = false
			continue
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			ok = false
			continue
		}
		r, _ := strconv.ParseInt(f[0], 10, 64)
		w, _ := strconv.ParseInt(f[1], 10, 64)
		run += time.Duration(r)
		wait += time.Duration(w)
	}
	return run, wait, ok
}
