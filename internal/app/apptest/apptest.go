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
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/app"
	"prima/internal/operator"
	"prima/internal/platform/audit"
	"prima/internal/platform/config"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
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
	return on(t, dbtest.URL(t, e), args...)
}

// on builds an app on the database at url.
func on(t testing.TB, url string, args ...string) *Server {
	t.Helper()
	args = append([]string{"-data-dir", t.TempDir(), "-database-url", url, "-pay-sandbox"}, args...)
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

// OperatorPassword is the password Operator gives the accounts it makes.
const OperatorPassword = "secret12"

// Operator is an operator signed in to the console the way a person does.
type Operator struct {
	UID     int64
	Account string
	Role    httpx.Role
	// Secret is the TOTP secret, as the operator's authenticator app holds
	// it; Code computes what the app shows.
	Secret string
	// Token is a console session ("pc_..."): it opens /api/admin as Role.
	Token         string
	RecoveryCodes []string
}

// Operator makes account an operator with role (what `prima admin create
// -account NAME -role ROLE` does, password OperatorPassword), then signs in
// through the API: POST /api/admin/session answers 428 with an enrolment
// ticket and the TOTP secret, the code is computed from the secret, and POST
// /api/admin/session/enrol answers the console token and recovery codes.
func (s *Server) Operator(t testing.TB, account string, role httpx.Role) *Operator {
	t.Helper()
	o, _, err := s.App.Operators.Ensure(context.Background(), audit.Actor{UID: audit.CLI}, account, role, OperatorPassword)
	if err != nil {
		t.Fatalf("operator %s: %v", account, err)
	}
	res := apitest.Scenario{Method: http.MethodPost, URL: "/api/admin/session",
		Body: fmt.Sprintf(`{"account":%q,"passWord":%q,"code":""}`, account, OperatorPassword)}.Send(t, s.Handler)
	if res.Code != http.StatusPreconditionRequired {
		t.Fatalf("sign-in of %s without TOTP: %d %s", account, res.Code, res.Body)
	}
	enrol := apitest.Data[struct {
		Enrol struct {
			Ticket string `json:"ticket"`
			Secret string `json:"secret"`
		} `json:"enrol"`
	}](t, res).Enrol
	op := &Operator{UID: o.UID, Account: account, Role: o.Role, Secret: enrol.Secret}
	res = apitest.Scenario{Method: http.MethodPost, URL: "/api/admin/session/enrol",
		Body: fmt.Sprintf(`{"ticket":%q,"code":%q}`, enrol.Ticket, op.Code(t, s.App.Operators.Now()))}.Send(t, s.Handler)
	if res.Code != http.StatusOK {
		t.Fatalf("enrolment of %s: %d %s", account, res.Code, res.Body)
	}
	d := apitest.Data[struct {
		Token         string   `json:"token"`
		RecoveryCodes []string `json:"recoveryCodes"`
	}](t, res)
	op.Token, op.RecoveryCodes = d.Token, d.RecoveryCodes
	return op
}

// Code is the TOTP code the operator's app shows at at.
func (o *Operator) Code(t testing.TB, at time.Time) string {
	t.Helper()
	c, err := operator.Code(o.Secret, at)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Cluster builds n apps on one fresh database of engine e, each configured
// by args, as n nodes of one install (give them a shared "-redis-url" to
// make them one cluster).
func Cluster(t testing.TB, e db.Engine, n int, args ...string) []*Server {
	t.Helper()
	url := dbtest.URL(t, e)
	out := make([]*Server, n)
	for i := range out {
		out[i] = on(t, url, args...)
	}
	return out
}
