// Command bench measures GET /api/app/vid/moduleVideo over a large catalogue
// on SQLite and on PostgreSQL, beside a bare net/http baseline, in one run:
//
//	make bench                      # 1,000,000 videos, 10 s per target
//	go run ./bench/cmd/bench -quick # 50,000 videos, 3 s: a smoke run
//	go run ./bench/cmd/bench admin   # the operator console's video list (admin.go)
//	go run ./bench/cmd/bench stats   # one day's statistics rollup (stats.go)
//
// For each engine it builds (or reuses) the catalogue, starts `prima serve`
// on a free loopback port against it, learns the sections from the API the
// way the client does, warms up, and drives a closed-loop load of many
// concurrent clients over a mix of real listing URLs. It prints one markdown
// table: requests per second, median and 99th-percentile latency, errors,
// the server process's peak resident memory, and throughput relative to the
// baseline. See bench/README.md for what the numbers mean.
package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"prima/bench/internal/gen"
	"prima/bench/internal/load"
	"prima/bench/internal/repo"
	"prima/internal/platform/db"
)

type options struct {
	videos      int
	duration    time.Duration
	warmup      time.Duration
	concurrency int
	engines     []string
	pgURL       string
	pgDB        string
	prima       string
	regen       bool
	logLevel    string
	rounds      int
	waitQuiet   time.Duration
	mixSize     int
	maxRequests int64
	out         string
	// pageCache: which prima targets run, with the page cache on (the
	// default configuration), off (-page-cache-mb 0), or both.
	pageCache []bool
	// warmPass: before the warm-up, every URL of the mix once, so a
	// cached target is measured warm.
	warmPass bool
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "admin" {
		if err := runAdmin(os.Args[2:]); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return
			}
			fmt.Fprintln(os.Stderr, "bench admin:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "stats" {
		if err := runStats(os.Args[2:]); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return
			}
			fmt.Fprintln(os.Stderr, "bench stats:", err)
			os.Exit(1)
		}
		return
	}
	if len(os.Args) > 1 && os.Args[1] == "search" {
		if err := runSearch(os.Args[2:]); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return
			}
			fmt.Fprintln(os.Stderr, "bench search:", err)
			os.Exit(1)
		}
		return
	}
	o, err := parseFlags(os.Args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (options, error) {
	var o options
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.IntVar(&o.videos, "videos", 1_000_000, "videos in the catalogue")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "measured load per target")
	fs.DurationVar(&o.warmup, "warmup", 3*time.Second, "unmeasured load before each measurement")
	fs.IntVar(&o.concurrency, "concurrency", 32, "concurrent clients (closed loop: each waits for its answer)")
	engines := fs.String("engines", "sqlite,postgres", "engines to measure: sqlite, postgres or both")
	quick := fs.Bool("quick", false, "smoke run: 50,000 videos, 3 s per target, 1 s warm-up (explicit flags still win)")
	fs.StringVar(&o.pgURL, "pg-url", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "PostgreSQL server, any database on it (the bench creates its own)")
	fs.StringVar(&o.pgDB, "pg-db", "prima_bench", "PostgreSQL database holding the catalogue (prima_bench_quick with -quick)")
	fs.StringVar(&o.prima, "prima", "", "prima binary to run (default: build one into bench/data/bin)")
	fs.BoolVar(&o.regen, "regen", false, "rebuild the catalogues even when cached ones match")
	fs.StringVar(&o.logLevel, "server-log-level", "warn", "prima's log level during the run (info adds an access-log line per request)")
	fs.IntVar(&o.rounds, "rounds", 3, "rounds per target, interleaved; each target reports its fastest round (1 with -quick)")
	fs.DurationVar(&o.waitQuiet, "wait-quiet", 30*time.Second, "before each target, wait up to this long for the machine to be idle (0: don't)")
	fs.IntVar(&o.mixSize, "mix", 20_000, "distinct request URLs in the mix")
	fs.Int64Var(&o.maxRequests, "max-requests", 5_000_000, "request limit per measurement, a bound beside -duration")
	fs.StringVar(&o.out, "out", "", "also write the results (markdown) to this file")
	pageCache := fs.String("page-cache", "both", "prima targets: on (the page cache as configured by default), off (-page-cache-mb 0: every call reads the database) or both")
	fs.BoolVar(&o.warmPass, "warm-pass", true, "before each warm-up, request every URL of the mix once (a warm page cache)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *quick {
		if !set["videos"] {
			o.videos = 50_000
		}
		if !set["duration"] {
			o.duration = 3 * time.Second
		}
		if !set["warmup"] {
			o.warmup = time.Second
		}
		if !set["rounds"] {
			o.rounds = 1
		}
		if !set["pg-db"] {
			o.pgDB = "prima_bench_quick" // keeps the full-size database cached
		}
	}
	switch *pageCache {
	case "on":
		o.pageCache = []bool{true}
	case "off":
		o.pageCache = []bool{false}
	case "both":
		o.pageCache = []bool{true, false}
	default:
		return o, fmt.Errorf("-page-cache %q: on, off or both", *pageCache)
	}
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
	case o.videos < 1000:
		return o, errors.New("-videos must be at least 1000")
	case o.duration <= 0 || o.duration > 10*time.Minute:
		return o, errors.New("-duration must be between 0 and 10m")
	case o.warmup < 0 || o.warmup > time.Minute:
		return o, errors.New("-warmup must be between 0 and 1m")
	case o.concurrency < 1 || o.concurrency > 1024:
		return o, errors.New("-concurrency must be between 1 and 1024")
	case o.rounds < 1 || o.rounds > 9:
		return o, errors.New("-rounds must be between 1 and 9")
	case o.mixSize < 1 || o.maxRequests < 1:
		return o, errors.New("-mix and -max-requests must be positive")
	}
	return o, nil
}

// row is one line of the results table: one round, or the best round of
// several with the spread and totals of all of them.
type row struct {
	target         string
	res            load.Result
	rssKB          int64
	cpu            cpuUse
	err            error
	minRPS, maxRPS float64
	pgSessions     int64 // PostgreSQL sessions opened during the measured load; -1 when not measured
}

const baselineName = "baseline (net/http, 20 fixed videos)"

func primaName(engine string, cached bool) string {
	n := "prima on " + map[string]string{"sqlite": "SQLite", "postgres": "PostgreSQL"}[engine]
	if !cached {
		n += ", no page cache"
	}
	return n
}

// best is the round with the highest throughput, carrying the range of
// throughput, the errors of every round and the highest peak RSS.
func best(rs []row) row {
	sorted := slices.Clone(rs)
	slices.SortFunc(sorted, func(a, b row) int { return cmp.Compare(a.res.RPS(), b.res.RPS()) })
	m := sorted[len(sorted)-1]
	m.minRPS, m.maxRPS = sorted[0].res.RPS(), sorted[len(sorted)-1].res.RPS()
	m.res.Errors = 0
	for _, r := range rs {
		m.res.Errors += r.res.Errors
		m.rssKB = max(m.rssKB, r.rssKB)
		if m.err == nil {
			m.err = r.err
		}
	}
	return m
}

// cpuUse is the CPU time spent during the measured load by the server
// process, by this process (the load generator) and by the whole machine,
// which they share with PostgreSQL.
type cpuUse struct {
	server, client time.Duration
	busy, all      time.Duration // whole machine, summed over cores
}

func run(o options) error {
	root, err := repo.Root()
	if err != nil {
		return err
	}
	data := filepath.Join(root, "bench", "data")
	bin := filepath.Join(data, "bin")
	if err := os.MkdirAll(filepath.Join(data, "logs"), 0o750); err != nil {
		return err
	}
	// Ctrl-C ends the load at once; the servers are then stopped as usual.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	began := time.Now()
	loadBefore := loadAvg()

	primaBin := o.prima
	if primaBin == "" {
		primaBin = filepath.Join(bin, "prima")
		if err := goBuild(root, primaBin, "./cmd/prima"); err != nil {
			return err
		}
	}
	baselineBin := filepath.Join(bin, "baseline")
	if err := goBuild(root, baselineBin, "./bench/cmd/baseline"); err != nil {
		return err
	}

	// Data sets first, so generation time never mixes with measurement.
	migs := os.DirFS(filepath.Join(root, "internal", "migrations"))
	urls := map[string]string{}
	var gens []gen.Report
	progress := func(s string) { logf("%s", s) }
	for _, e := range o.engines {
		var rep gen.Report
		switch e {
		case "sqlite":
			path := filepath.Join(data, fmt.Sprintf("catalog-%d.db", o.videos))
			rep, err = gen.EnsureSQLite(ctx, migs, path, o.videos, o.regen, progress)
			urls[e] = path
		case "postgres":
			urls[e], rep, err = gen.EnsurePostgres(ctx, migs, o.pgURL, o.pgDB, o.videos, o.regen, progress)
		}
		if err != nil {
			return fmt.Errorf("%s catalogue: %w", e, err)
		}
		logf("%s", rep)
		gens = append(gens, rep)
	}

	// Rounds interleave the targets, and each target reports its fastest
	// round: other work on the machine can only slow a round down, so the
	// fastest is the closest to what the server itself can do.
	client := load.NewClient(o.concurrency)
	names := []string{baselineName}
	for _, e := range o.engines {
		for _, cached := range o.pageCache {
			names = append(names, primaName(e, cached))
		}
	}
	byTarget := map[string][]row{}
	quiet := func() {
		if o.waitQuiet > 0 {
			waitQuiet(o.waitQuiet)
		}
	}
	var m mix
	for round := 1; round <= o.rounds; round++ {
		if o.rounds > 1 {
			logf("round %d of %d", round, o.rounds)
		}
		for _, e := range o.engines {
			for _, cached := range o.pageCache {
				quiet()
				r, em := measurePrima(ctx, o, client, primaBin, e, cached, urls[e], filepath.Join(data, "run-"+e), filepath.Join(data, "logs", e+".log"))
				if ctx.Err() != nil {
					return errors.New("interrupted")
				}
				byTarget[r.target] = append(byTarget[r.target], r)
				if m.paths == nil {
					m = em
				}
			}
		}
		if m.paths == nil {
			// No engine answered; the baseline still gets a plausible
			// mix so the run reports something beside the failure.
			m = mix{paths: []string{"/api/app/vid/moduleVideo?subModuleID=1&pageNumber=1&pageSize=20&sortType=0"}}
		}
		// The baseline answers every URL the same way; its row is not
		// split by class.
		quiet()
		r := measure(ctx, o, client, baselineName, baselineBin,
			func(addr string) []string { return []string{"-listen", addr} }, "/check", mix{paths: m.paths}, filepath.Join(data, "logs", "baseline.log"))
		if ctx.Err() != nil {
			return errors.New("interrupted")
		}
		byTarget[r.target] = append(byTarget[r.target], r)
	}
	var rows []row
	for _, n := range names {
		rows = append(rows, best(byTarget[n]))
	}

	report := render(o, gens, rows, len(m.paths), loadBefore, time.Since(began))
	fmt.Print(report)
	if o.out != "" {
		if err := os.WriteFile(o.out, []byte(report), 0o644); err != nil {
			return err
		}
	}
	for _, r := range rows {
		if r.err != nil {
			return fmt.Errorf("%s: %w", r.target, r.err)
		}
	}
	return nil
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

func goBuild(root, out, pkg string) error {
	t0 := time.Now()
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, pkg)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s: %w", pkg, err)
	}
	logf("built %s in %s", pkg, time.Since(t0).Round(100*time.Millisecond))
	return nil
}

// measurePrima runs prima serve against one engine's catalogue and returns
// its row and the request mix it built from the API.
func measurePrima(ctx context.Context, o options, c *http.Client, bin, engine string, cached bool, dbURL, dataDir, logPath string) (row, mix) {
	target := primaName(engine, cached)
	args := func(addr string) []string {
		a := []string{"serve", "-listen", addr, "-data-dir", dataDir, "-database-url", dbURL, "-log-level", o.logLevel}
		if !cached {
			a = append(a, "-page-cache-mb", "0")
		}
		return a
	}
	var sessions func() (int64, bool)
	if engine == "postgres" {
		if admin, err := db.Open(ctx, o.pgURL); err == nil {
			defer admin.Close()
			sessions = func() (int64, bool) {
				var n int64
				err := admin.QueryRow(ctx, `SELECT sessions FROM pg_stat_database WHERE datname = ?`, o.pgDB).Scan(&n)
				return n, err == nil
			}
		}
	}
	var m mix
	r := measureWith(ctx, o, c, target, bin, args, "/api/app/ping/check", logPath, func(base string) (mix, error) {
		scopes, err := discover(ctx, c, base)
		if err != nil {
			return mix{}, err
		}
		m = buildMix(scopes, o.mixSize)
		logf("%s: %d sections with videos, %d request URLs in the mix", target, len(scopes), len(m.paths))
		return m, nil
	}, sessions)
	return r, m
}

// measure runs a server whose mix is already known.
func measure(ctx context.Context, o options, c *http.Client, target, bin string, args func(string) []string, ready string, m mix, logPath string) row {
	return measureWith(ctx, o, c, target, bin, args, ready, logPath, func(string) (mix, error) { return m, nil }, nil)
}

// measureWith starts bin, waits for ready to answer 200, gets the mix from
// paths, warms up, measures, reads the peak RSS and stops the server.
//
// sessions, when not nil, counts the database's sessions so far; the row
// reports how many the server opened during the measured load.
func measureWith(ctx context.Context, o options, c *http.Client, target, bin string, args func(string) []string, ready, logPath string,
	getMix func(base string) (mix, error), sessions func() (int64, bool)) row {
	r := row{target: target, pgSessions: -1}
	addr, err := freeAddr()
	if err != nil {
		r.err = err
		return r
	}
	srv, err := start(bin, args(addr), logPath)
	if err != nil {
		r.err = err
		return r
	}
	defer srv.stop()
	base := "http://" + addr
	if err := srv.waitReady(c, base+ready, time.Minute); err != nil {
		r.err = fmt.Errorf("%w\n%s", err, tail(logPath, 20))
		return r
	}
	m, err := getMix(base)
	if err != nil {
		r.err = err
		return r
	}
	check := func(b []byte) error {
		// A success envelope with at least one video: an empty page is
		// cheaper than a real one and would flatter the server.
		if !bytes.HasPrefix(b, []byte(`{"code":200,`)) || !bytes.Contains(b, []byte(`"list":[{`)) {
			return fmt.Errorf("not a non-empty page: %.160s", b)
		}
		return nil
	}
	lo := load.Options{Concurrency: o.concurrency, Duration: o.warmup, MaxRequests: o.maxRequests, Check: check, Classes: m.classes}
	if o.warmPass {
		logf("%s: every URL of the mix once", target)
		p := load.Run(ctx, c, base, m.paths, load.Options{Concurrency: o.concurrency, Duration: 5 * time.Minute, Pass: true, Check: check})
		if p.Errors > 0 {
			r.err = fmt.Errorf("warm pass: %d errors; %s", p.Errors, p.FirstError)
			return r
		}
	}
	if o.warmup > 0 {
		logf("%s: warming up for %s", target, o.warmup)
		w := load.Run(ctx, c, base, m.paths, lo)
		if w.Requests == 0 {
			r.err = fmt.Errorf("warm-up: no successful request (%d errors; %s)", w.Errors, w.FirstError)
			return r
		}
	}
	logf("%s: %d clients for %s", target, o.concurrency, o.duration)
	lo.Duration = o.duration
	var sessBefore int64
	var sessOK bool
	if sessions != nil {
		sessBefore, sessOK = sessions()
	}
	before := cpuNow(srv.cmd.Process.Pid)
	r.res = load.Run(ctx, c, base, m.paths, lo)
	r.cpu = cpuNow(srv.cmd.Process.Pid).since(before)
	if sessOK {
		// PostgreSQL publishes session counts late (a busy backend within
		// about a second, an idle one within about ten); wait a little so
		// the count holds most of the run's sessions.
		time.Sleep(1500 * time.Millisecond)
		if after, ok := sessions(); ok {
			r.pgSessions = after - sessBefore
		}
	}
	r.rssKB, err = peakRSS(srv.cmd.Process.Pid)
	if err != nil {
		r.err = err
	}
	if r.res.Errors > 0 {
		logf("%s: %d errors, e.g. %s", target, r.res.Errors, r.res.FirstError)
	}
	logf("%s: %.0f req/s, p50 %s, p99 %s, peak RSS %d MiB", target, r.res.RPS(), r.res.P50, r.res.P99, r.rssKB/1024)
	return r
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// server is a child process the bench started and must stop.
type server struct {
	cmd  *exec.Cmd
	done chan error
	log  *os.File
}

func start(bin string, args []string, logPath string) (*server, error) {
	f, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = f, f
	// If the bench dies without stopping it (a panic, SIGKILL), the kernel
	// stops the server too, so no server is left holding a port.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, err
	}
	s := &server{cmd: cmd, done: make(chan error, 1), log: f}
	go func() { s.done <- cmd.Wait() }()
	return s, nil
}

func (s *server) waitReady(c *http.Client, url string, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case err := <-s.done:
			s.done <- err
			return fmt.Errorf("server exited before it was ready: %v", err)
		default:
		}
		resp, err := c.Get(url)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return fmt.Errorf("%s did not answer 200 within %s", url, limit)
}

// stop asks the server to drain (SIGTERM) and kills it if it takes too long.
func (s *server) stop() {
	defer s.log.Close()
	select {
	case err := <-s.done:
		s.done <- err
		return
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// peakRSS is VmHWM, the high-water mark of the process's resident memory.
func peakRSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
		}
	}
	return 0, errors.New("no VmHWM in /proc status")
}

func tail(path string, lines int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	ls := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(ls[max(0, len(ls)-lines):], "\n")
}

// scope is a listing the mix draws from: a sub-module and how many videos
// its listing reaches.
type scope struct {
	moduleID, subID int64
	total           int
}

// discover lists the sections as the client does (modules/list) and reads
// page 1 of each, keeping those that hold videos.
func discover(ctx context.Context, c *http.Client, base string) ([]scope, error) {
	var mods []struct {
		ID   int64 `json:"moduleID"`
		Subs []struct {
			ID  int64 `json:"id"`
			PID int64 `json:"pid"`
		} `json:"subModules"`
	}
	if err := getData(ctx, c, base+"/api/app/modules/list", &mods); err != nil {
		return nil, err
	}
	var out []scope
	for _, m := range mods {
		for _, s := range m.Subs {
			var page struct {
				List  []json.RawMessage `json:"list"`
				Total int               `json:"total"`
			}
			u := fmt.Sprintf("%s/api/app/vid/moduleVideo?moduleID=%d&subModuleID=%d&pageNumber=1&pageSize=20&sortType=0", base, m.ID, s.ID)
			if err := getData(ctx, c, u, &page); err != nil {
				return nil, err
			}
			if page.Total > 0 {
				if len(page.List) != min(20, page.Total) {
					return nil, fmt.Errorf("sub-module %d: page 1 has %d videos of %d", s.ID, len(page.List), page.Total)
				}
				out = append(out, scope{moduleID: m.ID, subID: s.ID, total: page.Total})
			}
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no sub-module lists any video: is the catalogue empty?")
	}
	return out, nil
}

func getData(ctx context.Context, c *http.Client, url string, data any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var env struct {
		Code int             `json:"code"`
		Msg  string          `json:"msg"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	if resp.StatusCode != http.StatusOK || env.Code != 200 {
		return fmt.Errorf("GET %s: %d %s", url, resp.StatusCode, env.Msg)
	}
	return json.Unmarshal(env.Data, data)
}

// mix is the request URLs of a run, each with the class it is reported in.
type mix struct {
	paths, classes []string
}

// Request classes of the mix, by how deep the page is.
const (
	classFirst = "pages 1-3"
	classNear  = "pages 4-50"
	classDeep  = "deep (last half of the listing)"
)

// buildMix makes n listing URLs the way phones ask for them: any section,
// newest first more often than the other orders, mostly the first pages, a
// long tail to page 50 and a few deep pages near the end of the listing.
func buildMix(scopes []scope, n int) mix {
	rng := rand.New(rand.NewPCG(42, 7))
	m := mix{paths: make([]string, n), classes: make([]string, n)}
	for i := range m.paths {
		s := scopes[rng.IntN(len(scopes))]
		last := (s.total + 19) / 20
		var page int
		switch x := rng.IntN(100); {
		case x < 50:
			page, m.classes[i] = 1+rng.IntN(3), classFirst
		case x < 95:
			page, m.classes[i] = 4+rng.IntN(47), classNear
		default:
			page, m.classes[i] = last/2+rng.IntN(last-last/2)+1, classDeep
		}
		page = min(page, last)
		sort := 0
		if x := rng.IntN(10); x >= 6 {
			sort = 1 + x%2
		}
		m.paths[i] = fmt.Sprintf("/api/app/vid/moduleVideo?moduleID=%d&subModuleID=%d&pageNumber=%d&pageSize=20&sortType=%d&playTimeType=0&newsType=0",
			s.moduleID, s.subID, page, sort)
	}
	return m
}

// cpuNow reads the CPU time used so far by pid, by this process and by the
// whole machine.
func cpuNow(pid int) cpuUse {
	var u cpuUse
	u.server, _ = procCPU(pid)
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		u.client = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	u.busy, u.all = machineCPU()
	return u
}

func (u cpuUse) since(before cpuUse) cpuUse {
	return cpuUse{server: u.server - before.server, client: u.client - before.client, busy: u.busy - before.busy, all: u.all - before.all}
}

// machineCPU is the time all cores spent busy, and in total, from the first
// line of /proc/stat (user nice system idle iowait irq softirq steal ...).
func machineCPU() (busy, all time.Duration) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "cpu" {
		return 0, 0
	}
	var total, idle int64
	for i, v := range f[1:min(len(f), 9)] {
		n, _ := strconv.ParseInt(v, 10, 64)
		total += n
		if i == 3 || i == 4 { // idle, iowait
			idle += n
		}
	}
	return time.Duration(total-idle) * 10 * time.Millisecond, time.Duration(total) * 10 * time.Millisecond
}

// procCPU is utime+stime of pid from /proc/<pid>/stat. The kernel reports
// them in USER_HZ ticks, which is 100 per second on Linux.
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name, which is in parentheses and may hold
	// spaces: state is the first, utime the 12th and stime the 13th.
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(ut+st) * 10 * time.Millisecond, nil
}

func render(o options, gens []gen.Report, rows []row, mixSize int, loadBefore string, took time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n## GET /api/app/vid/moduleVideo, %d videos\n\n", o.videos)
	fmt.Fprintf(&b, "%d CPUs (%s), %s, %d concurrent clients, %s per target after %s warm-up, %d distinct URLs, server log level %s; load average before the run %s.\n\n",
		runtime.NumCPU(), cpuModel(), runtime.Version(), o.concurrency, o.duration, o.warmup, mixSize, o.logLevel, loadBefore)
	if o.rounds > 1 {
		fmt.Fprintf(&b, "Each row is the fastest of %d rounds (range: slowest to fastest round's req/s); errors are summed over the rounds and peak RSS is the highest.\n\n", o.rounds)
	}
	b.WriteString("| target | req/s | range | p50 | p99 | errors | peak RSS | req/s vs baseline |\n")
	b.WriteString("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	baseRPS := rows[0].res.RPS()
	for _, r := range rows {
		if r.err != nil && r.res.Requests == 0 {
			fmt.Fprintf(&b, "| %s | failed: %s | | | | | | |\n", r.target, strings.SplitN(r.err.Error(), "\n", 2)[0])
			continue
		}
		ratio := "-"
		if baseRPS > 0 {
			ratio = fmt.Sprintf("%.2f×", r.res.RPS()/baseRPS)
		}
		fmt.Fprintf(&b, "| %s | %.0f | %.0f–%.0f | %s | %s | %d | %.1f MiB | %s |\n", r.target, r.res.RPS(), r.minRPS, r.maxRPS,
			ms(r.res.P50), ms(r.res.P99), r.res.Errors, float64(r.rssKB)/1024, ratio)
	}
	b.WriteString("\nCPU time per request in milliseconds, summed over cores. \"rest\" is the machine's busy time less the server and the load generator: PostgreSQL's processes (new ones come and go with the pool, so they are counted this way) and anything else running.\n\n")
	b.WriteString("| target | server | rest (PostgreSQL) | load generator | machine total | machine busy |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range rows {
		n := float64(r.res.Requests + r.res.Errors)
		if n == 0 || r.cpu.all == 0 {
			continue
		}
		per := func(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d)/float64(time.Millisecond)/n) }
		rest := max(0, r.cpu.busy-r.cpu.server-r.cpu.client)
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %.0f%% |\n", r.target, per(r.cpu.server), per(rest), per(r.cpu.client), per(r.cpu.busy),
			100*float64(r.cpu.busy)/float64(r.cpu.all))
	}
	for _, r := range rows {
		if r.pgSessions >= 0 {
			fmt.Fprintf(&b, "\n%s: %d new PostgreSQL sessions during the measured load (pg_stat_database.sessions; PostgreSQL publishes it late, by up to about 10 s, so the count is approximate).\n", r.target, r.pgSessions)
		}
	}
	b.WriteString("\nLatency by page depth:\n\n| target | class | share | p50 | p99 |\n| --- | --- | ---: | ---: | ---: |\n")
	for _, r := range rows {
		classes := slices.Clone(r.res.ByClass)
		order := []string{classFirst, classNear, classDeep}
		slices.SortFunc(classes, func(a, b load.Class) int { return slices.Index(order, a.Name) - slices.Index(order, b.Name) })
		for _, c := range classes {
			fmt.Fprintf(&b, "| %s | %s | %.0f%% | %s | %s |\n", r.target, c.Name, 100*float64(c.Requests)/float64(max(1, r.res.Requests)), ms(c.P50), ms(c.P99))
		}
	}
	b.WriteString("\nCatalogue generation:\n\n")
	for _, g := range gens {
		fmt.Fprintf(&b, "- %s\n", g)
	}
	fmt.Fprintf(&b, "\nWhole run: %s.\n", took.Round(time.Second))
	return b.String()
}

// busyShare samples how busy the machine's cores are over d, from 0 to 1.
func busyShare(d time.Duration) float64 {
	b0, a0 := machineCPU()
	time.Sleep(d)
	b1, a1 := machineCPU()
	if a1 <= a0 {
		return 0
	}
	return float64(b1-b0) / float64(a1-a0)
}

// waitQuiet waits, up to limit, until the machine is under 15% busy over two
// seconds: other work (a build, a test run) sharing the cores would be
// measured as the server's slowness.
func waitQuiet(limit time.Duration) {
	deadline := time.Now().Add(limit)
	for {
		b := busyShare(2 * time.Second)
		if b < 0.15 {
			return
		}
		if time.Now().After(deadline) {
			logf("warning: the machine is still %.0f%% busy with other work; measuring anyway", 100*b)
			return
		}
	}
}

// loadAvg is the 1, 5 and 15 minute load averages, to show how quiet the
// machine was.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "model name"); ok {
			return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
		}
	}
	return runtime.GOARCH
}
