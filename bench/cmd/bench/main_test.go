package main

import (
	"errors"
	"net/url"
	"os"
	"strconv"
	"testing"
	"time"

	"prima/bench/internal/load"
)

func TestBuildMix(t *testing.T) {
	scopes := []scope{{moduleID: 1, subID: 2, total: 10000}, {moduleID: 1, subID: 3, total: 45}}
	m := buildMix(scopes, 20000)
	if len(m.paths) != 20000 || len(m.classes) != 20000 {
		t.Fatalf("%d paths, %d classes", len(m.paths), len(m.classes))
	}
	count := map[string]int{}
	newest := 0
	for i, p := range m.paths {
		u, err := url.Parse(p)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		page, _ := strconv.Atoi(q.Get("pageNumber"))
		last := map[string]int{"2": 500, "3": 3}[q.Get("subModuleID")]
		if last == 0 || q.Get("moduleID") != "1" || q.Get("pageSize") != "20" {
			t.Fatalf("bad URL %s", p)
		}
		if page < 1 || page > last {
			t.Fatalf("page %d outside 1..%d: %s", page, last, p)
		}
		if m.classes[i] == classDeep && last == 500 && page <= 250 {
			t.Fatalf("deep page %d is in the first half: %s", page, p)
		}
		if q.Get("sortType") == "0" {
			newest++
		}
		count[m.classes[i]]++
	}
	share := func(c string) float64 { return float64(count[c]) / 20000 }
	if s := share(classFirst); s < 0.47 || s > 0.53 {
		t.Errorf("pages 1-3 share %.3f, want 0.50", s)
	}
	if s := share(classNear); s < 0.42 || s > 0.48 {
		t.Errorf("pages 4-50 share %.3f, want 0.45", s)
	}
	if s := share(classDeep); s < 0.04 || s > 0.06 {
		t.Errorf("deep share %.3f, want 0.05", s)
	}
	if s := float64(newest) / 20000; s < 0.57 || s > 0.63 {
		t.Errorf("newest-first share %.3f, want 0.60", s)
	}
	if again := buildMix(scopes, 20000); again.paths[123] != m.paths[123] || again.paths[19999] != m.paths[19999] {
		t.Error("the mix is not deterministic")
	}
}

func TestBestRound(t *testing.T) {
	round := func(reqs, errs int64, rss int64, err error) row {
		return row{target: "x", res: load.Result{Requests: reqs, Errors: errs, Elapsed: time.Second}, rssKB: rss, err: err}
	}
	b := best([]row{round(100, 1, 50, nil), round(300, 0, 40, nil), round(200, 2, 70, errors.New("boom"))})
	if b.res.Requests != 300 || b.minRPS != 100 || b.maxRPS != 300 {
		t.Fatalf("picked %d req (range %.0f-%.0f), want the 300 round and range 100-300", b.res.Requests, b.minRPS, b.maxRPS)
	}
	if b.res.Errors != 3 || b.rssKB != 70 {
		t.Fatalf("errors %d rss %d, want the sum 3 and the highest 70", b.res.Errors, b.rssKB)
	}
	if b.err == nil {
		t.Fatal("a failed round's error was dropped")
	}
}

func TestFlags(t *testing.T) {
	o, err := parseFlags([]string{"-quick"})
	if err != nil {
		t.Fatal(err)
	}
	if o.videos != 50_000 || o.duration != 3*time.Second || o.rounds != 1 || o.pgDB != "prima_bench_quick" {
		t.Fatalf("-quick gave %+v", o)
	}
	o, err = parseFlags([]string{"-quick", "-videos", "2000", "-pg-db", "mine", "-engines", "postgres"})
	if err != nil {
		t.Fatal(err)
	}
	if o.videos != 2000 || o.pgDB != "mine" || len(o.engines) != 1 || o.engines[0] != "postgres" {
		t.Fatalf("explicit flags lost to -quick: %+v", o)
	}
	o, err = parseFlags(nil)
	if err != nil || o.videos != 1_000_000 || o.rounds != 3 || len(o.engines) != 2 {
		t.Fatalf("defaults %+v, %v", o, err)
	}
	for _, bad := range [][]string{{"-engines", "mysql"}, {"-engines", ""}, {"-videos", "10"}, {"-concurrency", "0"}, {"-rounds", "0"}} {
		if _, err := parseFlags(bad); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

func TestProcReaders(t *testing.T) {
	// This process is a real process: its own /proc entries must parse.
	pid := os.Getpid()
	if kb, err := peakRSS(pid); err != nil || kb <= 0 {
		t.Fatalf("peakRSS = %d, %v", kb, err)
	}
	if _, err := procCPU(pid); err != nil {
		t.Fatal(err)
	}
	if busy, all := machineCPU(); all <= 0 || busy < 0 || busy > all {
		t.Fatalf("machine CPU busy %s of %s", busy, all)
	}
}
