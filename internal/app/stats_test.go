package app_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/platform/days"
	"prima/internal/search"
	"prima/internal/stats"
)

type statsDay struct {
	Day           string `json:"day"`
	Rolled        bool   `json:"rolled"`
	ActiveUsers   int64  `json:"activeUsers"`
	NewGuests     int64  `json:"newGuests"`
	Registrations int64  `json:"registrations"`
	Payers        int64  `json:"payers"`
	Revenue       struct {
		Topup, VIP, Total int64
	} `json:"revenue"`
	ByProvider  map[string]int64 `json:"byProvider"`
	Withdrawals struct{ Count, Cents int64 }
	Plays       int64 `json:"plays"`
	Searches    int64 `json:"searches"`
	Funnel      struct {
		Visits        int64 `json:"visits"`
		Registrations int64 `json:"registrations"`
		FirstPayments int64 `json:"firstPayments"`
	} `json:"funnel"`
}

// TestStatsFromActivity makes a day's activity through the phone API (a
// guest who registers, a sandbox top-up, a play, a search), rolls the day
// up through the operator call and reads the figures back: each is the
// baseline plus what the test made, twice rolled or once. Bad input is a
// clear 4xx that changes nothing.
func TestStatsFromActivity(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		ctx := context.Background()
		h := s.Handler
		run := func(method, u, token, body string, status int, content ...string) *apitest.Response {
			t.Helper()
			return apitest.Scenario{Method: method, URL: u, Token: token, Body: body, ExpectedStatus: status, ExpectedContent: content}.Run(t, h)
		}
		op := operatorToken(t, s)
		fin := s.Operator(t, "fin_1", "finance").Token
		today := days.Of(time.Now())
		read := func() statsDay {
			t.Helper()
			run("POST", "/api/admin/stats/rollup", fin, `{"day":"`+today+`"}`, 200)
			rep := apitest.Data[struct {
				Days []statsDay `json:"days"`
			}](t, run("GET", "/api/admin/stats/daily?from="+today+"&to="+today, op, "", 200))
			if len(rep.Days) != 1 || !rep.Days[0].Rolled {
				t.Fatalf("daily: %+v", rep.Days)
			}
			return rep.Days[0]
		}
		base := read()
		audits := auditRows(t, s, "stats.rollup")

		f := newVideoFixture(t, s)
		if _, err := search.Reindex(ctx, s.App.DB); err != nil {
			t.Fatal(err)
		}
		pkg := int64(apitest.Data[map[string]any](t, run("POST", "/api/admin/currencys", op, `{"name":"200元","coins":2000,"price":20000}`, 200))["id"].(float64))
		guest := apitest.Data[map[string]any](t, run("POST", "/api/app/mine/login", "", fmt.Sprintf(`{"devID":%q,"sysType":"h5"}`, apitest.DevID(81)), 200))["token"].(string)
		tok := apitest.Data[map[string]any](t, run("POST", "/api/app/mine/register", guest, `{"account":"stats_amy","passWord":"secret12"}`, 200))["token"].(string)
		order := apitest.Data[map[string]any](t, run("POST", "/api/app/mine/topay", tok,
			fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"stats-topup-0001"}`, pkg), 200))
		pu, err := url.Parse(order["payUrl"].(string))
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		defer srv.Close()
		noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := noRedirect.PostForm(srv.URL+pu.Path, url.Values{"action": {"pay"}, "t": {pu.Query().Get("k")}})
		if err != nil || res.StatusCode != http.StatusSeeOther {
			t.Fatalf("sandbox pay: %v %v", res, err)
		}
		res.Body.Close()
		run("POST", "/api/app/vid/play", tok, fmt.Sprintf(`{"id":%d}`, f.free), 200)
		run("POST", "/api/app/vid/play", tok, fmt.Sprintf(`{"id":%d}`, f.free), 200)
		run("GET", "/api/app/search/overview?q="+url.QueryEscape("v0"), tok, "", 200)

		got := read()
		want := base
		want.ActiveUsers++
		want.NewGuests++
		want.Registrations++
		want.Payers++
		want.Revenue.Topup += 20000
		want.Revenue.Total += 20000
		want.Plays += 2
		want.Searches++
		want.Funnel.Visits++
		want.Funnel.Registrations++
		want.Funnel.FirstPayments++
		check := func(name string, g, w int64) {
			t.Helper()
			if g != w {
				t.Errorf("%s = %d, want %d (baseline %+v)", name, g, w, base)
			}
		}
		check("activeUsers", got.ActiveUsers, want.ActiveUsers)
		check("newGuests", got.NewGuests, want.NewGuests)
		check("registrations", got.Registrations, want.Registrations)
		check("payers", got.Payers, want.Payers)
		check("topup", got.Revenue.Topup, want.Revenue.Topup)
		check("vip", got.Revenue.VIP, want.Revenue.VIP)
		check("total", got.Revenue.Total, want.Revenue.Total)
		check("sandbox", got.ByProvider["sandbox"], base.ByProvider["sandbox"]+20000)
		check("plays", got.Plays, want.Plays)
		check("searches", got.Searches, want.Searches)
		check("visits", got.Funnel.Visits, want.Funnel.Visits)
		check("funnel registrations", got.Funnel.Registrations, want.Funnel.Registrations)
		check("first payments", got.Funnel.FirstPayments, want.Funnel.FirstPayments)
		check("withdrawals", got.Withdrawals.Count, base.Withdrawals.Count)
		if n := auditRows(t, s, "stats.rollup"); n != audits+1 {
			t.Errorf("audit rows stats.rollup: %d, want %d", n, audits+1)
		}

		run("GET", "/api/admin/stats/top?kind=video&from="+today+"&to="+today, fin, "", 200,
			fmt.Sprintf(`{"key":"%d","title":"v0","count":2}`, f.free))
		run("GET", "/api/admin/stats/top?kind=search&from="+today+"&to="+today+"&limit=5", fin, "", 200, `{"key":"v0","count":1}`)
		raw := func(u string) *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, apitest.Scenario{URL: u, Token: fin}.Request())
			return rec
		}
		csv := raw("/api/admin/stats/daily?from=" + today + "&to=" + today + "&format=csv")
		if ct := csv.Header().Get("Content-Type"); csv.Code != 200 || !strings.HasPrefix(ct, "text/csv") || !strings.Contains(csv.Body.String(), "day,rolled,activeUsers") ||
			!strings.Contains(csv.Body.String(), today+",true,") {
			t.Errorf("daily csv: %s\n%s", ct, csv.Body.String())
		}
		top := raw("/api/admin/stats/top?kind=search&from=" + today + "&to=" + today + "&format=csv")
		if top.Code != 200 || !strings.Contains(top.Body.String(), "rank,key,title,count") || !strings.Contains(top.Body.String(), "1,v0,,1") {
			t.Errorf("top csv:\n%s", top.Body.String())
		}

		// Rolling again changes nothing; rolling at once from many
		// callers leaves one row per day and item.
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				if _, err := s.App.Stats.Rollup(ctx, today, nil); err != nil {
					t.Errorf("concurrent rollup: %v", err)
				}
			})
		}
		wg.Wait()
		if again := read(); again.Plays != got.Plays || again.Payers != got.Payers || again.ActiveUsers != got.ActiveUsers {
			t.Errorf("re-rolled: %+v, was %+v", again, got)
		}
		run("GET", "/api/admin/stats/top?kind=video&from="+today+"&to="+today, fin, "", 200, `"count":2}`)

		// Attackers and slips: a clear 4xx and no audit row.
		audits = auditRows(t, s, "stats.rollup")
		for _, c := range []struct{ method, u, body string }{
			{"GET", "/api/admin/stats/daily?from=2026-02-30&to=2026-03-01", ""},
			{"GET", "/api/admin/stats/daily?from=2026-03-02&to=2026-03-01", ""},
			{"GET", "/api/admin/stats/daily?from=2024-01-01&to=2025-12-31", ""},
			{"GET", "/api/admin/stats/daily?from=2026-03-01", ""},
			{"GET", "/api/admin/stats/daily?from=" + url.QueryEscape("2026-03-01\x00") + "&to=2026-03-02", ""},
			{"GET", "/api/admin/stats/daily?from=-1&to=99999999999", ""},
			{"GET", "/api/admin/stats/daily?from=2026-03-01&to=2026-03-02&format=xml", ""},
			{"GET", "/api/admin/stats/top?kind=users&from=2026-03-01&to=2026-03-02", ""},
			{"GET", "/api/admin/stats/top?kind=video&limit=0", ""},
			{"GET", "/api/admin/stats/top?kind=video&limit=99999999999999999999", ""},
			{"POST", "/api/admin/stats/rollup", `{"day":"2999-01-01"}`},
			{"POST", "/api/admin/stats/rollup", `{"day":"2026-13-01"}`},
			{"POST", "/api/admin/stats/rollup", `{"day":"2026-1-1"}`},
			{"POST", "/api/admin/stats/rollup", `{"day":"2026-01-01\u0007"}`},
			{"POST", "/api/admin/stats/rollup", `{"day":20260101}`},
		} {
			res := apitest.Scenario{Method: c.method, URL: c.u, Token: fin, Body: c.body}.Send(t, h)
			if res.Code != 400 && res.Code != 422 {
				t.Errorf("%s %s %s: %d, want 400 or 422: %s", c.method, c.u, c.body, res.Code, res.Body.String())
			}
		}
		if n := auditRows(t, s, "stats.rollup"); n != audits {
			t.Errorf("refused rollups wrote %d audit rows", n-audits)
		}
		// A day never rolled reads as zeros, rolled false.
		run("GET", "/api/admin/stats/daily?from=2001-01-01&to=2001-01-02", op, "", 200, `"day":"2001-01-02","rolled":false`, `"updatedAt":null`)
	})
}

// TestStatsRange is the range rule: both days included, at most a year
// and a day.
func TestStatsRange(t *testing.T) {
	if l, err := stats.Range("2024-02-28", "2024-03-01"); err != nil || strings.Join(l, " ") != "2024-02-28 2024-02-29 2024-03-01" {
		t.Fatalf("%v %v", l, err)
	}
	if _, err := stats.Range("2024-01-01", "2024-12-31"); err != nil {
		t.Fatalf("366 days: %v", err)
	}
	if _, err := stats.Range("2024-01-01", "2025-01-01"); err == nil {
		t.Fatal("367 days accepted")
	}
}
