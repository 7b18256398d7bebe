package earnings_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// Share visits count once per code, device and Shanghai day; the owner's
// own visits and bad codes count nothing and are no error.
func TestVisits(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		amy, visitor := e.user(t, "amy"), e.guest(t)
		code, err := e.inv.Code(ctx, amy)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			uid       int64
			dev, code string
			counted   bool
		}{
			{visitor, "dev-1", code, true},
			{visitor, "dev-1", strings.ToLower(code), false}, // same device, same day
			{visitor, "dev-2", code, true},
			{amy, "dev-amy", code, false},           // own code
			{visitor, "dev-3", "ZZZZZZ", false},     // nobody's
			{visitor, "dev-3", "not a code", false}, // malformed
			{visitor, "dev-3", "", false},           // none
			{visitor, "", code, true},               // no device: the user stands for it
			{visitor, "", code, false},
		} {
			got, err := e.s.Visit(ctx, c.uid, c.dev, c.code)
			if err != nil || got != c.counted {
				t.Errorf("visit %+v: %v %v", c, got, err)
			}
		}
		// The next Shanghai day counts the device again: 16:00 UTC.
		*e.clock = time.Date(2026, 11, 25, 16, 0, 0, 0, time.UTC)
		if got, _ := e.s.Visit(ctx, visitor, "dev-1", code); !got {
			t.Fatal("a new day did not count")
		}
		if n := e.count(t, `SELECT COUNT(*) FROM share_visits WHERE inviter_id = ?`, amy); n != 4 {
			t.Fatalf("%d visits stored", n)
		}
		// Parallel reports from one device on one day: one counts.
		var wg sync.WaitGroup
		counted := make(chan bool, 10)
		for range 10 {
			wg.Go(func() {
				c, err := e.s.Visit(ctx, visitor, "dev-par", code)
				if err != nil {
					t.Error(err)
				}
				counted <- c
			})
		}
		wg.Wait()
		close(counted)
		n := 0
		for c := range counted {
			if c {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%d parallel visits counted", n)
		}
	})
}

// The promotion data over today, this week and this month: visits,
// registrations, payers and paid amounts of the caller's own invitees
// (refunds left out), commission of every level; one series entry per day.
func TestStats(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		amy, bob, cat, dan := e.user(t, "amy"), e.user(t, "bob"), e.user(t, "cat"), e.user(t, "dan")
		monday := time.Date(2026, 11, 23, 2, 0, 0, 0, time.UTC)
		nov2 := time.Date(2026, 11, 2, 2, 0, 0, 0, time.UTC)
		e.exec(t, `INSERT INTO invite_bindings (invitee_id, inviter_id, source, bound_at, registered_at, reward_state) VALUES
			(?, ?, 'code', ?, ?, 'off'), (?, ?, 'code', ?, ?, 'off'), (?, ?, 'code', ?, ?, 'off')`,
			bob, amy, nov2.Unix(), nov2.Unix(), cat, amy, monday.Unix(), monday.Unix(), dan, bob, now.Unix(), now.Unix())
		code, _ := e.inv.Code(ctx, amy)
		at := func(t0 time.Time, f func()) { *e.clock = t0; f() }
		at(nov2, func() { _, _ = e.s.Visit(ctx, dan, "d1", code) })
		at(monday, func() {
			_, _ = e.s.Visit(ctx, dan, "d1", code)
			_, _ = e.s.Visit(ctx, dan, "d2", code)
			if err := e.pay(t, cat, "P-cat-mon", 2000); err != nil {
				t.Fatal(err)
			}
		})
		at(nov2, func() {
			if err := e.pay(t, bob, "P-bob-nov2", 4000); err != nil {
				t.Fatal(err)
			}
		})
		at(now, func() {
			_, _ = e.s.Visit(ctx, dan, "d1", code)
			for _, p := range []struct {
				uid    int64
				no     string
				amount int64
			}{{bob, "P-bob-1", 1000}, {cat, "P-cat-1", 500}, {cat, "P-cat-2", 300}, {dan, "P-dan-1", 10000}} {
				if err := e.pay(t, p.uid, p.no, p.amount); err != nil {
					t.Fatal(err)
				}
			}
			if err := e.refund(t, cat, "P-cat-2", 300); err != nil {
				t.Fatal(err)
			}
		})
		day, err := e.s.Stats(ctx, amy, "")
		if err != nil {
			t.Fatal(err)
		}
		// Today: 1 visit; no registration of amy's own invitees (dan is
		// bob's); bob and cat paid 1500; commission 100 + 50 (level 1) +
		// 300 (level 2 of dan's 10000).
		if day.Period != "day" || day.From != "2026-11-25" || day.To != "2026-11-25" || day.Visits != 1 || day.Registrations != 0 ||
			day.Payers != 2 || day.PaidCents != 1500 || day.CommissionCents != 450 || len(day.Series) != 1 || day.Series[0].Date != "2026-11-25" {
			t.Fatalf("day %+v", day)
		}
		week, _ := e.s.Stats(ctx, amy, "week")
		if week.From != "2026-11-23" || week.Visits != 3 || week.Registrations != 1 || week.Payers != 2 || week.PaidCents != 3500 ||
			week.CommissionCents != 650 || len(week.Series) != 3 {
			t.Fatalf("week %+v", week)
		}
		if mon := week.Series[0]; mon.Date != "2026-11-23" || mon.Visits != 2 || mon.Registrations != 1 || mon.Payers != 1 || mon.PaidCents != 2000 || mon.CommissionCents != 200 {
			t.Fatalf("monday %+v", mon)
		}
		month, _ := e.s.Stats(ctx, amy, "month")
		if month.From != "2026-11-01" || len(month.Series) != 25 || month.Visits != 4 || month.Registrations != 2 || month.Payers != 2 ||
			month.PaidCents != 7500 || month.CommissionCents != 1050 {
			t.Fatalf("month %+v", month)
		}
		if _, err := e.s.Stats(ctx, amy, "year"); status(err) != 422 {
			t.Fatalf("year: %v", err)
		}
		if _, err := e.s.Stats(ctx, e.guest(t), "day"); status(err) != 403 {
			t.Fatalf("guest: %v", err)
		}
		// The invitee list's columns.
		paid, commission, err := e.s.Contributions(ctx, amy, []int64{bob, cat})
		if err != nil {
			t.Fatal(err)
		}
		if paid[bob] != 5000 || paid[cat] != 2500 || commission[bob] != 500 || commission[cat] != 250 {
			t.Fatalf("contributions %v %v", paid, commission)
		}
		page, err := e.inv.Invitees(ctx, amy, 1, 20)
		if err != nil || page.Total != 2 {
			t.Fatalf("invitees %+v %v", page, err)
		}
	})
}

// The income summary: withdrawable, pending, debt and the month's totals.
func TestIncomeSummary(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		amy, bob := e.user(t, "amy"), e.user(t, "bob")
		e.bind(t, amy, bob)
		for _, no := range []string{"P-1", "P-2", "P-3"} {
			if err := e.pay(t, bob, no, 10000); err != nil {
				t.Fatal(err)
			}
		}
		*e.clock = now.AddDate(0, 0, 7)
		if _, err := e.s.SettleDue(ctx); err != nil {
			t.Fatal(err)
		}
		if err := e.refund(t, bob, "P-1", 10000); err != nil {
			t.Fatal(err)
		}
		if err := e.pay(t, bob, "P-4", 5000); err != nil {
			t.Fatal(err)
		}
		sum, err := e.s.IncomeSummary(ctx, amy, "")
		if err != nil {
			t.Fatal(err)
		}
		// Settled on December 2nd (Shanghai): this month's; the refund's
		// debt leaves income as it was.
		if sum.WithdrawableCents != 3000 || sum.PendingCents != 500 || sum.DebtCents != 1000 || sum.Month.CommissionCents != 3000 {
			t.Fatalf("summary %+v", sum)
		}
		if nov, _ := e.s.IncomeSummary(ctx, amy, "2026-11"); nov.Month.CommissionCents != 0 || nov.WithdrawableCents != 3000 {
			t.Fatalf("november %+v", nov)
		}
		for _, bad := range []string{"2026-13", "26-11", "2026-11-01", "x"} {
			if _, err := e.s.IncomeSummary(ctx, amy, bad); status(err) != 422 {
				t.Errorf("month %q: %v", bad, err)
			}
		}
	})
}
