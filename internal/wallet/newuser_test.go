package wallet_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/wallet"
)

// newUserFixture: a new-user card (7 days of VIP for ¥10 or 10 coins).
func newUserCard(t *testing.T, s *apptest.Server) int64 {
	t.Helper()
	n := time.Now().Unix()
	var id int64
	if err := s.App.DB.QueryRow(context.Background(), `INSERT INTO vip_products (level, name, days, price, coins, new_user, created_at, updated_at)
		VALUES (1, '新人专享', 7, 1000, 10, 1, ?, ?) RETURNING id`, n, n).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func (e *env) uid(token string) int64 {
	e.t.Helper()
	return apitest.Data[struct {
		UID int64 `json:"uid"`
	}](e.t, e.call("GET", "/api/app/mine/info", token, "", 200)).UID
}

// fund credits 100 coins to token's user as an operator would.
func (e *env) fund(token string) {
	e.t.Helper()
	e.call("POST", "/api/admin/wallet/adjust", e.ops, fmt.Sprintf(`{"uid":%d,"account":"coins","amount":100,"reason":"test","idempotencyKey":"fund-%06d"}`,
		e.uid(token), e.uid(token)), 200)
}

// offered reports whether the VIP list and the countdown offer token's user
// the new-user card.
func (e *env) offered(token string, card int64) bool {
	e.t.Helper()
	list := apitest.Data[wallet.VIPProducts](e.t, e.call("GET", "/api/app/vip/product", token, "", 200)).List
	inList := false
	for _, p := range list {
		inList = inList || p.ID == card
	}
	cd := apitest.Data[wallet.Countdown](e.t, e.call("GET", "/api/app/vip/tiroCountdown", token, "", 200))
	if inList != (cd.Offer != nil) || cd.Used == inList {
		e.t.Fatalf("the list (%v) and the countdown (%+v) disagree", inList, cd)
	}
	return inList
}

// race sends the requests at once and returns their answers.
func (e *env) race(reqs []apitest.Scenario) []*apitest.Response {
	out := make([]*apitest.Response, len(reqs))
	var wg sync.WaitGroup
	for i, r := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = r.Send(e.t, e.h)
		}()
	}
	wg.Wait()
	return out
}

const (
	tipUsed    = "新人专享每个账号和每台设备仅限一次"
	tipPending = "新人专享订单待支付"
)

// The new-user card is once per account, with coins or with money, however
// the taps race; and once per device: the guest made on a phone after its
// first guest registered cannot have it again.
func TestNewUserOfferOncePerAccountAndDevice(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		e := newEnv(t, s)
		card := newUserCard(t, s)
		buy := func(token, key string) apitest.Scenario {
			return apitest.Scenario{Method: "POST", URL: "/api/app/vip/buy", Token: token,
				Body: fmt.Sprintf(`{"productID":%d,"idempotencyKey":%q}`, card, key)}
		}
		topay := func(token, key string) apitest.Scenario {
			return apitest.Scenario{Method: "POST", URL: "/api/app/mine/topay", Token: token,
				Body: fmt.Sprintf(`{"productType":"vip","productID":%d,"payType":"sandbox","idempotencyKey":%q}`, card, key)}
		}
		onlyOne := func(what string, answers []*apitest.Response) int {
			t.Helper()
			won := -1
			for i, a := range answers {
				body := a.Body.String()
				switch {
				case a.Code == 200 && won < 0:
					won = i
				case a.Code == 409 && (strings.Contains(body, tipUsed) || strings.Contains(body, tipPending)):
				default:
					t.Fatalf("%s: request %d: %d %s (won: %d)", what, i, a.Code, body, won)
				}
			}
			if won < 0 {
				t.Fatalf("%s: none went through", what)
			}
			return won
		}

		// One account: coin buys and money orders, 16 at once.
		alice := apitest.GuestLogin(t, e.h, apitest.DevID(1))
		e.fund(alice)
		if !e.offered(alice, card) {
			t.Fatal("a new account is not offered the new-user card")
		}
		var reqs []apitest.Scenario
		for i := range 8 {
			reqs = append(reqs, buy(alice, fmt.Sprintf("nu-buy-%04d", i)), topay(alice, fmt.Sprintf("nu-pay-%04d", i)))
		}
		answers := e.race(reqs)
		won := onlyOne("one account", answers)
		if won%2 == 1 {
			// An order won: it holds the offer until paid. Pay it.
			o := apitest.Data[wallet.Order](t, answers[won])
			if rec := e.payPage(o, "pay"); rec.Code != http.StatusSeeOther {
				t.Fatalf("pay: %d", rec.Code)
			}
		}
		if e.offered(alice, card) {
			t.Fatal("the new-user card is still offered after it was bought")
		}
		res := e.call("POST", "/api/app/vip/buy", alice, fmt.Sprintf(`{"productID":%d,"idempotencyKey":"nu-again-1"}`, card), 409)
		res2 := e.call("POST", "/api/app/mine/topay", alice, fmt.Sprintf(`{"productType":"vip","productID":%d,"payType":"sandbox","idempotencyKey":"nu-again-2"}`, card), 409)
		if !strings.Contains(res.Body.String(), tipUsed) || !strings.Contains(res2.Body.String(), tipUsed) {
			t.Fatalf("second attempts without the tip: %s / %s", res.Body, res2.Body)
		}
		var vip, orders int64
		if err := s.App.DB.QueryRow(context.Background(), `SELECT vip_expire_at FROM users WHERE id = ?`, e.uid(alice)).Scan(&vip); err != nil {
			t.Fatal(err)
		}
		if d := vip - time.Now().Unix(); d < 7*86400-60 || d > 7*86400 {
			t.Fatalf("VIP for %d s, want one week", d)
		}
		if err := s.App.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM orders WHERE status IN ('pending', 'paid')`).Scan(&orders); err != nil || orders > 1 {
			t.Fatalf("%d live orders for the offer (%v)", orders, err)
		}

		// One device, two accounts: bob registers, the phone then signs in
		// as a new guest; both try at once, one has it.
		dev := apitest.DevID(2)
		guest := apitest.GuestLogin(t, e.h, dev)
		bob := apitest.Data[struct {
			Token string `json:"token"`
		}](t, e.call("POST", "/api/app/mine/register", guest, `{"account":"bob_nu","passWord":"secret12"}`, 200)).Token
		carol := apitest.GuestLogin(t, e.h, dev)
		if e.uid(carol) == e.uid(bob) {
			t.Fatal("the device did not start over as a new guest")
		}
		e.fund(bob)
		e.fund(carol)
		reqs = nil
		for i := range 6 {
			reqs = append(reqs, buy(bob, fmt.Sprintf("nu-bob-%04d", i)), buy(carol, fmt.Sprintf("nu-carol-%04d", i)))
		}
		onlyOne("one device", e.race(reqs))
		if e.offered(bob, card) || e.offered(carol, card) {
			t.Fatal("the card is still offered on the device that had it")
		}
		// Another phone, another new account: its own offer.
		dave := apitest.GuestLogin(t, e.h, apitest.DevID(3))
		if !e.offered(dave, card) {
			t.Fatal("another device's new account lost the offer")
		}
		e.check()
	})
}

// An order for the card holds the offer while it can be paid; cancelled or
// expired unpaid it gives it back. An operator marking a closed order paid
// after the offer was had another way is refused.
func TestNewUserOrderHoldsTheOfferUntilClosed(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		e := newEnv(t, s)
		ctx := context.Background()
		card := newUserCard(t, s)
		user := apitest.GuestLogin(t, e.h, apitest.DevID(1))
		e.fund(user)
		pay := func(key string, status int) *apitest.Response {
			return e.call("POST", "/api/app/mine/topay", user, fmt.Sprintf(`{"productType":"vip","productID":%d,"payType":"sandbox","idempotencyKey":%q}`, card, key), status)
		}
		buy := func(key string, status int) *apitest.Response {
			return e.call("POST", "/api/app/vip/buy", user, fmt.Sprintf(`{"productID":%d,"idempotencyKey":%q}`, card, key), status)
		}
		o := apitest.Data[wallet.Order](t, pay("hold-0001", 200))
		if e.offered(user, card) {
			t.Fatal("offered while an unpaid order holds it")
		}
		for _, res := range []*apitest.Response{pay("hold-0002", 409), buy("hold-buy-1", 409)} {
			if !strings.Contains(res.Body.String(), tipPending) {
				t.Fatalf("refusal while pending: %s", res.Body)
			}
		}
		// Cancelled on the page: the offer is back.
		if rec := e.payPage(o, "cancel"); rec.Code != http.StatusSeeOther || e.order(o.OrderNo).Status != "cancelled" {
			t.Fatalf("cancel: %d", rec.Code)
		}
		if !e.offered(user, card) {
			t.Fatal("not offered after the order was cancelled")
		}
		// Another order, left to expire: back again.
		o2 := apitest.Data[wallet.Order](t, pay("hold-0003", 200))
		s.App.Wallet.SetClock(func() time.Time { return time.Now().Add(16 * time.Minute) })
		if done, err := s.App.Wallet.ExpireOrder(ctx, o2.OrderNo); err != nil || !done {
			t.Fatalf("expire: %v %v", done, err)
		}
		s.App.Wallet.SetClock(time.Now)
		if !e.offered(user, card) {
			t.Fatal("not offered after the order expired")
		}
		// Bought with coins now; the operator then marks the expired order
		// paid: refused, nothing credited twice.
		buy("hold-buy-2", 200)
		e.call("POST", "/api/admin/orders/paid", e.ops, `{"orderNo":"`+o2.OrderNo+`","reason":"补单"}`, 409)
		if st := e.order(o2.OrderNo).Status; st != "expired" {
			t.Fatalf("the expired order is %s", st)
		}
		if e.offered(user, card) {
			t.Fatal("offered after the coin purchase")
		}
		e.check()
	})
}
