package wallet_test

import (
	"context"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"prima/internal/app/apptest"
	"prima/internal/platform/httpx"
	"prima/internal/wallet"
	"prima/internal/wallet/wallettest"
)

// 50 clients at once top up (paying, replaying and forging callbacks),
// buy videos and VIP, withdraw, and an operator approves, rejects and
// refunds, with idempotency keys reused; afterwards every ledger
// invariant holds and the business tables agree with the ledger. On
// PostgreSQL the requests truly run in parallel.
func TestWalletUnderConcurrentLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("hammer: long")
	}
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		ctx := context.Background()
		ops := s.Operator(t, "ops_1", httpx.RoleOwner).Token
		srv := httptest.NewServer(s.Handler)
		t.Cleanup(srv.Close)
		sb := s.App.Wallet.Pay.Providers[0].(*wallet.Sandbox)
		tg := &wallettest.Target{Base: func() string { return srv.URL }, Ops: ops, Sign: func(v url.Values) string { return sb.Sign(v) }}
		f := wallettest.Setup(t, tg, 25, 40)
		run, cancel := context.WithTimeout(ctx, 8*time.Second)
		defer cancel()
		st := wallettest.Hammer(run, t, tg, f, 50)
		t.Logf("outcomes: %s", st)
		for _, op := range []string{"topay", "callback", "buy", "vip", "withdraw", "decide"} {
			if st.Count(op, 200) == 0 {
				t.Errorf("no %s succeeded: the run did not exercise it (%s)", op, st)
			}
		}
		wallettest.Verify(t, s.App.DB)
	}, "-trusted-proxies", "127.0.0.1/32")
}
