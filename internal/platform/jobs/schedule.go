package jobs

import (
	"context"
	"fmt"
	"time"

	"prima/internal/platform/db"
)

type schedule struct {
	name    string
	every   time.Duration
	kind    string
	payload any
}

// Every enqueues a job of kind once per period of length every, aligned to
// the unix epoch (an hourly job is due on the hour). Each period's job has
// the unique key "every:<name>:<period start>", so however many processes
// run the same schedule, the period gets one job. A process that starts
// mid-period enqueues the current period's job at once if nobody has, so
// a schedule is not skipped by a restart. Register schedules before Start.
func (q *Queue) Every(name string, every time.Duration, kind string, payload any) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.started {
		panic("jobs: Every after Start")
	}
	if every < time.Second {
		panic("jobs: schedule " + name + " shorter than a second")
	}
	q.every = append(q.every, schedule{name: name, every: every, kind: kind, payload: payload})
}

// periodKey is the unique key of schedule s's job for the period holding t,
// and that period's start.
func periodKey(s schedule, t time.Time) (string, time.Time) {
	start := t.Truncate(s.every)
	return fmt.Sprintf("every:%s:%d", s.name, start.Unix()), start
}

func (q *Queue) scheduleLoop() {
	defer q.loops.Done()
	if len(q.every) == 0 {
		return
	}
	for {
		now := time.Now()
		next := now.Add(24 * time.Hour)
		for _, s := range q.every {
			if err := q.enqueuePeriod(q.base, s, now); err != nil {
				q.log.Error("enqueueing recurring job", "schedule", s.name, "err", err)
				// Try again soon rather than waiting a whole period.
				next = now.Add(min(s.every, 30*time.Second))
				continue
			}
			_, start := periodKey(s, now)
			next = minTime(next, start.Add(s.every))
		}
		t := time.NewTimer(time.Until(next))
		select {
		case <-q.stopping:
			t.Stop()
			return
		case <-t.C:
		}
	}
}

func (q *Queue) enqueuePeriod(ctx context.Context, s schedule, now time.Time) error {
	key, start := periodKey(s, now)
	_, err := EnqueueNow(ctx, q.db, s.kind, s.payload, Opts{RunAt: start, UniqueKey: key})
	return err
}

func minTime(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// PruneKind is the recurring job that deletes old finished jobs, so the
// table holds the recent past and the backlog, not all history.
const PruneKind = "jobs.prune"

// pruneBatch bounds each delete: on SQLite a delete holds the one writer, on
// PostgreSQL it holds row locks and bloats one transaction; small batches
// let other writes in between.
const pruneBatch = 1000

func (q *Queue) registerPrune() {
	Register(q, PruneKind, func(ctx context.Context, j Job, _ struct{}) error {
		n, err := Prune(ctx, q.db, time.Now(), q.cfg.PruneSucceededAfter, q.cfg.PruneDeadAfter)
		if n > 0 {
			q.log.Info("pruned finished jobs", "deleted", n)
		}
		return err
	}, KindOpts{MaxAttempts: 3})
	q.Every(PruneKind, time.Hour, PruneKind, nil)
}

// Prune deletes jobs that succeeded more than succeededAfter before now and
// dead jobs older than deadAfter, in batches, and returns how many it
// deleted.
func Prune(ctx context.Context, d *db.DB, now time.Time, succeededAfter, deadAfter time.Duration) (int64, error) {
	var total int64
	for _, c := range []struct {
		state  State
		cutoff int64
	}{
		{Succeeded, now.Add(-succeededAfter).UnixMilli()},
		{Dead, now.Add(-deadAfter).UnixMilli()},
	} {
		for {
			var n int64
			err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				// The state is spelled out, not a parameter, so the
				// planner can match the partial index jobs_finished.
				res, err := tx.Exec(ctx, `DELETE FROM jobs WHERE id IN (
					SELECT id FROM jobs WHERE state = '`+string(c.state)+`' AND finished_at < ? ORDER BY finished_at LIMIT ?)`,
					c.cutoff, pruneBatch)
				if err != nil {
					return err
				}
				n, err = res.RowsAffected()
				return err
			})
			if err != nil {
				return total, err
			}
			total += n
			if n < pruneBatch {
				break
			}
			if err := ctx.Err(); err != nil {
				return total, err
			}
		}
	}
	return total, nil
}
