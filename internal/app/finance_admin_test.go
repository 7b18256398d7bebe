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
	"time"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/earnings"
	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/wallet"
)

// sandboxPay pays order page (the payUrl of a sandbox order) on srv.
func sandboxPay(t *testing.T, srv *httptest.Server, payURL string) {
	t.Helper()
	u, err := url.Parse(payURL)
	if err != nil {
		t.Fatal(err)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noRedirect.PostForm(srv.URL+u.Path, url.Values{"action": {"pay"}, "t": {u.Query().Get("k")}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("sandbox pay: %d", res.StatusCode)
	}
}

// A provider the operator switches off is not offered to the phone app and
// refuses new orders, while an order it made before still settles by its
// callback; switched on again it is back. Every change is one audit row;
// bad input is refused and changes nothing.
func TestProviderSwitch(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		h := s.Handler
		run := func(method, url, token, body string, status int, tip string, content ...string) *apitest.Response {
			t.Helper()
			return apitest.Scenario{Method: method, URL: url, Token: token, Body: body, ExpectedStatus: status, ExpectedTip: tip, ExpectedContent: content}.Run(t, h)
		}
		op := operatorToken(t, s)
		pkg := apitest.Data[wallet.CoinPackage](t, run("POST", "/api/admin/currencys", op, `{"name":"10元","coins":100,"price":1000}`, 200, "")).ID
		user, _ := registered(t, s, 301, "pay_sw", "secret12")
		topay := func(key string, status int, tip string) wallet.Order {
			t.Helper()
			return apitest.Data[wallet.Order](t, run("POST", "/api/app/mine/topay", user,
				fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":%q}`, pkg, key), status, tip))
		}
		before := topay("switch-key-0001", 200, "")

		run("GET", "/api/admin/providers", op, "", 200, "", `"name":"sandbox"`, `"enabled":true`, `"configured":true`, `"lastNotifyAt":null`)
		run("GET", "/api/app/mine/currencys", user, "", 200, "", `"code":"sandbox"`)
		run("POST", "/api/admin/providers", op, `{"name":"sandbox","enabled":false}`, 200, "", `"changed":true`, `"enabled":false`)
		run("POST", "/api/admin/providers", op, `{"name":"sandbox","enabled":false}`, 200, "", `"changed":false`)
		if n := auditRows(t, s, "provider.switch"); n != 1 {
			t.Fatalf("%d provider.switch rows, want 1 (the second call changed nothing)", n)
		}
		apitest.Scenario{Method: "GET", URL: "/api/app/mine/currencys", Token: user, ExpectedStatus: 200, NotExpectedContent: []string{`"sandbox"`}}.Run(t, h)
		apitest.Scenario{Method: "GET", URL: "/api/app/vip/product", Token: user, ExpectedStatus: 200, NotExpectedContent: []string{`"sandbox"`}}.Run(t, h)
		topay("switch-key-0002", 422, "该支付方式暂停使用，请选择其他支付方式")

		// The order made before the switch still settles by its callback.
		srv := httptest.NewServer(h)
		defer srv.Close()
		sandboxPay(t, srv, before.PayURL)
		run("GET", "/api/app/mine/wallet", user, "", 200, "", `"coins":100`)
		run("GET", "/api/admin/providers", op, "", 200, "", `"enabled":false`, `"notifies24h":1`, `"failures24h":0`, `"lastFailure":null`)
		// A forged notice and an order the provider would not make count as
		// failures; one of a day ago and another gateway's do not.
		now := time.Now().Unix()
		for _, c := range []struct {
			prov, outcome string
			at            int64
		}{{"sandbox", "refused", now - 60}, {"sandbox", "create_failed", now - 30}, {"sandbox", "refused", now - 90000}, {"epay", "refused", now}} {
			if _, err := s.App.DB.Exec(context.Background(), `INSERT INTO payment_callbacks (provider, order_no, outcome, detail, created_at) VALUES (?, 'P1', ?, 'bad sign', ?)`,
				c.prov, c.outcome, c.at); err != nil {
				t.Fatal(err)
			}
		}
		run("GET", "/api/admin/providers", op, "", 200, "", `"notifies24h":2`, `"failures24h":2`, `"outcome":"create_failed"`, `"detail":"bad sign"`)

		run("POST", "/api/admin/providers", op, `{"name":"sandbox","enabled":true}`, 200, "", `"changed":true`, `"enabled":true`)
		run("GET", "/api/app/mine/currencys", user, "", 200, "", `"code":"sandbox"`)
		topay("switch-key-0003", 200, "")
		if n := auditRows(t, s, "provider.switch"); n != 2 {
			t.Fatalf("%d provider.switch rows, want 2", n)
		}

		// Attackers: nothing changes.
		for _, c := range []struct {
			body   string
			status int
		}{
			{`{"enabled":false}`, 422},
			{`{"name":"","enabled":false}`, 422},
			{`{"name":"SANDBOX","enabled":false}`, 422},
			{`{"name":"sand\u0000box","enabled":false}`, 422},
			{`{"name":"sandbox\n","enabled":false}`, 422},
			{`{"name":"` + strings.Repeat("a", 41) + `","enabled":false}`, 422},
			{`{"name":"sandbox"}`, 422},
			{`{"name":"sandbox","enabled":"no"}`, 400},
			{`{"name":"sandbox","enabled":0}`, 400},
			{`{"name":7,"enabled":false}`, 400},
			{`not json`, 400},
			{`{"name":"epay_alipay","enabled":false}`, 404},
			{`{"name":"stripe","enabled":false}`, 404},
		} {
			run("POST", "/api/admin/providers", op, c.body, c.status, "")
		}
		if n := auditRows(t, s, "provider.switch"); n != 2 {
			t.Fatalf("bad input wrote audit rows: %d", n)
		}
		run("GET", "/api/app/mine/currencys", user, "", 200, "", `"code":"sandbox"`)
		// A provider switched once that the server no longer configures is
		// listed (configured false) and cannot be switched.
		if _, err := s.App.DB.Exec(context.Background(), `INSERT INTO provider_switches (name, enabled, updated_at) VALUES ('epay_wxpay', 0, 1)`); err != nil {
			t.Fatal(err)
		}
		run("GET", "/api/admin/providers", op, "", 200, "", `"name":"epay_wxpay","title":"epay_wxpay","gateway":"epay","enabled":false,"configured":false`,
			`"failures24h":1`) // the epay notice above
		run("POST", "/api/admin/providers", op, `{"name":"epay_wxpay","enabled":true}`, 404, "支付渠道不存在")
		// A user's token opens nothing; another role is refused.
		run("GET", "/api/admin/providers", user, "", 401, "")
		mod := s.Operator(t, "mod_sw", httpx.RoleModerator).Token
		run("POST", "/api/admin/providers", mod, `{"name":"sandbox","enabled":false}`, 403, "")
		run("GET", "/api/admin/reconciliation", mod, "", 403, "")
		run("POST", "/api/admin/wallet/check", mod, `{}`, 403, "")
	})
}

// Operators racing to switch one provider off: one change, one audit row,
// and the provider ends off whatever the interleaving (PostgreSQL's row
// lock, SQLite's one writer).
func TestProviderSwitchRace(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		op := operatorToken(t, s)
		var wg sync.WaitGroup
		changed := make(chan bool, 16)
		for range 16 {
			wg.Go(func() {
				res := apitest.Scenario{Method: "POST", URL: "/api/admin/providers", Token: op, Body: `{"name":"sandbox","enabled":false}`}.Send(t, s.Handler)
				if res.Code != 200 {
					t.Errorf("switch: %d %s", res.Code, res.Body)
					return
				}
				changed <- strings.Contains(res.Body.String(), `"changed":true`)
			})
		}
		wg.Wait()
		close(changed)
		n := 0
		for c := range changed {
			if c {
				n++
			}
		}
		if n != 1 || auditRows(t, s, "provider.switch") != 1 {
			t.Fatalf("%d calls said changed, %d audit rows; want 1 and 1", n, auditRows(t, s, "provider.switch"))
		}
		if off := countRows(t, s, `SELECT COUNT(*) FROM provider_switches WHERE name = 'sandbox' AND enabled = 0`); off != 1 {
			t.Fatalf("sandbox not off after the race")
		}
	})
}

// A day with a sandbox top-up, its commission (settled at once), a
// withdrawal of it approved: every pair of the reconciliation agrees. A
// hand-made movement into the top-up account then shows as a difference
// of exactly its amount, and the ledger check finds a broken balance.
func TestReconciliation(t *testing.T) {
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
			`{"levels":[5000],"promoterLevels":[5000],"settleDays":0,"creatorShareBps":5000,"inviteReward":"off"}`, 200, "")
		pkg := int64(data(run("POST", "/api/admin/currencys", op, `{"name":"200元","coins":2000,"price":20000}`, 200, ""))["id"].(float64))
		a, _ := registered(t, s, 311, "amy_rc", "secret12")
		aCode := data(run("POST", "/api/app/userinvite/info", a, `{}`, 200, ""))["code"].(string)
		guest := data(run("POST", "/api/app/mine/login", "", fmt.Sprintf(`{"devID":%q,"sysType":"h5","cutInfos":"https://x/?ic=%s"}`, apitest.DevID(312), aCode), 200, ""))["token"].(string)
		b := data(run("POST", "/api/app/mine/register", guest, `{"account":"bob_rc","passWord":"secret12"}`, 200, ""))["token"].(string)

		o := apitest.Data[wallet.Order](t, run("POST", "/api/app/mine/topay", b,
			fmt.Sprintf(`{"productType":"coins","productID":%d,"payType":"sandbox","idempotencyKey":"recon-key-0001"}`, pkg), 200, ""))
		srv := httptest.NewServer(h)
		defer srv.Close()
		sandboxPay(t, srv, o.PayURL)
		run("GET", "/api/app/mine/wallet", a, "", 200, "", `"income":10000`)
		acc := apitest.Data[wallet.PayoutAccount](t, run("POST", "/api/app/mine/txnact/bank/add", a,
			`{"actType":2,"network":"TRC20","address":"TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t","passWord":"secret12"}`, 200, "")).ID
		wd := apitest.Data[wallet.Withdrawal](t, run("POST", "/api/app/withdraw", a,
			fmt.Sprintf(`{"amount":10000,"accountID":%d,"passWord":"secret12","idempotencyKey":"wd-recon-0001"}`, acc), 200, ""))
		run("POST", "/api/admin/withdrawals/approve", op, `{"orderNo":"`+wd.OrderNo+`"}`, 200, "", `"changed":true`)

		type answer struct {
			From, To, Timezone string
			Days               []wallet.ReconDay
		}
		today := days.Of(time.Now())
		read := func() wallet.ReconDay {
			t.Helper()
			// Yesterday to tomorrow: the test may cross Beijing midnight.
			from, to := days.Of(time.Now().AddDate(0, 0, -1)), days.Of(time.Now().AddDate(0, 0, 1))
			ans := apitest.Data[answer](t, run("GET", "/api/admin/reconciliation?from="+from+"&to="+to, op, "", 200, ""))
			if ans.Timezone != "Asia/Shanghai" || len(ans.Days) != 3 || ans.Days[0].Date != to || ans.Days[2].Date != from {
				t.Fatalf("answer %+v", ans)
			}
			var sum wallet.ReconDay
			sum.OK = true
			for _, d := range ans.Days {
				sum.OK = sum.OK && d.OK
				add := func(to *wallet.ReconPair, p wallet.ReconPair) {
					to.Records += p.Records
					to.Ledger += p.Ledger
					to.Diff += p.Diff
				}
				add(&sum.Topup.ReconPair, d.Topup.ReconPair)
				add(&sum.Payouts, d.Payouts)
				add(&sum.Commission, d.Commission)
				add(&sum.Creator, d.Creator)
				for _, p := range d.Topup.Providers {
					if p.PayType != "sandbox" {
						t.Fatalf("provider %q", p.PayType)
					}
					if p.Diff != 0 {
						t.Fatalf("sandbox diff %d", p.Diff)
					}
				}
			}
			return sum
		}
		got := read()
		want := wallet.ReconDay{OK: true, Topup: wallet.TopupRecon{ReconPair: wallet.ReconPair{Records: 20000, Ledger: 20000}},
			Payouts: wallet.ReconPair{Records: 8000, Ledger: 8000}, Commission: wallet.ReconPair{Records: 10000, Ledger: 10000}}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("reconciliation\n got %+v\nwant %+v", got, want)
		}
		run("GET", "/api/admin/reconciliation", op, "", 200, "", `"date":"`+today+`"`, `"records":20000`)

		// A movement into the top-up account that no order stands for.
		if err := s.App.DB.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := s.App.Wallet.Ledger.Post(ctx, tx, wallet.Transfer{Kind: "adjust", Key: "recon-test-stray", Memo: "手工", Legs: []wallet.Leg{
				{Account: wallet.System(wallet.SysPayments), Amount: -555}, {Account: wallet.System(wallet.SysCentsAdjust), Amount: 555}}}, time.Now())
			return err
		}); err != nil {
			t.Fatal(err)
		}
		got = read()
		if got.OK || got.Topup.Records != 20000 || got.Topup.Ledger != 20555 || got.Topup.Diff != 555 || got.Payouts.Diff != 0 || got.Commission.Diff != 0 {
			t.Fatalf("after a stray movement: %+v", got)
		}

		// The ledger check: sound, then a user's cached balance off by one.
		run("POST", "/api/admin/wallet/check", op, `{}`, 200, "", `"ok":true`, `"breaches":[]`)
		if err := wallet.Check(ctx, s.App.DB, earnings.Check); err != nil {
			t.Fatal(err)
		}
		// Pending commission moved by hand, without its row: the commission
		// pair shows it, and earnings' own check names the user.
		if err := s.App.DB.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := s.App.Wallet.Ledger.Post(ctx, tx, wallet.Transfer{Kind: "commission_pending", Key: "recon-test-commission", UserID: 1, Legs: []wallet.Leg{
				{Account: wallet.System(wallet.SysIncomePaid), Amount: -77}, {Account: wallet.System(earnings.SysCommissionPending), Amount: 77}}}, time.Now())
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if got = read(); got.Commission.Diff != 77 || got.Commission.Records != 10000 || got.Payouts.Diff != 0 {
			t.Fatalf("after a stray commission movement: %+v", got)
		}
		run("POST", "/api/admin/wallet/check", op, `{}`, 200, "", `"ok":false`, `pending commission rows say 0, the ledger holds 77`)
		if _, err := s.App.DB.Exec(ctx, `UPDATE ledger_accounts SET balance = balance + 1 WHERE user_id <> 0 AND kind = 'coins'`); err != nil {
			t.Fatal(err)
		}
		res := apitest.Data[wallet.CheckResult](t, run("POST", "/api/admin/wallet/check", op, `{}`, 200, "", `"ok":false`))
		if len(res.Breaches) == 0 || !strings.Contains(res.Breaches[0], "cached balance differs") || res.Movements == 0 || res.Entries == 0 {
			t.Fatalf("check %+v", res)
		}
		if n := auditRows(t, s, "wallet.check"); n != 3 {
			t.Fatalf("%d wallet.check audit rows, want 3", n)
		}

		// Bad ranges: a clear 422, nothing read.
		for _, q := range []string{"from=2026-13-01", "from=2026-02-30", "to=20261201", "to=2026-1-01", "from=1999-12-31",
			"from=2026-12-02&to=2026-12-01", "from=2026-01-01&to=2026-04-03", "from=%00", "to=2026-12-01%00", "from=-1"} {
			run("GET", "/api/admin/reconciliation?"+q, op, "", 422, "")
		}
		run("GET", "/api/admin/reconciliation?from=2026-01-01&to=2026-04-02", op, "", 200, "") // 92 days
		run("POST", "/api/admin/wallet/check", op, `[]`, 400, "")
	})
}
