package rewards

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
)

// TestCodeCallsRefuseBadBodiesAndChangeNothing drives the handlers with
// what an attacker or a careless script sends: each a clear 4xx, no batch
// made, nothing redeemed.
func TestCodeCallsRefuseBadBodiesAndChangeNothing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newCodes(t, d)
		h := NewCodesHandler(f.s)
		uid := codeUser(t, d)
		do := func(fn httpx.Handler, body string) (int, string) {
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			r = r.WithContext(httpx.WithUserID(r.Context(), uid))
			w := httptest.NewRecorder()
			httpx.Handler(fn).ServeHTTP(w, r)
			var env httpx.Envelope
			_ = json.Unmarshal(w.Body.Bytes(), &env)
			return w.Code, env.Tip
		}
		for _, c := range []struct {
			body   string
			status int
		}{
			{`{"name":"n","reward":{"coins":1},"count":0}`, 422},
			{`{"name":"n","reward":{"coins":1},"count":10001}`, 422},
			{`{"name":"n","reward":{"coins":1},"count":1.5}`, 400},
			{`{"name":"n","reward":{"coins":1},"count":"3"}`, 400},
			{`{"name":"n","reward":{"coins":1}}`, 422},
			{`{"name":"n","count":1}`, 422},
			{`{"name":"n","reward":{"coins":-1},"count":1}`, 422},
			{`{"name":"n","reward":{"coins":1},"count":1,"usesPerCode":0}`, 422},
			{`{"name":"n","reward":{"coins":1},"count":1,"usesPerCode":-3}`, 422},
			{`{"name":"n","reward":{"coins":1},"count":1,"expiresAt":1}`, 422},
			{`{"name":"a\u0000b","reward":{"coins":1},"count":1}`, 422},
			{`{"name":"","reward":{"coins":1},"count":1}`, 422},
			{`[1]`, 400},
		} {
			if got, tip := do(h.AdminCreateBatch, c.body); got != c.status {
				t.Errorf("create %s: %d %s, want %d", c.body, got, tip, c.status)
			}
		}
		for _, c := range []struct {
			body   string
			status int
		}{
			{`{}`, 422},
			{`{"code":""}`, 422},
			{`{"code":12}`, 400},
			{`{"code":"ABCD\u0000EFGH-JKMN"}`, 422},
			{`{"code":"` + strings.Repeat("A", 5000) + `"}`, 404},
		} {
			if got, tip := do(h.Exchange, c.body); got != c.status {
				t.Errorf("exchange %s: %d %s, want %d", c.body[:min(len(c.body), 40)], got, tip, c.status)
			}
		}
		for _, c := range []struct {
			body   string
			status int
		}{{`{}`, 422}, {`{"id":0}`, 422}, {`{"id":-1}`, 422}, {`{"id":99}`, 404}} {
			if got, tip := do(h.AdminDisableBatch, c.body); got != c.status {
				t.Errorf("disable %s: %d %s, want %d", c.body, got, tip, c.status)
			}
		}
		var n int
		if err := d.QueryRow(t.Context(), `SELECT (SELECT COUNT(*) FROM code_batches) + (SELECT COUNT(*) FROM code_redemptions)`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("%d rows after refusals (%v)", n, err)
		}
		// A good body makes the batch and returns its grouped codes; with
		// Accept: text/csv, as a file.
		if got, tip := do(h.AdminCreateBatch, `{"name":"ok","reward":{"coins":5},"count":2}`); got != 200 {
			t.Fatalf("good create: %d %s", got, tip)
		}
		r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(`{"name":"csv","reward":{"coins":5},"count":3}`))
		r.Header.Set("Accept", "text/csv")
		r = r.WithContext(httpx.WithUserID(r.Context(), uid))
		w := httptest.NewRecorder()
		httpx.Handler(h.AdminCreateBatch).ServeHTTP(w, r)
		lines := strings.Split(strings.TrimSpace(w.Body.String()), "\n")
		if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/csv") || len(lines) != 4 || lines[0] != "code" {
			t.Fatalf("csv: %d %q %q", w.Code, w.Header().Get("Content-Type"), w.Body.String())
		}
		for _, c := range lines[1:] {
			if _, ok := NormalizeCode(c); !ok || len(c) != 14 {
				t.Fatalf("csv line %q is not a grouped code", c)
			}
		}
	})
}

// The batch list takes only cursors it gave and a bounded page size.
func TestAdminBatchesRefusesBadCursors(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newCodes(t, d)
		h := NewCodesHandler(f.s)
		get := func(query string) (int, string) {
			r := httptest.NewRequest(http.MethodGet, "/?"+query, nil)
			w := httptest.NewRecorder()
			httpx.Handler(h.AdminBatches).ServeHTTP(w, r)
			return w.Code, w.Body.String()
		}
		for _, q := range []string{"cursor=junk", "cursor=k-1", "cursor=k1.2", "cursor=%00", "pageSize=0", "pageSize=-1", "pageSize=99999999999999999999"} {
			if code, body := get(q); code != 422 && code != 400 {
				t.Errorf("%s: %d %s, want 4xx", q, code, body)
			}
		}
		if code, body := get("pageSize=1"); code != 200 || !strings.Contains(body, `"nextCursor":null`) {
			t.Errorf("empty list: %d %s", code, body)
		}
	})
}
