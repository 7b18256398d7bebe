// Package apptest builds a whole Prima server for tests: a real app.App on
// a fresh database of each engine (dbtest), serving through app.Handler(),
// so API scenarios (internal/apitest) see exactly what a client sees:
// middleware, routing, auth and both databases.
//
// Tests inside package app cannot import it (a cycle); they are written in
// the external test package app_test instead.
package apptest

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"

	"prima/internal/apitest"
	"prima/internal/app"
	"prima/internal/platform/config"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// Server is one test app and its HTTP handler.
type Server struct {
	App     *app.App
	Handler http.Handler
}

// New builds an app on a fresh database of engine e, configured by args
// (the flags of `prima serve`, e.g. "-trusted-proxies", "10.0.0.0/8"), and
// closes it when t ends. The payment sandbox is turned on, as the tests pay
// through it; "-pay-sandbox=0" in args turns it off again.
func New(t testing.TB, e db.Engine, args ...string) *Server {
	t.Helper()
	args = append([]string{"-data-dir", t.TempDir(), "-database-url", dbtest.URL(t, e), "-pay-sandbox"}, args...)
	cfg, err := config.Load("test", args)
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	h, err := a.Handler()
	if err != nil {
		t.Fatal(err)
	}
	return &Server{App: a, Handler: h}
}

// Each runs fn as a subtest on a fresh server of each engine.
func Each(t *testing.T, fn func(t *testing.T, s *Server), args ...string) {
	t.Helper()
	for _, e := range []db.Engine{db.SQLite, db.Postgres} {
		t.Run(string(e), func(t *testing.T) { fn(t, New(t, e, args...)) })
	}
}

// Run runs the scenarios in order on a fresh server of each engine.
func Run(t *testing.T, scenarios ...apitest.Scenario) {
	t.Helper()
	Each(t, func(t *testing.T, s *Server) { apitest.Run(t, s.Handler, scenarios...) })
}
