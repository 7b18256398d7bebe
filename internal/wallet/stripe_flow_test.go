package wallet_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/platform/db"
	"prima/internal/wallet"
	"prima/internal/wallet/stripepay/stripetest"
)

const (
	stripeKey    = "sk_test_prima_0123456789"
	stripeSecret = "whsec_test_prima_0123456789"
)

// stripeServer is a live server taking Stripe payments through a fake
// Stripe (the SDK pointed at it), the sandbox off.
func stripeServer(t *testing.T, e db.Engine, currency string) (*live, *stripetest.Fake) {
	t.Helper()
	fake := stripetest.New(stripeKey, stripeSecret)
	t.Cleanup(fake.Close)
	l := newLive(t, e, func(string) []string {
		return []string{"-pay-sandbox=0", "-stripe-secret-key", stripeKey, "-stripe-webhook-secret", stripeSecret,
			"-stripe-api-url", fake.Server.URL, "-stripe-currency", currency}
	})
	fake.WebhookURL = l.notifyURL("stripe")
	return l, fake
}

// lastCallback is the newest notice recorded (of any order).
func (e *env) lastCallback() wallet.CallbackRecord {
	e.t.Helper()
	cbs := apitest.Data[[]wallet.CallbackRecord](e.t, e.call("GET", "/api/admin/orders/callbacks", e.ops, "", 200))
	if len(cbs) == 0 {
		e.t.Fatal("no callback recorded")
	}
	return cbs[0]
}

// Checkout end to end: a session per order, the paid webhook credits once,
// forged, stale, wrong-amount, wrong-currency and unknown-order events move
// nothing and are recorded, and charge.refunded (20 copies at once) takes
// the order back once through the wallet's refund.
func TestStripeCheckout(t *testing.T) {
	bothEngines(t, func(t *testing.T, eng db.Engine) {
		l, fake := stripeServer(t, eng, "cny")
		user := apitest.GuestLogin(t, l.h, apitest.DevID(1))
		id := l.pkg("300金币", 300, 30, 3000)
		list := apitest.Data[[]wallet.CoinPackage](t, l.call("GET", "/api/app/mine/currencys", user, "", 200))
		if len(list[0].PayTypes) != 1 || list[0].PayTypes[0] != (wallet.PayType{Code: "stripe", Name: "银行卡 (Stripe)"}) {
			t.Fatalf("pay types: %+v", list[0].PayTypes)
		}
		body := fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"stripe","idempotencyKey":"stripe-0001"}`, id)
		o := l.topay(user, body)
		s := fake.SessionOf(o.OrderNo)
		if s == nil || o.PayURL != s.URL || s.Amount != 3000 || s.Currency != "cny" || s.MetaOrderNo != o.OrderNo || s.PIMetaOrderNo != o.OrderNo ||
			s.SuccessURL != l.url+"/mine/usercoinchongzhi?orderNo="+o.OrderNo || s.Name != "300金币" ||
			s.ExpiresAt < time.Now().Add(30*time.Minute).Unix() {
			t.Fatalf("order %+v, session %+v", o, s)
		}
		if again := l.topay(user, body); again.OrderNo != o.OrderNo || again.PayURL != o.PayURL || fake.Creates != 1 {
			t.Fatalf("replayed topay: %+v (%d sessions)", again, fake.Creates)
		}

		paidCopy := *s
		paidCopy.Status, paidCopy.PaymentStatus, paidCopy.PaymentIntent = "complete", "paid", "pi_forged"
		event := stripetest.SessionEvent("checkout.session.completed", &paidCopy)
		// Forged: signed with another secret; signed long ago; unsigned.
		for _, sig := range []string{
			stripetest.Sign(event, "whsec_other", time.Now()),
			stripetest.Sign(event, stripeSecret, time.Now().Add(-10*time.Minute)),
			"",
		} {
			if code, _, _ := fake.Send(event, sig); code != 400 {
				t.Fatalf("forged event (%q): %d", sig, code)
			}
			if c := l.lastCallback(); c.Outcome != "refused" || c.Provider != "stripe" {
				t.Fatalf("forged event record: %+v", c)
			}
		}
		// Well signed, but not what the order says.
		cheap := paidCopy
		cheap.Amount = 1
		dollars := paidCopy
		dollars.Currency = "usd"
		for _, bad := range []*stripetest.Session{&cheap, &dollars} {
			if code, _, _ := fake.Deliver(stripetest.SessionEvent("checkout.session.completed", bad)); code != 400 {
				t.Fatalf("wrong amount or currency: %d", code)
			}
		}
		// Completed but not yet paid (a delayed method): acknowledged only.
		later := paidCopy
		later.PaymentStatus = "unpaid"
		if code, _, _ := fake.Deliver(stripetest.SessionEvent("checkout.session.completed", &later)); code != 200 {
			t.Fatalf("unpaid completion: %d", code)
		}
		if l.coins(user) != 0 || l.order(o.OrderNo).Status != "pending" {
			t.Fatal("a bad event moved something")
		}

		// Paid.
		if code, body, err := fake.Pay(s.ID); code != 200 || body != "success" || err != nil {
			t.Fatalf("paid event: %d %s %v", code, body, err)
		}
		s = fake.Session(s.ID)
		if p := l.order(o.OrderNo); p.Status != "paid" || p.TradeNo != s.PaymentIntent || l.coins(user) != 330 {
			t.Fatalf("paid: %+v, coins %d", p, l.coins(user))
		}
		paid := stripetest.SessionEvent("checkout.session.completed", s)
		for range 2 { // Stripe resends; each copy has its own signature
			if code, _, _ := fake.Deliver(paid); code != 200 {
				t.Fatalf("resent event: %d", code)
			}
		}
		unknown := *s
		unknown.OrderNo, unknown.MetaOrderNo = "P2026010100000000000001", "P2026010100000000000001"
		if code, _, _ := fake.Deliver(stripetest.SessionEvent("checkout.session.completed", &unknown)); code != 404 {
			t.Fatalf("unknown order: %d", code)
		}
		if code, _, _ := fake.Deliver(stripetest.Event("customer.created", map[string]any{"id": "cus_1", "object": "customer"})); code != 200 {
			t.Fatalf("other event: %d", code)
		}
		// Another integration's session and charge on the same account:
		// acknowledged (Stripe would resend for days), recorded, nothing moves.
		foreign := *s
		foreign.OrderNo, foreign.MetaOrderNo = "order-42", ""
		if code, _, _ := fake.Deliver(stripetest.SessionEvent("checkout.session.completed", &foreign)); code != 200 || l.lastCallback().Outcome != "ignored" {
			t.Fatalf("another integration's session: %d", code)
		}
		foreign.PaymentIntent = "pi_not_ours"
		if code, _, _ := fake.Deliver(stripetest.RefundEvent(&foreign, foreign.Amount, false)); code != 200 || l.lastCallback().Outcome != "unknown_order" {
			t.Fatalf("another integration's refund: %d", code)
		}
		// Our metadata with another client_reference_id: refused.
		mixed := *s
		mixed.OrderNo = "P2026010100000000000002"
		if code, _, _ := fake.Deliver(stripetest.SessionEvent("checkout.session.completed", &mixed)); code != 400 {
			t.Fatalf("mismatched order numbers: %d", code)
		}
		if l.coins(user) != 330 || l.movements(o.OrderNo) != 2 {
			t.Fatal("replays moved money")
		}

		// A partial refund is for an operator; a whole one, named by the
		// PaymentIntent only, refunds once however many copies race.
		if code, _, _ := fake.Deliver(stripetest.RefundEvent(s, 1000, true)); code != 200 || l.order(o.OrderNo).Status != "paid" {
			t.Fatalf("partial refund: %d", code)
		}
		refund := stripetest.RefundEvent(s, s.Amount, false)
		var wg sync.WaitGroup
		answers := make([]string, 20)
		for i := range answers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				code, body, err := fake.Deliver(refund)
				answers[i] = fmt.Sprint(code, body, err)
			}()
		}
		wg.Wait()
		for i, a := range answers {
			if a != "200success<nil>" {
				t.Fatalf("refund %d: %s", i, a)
			}
		}
		if p := l.order(o.OrderNo); p.Status != "refunded" || l.coins(user) != 0 || l.movements(o.OrderNo) != 3 {
			t.Fatalf("refunded: %+v, coins %d, movements %d", p, l.coins(user), l.movements(o.OrderNo))
		}
		want := "refused,refused,ignored,paid,replay,replay,refused,ignored,refunded" + strings.Repeat(",replay", 19)
		if got := l.outcomes(o.OrderNo); got != want {
			t.Fatalf("outcomes:\n got %s\nwant %s", got, want)
		}

		// A refund of coins already spent cannot be taken back: recorded
		// for an operator, acknowledged, nothing moves.
		o2 := l.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"stripe","idempotencyKey":"stripe-0002"}`, id))
		s2 := fake.SessionOf(o2.OrderNo)
		if code, _, _ := fake.Pay(s2.ID); code != 200 {
			t.Fatalf("pay: %d", code)
		}
		uid := l.order(o2.OrderNo).UserID
		if err := l.s.App.DB.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
			_, err := l.s.App.Wallet.Ledger.Post(ctx, tx, wallet.Transfer{Kind: "buy_video", Key: "buyvid:stripe", UserID: uid,
				Legs: []wallet.Leg{{Account: wallet.UserCoins(uid), Amount: -10}, {Account: wallet.System(wallet.SysCoinsSpent), Amount: 10}}}, time.Now())
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if code, _, _ := fake.Deliver(stripetest.RefundEvent(fake.Session(s2.ID), 3000, true)); code != 200 {
			t.Fatalf("refund of spent coins: %d", code)
		}
		if p := l.order(o2.OrderNo); p.Status != "paid" || l.coins(user) != 320 || !strings.HasSuffix(l.outcomes(o2.OrderNo), "refund_refused") {
			t.Fatalf("after a refund that cannot be taken back: %s, coins %d, %s", p.Status, l.coins(user), l.outcomes(o2.OrderNo))
		}
		l.check()
	})
}

// The expiry job asks Stripe first: a session paid whose event was lost is
// credited; an open one is expired at Stripe before the order closes, so
// it cannot be paid afterwards.
func TestStripeExpiryQueriesAndCloses(t *testing.T) {
	bothEngines(t, func(t *testing.T, eng db.Engine) {
		l, fake := stripeServer(t, eng, "cny")
		ctx := context.Background()
		clock := time.Now()
		l.s.App.Wallet.SetClock(func() time.Time { return clock })
		user := apitest.GuestLogin(t, l.h, apitest.DevID(1))
		id := l.pkg("300金币", 300, 30, 3000)
		a := l.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"stripe","idempotencyKey":"stripe-exp-1"}`, id))
		b := l.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"stripe","idempotencyKey":"stripe-exp-2"}`, id))
		fake.Complete(fake.SessionOf(a.OrderNo).ID) // its event is lost
		clock = clock.Add(16 * time.Minute)
		if done, err := l.s.App.Wallet.ExpireOrder(ctx, a.OrderNo); done || err != nil {
			t.Fatalf("expiry of the paid one: %v %v", done, err)
		}
		if st := l.order(a.OrderNo).Status; st != "paid" || l.coins(user) != 330 {
			t.Fatalf("recovered: %s, coins %d", st, l.coins(user))
		}
		if done, err := l.s.App.Wallet.ExpireOrder(ctx, b.OrderNo); !done || err != nil {
			t.Fatalf("expiry of the open one: %v %v", done, err)
		}
		if s := fake.SessionOf(b.OrderNo); s.Status != "expired" || l.order(b.OrderNo).Status != "expired" {
			t.Fatalf("session %s, order %s", s.Status, l.order(b.OrderNo).Status)
		}
		// Stripe's expired event afterwards changes nothing.
		if code, _, _ := fake.Deliver(stripetest.SessionEvent("checkout.session.expired", fake.SessionOf(b.OrderNo))); code != 200 {
			t.Fatalf("expired event: %d", code)
		}
		l.check()
	})
}

// A currency without minor units: 3000 cents are charged as 30 yen, and a
// price that is not whole in it is refused before anything is charged.
func TestStripeZeroDecimalCurrency(t *testing.T) {
	l, fake := stripeServer(t, db.SQLite, "jpy")
	user := apitest.GuestLogin(t, l.h, apitest.DevID(1))
	id := l.pkg("300金币", 300, 0, 3000)
	o := l.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"stripe","idempotencyKey":"stripe-jpy-1"}`, id))
	s := fake.SessionOf(o.OrderNo)
	if s.Amount != 30 || s.Currency != "jpy" {
		t.Fatalf("session %+v", s)
	}
	if code, _, _ := fake.Pay(s.ID); code != 200 || l.coins(user) != 300 {
		t.Fatalf("paid: %d, coins %d", code, l.coins(user))
	}
	odd := l.pkg("305金币", 305, 0, 3050)
	res := l.call("POST", "/api/app/mine/topay", user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"stripe","idempotencyKey":"stripe-jpy-2"}`, odd), 502)
	if !strings.Contains(res.Body.String(), "未扣款") {
		t.Fatalf("refusal: %s", res.Body)
	}
	l.check()
}
