package app_test

import (
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
)

// Who may call the wallet: every user call needs a token (none -> 401),
// every operator call a console token (a user's phone-app token -> 401),
// and either refusal changes nothing (the bodies would be valid).
func TestWalletCallsWhoMayCall(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		user := apitest.GuestLogin(t, s.Handler, apitest.DevID(1))
		key := `"idempotencyKey":"access-key-01"`
		for _, c := range []struct{ method, url, body string }{
			{"GET", "/api/app/mine/wallet", ""},
			{"GET", "/api/app/vip/product", ""},
			{"POST", "/api/app/vip/buy", `{"productID":1,` + key + `}`},
			{"GET", "/api/app/vip/tiroCountdown?seconds=10", ""},
			{"GET", "/api/app/mine/zhangdan", ""},
			{"GET", "/api/app/mine/iIncomes", ""},
			{"POST", "/api/app/mine/goldExchange", `{"amount":100,` + key + `}`},
			{"POST", "/mine/goldExchange", `{"amount":100,` + key + `}`},
			{"GET", "/api/app/mine/txnact/bank/get?actType=1", ""},
			{"POST", "/api/app/mine/txnact/bank/add", `{"actType":2,"network":"TRC20","address":"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t","passWord":"x"}`},
			{"DELETE", "/api/app/mine/txnact/del?id=1", ""},
			{"POST", "/api/app/withdraw", `{"amount":10000,"accountID":1,"passWord":"x",` + key + `}`},
			{"GET", "/api/app/withdraw/order", ""},
			{"POST", "/api/app/vid/buy", `{"id":1,` + key + `}`},
			{"POST", "/api/app/gallery/buy", `{"id":1,` + key + `}`},
			{"GET", "/api/app/mine/buyVid", ""},
			{"GET", "/api/app/backpack", ""},
			{"GET", "/api/app/mine/currencys?type=1", ""},
			{"POST", "/api/app/mine/topay", `{"productType":"coins","productID":1,"payType":"sandbox",` + key + `}`},
			{"GET", "/api/app/mine/rchg/order", ""},
			{"GET", "/api/app/goldExtra/userList", ""},
		} {
			apitest.Scenario{Name: "no token " + c.url, Method: c.method, URL: c.url, Body: c.body, ExpectedStatus: 401}.Run(t, s.Handler)
		}
		for _, c := range []struct{ method, url, body string }{
			{"GET", "/api/admin/wallet?uid=1", ""},
			{"POST", "/api/admin/wallet/adjust", `{"uid":1,"account":"coins","amount":100,"reason":"x",` + key + `}`},
			{"POST", "/api/admin/coupons/grant", `{"uid":1,"count":1,"days":1,"reason":"x",` + key + `}`},
			{"GET", "/api/admin/vip/products", ""},
			{"POST", "/api/admin/vip/products", `{"level":1,"name":"x","days":1,"price":1}`},
			{"GET", "/api/admin/withdrawals", ""},
			{"POST", "/api/admin/withdrawals/approve", `{"orderNo":"W1"}`},
			{"POST", "/api/admin/withdrawals/reject", `{"orderNo":"W1","reason":"x"}`},
			{"GET", "/api/admin/orders", ""},
			{"GET", "/api/admin/orders/callbacks?orderNo=P1", ""},
			{"POST", "/api/admin/orders/paid", `{"orderNo":"P1","reason":"x"}`},
			{"POST", "/api/admin/orders/refund", `{"orderNo":"P1","reason":"x"}`},
			{"GET", "/api/admin/currencys", ""},
			{"POST", "/api/admin/currencys", `{"name":"x","coins":1,"price":1}`},
		} {
			apitest.Scenario{Name: "user on " + c.url, Method: c.method, URL: c.url, Token: user, Body: c.body, ExpectedStatus: 401}.Run(t, s.Handler)
		}
		var moved int
		if err := s.App.DB.QueryRow(t.Context(), `SELECT COUNT(*) FROM ledger_txns`).Scan(&moved); err != nil || moved != 0 {
			t.Fatalf("%d ledger movements after refused calls (%v)", moved, err)
		}
	})
}
