package rewards

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/account"
	"prima/internal/catalog"
	"prima/internal/community"
	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
	"prima/internal/platform/realtime"
	"prima/internal/wallet"
)

// noon is 2026-11-23 12:00 Shanghai.
var noon = time.Date(2026, 11, 23, 12, 0, 0, 0, days.Zone)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

func newWelfare(d *db.DB) (*Welfare, *clock) {
	c := &clock{t: noon}
	// The owners' counters, as internal/app wires them.
	w := NewWelfare(d, wallet.NewService(d), nil, map[string]Counter{
		"watch": catalog.PlayedSince, "like": catalog.LikedSince, "follow": community.FollowedSince,
		"topup": wallet.PaidOrdersSince, "bind_phone": account.PhoneBound, "portrait": account.HasPortrait,
	})
	w.Now = c.now
	return w, c
}

func newUser(t *testing.T, d *db.DB) int64 {
	t.Helper()
	var id int64
	err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		return tx.QueryRow(ctx, `INSERT INTO users (created_at, updated_at) VALUES (?, ?) RETURNING id`, noon.Unix(), noon.Unix()).Scan(&id)
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func points(t *testing.T, w *Welfare, uid int64) int64 {
	t.Helper()
	p, err := w.Points(context.Background(), uid)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// ledgerMatches checks users.points equals the sum of the user's entries.
func ledgerMatches(t *testing.T, d *db.DB, uid int64) {
	t.Helper()
	var pts, sum int64
	if err := d.QueryRow(context.Background(), `SELECT points, (SELECT COALESCE(SUM(delta), 0) FROM point_entries WHERE user_id = ?) FROM users WHERE id = ?`, uid, uid).Scan(&pts, &sum); err != nil {
		t.Fatal(err)
	}
	if pts != sum || pts < 0 {
		t.Fatalf("points %d, ledger sum %d", pts, sum)
	}
}

func TestCycleAt(t *testing.T) {
	for _, c := range []struct {
		streak    int
		checked   bool
		pos, done int
	}{
		{0, false, 1, 0}, {1, true, 1, 1}, {1, false, 2, 1}, {6, false, 7, 6},
		{7, true, 7, 7}, {7, false, 1, 0}, {8, true, 1, 1}, {13, false, 7, 6},
	} {
		if pos, done := CycleAt(c.streak, c.checked); pos != c.pos || done != c.done {
			t.Errorf("CycleAt(%d, %v) = %d, %d; want %d, %d", c.streak, c.checked, pos, done, c.pos, c.done)
		}
	}
}

func TestAddPointsDebitsConditionallyOnceperKey(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		w, _ := newWelfare(d)
		uid := newUser(t, d)
		add := func(delta int64, key string) error {
			return d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				_, err := w.AddPoints(ctx, tx, uid, delta, "test", key, "", noon)
				return err
			})
		}
		if err := add(10, "a"); err != nil {
			t.Fatal(err)
		}
		if err := add(10, "a"); !errors.Is(err, ErrPointsReplayed) {
			t.Fatalf("replay: %v", err)
		}
		if err := add(-11, "b"); !errors.Is(err, ErrShortPoints) {
			t.Fatalf("overdraw: %v", err)
		}
		if err := add(-10, "c"); err != nil {
			t.Fatal(err)
		}
		if p := points(t, w, uid); p != 0 {
			t.Fatalf("points %d, want 0", p)
		}
		ledgerMatches(t, d, uid)
	})
}

func TestCheckinOncePerShanghaiDayStreakAndReset(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		w, c := newWelfare(d)
		uid := newUser(t, d)
		// 23:59 and 00:01 Shanghai time are two days, though the same UTC day.
		c.set(time.Date(2026, 11, 23, 23, 59, 0, 0, days.Zone))
		r, err := w.CheckIn(ctx, uid)
		if err != nil || r.Streak != 1 || r.Reward.Points != 5 {
			t.Fatalf("first: %+v %v", r, err)
		}
		if _, err := w.CheckIn(ctx, uid); !errors.Is(err, ErrCheckedIn) {
			t.Fatalf("second tap: %v", err)
		}
		if p := points(t, w, uid); p != 5 {
			t.Fatalf("points after a refused tap %d, want 5", p)
		}
		c.set(time.Date(2026, 11, 24, 0, 1, 0, 0, days.Zone))
		st, err := w.Checkin(ctx, uid)
		if err != nil || st.CheckedToday || st.Streak != 1 || !st.Days[0].Done || st.Days[1].Done || st.TodayReward.Points != 5 {
			t.Fatalf("state next day: %+v %v", st, err)
		}
		if r, err = w.CheckIn(ctx, uid); err != nil || r.Streak != 2 || r.Day != 2 {
			t.Fatalf("day 2: %+v %v", r, err)
		}
		// Days 3..7: the 7th gives 30 points and 10 coins.
		for i := 3; i <= 7; i++ {
			c.set(time.Date(2026, 11, 22+i, 9, 0, 0, 0, days.Zone))
			if r, err = w.CheckIn(ctx, uid); err != nil || r.Day != i {
				t.Fatalf("day %d: %+v %v", i, r, err)
			}
		}
		if r.Reward.Coins != 10 {
			t.Fatalf("day 7 reward %+v", r.Reward)
		}
		coins, err := wallet.Balance(ctx, d, wallet.UserCoins(uid))
		if err != nil || coins != 10 {
			t.Fatalf("coins %d %v", coins, err)
		}
		// Day 8 starts the cycle again at day 1, streak 8.
		c.set(time.Date(2026, 11, 30, 9, 0, 0, 0, days.Zone))
		if r, err = w.CheckIn(ctx, uid); err != nil || r.Day != 1 || r.Streak != 8 {
			t.Fatalf("day 8: %+v %v", r, err)
		}
		// A missed day restarts the streak.
		c.set(time.Date(2026, 12, 2, 9, 0, 0, 0, days.Zone))
		st, _ = w.Checkin(ctx, uid)
		if st.Streak != 0 || st.Days[0].Done {
			t.Fatalf("after a gap: %+v", st)
		}
		if r, err = w.CheckIn(ctx, uid); err != nil || r.Streak != 1 || r.Day != 1 {
			t.Fatalf("after a gap: %+v %v", r, err)
		}
		if p := points(t, w, uid); p != 5+5+10+10+15+15+30+5+5 {
			t.Fatalf("points %d", p)
		}
		ledgerMatches(t, d, uid)
	})
}

func TestParallelCheckinsGrantOnce(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		w, _ := newWelfare(d)
		uid := newUser(t, d)
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok, dup := 0, 0
		for range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := w.CheckIn(ctx, uid)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ok++
				case errors.Is(err, ErrCheckedIn):
					dup++
				default:
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if ok != 1 || dup != 11 || points(t, w, uid) != 5 {
			t.Fatalf("ok %d dup %d points %d", ok, dup, points(t, w, uid))
		}
		ledgerMatches(t, d, uid)
	})
}

func saveTask(t *testing.T, w *Welfare, d *db.DB, td TaskDef) int64 {
	t.Helper()
	var id int64
	err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) (err error) {
		id, err = w.SaveTask(ctx, tx, td, noon)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestTasksProgressFromRealRowsAndClaimOncePerPeriod(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		w, c := newWelfare(d)
		uid, other := newUser(t, d), newUser(t, d)
		follow := saveTask(t, w, d, TaskDef{Title: "关注一位作者", Kind: KindDaily, Metric: "follow", Target: 1, Reward: DayReward{Points: 20}, Active: true})
		portrait := saveTask(t, w, d, TaskDef{Title: "设置头像", Kind: KindOnce, Metric: "portrait", Target: 1, Reward: DayReward{Points: 50, Coins: 3}, Active: true, Link: "/mine/info"})
		state := func() map[int64]Task {
			list, err := w.Tasks(ctx, uid)
			if err != nil {
				t.Fatal(err)
			}
			m := map[int64]Task{}
			for _, x := range list {
				m[x.ID] = x
			}
			return m
		}
		if s := state(); s[follow].State != "todo" || s[portrait].State != "todo" {
			t.Fatalf("fresh: %+v", s)
		}
		if _, err := w.Claim(ctx, uid, follow); !errors.Is(err, ErrTaskNotDone) {
			t.Fatalf("claim undone: %v", err)
		}
		// A follow made yesterday does not count today.
		if _, err := d.Exec(ctx, `INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)`, uid, other, noon.Add(-24*time.Hour).Unix()); err != nil {
			t.Fatal(err)
		}
		if s := state(); s[follow].Progress != 0 {
			t.Fatalf("yesterday's follow counted: %+v", s[follow])
		}
		if _, err := d.Exec(ctx, `UPDATE follows SET created_at = ? WHERE follower_id = ?`, noon.Unix(), uid); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Exec(ctx, `UPDATE users SET portrait = '/media/p.jpg' WHERE id = ?`, uid); err != nil {
			t.Fatal(err)
		}
		if s := state(); s[follow].State != "claimable" || s[portrait].State != "claimable" {
			t.Fatalf("done: %+v", s)
		}
		if r, err := w.Claim(ctx, uid, follow); err != nil || r.Points != 20 {
			t.Fatalf("claim: %+v %v", r, err)
		}
		if _, err := w.Claim(ctx, uid, follow); !errors.Is(err, ErrTaskClaimed) {
			t.Fatalf("claim twice: %v", err)
		}
		if _, err := w.Claim(ctx, uid, portrait); err != nil {
			t.Fatal(err)
		}
		if s := state(); s[follow].State != "claimed" || s[portrait].State != "claimed" {
			t.Fatalf("claimed: %+v", s)
		}
		// Next day: the daily task is todo again (no follow today), the once task stays claimed.
		c.set(noon.Add(24 * time.Hour))
		if s := state(); s[follow].State != "todo" || s[portrait].State != "claimed" {
			t.Fatalf("next day: %+v", s)
		}
		if _, err := w.Claim(ctx, uid, portrait); !errors.Is(err, ErrTaskClaimed) {
			t.Fatalf("once task again: %v", err)
		}
		if _, err := w.Claim(ctx, uid, 999); !errors.Is(err, ErrNoTask) {
			t.Fatalf("no task: %v", err)
		}
		if p := points(t, w, uid); p != 70 {
			t.Fatalf("points %d, want 70", p)
		}
		coins, _ := wallet.Balance(ctx, d, wallet.UserCoins(uid))
		if coins != 3 {
			t.Fatalf("coins %d, want 3", coins)
		}
		ledgerMatches(t, d, uid)
	})
}

func TestParallelClaimsGrantOnce(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		w, _ := newWelfare(d)
		uid := newUser(t, d)
		id := saveTask(t, w, d, TaskDef{Title: "设置头像", Kind: KindOnce, Metric: "portrait", Target: 1, Reward: DayReward{Points: 50}, Active: true})
		if _, err := d.Exec(ctx, `UPDATE users SET portrait = 'x' WHERE id = ?`, uid); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := w.Claim(ctx, uid, id); err != nil && !errors.Is(err, ErrTaskClaimed) {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if p := points(t, w, uid); p != 50 {
			t.Fatalf("points %d, want 50", p)
		}
	})
}

func TestBadTasksAndPrizesAreRefused(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		w, _ := newWelfare(d)
		for _, td := range []TaskDef{
			{Title: "", Kind: KindDaily, Metric: "like", Target: 1, Reward: DayReward{Points: 1}},
			{Title: "x", Kind: "weekly", Metric: "like", Target: 1, Reward: DayReward{Points: 1}},
			{Title: "x", Kind: KindDaily, Metric: "drop table", Target: 1, Reward: DayReward{Points: 1}},
			{Title: "x", Kind: KindDaily, Metric: "like", Target: 0, Reward: DayReward{Points: 1}},
			{Title: "x", Kind: KindDaily, Metric: "like", Target: 1, Reward: DayReward{Points: -5}},
			{Title: "x", Kind: KindDaily, Metric: "like", Target: 1},
			{Title: "x", Kind: KindDaily, Metric: "like", Target: 1, Reward: DayReward{Coins: 10_000_000}},
			{Title: "x", Kind: KindDaily, Metric: "like", Target: 1, Reward: DayReward{Points: 1}, Link: "https://evil.example"},
		} {
			err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error { _, err := w.SaveTask(ctx, tx, td, noon); return err })
			if !errors.Is(err, ErrBadConfig) {
				t.Errorf("%+v: %v", td, err)
			}
		}
		neg := int64(-1)
		for _, p := range []Prize{
			{Title: "x", Cost: 0, Reward: PrizeReward{Coins: 1}},
			{Title: "x", Cost: 10},
			{Title: "x", Cost: 10, Reward: PrizeReward{Coins: -1}},
			{Title: "x", Cost: 10, Reward: PrizeReward{VIPDays: 3}},
			{Title: "x", Cost: 10, Reward: PrizeReward{Coins: 1}, Stock: &neg},
			{Title: "x", Cost: 10, Reward: PrizeReward{Coins: 1}, Image: "javascript:alert(1)"},
		} {
			err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error { _, err := w.SavePrize(ctx, tx, p, noon); return err })
			if !errors.Is(err, ErrBadConfig) {
				t.Errorf("%+v: %v", p, err)
			}
		}
		var c [CycleDays]DayReward
		err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error { return w.SetCycle(ctx, tx, c) })
		if !errors.Is(err, ErrBadConfig) {
			t.Errorf("empty cycle: %v", err)
		}
	})
}

func savePrize(t *testing.T, w *Welfare, d *db.DB, p Prize) int64 {
	t.Helper()
	var id int64
	err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) (err error) {
		id, err = w.SavePrize(ctx, tx, p, noon)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func give(t *testing.T, w *Welfare, d *db.DB, uid, n int64) {
	t.Helper()
	err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		_, err := w.AddPoints(ctx, tx, uid, n, "test", fmt.Sprintf("give:%d:%d", uid, n), "", noon)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestExchangeSpendsPointsGrantsAndReplays(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		w, _ := newWelfare(d)
		uid := newUser(t, d)
		one := int64(1)
		id := savePrize(t, w, d, Prize{Title: "10 金币", Cost: 100, Reward: PrizeReward{Coins: 10}, PerUserLimit: 2, Active: true})
		vip := savePrize(t, w, d, Prize{Title: "VIP 1 天", Cost: 50, Reward: PrizeReward{VIPLevel: 1, VIPDays: 1}, Stock: &one, Active: true})
		off := savePrize(t, w, d, Prize{Title: "下架", Cost: 1, Reward: PrizeReward{Coins: 1}, Active: false})
		if _, err := w.Exchange(ctx, uid, id, "key-00001"); !errors.Is(err, ErrShortPoints) {
			t.Fatalf("no points: %v", err)
		}
		give(t, w, d, uid, 1000)
		r, err := w.Exchange(ctx, uid, id, "key-00001")
		if err != nil || r.Points != 900 {
			t.Fatalf("exchange: %+v %v", r, err)
		}
		// The same key again is the same exchange: nothing spent twice.
		if r2, err := w.Exchange(ctx, uid, id, "key-00001"); err != nil || !r2.Replayed || r2.ExchangeID != r.ExchangeID || r2.Points != 900 {
			t.Fatalf("replay: %+v %v", r2, err)
		}
		if _, err := w.Exchange(ctx, uid, vip, "key-00001"); !errors.Is(err, wallet.ErrKeyReused) {
			t.Fatalf("key reused: %v", err)
		}
		if _, err := w.Exchange(ctx, uid, id, "key-00002"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Exchange(ctx, uid, id, "key-00003"); !errors.Is(err, ErrPrizeLimit) {
			t.Fatalf("limit: %v", err)
		}
		// Over the limit and short of points: the limit is the answer.
		poor := newUser(t, d)
		give(t, w, d, poor, 100)
		if _, err := w.Exchange(ctx, poor, id, "poor-00001"); err != nil {
			t.Fatal(err)
		}
		limited := savePrize(t, w, d, Prize{Title: "一次", Cost: 100, Reward: PrizeReward{Coins: 1}, PerUserLimit: 1, Active: true})
		give(t, w, d, poor, 101)
		if _, err := w.Exchange(ctx, poor, limited, "poor-00002"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Exchange(ctx, poor, limited, "poor-00003"); !errors.Is(err, ErrPrizeLimit) {
			t.Fatalf("limit with no points: %v", err)
		}
		if _, err := w.Exchange(ctx, uid, vip, "key-00004"); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Exchange(ctx, uid, vip, "key-00005"); !errors.Is(err, ErrOutOfStock) {
			t.Fatalf("stock: %v", err)
		}
		if _, err := w.Exchange(ctx, uid, off, "key-00006"); !errors.Is(err, ErrNoPrize) {
			t.Fatalf("inactive: %v", err)
		}
		if p := points(t, w, uid); p != 1000-100-100-50 {
			t.Fatalf("points %d", p)
		}
		coins, _ := wallet.Balance(ctx, d, wallet.UserCoins(uid))
		if coins != 20 {
			t.Fatalf("coins %d, want 20", coins)
		}
		ledgerMatches(t, d, uid)
		if err := wallet.Check(ctx, d); err != nil {
			t.Fatal(err)
		}
	})
}

// Parallel exchanges by many users of a prize with little stock, and by one
// user with little points, never overspend either.
func TestExchangeRaceNeverOverspends(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		w, _ := newWelfare(d)
		stock := int64(3)
		limited := savePrize(t, w, d, Prize{Title: "限量", Cost: 10, Reward: PrizeReward{Coins: 1}, Stock: &stock, Active: true})
		open := savePrize(t, w, d, Prize{Title: "不限", Cost: 30, Reward: PrizeReward{Coins: 1}, Active: true})
		var users []int64
		for range 8 {
			u := newUser(t, d)
			give(t, w, d, u, 100)
			users = append(users, u)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		won := 0
		for i, u := range users {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := w.Exchange(ctx, u, limited, fmt.Sprintf("stock-%04d", i))
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					won++
				} else if !errors.Is(err, ErrOutOfStock) {
					t.Error(err)
				}
			}()
		}
		// One user, 100 points, ten parallel 30 point exchanges: three win.
		spender := users[0]
		spent := 0
		for i := range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := w.Exchange(ctx, spender, open, fmt.Sprintf("spend-%04d", i))
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					spent++
				} else if !errors.Is(err, ErrShortPoints) {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		var left int64
		if err := d.QueryRow(ctx, `SELECT stock FROM point_prizes WHERE id = ?`, limited).Scan(&left); err != nil {
			t.Fatal(err)
		}
		if won != 3 || left != 0 {
			t.Fatalf("won %d, stock left %d", won, left)
		}
		if p := points(t, w, spender); p < 0 || int64(spent)*30 > 100 {
			t.Fatalf("spender points %d after %d exchanges", p, spent)
		}
		for _, u := range users {
			ledgerMatches(t, d, u)
		}
		if err := wallet.Check(ctx, d); err != nil {
			t.Fatal(err)
		}
	})
}

// events records what was published, topic and event name.
type events struct {
	mu  sync.Mutex
	got []string
}

func (e *events) Publish(_ context.Context, topic string, ev realtime.Event) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.got = append(e.got, topic+" "+ev.Type)
	return nil
}

// A check-in that grants points and coins moves both in one transaction:
// the user's apps hear wallet.changed once, after the commit.
func TestCheckinTellsTheAppsOnce(t *testing.T) {
	d := dbtest.Open(t, db.SQLite)
	ctx := context.Background()
	w, _ := newWelfare(d)
	pub := &events{}
	w.Events = pub
	w.Wallet.(*wallet.Service).Events = pub
	var cycle [CycleDays]DayReward
	for i := range cycle {
		cycle[i] = DayReward{Points: 5, Coins: 2}
	}
	if err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error { return w.SetCycle(ctx, tx, cycle) }); err != nil {
		t.Fatal(err)
	}
	uid := newUser(t, d)
	if _, err := w.CheckIn(ctx, uid); err != nil {
		t.Fatal(err)
	}
	want := []string{realtime.UserTopic(uid) + " wallet.changed"}
	if !slices.Equal(pub.got, want) {
		t.Fatalf("published %q, want %q", pub.got, want)
	}
}

// One tap: the check-in claims and pays the tasks it completes (the
// 每日签到 task) in its own transaction, once, whatever the taps in parallel.
func TestCheckinPaysTheCheckinTaskInTheSameTap(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		w, c := newWelfare(d)
		uid := newUser(t, d)
		daily := saveTask(t, w, d, TaskDef{Title: "每日签到", Kind: KindDaily, Metric: "checkin", Target: 1, Reward: DayReward{Points: 7}, Active: true})
		first := saveTask(t, w, d, TaskDef{Title: "首次签到", Kind: KindOnce, Metric: "checkin", Target: 1, Reward: DayReward{Coins: 2}, Active: true})
		off := saveTask(t, w, d, TaskDef{Title: "停用的签到任务", Kind: KindDaily, Metric: "checkin", Target: 1, Reward: DayReward{Points: 100}, Active: false})
		two := saveTask(t, w, d, TaskDef{Title: "签到两次", Kind: KindOnce, Metric: "checkin", Target: 2, Reward: DayReward{Points: 100}, Active: true})
		like := saveTask(t, w, d, TaskDef{Title: "点赞", Kind: KindDaily, Metric: "like", Target: 1, Reward: DayReward{Points: 100}, Active: true})

		var wg sync.WaitGroup
		var mu sync.Mutex
		var won []CheckinResult
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := w.CheckIn(ctx, uid)
				if err != nil && !errors.Is(err, ErrCheckedIn) {
					t.Error(err)
				}
				if err == nil {
					mu.Lock()
					won = append(won, r)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if len(won) != 1 {
			t.Fatalf("%d check-ins went through", len(won))
		}
		r := won[0]
		var paid []int64
		for _, x := range r.Tasks {
			paid = append(paid, x.TaskID)
		}
		if !slices.Equal(paid, []int64{daily, first}) || r.Points != 5+7 {
			t.Fatalf("check-in result %+v", r)
		}
		if p := points(t, w, uid); p != 5+7 {
			t.Fatalf("points %d, want 12", p)
		}
		coins, _ := wallet.Balance(ctx, d, wallet.UserCoins(uid))
		if coins != 2 {
			t.Fatalf("coins %d, want 2", coins)
		}
		list, err := w.Tasks(ctx, uid)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range list {
			want := map[int64]string{daily: "claimed", first: "claimed", two: "todo", like: "todo"}[x.ID]
			if x.ID == off || x.State != want {
				t.Errorf("task %d %q: %s, want %s", x.ID, x.Title, x.State, want)
			}
		}
		if _, err := w.Claim(ctx, uid, daily); !errors.Is(err, ErrTaskClaimed) {
			t.Fatalf("a second tap on the task: %v", err)
		}
		// The next day pays the daily task again; the once tasks: the first
		// not again, the two-day one now.
		c.set(noon.Add(24 * time.Hour))
		if r, err = w.CheckIn(ctx, uid); err != nil {
			t.Fatal(err)
		}
		paid = paid[:0]
		for _, x := range r.Tasks {
			paid = append(paid, x.TaskID)
		}
		if !slices.Equal(paid, []int64{daily, two}) {
			t.Fatalf("day 2 paid %v", paid)
		}
		if p := points(t, w, uid); p != 5+7+5+7+100 {
			t.Fatalf("points %d after day 2", p)
		}
		coins, _ = wallet.Balance(ctx, d, wallet.UserCoins(uid))
		if coins != 2 {
			t.Fatalf("coins %d after day 2, want 2", coins)
		}
		ledgerMatches(t, d, uid)
		if err := wallet.Check(ctx, d); err != nil {
			t.Fatal(err)
		}
	})
}

// The other metrics count what their owners count: distinct videos played
// today, videos liked today, orders paid today (not refunded ones), and a
// bound phone whatever the day.
func TestWatchLikeTopupAndPhoneProgress(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		w, _ := newWelfare(d)
		uid := newUser(t, d)
		ids := map[string]int64{}
		for _, m := range []string{"watch", "like", "topup", "bind_phone"} {
			kind := KindDaily
			if m == "bind_phone" {
				kind = KindOnce
			}
			ids[m] = saveTask(t, w, d, TaskDef{Title: m, Kind: kind, Metric: m, Target: 5, Reward: DayReward{Points: 1}, Active: true})
		}
		today, yesterday := noon.Unix(), noon.Add(-24*time.Hour).Unix()
		exec := func(q string, args ...any) {
			t.Helper()
			if _, err := d.Exec(ctx, q, args...); err != nil {
				t.Fatal(err)
			}
		}
		exec(`INSERT INTO modules (id, pid, name, module_type, created_at) VALUES (901, 0, 'm', 0, 1), (902, 901, 's', 0, 1)`)
		for i := 0; i < 3; i++ {
			var vid int64
			if err := d.QueryRow(ctx, `INSERT INTO videos (title, duration, play_count, like_count, module_id, sub_module_id, published, created_at, updated_at)
				VALUES ('v', 1, 0, 0, 901, 902, 1, 1, 1) RETURNING id`).Scan(&vid); err != nil {
				t.Fatal(err)
			}
			at := today
			if i == 0 {
				at = yesterday
			}
			exec(`INSERT INTO video_history (user_id, video_id, last_at) VALUES (?, ?, ?)`, uid, vid, at)
			exec(`INSERT INTO video_likes (user_id, video_id, created_at) VALUES (?, ?, ?)`, uid, vid, at)
		}
		for i, st := range []string{"paid", "paid", "refunded"} {
			exec(`INSERT INTO orders (order_no, user_id, product_type, product_id, title, amount, coins, bonus, pay_type, status, paid_at, created_at, expires_at)
				VALUES (?, ?, 'coins', 1, 'c', 100, 10, 0, 'sandbox', ?, ?, ?, ?)`, fmt.Sprintf("W%d", i), uid, st, today, today, today+3600)
		}
		exec(`UPDATE users SET mobile = '13800000000' WHERE id = ?`, uid)
		list, err := w.Tasks(ctx, uid)
		if err != nil {
			t.Fatal(err)
		}
		got := map[int64]int64{}
		for _, x := range list {
			got[x.ID] = x.Progress
		}
		for m, want := range map[string]int64{"watch": 2, "like": 2, "topup": 2, "bind_phone": 1} {
			if got[ids[m]] != want {
				t.Errorf("%s progress %d, want %d", m, got[ids[m]], want)
			}
		}
	})
}

// An operator's stock edit holds only while the stock is still what the
// editor showed: exchanges running meanwhile are never handed out twice.
func TestPrizeStockEditRacesExchanges(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		w, _ := newWelfare(d)
		five := int64(5)
		base := Prize{Title: "限量", Cost: 10, Reward: PrizeReward{Coins: 1}, Stock: &five, Active: true}
		id := savePrize(t, w, d, base)
		base.ID = id
		save := func(stock *int64, seen *StockSeen) error {
			p := base
			p.Stock = stock
			return d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				_, err := w.SavePrizeSeen(ctx, tx, p, seen, noon)
				return err
			})
		}
		hundred, ten := int64(100), int64(10)
		// Stale views are refused and change nothing.
		if err := save(&ten, &StockSeen{Stock: 4}); !errors.Is(err, ErrStockMoved) {
			t.Fatalf("stale stock: %v", err)
		}
		if err := save(&ten, &StockSeen{Unlimited: true}); !errors.Is(err, ErrStockMoved) {
			t.Fatalf("stale unlimited: %v", err)
		}
		p := base
		p.ID = 999999
		if err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := w.SavePrizeSeen(ctx, tx, p, &StockSeen{Stock: 5}, noon)
			return err
		}); !errors.Is(err, ErrNoPrize) {
			t.Fatalf("unknown prize: %v", err)
		}

		var users []int64
		for range 12 {
			u := newUser(t, d)
			give(t, w, d, u, 100)
			users = append(users, u)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		won := int64(0)
		for i, u := range users {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := w.Exchange(ctx, u, id, fmt.Sprintf("race-%04d", i))
				mu.Lock()
				defer mu.Unlock()
				if err == nil {
					won++
				} else if !errors.Is(err, ErrOutOfStock) {
					t.Error(err)
				}
			}()
		}
		var saved error
		wg.Add(1)
		go func() {
			defer wg.Done()
			saved = save(&hundred, &StockSeen{Stock: 5})
		}()
		wg.Wait()
		var left int64
		if err := d.QueryRow(ctx, `SELECT stock FROM point_prizes WHERE id = ?`, id).Scan(&left); err != nil {
			t.Fatal(err)
		}
		switch {
		case saved == nil && won+left != 100:
			t.Fatalf("restock took: %d won + %d left != 100", won, left)
		case errors.Is(saved, ErrStockMoved) && (won != 5 || left != 0):
			t.Fatalf("restock refused: %d won, %d left", won, left)
		case saved != nil && !errors.Is(saved, ErrStockMoved):
			t.Fatal(saved)
		}
		if err := wallet.Check(ctx, d); err != nil {
			t.Fatal(err)
		}
	})
}

// POST /api/admin/rewards/prizes with stockBefore: null or the stock
// shown; anything else is refused, a stale one answers 409, nothing changes.
func TestAdminSavePrizeStockBefore(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		w, _ := newWelfare(d)
		h := NewWelfareHandler(w)
		three := int64(3)
		id := savePrize(t, w, d, Prize{Title: "奖", Cost: 10, Reward: PrizeReward{Coins: 1}, Stock: &three, Active: true})
		post := func(body string) int {
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			httpx.Handler(h.AdminSavePrize).ServeHTTP(rec, r)
			return rec.Code
		}
		prize := func(stock, before string) string {
			return fmt.Sprintf(`{"id":%d,"title":"奖","cost":10,"reward":{"coins":1},"stock":%s,"active":true,"stockBefore":%s}`, id, stock, before)
		}
		for _, c := range []struct {
			body string
			want int
		}{
			{prize("9", `"3"`), 422},
			{prize("9", `-1`), 422},
			{prize("9", `1.5`), 422},
			{prize("9", `99999999999999999999`), 422},
			{prize("9", `2`), 409},
			{prize("9", `null`), 409},
			{prize("-1", `3`), 422},
		} {
			if got := post(c.body); got != c.want {
				t.Errorf("%s: %d, want %d", c.body, got, c.want)
			}
		}
		var stock int64
		if err := d.QueryRow(context.Background(), `SELECT stock FROM point_prizes WHERE id = ?`, id).Scan(&stock); err != nil || stock != 3 {
			t.Fatalf("stock %d %v after refusals", stock, err)
		}
		if got := post(prize("null", `3`)); got != 200 {
			t.Fatalf("to unlimited: %d", got)
		}
		if got := post(prize("7", `null`)); got != 200 {
			t.Fatalf("back to 7: %d", got)
		}
		if err := d.QueryRow(context.Background(), `SELECT stock FROM point_prizes WHERE id = ?`, id).Scan(&stock); err != nil || stock != 7 {
			t.Fatalf("stock %d %v", stock, err)
		}
	})
}
