package httpx

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"prima/internal/apitest"
)

func testAPI() http.Handler {
	ok := Handler(func(w http.ResponseWriter, r *http.Request) error { return OK(w, r.Pattern) })
	api := NewAPIMux()
	api.Handle("POST /api/json", ok)
	api.Handle("PUT /api/json", ok)
	api.Handle("PATCH /api/json", ok)
	api.Handle("GET /api/json", ok)
	api.Handle("DELETE /api/json", ok)
	api.Handle("POST /api/upload", Multipart(ok))
	api.Handle("POST /api/callback", Accepts(ok, "*/*"))
	api.Handle("GET /api/items/{id}", ok)
	outer := http.NewServeMux()
	outer.Handle("/api/", api)
	outer.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("page")) })
	return outer
}

func TestAPIBodyTypes(t *testing.T) {
	h := testAPI()
	body := func(name, method, url, ctype string, status int) apitest.Scenario {
		return apitest.Scenario{Name: name, Method: method, URL: url, Body: `{}`, Headers: map[string]string{"Content-Type": ctype}, ExpectedStatus: status}
	}
	apitest.Run(t, h,
		body("JSON", "POST", "/api/json", "application/json", 200),
		body("JSON with charset", "POST", "/api/json", "Application/JSON; charset=utf-8", 200),
		body("PUT JSON", "PUT", "/api/json", "application/json", 200),
		body("PATCH form", "PATCH", "/api/json", "application/x-www-form-urlencoded", 415),
		body("PUT text", "PUT", "/api/json", "text/plain", 415),
		body("POST text", "POST", "/api/json", "text/plain;charset=UTF-8", 415),
		body("POST multipart to a JSON route", "POST", "/api/json", "multipart/form-data; boundary=b", 415),
		body("POST without a type", "POST", "/api/json", "", 415),
		body("POST with a malformed type", "POST", "/api/json", "application/json; charset", 415),
		body("POST JSON in UTF-16", "POST", "/api/json", "application/json; charset=utf-16", 415),
		body("POST a JSON look-alike", "POST", "/api/json", "application/jsonp", 415),
		body("GET with a body is not checked", "GET", "/api/json", "text/plain", 200),
		body("DELETE is not checked", "DELETE", "/api/json", "text/plain", 200),
		body("upload takes multipart", "POST", "/api/upload", "multipart/form-data; boundary=b", 200),
		body("upload takes JSON", "POST", "/api/upload", "application/json", 200),
		body("upload refuses text", "POST", "/api/upload", "text/plain", 415),
		body("a callback takes its provider's format", "POST", "/api/callback", "application/x-www-form-urlencoded", 200),
		body("a callback takes no type too", "POST", "/api/callback", "", 200),
		apitest.Scenario{Name: "empty POST without a type", Method: "POST", URL: "/api/json", ExpectedStatus: 200},
		apitest.Scenario{Name: "empty POST naming a form", Method: "POST", URL: "/api/json", Headers: map[string]string{"Content-Type": "text/plain"}, ExpectedStatus: 415},
	)
	// A chunked body (length unknown) without a type is a body.
	r := httptest.NewRequest("POST", "/api/json", strings.NewReader("{}"))
	r.ContentLength = -1
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if rec.Code != 415 {
		t.Fatalf("chunked body without a type: %d", rec.Code)
	}
}

func TestAPIMuxAnswers(t *testing.T) {
	h := testAPI()
	allow := func(want string) func(*testing.T, *apitest.Response) {
		return func(t *testing.T, res *apitest.Response) {
			if got := res.Header().Get("Allow"); got != want {
				t.Fatalf("Allow %q, want %q", got, want)
			}
		}
	}
	apitest.Run(t, h,
		apitest.Scenario{Name: "route pattern is set", URL: "/api/items/7", ExpectedStatus: 200, ExpectedContent: []string{`"GET /api/items/{id}"`}},
		apitest.Scenario{Name: "405 lists the methods", Method: "PUT", URL: "/api/items/7", Body: `{}`, ExpectedStatus: 405, Check: allow("GET, HEAD")},
		apitest.Scenario{Name: "405 on a multi-method path", Method: "OPTIONS", URL: "/api/json", ExpectedStatus: 405, Check: allow("DELETE, GET, HEAD, PATCH, POST, PUT")},
		apitest.Scenario{Name: "404", URL: "/api/nope", ExpectedStatus: 404, ExpectedTip: "请求地址不存在", ExpectedContent: []string{`no route for \"GET\" \"/api/nope\"`}},
		apitest.Scenario{Name: "unclean path redirects", URL: "/api/x/../json", ExpectedStatus: 307, Check: func(t *testing.T, res *apitest.Response) {
			if res.Header().Get("Location") != "/api/json" {
				t.Fatalf("Location %q", res.Header().Get("Location"))
			}
		}},
		apitest.Scenario{Name: "outside the API", URL: "/anything", ExpectedStatus: 200, ExpectedContent: []string{"page"}},
	)
}

func TestAPIMuxRefusesRoutesOutsideAPI(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a route outside /api/ was accepted")
		}
	}()
	NewAPIMux().Handle("GET /media/x", http.NotFoundHandler())
}

// Observe sees the pattern that served the request, never the raw path,
// and a 500 when the handler panicked.
func TestObserveRoutePattern(t *testing.T) {
	type seen struct {
		route  string
		status int
	}
	var got []seen
	begin := func(*http.Request) func(string, int) {
		return func(route string, status int) { got = append(got, seen{route, status}) }
	}
	h := Chain(NotePattern(testAPI()), Observe(begin), WithRequestID)
	for _, u := range []string{"/api/items/42", "/api/unknown/123", "/somewhere"} {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", u, nil))
	}
	want := []seen{{"GET /api/items/{id}", 200}, {"/api/", 404}, {"/", 200}}
	for i := range want {
		if i >= len(got) || got[i] != want[i] {
			t.Fatalf("observed %v, want %v", got, want)
		}
	}

	got = nil
	boom := Chain(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") }), Observe(begin))
	func() {
		defer func() { _ = recover() }()
		boom.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	}()
	if len(got) != 1 || got[0].status != 500 {
		t.Fatalf("panic observed as %v", got)
	}
}

func TestReadyz(t *testing.T) {
	checks := []Check{
		{Name: "ok", Fn: func(context.Context) error { return nil }},
		{Name: "down", Fn: func(context.Context) error { return errors.New("dial tcp 10.1.2.3:5432: refused") }},
	}
	apitest.Run(t, Readyz(func() []Check { return checks }),
		apitest.Scenario{Name: "one down", URL: "/readyz", ExpectedStatus: 503,
			ExpectedContent: []string{`"ok":"ok"`, `"down":"fail"`, `"status":"unavailable"`}, NotExpectedContent: []string{"10.1.2.3"}},
	)
	checks = checks[:1]
	apitest.Run(t, Readyz(func() []Check { return checks }),
		apitest.Scenario{Name: "all up", URL: "/readyz", ExpectedStatus: 200, ExpectedContent: []string{`"status":"ok"`}},
	)
	apitest.Run(t, http.HandlerFunc(Healthz), apitest.Scenario{Name: "healthz", URL: "/healthz", ExpectedStatus: 200, ExpectedContent: []string{"ok"}})
}
