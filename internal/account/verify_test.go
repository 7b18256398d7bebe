package account

import (
	"context"
	"errors"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// The fresh password check of payout calls: guests have none, a wrong
// password counts as a login failure and the check is throttled with the
// login, and a right one clears the address's failures.
func TestVerifyPassword(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, c := newTestService(t, d)
		ctx := context.Background()
		g := guest(t, s, devID(1))
		if err := s.VerifyPassword(ctx, g.User.ID, "anything", "10.0.0.1"); !errors.Is(err, ErrNotRegistered) {
			t.Fatalf("guest: %v", err)
		}
		l, err := s.Register(ctx, RegisterInput{Account: "carol_1", Password: "secret12", IP: "10.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		uid := l.User.ID
		if err := s.VerifyPassword(ctx, uid, "secret12", "10.0.0.2"); err != nil {
			t.Fatalf("right password: %v", err)
		}
		for i := range s.Limits.LoginPairFree {
			if err := s.VerifyPassword(ctx, uid, "wrong-1", "10.0.0.2"); !errors.Is(err, ErrBadCredentials) {
				t.Fatalf("wrong %d: %v", i, err)
			}
		}
		// Out of free failures: even the right password waits, and the
		// login from that address waits too (one throttle for both).
		var rl *RateLimitError
		if err := s.VerifyPassword(ctx, uid, "secret12", "10.0.0.2"); !errors.As(err, &rl) {
			t.Fatalf("throttled check: %v", err)
		}
		if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "carol_1", Password: "secret12", IP: "10.0.0.2", SysType: "ios"}); !errors.Is(err, ErrRateLimited) {
			t.Fatalf("throttled login: %v", err)
		}
		c.add(s.Limits.LoginPairWait + time.Second)
		if err := s.VerifyPassword(ctx, uid, "secret12", "10.0.0.2"); err != nil {
			t.Fatalf("after the wait: %v", err)
		}
		if err := s.VerifyPassword(ctx, 999999, "secret12", "10.0.0.2"); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("unknown uid: %v", err)
		}
	})
}
