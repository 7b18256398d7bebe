package app

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"
)

// webApp serves the embedded web app. Files under assets/ carry a content
// hash in their name and are cached for a year; every other path that is not
// a file is a client route and gets index.html, never cached, so a deploy is
// picked up on the next load. Each file is gzipped once at start-up.
type webApp struct {
	files map[string]*webFile
	index *webFile
	// boot, when set, puts home's first screen into the page for the
	// paths that show home (homeboot.go).
	boot *homeBoot
	// themed is index.html in each theme a user can choose in the app
	// (themeCookie), made once at start-up.
	themed map[string]*webFile
}

type webFile struct {
	body  []byte
	ctype string
	cache string
	// The gzipped body is made the first time it is needed (or by the
	// warm-up after start), not at start: compressing the two apps' files
	// at best compression took ~500 ms of every start on 2 cores.
	gzip   bool // worth trying: a compressible type over 512 bytes
	gzOnce sync.Once
	gz     []byte // nil: not smaller than body
}

// gzBody is the gzipped body, or nil when gzip does not make it smaller.
func (f *webFile) gzBody() []byte {
	if !f.gzip {
		return nil
	}
	f.gzOnce.Do(func() {
		if gz := gzipped(f.body); len(gz) < len(f.body) {
			f.gz = gz
		}
	})
	return f.gz
}

// warmGzip compresses files in the background, so the first requests for
// them find the bytes ready (one goroutine per app, a file at a time: a
// start should not take every core from the first requests).
func warmGzip(files map[string]*webFile) {
	go func() {
		for _, f := range files {
			f.gzBody()
		}
	}()
}

var started = time.Now()

func newWebApp(dist fs.FS) (*webApp, error) {
	files, err := loadFiles(dist, "/")
	if err != nil {
		return nil, err
	}
	a := &webApp{files: files}
	a.index = a.files["/index.html"]
	if a.index == nil {
		a.index = &webFile{
			body:  []byte("<!doctype html><meta charset=utf-8><title>Prima</title><p>The web app is not built into this binary. Run <code>make build</code>.</p>"),
			ctype: "text/html; charset=utf-8", cache: "no-cache",
		}
	}
	a.themed = map[string]*webFile{}
	for _, theme := range []string{"dark", "light"} {
		i := a.index
		a.themed[theme] = &webFile{body: withTheme(i.body, theme), ctype: i.ctype, cache: i.cache, gzip: i.gzip}
	}
	warmGzip(a.files)
	warmGzip(a.themed)
	return a, nil
}

// themeCookie holds the theme the user chose in the app ("dark" or
// "light"; none follows the system): web/src/app/App.tsx rememberTheme.
// The page is sent in that theme, so that what paints before the app's
// scripts run (the first screen, the boot mark) is not in the system's
// for a moment when the two differ.
const themeCookie = "prima_theme"

func themeOf(r *http.Request) string {
	if c, err := r.Cookie(themeCookie); err == nil && (c.Value == "dark" || c.Value == "light") {
		return c.Value
	}
	return ""
}

// withTheme sets on <html> the attribute the app's stylesheets (and
// antd-mobile's) key the theme on, as the app itself does when it starts.
func withTheme(page []byte, theme string) []byte {
	if theme == "" {
		return page
	}
	at := bytes.Index(page, []byte("<html"))
	if at < 0 {
		return page
	}
	at += len("<html")
	out := make([]byte, 0, len(page)+40)
	out = append(out, page[:at]...)
	out = append(out, ` data-prefers-color-scheme="`+theme+`"`...)
	return append(out, page[at:]...)
}

func gzipped(body []byte) []byte {
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	_, _ = zw.Write(body)
	_ = zw.Close()
	return b.Bytes()
}

// contentType knows the web app's own types first: the system MIME table
// may lack them (manifest) or differ between machines.
func contentType(p string) string {
	switch path.Ext(p) {
	case ".webmanifest":
		return "application/manifest+json"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".html":
		return "text/html; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	}
	return mime.TypeByExtension(path.Ext(p))
}

func worthGzip(ct string) bool {
	return strings.HasPrefix(ct, "text/") || strings.Contains(ct, "json") || strings.Contains(ct, "svg")
}

func (a *webApp) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	f, ok := a.files[r.URL.Path]
	if !ok {
		if strings.HasPrefix(r.URL.Path, "/assets/") || path.Ext(r.URL.Path) != "" {
			http.NotFound(w, r) // a missing file is not a client route
			return
		}
		f = a.index
		theme := themeOf(r)
		// The page depends on cookies (the theme; the session, for the
		// first screen): a cache must not hand one user's to another.
		w.Header().Add("Vary", "Cookie")
		if a.boot != nil && wantsBoot(r.URL.Path) {
			if page := a.boot.render(r, f.body); page != nil {
				a.serveBoot(w, r, withTheme(page, theme))
				return
			}
		}
		if t := a.themed[theme]; t != nil {
			f = t
		}
	}
	f.serve(w, r)
}

// loadFiles reads every file of dist (a Vite build) by its path under
// prefix: hashed files under assets/ cached for a year, the rest
// revalidated, each gzipped once (lazily, see webFile) when that makes it smaller.
func loadFiles(dist fs.FS, prefix string) (map[string]*webFile, error) {
	files := map[string]*webFile{}
	err := fs.WalkDir(dist, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(path.Base(p), ".") {
			return err
		}
		body, err := fs.ReadFile(dist, p)
		if err != nil {
			return err
		}
		f := &webFile{body: body, ctype: contentType(p), cache: "no-cache"}
		if f.ctype == "" {
			f.ctype = http.DetectContentType(body)
		}
		if strings.HasPrefix(p, "assets/") {
			f.cache = "public, max-age=31536000, immutable"
		}
		f.gzip = len(body) > 512 && worthGzip(f.ctype)
		files[prefix+p] = f
		return nil
	})
	return files, err
}

// serve writes f, gzipped when the client takes it, with its validators.
func (f *webFile) serve(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	h.Set("Cache-Control", f.cache)
	h.Add("Vary", "Accept-Encoding")
	body := f.body
	if gz := f.gzBody(); gz != nil && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		body = gz
	}
	http.ServeContent(w, r, "", started, bytes.NewReader(body))
}

// serveBoot sends a page made for this request: no validators (a 304 would
// bring back an older first screen) and never stored, so the next visit
// gets fresh data; the gzip middleware compresses it.
func (a *webApp) serveBoot(w http.ResponseWriter, r *http.Request, page []byte) {
	h := w.Header()
	h.Set("Content-Type", a.index.ctype)
	h.Set("Cache-Control", "no-cache")
	h.Set("Content-Length", strconv.Itoa(len(page)))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(page)
}
