package jobs

import (
	"context"
	"time"

	"prima/internal/platform/db"
)

// Run is one job of a kind as an operator sees it: when it was due, how it
// ended, why it failed.
type Run struct {
	ID         int64      `json:"id"`
	State      State      `json:"state"`
	Attempt    int        `json:"attempt"`
	RunAt      time.Time  `json:"runAt"`
	FinishedAt *time.Time `json:"finishedAt"`
	LastError  string     `json:"lastError"`
}

// Latest answers the newest n jobs of kind (finished ones stay until the
// prune deletes them: 7 days, dead ones 30).
func Latest(ctx context.Context, q db.Querier, kind string, n int) ([]Run, error) {
	return db.All(ctx, q, func(s db.Scanner) (Run, error) {
		var (
			r               Run
			runAt, finished int64
		)
		err := s.Scan(&r.ID, &r.State, &r.Attempt, &runAt, &finished, &r.LastError)
		r.RunAt = time.UnixMilli(runAt).UTC()
		if finished > 0 {
			t := time.UnixMilli(finished).UTC()
			r.FinishedAt = &t
		}
		return r, err
	}, `SELECT id, state, attempt, run_at, finished_at, last_error FROM jobs WHERE kind = ? ORDER BY id DESC LIMIT ?`, kind, n)
}
