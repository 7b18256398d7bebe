package backup

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/blob"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/jobs"
)

// Handler serves the owner's backups calls (docs/api.md, *Backups*): what
// the schedule is, the finished backups in its place and the latest runs;
// a backup now.
type Handler struct {
	DB    *db.DB
	To    blob.Store // nil: no PRIMA_BACKUP_TO
	Place string     // PRIMA_BACKUP_TO as the operator wrote it (holds no secret)
	Every time.Duration
	Keep  int
}

// Summary is one finished backup as the console lists it.
type Summary struct {
	Name       string    `json:"name"`
	CreatedAt  time.Time `json:"createdAt"`
	Engine     string    `json:"engine"`
	Schema     string    `json:"schema"`
	Database   int64     `json:"databaseBytes"`
	Media      int       `json:"mediaCount"`
	MediaBytes int64     `json:"mediaBytes"`
	Error      string    `json:"error,omitempty"` // its manifest could not be read
}

// maxListed bounds how many backups the list reads manifests of.
const maxListed = 50

// AdminList is GET /api/admin/backups -> {configured, place, everySeconds,
// keep, backups: [Summary] newest first, runs: [jobs.Run] newest first}.
func (h *Handler) AdminList(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	out := struct {
		Configured bool       `json:"configured"`
		Place      string     `json:"place"`
		Every      int64      `json:"everySeconds"`
		Keep       int        `json:"keep"`
		Backups    []Summary  `json:"backups"`
		Runs       []jobs.Run `json:"runs"`
		ListError  string     `json:"listError,omitempty"`
	}{Configured: h.To != nil, Place: h.Place, Every: int64(h.Every / time.Second), Keep: h.Keep, Backups: []Summary{}}
	runs, err := jobs.Latest(ctx, h.DB, Kind, 10)
	if err != nil {
		return err
	}
	out.Runs = runs
	if h.To != nil {
		lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		names, err := List(lctx, h.To)
		if err != nil {
			// The place is unreachable (a bucket gone, a disk unmounted):
			// the page says so rather than failing whole.
			out.ListError = err.Error()
		}
		for i := len(names) - 1; i >= 0 && len(out.Backups) < maxListed; i-- {
			m, err := ReadManifest(lctx, h.To, names[i])
			s := Summary{Name: names[i], CreatedAt: m.CreatedAt, Engine: m.Engine, Schema: m.Schema, Database: m.Database.Size,
				Media: len(m.Media), MediaBytes: m.MediaSize}
			if err != nil {
				s.Error = err.Error()
			}
			out.Backups = append(out.Backups, s)
		}
	}
	return httpx.OK(w, out)
}

// ErrNotConfigured: a backup asked for with no place to put it.
var ErrNotConfigured = errors.New("backup: no PRIMA_BACKUP_TO")

// AdminRun is POST /api/admin/backups {} -> {jobID, queued}: a backup now,
// run by whichever process runs jobs, then the same pruning as the
// schedule's. At most one a minute (a second click joins the first).
func (h *Handler) AdminRun(w http.ResponseWriter, r *http.Request) error {
	var in struct{}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if h.To == nil {
		return httpx.Conflict("未设置备份位置（PRIMA_BACKUP_TO），无法立即备份", "set PRIMA_BACKUP_TO to back up from the console")
	}
	now := time.Now()
	var out struct {
		JobID  int64 `json:"jobID"`
		Queued bool  `json:"queued"`
	}
	err := h.DB.Tx(r.Context(), func(ctx context.Context, tx *db.Tx) error {
		e, err := jobs.Enqueue(ctx, tx, Kind, nil, jobs.Opts{UniqueKey: fmt.Sprintf("backup:manual:%d", now.Unix()/60)})
		if err != nil {
			return err
		}
		out.JobID, out.Queued = e.ID, !e.Duplicate
		if !out.Queued {
			return nil
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: audit.ActorFrom(r), Action: "backup.run", TargetType: "backup",
			TargetID: h.Place, After: map[string]any{"jobID": e.ID}}, now)
	})
	if err != nil {
		return err
	}
	return httpx.OK(w, out)
}
