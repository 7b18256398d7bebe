package blob

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// PublicPrefixes are the folders /media/ serves without a signature: the
// catalogue's pictures, which every visitor sees on the home page anyway.
// Everything else (videos, uploads) needs a signed URL.
var PublicPrefixes = []string{"covers/", "ads/", "presale/", "public/"}

// Handler serves GET and HEAD for /<key> and /s/<token>/<key> from any
// Store; mount it with http.StripPrefix("/media", ...).
type Handler struct {
	store  Store
	signer *Signer
	public []string
	now    func() time.Time
}

// NewHandler serves store's servable files: unsigned under public (nil
// means PublicPrefixes), signed by signer everywhere.
func NewHandler(store Store, signer *Signer, public []string) *Handler {
	if public == nil {
		public = PublicPrefixes
	}
	return &Handler{store: store, signer: signer, public: public, now: time.Now}
}

const (
	cacheImmutable = "public, max-age=31536000, immutable"
	// Public pictures that keep their key when redrawn (covers/12.jpg) are
	// cached for a day and revalidated by ETag after that.
	cacheMutable = "public, max-age=86400"
	maxAge       = 31536000
)

// ServeHTTP checks, in order: method, key, type, permission, existence.
// Permission comes before existence so an unsigned request cannot probe
// which protected keys exist.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	// Media is never a document: even a response a browser opens directly
	// runs nothing and guesses no type. This policy replaces the app's, so
	// it repeats the app's frame-ancestors 'none' beside X-Frame-Options
	// (the older header, which a policy's frame-ancestors supersedes).
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'; sandbox")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		plain(w, http.StatusMethodNotAllowed, "method not allowed")
		return
	}
	p := strings.TrimPrefix(r.URL.Path, "/")
	key, token, signed := p, "", false
	if rest, ok := strings.CutPrefix(p, reservedSigned+"/"); ok {
		token, key, signed = strings.Cut(rest, "/")
		if !signed {
			plain(w, http.StatusNotFound, "not found")
			return
		}
	}
	if CheckKey(key) != nil || !Servable(key) {
		plain(w, http.StatusNotFound, "not found")
		return
	}
	cache := cacheMutable
	switch {
	case signed:
		if !h.signer.Verify(token, key) {
			plain(w, http.StatusForbidden, "forbidden")
			return
		}
		// Anyone holding the URL may fetch the object until the token
		// expires, so any cache may keep it exactly that long: the URL is
		// the cache key and stops working for caches when it stops working
		// for us. A CDN that checks tokens at its edge caches by key instead
		// (docs/architecture.md).
		exp, _ := canonicalInt(strings.Split(token, ".")[1], 12)
		left := min(max(exp-h.now().Unix(), 0), maxAge)
		cache = "public, max-age=" + strconv.FormatInt(left, 10)
		if Immutable(key) {
			cache += ", immutable"
		}
	case h.isPublic(key):
		if Immutable(key) {
			cache = cacheImmutable
		}
	default:
		plain(w, http.StatusForbidden, "forbidden")
		return
	}

	info, err := h.store.Stat(r.Context(), key)
	if errors.Is(err, ErrNotFound) {
		plain(w, http.StatusNotFound, "not found")
		return
	}
	if err != nil {
		slog.ErrorContext(r.Context(), "media stat", "key", key, "err", err)
		plain(w, http.StatusServiceUnavailable, "unavailable")
		return
	}
	// The type comes from the extension, never from stored metadata, so
	// the allowlist above is what decides what a browser receives.
	hd.Set("Content-Type", ContentType(key))
	hd.Set("Cache-Control", cache)
	hd.Set("ETag", info.ETag)
	hd.Set("Last-Modified", info.ModTime.UTC().Format(http.TimeFormat))
	hd.Set("Accept-Ranges", "bytes")

	if status := preconditions(r, info); status != 0 {
		if status == http.StatusNotModified {
			hd.Del("Content-Type")
			w.WriteHeader(status)
			return
		}
		plain(w, status, "precondition failed")
		return
	}

	start, length, status := int64(0), info.Size, http.StatusOK
	if rg := r.Header.Get("Range"); rg != "" && ifRange(r, info) {
		s, n, ok, unsat := parseRange(rg, info.Size)
		switch {
		case unsat:
			hd.Set("Content-Range", "bytes */"+strconv.FormatInt(info.Size, 10))
			plain(w, http.StatusRequestedRangeNotSatisfiable, "range not satisfiable")
			return
		case ok:
			start, length, status = s, n, http.StatusPartialContent
			hd.Set("Content-Range", "bytes "+strconv.FormatInt(s, 10)+"-"+strconv.FormatInt(s+n-1, 10)+"/"+strconv.FormatInt(info.Size, 10))
		}
	}
	hd.Set("Content-Length", strconv.FormatInt(length, 10))
	if r.Method == http.MethodHead || length == 0 {
		w.WriteHeader(status)
		return
	}
	var body io.ReadCloser
	if status == http.StatusPartialContent {
		body, err = h.store.OpenRange(r.Context(), key, start, length)
	} else {
		body, err = h.store.Open(r.Context(), key)
	}
	if err != nil {
		hd.Del("Content-Range")
		hd.Del("Content-Length")
		if errors.Is(err, ErrNotFound) { // deleted between Stat and Open
			plain(w, http.StatusNotFound, "not found")
			return
		}
		slog.ErrorContext(r.Context(), "media open", "key", key, "err", err)
		plain(w, http.StatusServiceUnavailable, "unavailable")
		return
	}
	defer body.Close()
	w.WriteHeader(status)
	// A ranged body is already bounded; copying it directly lets the local
	// store's section hand net/http a file to sendfile. A whole file is
	// bounded here by the size we announced.
	if status == http.StatusOK {
		_, err = io.CopyN(w, body, length)
	} else {
		_, err = io.Copy(w, body)
	}
	if err != nil && r.Context().Err() == nil {
		// Headers are gone; the short body tells the client. Log it, since a
		// store that fails mid-stream is an operator's problem.
		slog.WarnContext(r.Context(), "media copy", "key", key, "err", err)
	}
}

func (h *Handler) isPublic(key string) bool {
	for _, p := range h.public {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// plain answers an error with a short text body and no detail: media is not
// the API, and a 403 says nothing about why.
func plain(w http.ResponseWriter, status int, msg string) {
	hd := w.Header()
	for _, k := range []string{"ETag", "Last-Modified", "Accept-Ranges", "Content-Length"} {
		hd.Del(k)
	}
	hd.Set("Cache-Control", "no-store")
	hd.Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, msg+"\n")
}

// preconditions evaluates RFC 9110 section 13.2.2: 412 for a failed
// If-Match / If-Unmodified-Since, 304 for a satisfied If-None-Match /
// If-Modified-Since, 0 to go on.
func preconditions(r *http.Request, info Info) int {
	if im := r.Header.Get("If-Match"); im != "" {
		if !etagListMatch(im, info.ETag, true) {
			return http.StatusPreconditionFailed
		}
	} else if ius := r.Header.Get("If-Unmodified-Since"); ius != "" {
		if t, err := http.ParseTime(ius); err == nil && info.ModTime.Truncate(time.Second).After(t) {
			return http.StatusPreconditionFailed
		}
	}
	if inm := r.Header.Get("If-None-Match"); inm != "" {
		if etagListMatch(inm, info.ETag, false) {
			return http.StatusNotModified
		}
	} else if ims := r.Header.Get("If-Modified-Since"); ims != "" {
		if t, err := http.ParseTime(ims); err == nil && !info.ModTime.Truncate(time.Second).After(t) {
			return http.StatusNotModified
		}
	}
	return 0
}

// ifRange reports whether a Range header still applies: without If-Range,
// or when If-Range names the current version (strong ETag or exact date).
func ifRange(r *http.Request, info Info) bool {
	ir := strings.TrimSpace(r.Header.Get("If-Range"))
	if ir == "" {
		return true
	}
	if strings.HasPrefix(ir, `"`) || strings.HasPrefix(ir, "W/") {
		return etagListMatch(ir, info.ETag, true)
	}
	t, err := http.ParseTime(ir)
	return err == nil && info.ModTime.Truncate(time.Second).Equal(t)
}

// etagListMatch compares a header's list of entity tags with etag, strongly
// (weak tags never match) or weakly (W/ ignored).
func etagListMatch(list, etag string, strong bool) bool {
	if strings.TrimSpace(list) == "*" {
		return true
	}
	for _, t := range strings.Split(list, ",") {
		t = strings.TrimSpace(t)
		if strings.HasPrefix(t, "W/") {
			if strong {
				continue
			}
			t = t[2:]
		}
		if t == strings.TrimPrefix(etag, "W/") {
			return true
		}
	}
	return false
}

// parseRange reads one "bytes=" range. ok with start and length for a
// satisfiable range; unsat for one wholly outside the file; neither for
// what the server may ignore (another unit, several ranges, bad syntax),
// which serves the whole file. Players ask for one range at a time.
func parseRange(h string, size int64) (start, length int64, ok, unsat bool) {
	spec, found := strings.CutPrefix(h, "bytes=")
	if !found || strings.Contains(spec, ",") {
		return 0, 0, false, false
	}
	a, b, found := strings.Cut(strings.TrimSpace(spec), "-")
	if !found {
		return 0, 0, false, false
	}
	if a == "" { // the last b bytes
		n, err := strconv.ParseInt(b, 10, 64)
		if err != nil || n < 0 {
			return 0, 0, false, false
		}
		if n == 0 || size == 0 {
			return 0, 0, false, true
		}
		n = min(n, size)
		return size - n, n, true, false
	}
	s, err := strconv.ParseInt(a, 10, 64)
	if err != nil || s < 0 {
		return 0, 0, false, false
	}
	end := size - 1
	if b != "" {
		e, err := strconv.ParseInt(b, 10, 64)
		if err != nil || e < s {
			return 0, 0, false, false
		}
		end = min(e, size-1)
	}
	if s >= size {
		return 0, 0, false, true
	}
	return s, end - s + 1, true, false
}
