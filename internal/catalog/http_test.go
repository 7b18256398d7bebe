package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
)

// mux mounts the handler on the paths of the app's route table.
func mux(h *Handler) *httpx.APIMux {
	m := httpx.NewAPIMux()
	for pattern, fn := range map[string]httpx.Handler{
		"GET /api/app/ping/domain/h5":           h.Domains,
		"GET /api/app/modules/list":             h.Modules,
		"GET /api/app/modules/clist":            h.ChildModules,
		"GET /api/app/modules/announce":         h.Announcements,
		"GET /api/app/vid/moduleVideo":          h.ModuleVideos,
		"GET /api/app/vid/moduleSection":        h.ModuleSections,
		"GET /api/app/vid/moduleSection/change": h.SectionChange,
		"GET /api/app/vid/source":               h.Source,
		"GET /api/app/tag/conf/list":            h.Tags,
		"POST /api/app/ads/click":               h.AdClick,
	} {
		m.Handle(pattern, fn)
	}
	return m
}

func decode[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("data: %v\n%s", err, raw)
	}
	return v
}

type scenario struct {
	name, path string
	wantStatus int
	wantTip    string // substring of the tip, for errors
	check      func(t *testing.T, data json.RawMessage)
}

// run runs the scenarios with apitest as GETs to the host m.prima.test;
// they read a fixed fixture, so a failure does not stop the rest.
func run(t *testing.T, m http.Handler, scenarios []scenario) {
	t.Helper()
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			apitest.Scenario{
				URL: sc.path, Headers: map[string]string{"Host": "m.prima.test"},
				ExpectedStatus: sc.wantStatus, ExpectedTip: sc.wantTip,
				Check: func(t *testing.T, res *apitest.Response) {
					if sc.check != nil {
						sc.check(t, res.Envelope.Data)
					}
				},
			}.Run(t, m)
		})
	}
}

func videoIDs(vs []Video) []int64 { return ids(vs) }

func checkPage(wantLen, wantTotal int, wantMore bool, more ...func(t *testing.T, p httpx.Page[Video])) func(*testing.T, json.RawMessage) {
	return func(t *testing.T, raw json.RawMessage) {
		p := decode[httpx.Page[Video]](t, raw)
		if len(p.List) != wantLen || p.Total != wantTotal || p.HasMore != wantMore {
			t.Fatalf("page: %d videos, total %d, hasMore %v; want %d, %d, %v", len(p.List), p.Total, p.HasMore, wantLen, wantTotal, wantMore)
		}
		for _, fn := range more {
			fn(t, p)
		}
	}
}

func sortedBy(key func(Video) int64) func(t *testing.T, p httpx.Page[Video]) {
	return func(t *testing.T, p httpx.Page[Video]) {
		if !slices.IsSortedFunc(p.List, func(a, b Video) int {
			if key(a) != key(b) {
				return int(key(b) - key(a))
			}
			return int(b.ID - a.ID)
		}) {
			t.Errorf("not sorted: %v", p.List)
		}
	}
}

func durationsIn(lo, hi int) func(t *testing.T, p httpx.Page[Video]) {
	return func(t *testing.T, p httpx.Page[Video]) {
		for _, v := range p.List {
			if v.Duration < lo || v.Duration >= hi {
				t.Errorf("video %d lasts %d s, outside [%d, %d)", v.ID, v.Duration, lo, hi)
			}
		}
	}
}

func TestHTTPScenarios(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		fx := newFixture(t, d)
		m := mux(NewHandler(newTestService(d, Options{Gate: "ios", GateURL: "https://go.example.org/", PublicURL: ""})))
		rec := fmt.Sprint(fx.rec)
		v := "/api/app/vid/moduleVideo?subModuleID=" + rec

		run(t, m, []scenario{
			{name: "domains from request", path: "/api/app/ping/domain/h5", wantStatus: 200, check: func(t *testing.T, raw json.RawMessage) {
				d := decode[Domains](t, raw)
				want := []string{"http://m.prima.test"}
				if !slices.Equal(d.API, want) || !slices.Equal(d.Image, want) || !slices.Equal(d.Video, want) {
					t.Errorf("domains %+v", d)
				}
			}},

			// Modules.
			{name: "modules all types in sort order", path: "/api/app/modules/list", wantStatus: 200, check: func(t *testing.T, raw json.RawMessage) {
				ms := decode[[]Module](t, raw)
				var names []string
				for _, m := range ms {
					names = append(names, m.Name)
				}
				if !slices.Equal(names, []string{"短视频", "首页", "社区"}) {
					t.Fatalf("modules %v", names)
				}
				home := ms[1]
				if home.ID != fx.home || home.Type != 0 || len(home.SubModules) != 3 {
					t.Fatalf("home %+v", home)
				}
				if s := home.SubModules; s[0].Name != "推荐" || s[1].Name != "最新" || s[2].Name != "空" || s[0].PID != fx.home || s[0].Type != 0 {
					t.Errorf("home sub-modules %+v", s)
				}
			}},
			{name: "modules of one type", path: "/api/app/modules/list?moduleType=4", wantStatus: 200, check: func(t *testing.T, raw json.RawMessage) {
				ms := decode[[]Module](t, raw)
				if len(ms) != 1 || ms[0].ID != fx.short || len(ms[0].SubModules) != 1 || ms[0].SubModules[0].Type != 4 {
					t.Errorf("type 4: %+v", ms)
				}
			}},
			{name: "modules of a type with none", path: "/api/app/modules/list?moduleType=3", wantStatus: 200, check: func(t *testing.T, raw json.RawMessage) {
				if string(raw) != "[]" {
					t.Errorf("want [], got %s", raw)
				}
			}},
			{name: "unknown module type", path: "/api/app/modules/list?moduleType=5", wantStatus: 422, wantTip: "moduleType"},
			{name: "negative module type", path: "/api/app/modules/list?moduleType=-1", wantStatus: 422, wantTip: "moduleType"},
			{name: "non-numeric module type", path: "/api/app/modules/list?moduleType=home", wantStatus: 422, wantTip: "moduleType"},
			{name: "clist", path: fmt.Sprint("/api/app/modules/clist?pid=", fx.home), wantStatus: 200, check: func(t *testing.T, raw json.RawMessage) {
				subs := decode[[]SubModule](t, raw)
				if len(subs) != 3 || subs[0].ID != fx.rec || subs[1].ID != fx.latest || subs[2].ID != fx.empty {
					t.Errorf("clist %+v", subs)
				}
			}},
			{name: "clist without pid", path: "/api/app/modules/clist", wantStatus: 422, wantTip: "pid"},
			{name: "clist unknown pid", path: "/api/app/modules/clist?pid=999999", wantStatus: 404},
			{name: "clist of a sub-module", path: "/api/app/modules/clist?pid=" + rec, wantStatus: 404},
			{name: "clist pid not a number", path: "/api/app/modules/clist?pid=abc", wantStatus: 422, wantTip: "pid"},

			{name: "announcements current only", path: "/api/app/modules/announce", wantStatus: 200, check: func(t *testing.T, raw json.RawMessage) {
				as := decode[[]Announcement](t, raw)
				if len(as) != 1 || as[0].Title != "现在" || as[0].Link != "/home" {
					t.Errorf("announcements %+v", as)
				}
			}},
			{name: "tags in sort order", path: "/api/app/tag/conf/list", wantStatus: 200, check: func(t *testing.T, raw json.RawMessage) {
				ts := decode[[]Tag](t, raw)
				if len(ts) != 3 || ts[0].Name != "独家" || ts[1].Name != "高清" || ts[2].Name != "剧情" || ts[0].Sort != 1 {
					t.Errorf("tags %+v", ts)
				}
			}},

			// Video listings.
			{name: "page 1", path: v + "&pageSize=20", wantStatus: 200, check: checkPage(20, 45, true, func(t *testing.T, p httpx.Page[Video]) {
				if !slices.Equal(videoIDs(p.List), fx.recVideos[:20]) {
					t.Errorf("page 1 is not the 20 newest: %v", videoIDs(p.List))
				}
				first := p.List[0]
				if first.Title != "rec-00" || first.Cover != "/media/covers/rec-00.jpg" || first.Duration != 30 || first.SubModuleID != fx.rec ||
					first.ModuleID != fx.home || !slices.Equal(first.Tags, []string{"独家", "高清", "剧情"}) || first.CreatedAt != testNow.Add(-time.Hour) {
					t.Errorf("first video %+v", first)
				}
				if p.PageNumber != 1 || p.PageSize != 20 {
					t.Errorf("page echo %d/%d", p.PageNumber, p.PageSize)
				}
			})},
			{name: "last page", path: v + "&pageSize=20&pageNumber=3", wantStatus: 200, check: checkPage(5, 45, false, func(t *testing.T, p httpx.Page[Video]) {
				if !slices.Equal(videoIDs(p.List), fx.recVideos[40:]) {
					t.Errorf("page 3: %v", videoIDs(p.List))
				}
			})},
			{name: "past the end", path: v + "&pageSize=20&pageNumber=4", wantStatus: 200, check: checkPage(0, 45, false)},
			{name: "exactly full last page", path: v + "&pageSize=15&pageNumber=3", wantStatus: 200, check: checkPage(15, 45, false)},
			{name: "default page size", path: v, wantStatus: 200, check: checkPage(20, 45, true)},
			{name: "most played", path: v + "&sortType=1&pageSize=50", wantStatus: 200, check: checkPage(45, 45, false, sortedBy(func(v Video) int64 { return v.PlayCount }))},
			{name: "most liked", path: v + "&sortType=2&pageSize=50", wantStatus: 200, check: checkPage(45, 45, false, sortedBy(func(v Video) int64 { return v.LikeCount }))},
			{name: "newest", path: v + "&sortType=0&pageSize=50", wantStatus: 200, check: checkPage(45, 45, false, sortedBy(func(v Video) int64 { return v.CreatedAt.Unix() }))},
			{name: "under 5 min", path: v + "&playTimeType=1&pageSize=50", wantStatus: 200, check: checkPage(16, 16, false, durationsIn(0, 300))},
			{name: "5 to 20 min", path: v + "&playTimeType=2&pageSize=50", wantStatus: 200, check: checkPage(15, 15, false, durationsIn(300, 1200))},
			{name: "over 20 min", path: v + "&playTimeType=3&pageSize=50&sortType=1", wantStatus: 200, check: checkPage(14, 14, false, durationsIn(1200, 1<<30), sortedBy(func(v Video) int64 { return v.PlayCount }))},
			{name: "last 7 days", path: v + "&newsType=1&pageSize=50", wantStatus: 200, check: checkPage(7, 7, false, func(t *testing.T, p httpx.Page[Video]) {
				for _, v := range p.List {
					if v.CreatedAt.Before(testNow.Add(-7 * 24 * time.Hour)) {
						t.Errorf("video %d from %v", v.ID, v.CreatedAt)
					}
				}
			})},
			{name: "whole module", path: fmt.Sprint("/api/app/vid/moduleVideo?pageSize=50&moduleID=", fx.home), wantStatus: 200, check: checkPage(50, 50, false, func(t *testing.T, p httpx.Page[Video]) {
				if slices.Contains(videoIDs(p.List), fx.draft) {
					t.Error("draft listed")
				}
			})},
			{name: "module and its sub-module", path: fmt.Sprint(v, "&moduleID=", fx.home), wantStatus: 200, check: checkPage(20, 45, true)},
			{name: "sub-module of another module", path: fmt.Sprint(v, "&moduleID=", fx.community), wantStatus: 404},
			{name: "empty section", path: fmt.Sprint("/api/app/vid/moduleVideo?subModuleID=", fx.empty), wantStatus: 200, check: checkPage(0, 0, false)},
			{name: "unknown sub-module", path: "/api/app/vid/moduleVideo?subModuleID=999999", wantStatus: 404},
			{name: "top-level id as sub-module", path: fmt.Sprint("/api/app/vid/moduleVideo?subModuleID=", fx.home), wantStatus: 404},
			{name: "sub-module id as module", path: "/api/app/vid/moduleVideo?moduleID=" + rec, wantStatus: 404},
			{name: "no scope", path: "/api/app/vid/moduleVideo?pageSize=10", wantStatus: 422, wantTip: "moduleID"},
			{name: "page size 0", path: v + "&pageSize=0", wantStatus: 422, wantTip: "pageSize"},
			{name: "page size 100000", path: v + "&pageSize=100000", wantStatus: 422, wantTip: "pageSize"},
			{name: "page number not a number", path: v + "&pageNumber=two", wantStatus: 422, wantTip: "pageNumber"},
			{name: "page number 0", path: v + "&pageNumber=0", wantStatus: 422, wantTip: "pageNumber"},
			{name: "deepest page", path: v + "&pageSize=50&pageNumber=200", wantStatus: 200, check: checkPage(0, 45, false)},
			{name: "past the window", path: v + "&pageSize=50&pageNumber=201", wantStatus: 422, wantTip: "pageNumber"},
			{name: "huge page number", path: v + "&pageNumber=99999999999999999999", wantStatus: 422, wantTip: "pageNumber"},
			{name: "unknown sort", path: v + "&sortType=3", wantStatus: 422, wantTip: "sortType"},
			{name: "unknown play time", path: v + "&playTimeType=4", wantStatus: 422, wantTip: "playTimeType"},
			{name: "unknown news type", path: v + "&newsType=2", wantStatus: 422, wantTip: "newsType"},
			{name: "sub-module not a number", path: "/api/app/vid/moduleVideo?subModuleID=x", wantStatus: 422, wantTip: "subModuleID"},

			// Sections.
			{name: "sections page 1", path: fmt.Sprint("/api/app/vid/moduleSection?moduleID=", fx.home, "&pageSize=2&pSize=2"), wantStatus: 200, check: func(t *testing.T, raw json.RawMessage) {
				p := decode[httpx.Page[Section]](t, raw)
				if p.Total != 3 || !p.HasMore || len(p.List) != 2 {
					t.Fatalf("sections: total %d, more %v, %d listed", p.Total, p.HasMore, len(p.List))
				}
				a, b := p.List[0], p.List[1]
				if a.ID != fx.rec || a.Name != "推荐" || a.ModuleID != fx.home || !slices.Equal(videoIDs(a.Videos), fx.recVideos[:2]) {
					t.Errorf("section 1: %+v", a)
				}
				if b.ID != fx.latest || len(b.Videos) != 2 || b.Videos[0].SubModuleID != fx.latest {
					t.Errorf("section 2: %+v", b)
				}
				if !slices.Equal(a.Videos[0].Tags, []string{"独家", "高清", "剧情"}) || len(a.Videos[1].Tags) != 0 {
					t.Errorf("section tags: %v / %v", a.Videos[0].Tags, a.Videos[1].Tags)
				}
			}},
			{name: "sections page 2", path: fmt.Sprint("/api/app/vid/moduleSection?moduleID=", fx.home, "&pageSize=2&pageNumber=2"), wantStatus: 200, check: func(t *testing.T, raw json.RawMessage) {
				p := decode[httpx.Page[Section]](t, raw)
				if p.Total != 3 || p.HasMore || len(p.List) != 1 || p.List[0].ID != fx.empty || p.List[0].Videos == nil || len(p.List[0].Videos) != 0 {
					t.Errorf("sections page 2: %s", raw)
				}
			}},
			{name: "sections default pSize", path: fmt.Sprint("/api/app/vid/moduleSection?moduleID=", fx.home), wantStatus: 200, check: func(t *testing.T, raw json.RawMessage) {
				p := decode[httpx.Page[Section]](t, raw)
				if len(p.List) != 3 || len(p.List[0].Videos) != 3 {
					t.Errorf("default pSize: %s", raw)
				}
			}},
			{name: "sections pSize too big", path: fmt.Sprint("/api/app/vid/moduleSection?moduleID=", fx.home, "&pSize=13"), wantStatus: 422, wantTip: "pSize"},
			{name: "sections page size 0", path: fmt.Sprint("/api/app/vid/moduleSection?moduleID=", fx.home, "&pageSize=0"), wantStatus: 422, wantTip: "pageSize"},
			{name: "sections without module", path: "/api/app/vid/moduleSection", wantStatus: 422, wantTip: "moduleID"},
			{name: "sections unknown module", path: "/api/app/vid/moduleSection?moduleID=999999", wantStatus: 404},
			{name: "change", path: "/api/app/vid/moduleSection/change?subModuleID=" + rec, wantStatus: 200, check: func(t *testing.T, raw json.RawMessage) {
				out := decode[struct{ List []Video }](t, raw)
				if len(out.List) != 5 {
					t.Fatalf("change gave %d videos", len(out.List))
				}
				for _, v := range out.List {
					if v.SubModuleID != fx.rec || v.ID == fx.draft {
						t.Errorf("video %+v is not a published video of the section", v)
					}
				}
			}},
			{name: "change without sub-module", path: "/api/app/vid/moduleSection/change", wantStatus: 422, wantTip: "subModuleID"},
			{name: "change unknown sub-module", path: "/api/app/vid/moduleSection/change?subModuleID=999999", wantStatus: 404},
			{name: "change page size 0", path: "/api/app/vid/moduleSection/change?pageSize=0&subModuleID=" + rec, wantStatus: 422, wantTip: "pageSize"},
			{name: "change of an empty section", path: fmt.Sprint("/api/app/vid/moduleSection/change?subModuleID=", fx.empty), wantStatus: 200, check: func(t *testing.T, raw json.RawMessage) {
				if string(raw) != `{"list":[]}` {
					t.Errorf("empty change: %s", raw)
				}
			}},

			// Remote configuration.
			{name: "source", path: "/api/app/vid/source", wantStatus: 200, check: func(t *testing.T, raw json.RawMessage) {
				src := decode[map[string]json.RawMessage](t, raw)
				for _, k := range SourceKeys {
					if _, ok := src[k]; !ok {
						t.Errorf("key %s missing", k)
					}
				}
				if got := decode[[]SourceEntry](t, src["APPNAME"]); len(got) != 1 || got[0].Title != "精品" {
					t.Errorf("APPNAME %+v", got)
				}
				if got := decode[[]SourceEntry](t, src["VID"]); len(got) != 2 || got[0].URL != "/a" || got[1].URL != "/b" {
					t.Errorf("VID not in sort order: %+v", got)
				}
				if string(src["CUST"]) != "[]" {
					t.Errorf("an unset key must be an empty list, got %s", src["CUST"])
				}
				if got := decode[[]PreSale](t, src["preSaleConfig"]); len(got) != 1 || got[0] != (PreSale{Type: 3, Status: 1, URL: "/media/presale/popup.jpg"}) {
					t.Errorf("preSaleConfig %+v", got)
				}
				if got := decode[[]Ad](t, src["ads"]); len(got) != 1 || got[0].Position != "home_banner" || got[0].Link != "/mine/vipcenter" {
					t.Errorf("ads %+v", got)
				}
				if got := decode[Gate](t, src["gate"]); got != (Gate{Mode: "ios", RedirectURL: "https://go.example.org/", PublicURL: "http://m.prima.test"}) {
					t.Errorf("gate %+v", got)
				}
			}},
		})
	})
}

func TestDomainsAndGateUsePublicURL(t *testing.T) {
	s := NewService(nil, Options{PublicURL: "https://Video.Example.org:8443/app/"})
	// (Domains answers publicOrigin for every list the operator left empty:
	// lines_test.go.)
	if got := s.publicOrigin("http://ignored"); got != "https://Video.Example.org:8443" {
		t.Errorf("origin %q", got)
	}
	// Without a public URL, a TLS-terminating proxy sets the scheme, but
	// only a trusted one: loopback alone is not enough.
	trusted, _ := httpx.ParseTrustedProxies("10.0.0.0/8")
	origin := func(remote string) string {
		req := httptest.NewRequest("GET", "/api/app/ping/domain/h5", nil)
		req.Host = "m.prima.test"
		req.RemoteAddr = remote
		req.Header.Set("X-Forwarded-Proto", "https")
		var got string
		httpx.RealIP(trusted)(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = requestOrigin(r) })).ServeHTTP(httptest.NewRecorder(), req)
		return got
	}
	if got := origin("203.0.113.9:5555"); got != "http://m.prima.test" {
		t.Errorf("X-Forwarded-Proto trusted from a remote peer: %s", got)
	}
	if got := origin("127.0.0.1:5555"); got != "http://m.prima.test" {
		t.Errorf("X-Forwarded-Proto trusted from an untrusted loopback peer: %s", got)
	}
	if got := origin("10.1.2.3:5555"); got != "https://m.prima.test" {
		t.Errorf("X-Forwarded-Proto from a trusted proxy ignored: %s", got)
	}
}

func listPage(t *testing.T, s *Service, q VideoQuery) httpx.Page[Video] {
	t.Helper()
	p, err := s.ModuleVideos(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Scrolling on: page 2 after page 1 continues from page 1's last video
// (keyset) and matches what an offset read gives on unchanged data; when a
// video arrives between the two requests, the keyset page repeats nothing,
// where an offset page would repeat page 1's last video.
func TestScrollingUsesKeysetAnchors(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		fx := newFixture(t, d)
		q := VideoQuery{SubModuleID: fx.rec, PageNumber: 1, PageSize: 10}

		cold := newTestService(d, Options{})
		q2 := q
		q2.PageNumber = 2
		byOffset := listPage(t, cold, q2) // no anchor: offset

		s := newTestService(d, Options{})
		p1 := listPage(t, s, q)
		if _, ok := s.anchors.get(pageKey{countKey{0, fx.rec, 0, 0}, SortNewest, 10, 2}); !ok {
			t.Fatal("page 1 left no anchor for page 2")
		}
		p2 := listPage(t, s, q2)
		if !slices.Equal(videoIDs(p2.List), videoIDs(byOffset.List)) {
			t.Fatalf("keyset page 2 %v != offset page 2 %v", videoIDs(p2.List), videoIDs(byOffset.List))
		}
		if slices.ContainsFunc(p2.List, func(v Video) bool { return slices.Contains(videoIDs(p1.List), v.ID) }) {
			t.Fatal("pages 1 and 2 overlap")
		}

		// A new video lands at the top between page 2 and page 3.
		err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := InsertVideo(ctx, tx, NewVideo{Title: "new", ModuleID: fx.home, SubModuleID: fx.rec, Published: true, CreatedAt: testNow.Unix()})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		q3 := q
		q3.PageNumber = 3
		p3 := listPage(t, s, q3)
		if p3.List[0].ID != fx.recVideos[20] {
			t.Errorf("keyset page 3 starts at %d, want %d (the video after page 2)", p3.List[0].ID, fx.recVideos[20])
		}
		offset3 := listPage(t, newTestService(d, Options{}), q3)
		if offset3.List[0].ID != fx.recVideos[19] {
			t.Errorf("offset page 3 starts at %d; this test assumes it repeats %d", offset3.List[0].ID, fx.recVideos[19])
		}
	})
}

// Totals are cached for countTTL: a new video shows in the total only after
// it, while the list itself is live.
func TestTotalIsCachedBriefly(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		fx := newFixture(t, d)
		s := newTestService(d, Options{})
		clock := testNow
		s.now = func() time.Time { return clock }
		q := VideoQuery{SubModuleID: fx.latest, PageNumber: 1, PageSize: 20}
		if p := listPage(t, s, q); p.Total != 5 {
			t.Fatalf("total %d", p.Total)
		}
		err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := InsertVideo(ctx, tx, NewVideo{Title: "new", ModuleID: fx.home, SubModuleID: fx.latest, Published: true, CreatedAt: testNow.Unix() - 7200})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		p := listPage(t, s, q)
		if len(p.List) != 6 {
			t.Fatalf("list is not live: %d videos", len(p.List))
		}
		if p.Total != 6 {
			t.Fatalf("total %d below the videos listed", p.Total)
		}
		q.PageSize = 2
		if p := listPage(t, s, q); p.Total != 5 {
			t.Fatalf("total %d within the TTL, want the cached 5", p.Total)
		}
		clock = clock.Add(countTTL + time.Second)
		if p := listPage(t, s, q); p.Total != 6 {
			t.Fatalf("total %d after the TTL, want 6", p.Total)
		}
	})
}

// "换一批" returns a window of pageSize consecutive videos of the section
// that starts anywhere but at the first video (the section shows that
// batch already), and successive calls differ.
func TestSectionChangeBatches(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		fx := newFixture(t, d)
		s := newTestService(d, Options{})
		var asked []int
		s.intn = func(n int) int { asked = append(asked, n); return n - 1 }
		vs, err := s.SectionChange(ctx, fx.rec, 5)
		if err != nil {
			t.Fatal(err)
		}
		// 45 videos, windows of 5: starts 1..40, the last one ends the section.
		if !slices.Equal(asked, []int{40}) || !slices.Equal(videoIDs(vs), fx.recVideos[40:45]) {
			t.Fatalf("last window: asked %v, got %v", asked, videoIDs(vs))
		}
		s.intn = func(n int) int { return 0 }
		if vs, _ = s.SectionChange(ctx, fx.rec, 7); !slices.Equal(videoIDs(vs), fx.recVideos[1:8]) {
			t.Fatalf("first window must skip the batch on screen: got %v", videoIDs(vs))
		}

		real := newTestService(d, Options{})
		seen := map[int64]bool{}
		for range 12 {
			vs, err := real.SectionChange(ctx, fx.rec, 5)
			if err != nil {
				t.Fatal(err)
			}
			at := slices.Index(fx.recVideos, vs[0].ID)
			if at < 1 || !slices.Equal(videoIDs(vs), fx.recVideos[at:at+5]) {
				t.Fatalf("batch %v is not a later run of the section", videoIDs(vs))
			}
			seen[vs[0].ID] = true
		}
		if len(seen) < 2 {
			t.Fatal("12 calls returned the same batch")
		}
	})
}
