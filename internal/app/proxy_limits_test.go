package app_test

import (
	"bytes"
	"context"
	"fmt"
	"mime/multipart"
	"net/http/httptest"
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
)

// Behind a reverse proxy on the same host (PRIMA_TRUSTED_PROXIES=127.0.0.1)
// every per-address limit counts the forwarded client, signed in or not:
// one client exhausting a limit leaves another client's allowance alone,
// and an operator's audit row names the client, not the proxy. Every
// request here carries a token, since being signed in is what once hid the
// client address behind the proxy's.
func TestPerAddressLimitsBehindProxy(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		h := s.Handler
		const (
			proxy   = "127.0.0.1:41000"
			client1 = "198.51.100.7"
			client2 = "203.0.113.9"
		)
		// via sends a request through the proxy for client, as nginx would.
		via := func(t *testing.T, client, token, method, url, body string, status int, tip ...string) *apitest.Response {
			t.Helper()
			sc := apitest.Scenario{Method: method, URL: url, Body: body, Token: token, RemoteAddr: proxy,
				Headers: map[string]string{"X-Forwarded-For": client}, ExpectedStatus: status}
			if len(tip) > 0 {
				sc.ExpectedTip = tip[0]
			}
			return sc.Run(t, h)
		}
		// Tokens are made directly from addresses of their own, so making
		// them counts against neither client.
		devs := 100
		guest := func(t *testing.T) string {
			t.Helper()
			devs++
			res := apitest.Scenario{Method: "POST", URL: "/api/app/mine/login", RemoteAddr: fmt.Sprintf("192.0.2.%d:1", devs%200+1),
				Body: `{"devID":"` + apitest.DevID(devs) + `","sysType":"ios"}`, ExpectedStatus: 200}.Run(t, h)
			return apitest.Data[struct {
				Token string `json:"token"`
			}](t, res).Token
		}
		user := guest(t)

		t.Run("redemption codes", func(t *testing.T) {
			// 10 failed codes from one address (rewards.FailLimit) lock
			// the address for every user on it, not for other addresses.
			const bad = `{"code":"2345-6789-ABCD"}`
			first, second, other := guest(t), guest(t), guest(t)
			for range 10 {
				via(t, client1, first, "POST", "/api/app/code/exchange", bad, 404, "兑换码无效")
			}
			via(t, client1, second, "POST", "/api/app/code/exchange", bad, 429)
			via(t, client2, other, "POST", "/api/app/code/exchange", bad, 404, "兑换码无效")
		})

		t.Run("guest upgrades", func(t *testing.T) {
			// 10 registrations in 10 minutes from one address.
			for i := range 10 {
				via(t, client1, guest(t), "POST", "/api/app/mine/register", fmt.Sprintf(`{"account":"up_a%d","passWord":"secret12"}`, i), 200)
			}
			via(t, client1, guest(t), "POST", "/api/app/mine/register", `{"account":"up_a10","passWord":"secret12"}`, 429)
			via(t, client2, guest(t), "POST", "/api/app/mine/register", `{"account":"up_b0","passWord":"secret12"}`, 200)
		})

		t.Run("SMS codes", func(t *testing.T) {
			// 20 codes an hour from one address, over all numbers.
			code := func(i int) string {
				return fmt.Sprintf(`{"mobile":"135%08d","type":1,"purpose":"forget"}`, i)
			}
			for i := range 20 {
				via(t, client1, user, "POST", "/api/app/sms/captcha", code(i), 200)
			}
			via(t, client1, user, "POST", "/api/app/sms/captcha", code(20), 429)
			via(t, client2, user, "POST", "/api/app/sms/captcha", code(21), 200)
		})

		t.Run("guest logins", func(t *testing.T) {
			// 60 guest logins a minute from one address.
			login := func(client string) *apitest.Response {
				devs++
				return apitest.Scenario{Method: "POST", URL: "/api/app/mine/login", Token: user, RemoteAddr: proxy,
					Headers: map[string]string{"X-Forwarded-For": client},
					Body:    `{"devID":"` + apitest.DevID(devs) + `","sysType":"ios"}`}.Send(t, h)
			}
			for i := range 60 {
				if res := login(client1); res.Code != 200 {
					t.Fatalf("guest login %d from one address: %d %s", i+1, res.Code, res.Body)
				}
			}
			if res := login(client1); res.Code != 429 {
				t.Fatalf("the 61st guest login from one address: %d, want 429", res.Code)
			}
			if res := login(client2); res.Code != 200 {
				t.Fatalf("another address limited by the first: %d %s", res.Code, res.Body)
			}
		})

		t.Run("password logins and checks", func(t *testing.T) {
			// 20 failed logins in 10 minutes from one address, over all
			// accounts; the password checks of signed-in calls (changing
			// the password, the wallet's) count on the same address.
			alice, aliceID := registered(t, s, 90, "alice_px", "secret12")
			for i := range 20 {
				via(t, client1, user, "POST", "/api/app/mine/login/h5", fmt.Sprintf(`{"account":"nobody%d","passWord":"wrong123"}`, i), 401)
			}
			via(t, client1, user, "POST", "/api/app/mine/login/h5", `{"account":"nobody20","passWord":"wrong123"}`, 429)
			via(t, client2, user, "POST", "/api/app/mine/login/h5", `{"account":"nobody20","passWord":"wrong123"}`, 401)
			change := fmt.Sprintf(`{"sysType":"h5","uid":%d,"pwd":"newpass12","oldPwd":"nope1234"}`, aliceID)
			via(t, client1, alice, "POST", "/api/app/mine/loginpwd", change, 429)
			via(t, client2, alice, "POST", "/api/app/mine/loginpwd", change, 401, "密码错误")
		})

		t.Run("certificate logins", func(t *testing.T) {
			// 10 refused certificates in 10 minutes from one address.
			cert := func() string {
				devs++
				return `{"devID":"` + apitest.DevID(devs) + `","sysType":"ios","cutInfos":"","uid":1,"qrCnt":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}`
			}
			for range 10 {
				via(t, client1, user, "POST", "/api/app/mine/login", cert(), 401)
			}
			via(t, client1, user, "POST", "/api/app/mine/login", cert(), 429)
			via(t, client2, user, "POST", "/api/app/mine/login", cert(), 401)
		})

		t.Run("certificate pictures", func(t *testing.T) {
			// 20 pictures a minute from one address; a form without one
			// still counts.
			extract := func(client string) int {
				var body bytes.Buffer
				mw := multipart.NewWriter(&body)
				mw.WriteField("other", "x")
				mw.Close()
				r := httptest.NewRequest("POST", "/api/app/mine/qrcode/extract", &body)
				r.RemoteAddr = proxy
				r.Header.Set("X-Forwarded-For", client)
				r.Header.Set("Authorization", "Bearer "+user)
				r.Header.Set("Content-Type", mw.FormDataContentType())
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, r)
				return rec.Code
			}
			for i := range 20 {
				if c := extract(client1); c != 400 {
					t.Fatalf("picture %d from one address: %d, want 400", i+1, c)
				}
			}
			if c := extract(client1); c != 429 {
				t.Fatalf("the 21st picture from one address: %d, want 429", c)
			}
			if c := extract(client2); c != 400 {
				t.Fatalf("another address limited by the first: %d, want 400", c)
			}
		})

		t.Run("error reports", func(t *testing.T) {
			// 6 reports a minute from one address (report.PerIPLimit).
			const rep = `{"kind":"line","domain":{"https://a.example.org":"timeout"}}`
			for range 6 {
				via(t, client1, user, "POST", "/api/app/report/error", rep, 200)
			}
			via(t, client1, user, "POST", "/api/app/report/error", rep, 429)
			via(t, client2, user, "POST", "/api/app/report/error", rep, 200)
			var ip string
			if err := s.App.DB.QueryRow(context.Background(), `SELECT ip FROM error_reports ORDER BY id DESC LIMIT 1`).Scan(&ip); err != nil {
				t.Fatal(err)
			}
			if ip != client2 {
				t.Fatalf("the report was stored from %q, want %q", ip, client2)
			}
		})

		t.Run("operator audit", func(t *testing.T) {
			o := newOps(t, s)
			via(t, client2, o.op, "POST", "/api/admin/codes/batches", `{"name":"代理后","reward":{"coins":1},"count":1,"usesPerCode":1}`, 200)
			var ip string
			if err := s.App.DB.QueryRow(context.Background(), `SELECT ip FROM audit_log WHERE action = 'codes.batch.create'`).Scan(&ip); err != nil {
				t.Fatal(err)
			}
			if ip != client2 {
				t.Fatalf("the audit row records %q, want the client %q", ip, client2)
			}
		})
	}, "-trusted-proxies", "127.0.0.1")
}
