package app_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"prima/internal/app/apptest"
)

// Every /media answer through the whole server, errors included, refuses
// to be framed in both forms and runs nothing.
func TestMediaAnswersRefuseFraming(t *testing.T) {
	s := apptest.New(t, "sqlite")
	if err := s.App.Media.Put(context.Background(), "covers/1.jpg", strings.NewReader("\xff\xd8\xff\xe0cover"), ""); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/media/covers/1.jpg", 200},
		{"HEAD", "/media/covers/1.jpg", 200},
		{"GET", "/media/covers/2.jpg", 404},
		{"GET", "/media/videos/1/full.mp4", 403},
		{"GET", "/media/s/garbage/videos/1/full.mp4", 403},
		{"GET", "/media/covers/x.html", 404},
		{"POST", "/media/covers/1.jpg", 405},
	} {
		rec := httptest.NewRecorder()
		s.Handler.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		csp := rec.Header().Get("Content-Security-Policy")
		if rec.Code != c.status || !strings.Contains(csp, "frame-ancestors 'none'") || rec.Header().Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s %s: %d (want %d), CSP %q, X-Frame-Options %q", c.method, c.path, rec.Code, c.status, csp, rec.Header().Get("X-Frame-Options"))
		}
	}
}
