package wallet

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// downLimiter is purchase_test.go's.

// Money calls fail closed: a limiter that cannot answer refuses them (503)
// and nothing moves; past the limit they get 429 with Retry-After.
func TestMoneyCallsFailClosed(t *testing.T) {
	d := dbtest.Open(t, "sqlite")
	s := testService(d)
	uid := newUserAt(t, d, "limited", now.Add(-48*time.Hour))
	credit(t, s, d, uid, 100_000, "commission:lim", now)
	h := NewHandler(s)
	call := func(key string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodPost, "/api/app/mine/goldExchange", strings.NewReader(`{"amount":100,"idempotencyKey":"`+key+`"}`))
		r = r.WithContext(httpx.WithUserID(r.Context(), uid))
		w := httptest.NewRecorder()
		httpx.Handler(h.GoldExchange).ServeHTTP(w, r)
		return w
	}
	s.Limiter = downLimiter{}
	if w := call("key-down-01"); w.Code != http.StatusServiceUnavailable {
		t.Fatalf("limiter down: %d %s", w.Code, w.Body)
	}
	if b, _ := Balance(context.Background(), d, UserIncome(uid)); b != 100_000 {
		t.Fatalf("income %d after a refused call", b)
	}
	s.Limiter = ratelimit.NewMemory()
	for i := range LimitExchange {
		if w := call("key-ok-" + string(rune('a'+i)) + "000"); w.Code != http.StatusOK {
			t.Fatalf("call %d: %d %s", i, w.Code, w.Body)
		}
	}
	w := call("key-over-001")
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" {
		t.Fatalf("over the limit: %d %s, Retry-After %q", w.Code, w.Body, w.Header().Get("Retry-After"))
	}
	if b, _ := Balance(context.Background(), d, UserIncome(uid)); b != 100_000-100*LimitExchange {
		t.Fatalf("income %d", b)
	}
	mustCheck(t, d)
}
