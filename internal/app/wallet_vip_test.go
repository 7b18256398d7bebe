package app_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"prima/internal/account"
	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/wallet"
)

// The VIP, bill, exchange and operator wallet calls through the whole
// server, on both engines: a user is credited by an operator, buys a card,
// exchanges income through the spec's /mine path, reads the bills; bad
// input and the wrong caller get envelopes and move nothing.
func TestWalletVIPCalls(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		ctx := context.Background()
		h := s.Handler
		op := operatorToken(t, s)
		guest := apitest.GuestLogin(t, h, apitest.DevID(71))
		reg, err := s.App.Account.Register(ctx, account.RegisterInput{Account: "buyer_01", Password: "pass123", IP: "10.0.0.7"})
		if err != nil {
			t.Fatal(err)
		}
		user, uid := reg.Token, reg.User.ID
		post := func(name, url, body, token string, status int, tip string, content ...string) *apitest.Response {
			return apitest.Scenario{Name: name, Method: http.MethodPost, URL: url, Body: body, Token: token,
				ExpectedStatus: status, ExpectedTip: tip, ExpectedContent: content}.Run(t, h)
		}
		get := func(url, token string, status int, tip string, content ...string) *apitest.Response {
			return apitest.Scenario{URL: url, Token: token, ExpectedStatus: status, ExpectedTip: tip, ExpectedContent: content}.Run(t, h)
		}

		// Operators make a card and credit coins.
		res := post("card", "/api/admin/vip/products", `{"level":1,"name":"VIP 月卡","days":30,"price":3000,"originalPrice":4500,"coins":300,"label":"热卖"}`, op, 200, "")
		card := apitest.Data[struct{ ID int64 }](t, res).ID
		post("bad card", "/api/admin/vip/products", `{"level":3,"name":"x","days":30,"price":1}`, op, 422, "参数 level 无效")
		post("card by a user", "/api/admin/vip/products", `{"level":1,"name":"x","days":30,"price":1}`, user, 401, "")
		get("/api/admin/vip/products", op, 200, "", `"VIP 月卡"`)
		adjust := fmt.Sprintf(`{"uid":%d,"account":"coins","amount":500,"reason":"补偿","idempotencyKey":"adj-0001"}`, uid)
		post("credit", "/api/admin/wallet/adjust", adjust, op, 200, "", `"coins":500`)
		post("credit replay", "/api/admin/wallet/adjust", adjust, op, 200, "", `"coins":500`)
		post("adjust by a user", "/api/admin/wallet/adjust", adjust, user, 401, "")
		post("adjust zero", "/api/admin/wallet/adjust", fmt.Sprintf(`{"uid":%d,"account":"coins","amount":0,"reason":"x","idempotencyKey":"adj-0002"}`, uid), op, 422, "参数 amount 无效")
		post("adjust fraction", "/api/admin/wallet/adjust", fmt.Sprintf(`{"uid":%d,"account":"coins","amount":1.5,"reason":"x","idempotencyKey":"adj-0003"}`, uid), op, 400, "参数 amount 类型错误")
		post("adjust below zero", "/api/admin/wallet/adjust", fmt.Sprintf(`{"uid":%d,"account":"coins","amount":-501,"reason":"x","idempotencyKey":"adj-0004"}`, uid), op, 409, "金币余额不足")
		post("adjust nobody", "/api/admin/wallet/adjust", `{"uid":987654,"account":"coins","amount":5,"reason":"x","idempotencyKey":"adj-0005"}`, op, 404, "用户不存在")
		post("adjust control char", "/api/admin/wallet/adjust", fmt.Sprintf(`{"uid":%d,"account":"coins","amount":5,"reason":"a\u0000b","idempotencyKey":"adj-0006"}`, uid), op, 422, "")
		post("adjust other account", "/api/admin/wallet/adjust", fmt.Sprintf(`{"uid":%d,"account":"cash","amount":5,"reason":"x","idempotencyKey":"adj-0007"}`, uid), op, 422, "参数 account 无效")
		// issue 21: points adjust through rewards' points ledger, and show in the wallet view.
		post("adjust points", "/api/admin/wallet/adjust", fmt.Sprintf(`{"uid":%d,"account":"points","amount":5,"reason":"活动","idempotencyKey":"adj-0008"}`, uid), op, 200, "", `"points":5`)
		post("adjust points below zero", "/api/admin/wallet/adjust", fmt.Sprintf(`{"uid":%d,"account":"points","amount":-6,"reason":"x","idempotencyKey":"adj-0009"}`, uid), op, 409, "积分余额不足")
		get(fmt.Sprintf("/api/admin/wallet?uid=%d", uid), op, 200, "", `"coins":500`, `"memo":"补偿"`, `"points":5`, `"account":"points"`)
		get("/api/admin/wallet?uid=0", op, 422, "")

		// The user buys the card.
		get("/api/app/vip/product", user, 200, "", `"VIP 月卡"`, `"tiers":{"vip":null,"svip":null}`)
		get("/api/app/vip/product", "", 401, "")
		buy := fmt.Sprintf(`{"productID":%d,"idempotencyKey":"buy-vip-0001"}`, card)
		res = post("buy", "/api/app/vip/buy", buy, user, 200, "", `"isVip":true`, `"vipLevel":1`, `"coins":200`)
		post("buy replay", "/api/app/vip/buy", buy, user, 200, "", `"coins":200`)
		post("key reused", "/api/app/vip/buy", fmt.Sprintf(`{"productID":%d,"idempotencyKey":"buy-vip-0001"}`, card+1), user, 409, "请求重复")
		post("unknown card", "/api/app/vip/buy", `{"productID":999999,"idempotencyKey":"buy-vip-0002"}`, user, 404, "会员卡不存在")
		post("negative id", "/api/app/vip/buy", `{"productID":-1,"idempotencyKey":"buy-vip-0003"}`, user, 422, "参数 productID 无效")
		post("string id", "/api/app/vip/buy", `{"productID":"1","idempotencyKey":"buy-vip-0004"}`, user, 400, "参数 productID 类型错误")
		post("no key", "/api/app/vip/buy", fmt.Sprintf(`{"productID":%d}`, card), user, 422, "缺少参数 idempotencyKey")
		post("guest without coins", "/api/app/vip/buy", fmt.Sprintf(`{"productID":%d,"idempotencyKey":"buy-vip-0005"}`, card), guest, 409, "金币余额不足")
		get("/api/app/vip/tiroCountdown?seconds=300", user, 200, "", `"isNew":true`)
		get("/api/app/vip/tiroCountdown?seconds=-1", user, 422, "")

		// Exchange: guests may not; the spec's path answers like the API's.
		post("guest exchange", "/mine/goldExchange", `{"amount":100,"idempotencyKey":"exch-0001"}`, guest, 403, "请先注册账号")
		post("no income", "/mine/goldExchange", `{"amount":100,"idempotencyKey":"exch-0002"}`, user, 409, "可提现余额不足")
		post("income", "/api/admin/wallet/adjust", fmt.Sprintf(`{"uid":%d,"account":"income","amount":1000,"reason":"活动","idempotencyKey":"adj-0010"}`, uid), op, 200, "", `"income":1000`)
		post("under the minimum", "/api/app/mine/goldExchange", `{"amount":99,"idempotencyKey":"exch-0003"}`, user, 422, "参数 amount 无效")
		post("zero", "/api/app/mine/goldExchange", `{"amount":0,"idempotencyKey":"exch-0004"}`, user, 422, "参数 amount 无效")
		post("huge", "/api/app/mine/goldExchange", `{"amount":99999999999999999999,"idempotencyKey":"exch-0005"}`, user, 400, "参数 amount 类型错误")
		post("empty body", "/mine/goldExchange", "", user, 400, "请求内容不能为空")
		res = apitest.Scenario{Method: http.MethodPost, URL: "/mine/goldExchange", Body: "amount=100", Token: user,
			Headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, ExpectedStatus: 415}.Run(t, h)
		post("exchange", "/mine/goldExchange", `{"amount":555,"idempotencyKey":"exch-0006"}`, user, 200, "", `"coins":55`, `"taken":550`, `"income":450`)
		post("exchange replay", "/api/app/mine/goldExchange", `{"amount":555,"idempotencyKey":"exch-0006"}`, user, 200, "", `"coins":55`, `"taken":550`, `"income":450`)

		// Bills.
		res = get("/api/app/mine/zhangdan?pageSize=2", user, 200, "", `"hasMore":true`, `"total":3`)
		bill := apitest.Data[wallet.BillPage](t, res)
		if bill.List[0].Type != "exchange" || bill.List[0].Amount != 55 || bill.List[0].Balance != 255 || bill.List[1].Type != "buy_vip" || bill.List[1].Amount != -300 {
			t.Fatalf("coin bill %+v", bill.List)
		}
		get("/api/app/mine/zhangdan?type=buy_vip", user, 200, "", `"total":1`, `"title":"购买会员"`)
		get("/api/app/mine/zhangdan?type=withdraw", user, 422, "参数 type 无效")
		get("/api/app/mine/zhangdan?month=2026-13", user, 422, "参数 month 无效")
		get("/api/app/mine/zhangdan?pageSize=51", user, 422, "")
		get("/api/app/mine/iIncomes?type=exchange", user, 200, "", `"total":1`, `"amount":-550`)
		get("/api/app/mine/iIncomes", guest, 200, "", `"total":0`)

		if err := wallet.Check(ctx, s.App.DB); err != nil {
			t.Fatal(err)
		}
	})
}

// Parallel buys through the whole server: one tap's key sent ten times at
// once buys once; fifteen taps on coins for five buy five.
func TestWalletVIPBuyParallel(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		ctx := context.Background()
		h := s.Handler
		op := operatorToken(t, s)
		res := apitest.Scenario{Method: http.MethodPost, URL: "/api/admin/vip/products", Token: op, ExpectedStatus: 200,
			Body: `{"level":2,"name":"超级VIP 3天","days":3,"price":300,"coins":10}`}.Run(t, h)
		card := apitest.Data[struct{ ID int64 }](t, res).ID
		users := make([]string, 2)
		for i := range users {
			reg, err := s.App.Account.Register(ctx, account.RegisterInput{Account: fmt.Sprintf("rush_%02d", i), Password: "pass123", IP: "10.0.0.8"})
			if err != nil {
				t.Fatal(err)
			}
			users[i] = reg.Token
			apitest.Scenario{Method: http.MethodPost, URL: "/api/admin/wallet/adjust", Token: op, ExpectedStatus: 200,
				Body: fmt.Sprintf(`{"uid":%d,"account":"coins","amount":50,"reason":"测试","idempotencyKey":"seed-%d-coins"}`, reg.User.ID, i)}.Run(t, h)
		}
		send := func(token, key string) int {
			return apitest.Scenario{Method: http.MethodPost, URL: "/api/app/vip/buy", Token: token,
				Body: fmt.Sprintf(`{"productID":%d,"idempotencyKey":"%s"}`, card, key)}.Send(t, h).Code
		}
		var wg sync.WaitGroup
		codes := make([]int, 25)
		for i := range 10 {
			wg.Add(1)
			go func() { defer wg.Done(); codes[i] = send(users[0], "one-tap-key") }()
		}
		for i := range 15 {
			wg.Add(1)
			go func() { defer wg.Done(); codes[10+i] = send(users[1], fmt.Sprintf("tap-%02d-key", i)) }()
		}
		wg.Wait()
		count := map[int]int{}
		for _, c := range codes[10:] {
			count[c]++
		}
		for i, c := range codes[:10] {
			if c != 200 {
				t.Fatalf("same-key call %d: %d", i, c)
			}
		}
		if count[200] != 5 || count[409] != 10 {
			t.Fatalf("distinct keys: %v, want 5 bought and 10 refused", count)
		}
		for i, want := range []string{`"coins":40`, `"coins":0`} {
			apitest.Scenario{URL: "/api/app/mine/wallet", Token: users[i], ExpectedStatus: 200, ExpectedContent: []string{want}}.Run(t, h)
		}
		var svip [2]int64
		for i := range svip {
			if err := s.App.DB.QueryRow(ctx, `SELECT svip_expire_at FROM users WHERE account = ?`, fmt.Sprintf("rush_%02d", i)).Scan(&svip[i]); err != nil {
				t.Fatal(err)
			}
		}
		// Days bought: 3 for the one tap, 15 for five cards (within a
		// second or two of each other's clocks).
		if d0, d1 := svip[0]-time.Now().Unix(), svip[1]-time.Now().Unix(); d0 < 3*86400-60 || d0 > 3*86400 || d1 < 15*86400-60 || d1 > 15*86400 {
			t.Fatalf("SVIP left: %d s and %d s", d0, d1)
		}
		if err := wallet.Check(ctx, s.App.DB); err != nil {
			t.Fatal(err)
		}
	})
}
