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
}

type webFile struct {
	body, gz []byte
	ctype    string
	cache    string
}

var started = time.Now()

func newWebApp(dist fs.FS) (*webApp, error) {
	a := &webApp{files: map[string]*webFile{}}
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
		if len(body) > 512 && worthGzip(f.ctype) {
			var b bytes.Buffer
			zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
			_, _ = zw.Write(body)
			_ = zw.Close()
			if b.Len() < len(body) {
				f.gz = b.Bytes()
			}
		}
		a.files["/"+p] = f
		return nil
	})
	if err != nil {
		return nil, err
	}
	a.index = a.files["/index.html"]
	if a.index == nil {
		a.index = &webFile{
			body:  []byte("<!doctype html><meta charset=utf-8><title>Prima</title><p>The web app is not built into this binary. Run <code>make build</code>.</p>"),
			ctype: "text/html; charset=utf-8", cache: "no-cache",
		}
	}
	return a, nil
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
		if a.boot != nil && wantsBoot(r.URL.Path) {
			if page := a.boot.render(r, f.body); page != nil {
				a.serveBoot(w, r, page)
				return
			}
		}
	}
	h := w.Header()
	h.Set("Content-Type", f.ctype)
	h.Set("Cache-Control", f.cache)
	h.Add("Vary", "Accept-Encoding")
	body := f.body
	if f.gz != nil && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		h.Set("Content-Encoding", "gzip")
		body = f.gz
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
