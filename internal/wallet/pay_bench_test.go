package wallet_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"prima/internal/app/apptest"
	"prima/internal/platform/db"
	"prima/internal/wallet"
	"prima/internal/wallet/epay"
	"prima/internal/wallet/stripepay/stripetest"
)

// BenchmarkCallbacks measures paid notices per second through the HTTP
// routes, signature checks on (verify, lock the order, conditional update,
// two ledger movements, the callback record), 8 callers at once, then
// checks the ledger: the sandbox's own callback (HMAC-SHA256 form), an
// EasyPay notice (MD5 over the sorted query, GET /api/pay/notify/epay) and
// a Stripe webhook event (webhook.ConstructEvent, JSON). Orders are made
// directly in the database beforehand so only notices are timed. SQLite
// runs with group commit and, as the baseline in the same run, one commit
// per request.
//
//	go test ./internal/wallet/ -run '^$' -bench Callbacks -benchtime 2000x
func BenchmarkCallbacks(b *testing.B) {
	for _, c := range []struct {
		name  string
		eng   db.Engine
		group bool
	}{{"sqlite", db.SQLite, true}, {"sqlite-solo-commits", db.SQLite, false}, {"postgres", db.Postgres, false}} {
		for _, kind := range []string{"sandbox", "epay", "stripe"} {
			b.Run(c.name+"/"+kind, func(b *testing.B) { benchNotices(b, c.eng, c.group, kind) })
		}
	}
}

const (
	benchEpayKey = "bench-merchant-key-0123456789"
	benchWhsec   = "whsec_bench_0123456789"
)

func benchNotices(b *testing.B, eng db.Engine, group bool, kind string) {
	s := apptest.New(b, eng, "-public-url", "http://127.0.0.1:1", "-epay-gateway", "http://127.0.0.1:1/", "-epay-pid", "1001",
		"-epay-key", benchEpayKey, "-stripe-secret-key", "sk_test_bench", "-stripe-webhook-secret", benchWhsec, "-stripe-api-url", "http://127.0.0.1:1")
	s.App.DB.SetGroupCommit(group)
	ctx := context.Background()
	var sb *wallet.Sandbox
	for _, p := range s.App.Wallet.Pay.Providers {
		if x, ok := p.(*wallet.Sandbox); ok {
			sb = x
		}
	}
	now := time.Now().Unix()
	var uid int64
	if err := s.App.DB.QueryRow(ctx, `INSERT INTO users (created_at, updated_at) VALUES (?, ?) RETURNING id`, now, now).Scan(&uid); err != nil {
		b.Fatal(err)
	}
	payType := map[string]string{"sandbox": "sandbox", "epay": "epay_alipay", "stripe": "stripe"}[kind]
	reqs := make([]func() *http.Request, b.N)
	for i := range reqs {
		no := fmt.Sprintf("P%020d", i+1)
		if _, err := s.App.DB.Exec(ctx, `INSERT INTO orders (order_no, user_id, product_type, product_id, title, amount, coins, bonus, pay_type, created_at, expires_at)
			VALUES (?, ?, 'coins', 1, '300金币', 3000, 300, 30, ?, ?, ?)`, no, uid, payType, now, now+3600); err != nil {
			b.Fatal(err)
		}
		switch kind {
		case "sandbox":
			body := sb.CallbackForm(wallet.Order{OrderNo: no, Amount: 3000}, "paid", "T", now).Encode()
			reqs[i] = func() *http.Request {
				r := httptest.NewRequest("POST", "/api/pay/callback/sandbox", strings.NewReader(body))
				r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				return r
			}
		case "epay":
			v := url.Values{"pid": {"1001"}, "trade_no": {fmt.Sprintf("2026%012d", i)}, "out_trade_no": {no}, "type": {"alipay"},
				"name": {"300金币"}, "money": {"30.00"}, "trade_status": {"TRADE_SUCCESS"}, "sign_type": {"MD5"}}
			v.Set("sign", epay.Sign(v, benchEpayKey, epay.StylePlain))
			target := "/api/pay/notify/epay?" + v.Encode()
			reqs[i] = func() *http.Request { return httptest.NewRequest("GET", target, nil) }
		case "stripe":
			payload := stripetest.SessionEvent("checkout.session.completed", &stripetest.Session{ID: fmt.Sprintf("cs_test_%d", i), OrderNo: no,
				MetaOrderNo: no, Amount: 3000, Currency: "cny", Status: "complete", PaymentStatus: "paid", PaymentIntent: fmt.Sprintf("pi_%d", i)})
			sig := stripetest.Sign(payload, benchWhsec, time.Now())
			reqs[i] = func() *http.Request {
				r := httptest.NewRequest("POST", "/api/pay/notify/stripe", strings.NewReader(string(payload)))
				r.Header.Set("Content-Type", "application/json")
				r.Header.Set("Stripe-Signature", sig)
				return r
			}
		}
	}
	b.ResetTimer()
	start, cpu0 := time.Now(), cpuTime()
	var wg sync.WaitGroup
	next := make(chan func() *http.Request)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for mk := range next {
				rec := httptest.NewRecorder()
				s.Handler.ServeHTTP(rec, mk())
				if rec.Code != 200 || rec.Body.String() != "success" {
					b.Error(rec.Code, rec.Body)
				}
			}
		}()
	}
	for _, r := range reqs {
		next <- r
	}
	close(next)
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "notices/s")
	// The process's CPU per notice holds on a busy machine, where the rate
	// does not: with SQLite (in the process) it is the whole cost but the
	// disk's, so 2 cores / it bounds the rate of a quiet 2-core machine.
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/float64(b.N), "cpu-µs/notice")
	var coins int64
	if err := s.App.DB.QueryRow(ctx, `SELECT balance FROM ledger_accounts WHERE user_id = ? AND kind = 'coins'`, uid).Scan(&coins); err != nil || coins != int64(b.N)*330 {
		b.Fatalf("coins %d after %d notices: %v", coins, b.N, err)
	}
	if err := wallet.Check(ctx, s.App.DB); err != nil {
		b.Fatal(err)
	}
}

// cpuTime is the user and system CPU this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
