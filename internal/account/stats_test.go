package account

import (
	"context"
	"testing"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/stats"
)

// A user's day is one user_days row however many requests they make (one
// write, then remembered), a row a day; the day's figures count guests, registrations (a guest
// upgraded counts once, as registered, still a new guest) and active users,
// in Asia/Shanghai days, operators left out.
func TestUserFigures(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, c := newTestService(t, d) // 2026-03-01 12:00 UTC is 20:00 in Shanghai
		a := guest(t, s, devID(1))
		for range 20 {
			if _, err := s.Authenticate(ctx, a.Token); err != nil {
				t.Fatal(err)
			}
		}
		if n := count(t, d, "user_days"); n != 1 {
			t.Fatalf("%d user_days rows after 20 requests, want 1", n)
		}
		// The day is remembered in memory: with the row gone, more requests
		// write nothing (not a write per request).
		if _, err := d.Exec(ctx, `DELETE FROM user_days`); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, a.Token); err != nil {
			t.Fatal(err)
		}
		if n := count(t, d, "user_days"); n != 0 {
			t.Fatalf("a request wrote the remembered day again")
		}
		s.active = activeDays{}
		if _, err := s.Authenticate(ctx, a.Token); err != nil {
			t.Fatal(err)
		}
		b := guest(t, s, devID(2))
		if _, err := s.Register(ctx, RegisterInput{Account: "stats_b", Password: "secret12", Current: mustSession(t, s, b.Token)}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.CreateOperator(ctx, audit.Actor{}, "ops_stats", "secret12"); err != nil {
			t.Fatal(err)
		}
		sp, err := stats.SpanOf("2026-03-01")
		if err != nil {
			t.Fatal(err)
		}
		f, err := s.UserFigures(ctx, sp)
		if err != nil {
			t.Fatal(err)
		}
		if f != (stats.UserFigures{ActiveUsers: 2, NewGuests: 2, Registrations: 1}) {
			t.Fatalf("2026-03-01: %+v", f)
		}
		// 16:00 UTC is the next day in Shanghai: a new row, nothing new counted.
		c.add(4 * time.Hour)
		if _, err := s.Authenticate(ctx, a.Token); err != nil {
			t.Fatal(err)
		}
		next, _ := stats.SpanOf("2026-03-02")
		if f, err = s.UserFigures(ctx, next); err != nil || f != (stats.UserFigures{ActiveUsers: 1}) {
			t.Fatalf("2026-03-02: %+v %v", f, err)
		}
	})
}

func mustSession(t *testing.T, s *Service, token string) *Session {
	t.Helper()
	sess, err := s.Authenticate(context.Background(), token)
	if err != nil {
		t.Fatal(err)
	}
	return &sess
}
