package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"prima/internal/app"
	"prima/internal/app/apptest"
	"prima/internal/catalog"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
)

const bootIndex = `<!doctype html><html><head><title>t</title></head><body><div id="root"></div></body></html>`

// bootCatalogue: two home modules with a sub-module each; the first
// module's section holds three videos, the first two with covers here and
// one with a cover elsewhere.
func bootCatalogue(t *testing.T, s *apptest.Server) (first, second int64) {
	t.Helper()
	err := s.App.DB.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		var err error
		if first, err = catalog.InsertModule(ctx, tx, 0, "推荐", 0, 1, 1); err != nil {
			return err
		}
		sub1, err := catalog.InsertModule(ctx, tx, first, "热门", 0, 1, 1)
		if err != nil {
			return err
		}
		if second, err = catalog.InsertModule(ctx, tx, 0, "电影", 0, 2, 1); err != nil {
			return err
		}
		sub2, err := catalog.InsertModule(ctx, tx, second, "动作", 0, 1, 1)
		if err != nil {
			return err
		}
		for i, c := range []string{"https://cdn.example.com/x.jpg", "/media/covers/b.jpg", "/media/covers/set/2026/11/abcdefghijklmnopqrstuvwxyz.jpg"} {
			id, err := catalog.InsertVideo(ctx, tx, catalog.NewVideo{Title: "v", ModuleID: first, SubModuleID: sub1, Published: true, CreatedAt: int64(100 + i)})
			if err != nil {
				return err
			}
			if err := catalog.SetVideoCover(ctx, tx, id, c); err != nil {
				return err
			}
		}
		if _, err = catalog.InsertVideo(ctx, tx, catalog.NewVideo{Title: "w", Cover: "/media/covers/c.jpg", ModuleID: second, SubModuleID: sub2, Published: true, CreatedAt: 50}); err != nil {
			return err
		}
		// The first home banner is the first preload; a popup is not.
		if _, err = catalog.InsertAd(ctx, tx, catalog.Ad{Title: "p", Image: "/media/ads/p.jpg", Position: "popup"}, 0, 0, 0, 1); err != nil {
			return err
		}
		_, err = catalog.InsertAd(ctx, tx, catalog.Ad{Title: "b", Image: "/media/ads/b1.jpg", Position: "home_banner"}, 1, 0, 0, 1)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return first, second
}

var bootBlock = regexp.MustCompile(`<script type="application/json" id="prima-home-data">(.*?)</script>`)

type boot struct {
	Source   json.RawMessage `json:"source"`
	Modules  json.RawMessage `json:"modules"`
	Announce json.RawMessage `json:"announce"`
	Sections *struct {
		ModuleID int64           `json:"moduleID"`
		Page     json.RawMessage `json:"page"`
	} `json:"sections"`
	Detail *struct {
		ID    int64  `json:"id"`
		Title string `json:"title"`
		Cover string `json:"cover"`
	} `json:"detail"`
}

func parseBoot(t *testing.T, page []byte) boot {
	t.Helper()
	m := bootBlock.FindSubmatch(page)
	if m == nil {
		t.Fatalf("no boot block in %s", page)
	}
	var b boot
	if err := json.Unmarshal(m[1], &b); err != nil {
		t.Fatal(err)
	}
	return b
}

// data is a call's envelope data, as the client would get it.
func data(t *testing.T, h http.Handler, url string) json.RawMessage {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || rec.Code != 200 {
		t.Fatalf("%s: %d %s", url, rec.Code, rec.Body)
	}
	return env.Data
}

func sameJSON(t *testing.T, what string, got, want json.RawMessage) {
	t.Helper()
	var a, b bytes.Buffer
	if err := json.Compact(&a, got); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := json.Compact(&b, want); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if a.String() != b.String() {
		t.Fatalf("%s differs from the API's answer:\n got %s\nwant %s", what, a.String(), b.String())
	}
}

// TestHomeBoot: the page for home carries the answers the client would ask
// for, byte for byte the API's, and preloads the first section's own covers.
func TestHomeBoot(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		first, _ := bootCatalogue(t, s)
		page := app.RenderHomeBoot(s.App, s.Handler, httptest.NewRequest("GET", "/home", nil), []byte(bootIndex))
		b := parseBoot(t, page)
		sameJSON(t, "source", b.Source, data(t, s.Handler, "/api/app/vid/source"))
		sameJSON(t, "modules", b.Modules, data(t, s.Handler, "/api/app/modules/list?moduleType=0"))
		sameJSON(t, "announce", b.Announce, data(t, s.Handler, "/api/app/modules/announce"))
		if b.Sections == nil || b.Sections.ModuleID != first {
			t.Fatalf("sections %+v, want module %d", b.Sections, first)
		}
		sameJSON(t, "sections", b.Sections.Page, data(t, s.Handler, "/api/app/vid/moduleSection?moduleID="+strconv.FormatInt(first, 10)+"&pageNumber=1&pageSize=4&pSize=4"))
		// The banner (high priority), then the first section's covers,
		// newest first: the set one with its card-size srcset (as
		// web/src/lib/cover.ts writes it), b.jpg; the CDN one is not preloaded.
		var got []string
		for _, m := range regexp.MustCompile(`<link rel="preload" as="image" href="[^"]+"[^>]*>`).FindAll(page, -1) {
			got = append(got, string(m))
		}
		want := []string{
			`<link rel="preload" as="image" href="/media/ads/b1.jpg" fetchpriority="high">`,
			`<link rel="preload" as="image" href="/media/covers/set/2026/11/abcdefghijklmnopqrstuvwxyz.jpg" imagesrcset="/media/covers/set/2026/11/abcdefghijklmnopqrstuvwxyz.w360.jpg 360w, /media/covers/set/2026/11/abcdefghijklmnopqrstuvwxyz.jpg 480w" imagesizes="(max-width: 430px) 50vw, 215px">`,
			`<link rel="preload" as="image" href="/media/covers/b.jpg">`,
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("preloads\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if i, j := bytes.Index(page, []byte("prima-home-data")), bytes.Index(page, []byte("</head>")); i < 0 || i > j {
			t.Fatal("the block is not in the head")
		}
	})
}

// TestHomeBootThroughTheServer: /, /main and /home carry it, never
// cached with validators; other routes and files do not.
func TestHomeBootThroughTheServer(t *testing.T) {
	s := apptest.New(t, db.SQLite)
	bootCatalogue(t, s)
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		r := httptest.NewRequest("GET", path, nil)
		s.Handler.ServeHTTP(rec, r)
		return rec
	}
	idx := get("/mine")
	if !strings.Contains(idx.Body.String(), "</head>") {
		t.Skip("the web app is not built into this tree (make web): the boot needs its index.html")
	}
	for _, p := range []string{"/", "/main", "/home"} {
		rec := get(p)
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `id="prima-home-data"`) || rec.Header().Get("Last-Modified") != "" || rec.Header().Get("Cache-Control") != "no-cache" {
			t.Fatalf("%s: %d %v %.200s", p, rec.Code, rec.Header(), rec.Body)
		}
		csp := rec.Header().Get("Content-Security-Policy")
		script, _, _ := strings.Cut(csp[strings.Index(csp, "script-src"):], ";")
		if strings.Contains(script, "unsafe-inline") {
			t.Fatalf("%s: the boot must not need inline script: %s", p, csp)
		}
	}
	for _, p := range []string{"/mine", "/home/search"} {
		if strings.Contains(get(p).Body.String(), "prima-home-data") {
			t.Fatalf("%s carries the boot block", p)
		}
	}
	// A theme chosen in the app comes back on a boot page's <html> too.
	rec := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/home", nil)
	r.AddCookie(&http.Cookie{Name: "prima_theme", Value: "dark"})
	s.Handler.ServeHTTP(rec, r)
	if !strings.Contains(rec.Body.String(), `<html data-prefers-color-scheme="dark"`) || !strings.Contains(rec.Body.String(), `id="prima-home-data"`) {
		t.Fatalf("themed home: %.300s", rec.Body)
	}
}

// TestHomeBootSkipsWhatItCannotKnow: a default tab that is a sub-module
// gets no sections; image lines turn the preloads off.
func TestHomeBootSkipsWhatItCannotKnow(t *testing.T) {
	s := apptest.New(t, db.SQLite)
	first, second := bootCatalogue(t, s)
	mods := data(t, s.Handler, "/api/app/modules/list?moduleType=0")
	for _, c := range []struct {
		source string
		want   int64
	}{
		{`{}`, first},
		{`{"MODULESELECTINDEX":[{"title":"1"}]}`, first},
		{`{"MODULESELECTINDEX":[{"title":"3"}]}`, second}, // 推荐, 热门, 电影
		{`{"MODULESELECTINDEX":[{"title":"2"}]}`, 0},      // a sub-module
		{`{"MODULESELECTINDEX":[{"title":"99"}]}`, first},
		{`{"MODULESELECTINDEX":[{"title":"-1"}]}`, first},
		{`{"MODULESELECTINDEX":[{"title":"x"}]}`, first},
	} {
		if got := app.DefaultModule(json.RawMessage(c.source), mods); got != c.want {
			t.Errorf("%s: module %d, want %d", c.source, got, c.want)
		}
	}
	if got := app.DefaultModule(nil, json.RawMessage(`[]`)); got != 0 {
		t.Errorf("no modules: %d", got)
	}
	ctx := context.Background()
	if _, err := s.App.Catalog.SetLines(ctx, audit.Actor{UID: audit.CLI}, catalog.Lines{Image: []string{"https://img.example.com"}}); err != nil {
		t.Fatal(err)
	}
	page := app.RenderHomeBoot(s.App, s.Handler, httptest.NewRequest("GET", "/home", nil), []byte(bootIndex))
	// Covers come from an image line now; the banner is still this server's.
	if bytes.Contains(page, []byte(`href="/media/covers/`)) || !bytes.Contains(page, []byte(`href="/media/ads/b1.jpg"`)) {
		t.Fatalf("preloads with image lines: %s", page)
	}
	if b := parseBoot(t, page); b.Sections == nil {
		t.Fatal("the sections are still embedded")
	}
	if app.RenderHomeBoot(s.App, s.Handler, httptest.NewRequest("GET", "/home", nil), []byte("<p>no head</p>")) != nil {
		t.Fatal("an index without </head> must be served as it is")
	}
}

// TestDetailPreloadsItsCover: /detail/{id} preloads the video's own cover
// (the player's poster); nothing for a cover elsewhere, an unknown id or a
// path that is not an id.
func TestDetailPreloadsItsCover(t *testing.T) {
	s := apptest.New(t, db.SQLite)
	bootCatalogue(t, s)
	render := func(path string) []byte {
		return app.RenderHomeBoot(s.App, s.Handler, httptest.NewRequest("GET", path, nil), []byte(bootIndex))
	}
	var id int64
	if err := s.App.DB.QueryRow(context.Background(), `SELECT id FROM videos WHERE cover = '/media/covers/b.jpg'`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	page := render("/detail/" + strconv.FormatInt(id, 10))
	if !bytes.Contains(page, []byte(`<link rel="preload" as="image" href="/media/covers/b.jpg" fetchpriority="high">`)) {
		t.Fatalf("detail page: %s", page)
	}
	// The block: the configuration and the video's public title and cover,
	// nothing else of vid/info (access, playback and the like depend on who
	// asks).
	b := parseBoot(t, page)
	sameJSON(t, "source", b.Source, data(t, s.Handler, "/api/app/vid/source"))
	var info struct{ Title string }
	if err := json.Unmarshal(data(t, s.Handler, "/api/app/vid/info?id="+strconv.FormatInt(id, 10)), &info); err != nil {
		t.Fatal(err)
	}
	if b.Detail == nil || b.Detail.ID != id || b.Detail.Title != info.Title || b.Detail.Cover != "/media/covers/b.jpg" || b.Modules != nil || b.Sections != nil {
		t.Fatalf("detail block: %+v", b)
	}
	m := bootBlock.FindSubmatch(page)
	var keys map[string]map[string]json.RawMessage
	if err := json.Unmarshal(m[1], &keys); err != nil || len(keys) != 2 || len(keys["detail"]) != 3 {
		t.Fatalf("detail block holds more than it should: %s", m[1])
	}
	var cdn int64
	if err := s.App.DB.QueryRow(context.Background(), `SELECT id FROM videos WHERE cover LIKE 'https:%'`).Scan(&cdn); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/detail/" + strconv.FormatInt(cdn, 10), "/detail/999999", "/detail/abc", "/detail/2x", "/detail/", "/detail/1234567890123456", "/mine"} {
		if page := render(p); page != nil {
			t.Errorf("%s: %s", p, page)
		}
	}
}

// TestShortBoot: /shortvideo carries the short modules and the first
// module's first feed page (the API's answers for the client's query) and
// preloads the first clip's cover.
func TestShortBoot(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		var mod int64
		err := s.App.DB.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
			var err error
			if mod, err = catalog.InsertModule(ctx, tx, 0, "短视频", 4, 1, 1); err != nil {
				return err
			}
			sub, err := catalog.InsertModule(ctx, tx, mod, "热门", 4, 1, 1)
			if err != nil {
				return err
			}
			for i, c := range []string{"/media/covers/s2.jpg", "/media/covers/s1.jpg"} {
				if _, err := catalog.InsertVideo(ctx, tx, catalog.NewVideo{Title: "s", Cover: c, ModuleID: mod, SubModuleID: sub, Published: true, CreatedAt: int64(10 - i)}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		page := app.RenderHomeBoot(s.App, s.Handler, httptest.NewRequest("GET", "/shortvideo", nil), []byte(bootIndex))
		m := bootBlock.FindSubmatch(page)
		if m == nil {
			t.Fatalf("no block: %s", page)
		}
		var b struct {
			ShortModules json.RawMessage `json:"shortModules"`
			ShortFeed    *struct {
				ModuleID int64           `json:"moduleID"`
				Page     json.RawMessage `json:"page"`
			} `json:"shortFeed"`
			Modules json.RawMessage `json:"modules"`
		}
		if err := json.Unmarshal(m[1], &b); err != nil {
			t.Fatal(err)
		}
		sameJSON(t, "short modules", b.ShortModules, data(t, s.Handler, "/api/app/modules/list?moduleType=4"))
		if b.ShortFeed == nil || b.ShortFeed.ModuleID != mod || b.Modules != nil {
			t.Fatalf("block %s", m[1])
		}
		sameJSON(t, "feed", b.ShortFeed.Page, data(t, s.Handler, "/api/app/vid/moduleVideo?moduleID="+strconv.FormatInt(mod, 10)+"&sortType=0&pageNumber=1&pageSize=10&playTimeType=0&newsType=0"))
		if !bytes.Contains(page, []byte(`<link rel="preload" as="image" href="/media/covers/s2.jpg" fetchpriority="high">`)) || bytes.Contains(page, []byte(`s1.jpg" fetchpriority`)) {
			t.Fatalf("preload: %s", page)
		}
	})
}

var firstLayer = regexp.MustCompile(`(?s)<div id="prima-first".*?</div>\n`)

// TestFirstScreen: /home, /shortvideo and /detail/{id} carry the layer the
// server draws (firstscreen.go) before </body>, after the app's root: the
// picture is the one in the data (the first banner, the first clip's
// cover, the video's cover), escaped, and nothing else from the data is
// written (titles are user text). No banner, no layer; "/" (splash) gets
// home's, "/main" none; a visitor without a session gets the same.
func TestFirstScreen(t *testing.T) {
	s := apptest.New(t, db.SQLite)
	bootCatalogue(t, s)
	var short int64
	err := s.App.DB.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		if _, err := catalog.InsertAnnouncement(ctx, tx, catalog.Announcement{Title: `<b>公告</b>`, Content: "c"}, 1, 0, 0, 1); err != nil {
			return err
		}
		mod, err := catalog.InsertModule(ctx, tx, 0, "短视频", 4, 1, 1)
		if err != nil {
			return err
		}
		sub, err := catalog.InsertModule(ctx, tx, mod, "热门", 4, 1, 1)
		if err != nil {
			return err
		}
		short, err = catalog.InsertVideo(ctx, tx, catalog.NewVideo{Title: `"><img src=x onerror=alert(1)>`, Cover: `/media/covers/s"1<.jpg`, ModuleID: mod, SubModuleID: sub, Published: true, CreatedAt: 10})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// A signed-in visitor: the app keeps its token in this cookie too.
	signedIn := func(path string) *http.Request {
		r := httptest.NewRequest("GET", path, nil)
		r.AddCookie(&http.Cookie{Name: "prima_token", Value: "t"})
		return r
	}
	render := func(path string) []byte {
		return app.RenderHomeBoot(s.App, s.Handler, signedIn(path), []byte(bootIndex))
	}
	layer := func(path string) string {
		t.Helper()
		page := render(path)
		m := firstLayer.Find(page)
		if m == nil {
			t.Fatalf("%s: no first screen in %s", path, page)
		}
		if i, root, end := bytes.Index(page, m), bytes.Index(page, []byte(`<div id="root">`)), bytes.Index(page, []byte("</body>")); i < root || i > end {
			t.Fatalf("%s: the layer is not between the root and </body>: %s", path, page)
		}
		return string(m)
	}

	home := layer("/home")
	want := `<div id="prima-first" class="prima-first" data-path="/home" aria-hidden="true"><div class="prima-first-head"></div><div class="prima-first-note"></div>` +
		`<div class="prima-first-banner"><img src="/media/ads/b1.jpg" alt=""></div><div class="prima-first-tabs"></div></div>` + "\n"
	if home != want {
		t.Fatalf("home:\n%s\nwant\n%s", home, want)
	}

	// The clip's cover is escaped; its title is not written at all.
	if got := layer("/shortvideo"); !strings.Contains(got, `<div class="prima-first-reel"><img src="/media/covers/s&#34;1&lt;.jpg" alt=""></div>`) ||
		strings.Contains(got, "onerror") || !strings.Contains(got, `data-path="/shortvideo"`) {
		t.Fatalf("short: %s", got)
	}
	var id int64
	if err := s.App.DB.QueryRow(context.Background(), `SELECT id FROM videos WHERE cover = '/media/covers/b.jpg'`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	path := "/detail/" + strconv.FormatInt(id, 10)
	if got := layer(path); got != `<div id="prima-first" class="prima-first" data-path="`+path+`" aria-hidden="true"><div class="prima-first-nav"></div>`+
		`<div class="prima-first-player"><img src="/media/covers/b.jpg" alt=""></div></div>`+"\n" {
		t.Fatalf("detail: %s", got)
	}
	// A hostile title is only in the data block, as JSON that cannot end
	// it; the layer has none of it.
	if page := render("/detail/" + strconv.FormatInt(short, 10)); bytes.Contains(page, []byte("<img src=x")) || bytes.Contains(page, []byte(`s"1<`)) ||
		bytes.Contains(firstLayer.Find(page), []byte("onerror")) || parseBoot(t, page).Detail.Title != `"><img src=x onerror=alert(1)>` {
		t.Fatalf("detail of a hostile video: %s", page)
	}
	// Splash ("/") goes on to home as soon as a guest sign-in is under way:
	// its layer is home's, naming "/" as the way there. "/main" gets none.
	if got := layer("/"); got != strings.Replace(want, `data-path="/home"`, `data-path="/home" data-via="/"`, 1) {
		t.Fatalf("/: %s", got)
	}
	if page := render("/main"); page == nil || bytes.Contains(page, []byte("prima-first")) {
		t.Fatalf("/main: %s", page)
	}
	// A visitor without a session gets the same page: the app draws it
	// while the guest signs in, so nothing in it may depend on who asks.
	for _, p := range []string{"/", "/home", "/shortvideo", path} {
		page := app.RenderHomeBoot(s.App, s.Handler, httptest.NewRequest("GET", p, nil), []byte(bootIndex))
		if !bytes.Equal(page, render(p)) {
			t.Fatalf("%s without a session:\n%s\nwith one:\n%s", p, page, render(p))
		}
	}

	// The app's preloads (marked by the web build) wait in a template
	// beside the layer on such a page; the entry's own stay in the head,
	// and a page without a layer keeps them all.
	const built = `<!doctype html><html><head><title>t</title>` +
		`<script type="module" crossorigin src="/assets/index-a.js"></script>` + "\n" +
		`<link rel="modulepreload" crossorigin href="/assets/loader-b.js">` + "\n" +
		`<link rel="modulepreload" crossorigin href="/assets/start-c.js" data-prima-later>` + "\n" +
		`<link rel="preload" as="style" crossorigin fetchpriority="low" href="/assets/Home-d.css" data-prima-later data-prima-page="home">` + "\n" +
		`</head><body><div id="root"></div></body></html>`
	page := app.RenderHomeBoot(s.App, s.Handler, signedIn("/home"), []byte(built))
	head, body, _ := strings.Cut(string(page), "</head>")
	want = `<template id="prima-later"><link rel="modulepreload" crossorigin href="/assets/start-c.js" data-prima-later>` + "\n" +
		`<link rel="preload" as="style" crossorigin fetchpriority="low" href="/assets/Home-d.css" data-prima-later data-prima-page="home">` + "\n" + `</template>` + "\n" + `<div id="prima-first"`
	if strings.Contains(head, "data-prima-later") || !strings.Contains(head, `href="/assets/loader-b.js"`) || !strings.Contains(head, `src="/assets/index-a.js"`) || !strings.Contains(body, want) {
		t.Fatalf("held-back preloads:\n%s", page)
	}
	if page := app.RenderHomeBoot(s.App, s.Handler, signedIn("/main"), []byte(built)); bytes.Count(page, []byte("data-prima-later")) != 2 || bytes.Contains(page, []byte("prima-later\"")) {
		t.Fatalf("/main (no layer):\n%s", page)
	}
	// Home's own preloads are for home: a shared video's page and the short
	// videos' drop them (the app's stay, held back).
	for _, p := range []string{path, "/shortvideo"} {
		page := string(app.RenderHomeBoot(s.App, s.Handler, signedIn(p), []byte(built)))
		if !strings.Contains(page, `<template id="prima-later"><link rel="modulepreload" crossorigin href="/assets/start-c.js" data-prima-later>`) || strings.Contains(page, "Home-d.css") {
			t.Fatalf("%s keeps the app's preloads and drops home's:\n%s", p, page)
		}
	}

	// Without a banner home has no LCP picture of its own: no layer (the
	// rest of the boot is still there).
	bare := apptest.New(t, db.SQLite)
	err = bare.App.DB.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		_, err := catalog.InsertModule(ctx, tx, 0, "推荐", 0, 1, 1)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	page = app.RenderHomeBoot(bare.App, bare.Handler, signedIn("/home"), []byte(bootIndex))
	if page == nil || !bytes.Contains(page, []byte("prima-home-data")) || bytes.Contains(page, []byte("prima-first")) {
		t.Fatalf("home without a banner: %s", page)
	}
}
