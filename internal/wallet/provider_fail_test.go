package wallet_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/platform/db"
	"prima/internal/wallet"
	"prima/internal/wallet/epay"
)

// A provider that fails closes the order with a tip and nothing charged;
// the same key then makes a new order; a new-user card's offer is given
// back; a gateway that does not answer is a 503, one that refuses a 502.
func TestProviderFailureClosesTheOrder(t *testing.T) {
	bothEngines(t, func(t *testing.T, eng db.Engine) {
		l, fake := epayServer(t, eng, "mapi", epay.StylePlain)
		ctx := context.Background()
		user := apitest.GuestLogin(t, l.h, apitest.DevID(1))
		id := l.pkg("300金币", 300, 30, 3000)
		body := fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"epay_alipay","idempotencyKey":"fail-0001"}`, id)

		fake.FailCreate = true
		res := l.call("POST", "/api/app/mine/topay", user, body, http.StatusBadGateway)
		if !strings.Contains(res.Body.String(), "支付渠道下单失败，未扣款") {
			t.Fatalf("refused order: %s", res.Body)
		}
		fake.FailCreate, fake.Down = false, true
		res = l.call("POST", "/api/app/mine/topay", user, body, http.StatusServiceUnavailable)
		if !strings.Contains(res.Body.String(), "支付渠道暂时无法连接") {
			t.Fatalf("gateway down: %s", res.Body)
		}
		all := apitest.Data[wallet.OrderPage](t, l.call("GET", "/api/app/mine/rchg/order", user, "", 200))
		if all.Total != 2 || all.List[0].Status != "cancelled" || all.List[1].Status != "cancelled" || l.coins(user) != 0 {
			t.Fatalf("failed orders: %+v", all)
		}
		if got := l.outcomes(all.List[0].OrderNo); got != "create_failed" {
			t.Fatalf("record of the failure: %s", got)
		}
		// The retry with the same key is a new order.
		fake.Down = false
		o := l.topay(user, body)
		if o.Status != "pending" || o.PayURL == "" || o.OrderNo == all.List[0].OrderNo || o.OrderNo == all.List[1].OrderNo {
			t.Fatalf("retry: %+v", o)
		}
		if again := l.topay(user, body); again.OrderNo != o.OrderNo {
			t.Fatalf("replay after the retry: %s, want %s", again.OrderNo, o.OrderNo)
		}

		// A new-user card: the failed order does not hold the offer.
		n := time.Now().Unix()
		var newbie int64
		if err := l.s.App.DB.QueryRow(ctx, `INSERT INTO vip_products (level, name, days, price, new_user, created_at, updated_at) VALUES (1, '新人卡', 7, 100, 1, ?, ?) RETURNING id`, n, n).Scan(&newbie); err != nil {
			t.Fatal(err)
		}
		vip := fmt.Sprintf(`{"productType":"vip","productID":%d,"payType":"epay_wxpay","idempotencyKey":"fail-vip-1"}`, newbie)
		fake.FailCreate = true
		l.call("POST", "/api/app/mine/topay", user, vip, http.StatusBadGateway)
		fake.FailCreate = false
		if v := l.topay(user, vip); v.Status != "pending" || v.Amount != 100 {
			t.Fatalf("new-user card after a failed order: %+v", v)
		}
		l.check()
	})
}

// blockingProvider holds Create until released, and checks that it is not
// called inside a transaction: a *db.DB call with a transaction's context
// panics (docs/architecture.md, *Transactions*).
type blockingProvider struct {
	db      *db.DB
	entered chan struct{}
	release chan struct{}
	inTx    atomic.Bool
	calls   atomic.Int32
}

func (b *blockingProvider) Name() string  { return "slow" }
func (b *blockingProvider) Title() string { return "慢渠道" }
func (b *blockingProvider) Ack() string   { return "success" }
func (b *blockingProvider) VerifyCallback(*http.Request) (wallet.Callback, error) {
	return wallet.Callback{}, errors.New("no notices")
}
func (b *blockingProvider) Create(ctx context.Context, o wallet.Order) (wallet.Payment, error) {
	b.calls.Add(1)
	func() {
		defer func() {
			if recover() != nil {
				b.inTx.Store(true)
			}
		}()
		var one int
		_ = b.db.QueryRow(ctx, `SELECT 1`).Scan(&one)
	}()
	close(b.entered)
	<-b.release
	return wallet.Payment{URL: "https://pay.example.com/" + o.OrderNo, Ref: "R-" + o.OrderNo}, nil
}

// While a provider takes its time, the order is already committed, other
// users' writes go on (on SQLite a transaction held over the call would
// stop every writer), and a replay of the same key waits for the first
// request's URL instead of making a second order.
func TestNoProviderCallInsideATransaction(t *testing.T) {
	bothEngines(t, func(t *testing.T, eng db.Engine) {
		l := newLive(t, eng, func(string) []string { return nil })
		slow := &blockingProvider{db: l.s.App.DB, entered: make(chan struct{}), release: make(chan struct{})}
		l.s.App.Wallet.Pay.Providers = append(l.s.App.Wallet.Pay.Providers, slow)
		var once sync.Once
		free := func() { once.Do(func() { close(slow.release) }) }
		t.Cleanup(free) // a failing test must not leave a request hanging
		user := apitest.GuestLogin(t, l.h, apitest.DevID(1))
		other := apitest.GuestLogin(t, l.h, apitest.DevID(2))
		id := l.pkg("300金币", 300, 30, 3000)
		body := fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"slow","idempotencyKey":"slow-0001"}`, id)
		type answer struct {
			code int
			o    wallet.Order
		}
		send := func(out chan<- answer) {
			res := apitest.Scenario{Method: "POST", URL: "/api/app/mine/topay", Token: user, Body: body}.Send(t, l.h)
			a := answer{code: res.Code}
			if res.Code == 200 {
				a.o = apitest.Data[wallet.Order](t, res)
			}
			out <- a
		}
		first, replay := make(chan answer, 1), make(chan answer, 1)
		go send(first)
		select {
		case <-slow.entered:
		case <-time.After(10 * time.Second):
			t.Fatal("the provider was never called")
		}
		if slow.inTx.Load() {
			t.Fatal("Provider.Create was called inside a transaction")
		}
		// The order is there already, without a URL.
		var status, url string
		if err := l.s.App.DB.QueryRow(context.Background(), `SELECT status, pay_url FROM orders WHERE pay_type = 'slow'`).Scan(&status, &url); err != nil || status != "pending" || url != "" {
			t.Fatalf("order while the provider works: %q %q %v", status, url, err)
		}
		go send(replay)
		// Other writes go on meanwhile.
		done := make(chan int, 1)
		go func() {
			res := apitest.Scenario{Method: "POST", URL: "/api/app/mine/topay", Token: other,
				Body: fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"other-0001"}`, id)}.Send(t, l.h)
			done <- res.Code
		}()
		select {
		case code := <-done:
			if code != 200 {
				t.Fatalf("another user's order: %d", code)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("another user's order waited for the provider")
		}
		time.Sleep(200 * time.Millisecond) // the replay is waiting too
		free()
		a, b := <-first, <-replay
		if a.code != 200 || b.code != 200 || a.o.OrderNo != b.o.OrderNo || b.o.PayURL != "https://pay.example.com/"+a.o.OrderNo {
			t.Fatalf("first %+v, replay %+v", a, b)
		}
		if n := slow.calls.Load(); n != 1 {
			t.Fatalf("provider called %d times", n)
		}
		var ref string
		if err := l.s.App.DB.QueryRow(context.Background(), `SELECT pay_ref FROM orders WHERE order_no = ?`, a.o.OrderNo).Scan(&ref); err != nil || ref != "R-"+a.o.OrderNo {
			t.Fatalf("provider's reference: %q %v", ref, err)
		}
		l.check()
	})
}
