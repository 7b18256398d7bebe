package wallet

import (
	"fmt"
	"net/http/httptest"
	"testing"
	"time"

	"prima/internal/platform/httpx"
)

// Too many wrong withdrawal passwords answer 429 and say when the next try
// is allowed, through the table and WriteError.
func TestPasswordTriesSayWhenToComeBack(t *testing.T) {
	w := httptest.NewRecorder()
	err := fmt.Errorf("withdraw: %w", &RetryError{After: 90 * time.Second})
	httpx.WriteError(w, httptest.NewRequest("POST", "/api/x", nil), passwordErrs.Map(err))
	if w.Code != 429 || w.Header().Get("Retry-After") != "90" {
		t.Fatalf("%d, Retry-After %q", w.Code, w.Header().Get("Retry-After"))
	}
	// Without the wait (the limiter's own verdict) there is no header to set.
	w = httptest.NewRecorder()
	httpx.WriteError(w, httptest.NewRequest("POST", "/api/x", nil), passwordErrs.Map(ErrTooManyTries))
	if w.Code != 429 || w.Header().Get("Retry-After") != "" {
		t.Fatalf("bare: %d, Retry-After %q", w.Code, w.Header().Get("Retry-After"))
	}
}

// A short balance says which one: coins, or the withdrawable income.
func TestInsufficientSaysWhich(t *testing.T) {
	for _, c := range []struct {
		kind string
		tip  string
	}{{Coins, "金币余额不足"}, {Income, "可提现余额不足"}} {
		e, ok := errs.Map(fmt.Errorf("buy: %w", &InsufficientError{Account: Account{Kind: c.kind}})).(*httpx.Error)
		if !ok || e.Status != 409 || e.Tip != c.tip || e.Msg != "insufficient balance" {
			t.Errorf("%v: %+v", c.kind, e)
		}
	}
}
