package app_test

import (
	"fmt"
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
)

// The promoter page and its review over HTTP: who may call what, the
// application's refusals as the client sees them, the operator's settings
// and decision, audited.
func TestPromoterAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		h := s.Handler
		run := func(method, url, token, body string, status int, tip string, content ...string) *apitest.Response {
			t.Helper()
			return apitest.Scenario{Method: method, URL: url, Token: token, Body: body, ExpectedStatus: status, ExpectedTip: tip, ExpectedContent: content}.Run(t, h)
		}
		run("GET", "/api/app/mine/promoter", "", "", 401, "")
		guest := apitest.GuestLogin(t, h, apitest.DevID(41))
		run("GET", "/api/app/mine/promoter", guest, "", 403, "请先注册账号")
		run("POST", "/api/app/mine/promoter/apply", guest, `{"channel":"抖音","contact":"tg@g"}`, 403, "请先注册账号")
		a, aID := registered(t, s, 42, "amy_p", "secret12")
		run("GET", "/api/app/mine/promoter", a, "", 200, "", `"state":"none"`, `"tier":"member"`, `"rates":[1000,300,100]`,
			`"promoterRates":[2000,500,200]`, `"settleDays":7`, `"application":null`, `"link":"/?ic=`)
		run("POST", "/api/app/mine/promoter/apply", a, `{"channel":"","contact":"tg@amy"}`, 422, "channel")
		run("POST", "/api/app/mine/promoter/apply", a, `{"channel":"抖音","contact":"tg"}`, 422, "contact")
		run("POST", "/api/app/mine/promoter/apply", a, `{"channel":"抖\u0000音","contact":"tg@amy"}`, 422, "channel")
		run("POST", "/api/app/mine/promoter/apply", a, `{"channel":7,"contact":"tg@amy"}`, 400, "")
		run("POST", "/api/app/mine/promoter/apply", a, `{"channel":"抖音","contact":"tg@amy","intro":"三万粉丝\n日更"}`, 200, "", `"state":"pending"`)
		run("POST", "/api/app/mine/promoter/apply", a, `{"channel":"抖音","contact":"tg@amy"}`, 409, "你的推广员申请正在审核中")

		op := operatorToken(t, s)
		run("GET", "/api/admin/promoters", a, "", 401, "")         // a phone-app token opens nothing under /api/admin
		run("GET", "/api/admin/commission/config", a, "", 401, "") // a phone-app token opens nothing under /api/admin
		run("GET", "/api/admin/promoters?state=pending", op, "", 200, "", `"total":1`, fmt.Sprintf(`"uid":%d`, aID), `"account":"amy_p"`, `"channel":"抖音"`)
		run("GET", "/api/admin/promoters?state=nope", op, "", 422, "state")
		run("GET", "/api/admin/promoters?pageNumber=-1", op, "", 422, "pageNumber")
		run("GET", "/api/admin/promoters?pageSize=100000", op, "", 422, "pageSize")
		run("POST", "/api/admin/promoters/decide", op, `{"id":1,"approve":false}`, 422, "reason")
		run("POST", "/api/admin/promoters/decide", op, `{"id":999,"approve":true}`, 404, "申请不存在")
		run("POST", "/api/admin/promoters/decide", op, `{"approve":true}`, 422, "id")
		run("POST", "/api/admin/promoters/decide", op, `{"id":1}`, 422, "approve")
		run("POST", "/api/admin/promoters/decide", op, `{"id":1,"approve":true}`, 200, "", `"changed":true`, `"state":"approved"`)
		run("POST", "/api/admin/promoters/decide", op, `{"id":1,"approve":false,"reason":"晚了"}`, 200, "", `"changed":false`, `"state":"approved"`)
		run("GET", "/api/app/mine/promoter", a, "", 200, "", `"state":"approved"`, `"tier":"promoter"`, `"rates":[2000,500,200]`)
		run("POST", "/api/app/mine/promoter/apply", a, `{"channel":"抖音","contact":"tg@amy"}`, 409, "你已是推广员")
		if n := auditRows(t, s, "promoter.approve"); n != 1 {
			t.Fatalf("%d approve audit rows", n)
		}

		run("GET", "/api/admin/commission/config", op, "", 200, "", `"levels":[1000,300,100]`, `"inviteReward":"off"`, `"creatorShareBps":5000`)
		run("POST", "/api/admin/commission/config", op, `{"levels":[1000],"promoterLevels":[2000],"settleDays":0,"creatorShareBps":5000}`, 422, "inviteReward")
		run("POST", "/api/admin/commission/config", op, `{"levels":[6000],"promoterLevels":[2000],"settleDays":0,"creatorShareBps":5000,"inviteReward":"off"}`, 422, "levels")
		run("POST", "/api/admin/commission/config", op, `{"levels":[1000],"promoterLevels":[2000],"settleDays":0.5,"creatorShareBps":5000,"inviteReward":"off"}`, 400, "")
		run("POST", "/api/admin/commission/config", op, `{"levels":[1500,500],"promoterLevels":[2500,800],"settleDays":0,"creatorShareBps":6000,"inviteReward":"phone"}`, 200, "",
			`"levels":[1500,500]`, `"settleDays":0`, `"inviteReward":"phone"`)
		run("GET", "/api/app/mine/promoter", a, "", 200, "", `"rates":[2500,800]`, `"memberRates":[1500,500]`, `"settleDays":0`)
		if n := auditRows(t, s, "commission.config"); n != 1 {
			t.Fatalf("%d config audit rows", n)
		}
	})
}
