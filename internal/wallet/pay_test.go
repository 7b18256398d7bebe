package wallet_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/account"
	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/wallet"
)

type env struct {
	t   *testing.T
	s   *apptest.Server
	h   http.Handler
	ops string
}

func newEnv(t *testing.T, s *apptest.Server) *env {
	t.Helper()
	return &env{t: t, s: s, h: s.Handler, ops: s.Operator(t, "ops_1", httpx.RoleOwner).Token}
}

// call sends one API request and checks its status.
func (e *env) call(method, u, token, body string, status int) *apitest.Response {
	e.t.Helper()
	res := apitest.Scenario{Method: method, URL: u, Token: token, Body: body}.Send(e.t, e.h)
	if res.Code != status {
		e.t.Fatalf("%s %s: status %d, want %d\n%s", method, u, res.Code, status, res.Body)
	}
	return res
}

func (e *env) pkg(name string, coins, bonus, price int64) int64 {
	e.t.Helper()
	res := e.call("POST", "/api/admin/currencys", e.ops, fmt.Sprintf(`{"name":%q,"coins":%d,"bonus":%d,"price":%d,"label":"热卖"}`, name, coins, bonus, price), 200)
	return apitest.Data[wallet.CoinPackage](e.t, res).ID
}

func (e *env) topay(token, body string) wallet.Order {
	e.t.Helper()
	return apitest.Data[wallet.Order](e.t, e.call("POST", "/api/app/mine/topay", token, body, 200))
}

func (e *env) coins(token string) int64 {
	e.t.Helper()
	return apitest.Data[wallet.Summary](e.t, e.call("GET", "/api/app/mine/wallet", token, "", 200)).Coins
}

func (e *env) order(no string) wallet.Order {
	e.t.Helper()
	p := apitest.Data[wallet.OrderPage](e.t, e.call("GET", "/api/admin/orders?orderNo="+no, e.ops, "", 200))
	if len(p.List) != 1 {
		e.t.Fatalf("order %s: %+v", no, p)
	}
	return p.List[0]
}

func (e *env) check() {
	e.t.Helper()
	if err := wallet.Check(context.Background(), e.s.App.DB); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) sandbox() *wallet.Sandbox {
	return e.s.App.Wallet.Pay.Providers[0].(*wallet.Sandbox)
}

// callback posts a form to the sandbox's callback route.
func (e *env) callback(form url.Values) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", "/api/pay/callback/sandbox", strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, r)
	return rec
}

func (e *env) page(path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
	return rec
}

var tokenRE = regexp.MustCompile(`name="t" value="([0-9a-f]{32})"`)

// payPage opens the hosted page of o and posts action from it, as a
// browser does.
func (e *env) payPage(o wallet.Order, action string) *httptest.ResponseRecorder {
	e.t.Helper()
	pg := e.page(o.PayURL)
	m := tokenRE.FindStringSubmatch(pg.Body.String())
	if pg.Code != 200 || m == nil {
		e.t.Fatalf("pay page %s: %d\n%s", o.PayURL, pg.Code, pg.Body)
	}
	if ct := pg.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") || !strings.Contains(pg.Body.String(), "确认支付") {
		e.t.Fatalf("pay page: %s\n%s", ct, pg.Body)
	}
	r := httptest.NewRequest("POST", o.PayURL, strings.NewReader(url.Values{"t": {m[1]}, "action": {action}}.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, r)
	return rec
}

func TestSandboxTopUpFlow(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		e := newEnv(t, s)
		ctx := context.Background()
		user := apitest.GuestLogin(t, e.h, apitest.DevID(1))
		other := apitest.GuestLogin(t, e.h, apitest.DevID(2))
		id := e.pkg("300金币", 300, 30, 3000)
		if n := auditCount(t, s, "currency.create"); n != 1 {
			t.Fatalf("audit rows of currency.create: %d", n)
		}
		list := apitest.Data[[]wallet.CoinPackage](t, e.call("GET", "/api/app/mine/currencys?type=1", user, "", 200))
		if len(list) != 1 || list[0].Coins != 300 || list[0].Bonus != 30 || list[0].Price != 3000 ||
			len(list[0].PayTypes) != 1 || list[0].PayTypes[0].Code != "sandbox" {
			t.Fatalf("currencys: %+v", list)
		}
		e.call("GET", "/api/app/mine/currencys?type=2", user, "", 422)

		body := fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"topay-0001"}`, id)
		o := e.topay(user, body)
		if o.Status != "pending" || o.Amount != 3000 || o.Coins != 300 || o.Bonus != 30 || !strings.HasPrefix(o.PayURL, "/pay/sandbox/P") ||
			o.ExpiresAt.Sub(o.CreatedAt) != 15*time.Minute {
			t.Fatalf("order: %+v", o)
		}
		// The same key returns the same order; with other parameters, 409.
		if again := e.topay(user, body); again.OrderNo != o.OrderNo {
			t.Fatalf("replayed topay made order %s, first %s", again.OrderNo, o.OrderNo)
		}
		e.call("POST", "/api/app/mine/topay", user, strings.Replace(body, `"coins"`, `"vip"`, 1), 409)
		var jobsN int
		if err := s.App.DB.QueryRow(ctx, `SELECT COUNT(*) FROM jobs WHERE kind = ? AND unique_key = ?`, wallet.ExpireOrderKind, "order-expire:"+o.OrderNo).Scan(&jobsN); err != nil || jobsN != 1 {
			t.Fatalf("expiry jobs: %d %v", jobsN, err)
		}
		// Another user sees none of it.
		if p := apitest.Data[wallet.OrderPage](t, e.call("GET", "/api/app/mine/rchg/order?orderNo="+o.OrderNo, other, "", 200)); p.Total != 0 {
			t.Fatalf("another user's order listed: %+v", p)
		}

		// A post without the order's key changes nothing.
		r := httptest.NewRequest("POST", o.PayURL, strings.NewReader("action=pay&t=00000000000000000000000000000000"))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		rec := httptest.NewRecorder()
		e.h.ServeHTTP(rec, r)
		if rec.Code != 403 || e.coins(user) != 0 {
			t.Fatalf("forged page post: %d", rec.Code)
		}

		// Pay on the hosted page: callback, credit, redirect to the result.
		rec = e.payPage(o, "pay")
		if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/mine/usercoinchongzhi?orderNo="+o.OrderNo {
			t.Fatalf("pay: %d %s", rec.Code, rec.Header().Get("Location"))
		}
		if c := e.coins(user); c != 330 {
			t.Fatalf("coins after paying: %d", c)
		}
		p := apitest.Data[wallet.OrderPage](t, e.call("GET", "/api/app/mine/rchg/order?orderNo="+o.OrderNo, user, "", 200))
		if p.Total != 1 || p.List[0].Status != "paid" || p.List[0].PaidAt == nil || p.List[0].PayURL != "" || !strings.HasPrefix(p.List[0].TradeNo, "SBX") {
			t.Fatalf("paid order: %+v", p)
		}
		bonus := apitest.Data[wallet.BonusPage](t, e.call("GET", "/api/app/goldExtra/userList", user, "", 200))
		if bonus.Total != 1 || bonus.List[0].Coins != 30 || bonus.List[0].Ref != o.OrderNo || bonus.List[0].Reason != "充值赠送" {
			t.Fatalf("bonus list: %+v", bonus)
		}
		var kinds []string
		kinds, _ = db.All(ctx, s.App.DB, func(sc db.Scanner) (string, error) { var k string; return k, sc.Scan(&k) },
			`SELECT kind FROM ledger_txns WHERE ref = ? ORDER BY id`, o.OrderNo)
		if strings.Join(kinds, ",") != "topup,bonus" {
			t.Fatalf("movements: %v", kinds)
		}
		// The page now says it is paid; paying from a stale page moves nothing.
		if pg := e.page(o.PayURL); pg.Code != 200 || !strings.Contains(pg.Body.String(), "订单已支付") {
			t.Fatalf("page of a paid order: %d\n%s", pg.Code, pg.Body)
		}

		sb := e.sandbox()
		ts := time.Now().Unix()
		// A replay of the paid callback: success, nothing moved.
		if rec := e.callback(sb.CallbackForm(o, "paid", "T1", ts)); rec.Code != 200 || rec.Body.String() != "success" {
			t.Fatalf("replay: %d %s", rec.Code, rec.Body)
		}
		// Cancel after paid: ignored.
		if rec := e.callback(sb.CallbackForm(o, "cancelled", "T1", ts)); rec.Code != 200 {
			t.Fatalf("cancel after paid: %d %s", rec.Code, rec.Body)
		}
		// Forged: a signature of another key, or a changed field.
		forged := wallet.NewSandbox("another secret", "").CallbackForm(o, "paid", "T2", ts)
		if rec := e.callback(forged); rec.Code != 400 {
			t.Fatalf("forged: %d %s", rec.Code, rec.Body)
		}
		tampered := sb.CallbackForm(o, "paid", "T3", ts)
		tampered.Set("amount", "1")
		if rec := e.callback(tampered); rec.Code != 400 {
			t.Fatalf("tampered: %d %s", rec.Code, rec.Body)
		}
		// Well signed but the wrong amount or currency: refused.
		wrong := o
		wrong.Amount = 1
		if rec := e.callback(sb.CallbackForm(wrong, "paid", "T4", ts)); rec.Code != 400 {
			t.Fatalf("wrong amount: %d %s", rec.Code, rec.Body)
		}
		cur := sb.CallbackForm(o, "paid", "T5", ts)
		cur.Set("currency", "USD")
		cur.Set("sign", sb.Sign(cur))
		if rec := e.callback(cur); rec.Code != 400 {
			t.Fatalf("wrong currency: %d %s", rec.Code, rec.Body)
		}
		unknown := o
		unknown.OrderNo = "P2026010100000000000001"
		if rec := e.callback(sb.CallbackForm(unknown, "paid", "T6", ts)); rec.Code != 404 {
			t.Fatalf("unknown order: %d %s", rec.Code, rec.Body)
		}
		// JSON is not the sandbox's format.
		rq := httptest.NewRequest("POST", "/api/pay/callback/sandbox", strings.NewReader(`{"orderNo":"x"}`))
		rq.Header.Set("Content-Type", "application/json")
		rc := httptest.NewRecorder()
		e.h.ServeHTTP(rc, rq)
		if rc.Code != 400 {
			t.Fatalf("json callback: %d", rc.Code)
		}
		if rec := e.callback(sb.CallbackForm(o, "paid", "T7", ts)); rec.Code != 200 {
			t.Fatal(rec.Body)
		}
		if c := e.coins(user); c != 330 {
			t.Fatalf("coins after the bad callbacks: %d", c)
		}
		cbs := apitest.Data[[]wallet.CallbackRecord](t, e.call("GET", "/api/admin/orders/callbacks?orderNo="+o.OrderNo, e.ops, "", 200))
		if len(cbs) < 6 {
			t.Fatalf("callbacks recorded: %+v", cbs)
		}

		// Refund: the coins and the bonus go back; twice is once.
		e.call("POST", "/api/admin/orders/refund", user, `{"orderNo":"`+o.OrderNo+`","reason":"x"}`, 401)
		e.call("POST", "/api/admin/orders/refund", e.ops, `{"orderNo":"`+o.OrderNo+`"}`, 422)
		ro := apitest.Data[wallet.Order](t, e.call("POST", "/api/admin/orders/refund", e.ops, `{"orderNo":"`+o.OrderNo+`","reason":"用户申请"}`, 200))
		if ro.Status != "refunded" || e.coins(user) != 0 {
			t.Fatalf("refund: %+v, coins %d", ro, e.coins(user))
		}
		e.call("POST", "/api/admin/orders/refund", e.ops, `{"orderNo":"`+o.OrderNo+`","reason":"用户申请"}`, 200)
		if n := auditCount(t, s, "order.refund"); n != 1 {
			t.Fatalf("refund audit rows: %d", n)
		}
		e.call("POST", "/api/admin/orders/paid", e.ops, `{"orderNo":"`+o.OrderNo+`","reason":"x"}`, 409)
		e.call("POST", "/api/admin/orders/refund", e.ops, `{"orderNo":"P2026010100000000000001","reason":"x"}`, 404)
		e.check()
	})
}

func auditCount(t *testing.T, s *apptest.Server, action string) int {
	t.Helper()
	var n int
	if err := s.App.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM audit_log WHERE action = ?`, action).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestParallelCallbackReplaysCreditOnce(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		e := newEnv(t, s)
		user := apitest.GuestLogin(t, e.h, apitest.DevID(1))
		id := e.pkg("1000金币", 1000, 150, 9800)
		o := e.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"topay-0002"}`, id))
		form := e.sandbox().CallbackForm(o, "paid", "TRADE1", time.Now().Unix())
		var wg sync.WaitGroup
		codes := make([]int, 20)
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rec := e.callback(form)
				codes[i] = rec.Code
			}()
		}
		wg.Wait()
		for i, c := range codes {
			if c != 200 {
				t.Fatalf("callback %d: %d", i, c)
			}
		}
		if c := e.coins(user); c != 1150 {
			t.Fatalf("coins after 20 replays: %d", c)
		}
		var n int
		if err := s.App.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM ledger_txns WHERE ref = ?`, o.OrderNo).Scan(&n); err != nil || n != 2 {
			t.Fatalf("movements of the order: %d %v", n, err)
		}
		e.check()
	})
}

func TestConcurrentTopayOneKeyOneOrder(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		e := newEnv(t, s)
		user := apitest.GuestLogin(t, e.h, apitest.DevID(1))
		id := e.pkg("60金币", 60, 0, 600)
		body := fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"same-key-1"}`, id)
		var wg sync.WaitGroup
		nos := make([]string, 10)
		for i := range nos {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res := apitest.Scenario{Method: "POST", URL: "/api/app/mine/topay", Token: user, Body: body}.Send(t, e.h)
				if res.Code == 200 {
					nos[i] = apitest.Data[wallet.Order](t, res).OrderNo
				} else {
					nos[i] = res.Body.String()
				}
			}()
		}
		wg.Wait()
		for _, no := range nos {
			if no != nos[0] || !strings.HasPrefix(no, "P") {
				t.Fatalf("orders: %v", nos)
			}
		}
		var n int
		if err := s.App.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM orders`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("orders made: %d %v", n, err)
		}
		e.check()
	})
}

func TestOrderExpiresThenOperatorMarksPaid(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		e := newEnv(t, s)
		ctx := context.Background()
		clock := time.Now()
		s.App.Wallet.SetClock(func() time.Time { return clock })
		user := apitest.GuestLogin(t, e.h, apitest.DevID(1))
		id := e.pkg("300金币", 300, 30, 3000)
		o := e.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"topay-0003"}`, id))
		// The job early changes nothing (and retries).
		if done, err := s.App.Wallet.ExpireOrder(ctx, o.OrderNo); done || err == nil {
			t.Fatalf("early expiry: %v %v", done, err)
		}
		clock = clock.Add(16 * time.Minute)
		// Paid after expiry but before the job ran: recorded, not credited.
		if rec := e.callback(e.sandbox().CallbackForm(o, "paid", "LATE1", clock.Unix())); rec.Code != 200 {
			t.Fatalf("late callback: %d %s", rec.Code, rec.Body)
		}
		if e.coins(user) != 0 {
			t.Fatal("late payment credited")
		}
		if done, err := s.App.Wallet.ExpireOrder(ctx, o.OrderNo); !done || err != nil {
			t.Fatalf("expiry: %v %v", done, err)
		}
		if done, err := s.App.Wallet.ExpireOrder(ctx, o.OrderNo); done || err != nil {
			t.Fatalf("second expiry: %v %v", done, err)
		}
		if st := e.order(o.OrderNo).Status; st != "expired" {
			t.Fatalf("status %s", st)
		}
		if pg := e.page(o.PayURL); !strings.Contains(pg.Body.String(), "订单已过期") {
			t.Fatalf("page of an expired order:\n%s", pg.Body)
		}
		cbs := apitest.Data[[]wallet.CallbackRecord](t, e.call("GET", "/api/admin/orders/callbacks?orderNo="+o.OrderNo, e.ops, "", 200))
		if len(cbs) != 1 || cbs[0].Outcome != "late" {
			t.Fatalf("late callback record: %+v", cbs)
		}
		// The operator credits the missed payment, once.
		for range 2 {
			po := apitest.Data[wallet.Order](t, e.call("POST", "/api/admin/orders/paid", e.ops, `{"orderNo":"`+o.OrderNo+`","reason":"用户已付款"}`, 200))
			if po.Status != "paid" {
				t.Fatalf("marked paid: %+v", po)
			}
		}
		if c := e.coins(user); c != 330 {
			t.Fatalf("coins after marking paid: %d", c)
		}
		if n := auditCount(t, s, "order.paid"); n != 1 {
			t.Fatalf("order.paid audit rows: %d", n)
		}
		var op int64
		if err := s.App.DB.QueryRow(ctx, `SELECT operator_id FROM ledger_txns WHERE idem_key = ?`, "topup:"+o.OrderNo).Scan(&op); err != nil || op == 0 {
			t.Fatalf("operator of the movement: %d %v", op, err)
		}
		// A cancel for it now changes nothing.
		if rec := e.callback(e.sandbox().CallbackForm(o, "cancelled", "X", clock.Unix())); rec.Code != 200 || e.order(o.OrderNo).Status != "paid" {
			t.Fatalf("cancel after paid: %d", rec.Code)
		}
		e.check()
	})
}

func TestCancelOnThePageAndRefundOfSpentCoins(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		e := newEnv(t, s)
		ctx := context.Background()
		user := apitest.GuestLogin(t, e.h, apitest.DevID(1))
		id := e.pkg("60金币", 60, 0, 600)
		o := e.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"topay-0004"}`, id))
		if rec := e.payPage(o, "cancel"); rec.Code != http.StatusSeeOther {
			t.Fatalf("cancel: %d", rec.Code)
		}
		if st := e.order(o.OrderNo).Status; st != "cancelled" {
			t.Fatalf("status %s", st)
		}
		// Paid after cancelled: recorded, nothing credited.
		if rec := e.callback(e.sandbox().CallbackForm(o, "paid", "X", time.Now().Unix())); rec.Code != 200 || e.coins(user) != 0 {
			t.Fatalf("paid after cancel: %d", rec.Code)
		}
		e.call("POST", "/api/admin/orders/refund", e.ops, `{"orderNo":"`+o.OrderNo+`","reason":"x"}`, 409)

		o2 := e.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"topay-0005"}`, id))
		if rec := e.payPage(o2, "pay"); rec.Code != http.StatusSeeOther || e.coins(user) != 60 {
			t.Fatalf("pay: %d, coins %d", rec.Code, e.coins(user))
		}
		// The user spends 10 of the 60: the refund cannot take them back.
		uid := e.order(o2.OrderNo).UserID
		if err := s.App.DB.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := s.App.Wallet.Ledger.Post(ctx, tx, wallet.Transfer{Kind: "buy_video", Key: "buyvid:test", UserID: uid,
				Legs: []wallet.Leg{{Account: wallet.UserCoins(uid), Amount: -10}, {Account: wallet.System(wallet.SysCoinsSpent), Amount: 10}}}, time.Now())
			return err
		}); err != nil {
			t.Fatal(err)
		}
		e.call("POST", "/api/admin/orders/refund", e.ops, `{"orderNo":"`+o2.OrderNo+`","reason":"x"}`, 409)
		if st := e.order(o2.OrderNo).Status; st != "paid" || e.coins(user) != 50 || auditCount(t, s, "order.refund") != 0 {
			t.Fatalf("after a refused refund: %s, coins %d", st, e.coins(user))
		}
		e.check()
	})
}

func TestVIPOrderGrantsAndRefundRetracts(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		e := newEnv(t, s)
		ctx := context.Background()
		user := apitest.GuestLogin(t, e.h, apitest.DevID(1))
		n := time.Now().Unix()
		var card, newbie int64
		if err := s.App.DB.QueryRow(ctx, `INSERT INTO vip_products (level, name, days, price, coupons, created_at, updated_at) VALUES (2, '超级VIP月卡', 30, 5800, 2, ?, ?) RETURNING id`, n, n).Scan(&card); err != nil {
			t.Fatal(err)
		}
		if err := s.App.DB.QueryRow(ctx, `INSERT INTO vip_products (level, name, days, price, new_user, created_at, updated_at) VALUES (1, '新人卡', 7, 100, 1, ?, ?) RETURNING id`, n, n).Scan(&newbie); err != nil {
			t.Fatal(err)
		}
		o := e.topay(user, fmt.Sprintf(`{"productType":"vip","productID":%d,"payType":"sandbox","idempotencyKey":"topay-vip-1"}`, card))
		if o.Amount != 5800 || o.VipLevel != 2 || o.VipDays != 30 || o.Coins != 0 {
			t.Fatalf("VIP order: %+v", o)
		}
		if rec := e.payPage(o, "pay"); rec.Code != http.StatusSeeOther {
			t.Fatalf("pay: %d", rec.Code)
		}
		uid := e.order(o.OrderNo).UserID
		var svip int64
		if err := s.App.DB.QueryRow(ctx, `SELECT svip_expire_at FROM users WHERE id = ?`, uid).Scan(&svip); err != nil || svip < n+30*86400-5 {
			t.Fatalf("super VIP expiry %d (now %d) %v", svip, n, err)
		}
		unused := func() (n int) {
			for _, c := range apitest.Data[[]account.CouponGroup](t, e.call("GET", "/api/app/backpack", user, "", 200))[0].Coupons {
				n += c.Count
			}
			return n
		}
		if n := unused(); n != 2 {
			t.Fatalf("the card's coupons: %d unused, want 2", n)
		}
		e.call("POST", "/api/admin/orders/refund", e.ops, `{"orderNo":"`+o.OrderNo+`","reason":"误购"}`, 200)
		if n := unused(); n != 0 {
			t.Fatalf("after the refund %d of the card's coupons are still usable", n)
		}
		if err := s.App.DB.QueryRow(ctx, `SELECT svip_expire_at FROM users WHERE id = ?`, uid).Scan(&svip); err != nil || svip > time.Now().Unix() {
			t.Fatalf("super VIP expiry after refund %d %v", svip, err)
		}
		// A new-user card: fine for a new account, 403 once it is a day old.
		e.topay(user, fmt.Sprintf(`{"productType":"vip","productID":%d,"payType":"sandbox","idempotencyKey":"topay-vip-2"}`, newbie))
		if _, err := s.App.DB.Exec(ctx, `UPDATE users SET created_at = ? WHERE id = ?`, n-25*3600, uid); err != nil {
			t.Fatal(err)
		}
		e.call("POST", "/api/app/mine/topay", user, fmt.Sprintf(`{"productType":"vip","productID":%d,"payType":"sandbox","idempotencyKey":"topay-vip-3"}`, newbie), 403)
		e.check()
	})
}

func TestTopayBadInput(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		e := newEnv(t, s)
		user := apitest.GuestLogin(t, e.h, apitest.DevID(1))
		id := e.pkg("60金币", 60, 0, 600)
		k := 0
		send := func(fields string, status int) {
			t.Helper()
			k++
			e.call("POST", "/api/app/mine/topay", user, fmt.Sprintf(`{%s,"idempotencyKey":"bad-key-%04d"}`, fields, k), status)
		}
		ok := fmt.Sprintf(`"productType":"coins","payType":"sandbox","productID":%d`, id)
		_ = ok
		send(`"productType":"coins","payType":"sandbox","productID":"1"`, 400)
		send(`"productType":"coins","payType":"sandbox","productID":1.5`, 400)
		send(`"productType":"coins","payType":"sandbox","productID":99999999999999999999999`, 400)
		send(`"productType":"coins","payType":"sandbox","productID":0`, 422)
		send(`"productType":"coins","payType":"sandbox","productID":-3`, 422)
		send(`"productType":"coins","payType":"sandbox"`, 422)
		send(`"productType":"coins","payType":"sandbox","productID":999`, 404)
		send(fmt.Sprintf(`"productType":"coins","payType":"alipay","productID":%d`, id), 422)
		send(fmt.Sprintf(`"productType":"gold","payType":"sandbox","productID":%d`, id), 422)
		send(fmt.Sprintf(`"productType":"vip","payType":"sandbox","productID":%d`, 999), 404)
		send(fmt.Sprintf(`"productType":"coins","payType":"sand\u0000box","productID":%d`, id), 422)
		e.call("POST", "/api/app/mine/topay", user, fmt.Sprintf(`{"productType":"coins","payType":"sandbox","productID":%d}`, id), 422)
		e.call("POST", "/api/app/mine/topay", "", fmt.Sprintf(`{"productType":"coins","payType":"sandbox","productID":%d,"idempotencyKey":"no-token-1"}`, id), 401)
		e.call("GET", "/api/app/mine/rchg/order?status=lost", user, "", 422)
		e.call("GET", "/api/app/mine/rchg/order?orderNo=abc", user, "", 422)
		e.call("GET", "/api/admin/orders", user, "", 401)
		e.call("POST", "/api/admin/currencys", e.ops, `{"name":"x","coins":0,"price":100}`, 422)
		e.call("POST", "/api/admin/currencys", e.ops, `{"name":"x","coins":10,"price":-1}`, 422)
		e.call("POST", "/api/admin/currencys", e.ops, `{"name":"x","coins":10,"price":100,"id":999}`, 404)
		var n int
		if err := s.App.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM orders`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("orders after bad input: %d %v", n, err)
		}
		// Ten unpaid orders at once is the most.
		for i := range wallet.MaxPendingOrders {
			e.topay(user, fmt.Sprintf(`{%s,"idempotencyKey":"many-%04d"}`, ok, i))
		}
		e.call("POST", "/api/app/mine/topay", user, fmt.Sprintf(`{%s,"idempotencyKey":"many-last"}`, ok), 429)
		// An unknown order's page: without its key nothing is said about
		// it; with a key (only the server can make one) it is not found.
		if pg := e.page("/pay/sandbox/P123"); pg.Code != 403 {
			t.Fatalf("unknown order page without a key: %d", pg.Code)
		}
		if pg := e.page(sandboxURL(t, e.sandbox(), "P123")); pg.Code != 404 {
			t.Fatalf("unknown order page: %d", pg.Code)
		}
		if pg := e.page("/pay/sandbox/x%3Cscript%3E"); pg.Code != 404 || strings.Contains(pg.Body.String(), "<script>") {
			t.Fatalf("bad order page: %d", pg.Code)
		}
		e.check()
	})
}

// The expiry goes through the job queue: the job enqueued with the order
// runs at its expiry and closes it.
func TestExpiryJobClosesTheOrder(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		e := newEnv(t, s)
		ctx := context.Background()
		s.App.Wallet.Settings.OrderTTL = time.Second
		user := apitest.GuestLogin(t, e.h, apitest.DevID(1))
		id := e.pkg("60金币", 60, 0, 600)
		o := e.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"topay-job-1"}`, id))
		if err := s.App.Jobs.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			stop, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			_ = s.App.Jobs.Stop(stop)
		})
		deadline := time.Now().Add(20 * time.Second)
		for e.order(o.OrderNo).Status != "expired" {
			if time.Now().After(deadline) {
				t.Fatalf("order still %s after 20 s", e.order(o.OrderNo).Status)
			}
			time.Sleep(100 * time.Millisecond)
		}
		e.check()
	})
}

func TestOperatorEditsPackagesAndListsOrders(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		e := newEnv(t, s)
		user := apitest.GuestLogin(t, e.h, apitest.DevID(1))
		id := e.pkg("60金币", 60, 0, 600)
		o := e.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"topay-ops-1"}`, id))
		// A price change does not touch the order made before it.
		upd := apitest.Data[wallet.CoinPackage](t, e.call("POST", "/api/admin/currencys", e.ops,
			fmt.Sprintf(`{"id":%d,"name":"60金币","coins":66,"price":700,"active":false}`, id), 200))
		if upd.Coins != 66 || upd.Price != 700 || upd.Active {
			t.Fatalf("updated package: %+v", upd)
		}
		if n := auditCount(t, s, "currency.update"); n != 1 {
			t.Fatalf("currency.update audit rows: %d", n)
		}
		// Inactive: gone for users, listed for operators, not for sale.
		if l := apitest.Data[[]wallet.CoinPackage](t, e.call("GET", "/api/app/mine/currencys", user, "", 200)); len(l) != 0 {
			t.Fatalf("inactive package listed: %+v", l)
		}
		if l := apitest.Data[[]wallet.CoinPackage](t, e.call("GET", "/api/admin/currencys", e.ops, "", 200)); len(l) != 1 || l[0].Active {
			t.Fatalf("operator list: %+v", l)
		}
		e.call("POST", "/api/app/mine/topay", user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"topay-ops-2"}`, id), 404)
		if rec := e.payPage(o, "pay"); rec.Code != http.StatusSeeOther || e.coins(user) != 60 {
			t.Fatalf("the older order credits what it said: %d, coins %d", rec.Code, e.coins(user))
		}
		uid := e.order(o.OrderNo).UserID
		// The operators' list pages by cursor (issue 21): one page here.
		p := apitest.Data[httpx.KeyPage[wallet.Order]](t, e.call("GET", fmt.Sprintf("/api/admin/orders?uid=%d&status=paid", uid), e.ops, "", 200))
		if len(p.List) != 1 || p.List[0].OrderNo != o.OrderNo || p.HasMore {
			t.Fatalf("admin orders: %+v", p)
		}
		if p := apitest.Data[httpx.KeyPage[wallet.Order]](t, e.call("GET", "/api/admin/orders?status=pending", e.ops, "", 200)); len(p.List) != 0 {
			t.Fatalf("pending orders: %+v", p)
		}
		e.call("GET", "/api/admin/orders?uid=0", e.ops, "", 422)
		e.check()
	})
}

// A provider's callbacks and an operator marking the same order paid, all
// at once: the order is credited once.
func TestCallbackRacesOperatorPaid(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		e := newEnv(t, s)
		user := apitest.GuestLogin(t, e.h, apitest.DevID(1))
		id := e.pkg("300金币", 300, 30, 3000)
		for round := range 3 {
			o := e.topay(user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"race-%04d"}`, id, round))
			form := e.sandbox().CallbackForm(o, "paid", "RACE", time.Now().Unix())
			var wg sync.WaitGroup
			codes := make(chan int, 10)
			for i := range 10 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if i%2 == 0 {
						codes <- e.callback(form).Code
						return
					}
					codes <- apitest.Scenario{Method: "POST", URL: "/api/admin/orders/paid", Token: e.ops,
						Body: `{"orderNo":"` + o.OrderNo + `","reason":"补单"}`}.Send(t, e.h).Code
				}()
			}
			wg.Wait()
			close(codes)
			for c := range codes {
				if c != 200 {
					t.Fatalf("round %d: status %d", round, c)
				}
			}
			if c := e.coins(user); c != int64(round+1)*330 {
				t.Fatalf("round %d: coins %d", round, c)
			}
		}
		e.check()
	})
}

// sandboxURL is the pay URL the sandbox gives order no.
func sandboxURL(t *testing.T, sb *wallet.Sandbox, no string) string {
	t.Helper()
	p, err := sb.Create(context.Background(), wallet.Order{OrderNo: no})
	if err != nil {
		t.Fatal(err)
	}
	return p.URL
}

// The sandbox off (PRIMA_PAY_SANDBOX unset or 0, the default): no pay type
// offered, topay with it refused with a tip, no page, no callback.
func TestSandboxCanBeTurnedOff(t *testing.T) {
	s := apptest.New(t, db.SQLite, "-pay-sandbox=0")
	e := newEnv(t, s)
	user := apitest.GuestLogin(t, e.h, apitest.DevID(1))
	id := e.pkg("60金币", 60, 0, 600)
	if l := apitest.Data[[]wallet.CoinPackage](t, e.call("GET", "/api/app/mine/currencys", user, "", 200)); len(l) != 1 || len(l[0].PayTypes) != 0 {
		t.Fatalf("packages without a provider: %+v", l)
	}
	res := e.call("POST", "/api/app/mine/topay", user, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"off-0001"}`, id), 422)
	if !strings.Contains(res.Body.String(), "沙箱支付未开启") {
		t.Fatalf("refusal without the tip: %s", res.Body)
	}
	if pg := e.page("/pay/sandbox/P123"); pg.Code != 404 {
		t.Fatalf("sandbox page while off: %d", pg.Code)
	}
	if rec := e.callback(url.Values{"orderNo": {"P1"}}); rec.Code != 404 {
		t.Fatalf("sandbox callback while off: %d", rec.Code)
	}
}

// The hosted page acts only with the order's key, which only the order's
// owner gets (in the pay URL): an order number alone, another user's own
// key, or no key at all shows nothing and pays or cancels nothing. Every
// page it draws says it is a sandbox.
func TestSandboxPageNeedsTheOrdersKey(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		e := newEnv(t, s)
		owner := apitest.GuestLogin(t, e.h, apitest.DevID(1))
		other := apitest.GuestLogin(t, e.h, apitest.DevID(2))
		id := e.pkg("300金币", 300, 30, 3000)
		o := e.topay(owner, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"key-owner-1"}`, id))
		mine := e.topay(other, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"key-other-1"}`, id))
		if !strings.Contains(o.PayURL, "?k=") {
			t.Fatalf("pay URL without the order's key: %s", o.PayURL)
		}
		ownKey := mine.PayURL[strings.Index(mine.PayURL, "?k=")+3:]
		bare := "/pay/sandbox/" + o.OrderNo
		sandboxSays := func(what string, rec *httptest.ResponseRecorder) {
			t.Helper()
			if !strings.Contains(rec.Body.String(), "沙箱") || !strings.Contains(rec.Body.String(), "不会产生真实扣款") {
				t.Fatalf("%s: the page does not say it is a sandbox:\n%s", what, rec.Body)
			}
		}
		for _, u := range []string{bare, bare + "?k=", bare + "?k=" + ownKey, bare + "?k=" + strings.Repeat("0", 32)} {
			pg := e.page(u)
			if pg.Code != http.StatusForbidden || strings.Contains(pg.Body.String(), "300金币") || strings.Contains(pg.Body.String(), "确认支付") {
				t.Fatalf("GET %s: %d\n%s", u, pg.Code, pg.Body)
			}
			sandboxSays(u, pg)
		}
		post := func(path string, form url.Values, token string) *httptest.ResponseRecorder {
			r := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if token != "" {
				r.Header.Set("Authorization", "Bearer "+token)
			}
			rec := httptest.NewRecorder()
			e.h.ServeHTTP(rec, r)
			return rec
		}
		for _, action := range []string{"pay", "cancel"} {
			for _, f := range []url.Values{
				{"action": {action}},
				{"action": {action}, "t": {""}},
				{"action": {action}, "t": {ownKey}},
				{"action": {action}, "t": {strings.Repeat("f", 32)}},
			} {
				// Another user's token changes nothing either: the key decides.
				for _, tok := range []string{"", other} {
					if rec := post(bare, f, tok); rec.Code != http.StatusForbidden {
						t.Fatalf("%s %v (token %q): %d", action, f, tok, rec.Code)
					} else {
						sandboxSays(action, rec)
					}
				}
			}
			// The key in the query string alone is not the form's.
			if rec := post(bare+"?k="+ownKey, url.Values{"action": {action}}, other); rec.Code != http.StatusForbidden {
				t.Fatalf("%s with the key in the query only: %d", action, rec.Code)
			}
		}
		if got := e.order(o.OrderNo); got.Status != "pending" || e.coins(owner) != 0 || e.coins(other) != 0 {
			t.Fatalf("after refused attempts: %s, coins %d/%d", got.Status, e.coins(owner), e.coins(other))
		}
		var cbs int
		if err := s.App.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM payment_callbacks WHERE order_no = ?`, o.OrderNo).Scan(&cbs); err != nil || cbs != 0 {
			t.Fatalf("refused attempts reached the callback: %d %v", cbs, err)
		}
		// The owner's page, with the key from topay, pays.
		pg := e.page(o.PayURL)
		sandboxSays("owner's page", pg)
		if rec := e.payPage(o, "pay"); rec.Code != http.StatusSeeOther || e.coins(owner) != 330 {
			t.Fatalf("owner pays: %d, coins %d", rec.Code, e.coins(owner))
		}
		sandboxSays("paid page", e.page(o.PayURL))
		sandboxSays("bad number", e.page("/pay/sandbox/x1"))
		e.check()
	})
}
