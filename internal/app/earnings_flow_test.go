package app_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/earnings"
	"prima/internal/wallet"
)

// The whole loop over HTTP, as issue 19 tells it: Z invites A, A invites
// B; B tops up through the sandbox (twenty notifies of one order racing);
// A and Z see pending commission, the order number and B's name masked
// everywhere; with settleDays 0 the next top-up is withdrawable at once,
// A withdraws and the operator approves; refunds reverse a pending
// commission and turn a settled one into a debt; an approved creator's
// paid post earns them their share. Every ledger invariant holds after.
func TestEarningsJourney(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		ctx := context.Background()
		h := s.Handler
		run := func(method, url, token, body string, status int, tip string, content ...string) *apitest.Response {
			t.Helper()
			return apitest.Scenario{Method: method, URL: url, Token: token, Body: body, ExpectedStatus: status, ExpectedTip: tip, ExpectedContent: content}.Run(t, h)
		}
		data := func(res *apitest.Response) map[string]any { return apitest.Data[map[string]any](t, res) }
		op := operatorToken(t, s)
		run("POST", "/api/admin/commission/config", op,
			`{"levels":[5000,1000],"promoterLevels":[5000,1000],"settleDays":7,"creatorShareBps":5000,"inviteReward":"off"}`, 200, "")
		pkg := int64(data(run("POST", "/api/admin/currencys", op, `{"name":"200元","coins":2000,"price":20000}`, 200, ""))["id"].(float64))

		z, _ := registered(t, s, 71, "zed_e", "secret12")
		zCode := data(run("POST", "/api/app/userinvite/info", z, `{}`, 200, ""))["code"].(string)
		// A arrives with Z's link, B with A's: bound at their first launch.
		guest := func(n int, code string) string {
			t.Helper()
			res := run("POST", "/api/app/mine/login", "", fmt.Sprintf(`{"devID":%q,"sysType":"h5","cutInfos":"https://x/?ic=%s"}`, apitest.DevID(n), code), 200, "")
			return data(res)["token"].(string)
		}
		register := func(tok, account string) string {
			t.Helper()
			return data(run("POST", "/api/app/mine/register", tok, fmt.Sprintf(`{"account":%q,"passWord":"secret12"}`, account), 200, ""))["token"].(string)
		}
		a := register(guest(72, zCode), "amy_e")
		aCode := data(run("POST", "/api/app/userinvite/info", a, `{}`, 200, ""))["code"].(string)
		visitor := guest(73, "")
		run("POST", "/api/app/userinvite/visit", visitor, `{"code":"`+aCode+`"}`, 200, "", `"counted":true`)
		run("POST", "/api/app/userinvite/visit", visitor, `{"code":"`+aCode+`"}`, 200, "", `"counted":false`)
		b := register(guest(74, aCode), "bartholomew")

		// B tops up; twenty payments of the one order at once.
		topay := func(key string) (string, string) {
			t.Helper()
			o := data(run("POST", "/api/app/mine/topay", b, fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":%q}`, pkg, key), 200, ""))
			u, err := url.Parse(o["payUrl"].(string))
			if err != nil {
				t.Fatal(err)
			}
			return o["orderNo"].(string), u.Path + "|" + u.Query().Get("k")
		}
		srv := httptest.NewServer(h)
		defer srv.Close()
		noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		pay := func(page string, times int) {
			t.Helper()
			path, key, _ := strings.Cut(page, "|")
			var wg sync.WaitGroup
			for range times {
				wg.Go(func() {
					res, err := noRedirect.PostForm(srv.URL+path, url.Values{"action": {"pay"}, "t": {key}})
					if err != nil {
						t.Error(err)
						return
					}
					res.Body.Close()
					if res.StatusCode != http.StatusSeeOther {
						t.Errorf("sandbox pay: %d", res.StatusCode)
					}
				})
			}
			wg.Wait()
		}
		first, page := topay("topup-key-0001")
		pay(page, 20)
		var rows int
		if err := s.App.DB.QueryRow(ctx, `SELECT COUNT(*) FROM commissions WHERE order_no = ?`, first).Scan(&rows); err != nil || rows != 2 {
			t.Fatalf("%d commission rows for one order (%v), want 2 (levels 1 and 2)", rows, err)
		}
		masked := first[:4] + "****" + first[len(first)-4:]
		secret := []string{first, "bartholomew"}
		for _, c := range []struct{ url, method, body string }{
			{"/api/app/mine/commissions", "GET", ""}, {"/api/app/mine/commissions?state=pending", "GET", ""},
			{"/api/app/mine/promoter", "GET", ""}, {"/api/app/mine/promoter/stats?period=month", "GET", ""},
			{"/api/app/userinvite/userlist", "POST", `{}`}, {"/api/app/mine/income/summary", "GET", ""},
		} {
			apitest.Scenario{Method: c.method, URL: c.url, Token: a, Body: c.body, ExpectedStatus: 200, NotExpectedContent: secret}.Run(t, h)
		}
		run("GET", "/api/app/mine/commissions", a, "", 200, "", `"total":1`, `"orderNo":"`+masked+`"`, `"invitee":"b**w"`, `"level":1`,
			`"orderCents":20000`, `"rateBps":5000`, `"amountCents":10000`, `"state":"pending"`)
		run("GET", "/api/app/mine/commissions", z, "", 200, "", `"total":1`, `"level":2`, `"amountCents":2000`)
		run("GET", "/api/app/mine/promoter", a, "", 200, "", `"pendingCents":10000`, `"settledCents":0`)
		run("GET", "/api/app/mine/promoter/stats", a, "", 200, "", `"period":"day"`, `"visits":1`, `"registrations":1`, `"payers":1`,
			`"paidCents":20000`, `"commissionCents":10000`)
		run("POST", "/api/app/userinvite/userlist", a, `{}`, 200, "", `"name":"b**w"`, `"paidCents":20000`, `"commissionCents":10000`)
		run("GET", "/api/app/mine/income/summary", a, "", 200, "", `"withdrawableCents":0`, `"pendingCents":10000`, `"debtCents":0`)

		// settleDays 0: the next top-up's commission is withdrawable at once.
		run("POST", "/api/admin/commission/config", op,
			`{"levels":[5000,1000],"promoterLevels":[5000,1000],"settleDays":0,"creatorShareBps":5000,"inviteReward":"off"}`, 200, "")
		second, page := topay("topup-key-0002")
		pay(page, 3)
		run("GET", "/api/app/mine/wallet", a, "", 200, "", `"income":10000`)
		run("GET", "/api/app/mine/income/summary", a, "", 200, "", `"withdrawableCents":10000`, `"pendingCents":10000`, `"commissionCents":10000`)
		acc := apitest.Data[wallet.PayoutAccount](t, run("POST", "/api/app/mine/txnact/bank/add", a,
			`{"actType":2,"network":"TRC20","address":"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t","passWord":"secret12"}`, 200, "")).ID
		wd := apitest.Data[wallet.Withdrawal](t, run("POST", "/api/app/withdraw", a,
			fmt.Sprintf(`{"amount":10000,"accountID":%d,"passWord":"secret12","idempotencyKey":"wd-earn-0001"}`, acc), 200, ""))
		run("POST", "/api/admin/withdrawals/approve", op, `{"orderNo":"`+wd.OrderNo+`"}`, 200, "", `"status":"paid"`, `"changed":true`)
		run("GET", "/api/app/mine/income/summary", a, "", 200, "", `"withdrawableCents":0`, `"withdrawCents":10000`)

		// Refunds: the first order's commission was pending (reversed), the
		// second's settled and withdrawn (a debt the next commission pays).
		run("POST", "/api/admin/orders/refund", op, `{"orderNo":"`+first+`","reason":"测试退款"}`, 200, "")
		run("POST", "/api/admin/orders/refund", op, `{"orderNo":"`+second+`","reason":"测试退款"}`, 200, "")
		run("GET", "/api/app/mine/commissions?state=reversed", a, "", 200, "", `"total":2`)
		run("GET", "/api/app/mine/income/summary", a, "", 200, "", `"withdrawableCents":0`, `"pendingCents":0`, `"debtCents":10000`)
		run("GET", "/api/app/mine/promoter", a, "", 200, "", `"pendingCents":0`, `"reversedCents":20000`)
		_, page = topay("topup-key-0003")
		pay(page, 1)
		run("GET", "/api/app/mine/income/summary", a, "", 200, "", `"withdrawableCents":0`, `"debtCents":0`)

		// A creator's paid post: B buys it, the creator earns half its
		// coins at 10 coins a yuan, settled at once (settleDays 0).
		c, cID := registered(t, s, 75, "cara_e", "secret12")
		run("POST", "/api/app/mine/settled", c, `{"name":"卡拉工作室","contact":"tg@cara","intro":"每周更新原创图文教程。","category":"post"}`, 200, "")
		run("POST", "/api/admin/settled/approve", op, `{"id":1}`, 200, "", `"changed":true`)
		var post int64
		if err := s.App.DB.QueryRow(ctx, `INSERT INTO posts (author_id, kind, title, body, coins, state, created_at, published_at, updated_at)
			VALUES (?, 'picture', '付费教程', 'text', 100, 'published', 1, 1, 1) RETURNING id`, cID).Scan(&post); err != nil {
			t.Fatal(err)
		}
		run("POST", "/api/app/community/post/buy", b, fmt.Sprintf(`{"id":%d,"key":"buy-post-earn-1"}`, post), 200, "")
		run("GET", "/api/app/mine/creator/earnings", c, "", 200, "", `"approved":true`, `"settledCents":500`, `"kind":"post"`,
			`"title":"付费教程"`, `"coins":100`, `"amountCents":500`, `"state":"settled"`)
		run("GET", "/api/app/mine/wallet", c, "", 200, "", `"income":500`)
		if err := wallet.Check(ctx, s.App.DB, earnings.Check); err != nil {
			t.Fatal(err)
		}
	})
}

// What attackers send the earnings calls is refused with a 4xx and changes
// nothing: pages out of range, NUL and control characters, wrong types,
// other users' ids, guests, a user on the operator calls.
func TestEarningsBadInput(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		a, _ := registered(t, s, 81, "amy_x", "secret12")
		guest := apitest.GuestLogin(t, s.Handler, apitest.DevID(82))
		op := operatorToken(t, s)
		var scenarios []apitest.Scenario
		for _, c := range []struct {
			method, url, token, body string
			status                   int
		}{
			{"GET", "/api/app/mine/commissions?pageNumber=-1", a, "", 422},
			{"GET", "/api/app/mine/commissions?pageNumber=0", a, "", 422},
			{"GET", "/api/app/mine/commissions?pageNumber=99999999999999999999", a, "", 422},
			{"GET", "/api/app/mine/commissions?pageNumber=10000", a, "", 422},
			{"GET", "/api/app/mine/commissions?pageSize=0", a, "", 422},
			{"GET", "/api/app/mine/commissions?pageSize=51", a, "", 422},
			{"GET", "/api/app/mine/commissions?state=%00", a, "", 422},
			{"GET", "/api/app/mine/commissions?state=pending%00", a, "", 422},
			{"GET", "/api/app/mine/commissions?state=paid", a, "", 422},
			{"GET", "/api/app/mine/creator/earnings?pageNumber=-5", a, "", 422},
			{"GET", "/api/app/mine/creator/earnings?pageSize=1e3", a, "", 422},
			{"GET", "/api/app/mine/promoter/stats?period=year", a, "", 422},
			{"GET", "/api/app/mine/promoter/stats?period=d%00y", a, "", 422},
			{"GET", "/api/app/mine/income/summary?month=2026-13", a, "", 422},
			{"GET", "/api/app/mine/income/summary?month=2026-1%01", a, "", 422},
			{"GET", "/api/app/mine/income/summary?month=-1", a, "", 422},
			{"POST", "/api/app/mine/promoter/apply", a, `{"channel":"抖音","contact":"tg\u0000x"}`, 422},
			{"POST", "/api/app/mine/promoter/apply", a, `{"channel":["抖音"],"contact":"tg@x"}`, 400},
			{"POST", "/api/app/mine/promoter/apply", a, `not json`, 400},
			{"POST", "/api/app/userinvite/visit", a, `{"code":"\u0000"}`, 422},
			{"POST", "/api/app/userinvite/visit", a, `{"code":123456}`, 400},
			{"GET", "/api/app/mine/commissions", guest, "", 403},
			{"GET", "/api/app/mine/creator/earnings", guest, "", 403},
			{"GET", "/api/app/mine/promoter/stats", guest, "", 403},
			{"GET", "/api/app/mine/commissions", "", "", 401},
			{"GET", "/api/app/mine/income/summary", "", "", 401},
			{"POST", "/api/app/userinvite/visit", "", `{"code":"ABCDEF"}`, 401},
			{"GET", "/api/admin/commission/config", a, "", 401},                        // a phone-app token opens nothing under /api/admin
			{"POST", "/api/admin/commission/config", a, `{"levels":[5000]}`, 401},      // a phone-app token opens nothing under /api/admin
			{"POST", "/api/admin/promoters/decide", a, `{"id":1,"approve":true}`, 401}, // a phone-app token opens nothing under /api/admin
			{"POST", "/api/admin/promoters/decide", op, `{"id":-5,"approve":true}`, 422},
			{"POST", "/api/admin/promoters/decide", op, `{"id":1e30,"approve":true}`, 400},
			{"POST", "/api/admin/promoters/decide", op, `{"id":99999,"approve":true}`, 404},
			{"POST", "/api/admin/promoters/decide", op, `{"id":1,"approve":"yes"}`, 400},
			{"POST", "/api/admin/promoters/decide", op, `{"id":1,"approve":false,"reason":"a\u0000b"}`, 422},
			{"GET", "/api/admin/promoters?pageNumber=-1", op, "", 422},
			{"GET", "/api/admin/promoters?state=%00", op, "", 422},
			{"POST", "/api/admin/commission/config", op, `{"levels":[1e20],"promoterLevels":[1],"settleDays":1,"creatorShareBps":1,"inviteReward":"off"}`, 400},
			{"POST", "/api/admin/commission/config", op, `{"levels":[-1],"promoterLevels":[1],"settleDays":1,"creatorShareBps":1,"inviteReward":"off"}`, 422},
			{"POST", "/api/admin/commission/config", op, `{"levels":[1],"promoterLevels":[1],"settleDays":99999999999,"creatorShareBps":1,"inviteReward":"off"}`, 422},
			{"POST", "/api/admin/commission/config", op, `{"levels":[1],"promoterLevels":[1],"settleDays":1,"creatorShareBps":1,"inviteReward":"of\u0000f"}`, 422},
		} {
			scenarios = append(scenarios, apitest.Scenario{Name: c.method + " " + c.url + " " + c.body, Method: c.method, URL: c.url, Token: c.token,
				Body: c.body, ExpectedStatus: c.status})
		}
		apitest.Run(t, s.Handler, scenarios...)
		for _, q := range []string{`SELECT COUNT(*) FROM promoter_applications`, `SELECT COUNT(*) FROM share_visits`,
			`SELECT COUNT(*) FROM audit_log WHERE action LIKE 'commission.%' OR action LIKE 'promoter.%'`} {
			var n int
			if err := s.App.DB.QueryRow(context.Background(), q).Scan(&n); err != nil || n != 0 {
				t.Errorf("%s: %d (%v): a refusal changed something", q, n, err)
			}
		}
	})
}
