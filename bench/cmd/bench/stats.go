package main

// One day's statistics rollup over the catalogue (`go run ./bench/cmd/bench
// stats`): the same generated catalogue as the load bench (bench/data/
// catalog-<N>.db, 1,000,000 videos by default), with one day of activity
// written into the owners' daily records — 100,000 plays spread over the
// videos (a few hot, a long tail), active users, new guests and
// registrations, paid orders and withdrawals, searched words — and then
// stats.Service.Rollup of that day, timed; it prints each run and the
// median. The goal: under a second on SQLite. The day's rows are
// replaced on every run, so the cached catalogue is left as other benches
// expect it (they read none of these tables).

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"time"

	"prima/bench/internal/gen"
	"prima/bench/internal/repo"
	"prima/internal/account"
	"prima/internal/catalog"
	"prima/internal/platform/db"
	"prima/internal/platform/ratelimit"
	"prima/internal/search"
	"prima/internal/stats"
	"prima/internal/wallet"
)

// benchDay is the day the bench fills and rolls up.
const benchDay = "2026-01-15"

type searchDays struct{ d *db.DB }

func (s searchDays) SearchFigures(ctx context.Context, day string, limit int) (int64, []stats.Count, error) {
	return search.DayFigures(ctx, s.d, day, limit)
}

func runStats(args []string) error {
	fs := flag.NewFlagSet("bench stats", flag.ContinueOnError)
	videos := fs.Int("videos", 1_000_000, "videos in the catalogue (built once and cached, as for the load bench)")
	plays := fs.Int("plays", 100_000, "plays on the day")
	users := fs.Int("users", 20_000, "users active on the day (a quarter of them new guests, a tenth registering, 2% paying)")
	runs := fs.Int("runs", 5, "timed rollups (the median is reported)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	root, err := repo.Root()
	if err != nil {
		return err
	}
	data := filepath.Join(root, "bench", "data")
	if err := os.MkdirAll(data, 0o750); err != nil {
		return err
	}
	ctx := context.Background()
	path := filepath.Join(data, fmt.Sprintf("catalog-%d.db", *videos))
	if _, err := gen.EnsureSQLite(ctx, os.DirFS(filepath.Join(root, "internal", "migrations")), path, *videos, false, func(s string) { fmt.Fprintln(os.Stderr, s) }); err != nil {
		return err
	}
	d, err := db.Open(ctx, path)
	if err != nil {
		return err
	}
	defer d.Close()
	var maxID int64
	if err := d.QueryRow(ctx, "SELECT COALESCE(MAX(id), 0) FROM videos").Scan(&maxID); err != nil {
		return err
	}
	t0 := time.Now()
	distinct, err := fillDay(ctx, d, maxID, *plays, *users)
	if err != nil {
		return err
	}
	fmt.Printf("stats rollup of %s (SQLite): %d videos, %d plays on %d of them, %d active users; filled in %s\n",
		benchDay, maxID, *plays, distinct, *users, time.Since(t0).Round(time.Millisecond))
	srcs := stats.Sources{
		Users:    account.NewService(d, ratelimit.NewMemory(), account.Options{}),
		Money:    wallet.NewService(d),
		Plays:    catalog.NewService(d, catalog.Options{}),
		Searches: searchDays{d},
	}
	svc := stats.New(d, srcs)
	// Each owner's part once, to see where the time goes.
	span, _ := stats.SpanOf(benchDay)
	parts := []struct {
		name string
		run  func() error
	}{
		{"account (users)", func() error { _, err := srcs.Users.UserFigures(ctx, span); return err }},
		{"wallet (money)", func() error { _, err := srcs.Money.MoneyFigures(ctx, span); return err }},
		{"catalog (plays, top 200)", func() error { _, _, err := srcs.Plays.PlayFigures(ctx, benchDay, stats.TopKeep); return err }},
		{"search (searches, top 200)", func() error { _, _, err := srcs.Searches.SearchFigures(ctx, benchDay, stats.TopKeep); return err }},
	}
	for _, p := range parts {
		t := time.Now()
		if err := p.run(); err != nil {
			return err
		}
		fmt.Printf("  %-28s %s\n", p.name, time.Since(t).Round(100*time.Microsecond))
	}
	var took []time.Duration
	var last stats.Rolled
	for i := range *runs {
		t := time.Now()
		if last, err = svc.Rollup(ctx, benchDay, nil); err != nil {
			return err
		}
		took = append(took, time.Since(t))
		fmt.Printf("  run %d: %s\n", i+1, took[i].Round(100*time.Microsecond))
	}
	if last.Day.Plays != int64(*plays) {
		return fmt.Errorf("rolled %d plays, want %d", last.Day.Plays, *plays)
	}
	slices.Sort(took)
	fmt.Printf("median %s over %d runs (plays %d, active %d, new guests %d, registrations %d, payers %d, revenue %d cents, searches %d; top lists %d videos, %d words)\n",
		took[len(took)/2].Round(100*time.Microsecond), len(took), last.Day.Plays, last.Day.ActiveUsers, last.Day.NewGuests,
		last.Day.Registrations, last.Day.Payers, last.Day.Revenue.Total, last.Day.Searches, last.Videos, last.Words)
	return nil
}

// fillDay replaces benchDay's activity in the owners' records and returns
// how many videos were played.
func fillDay(ctx context.Context, d *db.DB, maxID int64, plays, users int) (int, error) {
	sp, err := stats.SpanOf(benchDay)
	if err != nil {
		return 0, err
	}
	from := sp.From.Unix()
	rng := rand.New(rand.NewPCG(21, 2026))
	// Plays: a Zipf law over the catalogue (a few videos take many plays).
	z := rand.NewZipf(rng, 1.1, 4, uint64(maxID-1))
	perVideo := map[int64]int64{}
	for range plays {
		perVideo[1+int64(z.Uint64())]++
	}
	const uidBase = 900_000_000 // the bench's users, apart from the generated ones
	err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		for _, q := range []string{
			`DELETE FROM video_plays_daily WHERE day = '` + benchDay + `'`,
			`DELETE FROM user_days WHERE day = '` + benchDay + `'`,
			`DELETE FROM search_days WHERE day = '` + benchDay + `'`,
			fmt.Sprintf(`DELETE FROM users WHERE id >= %d`, uidBase),
			fmt.Sprintf(`DELETE FROM orders WHERE user_id >= %d`, uidBase),
			fmt.Sprintf(`DELETE FROM withdrawals WHERE user_id >= %d`, uidBase),
		} {
			if _, err := tx.Exec(ctx, q); err != nil {
				return err
			}
		}
		for vid, n := range perVideo {
			if _, err := tx.Exec(ctx, `INSERT INTO video_plays_daily (day, video_id, plays) VALUES (?, ?, ?)`, benchDay, vid, n); err != nil {
				return err
			}
		}
		for i := range users {
			uid := int64(uidBase + i)
			at := from + rng.Int64N(86400)
			var account any
			var registered, guest int64 = 0, 1
			if i%10 == 0 {
				account, registered = fmt.Sprintf("bench_stats_%d", i), at
			}
			if i%4 != 0 {
				at -= 30 * 86400 // an older user, active today
			}
			if _, err := tx.Exec(ctx, `INSERT INTO users (id, name, account, created_at, updated_at, registered_at, began_guest) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				uid, fmt.Sprintf("游客%d", i), account, at, at, registered, guest); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO user_days (day, user_id) VALUES (?, ?)`, benchDay, uid); err != nil {
				return err
			}
			if i%50 == 0 {
				kind, pay := "coins", []string{"alipay", "wxpay", "sandbox"}[i%3]
				if i%100 == 0 {
					kind = "vip"
				}
				if _, err := tx.Exec(ctx, `INSERT INTO orders (order_no, user_id, product_type, product_id, title, amount, pay_type, status, created_at, expires_at, paid_at)
					VALUES (?, ?, ?, 1, 'bench', ?, ?, 'paid', ?, ?, ?)`, fmt.Sprintf("BS%d", i), uid, kind, 600+rng.Int64N(10000), pay, from, from+900, from+rng.Int64N(86400)); err != nil {
					return err
				}
			}
			if i%500 == 0 {
				if _, err := tx.Exec(ctx, `INSERT INTO withdrawals (order_no, user_id, amount, fee, account_id, act_type, number, status, day, created_at, decided_at)
					VALUES (?, ?, 10000, 0, 1, 1, '6222', 'paid', ?, ?, ?)`, fmt.Sprintf("BW%d", i), uid, benchDay, from, from+3600); err != nil {
					return err
				}
			}
		}
		for i := range 5000 {
			if _, err := tx.Exec(ctx, `INSERT INTO search_days (day, word, count) VALUES (?, ?, ?)`, benchDay, fmt.Sprintf("词%d", i), 1+int64(5000/(i+1))); err != nil {
				return err
			}
		}
		return nil
	})
	return len(perVideo), err
}
