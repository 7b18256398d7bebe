package main

// The console benchmark (`go run ./bench/cmd/bench console`): the operator
// console's video list, GET /api/admin/videos, over the generated catalogue
// (1,000,000 videos by default) on SQLite, one request at a time as an
// operator paging through it does. Each class of list (no filter, one
// module, one sub-module, published only, an access level, a price range,
// short videos) is walked by its keyset cursor from the first page down to
// -depth pages; a title search (a scan: "contains" cannot use an index) is
// reported on its own. Beside them, in the same run and on the same server,
// the phone app's own listing (GET /api/app/vid/moduleVideo) over the same
// sub-modules: the page a user waits for, which the console's page is
// compared with. Latency is what the client measures over loopback: the
// server's time plus a few tens of microseconds.

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"prima/bench/internal/gen"
	"prima/bench/internal/load"
	"prima/bench/internal/repo"
)

type consoleOptions struct {
	videos int
	depth  int
	rounds int
	prima  string
	out    string
}

func parseConsoleFlags(args []string) (consoleOptions, error) {
	var o consoleOptions
	fs := flag.NewFlagSet("bench console", flag.ContinueOnError)
	fs.IntVar(&o.videos, "videos", 1_000_000, "videos in the catalogue (the one `make bench` builds is reused)")
	fs.IntVar(&o.depth, "depth", 50, "pages walked by cursor per list")
	fs.IntVar(&o.rounds, "rounds", 3, "walks of every list (the first warms the caches and is not counted)")
	fs.StringVar(&o.prima, "prima", "", "prima binary to run (default: build one into bench/data/bin)")
	fs.StringVar(&o.out, "out", "", "also write the markdown report to this file")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	switch {
	case o.videos < 1000:
		return o, errors.New("-videos must be at least 1000")
	case o.depth < 1 || o.depth > 1000:
		return o, errors.New("-depth must be between 1 and 1000")
	case o.rounds < 2 || o.rounds > 20:
		return o, errors.New("-rounds must be between 2 and 20")
	}
	return o, nil
}

// consoleList is one class of the console's video list: its query (without
// cursor and pageSize).
type consoleList struct {
	name  string
	query url.Values
}

func runConsole(args []string) error {
	o, err := parseConsoleFlags(args)
	if err != nil {
		return err
	}
	root, err := repo.Root()
	if err != nil {
		return err
	}
	data := filepath.Join(root, "bench", "data")
	if err := os.MkdirAll(filepath.Join(data, "logs"), 0o750); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	began := time.Now()
	bin := o.prima
	if bin == "" {
		bin = filepath.Join(data, "bin", "prima")
		if err := goBuild(root, bin, "./cmd/prima"); err != nil {
			return err
		}
	}
	dbPath := filepath.Join(data, fmt.Sprintf("catalog-%d.db", o.videos))
	rep, err := gen.EnsureSQLite(ctx, os.DirFS(filepath.Join(root, "internal", "migrations")), dbPath, o.videos, false, func(s string) { logf("%s", s) })
	if err != nil {
		return fmt.Errorf("catalogue: %w", err)
	}
	logf("%s", rep)

	// An operator of the content role and an API key for it, made from the
	// shell as an operator's script would (admin create is idempotent).
	dataDir := filepath.Join(data, "run-console")
	common := []string{"-data-dir", dataDir, "-database-url", dbPath}
	create := exec.CommandContext(ctx, bin, append([]string{"admin", "create", "-account", "bench_content", "-role", "content"}, common...)...)
	create.Stdin = strings.NewReader("Bench-pass-1\n")
	if out, err := create.CombinedOutput(); err != nil {
		return fmt.Errorf("admin create: %w: %s", err, out)
	}
	keyOut, err := exec.CommandContext(ctx, bin, append([]string{"admin", "key", "-account", "bench_content", "-ttl", "2h"}, common...)...).Output()
	if err != nil {
		return fmt.Errorf("admin key: %w", err)
	}
	key := strings.TrimSpace(string(keyOut))

	addr, err := freeAddr()
	if err != nil {
		return err
	}
	srv, err := start(bin, append([]string{"serve", "-listen", addr, "-log-level", "warn"}, common...), filepath.Join(data, "logs", "console.log"))
	if err != nil {
		return err
	}
	defer srv.stop()
	base := "http://" + addr
	c := load.NewClient(1)
	if err := srv.waitReady(c, base+"/api/app/ping/check", time.Minute); err != nil {
		return err
	}
	get := func(path string, auth bool, into any) (time.Duration, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
		if err != nil {
			return 0, err
		}
		if auth {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		t0 := time.Now()
		res, err := c.Do(req)
		if err != nil {
			return 0, err
		}
		defer res.Body.Close()
		var env struct {
			Code int             `json:"code"`
			Msg  string          `json:"msg"`
			Data json.RawMessage `json:"data"`
		}
		err = json.NewDecoder(res.Body).Decode(&env)
		took := time.Since(t0)
		if err != nil || env.Code != 200 {
			return took, fmt.Errorf("GET %s: %d %s %v", path, res.StatusCode, env.Msg, err)
		}
		return took, json.Unmarshal(env.Data, into)
	}

	// The module tree gives real ids for the filters.
	var mods []struct {
		ID         int64 `json:"id"`
		ModuleType int   `json:"moduleType"`
		SubModules []struct {
			ID int64 `json:"id"`
		} `json:"subModules"`
	}
	if _, err := get("/api/admin/modules", true, &mods); err != nil {
		return err
	}
	var lists []consoleList
	add := func(name string, kv ...string) {
		q := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			q.Set(kv[i], kv[i+1])
		}
		lists = append(lists, consoleList{name, q})
	}
	add("every video, newest first")
	var subs []int64
	for _, m := range mods {
		for _, s := range m.SubModules {
			subs = append(subs, s.ID)
		}
	}
	if len(mods) == 0 || len(subs) == 0 {
		return errors.New("the catalogue has no modules")
	}
	add("one module", "moduleID", fmt.Sprint(mods[0].ID))
	add("one sub-module", "subModuleID", fmt.Sprint(subs[len(subs)/2]))
	add("published only", "published", "1")
	add("drafts only", "published", "0")
	add("access: super VIP", "access", "svip")
	add("access: gold, 10-50 coins", "access", "gold", "coinsMin", "10", "coinsMax", "50")
	add("short videos (module type 4)", "moduleType", "4")
	add("module + published + VIP", "moduleID", fmt.Sprint(mods[len(mods)-1].ID), "published", "1", "access", "vip")

	type sample struct {
		first, deeper []time.Duration
		rows          int
		deepest       int
	}
	results := make([]sample, len(lists))
	walk := func(i int, counted bool) error {
		l := lists[i]
		cursor := ""
		for page := 1; page <= o.depth; page++ {
			q := url.Values{}
			for k, v := range l.query {
				q[k] = v
			}
			q.Set("pageSize", "20")
			if cursor != "" {
				q.Set("cursor", cursor)
			}
			var p struct {
				List       []json.RawMessage `json:"list"`
				NextCursor *string           `json:"nextCursor"`
			}
			took, err := get("/api/admin/videos?"+q.Encode(), true, &p)
			if err != nil {
				return fmt.Errorf("%s, page %d: %w", l.name, page, err)
			}
			if counted {
				if page == 1 {
					results[i].first = append(results[i].first, took)
				} else {
					results[i].deeper = append(results[i].deeper, took)
				}
				results[i].rows += len(p.List)
				results[i].deepest = max(results[i].deepest, page)
			}
			if p.NextCursor == nil {
				break
			}
			cursor = *p.NextCursor
		}
		return nil
	}
	var title []time.Duration
	var users []time.Duration
	for round := 0; round < o.rounds; round++ {
		counted := round > 0
		for i := range lists {
			if err := walk(i, counted); err != nil {
				return err
			}
		}
		for _, word := range []string{"高清", "完整版", "no-such-title"} {
			var p struct{}
			took, err := get("/api/admin/videos?pageSize=20&title="+url.QueryEscape(word), true, &p)
			if err != nil {
				return err
			}
			if counted {
				title = append(title, took)
			}
		}
		for j, s := range subs {
			if j >= 40 {
				break
			}
			var p struct{}
			took, err := get(fmt.Sprintf("/api/app/vid/moduleVideo?subModuleID=%d&pageNumber=1&pageSize=20&sortType=0", s), false, &p)
			if err != nil {
				return err
			}
			if counted {
				users = append(users, took)
			}
		}
	}

	pct := func(ds []time.Duration, p float64) time.Duration {
		s := slices.Clone(ds)
		slices.Sort(s)
		return load.Percentile(s, p)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## The console's video list over %d videos (SQLite)\n\n", o.videos)
	fmt.Fprintf(&b, "GET /api/admin/videos, 20 a page, one request at a time, pages walked by `cursor` to %d deep, %d counted rounds; %s.\n\n", o.depth, o.rounds-1, cpuModel())
	b.WriteString("| list | first page p50 | first page p99 | deeper pages p50 | deeper pages p99 | deepest page | rows seen |\n|---|---|---|---|---|---|---|\n")
	var all []time.Duration
	for i, l := range lists {
		r := results[i]
		all = append(all, r.first...)
		all = append(all, r.deeper...)
		deeper50, deeper99 := "—", "—"
		if len(r.deeper) > 0 {
			deeper50, deeper99 = ms(pct(r.deeper, 50)), ms(pct(r.deeper, 99))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d | %d |\n", l.name, ms(pct(r.first, 50)), ms(pct(r.first, 99)), deeper50, deeper99, r.deepest, r.rows)
	}
	fmt.Fprintf(&b, "| **every page above** | | | **%s** (p50) | **%s** (p99) | | %d pages |\n", ms(pct(all, 50)), ms(pct(all, 99)), len(all))
	fmt.Fprintf(&b, "| title contains (a scan of every title) | %s | %s | | | | %d searches |\n", ms(pct(title, 50)), ms(pct(title, 99)), len(title))
	fmt.Fprintf(&b, "| baseline: the phone app's moduleVideo, first page | %s | %s | | | | %d pages |\n\n", ms(pct(users, 50)), ms(pct(users, 99)), len(users))
	fmt.Fprintf(&b, "The console's pages at p50 take %.2fx the phone app's listing. Run took %s.\n", float64(pct(all, 50))/float64(pct(users, 50)), time.Since(began).Round(time.Second))
	fmt.Print(b.String())
	if o.out != "" {
		return os.WriteFile(o.out, []byte(b.String()), 0o644)
	}
	return nil
}
