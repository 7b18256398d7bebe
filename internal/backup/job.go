package backup

import (
	"context"
	"log/slog"
	"time"

	"prima/internal/platform/blob"
	"prima/internal/platform/db"
	"prima/internal/platform/jobs"
)

// Kind is the scheduled backup's job kind.
const Kind = "backup.run"

// Schedule is the scheduled backup: every Every, a backup of DB and Media
// into To, then all but the newest Keep deleted. The job queue's
// schedules give each period one job however many nodes run it.
type Schedule struct {
	DB    *db.DB
	Media blob.Store
	To    blob.Store
	Every time.Duration
	Keep  int
	Work  string // a local folder for the database copy on its way
	Log   *slog.Logger
}

// Register adds the schedule to q.
func (s Schedule) Register(q *jobs.Queue) {
	jobs.Register(q, Kind, func(ctx context.Context, _ jobs.Job, _ struct{}) error {
		start := time.Now()
		m, err := Run(ctx, s.DB, s.Media, s.To, s.Work, start)
		if err != nil {
			s.Log.ErrorContext(ctx, "scheduled backup failed", "err", err)
			return err
		}
		gone, err := Prune(ctx, s.To, s.Keep)
		s.Log.InfoContext(ctx, "scheduled backup done", "name", m.Name, "media", len(m.Media),
			"seconds", time.Since(start).Seconds(), "pruned", gone)
		return err
	}, jobs.KindOpts{MaxAttempts: 2, Timeout: 12 * time.Hour})
	q.Every(Kind, s.Every, Kind, nil)
}
