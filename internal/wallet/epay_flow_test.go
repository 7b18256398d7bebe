package wallet_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/platform/db"
	"prima/internal/wallet"
	"prima/internal/wallet/epay"
	"prima/internal/wallet/epay/epaytest"
)

// epayServer is a live server with an EasyPay merchant at a fake gateway
// (all three channels, the sandbox off), made in mode and sign style.
func epayServer(t *testing.T, e db.Engine, mode string, style epay.Style) (*live, *epaytest.Fake) {
	t.Helper()
	fake := epaytest.New("1001", "test-merchant-key-0123456789", style)
	t.Cleanup(fake.Close)
	l := newLive(t, e, func(string) []string {
		return []string{"-pay-sandbox=0", "-epay-gateway", fake.URL(), "-epay-pid", "1001", "-epay-key", "test-merchant-key-0123456789",
			"-epay-channels", "alipay,wxpay,qqpay", "-epay-mode", mode, "-epay-sign", string(style)}
	})
	return l, fake
}

func (l *live) notifyURL(provider string) string { return l.url + "/api/pay/notify/" + provider }

// A paid notice credits once, answered with exactly "success"; replays,
// forged signatures, a wrong amount, another merchant, an unknown order and
// a notice for a closed order move nothing and are recorded. Both ways of
// making orders, both ways of signing, GET and POST notices.
func TestEpayNotices(t *testing.T) {
	for _, c := range []struct {
		mode  string
		style epay.Style
		post  bool
	}{{"submit", epay.StylePlain, false}, {"mapi", epay.StyleAmpKey, true}} {
		t.Run(c.mode+"-"+string(c.style), func(t *testing.T) {
			bothEngines(t, func(t *testing.T, eng db.Engine) {
				l, fake := epayServer(t, eng, c.mode, c.style)
				fake.NotifyByPost = c.post
				clock := time.Now()
				l.s.App.Wallet.SetClock(func() time.Time { return clock })
				user := apitest.GuestLogin(t, l.h, apitest.DevID(1))
				id := l.pkg("300金币", 300, 30, 3000)

				list := apitest.Data[[]wallet.CoinPackage](t, l.call("GET", "/api/app/mine/currencys?type=1", user, "", 200))
				var names []string
				for _, p := range list[0].PayTypes {
					names = append(names, p.Code+"="+p.Name)
				}
				if got := strings.Join(names, " "); got != "epay_alipay=支付宝 epay_wxpay=微信支付 epay_qqpay=QQ钱包" {
					t.Fatalf("pay types: %s", got)
				}
				if vip := apitest.Data[wallet.VIPProducts](t, l.call("GET", "/api/app/vip/product", user, "", 200)); len(vip.PayTypes) != 3 || vip.PayTypes[2].Name != "QQ钱包" {
					t.Fatalf("VIP pay types: %+v", vip.PayTypes)
				}
				l.call("POST", "/api/app/mine/topay", user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"ep-sbx-1"}`, id), 422)

				o := l.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"epay_wxpay","idempotencyKey":"ep-order-0001"}`, id))
				if o.Status != "pending" || o.PayType != "epay_wxpay" {
					t.Fatalf("order: %+v", o)
				}
				// The pay URL opens the gateway's cashier: submit.php checks
				// our signature (page jump), or mapi.php already made it.
				if c.mode == "submit" {
					if !strings.HasPrefix(o.PayURL, fake.URL()+"submit.php?") {
						t.Fatalf("pay URL %s", o.PayURL)
					}
					if res := get(t, o.PayURL); res.StatusCode != 302 || !strings.HasPrefix(res.Header.Get("Location"), "/cashier/") {
						t.Fatalf("submit.php refused the order: %d", res.StatusCode)
					}
				} else if !strings.HasPrefix(o.PayURL, fake.URL()+"cashier/") {
					t.Fatalf("pay URL %s", o.PayURL)
				}
				g := fake.Order(o.OrderNo)
				if g == nil || g.Money != "30.00" || g.Type != "wxpay" || g.NotifyURL != l.notifyURL("epay") ||
					g.ReturnURL != l.url+"/mine/usercoinchongzhi?orderNo="+o.OrderNo {
					t.Fatalf("gateway's order: %+v", g)
				}
				// A replayed topay gives the same order and URL, nothing new at the gateway.
				if again := l.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"epay_wxpay","idempotencyKey":"ep-order-0001"}`, id)); again.OrderNo != o.OrderNo || again.PayURL != o.PayURL {
					t.Fatalf("replayed topay: %+v", again)
				}
				if fake.Created != 1 {
					t.Fatalf("gateway orders: %d", fake.Created)
				}

				// Forged before paid: a signature under another key.
				forged := fake.Notice(o.OrderNo)
				forged.Set("sign", epay.Sign(forged, "another-key", c.style))
				if code, body, _ := fake.Send(l.notifyURL("epay"), forged); code != 400 || body == "success" {
					t.Fatalf("forged: %d %s", code, body)
				}
				// The signature of the other style is not ours either.
				other := epay.StylePlain
				if c.style == other {
					other = epay.StyleAmpKey
				}
				wrongStyle := fake.Notice(o.OrderNo)
				wrongStyle.Set("sign", epay.Sign(wrongStyle, fake.Key, other))
				if code, _, _ := fake.Send(l.notifyURL("epay"), wrongStyle); code != 400 {
					t.Fatalf("other sign style: %d", code)
				}
				// Well signed but the wrong amount, or another merchant.
				cheap := fake.Notice(o.OrderNo)
				cheap.Set("money", "0.01")
				if code, _, _ := fake.Send(l.notifyURL("epay"), fake.Signed(cheap)); code != 400 {
					t.Fatalf("wrong amount: %d", code)
				}
				for _, money := range []string{"30", "30.0", "30.000", "+30.00", " 30.00", "3e1"} {
					v := fake.Notice(o.OrderNo)
					v.Set("money", money)
					if code, _, _ := fake.Send(l.notifyURL("epay"), fake.Signed(v)); code != 400 {
						t.Fatalf("money %q: %d", money, code)
					}
				}
				merchant := fake.Notice(o.OrderNo)
				merchant.Set("pid", "1002")
				if code, _, _ := fake.Send(l.notifyURL("epay"), fake.Signed(merchant)); code != 400 {
					t.Fatalf("another merchant: %d", code)
				}
				// Not a payment: acknowledged, nothing moves.
				waiting := fake.Notice(o.OrderNo)
				waiting.Set("trade_status", "WAIT_BUYER_PAY")
				if code, body, _ := fake.Send(l.notifyURL("epay"), fake.Signed(waiting)); code != 200 || body != "success" {
					t.Fatalf("unpaid status: %d %s", code, body)
				}
				if l.coins(user) != 0 || l.order(o.OrderNo).Status != "pending" || l.movements(o.OrderNo) != 0 {
					t.Fatal("a refused notice moved something")
				}

				// Paid: exactly "success", credited once.
				code, body, err := fake.Pay(o.OrderNo)
				if err != nil || code != 200 || body != "success" {
					t.Fatalf("paid notice: %d %q %v", code, body, err)
				}
				if c := l.coins(user); c != 330 {
					t.Fatalf("coins %d", c)
				}
				if p := l.order(o.OrderNo); p.Status != "paid" || p.TradeNo != g.TradeNo {
					t.Fatalf("paid order: %+v", p)
				}
				// Replays: success, nothing moves.
				for range 3 {
					if code, body, _ := fake.Send(l.notifyURL("epay"), fake.Notice(o.OrderNo)); code != 200 || body != "success" {
						t.Fatalf("replay: %d %s", code, body)
					}
				}
				// Unknown order (well signed).
				unknown := fake.Notice(o.OrderNo)
				unknown.Set("out_trade_no", "P2026010100000000000001")
				if code, _, _ := fake.Send(l.notifyURL("epay"), fake.Signed(unknown)); code != 404 {
					t.Fatalf("unknown order: %d", code)
				}
				if n := len(l.callbacks("P2026010100000000000001")); n != 1 {
					t.Fatalf("unknown order recorded %d times", n)
				}
				// A notice of no provider of ours.
				if code, _, _ := fake.Send(l.notifyURL("alipay"), fake.Notice(o.OrderNo)); code != 404 {
					t.Fatalf("unknown provider: %d", code)
				}
				if c := l.coins(user); c != 330 || l.movements(o.OrderNo) != 2 {
					t.Fatalf("after the bad notices: coins %d, movements %d", c, l.movements(o.OrderNo))
				}
				want := "refused,refused,refused,refused,refused,refused,refused,refused,refused,refused,ignored,paid,replay,replay,replay"
				if got := l.outcomes(o.OrderNo); got != want {
					t.Fatalf("recorded outcomes:\n got %s\nwant %s", got, want)
				}

				// Late: the order expired (the gateway, asked first, says
				// unpaid), then the payment lands.
				o2 := l.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"epay_alipay","idempotencyKey":"ep-order-0002"}`, id))
				if c.mode == "submit" {
					get(t, o2.PayURL)
				}
				clock = clock.Add(16 * time.Minute)
				if done, err := l.s.App.Wallet.ExpireOrder(context.Background(), o2.OrderNo); !done || err != nil {
					t.Fatalf("expiry: %v %v", done, err)
				}
				if code, body, _ := fake.Pay(o2.OrderNo); code != 200 || body != "success" {
					t.Fatalf("late notice: %d %s", code, body)
				}
				if l.coins(user) != 330 || l.order(o2.OrderNo).Status != "expired" || l.movements(o2.OrderNo) != 0 {
					t.Fatal("a late payment was credited")
				}
				if got := l.outcomes(o2.OrderNo); got != "late" {
					t.Fatalf("late outcomes: %s", got)
				}
				// The browser's way back, with the gateway's signed result
				// in its query, only shows the page: it credits nothing.
				back := l.page("/mine/usercoinchongzhi?orderNo=" + o2.OrderNo + "&" + fake.Notice(o2.OrderNo).Encode())
				if back.Code >= 500 || l.coins(user) != 330 || l.order(o2.OrderNo).Status != "expired" {
					t.Fatalf("return page: %d", back.Code)
				}
				l.check()
			})
		})
	}
}

// Twenty copies of one paid notice at once credit once.
func TestEpayConcurrentNoticesCreditOnce(t *testing.T) {
	bothEngines(t, func(t *testing.T, eng db.Engine) {
		l, fake := epayServer(t, eng, "mapi", epay.StylePlain)
		user := apitest.GuestLogin(t, l.h, apitest.DevID(1))
		id := l.pkg("1000金币", 1000, 150, 9800)
		for round := range 2 {
			o := l.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"epay_alipay","idempotencyKey":"ep-race-%d"}`, id, round))
			fake.MarkPaid(o.OrderNo)
			notice := fake.Notice(o.OrderNo)
			var wg sync.WaitGroup
			answers := make([]string, 20)
			for i := range answers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					code, body, err := fake.Send(l.notifyURL("epay"), notice)
					answers[i] = fmt.Sprint(code, body, err)
				}()
			}
			wg.Wait()
			for i, a := range answers {
				if a != "200success<nil>" {
					t.Fatalf("notice %d: %s", i, a)
				}
			}
			if c := l.coins(user); c != int64(round+1)*1150 || l.movements(o.OrderNo) != 2 {
				t.Fatalf("round %d: coins %d, movements %d", round, c, l.movements(o.OrderNo))
			}
			if got := l.outcomes(o.OrderNo); got != "paid"+strings.Repeat(",replay", 19) {
				t.Fatalf("outcomes %s", got)
			}
		}
		l.check()
	})
}

// A payment whose notice never came is found by the expiry job's order
// query and credited once; an unpaid order is closed; a gateway that does
// not answer keeps the order open (the job retries) until it answers.
func TestEpayMissedNoticeRecoveredByQuery(t *testing.T) {
	bothEngines(t, func(t *testing.T, eng db.Engine) {
		l, fake := epayServer(t, eng, "mapi", epay.StyleAmpKey)
		ctx := context.Background()
		clock := time.Now()
		l.s.App.Wallet.SetClock(func() time.Time { return clock })
		user := apitest.GuestLogin(t, l.h, apitest.DevID(1))
		id := l.pkg("300金币", 300, 30, 3000)
		paid := l.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"epay_alipay","idempotencyKey":"ep-query-1"}`, id))
		unpaid := l.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"epay_qqpay","idempotencyKey":"ep-query-2"}`, id))
		fake.MarkPaid(paid.OrderNo) // the notice is lost

		// Before the expiry nothing is asked.
		if done, err := l.s.App.Wallet.ExpireOrder(ctx, paid.OrderNo); done || err == nil || fake.Queries != 0 {
			t.Fatalf("early expiry: %v %v, queries %d", done, err, fake.Queries)
		}
		clock = clock.Add(16 * time.Minute)
		fake.Down = true
		if done, err := l.s.App.Wallet.ExpireOrder(ctx, paid.OrderNo); done || err == nil {
			t.Fatalf("gateway down: %v %v", done, err)
		}
		if l.order(paid.OrderNo).Status != "pending" {
			t.Fatal("closed without the gateway's word")
		}
		fake.Down = false
		if done, err := l.s.App.Wallet.ExpireOrder(ctx, paid.OrderNo); done || err != nil {
			t.Fatalf("query: %v %v", done, err)
		}
		if p := l.order(paid.OrderNo); p.Status != "paid" || l.coins(user) != 330 {
			t.Fatalf("recovered: %+v, coins %d", p, l.coins(user))
		}
		cbs := l.callbacks(paid.OrderNo)
		if len(cbs) != 1 || cbs[0].Outcome != "paid" || !strings.Contains(cbs[0].Detail, "order query") {
			t.Fatalf("recovery record: %+v", cbs)
		}
		// The job again, and the notice arriving after all: nothing more.
		if done, err := l.s.App.Wallet.ExpireOrder(ctx, paid.OrderNo); done || err != nil {
			t.Fatalf("second run: %v %v", done, err)
		}
		if code, body, _ := fake.Send(l.notifyURL("epay"), fake.Notice(paid.OrderNo)); code != 200 || body != "success" {
			t.Fatalf("late copy of the notice: %d %s", code, body)
		}
		if l.coins(user) != 330 || l.movements(paid.OrderNo) != 2 {
			t.Fatal("credited twice")
		}
		// Unpaid at the gateway: closed.
		if done, err := l.s.App.Wallet.ExpireOrder(ctx, unpaid.OrderNo); !done || err != nil {
			t.Fatalf("unpaid expiry: %v %v", done, err)
		}
		if st := l.order(unpaid.OrderNo).Status; st != "expired" {
			t.Fatalf("unpaid order %s", st)
		}
		l.check()
	})
}

// The notify path takes only its own provider's orders: an EasyPay notice
// for an order paid through another provider is refused.
func TestEpayNoticeForAnotherProvidersOrder(t *testing.T) {
	fake := epaytest.New("1001", "k-0123456789", epay.StylePlain)
	t.Cleanup(fake.Close)
	l := newLive(t, db.SQLite, func(string) []string {
		return []string{"-epay-gateway", fake.URL(), "-epay-pid", "1001", "-epay-key", "k-0123456789"}
	})
	user := apitest.GuestLogin(t, l.h, apitest.DevID(1))
	id := l.pkg("300金币", 300, 30, 3000)
	o := l.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"sbx-0001"}`, id))
	v := url.Values{"pid": {"1001"}, "trade_no": {"T1"}, "out_trade_no": {o.OrderNo}, "type": {"alipay"}, "money": {"30.00"}, "trade_status": {"TRADE_SUCCESS"}}
	if code, _, _ := fake.Send(l.notifyURL("epay"), fake.Signed(v)); code != 400 || l.coins(user) != 0 {
		t.Fatalf("epay notice for a sandbox order: %d", code)
	}
	if got := l.outcomes(o.OrderNo); got != "refused" {
		t.Fatalf("outcomes %s", got)
	}
}

// The order query runs in the real expiry job: an order whose notice was
// lost is found paid when its expiry comes, one left unpaid expires.
func TestEpayQueryRunsInTheExpiryJob(t *testing.T) {
	bothEngines(t, func(t *testing.T, eng db.Engine) {
		l, fake := epayServer(t, eng, "mapi", epay.StylePlain)
		ctx := context.Background()
		l.s.App.Wallet.Settings.OrderTTL = time.Second
		user := apitest.GuestLogin(t, l.h, apitest.DevID(1))
		id := l.pkg("300金币", 300, 30, 3000)
		paid := l.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"epay_alipay","idempotencyKey":"ep-job-1"}`, id))
		unpaid := l.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"epay_alipay","idempotencyKey":"ep-job-2"}`, id))
		fake.MarkPaid(paid.OrderNo)
		if err := l.s.App.Jobs.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			stop, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			_ = l.s.App.Jobs.Stop(stop)
		})
		deadline := time.Now().Add(30 * time.Second)
		for l.order(paid.OrderNo).Status == "pending" || l.order(unpaid.OrderNo).Status == "pending" {
			if time.Now().After(deadline) {
				t.Fatalf("after 30 s: %s, %s", l.order(paid.OrderNo).Status, l.order(unpaid.OrderNo).Status)
			}
			time.Sleep(100 * time.Millisecond)
		}
		if a, b := l.order(paid.OrderNo).Status, l.order(unpaid.OrderNo).Status; a != "paid" || b != "expired" || l.coins(user) != 330 {
			t.Fatalf("paid one %s, unpaid one %s, coins %d", a, b, l.coins(user))
		}
		l.check()
	})
}
