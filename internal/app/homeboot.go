package app

import (
	"bytes"
	"context"
	"encoding/json"
	"html"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"prima/internal/catalog"
	"prima/internal/media"
)

// Home's first screen in the page itself. A phone opening /home used to
// wait for a chain before the first cover could even be requested: the
// HTML, then the entry script, then modules/list (and, on a first visit,
// vid/source for the default tab), then moduleSection, then the cover. On
// slow 4G each link is a round trip or more. For the paths that show home
// (/, /main, /home) the server now puts the answers of those calls into
// the HTML as a JSON data block (not script: the CSP forbids inline
// script, and a data block is never run) and preloads the first covers, so
// the picture loads beside the scripts and the app renders home from the
// data it already has.
//
// The answers are made by the same handlers the client would call, run in
// process with the same query strings the client sends, so their shapes
// cannot drift from the API's (web/src/app/boot.ts reads them into the same
// query-cache entries). Only public calls are embedded: none depends on who
// asks.

// homeBootPaths are the client routes whose first screen is home.
var homeBootPaths = map[string]bool{"/": true, "/main": true, "/home": true}

// homePath is home's own route, the one whose page the server also draws.
const homePath = "/home"

// shortPath is the short-video tab: its first screen is the first short
// module's feed (web/src/features/shortvideo/pages/ShortVideoPage.tsx,
// api/get-feed.ts: moduleVideo newest first, 10 a page).
const (
	shortPath         = "/shortvideo"
	bootShortPageSize = 10
)

// The client's query strings (web/src/features/catalog/api/*.ts): any
// change there must change here, or the embedded answers are simply not
// used (the cache keys would not match) and the app asks as before.
const (
	bootSectionsPageSize = 4
	bootSectionVideos    = 4
	bootPreloadCovers    = 2 // the eager cards of the first section
)

type homeBoot struct {
	api   http.Handler
	lines interface {
		Lines(ctx context.Context) (catalog.Lines, error)
	}
}

// bootData is the JSON block: each field is a call's `data`, verbatim.
type bootData struct {
	Source   json.RawMessage `json:"source,omitempty"`
	Modules  json.RawMessage `json:"modules,omitempty"`
	Announce json.RawMessage `json:"announce,omitempty"`
	Sections *bootSections   `json:"sections,omitempty"`
	// The short-video tab's: modules/list?moduleType=4 and the first
	// module's first feed page.
	ShortModules json.RawMessage `json:"shortModules,omitempty"`
	ShortFeed    *bootSections   `json:"shortFeed,omitempty"`
	// A detail page's: what of vid/info is the same for everyone (the
	// title and the cover), for the page to draw while the guest signs in.
	Detail *bootDetail `json:"detail,omitempty"`
}

type bootDetail struct {
	ID    int64  `json:"id"`
	Title string `json:"title"`
	Cover string `json:"cover"`
}

type bootSections struct {
	ModuleID int64           `json:"moduleID"`
	Page     json.RawMessage `json:"page"`
}

// call runs one GET of the API in process and returns its envelope's data,
// or nil when it did not succeed (the client then asks for itself).
func (b *homeBoot) call(r *http.Request, target string) json.RawMessage {
	sub := r.Clone(r.Context())
	sub.Method = http.MethodGet
	sub.Body = http.NoBody
	sub.ContentLength = 0
	sub.RequestURI = ""
	u := *r.URL
	path, query, _ := strings.Cut(target, "?")
	u.Path, u.RawPath, u.RawQuery = path, "", query
	sub.URL = &u
	sub.Header = r.Header.Clone()
	sub.Header.Del("Accept-Encoding") // a plain answer to parse
	sub.Header.Del("If-None-Match")
	sub.Header.Del("If-Modified-Since")
	rec := &recorder{header: http.Header{}, status: http.StatusOK}
	b.api.ServeHTTP(rec, sub)
	if rec.status != http.StatusOK {
		return nil
	}
	var env struct {
		Code int             `json:"code"`
		Data json.RawMessage `json:"data"`
	}
	if json.Unmarshal(rec.body.Bytes(), &env) != nil || env.Code != http.StatusOK || len(env.Data) == 0 {
		return nil
	}
	return env.Data
}

// defaultModule is the home tab the client shows a visitor with no tab
// remembered (web/src/features/catalog/tabs.ts pickTab): the tabs are each
// module followed by its sub-modules; MODULESELECTINDEX's first title is a
// 1-based index into them, else the first. 0 when that tab is a
// sub-module (its list depends on a sort the client keeps) or none exists.
func defaultModule(source, modules json.RawMessage) int64 {
	var ms []struct {
		ModuleID   int64 `json:"moduleID"`
		SubModules []struct {
			ID int64 `json:"id"`
		} `json:"subModules"`
	}
	if json.Unmarshal(modules, &ms) != nil {
		return 0
	}
	type tab struct {
		id     int64
		module bool
	}
	var tabs []tab
	for _, m := range ms {
		tabs = append(tabs, tab{m.ModuleID, true})
		for _, s := range m.SubModules {
			tabs = append(tabs, tab{s.ID, false})
		}
	}
	if len(tabs) == 0 {
		return 0
	}
	idx := 1
	var src struct {
		Sel []struct {
			Title string `json:"title"`
		} `json:"MODULESELECTINDEX"`
	}
	if json.Unmarshal(source, &src) == nil && len(src.Sel) > 0 {
		if n, err := strconv.Atoi(strings.TrimSpace(src.Sel[0].Title)); err == nil {
			idx = n
		}
	}
	if idx < 1 || idx > len(tabs) {
		idx = 1
	}
	if t := tabs[idx-1]; t.module {
		return t.id
	}
	return 0
}

// firstCovers are the covers of the first section's first cards: the
// images on screen at first paint (under the banner).
func firstCovers(page json.RawMessage, n int) []string {
	var p struct {
		List []struct {
			Videos []struct {
				Cover string `json:"cover"`
			} `json:"videos"`
		} `json:"list"`
	}
	if json.Unmarshal(page, &p) != nil || len(p.List) == 0 {
		return nil
	}
	var out []string
	for _, v := range p.List[0].Videos {
		// Only this server's own pictures: the path the client will ask for.
		if len(out) < n && strings.HasPrefix(v.Cover, "/media/") {
			out = append(out, v.Cover)
		}
	}
	return out
}

// firstBanner is the picture of home's first banner (the ads the remote
// configuration places on home, web/src/features/catalog/components/
// Banner.tsx): the widest image of the first screen, so its LCP when there
// is one. The banner shows ad.image as it is, from this server.
func firstBanner(source json.RawMessage) string {
	var src struct {
		Ads []struct {
			Image    string `json:"image"`
			Position string `json:"position"`
		} `json:"ads"`
	}
	if json.Unmarshal(source, &src) != nil {
		return ""
	}
	for _, a := range src.Ads {
		if a.Position == "home_banner" && a.Image != "" {
			if strings.HasPrefix(a.Image, "/media/") {
				return a.Image
			}
			return ""
		}
	}
	return ""
}

// A card-size cover set (media.CardKey) is shown with this srcset and
// sizes (web/src/lib/cover.ts); the preload must say the same, or the
// browser would not match it to the card's request.
var coverSet = regexp.MustCompile(`^/media/covers/set/(?:[0-9]{4}/[0-9]{2}/)?[a-z0-9]{20,64}\.jpg$`)

const cardSizes = "(max-width: 430px) 50vw, 215px"

func cardSrcSet(path string) string {
	if !coverSet.MatchString(path) {
		return ""
	}
	return "/media/" + media.CardKey(strings.TrimPrefix(path, "/media/")) + " 360w, " + path + " 480w"
}

// detailID is the id of a /detail/{id} path, or 0.
func detailID(p string) int64 {
	rest, ok := strings.CutPrefix(p, "/detail/")
	if !ok || rest == "" || len(rest) > 15 || strings.Trim(rest, "0123456789") != "" {
		return 0
	}
	id, _ := strconv.ParseInt(rest, 10, 64)
	return id
}

// wantsBoot says whether the page at path p gets anything put in it.
func wantsBoot(p string) bool { return homeBootPaths[p] || p == shortPath || detailID(p) > 0 }

// renderDetail preloads a video's cover, which the player shows as its
// poster: the detail page's LCP, and draws it where the player will be.
// Of vid/info only the title and the cover go in the page (the data
// block), for the app to draw the page with while a new visitor's guest
// sign-in runs: the rest depends on who asks, and the page's request
// carries no token (the app asks for it with the token). The configuration
// goes in too: a first visit opening a shared link needs it before the app
// draws anything (the platform gate) or starts the guest sign-in.
func (b *homeBoot) renderDetail(r *http.Request, index []byte, id int64) []byte {
	var v struct {
		ID    int64  `json:"id"`
		Title string `json:"title"`
		Cover string `json:"cover"`
	}
	info := b.call(r, "/api/app/vid/info?id="+strconv.FormatInt(id, 10))
	if info == nil || json.Unmarshal(info, &v) != nil || !strings.HasPrefix(v.Cover, "/media/") {
		return nil
	}
	if l, err := b.lines.Lines(r.Context()); err != nil || len(l.Image) > 0 {
		return nil
	}
	head := `<link rel="preload" as="image" href="` + html.EscapeString(v.Cover) + `" fetchpriority="high">` + "\n"
	d := bootData{Source: b.call(r, "/api/app/vid/source"), Detail: &bootDetail{ID: v.ID, Title: v.Title, Cover: v.Cover}}
	head = headOf(d, nil) + head
	return splice(index, "detail", head, firstScreen(firstDetail, r.URL.Path, "", v.Cover, false))
}

// render returns the page for r: index with the boot block and the
// preloads put before </head> and the first screen before </body>, or nil
// to serve index as it is.
func (b *homeBoot) render(r *http.Request, index []byte) []byte {
	if !bytes.Contains(index, []byte("</head>")) {
		return nil
	}
	if id := detailID(r.URL.Path); id > 0 {
		return b.renderDetail(r, index, id)
	}
	if r.URL.Path == shortPath {
		return b.renderShort(r, index)
	}
	if !homeBootPaths[r.URL.Path] {
		return nil
	}
	d := bootData{
		Source:   b.call(r, "/api/app/vid/source"),
		Modules:  b.call(r, "/api/app/modules/list?moduleType=0"),
		Announce: b.call(r, "/api/app/modules/announce"),
	}
	var preload []string
	first := ""
	if b := firstBanner(d.Source); b != "" {
		preload = append(preload, b)
		// Drawn where home is the page, and on "/": splash goes on to home
		// as soon as a guest sign-in is under way (a visitor with a session
		// at once), so home is the first screen there too. "/main" gets
		// none: its redirect is a navigation of the app's own.
		switch r.URL.Path {
		case homePath:
			first = firstScreen(firstHome, homePath, "", b, hasAnnouncements(d.Announce))
		case "/":
			first = firstScreen(firstHome, homePath, "/", b, hasAnnouncements(d.Announce))
		}
	}
	if id := defaultModule(d.Source, d.Modules); id > 0 {
		q := "moduleID=" + strconv.FormatInt(id, 10) + "&pageNumber=1&pageSize=" + strconv.Itoa(bootSectionsPageSize) +
			"&pSize=" + strconv.Itoa(bootSectionVideos)
		if page := b.call(r, "/api/app/vid/moduleSection?"+q); page != nil {
			d.Sections = &bootSections{ModuleID: id, Page: page}
			// With image lines configured the client loads covers from the
			// fastest of them, not from here: a preload would be wasted.
			if l, err := b.lines.Lines(r.Context()); err == nil && len(l.Image) == 0 {
				preload = append(preload, firstCovers(page, bootPreloadCovers)...)
			}
		}
	}
	head := headOf(d, preload)
	if head == "" {
		return nil
	}
	return splice(index, "home", head, first)
}

// renderShort embeds the short-video tab's first feed page and preloads
// its first clip's cover, the poster on screen until the clip plays (the
// tab's LCP), and draws it. The slide shows the cover as it is, from this
// server.
func (b *homeBoot) renderShort(r *http.Request, index []byte) []byte {
	d := bootData{ShortModules: b.call(r, "/api/app/modules/list?moduleType=4"), Source: b.call(r, "/api/app/vid/source")}
	var ms []struct {
		ModuleID int64 `json:"moduleID"`
	}
	var preload []string
	first := ""
	if json.Unmarshal(d.ShortModules, &ms) == nil && len(ms) > 0 && ms[0].ModuleID > 0 {
		id := ms[0].ModuleID
		q := "moduleID=" + strconv.FormatInt(id, 10) + "&newsType=0&pageNumber=1&pageSize=" + strconv.Itoa(bootShortPageSize) +
			"&playTimeType=0&sortType=0"
		if page := b.call(r, "/api/app/vid/moduleVideo?"+q); page != nil {
			d.ShortFeed = &bootSections{ModuleID: id, Page: page}
			var p struct {
				List []struct {
					Cover string `json:"cover"`
				} `json:"list"`
			}
			if json.Unmarshal(page, &p) == nil && len(p.List) > 0 && strings.HasPrefix(p.List[0].Cover, "/media/") {
				preload = append(preload, p.List[0].Cover)
				first = firstScreen(firstShort, shortPath, "", p.List[0].Cover, false)
			}
		}
	}
	if d.ShortModules == nil {
		return nil
	}
	return splice(index, "shortvideo", headOf(d, preload), first)
}

// headOf is what goes before </head>: the preloads (the first at high
// priority) and the data block; "" when the block cannot be made.
func headOf(d bootData, preload []string) string {
	// json.Marshal escapes <, > and &, so no "</script>" can end the block.
	blob, err := json.Marshal(d)
	if err != nil {
		return ""
	}
	var head strings.Builder
	for i, c := range preload {
		head.WriteString(`<link rel="preload" as="image" href="` + html.EscapeString(c) + `"`)
		if set := cardSrcSet(c); set != "" {
			head.WriteString(` imagesrcset="` + html.EscapeString(set) + `" imagesizes="` + cardSizes + `"`)
		}
		if i == 0 {
			head.WriteString(` fetchpriority="high"`)
		}
		head.WriteString(">\n")
	}
	head.WriteString(`<script type="application/json" id="prima-home-data">`)
	head.Write(blob)
	head.WriteString("</script>\n")
	return head.String()
}

// laterLink is a script or stylesheet preload the web build marks as not
// needed for the first paint (web/vite.config.ts preloadPages: the app's
// chunks and home's).
var laterLink = regexp.MustCompile(`<link [^>]*\bdata-prima-later\b[^>]*>\n?`)

// pageLink is a preload of one page's files (data-prima-page="home":
// web/vite.config.ts preloadPages), wanted only where that page is shown.
var pageLink = regexp.MustCompile(`<link [^>]*\bdata-prima-page="[a-z]+"[^>]*>\n?`)

// splice puts head before </head> and first (when not "") before </body>
// (or at the end when the page has no </body>), for the app's page named
// page ("home", "detail", "shortvideo"): another page's preloads are
// dropped. With a first screen the page's later preloads are moved from
// the head into a <template id="prima-later"> beside it, where they fetch
// nothing: the page's entry puts them back once the first screen is
// painted (web/src/app/first-paint.ts), so the picture does not share the
// line with the app's scripts.
func splice(index []byte, page, head, first string) []byte {
	at := bytes.Index(index, []byte("</head>"))
	if at < 0 {
		return nil
	}
	top, rest := index[:at], index[at:]
	mine := []byte(`data-prima-page="` + page + `"`)
	top = pageLink.ReplaceAllFunc(top, func(link []byte) []byte {
		if bytes.Contains(link, mine) {
			return link
		}
		return nil
	})
	if first != "" {
		if later := laterLink.FindAll(top, -1); len(later) > 0 {
			top = laterLink.ReplaceAll(top, nil)
			first = `<template id="prima-later">` + string(bytes.Join(later, nil)) + "</template>\n" + first
		}
	}
	out := make([]byte, 0, len(index)+len(head)+len(first))
	out = append(out, top...)
	out = append(out, head...)
	if first == "" {
		return append(out, rest...)
	}
	end := bytes.LastIndex(rest, []byte("</body>"))
	if end < 0 {
		end = len(rest)
	}
	out = append(out, rest[:end]...)
	out = append(out, first...)
	return append(out, rest[end:]...)
}

// recorder is the little ResponseWriter the in-process calls write to.
type recorder struct {
	header http.Header
	status int
	wrote  bool
	body   bytes.Buffer
}

func (w *recorder) Header() http.Header { return w.header }
func (w *recorder) WriteHeader(s int) {
	if !w.wrote {
		w.status, w.wrote = s, true
	}
}
func (w *recorder) Write(p []byte) (int, error) {
	w.wrote = true
	return w.body.Write(p)
}
