package app_test

import (
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
)

// Who may call the support calls: the personal ones need a token (none ->
// 401), every operator call a console token (a user's phone-app token -> 401), and
// either refusal stores nothing though the bodies would be valid. Customer
// service and app clicks need no token.
func TestSupportCallsWhoMayCall(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		user := apitest.GuestLogin(t, s.Handler, apitest.DevID(1))
		settled := `{"name":"阿狸工作室","contact":"tg@ali","intro":"专注原创短视频三年，每周更新。","category":"video"}`
		for _, c := range []struct{ method, url, body string }{
			{"POST", "/api/app/mine/feedback", `{"content":"反馈内容足够长"}`},
			{"GET", "/api/app/mine/feedback", ""},
			{"POST", "/api/app/mine/settled", settled},
			{"GET", "/api/app/mine/settled", ""},
		} {
			apitest.Scenario{Name: "no token " + c.url, Method: c.method, URL: c.url, Body: c.body, ExpectedStatus: 401}.Run(t, s.Handler)
		}
		for _, c := range []struct{ method, url, body string }{
			{"GET", "/api/admin/source", ""},
			{"POST", "/api/admin/source", `{"key":"CUST","entries":[{"title":"客服","url":"https://chat.example/x"}]}`},
			{"GET", "/api/admin/apps/clicks", ""},
			{"GET", "/api/admin/feedback", ""},
			{"POST", "/api/admin/feedback/reply", `{"id":1,"reply":"好的"}`},
			{"GET", "/api/admin/settled", ""},
			{"POST", "/api/admin/settled/approve", `{"id":1}`},
			{"POST", "/api/admin/settled/reject", `{"id":1,"reason":"x"}`},
		} {
			apitest.Scenario{Name: "user on " + c.url, Method: c.method, URL: c.url, Token: user, Body: c.body, ExpectedStatus: 401}.Run(t, s.Handler)
		}
		var n int
		if err := s.App.DB.QueryRow(t.Context(), `SELECT (SELECT COUNT(*) FROM feedback) + (SELECT COUNT(*) FROM creator_applications) +
			(SELECT COUNT(*) FROM source_entries WHERE config_key = 'CUST' AND url LIKE 'https://chat%') + (SELECT COUNT(*) FROM audit_log)`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("%d rows after refused calls (%v)", n, err)
		}
		// The public ones answer without a token: nothing configured yet.
		apitest.Scenario{Name: "whiteSign", URL: "/api/app/im/whiteSign", ExpectedStatus: 404, ExpectedTip: "客服暂未开通"}.Run(t, s.Handler)
		apitest.Scenario{Name: "app click", Method: "POST", URL: "/api/app/apps/click", Body: `{"id":1}`, ExpectedStatus: 404}.Run(t, s.Handler)
		// A guest sends feedback and applies.
		apitest.Scenario{Name: "feedback", Method: "POST", URL: "/api/app/mine/feedback", Token: user, Body: `{"content":"反馈内容足够长","images":[]}`, ExpectedStatus: 200}.Run(t, s.Handler)
		apitest.Scenario{Name: "apply", Method: "POST", URL: "/api/app/mine/settled", Token: user, Body: settled, ExpectedStatus: 200, ExpectedContent: []string{`"state":"pending"`}}.Run(t, s.Handler)
		apitest.Scenario{Name: "apply again", Method: "POST", URL: "/api/app/mine/settled", Token: user, Body: settled, ExpectedStatus: 409}.Run(t, s.Handler)
		apitest.Scenario{Name: "NUL in feedback", Method: "POST", URL: "/api/app/mine/feedback", Token: user, Body: `{"content":"反馈内容\u0000足够长"}`, ExpectedStatus: 422}.Run(t, s.Handler)
	})
}
