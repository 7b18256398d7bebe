package account

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/jobs"
	"prima/internal/platform/ratelimit"
)

func TestPurgeSessionsDeletesExpiredAndLongRevoked(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, c := newTestService(t, d)
		now := c.now().Unix()
		day := int64(24 * 60 * 60)
		uid := mustInsertUser(t, d, User{Name: "u", CreatedAt: 1, UpdatedAt: 1})
		add := func(prefix string, n int, expires, revoked int64) {
			err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				for i := range n {
					if _, err := tx.Exec(ctx, `INSERT INTO sessions (token_hash, user_id, dev_id, created_at, last_seen_at, expires_at, revoked_at) VALUES (?, ?, '', 1, 1, ?, ?)`,
						fmt.Sprintf("%s-%d", prefix, i), uid, expires, revoked); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		add("expired", 2300, now-1, 0)            // more than two batches
		add("live", 3, now+day, 0)                // kept
		add("revoked-old", 4, now+day, now-8*day) // past the grace: deleted
		add("revoked-new", 5, now+day, now-6*day) // within the grace: kept for audit
		add("expires-now", 1, now, 0)             // expires_at == now is already refused by Authenticate, but the purge leaves the boundary alone

		n, err := s.PurgeSessions(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n != 2304 {
			t.Fatalf("purged %d, want 2304", n)
		}
		for prefix, want := range map[string]int{"expired": 0, "live": 3, "revoked-old": 0, "revoked-new": 5, "expires-now": 1} {
			var got int
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM sessions WHERE token_hash LIKE ?`, prefix+"-%").Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s: %d left, want %d", prefix, got, want)
			}
		}
		if got := count(t, d, "sessions"); got != 9 {
			t.Fatalf("%d sessions left, want 9", got)
		}
		// Running it again finds nothing: the job is idempotent.
		if n, err := s.PurgeSessions(ctx); err != nil || n != 0 {
			t.Fatalf("second purge: %d, %v", n, err)
		}
	})
}

// The purge runs as a recurring job once the queue starts, and a live
// session's token keeps working through it.
func TestPurgeSessionsRunsAsARecurringJob(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := NewService(d, ratelimit.NewMemory(), Options{})
		l, err := s.GuestLogin(ctx, GuestLoginInput{DevID: devID(1), SysType: "ios", IP: "10.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := tx.Exec(ctx, `INSERT INTO sessions (token_hash, user_id, dev_id, created_at, last_seen_at, expires_at, revoked_at) VALUES ('stale', ?, '', 1, 1, 2, 0)`, l.User.ID)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		q := jobs.New(d, jobs.Config{Workers: 1, PollInterval: 20 * time.Millisecond, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
		s.RegisterJobs(q)
		if err := q.Start(ctx); err != nil {
			t.Fatal(err)
		}
		defer q.Stop(ctx)
		deadline := time.Now().Add(10 * time.Second)
		for {
			var n int
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM jobs WHERE kind = ? AND state = 'succeeded'`, PurgeSessionsKind).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n == 1 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the purge job did not run")
			}
			time.Sleep(20 * time.Millisecond)
		}
		if got := count(t, d, "sessions"); got != 1 {
			t.Fatalf("%d sessions, want only the live one", got)
		}
		if _, err := s.Authenticate(ctx, l.Token); err != nil {
			t.Fatalf("live token after purge: %v", err)
		}
	})
}
