package search

import (
	"context"
	"slices"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/jobs"
)

// ReindexKind is the job that runs Reindex: enqueued after a migration that
// rebuilt the index's tables (EnqueueRebuild), and by nobody else.
const ReindexKind = "search.reindex"

// rebuildMigrations are the migrations that leave the index empty.
var rebuildMigrations = []string{"0029_search_compact"}

// runsMigration adds the runs (runs.go), empty: an upgraded PostgreSQL
// database with docs gets one search.runs job to build them. Until it
// has run, queries plan their windows as before it.
const runsMigration = "0091_search_runs"

// RegisterJobs adds the reindex and runs jobs to q.
func RegisterJobs(q *jobs.Queue, d *db.DB) {
	jobs.Register(q, ReindexKind, func(ctx context.Context, _ jobs.Job, _ struct{}) error {
		_, err := Reindex(ctx, d)
		return err
	}, jobs.KindOpts{Timeout: 2 * time.Hour})
	jobs.Register(q, RunsKind, func(ctx context.Context, _ jobs.Job, _ struct{}) error {
		return Runs(ctx, d)
	}, jobs.KindOpts{Timeout: time.Hour})
}

// EnqueueRebuild enqueues one reindex job when applied (the migrations just
// run) emptied the index of a database that has content: an upgrade. A new
// database has nothing to index, and the domains index what they write.
func EnqueueRebuild(ctx context.Context, d *db.DB, applied []string) error {
	if err := enqueueRuns(ctx, d, applied); err != nil {
		return err
	}
	i := slices.IndexFunc(applied, func(v string) bool { return slices.Contains(rebuildMigrations, v) })
	if i < 0 {
		return nil
	}
	var content bool
	err := d.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM videos) OR EXISTS (SELECT 1 FROM galleries) OR EXISTS (SELECT 1 FROM posts)
		OR EXISTS (SELECT 1 FROM topics) OR EXISTS (SELECT 1 FROM users WHERE account IS NOT NULL)`).Scan(&content)
	if err != nil || !content {
		return err
	}
	_, err = jobs.EnqueueNow(ctx, d, ReindexKind, struct{}{}, jobs.Opts{UniqueKey: ReindexKind + ":" + applied[i]})
	return err
}

// enqueueRuns enqueues the job that builds the runs when runsMigration was
// just applied to a PostgreSQL database whose index has docs (a rebuild
// enqueued with it builds them too; the second build finds them done).
func enqueueRuns(ctx context.Context, d *db.DB, applied []string) error {
	if d.Engine != db.Postgres || !slices.Contains(applied, runsMigration) {
		return nil
	}
	var docs bool
	if err := d.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM search_fts)`).Scan(&docs); err != nil || !docs {
		return err
	}
	_, err := jobs.EnqueueNow(ctx, d, RunsKind, struct{}{}, jobs.Opts{UniqueKey: RunsKind + ":" + runsMigration})
	return err
}
