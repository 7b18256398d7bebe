package app_test

import (
	"fmt"
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
)

// Invitations over HTTP: A's code, B arriving with it on the clipboard,
// registering, A's list and coins; the refusals as the client sees them.
func TestInviteAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		h := s.Handler
		post := func(url, token, body string, status int, tip string) *apitest.Response {
			t.Helper()
			return apitest.Scenario{Method: "POST", URL: url, Token: token, Body: body, ExpectedStatus: status, ExpectedTip: tip}.Run(t, h)
		}
		post("/api/app/userinvite/info", "", `{}`, 401, "")
		a, aID := registered(t, s, 31, "alice_i", "secret12")
		info := apitest.Data[struct {
			Code    string `json:"code"`
			Link    string `json:"link"`
			CanBind bool   `json:"canBind"`
		}](t, post("/api/app/userinvite/info", a, `{}`, 200, ""))
		if len(info.Code) != 6 || info.Link == "" {
			t.Fatalf("info %+v", info)
		}
		post("/api/app/mine/inviteBind", a, `{"code":"`+info.Code+`"}`, 422, "不能填写自己的邀请码")
		post("/api/app/mine/inviteBind", a, `{"code":"ZZZZZZ"}`, 404, "邀请码不存在")
		post("/api/app/mine/inviteBind", a, `{"code":7}`, 400, "")
		// B's first launch carries A's link as clipboard text.
		res := post("/api/app/mine/login", "", fmt.Sprintf(`{"devID":%q,"sysType":"h5","cutInfos":"https://x/?ic=%s"}`, apitest.DevID(32), info.Code), 200, "")
		b := apitest.Data[struct {
			Token string `json:"token"`
		}](t, res).Token
		post("/api/app/mine/inviteBind", b, `{"code":"`+info.Code+`"}`, 409, "你已绑定过邀请人")
		post("/api/app/userinvite/info", b, ``, 200, ``)
		apitest.Scenario{Method: "POST", URL: "/api/app/userinvite/info", Token: b, ExpectedStatus: 200,
			ExpectedContent: []string{fmt.Sprintf(`"inviter":{"uid":%d`, aID), `"canBind":false`}}.Run(t, h)
		post("/api/app/mine/register", b, `{"account":"bob_i","passWord":"secret34"}`, 200, "")
		apitest.Scenario{Method: "POST", URL: "/api/app/userinvite/userlist", Token: a, Body: `{"pageNumber":1,"pageSize":10}`, ExpectedStatus: 200,
			ExpectedContent: []string{`"total":1`, `"registered":true`, `"rewardCoins":50`, `"rewardState":"rewarded"`}}.Run(t, h)
		post("/api/app/userinvite/userlist", a, `{"pageNumber":0}`, 422, "")
		post("/api/app/userinvite/userlist", a, `{"pageSize":1000}`, 422, "")
		// Operators only, audited.
		post("/api/admin/rewards/invite", a, `{"rewardCoins":10,"windowDays":7,"dailyCap":5}`, 401, "")
		op := operatorToken(t, s)
		post("/api/admin/rewards/invite", op, `{"rewardCoins":-1,"windowDays":7,"dailyCap":5}`, 422, "")
		post("/api/admin/rewards/invite", op, `{"rewardCoins":10,"windowDays":7,"dailyCap":5,"rules":"一\n二"}`, 200, "")
		apitest.Scenario{URL: "/api/admin/rewards/invite", Token: op, ExpectedStatus: 200, ExpectedContent: []string{`"rewardCoins":10`}}.Run(t, h)
		apitest.Scenario{URL: fmt.Sprintf("/api/admin/invites?uid=%d", aID), Token: op, ExpectedStatus: 200, ExpectedContent: []string{`"name":"bob_i"`}}.Run(t, h)
		if n := auditRows(t, s, "invite.config"); n != 1 {
			t.Fatalf("%d audit rows", n)
		}
	})
}
