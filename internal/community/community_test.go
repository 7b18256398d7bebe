package community

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"prima/internal/account"
	"prima/internal/catalog"
	"prima/internal/media"
	"prima/internal/membership"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/ratelimit"
	"prima/internal/wallet"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newTest(t *testing.T, d *db.DB) (*Service, *clock) {
	c := &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	s := NewService(d)
	s.SetClock(c.now)
	s.Tiers = membership.NewService(d, account.Tiers, membership.NoPurchases{})
	s.Purchases = wallet.NewService(d)
	s.Modules = catalog.ModuleKind
	s.Assets = media.AssetOn
	s.People = account.Cards
	return s, c
}

// user inserts a user; registered ones have an account.
func user(t *testing.T, d *db.DB, name string, registered bool) int64 {
	t.Helper()
	var account any
	if registered {
		account = name
	}
	var id int64
	err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		return tx.QueryRow(ctx, `INSERT INTO users (name, account, created_at, updated_at) VALUES (?, ?, 1, 1) RETURNING id`, name, account).Scan(&id)
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func scalar(t *testing.T, d *db.DB, q string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := d.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func notices(t *testing.T, d *db.DB, uid int64) int64 {
	return scalar(t, d, `SELECT COUNT(*) FROM notices WHERE user_id = ? AND kind = 'follow'`, uid)
}

func TestFollowRules(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, c := newTest(t, d)
		a, b := user(t, d, "alice", true), user(t, d, "bobby", true)
		g := user(t, d, "游客ABCDEF", false)

		if _, err := s.Follow(ctx, a, a, true); !errors.Is(err, ErrSelf) {
			t.Errorf("self follow: %v", err)
		}
		if _, err := s.Follow(ctx, a, 999999, true); !errors.Is(err, ErrNoUser) {
			t.Errorf("unknown user: %v", err)
		}
		if _, err := s.Follow(ctx, g, a, true); !errors.Is(err, ErrGuest) {
			t.Errorf("guest follows: %v", err)
		}
		if n := scalar(t, d, `SELECT COUNT(*) FROM follows`); n != 0 {
			t.Fatalf("refused follows left %d rows", n)
		}
		// Following a guest is fine (their page is public).
		if _, err := s.Follow(ctx, a, g, true); err != nil {
			t.Fatal(err)
		}

		res, err := s.Follow(ctx, a, b, true)
		if err != nil || res != (FollowResult{FollowUID: b, IsFollow: true, FansCount: 1}) {
			t.Fatalf("follow: %+v %v", res, err)
		}
		if res, _ = s.Follow(ctx, a, b, true); res.FansCount != 1 {
			t.Fatalf("second follow counted: %+v", res)
		}
		if n := notices(t, d, b); n != 1 {
			t.Fatalf("%d notices after a follow and a repeat, want 1", n)
		}
		var title, ref string
		var actor int64
		if err := d.QueryRow(ctx, `SELECT title, ref, actor_id FROM notices WHERE user_id = ? AND category = 'interaction'`, b).Scan(&title, &ref, &actor); err != nil {
			t.Fatal(err)
		}
		if title != "关注了你" || ref != fmt.Sprint(a) || actor != a {
			t.Errorf("notice %q %q %d", title, ref, actor)
		}
		if ok, _ := s.IsFollowing(ctx, a, b); !ok {
			t.Error("IsFollowing false after follow")
		}
		if ok, _ := s.IsFollowing(ctx, b, a); ok {
			t.Error("follow is not mutual")
		}

		// Unfollow and refollow within a day: no second notice.
		if res, _ = s.Follow(ctx, a, b, false); res.FansCount != 0 || res.IsFollow {
			t.Fatalf("unfollow: %+v", res)
		}
		if res, _ = s.Follow(ctx, a, b, false); res.FansCount != 0 {
			t.Fatalf("second unfollow: %+v", res)
		}
		c.add(time.Hour)
		s.Follow(ctx, a, b, true)
		s.Follow(ctx, a, b, false)
		s.Follow(ctx, a, b, true)
		if n := notices(t, d, b); n != 1 {
			t.Fatalf("%d notices after refollows within a day, want 1", n)
		}
		// A day after the last notice, a new follow notifies again.
		s.Follow(ctx, a, b, false)
		c.add(NoticeEvery)
		s.Follow(ctx, a, b, true)
		if n := notices(t, d, b); n != 2 {
			t.Fatalf("%d notices a day later, want 2", n)
		}

		ext, err := s.Extension(ctx, a)
		if err != nil || ext.FollowCount != 2 || ext.FansCount != 0 || ext.PostCount != 0 {
			t.Fatalf("extension of a: %+v %v", ext, err)
		}
		if ext, _ = s.Extension(ctx, b); ext.FollowCount != 0 || ext.FansCount != 1 {
			t.Fatalf("extension of b: %+v", ext)
		}
		if _, err := s.Extension(ctx, 999999); !errors.Is(err, ErrNoUser) {
			t.Errorf("extension of nobody: %v", err)
		}
	})
}

// Parallel follows of one pair make one row and one notice; parallel
// follows of many users make a true count.
func TestFollowConcurrent(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTest(t, d)
		star := user(t, d, "star", true)
		fans := make([]int64, 8)
		for i := range fans {
			fans[i] = user(t, d, fmt.Sprintf("fan%d", i), true)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 64)
		for i := 0; i < 10; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := s.Follow(ctx, fans[0], star, true); err != nil {
					errs <- err
				}
			}()
		}
		for _, f := range fans[1:] {
			for j := 0; j < 3; j++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if _, err := s.Follow(ctx, f, star, true); err != nil {
						errs <- err
					}
				}()
			}
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if n := scalar(t, d, `SELECT COUNT(*) FROM follows WHERE follower_id = ?`, fans[0]); n != 1 {
			t.Errorf("%d rows for one pair", n)
		}
		if n := notices(t, d, star); n != int64(len(fans)) {
			t.Errorf("%d notices, want one per fan (%d)", n, len(fans))
		}
		ext, err := s.Extension(ctx, star)
		if err != nil || ext.FansCount != int64(len(fans)) {
			t.Errorf("fans %+v %v", ext, err)
		}
		// Parallel unfollows and follows of one pair end in a consistent state.
		for i := 0; i < 10; i++ {
			wg.Add(1)
			go func() { defer wg.Done(); s.Follow(ctx, fans[1], star, i%2 == 0) }()
		}
		wg.Wait()
		rows := scalar(t, d, `SELECT COUNT(*) FROM follows WHERE followee_id = ?`, star)
		if ext, _ = s.Extension(ctx, star); ext.FansCount != rows || (rows != 7 && rows != 8) {
			t.Errorf("fans %d, rows %d", ext.FansCount, rows)
		}
	})
}

func TestFollowList(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, c := newTest(t, d)
		star := user(t, d, "star", true)
		viewer := user(t, d, "viewer", true)
		var fans []int64
		for i := 0; i < 5; i++ {
			f := user(t, d, fmt.Sprintf("fan%d", i), true)
			fans = append(fans, f)
			if _, err := s.Follow(ctx, f, star, true); err != nil {
				t.Fatal(err)
			}
			if i < 3 {
				c.add(time.Second) // fans 3 and 4 follow in the same second
			}
		}
		d.Exec(ctx, `UPDATE users SET bio = 'hello', vip_expire_at = ? WHERE id = ?`, c.now().Add(time.Hour).Unix(), fans[4])
		s.Follow(ctx, viewer, fans[4], true)

		// Walk the fans by cursor, two at a time: newest first, no repeats.
		var seen []int64
		cur := ""
		for page := 1; ; page++ {
			p, err := s.List(ctx, ListQuery{Viewer: viewer, UID: star, Kind: ListFans, PageNumber: 1, PageSize: 2, Cursor: cur})
			if err != nil {
				t.Fatal(err)
			}
			if p.Total != 5 {
				t.Fatalf("total %d", p.Total)
			}
			for _, r := range p.List {
				seen = append(seen, r.UID)
				if r.UID == fans[4] && (!r.IsFollow || r.Bio != "hello" || r.VipLevel != 1) {
					t.Errorf("row %+v", r)
				}
				if r.UID != fans[4] && r.IsFollow {
					t.Errorf("viewer does not follow %d", r.UID)
				}
			}
			if !p.HasMore {
				if p.Cursor != "" {
					t.Error("a cursor on the last page")
				}
				break
			}
			cur = p.Cursor
			if page > 5 {
				t.Fatal("the walk does not end")
			}
		}
		want := []int64{fans[4], fans[3], fans[2], fans[1], fans[0]}
		if fmt.Sprint(seen) != fmt.Sprint(want) {
			t.Fatalf("walk %v, want %v", seen, want)
		}
		// Page numbers give the same rows.
		p2, _ := s.List(ctx, ListQuery{UID: star, Kind: ListFans, PageNumber: 2, PageSize: 2})
		if len(p2.List) != 2 || p2.List[0].UID != fans[2] || !p2.HasMore || p2.List[0].IsFollow {
			t.Fatalf("page 2 %+v", p2)
		}
		// The follow list of a fan.
		fl, _ := s.List(ctx, ListQuery{UID: fans[0], Kind: ListFollow, PageNumber: 1, PageSize: 20})
		if fl.Total != 1 || len(fl.List) != 1 || fl.List[0].UID != star || fl.List[0].Name != "star" {
			t.Fatalf("follow list %+v", fl)
		}
		for _, bad := range []string{"x", "1_", "_1", "-1_2", "1_0", "1_2_3"} {
			if _, err := s.List(ctx, ListQuery{UID: star, Kind: ListFans, PageNumber: 1, PageSize: 2, Cursor: bad}); !errors.Is(err, ErrBadCursor) {
				t.Errorf("cursor %q: %v", bad, err)
			}
		}
		if _, err := s.List(ctx, ListQuery{UID: 999999, Kind: ListFans, PageNumber: 1, PageSize: 2}); !errors.Is(err, ErrNoUser) {
			t.Errorf("unknown user: %v", err)
		}
	})
}

func TestFollowRateLimited(t *testing.T) {
	d := dbtest.Open(t, db.SQLite)
	s, c := newTest(t, d)
	s.Limiter = ratelimit.NewMemoryClock(c.now)
	a, b := user(t, d, "alice", true), user(t, d, "bobby", true)
	for i := 0; i < FollowRate.N; i++ {
		if _, err := s.Follow(context.Background(), a, b, i%2 == 0); err != nil {
			t.Fatal(err)
		}
	}
	var le *ratelimit.LimitedError
	if _, err := s.Follow(context.Background(), a, b, true); !errors.As(err, &le) {
		t.Fatalf("past the limit: %v", err)
	}
}
