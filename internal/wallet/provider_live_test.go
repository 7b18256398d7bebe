package wallet_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/platform/db"
	"prima/internal/wallet"
)

// live is a test server listening on 127.0.0.1 at its public URL, so a fake
// gateway's notices reach it over HTTP as a real gateway's would.
type live struct {
	*env
	url string // the server's public URL (PRIMA_PUBLIC_URL)
}

// newLive starts a server of engine e; args gets the public URL (known
// before the server is built, as notify URLs are made from it).
func newLive(t *testing.T, e db.Engine, args func(public string) []string) *live {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	public := "http://" + ln.Addr().String()
	s := apptest.New(t, e, append([]string{"-public-url", public}, args(public)...)...)
	srv := httptest.NewUnstartedServer(s.Handler)
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return &live{env: newEnv(t, s), url: public}
}

// bothEngines runs fn as a subtest on SQLite and on PostgreSQL.
func bothEngines(t *testing.T, fn func(t *testing.T, e db.Engine)) {
	for _, e := range []db.Engine{db.SQLite, db.Postgres} {
		t.Run(string(e), func(t *testing.T) { fn(t, e) })
	}
}

// callbacks are the recorded notices of order no, newest first.
func (e *env) callbacks(no string) []wallet.CallbackRecord {
	e.t.Helper()
	return apitest.Data[[]wallet.CallbackRecord](e.t, e.call("GET", "/api/admin/orders/callbacks?orderNo="+no, e.ops, "", 200))
}

// outcomes lists the outcomes of order no's notices, oldest first.
func (e *env) outcomes(no string) string {
	cbs := e.callbacks(no)
	out := make([]string, len(cbs))
	for i, c := range cbs {
		out[len(cbs)-1-i] = c.Outcome
	}
	return strings.Join(out, ",")
}

// movements counts the ledger movements of order no.
func (e *env) movements(no string) int {
	e.t.Helper()
	var n int
	if err := e.s.App.DB.QueryRow(e.t.Context(), `SELECT COUNT(*) FROM ledger_txns WHERE ref = ?`, no).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// get fetches u (any host) without following redirects.
func get(t *testing.T, u string) *http.Response {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}
