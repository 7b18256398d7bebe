package account

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/realtime"
)

// recv waits for the next event of sub.
func recv(t *testing.T, sub *realtime.Subscription) realtime.Event {
	t.Helper()
	select {
	case ev := <-sub.Events():
		return ev
	case <-time.After(2 * time.Second):
		t.Fatal("no event")
	}
	return realtime.Event{}
}

func silent(t *testing.T, sub *realtime.Subscription) {
	t.Helper()
	select {
	case ev := <-sub.Events():
		t.Fatalf("unexpected event %s %s", ev.Type, ev.Data)
	case <-time.After(50 * time.Millisecond):
	}
}

func dataOf(t *testing.T, ev realtime.Event) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(ev.Data, &m); err != nil {
		t.Fatalf("%s data %s: %v", ev.Type, ev.Data, err)
	}
	return m
}

// A guest upgraded by Register hears profile.changed, then that its guest
// session is gone; a failed registration says nothing.
func TestRegisterPublishesAfterCommit(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		broker := realtime.NewMemory(0)
		defer broker.Close()
		s.Events = broker
		ctx := context.Background()
		g := guest(t, s, devID(1))
		sub, err := broker.Subscribe(ctx, realtime.UserTopic(g.User.ID))
		if err != nil {
			t.Fatal(err)
		}
		sess, _ := s.Authenticate(ctx, g.Token)

		// Taken name: the transaction never commits, nothing is published.
		if _, err := s.Register(ctx, RegisterInput{Account: "taken", Password: "pass123", IP: "10.0.0.9"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Register(ctx, RegisterInput{Account: "taken", Password: "pass123", IP: "10.0.0.1", Current: &sess}); !errors.Is(err, ErrDuplicateAccount) {
			t.Fatalf("duplicate: %v", err)
		}
		silent(t, sub)

		if _, err := s.Register(ctx, RegisterInput{Account: "bob_up", Password: "pass123", IP: "10.0.0.1", Current: &sess}); err != nil {
			t.Fatal(err)
		}
		ev := recv(t, sub)
		if ev.Type != "profile.changed" || dataOf(t, ev)["uid"] != float64(g.User.ID) {
			t.Fatalf("first event %s %s", ev.Type, ev.Data)
		}
		ev = recv(t, sub)
		if ev.Type != realtime.SessionRevokedType || dataOf(t, ev)["sid"] != sess.ID() || len(sess.ID()) != 16 {
			t.Fatalf("second event %s %s, want sid %s", ev.Type, ev.Data, sess.ID())
		}
		silent(t, sub)
	})
}

func TestLogoutPublishesSessionRevoked(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		broker := realtime.NewMemory(0)
		defer broker.Close()
		s.Events = broker
		ctx := context.Background()
		a := guest(t, s, devID(1))
		sub, _ := broker.Subscribe(ctx, realtime.UserTopic(a.User.ID))
		sess, _ := s.Authenticate(ctx, a.Token)
		if err := s.Logout(ctx, sess); err != nil {
			t.Fatal(err)
		}
		ev := recv(t, sub)
		if ev.Type != realtime.SessionRevokedType || dataOf(t, ev)["sid"] != sess.ID() {
			t.Fatalf("event %s %s", ev.Type, ev.Data)
		}
	})
}

type brokenPublisher struct{}

func (brokenPublisher) Publish(context.Context, string, realtime.Event) error {
	return errors.New("redis down")
}

// Realtime being down never fails the change itself.
func TestPublishFailureDoesNotFailTheRequest(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		s.Events = brokenPublisher{}
		ctx := context.Background()
		g := guest(t, s, devID(1))
		sess, _ := s.Authenticate(ctx, g.Token)
		l, err := s.Register(ctx, RegisterInput{Account: "bob_up", Password: "pass123", IP: "10.0.0.1", Current: &sess})
		if err != nil {
			t.Fatal(err)
		}
		ns, _ := s.Authenticate(ctx, l.Token)
		if err := s.Logout(ctx, ns); err != nil {
			t.Fatal(err)
		}
	})
}

// An operator's sign-out everywhere tells every connection of the user at
// once; an unknown user (rolled back) tells nobody.
func TestRevokeSessionsPublishesAll(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		broker := realtime.NewMemory(0)
		defer broker.Close()
		s.Events = broker
		ctx := context.Background()
		reg, err := s.Register(ctx, RegisterInput{Account: "judy", Password: "pass123", IP: "10.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		sub, _ := broker.Subscribe(ctx, realtime.UserTopic(reg.User.ID))
		if _, err := s.RevokeSessions(ctx, audit.Actor{UID: 42}, reg.User.ID); err != nil {
			t.Fatal(err)
		}
		ev := recv(t, sub)
		if ev.Type != realtime.SessionRevokedType || dataOf(t, ev)["all"] != true {
			t.Fatalf("event %s %s", ev.Type, ev.Data)
		}
		ghost, _ := broker.Subscribe(ctx, realtime.UserTopic(999999))
		if _, err := s.RevokeSessions(ctx, audit.Actor{UID: 42}, 999999); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("unknown uid: %v", err)
		}
		silent(t, ghost)
	})
}
