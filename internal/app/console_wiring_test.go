package app_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"prima/internal/app/apptest"
	"prima/internal/platform/db"
)

// TestConsoleWiring: through the whole stack (the security middleware runs
// first and sets the phone app's policy), /admin/... answers with the
// console's own strict policy, the phone app keeps its own, and /api/admin
// is still the API (an envelope, not the console's page).
func TestConsoleWiring(t *testing.T) {
	s := apptest.New(t, db.SQLite)
	do := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		s.Handler.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		return rec
	}
	for _, p := range []string{"/admin/", "/admin/login", "/admin/audit"} {
		rec := do(p)
		csp := rec.Header().Get("Content-Security-Policy")
		if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			t.Errorf("%s: %d %q", p, rec.Code, rec.Header().Get("Content-Type"))
		}
		if !strings.Contains(csp, "style-src 'self';") || strings.Contains(csp, "unsafe-inline") {
			t.Errorf("%s: CSP %q", p, csp)
		}
		if rec.Header().Get("X-Frame-Options") != "DENY" || rec.Header().Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: headers %v", p, rec.Header())
		}
	}
	if rec := do("/admin"); rec.Code != 301 || rec.Header().Get("Location") != "/admin/" {
		t.Errorf("/admin: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	if csp := do("/home").Header().Get("Content-Security-Policy"); !strings.Contains(csp, "'unsafe-inline'") {
		t.Errorf("the phone app's policy changed: %q", csp)
	}
	rec := do("/api/admin/session")
	if rec.Code < 400 || !strings.Contains(rec.Header().Get("Content-Type"), "json") || !strings.Contains(rec.Body.String(), `"code"`) {
		t.Errorf("/api/admin/session without a token: %d %q %s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
}
