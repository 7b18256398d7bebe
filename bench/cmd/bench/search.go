package main

// The search benchmark (`go run ./bench/cmd/bench search`): a catalogue of
// generated Chinese titles (bench/internal/searchgen) loaded into a fresh
// SQLite and a fresh PostgreSQL database through the catalogue generator's
// bulk path, indexed with search.Reindex, then queried one request at a time
// by class (1, 2 and 4 characters, suggestions), each class side by side
// with a LIKE baseline over the same rows in the same run.

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"prima/bench/internal/gen"
	"prima/bench/internal/load"
	"prima/bench/internal/repo"
	"prima/bench/internal/searchgen"
	"prima/internal/migrations"
	"prima/internal/platform/db"
	"prima/internal/search"
)

type searchOptions struct {
	n           int
	queries     int
	likeQueries int
	engines     []string
	pgURL       string
	pgDB        string
	seed        uint64
	out         string
	reuse       bool
	pgParallel  int
}

func parseSearchFlags(args []string) (searchOptions, error) {
	var o searchOptions
	fs := flag.NewFlagSet("bench search", flag.ContinueOnError)
	fs.IntVar(&o.n, "n", 1_000_000, "titles in the catalogue")
	fs.IntVar(&o.queries, "queries", 400, "measured index queries per class and engine")
	fs.IntVar(&o.likeQueries, "like-queries", 100, "measured LIKE baseline queries per class and engine (a subset of the same queries)")
	engines := fs.String("engines", "sqlite,postgres", "engines to measure: sqlite, postgres or both")
	fs.StringVar(&o.pgURL, "pg-url", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "PostgreSQL server, any database on it")
	fs.StringVar(&o.pgDB, "pg-db", "prima_bench_search", "PostgreSQL database the bench (re)creates")
	seed := fs.Uint64("seed", 20261123, "title generator seed")
	fs.StringVar(&o.out, "out", "", "also write the markdown report to this file")
	fs.IntVar(&o.pgParallel, "pg-parallel", 0, "PostgreSQL: index with this many concurrent search.Touch transactions instead of search.Reindex (0: Reindex)")
	fs.BoolVar(&o.reuse, "reuse", false, "reuse the databases of an earlier run with the same -n, -seed and migrations (only the queries run again)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	o.seed = *seed
	for _, e := range strings.Split(*engines, ",") {
		switch e = strings.TrimSpace(e); e {
		case "sqlite", "postgres":
			o.engines = append(o.engines, e)
		case "":
		default:
			return o, fmt.Errorf("unknown engine %q (sqlite, postgres)", e)
		}
	}
	switch {
	case len(o.engines) == 0:
		return o, errors.New("-engines names no engine")
	case o.n < 1000 || o.n > 20_000_000:
		return o, errors.New("-n must be between 1000 and 20,000,000")
	case o.queries < 10 || o.likeQueries < 0 || o.likeQueries > o.queries:
		return o, errors.New("-queries must be at least 10 and -like-queries between 0 (no baseline) and -queries")
	}
	return o, nil
}

// Query classes, in report order.
const (
	class1 = "1 character"
	class2 = "2 characters"
	class4 = "4 characters"
	classS = "suggestion (1–2 character prefix)"
)

var searchClasses = []string{class1, class2, class4, classS}

// searchQueries draws count queries of each class from the generator, the
// same for every engine. Warm-up queries come first (unmeasured).
func searchQueries(g *searchgen.Gen, n int, count int, seed uint64) map[string][]string {
	r := rand.New(rand.NewPCG(seed, 99))
	t := searchgen.Chars
	// run is a random run of k Han characters from a random title.
	run := func(k int) string {
		for {
			title := g.Title(1 + r.Int64N(int64(n)))
			var ok [][]rune
			for _, h := range searchgen.HanRuns(title) {
				if len(h) >= k {
					ok = append(ok, h)
				}
			}
			if len(ok) == 0 {
				continue
			}
			h := ok[r.IntN(len(ok))]
			i := r.IntN(len(h) - k + 1)
			return string(h[i : i+k])
		}
	}
	out := map[string][]string{}
	for i := range count {
		// 1 character: a third the ten commonest (the worst case: hundreds
		// of thousands of matches), a third drawn by frequency, a third
		// uniform over the ranks past 200 (the rarer characters).
		var one string
		switch i % 3 {
		case 0:
			one = string(t.Chars[r.IntN(10)])
		case 1:
			one = string(t.Draw(r))
		default:
			one = string(t.Chars[200+r.IntN(len(t.Chars)-200)])
		}
		if i%30 == 0 {
			one = "猫"
		}
		out[class1] = append(out[class1], one)
		// 2 characters: half a placed word, half a pair out of a title.
		var two string
		if i%2 == 0 {
			for utf8.RuneCountInString(two) != 2 {
				two = searchgen.Words[r.IntN(len(searchgen.Words))].Text
			}
		} else {
			two = run(2)
		}
		out[class2] = append(out[class2], two)
		out[class4] = append(out[class4], run(4))
		// Suggestions: what a user has typed so far, 1 or 2 characters of
		// a title's start.
		title := []rune(strings.TrimSpace(g.Title(1 + r.Int64N(int64(n)))))
		k := 1 + i%2
		if len(title) < k {
			k = 1
		}
		out[classS] = append(out[classS], string(title[:k]))
	}
	return out
}

// likeSQL is the baseline: the same page size, recency order, no ranking.
// Suggestions use a prefix pattern, most played first, 8 rows.
const (
	likeSearchSQL  = `SELECT id, title FROM videos WHERE published = 1 AND title LIKE ? ORDER BY created_at DESC, id DESC LIMIT 20`
	likeSuggestSQL = `SELECT id, title FROM videos WHERE published = 1 AND title LIKE ? ORDER BY play_count DESC, id DESC LIMIT 8`
)

type classResult struct {
	index, like       []time.Duration
	indexCPU          []time.Duration // CPU time of the querying thread: robust when the machine is shared
	serverCPU         []time.Duration // PostgreSQL on this machine: its processes' CPU time per index query
	serverWait        []time.Duration // and their time waiting for a CPU
	hits              int64           // summed totals of the index queries
	likeRows          int             // summed rows of the LIKE pages
	misses            int             // queries where LIKE found rows and the index none
	emptyIdx, emptyLk int
}

type engineResult struct {
	engine                string
	parallel              int // PostgreSQL indexed by this many concurrent Touch transactions (0: Reindex)
	load, reindex, finish time.Duration
	docs                  int
	textBytes, idxBytes   int64
	classes               map[string]*classResult
	serverTimes           bool // serverCPU and serverWait were measured
}

func runSearch(args []string) error {
	o, err := parseSearchFlags(args)
	if err != nil {
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	began := time.Now()
	g := searchgen.New(o.seed)
	warm := 40
	qs := searchQueries(g, o.n, warm+o.queries, o.seed)

	var results []engineResult
	migs := os.DirFS(filepath.Join(root, "internal", "migrations"))
	for _, e := range o.engines {
		engine := db.SQLite
		if e == "postgres" {
			engine = db.Postgres
		}
		fp, err := gen.Fingerprint(migs, engine, o.n)
		if err != nil {
			return err
		}
		fp = fmt.Sprintf("%s %s seed=%d", fp, searchgen.Version, o.seed)
		var d *db.DB
		var url string
		var prev *engineResult
		if o.reuse {
			d, url, prev = reuseSearchDB(ctx, e, data, o, fp)
		}
		if d == nil {
			if d, url, err = freshSearchDB(ctx, e, data, o); err != nil {
				return fmt.Errorf("%s: %w", e, err)
			}
		}
		res, err := benchEngine(ctx, d, url, e, g, o, qs, warm, prev, fp)
		d.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", e, err)
		}
		results = append(results, res)
	}
	report := searchReport(o, results, began)
	fmt.Print(report)
	if o.out != "" {
		return os.WriteFile(o.out, []byte(report), 0o644)
	}
	return nil
}

// freshSearchDB makes an empty, migrated database on engine e.
func freshSearchDB(ctx context.Context, e, data string, o searchOptions) (*db.DB, string, error) {
	if e == "sqlite" {
		path := filepath.Join(data, fmt.Sprintf("search-%d.db", o.n))
		for _, p := range []string{path, path + "-wal", path + "-shm"} {
			if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, "", err
			}
		}
		d, err := db.Open(ctx, path)
		if err != nil {
			return nil, "", err
		}
		_, err = migrations.Apply(ctx, d)
		return d, path, err
	}
	if !dbNameOK(o.pgDB) {
		return nil, "", fmt.Errorf("database name %q: use lower-case letters, digits and _", o.pgDB)
	}
	admin, err := db.Open(ctx, o.pgURL)
	if err != nil {
		return nil, "", err
	}
	defer admin.Close()
	if _, err := admin.Exec(ctx, `DROP DATABASE IF EXISTS `+o.pgDB+` WITH (FORCE)`); err != nil {
		return nil, "", err
	}
	if _, err := admin.Exec(ctx, `CREATE DATABASE `+o.pgDB); err != nil {
		return nil, "", err
	}
	url, err := gen.DatabaseURL(o.pgURL, o.pgDB)
	if err != nil {
		return nil, "", err
	}
	d, err := db.Open(ctx, url)
	if err != nil {
		return nil, "", err
	}
	_, err = migrations.Apply(ctx, d)
	return d, url, err
}

func dbNameOK(s string) bool {
	if s == "" || len(s) > 63 {
		return false
	}
	for i, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// dbBytes is the space the database's data takes: on SQLite the used pages
// (the WAL folded in first), on PostgreSQL pg_database_size after a VACUUM.
func dbBytes(ctx context.Context, d *db.DB) (int64, error) {
	if d.Engine == db.Postgres {
		if _, err := d.Exec(ctx, `VACUUM (ANALYZE)`); err != nil {
			return 0, err
		}
		var n int64
		err := d.QueryRow(ctx, `SELECT pg_database_size(current_database())`).Scan(&n)
		return n, err
	}
	if _, err := d.Exec(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		return 0, err
	}
	var pages, free, size int64
	if err := d.QueryRow(ctx, `PRAGMA page_count`).Scan(&pages); err != nil {
		return 0, err
	}
	if err := d.QueryRow(ctx, `PRAGMA freelist_count`).Scan(&free); err != nil {
		return 0, err
	}
	if err := d.QueryRow(ctx, `PRAGMA page_size`).Scan(&size); err != nil {
		return 0, err
	}
	return (pages - free) * size, nil
}

func benchEngine(ctx context.Context, d *db.DB, url, e string, g *searchgen.Gen, o searchOptions, qs map[string][]string, warm int, prev *engineResult, fp string) (engineResult, error) {
	res := engineResult{engine: e, classes: map[string]*classResult{}}
	if prev != nil {
		res = *prev
		res.classes = map[string]*classResult{}
		logf("%s: reusing the indexed catalogue (%d docs)", e, res.docs)
		return measureSearch(ctx, d, res, o, qs, warm)
	}
	progress := func(s string) { logf("%s", s) }
	pgURL := ""
	if e == "postgres" {
		pgURL = url
	}
	rep, err := gen.GenerateTitled(ctx, d, pgURL, o.n, g.Title, progress)
	if err != nil {
		return res, err
	}
	res.load = rep.Total
	before, err := dbBytes(ctx, d)
	if err != nil {
		return res, err
	}
	logf("%s: %d titles loaded in %s; reindexing", e, o.n, rep.Total.Round(100*time.Millisecond))
	t0 := time.Now()
	if e == "postgres" && o.pgParallel > 0 {
		res.parallel = o.pgParallel
		res.docs, err = touchParallel(ctx, d, o.pgParallel)
	} else {
		res.docs, err = search.Reindex(ctx, d)
	}
	if err != nil {
		return res, fmt.Errorf("reindex: %w", err)
	}
	res.reindex = time.Since(t0)
	t0 = time.Now()
	after, err := dbBytes(ctx, d) // also the VACUUM/checkpoint a live install would have had
	if err != nil {
		return res, err
	}
	res.finish = time.Since(t0)
	res.idxBytes = after - before
	textSQL := `SELECT COALESCE(SUM(LENGTH(CAST(title AS BLOB))), 0) FROM videos`
	if e == "postgres" {
		textSQL = `SELECT COALESCE(SUM(octet_length(title)), 0) FROM videos`
	}
	if err := d.QueryRow(ctx, textSQL).Scan(&res.textBytes); err != nil {
		return res, err
	}
	logf("%s: %d docs in %s (+%s vacuum/checkpoint); index %.1f MiB, text %.1f MiB",
		e, res.docs, res.reindex.Round(100*time.Millisecond), res.finish.Round(100*time.Millisecond),
		float64(res.idxBytes)/(1<<20), float64(res.textBytes)/(1<<20))
	if err := saveSearchMeta(ctx, d, fp, res); err != nil {
		return res, err
	}
	return measureSearch(ctx, d, res, o, qs, warm)
}

// touchParallel indexes every video through search.Touch, the index's own
// per-item path (a few round trips an item), in transactions of 500 videos,
// workers at a time: what the write paths cost, against Reindex's batches.
func touchParallel(ctx context.Context, d *db.DB, workers int) (int, error) {
	var maxID int64
	if err := d.QueryRow(ctx, `SELECT COALESCE(MAX(id), 0) FROM videos`).Scan(&maxID); err != nil {
		return 0, err
	}
	const batch = 500
	next := make(chan int64)
	errc := make(chan error, workers)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for range workers {
		go func() {
			for lo := range next {
				err := errors.New("retry")
				for try := 0; err != nil && try < 5; try++ {
					err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
						ids, err := db.All(ctx, tx, func(r db.Scanner) (int64, error) {
							var id int64
							return id, r.Scan(&id)
						}, `SELECT id FROM videos WHERE id >= ? AND id < ? ORDER BY id`, lo, lo+batch)
						if err != nil {
							return err
						}
						for _, id := range ids {
							if err := search.Touch(ctx, tx, search.KindVideo, id); err != nil {
								return err
							}
						}
						return nil
					})
					if err != nil && !db.IsUnique(err) { // two new docs of one second may race for an id: retry
						break
					}
				}
				if err != nil {
					errc <- err
					cancel()
					for range next {
					}
					return
				}
			}
			errc <- nil
		}()
	}
	done := 0
feed:
	for lo := int64(1); lo <= maxID; lo += batch {
		select {
		case next <- lo:
		case <-ctx.Done():
			break feed
		}
		if done++; done%200 == 0 {
			logf("postgres: touched up to video %d of %d", lo+batch-1, maxID)
		}
	}
	close(next)
	var first error
	for range workers {
		if err := <-errc; err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		return 0, first
	}
	counts, err := search.Counts(ctx, d)
	n := 0
	for _, c := range counts {
		n += c
	}
	return n, err
}

// The measured figures of the build are kept beside the data, so a -reuse
// run reports them too.
func saveSearchMeta(ctx context.Context, d *db.DB, fp string, r engineResult) error {
	if _, err := d.Exec(ctx, `CREATE TABLE IF NOT EXISTS bench_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)`); err != nil {
		return err
	}
	v := fmt.Sprintf("%s|%d|%d|%d|%d|%d|%d|%d", fp, r.load, r.reindex, r.finish, r.docs, r.textBytes, r.idxBytes, r.parallel)
	if _, err := d.Exec(ctx, `DELETE FROM bench_meta WHERE k = 'search'`); err != nil {
		return err
	}
	_, err := d.Exec(ctx, `INSERT INTO bench_meta (k, v) VALUES ('search', ?)`, v)
	return err
}

func reuseSearchDB(ctx context.Context, e, data string, o searchOptions, fp string) (*db.DB, string, *engineResult) {
	url := filepath.Join(data, fmt.Sprintf("search-%d.db", o.n))
	if e == "postgres" {
		u, err := gen.DatabaseURL(o.pgURL, o.pgDB)
		if err != nil {
			return nil, "", nil
		}
		url = u
	} else if _, err := os.Stat(url); err != nil {
		return nil, "", nil
	}
	d, err := db.Open(ctx, url)
	if err != nil {
		return nil, "", nil
	}
	var v string
	if err := d.QueryRow(ctx, `SELECT v FROM bench_meta WHERE k = 'search'`).Scan(&v); err != nil || !strings.HasPrefix(v, fp+"|") {
		d.Close()
		return nil, "", nil
	}
	r := engineResult{engine: e}
	var load, reindex, finish int64
	if _, err := fmt.Sscanf(strings.TrimPrefix(v, fp+"|"), "%d|%d|%d|%d|%d|%d|%d", &load, &reindex, &finish, &r.docs, &r.textBytes, &r.idxBytes, &r.parallel); err != nil {
		d.Close()
		return nil, "", nil
	}
	r.load, r.reindex, r.finish = time.Duration(load), time.Duration(reindex), time.Duration(finish)
	return d, url, &r
}

// threadCPU is the CPU time the calling OS thread has used. The measuring
// goroutine is locked to its thread and modernc's SQLite runs in the
// calling goroutine, so a difference is the query's own CPU (on PostgreSQL
// only the client's share), unaffected by other work on the machine.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func measureSearch(ctx context.Context, d *db.DB, res engineResult, o searchOptions, qs map[string][]string, warm int) (engineResult, error) {
	var err error
	e := res.engine
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()

	likeEvery := max(1, o.queries/max(1, o.likeQueries))
	clock := newServerClock(ctx, d)
	res.serverTimes = clock != nil
	for _, c := range searchClasses {
		cr := &classResult{}
		res.classes[c] = cr
		for i, q := range qs[c] {
			measured := i >= warm
			doLike := !measured || (i-warm)%likeEvery == 0 && len(cr.like) < o.likeQueries
			if !measured && i >= 3 || o.likeQueries == 0 {
				doLike = false // a few LIKE warm-ups are enough to load the table
			}
			// Index first, then LIKE on the same query: interleaved, so
			// other work on the machine hits both alike.
			var run0, wait0 time.Duration
			clockOK := false
			if clock != nil && measured && clock.refresh(ctx) == nil {
				run0, wait0, clockOK = clock.read()
			}
			t, c0 := time.Now(), threadCPU()
			var total int
			if c == classS {
				words, err := search.Suggest(ctx, d, q, 8)
				if err != nil {
					return res, fmt.Errorf("suggest %q: %w", q, err)
				}
				total = len(words)
			} else {
				_, total, err = search.Search(ctx, d, search.Query{Text: q, VipLevel: -1, Sort: "relevance", Limit: 20})
				if err != nil {
					return res, fmt.Errorf("search %q: %w", q, err)
				}
			}
			took, cpu := time.Since(t), threadCPU()-c0
			if clockOK {
				if run1, wait1, ok := clock.read(); ok {
					cr.serverCPU = append(cr.serverCPU, run1-run0)
					cr.serverWait = append(cr.serverWait, wait1-wait0)
				}
			}
			if measured {
				cr.index = append(cr.index, took)
				cr.indexCPU = append(cr.indexCPU, cpu)
				cr.hits += int64(total)
				if total == 0 {
					cr.emptyIdx++
				}
			}
			if !doLike {
				continue
			}
			pattern, sqlText := "%"+q+"%", likeSearchSQL
			if c == classS {
				pattern, sqlText = q+"%", likeSuggestSQL
			}
			t = time.Now()
			rows, err := d.Query(ctx, sqlText, pattern)
			if err != nil {
				return res, err
			}
			got := 0
			for rows.Next() {
				var id int64
				var title string
				if err := rows.Scan(&id, &title); err != nil {
					rows.Close()
					return res, err
				}
				got++
			}
			if err := rows.Err(); err != nil {
				return res, err
			}
			rows.Close()
			took = time.Since(t)
			if measured {
				cr.like = append(cr.like, took)
				cr.likeRows += got
				if got == 0 {
					cr.emptyLk++
				}
				if got > 0 && total == 0 {
					cr.misses++
				}
			}
		}
		slices.Sort(cr.index)
		slices.Sort(cr.indexCPU)
		slices.Sort(cr.serverCPU)
		slices.Sort(cr.serverWait)
		slices.Sort(cr.like)
		server := ""
		if len(cr.serverCPU) > 0 {
			server = fmt.Sprintf("; server CPU p50 %s p99 %s, waiting for a CPU p50 %s p99 %s",
				msf(load.Percentile(cr.serverCPU, 50)), msf(load.Percentile(cr.serverCPU, 99)),
				msf(load.Percentile(cr.serverWait, 50)), msf(load.Percentile(cr.serverWait, 99)))
		}
		logf("%s %s: index p50 %s p99 %s (CPU p50 %s p99 %s%s); LIKE p50 %s p99 %s", e, c,
			msf(load.Percentile(cr.index, 50)), msf(load.Percentile(cr.index, 99)),
			msf(load.Percentile(cr.indexCPU, 50)), msf(load.Percentile(cr.indexCPU, 99)), server,
			msf(load.Percentile(cr.like, 50)), msf(load.Percentile(cr.like, 99)))
	}
	return res, nil
}

func msf(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

func engineTitle(e string) string {
	return map[string]string{"sqlite": "SQLite", "postgres": "PostgreSQL"}[e]
}

func searchReport(o searchOptions, results []engineResult, began time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n`go run ./bench/cmd/bench search -n %d -queries %d -like-queries %d`, seed %d, %s, took %s\n\n",
		o.n, o.queries, o.likeQueries, o.seed, began.UTC().Format("2006-01-02 15:04 UTC"), time.Since(began).Round(time.Second))
	b.WriteString("| engine | load rows | index build | docs | text | index | index / text |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range results {
		how := "Reindex"
		if r.parallel > 0 {
			how = fmt.Sprintf("Touch ×%d", r.parallel)
		}
		fmt.Fprintf(&b, "| %s | %s | %s (%s) | %d | %.1f MiB | %.1f MiB | %.2f× |\n", engineTitle(r.engine),
			r.load.Round(100*time.Millisecond), r.reindex.Round(100*time.Millisecond), how, r.docs,
			float64(r.textBytes)/(1<<20), float64(r.idxBytes)/(1<<20), float64(r.idxBytes)/float64(max(1, r.textBytes)))
	}
	b.WriteString("\nOne query at a time; index = `search.Search` (relevance, 20 per page, all kinds) or `search.Suggest` (8); LIKE = `title LIKE '%w%'` newest first, 20 rows (suggestions: `LIKE 'w%'` most played first, 8 rows).\n\n")
	b.WriteString("| class | engine | index p50 | index p99 | index CPU p50 / p99 | LIKE p50 | LIKE p99 | LIKE / index p99 | mean hits | empty (index / LIKE) | LIKE found, index not |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, c := range searchClasses {
		for _, r := range results {
			cr := r.classes[c]
			ip99, lp99 := load.Percentile(cr.index, 99), load.Percentile(cr.like, 99)
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s / %s | %s | %s | %.1f× | %.0f | %d / %d | %d |\n", c, engineTitle(r.engine),
				msf(load.Percentile(cr.index, 50)), msf(ip99), msf(load.Percentile(cr.indexCPU, 50)), msf(load.Percentile(cr.indexCPU, 99)),
				msf(load.Percentile(cr.like, 50)), msf(lp99),
				float64(lp99)/float64(max(1, ip99)), float64(cr.hits)/float64(max(1, len(cr.index))),
				cr.emptyIdx, cr.emptyLk, cr.misses)
		}
	}
	for _, r := range results {
		if !r.serverTimes {
			continue
		}
		fmt.Fprintf(&b, "\n%s server processes per index query (/proc/<pid>/schedstat): on a CPU, and waiting for one.\n\n| class | server CPU p50 | server CPU p99 | waiting p50 | waiting p99 |\n| --- | ---: | ---: | ---: | ---: |\n", engineTitle(r.engine))
		for _, c := range searchClasses {
			cr := r.classes[c]
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", c, msf(load.Percentile(cr.serverCPU, 50)), msf(load.Percentile(cr.serverCPU, 99)),
				msf(load.Percentile(cr.serverWait, 50)), msf(load.Percentile(cr.serverWait, 99)))
		}
	}
	return b.String()
}
