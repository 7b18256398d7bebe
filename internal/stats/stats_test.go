package stats_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/stats"
)

// fake answers every figure from a per-day number, and counts the calls.
type fake struct {
	mu    sync.Mutex
	calls map[string]int
	n     map[string]int64
}

func (f *fake) get(day string) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[day]++
	return f.n[day]
}

func (f *fake) UserFigures(_ context.Context, s stats.Span) (stats.UserFigures, error) {
	n := f.get(s.Day)
	return stats.UserFigures{ActiveUsers: n, NewGuests: n + 1, Registrations: n + 2}, nil
}

func (f *fake) MoneyFigures(_ context.Context, s stats.Span) (stats.MoneyFigures, error) {
	n := f.n[s.Day]
	return stats.MoneyFigures{Payers: n, FirstPayments: n, Topup: 100 * n, VIP: 10 * n,
		ByProvider: map[string]int64{"alipay": 110 * n}, Withdrawals: 1, WithdrawCents: 5}, nil
}

func (f *fake) PlayFigures(_ context.Context, day string, limit int) (int64, []stats.Count, error) {
	n := f.n[day]
	var top []stats.Count
	for i := range min(int(n), limit) {
		top = append(top, stats.Count{Key: fmt.Sprint(i + 1), Title: fmt.Sprintf("片%d", i+1), Count: n - int64(i)})
	}
	return n * 10, top, nil
}

func (f *fake) SearchFigures(_ context.Context, day string, limit int) (int64, []stats.Count, error) {
	return f.n[day], []stats.Count{{Key: "猫", Count: f.n[day]}}, nil
}

// The job completes each of the last 7 days once after it ended and rolls
// today every run; a
// range adds each day's top lists; a rerun replaces a day's rows.
func TestRollupDueAndRanges(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := &fake{calls: map[string]int{}, n: map[string]int64{"2026-03-01": 3, "2026-03-02": 5}}
		s := stats.New(d, stats.Sources{Users: f, Money: f, Plays: f, Searches: f})
		now := time.Date(2026, 3, 2, 0, 5, 0, 0, days.Zone)
		s.SetClock(func() time.Time { return now })
		if err := s.RollupDue(ctx); err != nil {
			t.Fatal(err)
		}
		now = now.Add(10 * time.Minute)
		if err := s.RollupDue(ctx); err != nil {
			t.Fatal(err)
		}
		if f.calls["2026-03-01"] != 1 || f.calls["2026-03-02"] != 2 || f.calls["2026-02-23"] != 1 || f.calls["2026-02-22"] != 0 || len(f.calls) != 8 {
			t.Fatalf("calls %v: want each of the 7 days before once, today twice", f.calls)
		}
		rep, err := s.Daily(ctx, "2026-02-28", "2026-03-02")
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Days) != 3 || !rep.Days[0].Rolled || !rep.Days[1].Rolled || rep.UpdatedAt == nil {
			t.Fatalf("report %+v", rep)
		}
		if old, err := s.Daily(ctx, "2026-02-22", "2026-02-22"); err != nil || old.Days[0].Rolled || old.UpdatedAt != nil {
			t.Fatalf("a day 8 days back: %+v %v", old, err)
		}
		d1 := rep.Days[1]
		if d1.ActiveUsers != 3 || d1.NewGuests != 4 || d1.Registrations != 5 || d1.Revenue.Total != 330 ||
			d1.ByProvider["alipay"] != 330 || d1.Plays != 30 || d1.Funnel.Visits != 3 || d1.Funnel.FirstPayments != 3 || d1.Withdrawals.Cents != 5 {
			t.Fatalf("day %+v", d1)
		}
		top, err := s.Top(ctx, stats.KindVideo, "2026-03-01", "2026-03-02", 2)
		if err != nil {
			t.Fatal(err)
		}
		// Video 1: 3 + 5, video 2: 2 + 4.
		if len(top) != 2 || top[0].Key != "1" || top[0].Count != 8 || top[0].Title != "片1" || top[1].Count != 6 {
			t.Fatalf("top %+v", top)
		}
		f.n["2026-03-01"] = 1
		if _, err := s.Rollup(ctx, "2026-03-01", nil); err != nil {
			t.Fatal(err)
		}
		top, _ = s.Top(ctx, stats.KindVideo, "2026-03-01", "2026-03-01", 10)
		if len(top) != 1 || top[0].Count != 1 {
			t.Fatalf("re-rolled top %+v", top)
		}
		// A rollup whose reads began before the row's (a slow one that
		// lost a race) leaves the row and its top lists alone.
		f.n["2026-03-01"] = 9
		s.SetClock(func() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, days.Zone) })
		if _, err := s.Rollup(ctx, "2026-03-01", nil); err != nil {
			t.Fatal(err)
		}
		kept, _ := s.Daily(ctx, "2026-03-01", "2026-03-01")
		top, _ = s.Top(ctx, stats.KindVideo, "2026-03-01", "2026-03-01", 10)
		if kept.Days[0].ActiveUsers != 1 || len(top) != 1 {
			t.Fatalf("an older read overwrote the day: %+v %+v", kept.Days[0], top)
		}
		if _, err := s.Daily(ctx, "2026-03-02", "2026-03-01"); err == nil {
			t.Fatal("backwards range read")
		}
	})
}
