package main

// The operators' video list over the catalogue (`go run ./bench/cmd/bench
// admin`): GET /api/admin/videos as the console calls it (keyset pages of
// 20, each filter of the page), served in-process by the catalog's own
// handler over the same generated catalogue as the load bench
// (bench/data/catalog-<N>.db, or the prima_bench database), one request at
// a time. It reports the server time per page (handler, queries and JSON;
// no network, no gate), p50 / p99 / max by scenario; the goal is
// p99 <= 50 ms on SQLite at 1,000,000 videos.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"prima/bench/internal/gen"
	"prima/bench/internal/repo"
	"prima/internal/catalog"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

type adminOptions struct {
	videos  int
	reps    int
	walk    int
	engines []string
	pgURL   string
	pgDB    string
}

func runAdmin(args []string) error {
	var o adminOptions
	fs := flag.NewFlagSet("bench admin", flag.ContinueOnError)
	fs.IntVar(&o.videos, "videos", 1_000_000, "videos in the catalogue (built once and cached, as for the load bench)")
	fs.IntVar(&o.reps, "reps", 100, "measured requests per scenario (after 10 unmeasured)")
	fs.IntVar(&o.walk, "walk", 50, "pages of the keyset walk (each follows the previous page's nextCursor)")
	engines := fs.String("engines", "sqlite", "engines: sqlite, postgres or both")
	fs.StringVar(&o.pgURL, "pg-url", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "PostgreSQL server")
	fs.StringVar(&o.pgDB, "pg-db", "prima_bench", "PostgreSQL database of the catalogue (shared with the load bench)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	for _, e := range strings.Split(*engines, ",") {
		if e = strings.TrimSpace(e); e == "sqlite" || e == "postgres" {
			o.engines = append(o.engines, e)
		} else if e != "" {
			return fmt.Errorf("unknown engine %q", e)
		}
	}
	root, err := repo.Root()
	if err != nil {
		return err
	}
	data := filepath.Join(root, "bench", "data")
	if err := os.MkdirAll(data, 0o750); err != nil {
		return err
	}
	migs := os.DirFS(filepath.Join(root, "internal", "migrations"))
	ctx := context.Background()
	progress := func(s string) { fmt.Fprintln(os.Stderr, s) }
	fmt.Printf("GET /api/admin/videos, %d videos, pageSize 20, %d requests per scenario, server time in process\n\n", o.videos, o.reps)
	for _, e := range o.engines {
		var url string
		if e == "sqlite" {
			url = filepath.Join(data, fmt.Sprintf("catalog-%d.db", o.videos))
			if _, err := gen.EnsureSQLite(ctx, migs, url, o.videos, false, progress); err != nil {
				return err
			}
		} else if url, _, err = gen.EnsurePostgres(ctx, migs, o.pgURL, o.pgDB, o.videos, false, progress); err != nil {
			return err
		}
		d, err := db.Open(ctx, url)
		if err != nil {
			return err
		}
		err = adminScenarios(ctx, d, e, o)
		d.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

type adminPage struct {
	Data struct {
		List       []struct{ ID int64 } `json:"list"`
		NextCursor *string              `json:"nextCursor"`
	} `json:"data"`
}

func adminScenarios(ctx context.Context, d *db.DB, engine string, o adminOptions) error {
	svc := catalog.NewService(d, catalog.Options{})
	h := catalog.NewHandler(svc)
	serve := httpx.Handler(h.AdminVideos)
	get := func(q string) (adminPage, time.Duration, error) {
		r := httptest.NewRequest("GET", "/api/admin/videos?pageSize=20&"+q, nil).WithContext(ctx)
		w := httptest.NewRecorder()
		t0 := time.Now()
		serve.ServeHTTP(w, r)
		took := time.Since(t0)
		var p adminPage
		if w.Code != 200 {
			return p, took, fmt.Errorf("%s: %d %s", q, w.Code, w.Body)
		}
		return p, took, json.Unmarshal(w.Body.Bytes(), &p)
	}
	// The modules the filters name: the biggest and a small sub-module,
	// a top-level module, the maximum id.
	var maxID, bigSub, smallSub, mod int64
	if err := d.QueryRow(ctx, "SELECT COALESCE(MAX(id), 0) FROM videos").Scan(&maxID); err != nil {
		return err
	}
	if err := d.QueryRow(ctx, "SELECT id FROM modules WHERE pid > 0 ORDER BY id LIMIT 1").Scan(&bigSub); err != nil {
		return err
	}
	if err := d.QueryRow(ctx, "SELECT id FROM modules WHERE pid > 0 AND module_type <> 3 ORDER BY id DESC LIMIT 1").Scan(&smallSub); err != nil {
		return err
	}
	if err := d.QueryRow(ctx, "SELECT id FROM modules WHERE pid = 0 AND module_type = 0 ORDER BY id LIMIT 1").Scan(&mod); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(20, 26))
	deep := func() string { return "cursor=" + catalog.VideoCursor(1+rng.Int64N(max(maxID, 1))) }
	scenarios := []struct {
		name string
		q    func() string
	}{
		{"first page, no filter", func() string { return "" }},
		{"a deep page (random cursor)", deep},
		{"drafts (published=0)", func() string { return "published=0" }},
		{"published, deep", func() string { return "published=1&" + deep() }},
		{"access=gold", func() string { return "access=gold" }},
		{"access=svip, deep", func() string { return "access=svip&" + deep() }},
		{"price 1..50", func() string { return "coinsMin=1&coinsMax=50" }},
		{"moduleType=4 (shorts)", func() string { return "moduleType=4" }},
		{"moduleType=0, deep", func() string { return "moduleType=0&" + deep() }},
		{"a module", func() string { return fmt.Sprintf("moduleID=%d", mod) }},
		{"a module, deep", func() string { return fmt.Sprintf("moduleID=%d&%s", mod, deep()) }},
		{"first sub-module", func() string { return fmt.Sprintf("subModuleID=%d", bigSub) }},
		{"last sub-module, deep", func() string { return fmt.Sprintf("subModuleID=%d&%s", smallSub, deep()) }},
		{"a module, vip, drafts", func() string { return fmt.Sprintf("moduleID=%d&access=vip&published=0", mod) }},
		{"old numbered page 100", func() string { return "pageNumber=100" }},
	}
	fmt.Printf("### %s\n\n| scenario | p50 | p99 | max | rows |\n| --- | ---: | ---: | ---: | ---: |\n", engine)
	for _, sc := range scenarios {
		var times []time.Duration
		rows := 0
		for i := 0; i < 10+o.reps; i++ {
			p, took, err := get(sc.q())
			if err != nil {
				return err
			}
			if i >= 10 {
				times = append(times, took)
				rows += len(p.Data.List)
			}
		}
		fmt.Printf("| %s | %s | %s | %s | %.1f |\n", sc.name, pct(times, 50), pct(times, 99), pct(times, 100), float64(rows)/float64(o.reps))
	}
	// The keyset walk: page after page as the console's "older" button goes.
	var times []time.Duration
	cursor := ""
	for i := 0; i < o.walk; i++ {
		q := ""
		if cursor != "" {
			q = "cursor=" + cursor
		}
		p, took, err := get(q)
		if err != nil {
			return err
		}
		times = append(times, took)
		if p.Data.NextCursor == nil {
			break
		}
		cursor = *p.Data.NextCursor
	}
	fmt.Printf("| keyset walk, %d pages | %s | %s | %s | 20 |\n", len(times), pct(times, 50), pct(times, 99), pct(times, 100))
	// GET /api/admin/modules: the tree with its counts, as after a change
	// (the counts' cache dropped before each request).
	times = times[:0]
	mods := httpx.Handler(h.AdminModules)
	for i := 0; i < 5+o.reps/5; i++ {
		svc.Invalidate()
		r := httptest.NewRequest("GET", "/api/admin/modules", nil).WithContext(ctx)
		w := httptest.NewRecorder()
		t0 := time.Now()
		mods.ServeHTTP(w, r)
		if w.Code != 200 {
			return fmt.Errorf("modules: %d %s", w.Code, w.Body)
		}
		if i >= 5 {
			times = append(times, time.Since(t0))
		}
	}
	fmt.Printf("| GET /api/admin/modules, counts not cached | %s | %s | %s | — |\n\n", pct(times, 50), pct(times, 99), pct(times, 100))
	return nil
}

// pct is the nearest-rank percentile of ts in milliseconds.
func pct(ts []time.Duration, p int) string {
	if len(ts) == 0 {
		return "—"
	}
	s := slices.Clone(ts)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	i = min(max(i, 1), len(s)) - 1
	return fmt.Sprintf("%.2f ms", float64(s[i].Microseconds())/1000)
}
