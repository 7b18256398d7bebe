package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/platform/db"
	"prima/internal/platform/realtime"
	"prima/internal/wallet"
)

// registered signs up account/password from a fresh device and returns
// its token and uid.
func registered(t *testing.T, s *apptest.Server, n int, account, password string) (string, int64) {
	t.Helper()
	guest := apitest.GuestLogin(t, s.Handler, apitest.DevID(n))
	res := apitest.Scenario{Method: "POST", URL: "/api/app/mine/register", Token: guest,
		Body: fmt.Sprintf(`{"account":%q,"passWord":%q}`, account, password), ExpectedStatus: 200}.Run(t, s.Handler)
	tok := apitest.Data[struct {
		Token string `json:"token"`
	}](t, res).Token
	u, err := s.App.Account.UserByAccount(context.Background(), account)
	if err != nil {
		t.Fatal(err)
	}
	return tok, u.ID
}

func earnIncome(t *testing.T, s *apptest.Server, uid, cents int64) {
	t.Helper()
	err := s.App.DB.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		_, err := s.App.Wallet.Ledger.Post(ctx, tx, wallet.Transfer{Kind: "commission", Key: fmt.Sprintf("commission:test:%d:%d", uid, cents),
			UserID: uid, Legs: []wallet.Leg{{Account: wallet.System(wallet.SysIncomePaid), Amount: -cents}, {Account: wallet.UserIncome(uid), Amount: cents}}},
			time.Now())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestWithdrawAPI drives payout accounts, withdrawals and the operator's
// decisions through the HTTP API as a client would, on both engines.
func TestWithdrawAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		ctx := context.Background()
		h := s.Handler
		o := newOps(t, s) // o.user is a guest
		alice, aliceID := registered(t, s, 11, "alice_1", "secret12")
		bob, _ := registered(t, s, 12, "bob_1", "secret34")
		earnIncome(t, s, aliceID, 100_000)
		sub, err := s.App.Events.Subscribe(ctx, realtime.UserTopic(aliceID))
		if err != nil {
			t.Fatal(err)
		}

		card := `"actType":1,"bankName":"中国银行","holder":"张三","number":"6222 0212 3456 7890 128"`
		var accountID int64
		apitest.Run(t, h,
			apitest.Scenario{Name: "no token", Method: "POST", URL: "/api/app/mine/txnact/bank/add", Body: `{` + card + `}`, ExpectedStatus: 401},
			apitest.Scenario{Name: "guest adds", Method: "POST", URL: "/api/app/mine/txnact/bank/add", Token: o.user,
				Body: `{` + card + `,"passWord":"whatever1"}`, ExpectedStatus: 403, ExpectedTip: "请先注册账号"},
			apitest.Scenario{Name: "guest withdraws", Method: "POST", URL: "/api/app/withdraw", Token: o.user,
				Body: `{"amount":10000,"accountID":1,"passWord":"x","idempotencyKey":"guest-key-1"}`, ExpectedStatus: 403, ExpectedTip: "请先注册账号"},
			apitest.Scenario{Name: "wrong password", Method: "POST", URL: "/api/app/mine/txnact/bank/add", Token: alice,
				Body: `{` + card + `,"passWord":"secret99"}`, ExpectedStatus: 401, ExpectedTip: "密码错误"},
			apitest.Scenario{Name: "bad checksum", Method: "POST", URL: "/api/app/mine/txnact/bank/add", Token: alice,
				Body: `{"actType":1,"bankName":"中国银行","holder":"张三","number":"6222021234567890127","passWord":"secret12"}`, ExpectedStatus: 422, ExpectedTip: "银行卡号"},
			apitest.Scenario{Name: "actType a string", Method: "POST", URL: "/api/app/mine/txnact/bank/add", Token: alice,
				Body: `{"actType":"1","passWord":"secret12"}`, ExpectedStatus: 400, ExpectedTip: "actType"},
			apitest.Scenario{Name: "NUL in holder", Method: "POST", URL: "/api/app/mine/txnact/bank/add", Token: alice,
				Body: `{"actType":1,"bankName":"中国银行","holder":"张\u0000三","number":"6222021234567890128","passWord":"secret12"}`, ExpectedStatus: 422},
			apitest.Scenario{Name: "add card", Method: "POST", URL: "/api/app/mine/txnact/bank/add", Token: alice,
				Body: `{` + card + `,"passWord":"secret12"}`, ExpectedStatus: 200,
				ExpectedContent: []string{`"number":"**** **** **** 0128"`}, NotExpectedContent: []string{"6222021234567890128"},
				Check: func(t *testing.T, res *apitest.Response) {
					accountID = apitest.Data[wallet.PayoutAccount](t, res).ID
				}},
			apitest.Scenario{Name: "add USDT", Method: "POST", URL: "/api/app/mine/txnact/bank/add", Token: alice,
				Body: `{"actType":2,"network":"TRC20","address":"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t","passWord":"secret12"}`, ExpectedStatus: 200,
				ExpectedContent: []string{`"address":"TR7NHq****Lj6t"`, `"network":"TRC20"`}},
			apitest.Scenario{Name: "list USDT", URL: "/api/app/mine/txnact/bank/get?actType=2", Token: alice, ExpectedStatus: 200,
				ExpectedContent: []string{"TR7NHq****Lj6t"}, NotExpectedContent: []string{"0128"}},
			apitest.Scenario{Name: "list bad type", URL: "/api/app/mine/txnact/bank/get?actType=3", Token: alice, ExpectedStatus: 422},
			apitest.Scenario{Name: "list no type", URL: "/api/app/mine/txnact/bank/get", Token: alice, ExpectedStatus: 422},
			apitest.Scenario{Name: "bob lists none", URL: "/api/app/mine/txnact/bank/get?actType=1", Token: bob, ExpectedStatus: 200,
				ExpectedContent: []string{`"data":[]`}},
		)
		wd := func(token, body string, status int, tip string) *apitest.Response {
			t.Helper()
			return apitest.Scenario{Method: "POST", URL: "/api/app/withdraw", Token: token, Body: body, ExpectedStatus: status, ExpectedTip: tip}.Run(t, h)
		}
		acc := fmt.Sprint(accountID)
		wd(alice, `{"amount":"10000","accountID":`+acc+`,"passWord":"secret12","idempotencyKey":"wd-key-001"}`, 400, "参数 amount 类型错误")
		wd(alice, `{"amount":10000.5,"accountID":`+acc+`,"passWord":"secret12","idempotencyKey":"wd-key-001"}`, 400, "参数 amount 类型错误")
		wd(alice, `{"amount":1e30,"accountID":`+acc+`,"passWord":"secret12","idempotencyKey":"wd-key-001"}`, 400, "参数 amount 类型错误")
		wd(alice, `{"amount":0,"accountID":`+acc+`,"passWord":"secret12","idempotencyKey":"wd-key-001"}`, 422, "参数 amount 无效")
		wd(alice, `{"amount":-5,"accountID":`+acc+`,"passWord":"secret12","idempotencyKey":"wd-key-001"}`, 422, "参数 amount 无效")
		wd(alice, `{"amount":10000,"accountID":`+acc+`,"passWord":"secret12"}`, 422, "缺少参数 idempotencyKey")
		wd(alice, `{"amount":10000,"accountID":`+acc+`,"passWord":"nope","idempotencyKey":"wd-key-001"}`, 401, "密码错误")
		wd(alice, `{"amount":200000,"accountID":`+acc+`,"passWord":"secret12","idempotencyKey":"wd-key-001"}`, 409, "可提现余额不足")
		wd(bob, `{"amount":10000,"accountID":`+acc+`,"passWord":"secret34","idempotencyKey":"wd-key-001"}`, 404, "账户不存在")
		res := wd(alice, `{"amount":30000,"accountID":`+acc+`,"passWord":"secret12","idempotencyKey":"wd-key-001"}`, 200, "")
		w1 := apitest.Data[wallet.Withdrawal](t, res)
		if w1.Status != "pending" || w1.Fee != 6000 || w1.Net != 24000 {
			t.Fatalf("withdrawal: %+v", w1)
		}
		// The retry of the same intent answers the same order.
		again := apitest.Data[wallet.Withdrawal](t, wd(alice, `{"amount":30000,"accountID":`+acc+`,"passWord":"secret12","idempotencyKey":"wd-key-001"}`, 200, ""))
		if again.OrderNo != w1.OrderNo {
			t.Fatalf("replay made %s, first %s", again.OrderNo, w1.OrderNo)
		}
		w2 := apitest.Data[wallet.Withdrawal](t, wd(alice, `{"amount":20000,"accountID":`+acc+`,"passWord":"secret12","idempotencyKey":"wd-key-002"}`, 200, ""))
		select {
		case ev := <-sub.Events():
			if ev.Type != "withdraw.changed" || !strings.Contains(string(ev.Data), w1.OrderNo) {
				t.Fatalf("event %s %s", ev.Type, ev.Data)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no withdraw.changed event")
		}

		apitest.Run(t, h,
			apitest.Scenario{Name: "wallet shows frozen", URL: "/api/app/mine/wallet", Token: alice, ExpectedStatus: 200,
				ExpectedContent: []string{`"income":50000`, `"incomeFrozen":50000`}},
			apitest.Scenario{Name: "delete with pending", Method: "DELETE", URL: "/api/app/mine/txnact/del?id=" + acc, Token: alice, ExpectedStatus: 409},
			apitest.Scenario{Name: "bob deletes alice's", Method: "DELETE", URL: "/api/app/mine/txnact/del?id=" + acc, Token: bob, ExpectedStatus: 404},
			apitest.Scenario{Name: "orders", URL: "/api/app/withdraw/order", Token: alice, ExpectedStatus: 200,
				ExpectedContent: []string{w1.OrderNo, w2.OrderNo, `"total":2`}},
			apitest.Scenario{Name: "orders bad status", URL: "/api/app/withdraw/order?status=gone", Token: alice, ExpectedStatus: 422},
			apitest.Scenario{Name: "bob's orders", URL: "/api/app/withdraw/order", Token: bob, ExpectedStatus: 200, ExpectedContent: []string{`"total":0`}},
			apitest.Scenario{Name: "user lists all", URL: "/api/admin/withdrawals", Token: alice, ExpectedStatus: 401},
			apitest.Scenario{Name: "user approves", Method: "POST", URL: "/api/admin/withdrawals/approve", Token: alice,
				Body: `{"orderNo":"` + w1.OrderNo + `"}`, ExpectedStatus: 401},
			apitest.Scenario{Name: "operator lists", URL: "/api/admin/withdrawals?status=pending", Token: o.op, ExpectedStatus: 200,
				ExpectedContent: []string{`"number":"6222021234567890128"`, fmt.Sprintf(`"uid":%d`, aliceID)}},
			apitest.Scenario{Name: "approve", Method: "POST", URL: "/api/admin/withdrawals/approve", Token: o.op,
				Body: `{"orderNo":"` + w1.OrderNo + `"}`, ExpectedStatus: 200, ExpectedContent: []string{`"status":"paid"`, `"changed":true`}},
			apitest.Scenario{Name: "approve twice", Method: "POST", URL: "/api/admin/withdrawals/approve", Token: o.op,
				Body: `{"orderNo":"` + w1.OrderNo + `"}`, ExpectedStatus: 200, ExpectedContent: []string{`"status":"paid"`, `"changed":false`}},
			apitest.Scenario{Name: "reject without reason", Method: "POST", URL: "/api/admin/withdrawals/reject", Token: o.op,
				Body: `{"orderNo":"` + w2.OrderNo + `"}`, ExpectedStatus: 422},
			apitest.Scenario{Name: "reject with NUL", Method: "POST", URL: "/api/admin/withdrawals/reject", Token: o.op,
				Body: `{"orderNo":"` + w2.OrderNo + `","reason":"a\u0000b"}`, ExpectedStatus: 422},
			apitest.Scenario{Name: "reject unknown", Method: "POST", URL: "/api/admin/withdrawals/reject", Token: o.op,
				Body: `{"orderNo":"W0000","reason":"x"}`, ExpectedStatus: 404},
			apitest.Scenario{Name: "reject", Method: "POST", URL: "/api/admin/withdrawals/reject", Token: o.op,
				Body: `{"orderNo":"` + w2.OrderNo + `","reason":"账户信息有误"}`, ExpectedStatus: 200,
				ExpectedContent: []string{`"status":"rejected"`, `"changed":true`, "账户信息有误"}},
			apitest.Scenario{Name: "approve a rejected one", Method: "POST", URL: "/api/admin/withdrawals/approve", Token: o.op,
				Body: `{"orderNo":"` + w2.OrderNo + `"}`, ExpectedStatus: 200, ExpectedContent: []string{`"status":"rejected"`, `"changed":false`}},
			apitest.Scenario{Name: "wallet after", URL: "/api/app/mine/wallet", Token: alice, ExpectedStatus: 200,
				ExpectedContent: []string{`"income":70000`, `"incomeFrozen":0`}},
			apitest.Scenario{Name: "orders with reason", URL: "/api/app/withdraw/order?status=rejected", Token: alice, ExpectedStatus: 200,
				ExpectedContent: []string{"账户信息有误", `"total":1`}},
			apitest.Scenario{Name: "audit", URL: "/api/admin/audit?action=withdraw.reject", Token: o.op, ExpectedStatus: 200,
				ExpectedContent: []string{w2.OrderNo}},
			apitest.Scenario{Name: "delete now", Method: "DELETE", URL: "/api/app/mine/txnact/del?id=" + acc, Token: alice, ExpectedStatus: 200},
		)
		if n := o.count(t, `SELECT COUNT(*) FROM notices WHERE user_id = ? AND kind = 'withdraw'`, aliceID); n != 2 {
			t.Fatalf("%d notices, want 2", n)
		}
		if n := o.count(t, `SELECT COUNT(*) FROM audit_log WHERE action IN ('withdraw.approve', 'withdraw.reject') AND actor_uid = ?`, o.opUID); n != 2 {
			t.Fatalf("%d audit entries, want 2", n)
		}
		if err := wallet.Check(ctx, s.App.DB); err != nil {
			t.Fatal(err)
		}
	})
}
