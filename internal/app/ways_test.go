package app_test

import (
	"fmt"
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
)

// smsCode reads the last code sent to mobile through the test-mode endpoint.
func smsCode(t *testing.T, s *apptest.Server, mobile string) string {
	t.Helper()
	res := apitest.Scenario{URL: "/api/test/sms/last?mobile=" + mobile, ExpectedStatus: 200}.Run(t, s.Handler)
	code := apitest.Data[struct {
		Code string `json:"code"`
	}](t, res).Code
	if len(code) != 6 {
		t.Fatalf("code %q", code)
	}
	return code
}

// The ways-in calls over HTTP with their bad inputs, as the client sees
// them: statuses, tips, and the test-mode code reader.
func TestWaysAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		h := s.Handler
		alice, aliceID := registered(t, s, 21, "alice_w", "secret12")
		bob, bobID := registered(t, s, 22, "bob_w", "secret34")
		guest := apitest.GuestLogin(t, h, apitest.DevID(23))
		const m = "13512345678"
		post := func(url, token, body string, status int, tip string) *apitest.Response {
			t.Helper()
			return apitest.Scenario{Method: "POST", URL: url, Token: token, Body: body, ExpectedStatus: status, ExpectedTip: tip}.Run(t, h)
		}
		post("/api/app/sms/captcha", alice, `{"mobile":"`+m+`","type":2}`, 422, "验证码类型无效")
		post("/api/app/sms/captcha", alice, `{"mobile":"1234","type":1}`, 422, "手机号格式不正确")
		post("/api/app/sms/captcha", "", `{"mobile":"`+m+`","type":1,"purpose":"bind"}`, 401, "请先登录")
		post("/api/app/sms/captcha", guest, `{"mobile":"`+m+`","type":1}`, 403, "请先注册")
		post("/api/app/sms/captcha", alice, `{"mobile":"`+m+`","type":1,"purpose":"bind"}`, 200, "")
		post("/api/app/sms/captcha", alice, `{"mobile":"`+m+`","type":1,"purpose":"bind"}`, 429, "频繁")
		code := smsCode(t, s, m)
		post("/api/app/mine/bindphone", alice, `{"mobile":"`+m+`","code":"`+code+`","pwd":"wrong999"}`, 401, "密码错误")
		post("/api/app/mine/bindphone", guest, `{"mobile":"`+m+`","code":"`+code+`","pwd":"secret12"}`, 403, "请先注册")
		res := post("/api/app/mine/bindphone", alice, `{"mobile":"`+m+`","code":"`+code+`","pwd":"secret12"}`, 200, "")
		info := apitest.Data[struct {
			Mobile      string `json:"mobile"`
			HasPassword bool   `json:"hasPassword"`
		}](t, res)
		if info.Mobile != "135****5678" || !info.HasPassword {
			t.Fatalf("info %+v", info)
		}
		// The session still works after a wrong fresh password (401 is the
		// password's, not the session's).
		apitest.Scenario{URL: "/api/app/mine/info", Token: alice, ExpectedStatus: 200, ExpectedContent: []string{`"mobile":"135****5678"`}}.Run(t, h)
		post("/api/app/mine/bindphone", alice, `{"mobile":"`+m+`","code":"`+code+`","pwd":"secret12"}`, 409, "已绑定该手机号")
		post("/api/app/mine/bindphone", bob, `{"mobile":"`+m+`","code":"`+code+`","pwd":"secret34"}`, 422, "验证码")

		// loginpwd with another user's uid: 403, and bob's password stays.
		post("/api/app/mine/loginpwd", alice, fmt.Sprintf(`{"sysType":"h5","uid":%d,"pwd":"hacked99","oldPwd":"secret12"}`, bobID), 403, "无权操作")
		post("/api/app/mine/loginpwd", alice, fmt.Sprintf(`{"sysType":"h5","uid":%d,"pwd":"newpass12","oldPwd":"nope1234"}`, aliceID), 401, "密码错误")
		post("/api/app/mine/loginpwd", alice, fmt.Sprintf(`{"sysType":"h5","uid":%d,"pwd":"newpass12","oldPwd":"secret12"}`, aliceID), 200, "")
		post("/api/app/mine/login/h5", "", `{"account":"bob_w","passWord":"secret34"}`, 200, "")

		// Forgotten password: anonymous.
		post("/api/app/sms/captcha", "", `{"mobile":"`+m+`","type":1,"purpose":"forget"}`, 200, "")
		post("/api/app/sms/captcha", "", `{"mobile":"`+m+`","type":1,"purpose":"forget"}`, 429, "频繁")
		code = smsCode(t, s, m)
		wrong := "000000"
		if code == wrong {
			wrong = "000001"
		}
		post("/api/app/mine/forget", "", `{"mobile":"`+m+`","code":"`+wrong+`","pwd":"reset1234"}`, 422, "验证码错误")
		post("/api/app/mine/forget", "", `{"mobile":"`+m+`","code":"12ab56","pwd":"reset1234"}`, 422, "验证码为6位数字")
		post("/api/app/mine/forget", "", `{"mobile":"`+m+`","code":"`+code+`","pwd":"reset1234"}`, 200, "")
		post("/api/app/mine/forget", "", `{"mobile":"`+m+`","code":"`+code+`","pwd":"again1234"}`, 422, "已使用")
		post("/api/app/mine/login/h5", "", `{"account":"alice_w","passWord":"newpass12"}`, 401, "")
		apitest.Scenario{URL: "/api/app/mine/info", Token: alice, ExpectedStatus: 401}.Run(t, h)
		alice = apitest.Data[struct {
			Token string `json:"token"`
		}](t, post("/api/app/mine/login/h5", "", `{"account":"alice_w","passWord":"reset1234"}`, 200, "")).Token

		// Devices: bob cannot see or end alice's sessions.
		res = apitest.Scenario{URL: "/api/app/mine/sessions", Token: alice, ExpectedStatus: 200}.Run(t, h)
		list := apitest.Data[struct {
			List []struct {
				ID      string `json:"id"`
				Current bool   `json:"current"`
			} `json:"list"`
		}](t, res).List
		if len(list) != 1 || !list[0].Current {
			t.Fatalf("sessions %+v", list)
		}
		post("/api/app/mine/sessions/revoke", bob, `{"id":"`+list[0].ID+`"}`, 404, "")
		post("/api/app/mine/sessions/revoke", alice, `{"id":"`+list[0].ID+`"}`, 422, "退出登录")
		post("/api/app/mine/sessions/revoke", alice, `{}`, 422, "")
		post("/api/app/mine/sessions/revoke", alice, `{"others":true}`, 200, "")
		apitest.Scenario{URL: "/api/app/mine/sessions", ExpectedStatus: 401}.Run(t, h)
		apitest.Scenario{URL: "/api/app/mine/info", Token: alice, ExpectedStatus: 200}.Run(t, h)
	}, "-test-mode")
}

// Without test mode the code reader does not exist.
func TestSMSReaderOnlyInTestMode(t *testing.T) {
	s := apptest.New(t, "sqlite")
	apitest.Scenario{URL: "/api/test/sms/last?mobile=13512345678", ExpectedStatus: 404}.Run(t, s.Handler)
	if s.App.SMSRecorder != nil {
		t.Fatal("a recorder outside test mode")
	}
}
