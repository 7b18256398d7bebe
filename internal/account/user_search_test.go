package account

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/search"
)

// userFound is the user ids search finds for text.
func userFound(t *testing.T, d *db.DB, text string) []int64 {
	t.Helper()
	hits, _, err := search.Search(context.Background(), d, search.Query{Text: text, Kind: search.KindUser, VipLevel: -1, Sort: "relevance", Limit: 100})
	if err != nil {
		t.Fatalf("search %q: %v", text, err)
	}
	var ids []int64
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	return ids
}

func userWant(t *testing.T, d *db.DB, text string, uid int64, want bool, when string) {
	t.Helper()
	if got := userFound(t, d, text); slices.Contains(got, uid) != want {
		t.Errorf("%s: search %q found %v; want %d found: %v", when, text, got, uid, want)
	}
}

// userDocs counts the index's user docs.
func userDocs(t *testing.T, d *db.DB) int {
	t.Helper()
	n, err := search.Counts(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	return n[search.KindUser]
}

// TestUserSearchFollowsWrites: a user is found once registered, by the
// current name and bio; a guest never is.
func TestUserSearchFollowsWrites(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTestService(t, d)

		// A guest is not searchable, even after naming itself.
		g := guest(t, s, devID(1))
		if n := userDocs(t, d); n != 0 {
			t.Fatalf("a guest has %d docs", n)
		}
		name := "路人甲乙"
		if _, err := s.UpdateProfile(ctx, g.User.ID, ProfileInput{Name: &name}); err != nil {
			t.Fatal(err)
		}
		userWant(t, d, "路人", g.User.ID, false, "a named guest")

		// Registering upgrades it in place: found by its name.
		sess, err := s.Authenticate(ctx, g.Token)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Register(ctx, RegisterInput{Account: "bob_up", Password: "pass123", IP: "10.0.0.1", Current: &sess}); err != nil {
			t.Fatal(err)
		}
		userWant(t, d, "路人", g.User.ID, true, "registered")

		// A new name: found by it, not by the old; the bio finds it too.
		name, bio := "北京小明", "喜欢拍猫咪"
		if _, err := s.UpdateProfile(ctx, g.User.ID, ProfileInput{Name: &name, Bio: &bio}); err != nil {
			t.Fatal(err)
		}
		userWant(t, d, "小明", g.User.ID, true, "renamed, new name")
		userWant(t, d, "路人", g.User.ID, false, "renamed, old name")
		userWant(t, d, "猫咪", g.User.ID, true, "by bio")
		bio = "喜欢拍风景"
		if _, err := s.UpdateProfile(ctx, g.User.ID, ProfileInput{Bio: &bio}); err != nil {
			t.Fatal(err)
		}
		userWant(t, d, "猫咪", g.User.ID, false, "old bio")
		// A refused rename (reserved guest prefix) changes nothing.
		bad := "游客12345"
		if _, err := s.UpdateProfile(ctx, g.User.ID, ProfileInput{Name: &bad}); err == nil {
			t.Fatal("took a guest name")
		}
		userWant(t, d, "小明", g.User.ID, true, "a refused rename")

		// Registered directly, and an operator made on the command line.
		l, err := s.Register(ctx, RegisterInput{Account: "alice2026", Password: "pass123", IP: "10.0.0.2"})
		if err != nil {
			t.Fatal(err)
		}
		if got := userDocs(t, d); got != 2 {
			t.Errorf("%d user docs after a second registration, want 2", got)
		}
		op, _, err := s.CreateOperator(ctx, audit.Actor{UID: audit.CLI}, "ops_search", "secret12")
		if err != nil {
			t.Fatal(err)
		}
		if got := userDocs(t, d); got != 3 {
			t.Errorf("%d user docs after an operator, want 3", got)
		}
		for _, uid := range []int64{l.User.ID, op.ID} {
			if in, err := search.Indexed(ctx, d, search.KindUser, uid); err != nil || !in {
				t.Errorf("user %d: no doc (%v)", uid, err)
			}
		}
	})
}

// TestUserSearchParallelRegistration: one guest token registering twice
// at once upgrades once and leaves one doc.
func TestUserSearchParallelRegistration(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTestService(t, d)
		g := guest(t, s, devID(2))
		sess, err := s.Authenticate(ctx, g.Token)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = s.Register(ctx, RegisterInput{Account: "race_" + string(rune('a'+i)), Password: "pass123", IP: "10.0.1." + string(rune('1'+i)), Current: &sess})
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else if !errors.Is(err, ErrGuestRegistered) && !errors.Is(err, ErrSessionInvalid) {
				t.Errorf("parallel registration: %v", err)
			}
		}
		if ok != 1 {
			t.Fatalf("%d registrations succeeded: %v", ok, errs)
		}
		if n := userDocs(t, d); n != 1 {
			t.Errorf("%d user docs, want 1", n)
		}
		if _, err := search.Reindex(ctx, d); err != nil {
			t.Fatal(err)
		}
		if n := userDocs(t, d); n != 1 {
			t.Errorf("after a rebuild %d user docs, want 1", n)
		}
	})
}
