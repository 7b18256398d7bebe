package stats

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/jobs"
)

// TopKeep is how many items of each kind a day keeps in stats_top.
const TopKeep = 200

// MaxRange is the longest range one call reads, in days.
const MaxRange = 366

// Kinds of top lists.
const (
	KindVideo  = "video"
	KindSearch = "search"
)

// ErrBadDay is a day that is not YYYY-MM-DD, or a range that is backwards
// or longer than MaxRange days.
var ErrBadDay = errors.New("stats: bad day")

// Service rolls days up and reads them back.
type Service struct {
	db  *db.DB
	src Sources
	now func() time.Time
}

// New is the statistics over d, with the raw figures from src.
func New(d *db.DB, src Sources) *Service {
	return &Service{db: d, src: src, now: time.Now}
}

// SetClock replaces the service's clock (tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// SpanOf is the span of day (YYYY-MM-DD in days.Zone).
func SpanOf(day string) (Span, error) {
	t, err := time.ParseInLocation(time.DateOnly, day, days.Zone)
	if err != nil || t.Format(time.DateOnly) != day || t.Year() < 2000 || t.Year() > 2200 {
		return Span{}, fmt.Errorf("%w: %q", ErrBadDay, day)
	}
	return Span{Day: day, From: t, To: t.AddDate(0, 0, 1)}, nil
}

// Rolled is what one rollup wrote.
type Rolled struct {
	Day    Day   `json:"day"`
	TookMs int64 `json:"tookMs"`
	Videos int   `json:"videos"` // top videos kept
	Words  int   `json:"words"`  // top words kept
}

// Rollup (re)builds day from the owners' records: its stats_daily row and
// stats_top rows are replaced in one transaction, so rolling a day again
// is safe at any time; a row read later than this rollup's reads is kept. actor, when not nil, is the operator (or the command
// line) who asked, and the audit log records it in the same transaction.
func (s *Service) Rollup(ctx context.Context, day string, actor *audit.Actor) (Rolled, error) {
	span, err := SpanOf(day)
	if err != nil {
		return Rolled{}, err
	}
	start := time.Now()
	// The row is stamped with when its reads began: of two rollups of a
	// day racing, the one that read later wins, whichever writes last.
	now := s.now()
	uf, err := s.src.Users.UserFigures(ctx, span)
	if err != nil {
		return Rolled{}, fmt.Errorf("users of %s: %w", day, err)
	}
	mf, err := s.src.Money.MoneyFigures(ctx, span)
	if err != nil {
		return Rolled{}, fmt.Errorf("money of %s: %w", day, err)
	}
	plays, topVideos, err := s.src.Plays.PlayFigures(ctx, day, TopKeep)
	if err != nil {
		return Rolled{}, fmt.Errorf("plays of %s: %w", day, err)
	}
	searches, topWords, err := s.src.Searches.SearchFigures(ctx, day, TopKeep)
	if err != nil {
		return Rolled{}, fmt.Errorf("searches of %s: %w", day, err)
	}
	row := dayRow{day: day, UserFigures: uf, MoneyFigures: mf, plays: plays, searches: searches,
		visits: uf.ActiveUsers, updatedAt: now.Unix()}
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		written, err := putDay(ctx, tx, row)
		if err != nil {
			return err
		}
		if written {
			if err := putTop(ctx, tx, day, KindVideo, topVideos); err != nil {
				return err
			}
			if err := putTop(ctx, tx, day, KindSearch, topWords); err != nil {
				return err
			}
		}
		if actor == nil {
			return nil
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: *actor, Action: "stats.rollup", TargetType: "stats_day", TargetID: day,
			After: map[string]any{"plays": plays, "searches": searches, "payers": mf.Payers,
				"revenue": mf.Topup + mf.VIP, "registrations": uf.Registrations}}, now)
	})
	if err != nil {
		return Rolled{}, fmt.Errorf("rollup %s: %w", day, err)
	}
	return Rolled{Day: row.view(), TookMs: time.Since(start).Milliseconds(), Videos: len(topVideos), Words: len(topWords)}, nil
}

// RollupKind is the recurring job that rolls today up, and each of the
// CatchUpDays before it that has not been rolled since it ended.
const RollupKind = "stats.rollup"

// RollupEvery is how often the job runs: today's figures are at most this
// old.
const RollupEvery = 10 * time.Minute

// CatchUpDays is how far back the job completes days on its own: the first
// run after midnight completes yesterday, and a server that was down for
// a few days completes them when it comes back. Older days: `prima stats
// rollup -day`.
const CatchUpDays = 7

// RegisterJobs registers the rollup job and its schedule (the jobs queue
// gives each period one job however many processes run it, so in a
// cluster one node rolls up).
func (s *Service) RegisterJobs(q *jobs.Queue) {
	jobs.Register(q, RollupKind, func(ctx context.Context, _ jobs.Job, _ struct{}) error {
		return s.RollupDue(ctx)
	}, jobs.KindOpts{MaxAttempts: 3, Timeout: 5 * time.Minute})
	q.Every(RollupKind, RollupEvery, RollupKind, nil)
}

// RollupDue rolls up each of the CatchUpDays before today whose row was
// last written before the day ended (or never), then today.
func (s *Service) RollupDue(ctx context.Context) error {
	now := s.now()
	today := days.Start(now)
	first := days.Of(today.AddDate(0, 0, -CatchUpDays))
	rolled, err := daysBetween(ctx, s.db, first, days.Of(today.AddDate(0, 0, -1)))
	if err != nil {
		return err
	}
	for i := CatchUpDays; i >= 1; i-- {
		start := today.AddDate(0, 0, -i)
		day := days.Of(start)
		if r, ok := rolled[day]; ok && r.updatedAt >= start.AddDate(0, 0, 1).Unix() {
			continue
		}
		if _, err := s.Rollup(ctx, day, nil); err != nil {
			return err
		}
		slog.InfoContext(ctx, "stats: rolled up", "day", day)
	}
	_, err = s.Rollup(ctx, days.Of(now), nil)
	return err
}

// Range checks from and to (YYYY-MM-DD, from <= to, at most MaxRange
// days) and returns the days between, both included.
func Range(from, to string) ([]string, error) {
	f, err := SpanOf(from)
	if err != nil {
		return nil, err
	}
	t, err := SpanOf(to)
	if err != nil {
		return nil, err
	}
	if t.From.Before(f.From) {
		return nil, fmt.Errorf("%w: from %s is after to %s", ErrBadDay, from, to)
	}
	var out []string
	for d := f.From; !d.After(t.From); d = d.AddDate(0, 0, 1) {
		if len(out) == MaxRange {
			return nil, fmt.Errorf("%w: more than %d days from %s to %s", ErrBadDay, MaxRange, from, to)
		}
		out = append(out, d.Format(time.DateOnly))
	}
	return out, nil
}

// Report is GET /api/admin/stats/daily's answer.
type Report struct {
	Days      []Day      `json:"days"`
	UpdatedAt *time.Time `json:"updatedAt"` // the latest rollup in the range; null when none was rolled
}

// Daily is one Day per day from from to to; a day never rolled up reads as
// zeros with rolled false.
func (s *Service) Daily(ctx context.Context, from, to string) (Report, error) {
	list, err := Range(from, to)
	if err != nil {
		return Report{}, err
	}
	rows, err := daysBetween(ctx, s.db, from, to)
	if err != nil {
		return Report{}, err
	}
	out := Report{Days: make([]Day, 0, len(list))}
	var latest int64
	for _, d := range list {
		r, ok := rows[d]
		if !ok {
			out.Days = append(out.Days, dayRow{day: d}.view())
			continue
		}
		latest = max(latest, r.updatedAt)
		out.Days = append(out.Days, r.view())
	}
	if latest > 0 {
		t := time.Unix(latest, 0).UTC()
		out.UpdatedAt = &t
	}
	return out, nil
}

// TopItem is one row of GET /api/admin/stats/top.
type TopItem struct {
	Key   string `json:"key"`
	Title string `json:"title,omitempty"`
	Count int64  `json:"count"`
}

// Top is the limit items of kind with the most counts from from to to
// (the sum of each day's kept TopKeep).
func (s *Service) Top(ctx context.Context, kind, from, to string, limit int) ([]TopItem, error) {
	if _, err := Range(from, to); err != nil {
		return nil, err
	}
	return topBetween(ctx, s.db, kind, from, to, limit)
}
