package httpx

import (
	"context"
	"mime"
	"net/http"
	"slices"
	"strings"
)

// APIMux is the route table of /api: a ServeMux whose every route checks
// the request body's type before its handler runs, and whose own answers
// (no route, wrong method) are envelopes like every other API answer.
//
// ServeMux already knows when a path exists with other methods (405 and an
// Allow header) but writes plain text; a catch-all "/api/" route would hide
// that as a 404. APIMux has no catch-all: it asks the mux first and answers
// 404 or 405 itself when no route matched.
type APIMux struct {
	mux      *http.ServeMux
	patterns []string
}

// NewAPIMux returns an empty API route table.
func NewAPIMux() *APIMux { return &APIMux{mux: http.NewServeMux()} }

// JSON is the body type every API route takes unless it says otherwise.
const JSON = "application/json"

// bodyTypes is a handler that declares the body types it takes.
type bodyTypes struct {
	http.Handler
	types []string
}

// Accepts declares the body types h takes instead of JSON alone. "*/*"
// takes any type: for payment-provider callbacks, which post the provider's
// own format and are trusted only through its signature.
func Accepts(h http.Handler, types ...string) http.Handler {
	return bodyTypes{Handler: h, types: types}
}

// Multipart lets an upload route take multipart/form-data besides JSON.
func Multipart(h http.Handler) http.Handler {
	return Accepts(h, JSON, "multipart/form-data")
}

// Handle adds a route. pattern must name a path under /api/ (a route table
// mistake panics at start-up, as ServeMux does for a bad pattern).
func (m *APIMux) Handle(pattern string, h http.Handler) {
	path := pattern
	if _, p, ok := strings.Cut(pattern, " "); ok {
		path = strings.TrimSpace(p)
	}
	if !strings.HasPrefix(path, "/api/") {
		panic("httpx: API route " + pattern + " is not under /api/")
	}
	m.patterns = append(m.patterns, pattern)
	types := []string{JSON}
	if bt, ok := h.(bodyTypes); ok {
		types = bt.types
	}
	m.mux.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := checkBodyType(r, types); err != nil {
			WriteError(w, r, err)
			return
		}
		h.ServeHTTP(w, r)
	}))
}

// Patterns are the route patterns added, in order: tests enumerate the
// table from them (every /api/admin route names its roles).
func (m *APIMux) Patterns() []string { return slices.Clone(m.patterns) }

// ServeHTTP routes r, answering a missing route with a 404 envelope and a
// method the path does not take with a 405 envelope and Allow.
func (m *APIMux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h, pattern := m.mux.Handler(r)
	if pattern != "" {
		m.mux.ServeHTTP(w, r) // routes again, so r.Pattern and PathValue are set
		return
	}
	// No route. Let the mux say which kind (it may also redirect to a
	// cleaned path), then answer in the envelope.
	c := &capture{header: http.Header{}}
	h.ServeHTTP(c, r)
	switch c.code {
	case http.StatusNotFound:
		NotFoundAPI(w, r)
	case http.StatusMethodNotAllowed:
		allow := c.header.Get("Allow")
		w.Header().Set("Allow", allow)
		WriteError(w, r, &Error{Status: http.StatusMethodNotAllowed, Tip: "请求方式不支持",
			Msg: Echo(r.Method) + " is not allowed on " + Echo(r.URL.Path) + "; allowed: " + allow})
	default:
		for k, v := range c.header {
			w.Header()[k] = v
		}
		w.WriteHeader(c.code)
		_, _ = w.Write(c.body)
	}
}

// capture keeps what ServeMux's own handlers write.
type capture struct {
	header http.Header
	code   int
	body   []byte
}

func (c *capture) Header() http.Header { return c.header }
func (c *capture) WriteHeader(code int) {
	if c.code == 0 {
		c.code = code
	}
}
func (c *capture) Write(b []byte) (int, error) {
	if c.code == 0 {
		c.code = http.StatusOK
	}
	c.body = append(c.body, b...)
	return len(b), nil
}

// checkBodyType refuses a POST, PUT or PATCH whose body is not of a type
// the route takes. A cross-site HTML form can only send
// application/x-www-form-urlencoded, multipart/form-data or text/plain
// without a CORS preflight; insisting on application/json means no such
// form reaches an API call. A body-less request without a Content-Type
// passes (the handler says what it misses); one that names a type is held
// to it even when empty, since an empty form post still names one.
func checkBodyType(r *http.Request, types []string) error {
	switch r.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch:
	default:
		return nil
	}
	if slices.Contains(types, "*/*") {
		return nil
	}
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		if r.ContentLength == 0 {
			return nil
		}
		return unsupported(types, "no Content-Type")
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return unsupported(types, "Content-Type "+Echo(ct)+" does not parse")
	}
	if !slices.Contains(types, mt) {
		return unsupported(types, "Content-Type "+Echo(mt)+" is not accepted")
	}
	if cs, ok := params["charset"]; ok && mt == JSON && !strings.EqualFold(cs, "utf-8") {
		return unsupported(types, "charset "+Echo(cs)+" is not accepted: JSON is UTF-8")
	}
	return nil
}

func unsupported(types []string, why string) *Error {
	return &Error{Status: http.StatusUnsupportedMediaType, Tip: "请求格式不受支持",
		Msg: why + "; send " + strings.Join(types, " or ")}
}

// routeKey holds a *string the innermost router fills with the pattern
// that served the request, for Observe and the access log.
type routeKey struct{}

// RoutePattern is the route pattern that served the request of ctx ("GET
// /api/app/mine/info", "/"), or "" before routing or when none matched.
// Metrics label by it, never by the raw path, so a client cannot grow them.
func RoutePattern(ctx context.Context) string {
	if p, ok := ctx.Value(routeKey{}).(*string); ok {
		return *p
	}
	return ""
}

// NotePattern wraps the outermost mux: after it served the request it
// records r.Pattern, which ServeMux sets on the request it was given (an
// inner APIMux routes the same request, so its pattern wins).
func NotePattern(mux http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mux.ServeHTTP(w, r)
		if p, ok := r.Context().Value(routeKey{}).(*string); ok {
			*p = r.Pattern
		}
	})
}

// Observe calls begin as a request arrives and the function it returns once
// the request has been answered, with the route pattern that served it
// ("" when none did) and the status. Metrics hang off it.
func Observe(begin func(r *http.Request) func(route string, status int)) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			end := begin(r)
			route := new(string)
			if p, ok := r.Context().Value(routeKey{}).(*string); ok {
				route = p // an outer Observe already made the slot
			} else {
				r = r.WithContext(context.WithValue(r.Context(), routeKey{}, route))
			}
			sw := &statusWriter{ResponseWriter: w}
			defer func() {
				status := sw.status
				if status == 0 {
					status = http.StatusOK
				}
				if v := recover(); v != nil {
					end(*route, http.StatusInternalServerError)
					panic(v)
				}
				end(*route, status)
			}()
			next.ServeHTTP(sw, r)
		})
	}
}
