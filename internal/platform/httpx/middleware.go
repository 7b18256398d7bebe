package httpx

import (
	"bufio"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Each context value has a key of its own unexported empty struct type:
// two keys of distinct types can never be equal, so no value can overwrite
// another (as two ints of one type could by sharing a number).
type requestIDKey struct{}

// RequestID is the id of the request ctx belongs to.
func RequestID(ctx context.Context) string {
	s, _ := ctx.Value(requestIDKey{}).(string)
	return s
}

// WithUserID records a signed-in user with no role beyond RoleUser; tests of
// other packages use it. The account middleware sets a full Principal.
func WithUserID(ctx context.Context, uid int64) context.Context {
	return WithPrincipal(ctx, Principal{UID: uid, Role: RoleUser})
}

// UserID is the signed-in user of ctx, or 0 for an anonymous request.
func UserID(ctx context.Context) int64 {
	p, _ := PrincipalFrom(ctx)
	return p.UID
}

// Chain wraps h in middleware, the first listed outermost.
func Chain(h http.Handler, mw ...func(http.Handler) http.Handler) http.Handler {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}

// WithRequestID takes X-Request-Id from a trusted proxy (RealIP runs
// first) when it looks sane, or makes one, and echoes it on the response.
// A client's own id is not taken: it would land in our logs unchecked.
func WithRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !FromTrustedProxy(r) || !saneID(id) {
			b := make([]byte, 8)
			_, _ = rand.Read(b)
			id = hex.EncodeToString(b)
		}
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey{}, id)))
	})
}

// saneID: 1 to 64 letters, digits, '.', '_' or '-' (UUIDs, hex, ULIDs).
func saneID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// statusWriter remembers the status and size for the access log.
type statusWriter struct {
	http.ResponseWriter
	status int
	size   int
}

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.size += n
	return n, err
}

func (s *statusWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// AccessLog logs one line per request with slog.
func AccessLog(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			start := time.Now()
			sw := &statusWriter{ResponseWriter: w}
			next.ServeHTTP(sw, r)
			log.LogAttrs(r.Context(), slog.LevelInfo, "http",
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.String("route", RoutePattern(r.Context())),
				slog.Int("status", sw.status),
				slog.Int("bytes", sw.size),
				slog.Duration("took", time.Since(start)),
				slog.String("ip", ClientIP(r)),
				slog.String("request_id", RequestID(r.Context())),
			)
		})
	}
}

// Recover turns a panic into a 500 envelope and logs the stack; the client
// never sees it.
func Recover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				slog.ErrorContext(r.Context(), "panic", "value", v, "stack", string(debug.Stack()), "request_id", RequestID(r.Context()))
				WriteError(w, r, Internal(errors.New("panic")))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// csp allows scripts only from our origin: no inline script anywhere. Inline
// style attributes are allowed because the component kit sets them.
const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; media-src 'self' blob: https:; connect-src 'self'; font-src 'self' data:; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'; manifest-src 'self'"

// SecurityHeaders sets the headers every response carries.
func SecurityHeaders(next http.Handler) http.Handler { return SecurityHeadersFor(nil)(next) }

// Lines is what the headers need to know of the delivery lines: the
// origins the page may call besides its own, and whether a fallback
// source is configured (whose lines nobody knows in advance).
type Lines interface {
	// LineSources is every configured line's origin and whether a
	// fallback source is set, read from one cached snapshot.
	LineSources(ctx context.Context) (origins []string, fallback bool)
	AllowsOrigin(ctx context.Context, origin string) bool
}

// SecurityHeadersFor is SecurityHeaders with the delivery lines added to
// the CSP: connect-src, img-src and media-src list every configured line's
// origin (they are validated origins, so they cannot break the header), and
// connect-src allows any https origin when a fallback source is set,
// because the lines a fallback file names are chosen after the page was
// served. lines nil, or no lines: the fixed policy.
func SecurityHeadersFor(lines Lines) func(http.Handler) http.Handler {
	// The lines change rarely and every response carries the policy, so
	// the last one built is kept and rebuilt only when the lines differ.
	type built struct {
		origins  []string
		fallback bool
		policy   string
	}
	var last atomic.Pointer[built]
	policyFor := func(ctx context.Context) string {
		if lines == nil {
			return csp
		}
		origins, fallback := lines.LineSources(ctx)
		if b := last.Load(); b != nil && b.fallback == fallback && slices.Equal(b.origins, origins) {
			return b.policy
		}
		b := &built{origins: origins, fallback: fallback, policy: linePolicy(origins, fallback)}
		last.Store(b)
		return b.policy
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h.Set("Content-Security-Policy", policyFor(r.Context()))
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
			h.Set("X-Frame-Options", "DENY")
			h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
			next.ServeHTTP(w, r)
		})
	}
}

// linePolicy is csp with origins added to connect-src, img-src and
// media-src, and https: to connect-src when anyHTTPS.
func linePolicy(origins []string, anyHTTPS bool) string {
	if len(origins) == 0 && !anyHTTPS {
		return csp
	}
	extra := ""
	for _, o := range origins {
		extra += " " + o
	}
	connect := "connect-src 'self'" + extra
	if anyHTTPS {
		connect += " https:"
	}
	p := strings.Replace(csp, "connect-src 'self'", connect, 1)
	p = strings.Replace(p, "img-src 'self' data: blob: https:", "img-src 'self' data: blob: https:"+extra, 1)
	return strings.Replace(p, "media-src 'self' blob: https:", "media-src 'self' blob: https:"+extra, 1)
}

// CORS lets a page served from one delivery line call the API and the line
// checks on another, and play media from a video line through hls.js
// (which fetches playlists and segments rather than handing a URL to the
// <video>): a request whose Origin the lines allow gets it back in
// Access-Control-Allow-Origin (never "*", never credentials: the token
// travels in a header the page sets, and media URLs are signed), and a
// preflight to /api/, /check or /media/ is answered here with 204. Other
// origins get no CORS headers, so the browser keeps its same-origin rule.
func CORS(lines Lines) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			origin := r.Header.Get("Origin")
			media := strings.HasPrefix(r.URL.Path, "/media/")
			scoped := strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/check" || media
			if !scoped || origin == "" {
				next.ServeHTTP(w, r)
				return
			}
			h := w.Header()
			h.Add("Vary", "Origin")
			if !lines.AllowsOrigin(r.Context(), origin) {
				next.ServeHTTP(w, r)
				return
			}
			h.Set("Access-Control-Allow-Origin", origin)
			if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
				if media {
					h.Set("Access-Control-Allow-Methods", "GET, HEAD")
					h.Set("Access-Control-Allow-Headers", "Range")
				} else {
					h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, DELETE")
					h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, X-App-Client, Accept")
				}
				h.Set("Access-Control-Max-Age", "600")
				w.WriteHeader(http.StatusNoContent)
				return
			}
			if media {
				h.Set("Access-Control-Expose-Headers", "Content-Range, Content-Length, Accept-Ranges")
			} else {
				h.Set("Access-Control-Expose-Headers", "X-Request-Id")
			}
			next.ServeHTTP(w, r)
		})
	}
}

var gzipPool = sync.Pool{New: func() any { w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed); return w }}

// compressible lists the content types worth compressing.
func compressible(ct string) bool {
	for _, p := range []string{"application/json", "text/", "application/javascript", "image/svg+xml", "application/manifest+json"} {
		if strings.HasPrefix(ct, p) {
			return true
		}
	}
	return false
}

// Gzip compresses text responses for clients that accept it. A handler that
// already set Content-Encoding (pre-compressed assets) is left alone.
func Gzip(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") || r.Method == http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		gw := &gzipWriter{ResponseWriter: w}
		defer gw.close()
		next.ServeHTTP(gw, r)
	})
}

type gzipWriter struct {
	http.ResponseWriter
	gz      *gzip.Writer
	decided bool
}

func (g *gzipWriter) decide() {
	if g.decided {
		return
	}
	g.decided = true
	h := g.Header()
	// A partial response's Content-Range counts bytes of the uncompressed
	// file; compressing it would break the range (a text/vtt seek).
	if h.Get("Content-Encoding") != "" || h.Get("Content-Range") != "" || !compressible(h.Get("Content-Type")) {
		return
	}
	h.Del("Content-Length")
	h.Set("Content-Encoding", "gzip")
	g.gz = gzipPool.Get().(*gzip.Writer)
	g.gz.Reset(g.ResponseWriter)
}

func (g *gzipWriter) WriteHeader(code int) {
	if code != http.StatusNoContent && code != http.StatusNotModified {
		g.decide()
	} else {
		g.decided = true
	}
	g.ResponseWriter.WriteHeader(code)
}

func (g *gzipWriter) Write(b []byte) (int, error) {
	if !g.decided {
		if g.Header().Get("Content-Type") == "" {
			g.Header().Set("Content-Type", http.DetectContentType(b))
		}
		g.decide()
	}
	if g.gz != nil {
		return g.gz.Write(b)
	}
	return g.ResponseWriter.Write(b)
}

func (g *gzipWriter) Flush() {
	if g.gz != nil {
		_ = g.gz.Flush()
	}
	if f, ok := g.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (g *gzipWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(g.ResponseWriter).Hijack()
}

func (g *gzipWriter) Unwrap() http.ResponseWriter { return g.ResponseWriter }

func (g *gzipWriter) close() {
	if g.gz != nil {
		_ = g.gz.Close()
		gzipPool.Put(g.gz)
		g.gz = nil
	}
}
