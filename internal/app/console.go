package app

import (
	"io/fs"
	"net/http"
	"path"
	"strings"
)

// consolePrefix is where the operator console lives. Its build
// (console/, its own Vite project) names every file under this prefix.
const consolePrefix = "/admin/"

// consoleCSP is stricter than the phone app's: the console is built with
// antd in zero-runtime mode (its styles are one static stylesheet), so no
// inline style is needed, and nothing from another origin is scripted,
// framed or fetched. Pictures (video covers) may come from an image line.
const consoleCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: https:; connect-src 'self'; font-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'; manifest-src 'none'; worker-src 'none'"

// consoleApp serves the embedded console at /admin/: hashed files under
// /admin/assets/ cached for a year, every other path that is not a file
// gets the console's index.html (its router draws the page), never cached,
// so a deploy is picked up on the next load. Its files are read and gzipped
// once at start-up (loadFiles, as the phone app's). The console's API is
// /api/admin, served by the API table.
type consoleApp struct {
	files map[string]*webFile
	index *webFile
}

func newConsoleApp(dist fs.FS) (*consoleApp, error) {
	files, err := loadFiles(dist, consolePrefix)
	if err != nil {
		return nil, err
	}
	a := &consoleApp{files: files}
	a.index = a.files[consolePrefix+"index.html"]
	if a.index == nil {
		a.index = &webFile{
			body:  []byte("<!doctype html><meta charset=utf-8><title>Prima console</title><p>The operator console is not built into this binary. Run <code>make build</code>."),
			ctype: "text/html; charset=utf-8", cache: "no-cache",
		}
	}
	warmGzip(a.files)
	return a, nil
}

func (a *consoleApp) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	// Set, not Add: the security middleware already put the phone app's policy here.
	h.Set("Content-Security-Policy", consoleCSP)
	h.Set("X-Robots-Tag", "noindex, nofollow")
	h.Set("Referrer-Policy", "no-referrer")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if r.URL.Path == strings.TrimSuffix(consolePrefix, "/") {
		http.Redirect(w, r, consolePrefix, http.StatusMovedPermanently)
		return
	}
	f, ok := a.files[r.URL.Path]
	if !ok {
		if strings.HasPrefix(r.URL.Path, consolePrefix+"assets/") || path.Ext(r.URL.Path) != "" {
			http.NotFound(w, r) // a missing file is not a console route
			return
		}
		f = a.index
	}
	f.serve(w, r)
}
