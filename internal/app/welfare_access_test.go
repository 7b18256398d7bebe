package app_test

import (
	"context"
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/rewards"
)

// The welfare calls over HTTP: who may call (no token 401, a user's phone-app
// token on the operator calls 401), bad bodies refused with nothing changed, and the
// operator's changes audited.
func TestWelfareCallsOverHTTP(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		ctx := context.Background()
		user := apitest.GuestLogin(t, s.Handler, apitest.DevID(1))
		for _, c := range []struct{ method, url, body string }{
			{"GET", "/api/app/active/checkin", ""},
			{"POST", "/api/app/active/checkin", `{}`},
			{"GET", "/api/app/active/task", ""},
			{"POST", "/api/app/active/task/receive", `{"id":1}`},
			{"GET", "/api/app/active/point/prize", ""},
			{"POST", "/api/app/active/point/prize", `{"id":1,"idempotencyKey":"k-00000001"}`},
			{"GET", "/api/app/active/point/records", ""},
		} {
			apitest.Scenario{Name: "no token " + c.method + c.url, Method: c.method, URL: c.url, Body: c.body, ExpectedStatus: 401}.Run(t, s.Handler)
		}
		for _, c := range []struct{ method, url, body string }{
			{"GET", "/api/admin/rewards/checkin", ""},
			{"POST", "/api/admin/rewards/checkin", `{"days":[{"points":1},{"points":1},{"points":1},{"points":1},{"points":1},{"points":1},{"points":1}]}`},
			{"GET", "/api/admin/rewards/tasks", ""},
			{"POST", "/api/admin/rewards/tasks", `{"title":"x","kind":"daily","metric":"like","target":1,"reward":{"points":1},"active":true}`},
			{"GET", "/api/admin/rewards/prizes", ""},
			{"POST", "/api/admin/rewards/prizes", `{"title":"x","cost":1,"reward":{"coins":1000},"active":true}`},
		} {
			apitest.Scenario{Name: "user on " + c.method + c.url, Method: c.method, URL: c.url, Token: user, Body: c.body, ExpectedStatus: 401}.Run(t, s.Handler)
		}
		var n int
		if err := s.App.DB.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM welfare_tasks) + (SELECT COUNT(*) FROM point_prizes) + (SELECT COUNT(*) FROM audit_log) + (SELECT COUNT(*) FROM checkin_cycle WHERE points = 1)`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("%d rows after refused calls (%v)", n, err)
		}

		// Bad bodies: nothing changes.
		apitest.Run(t, s.Handler,
			apitest.Scenario{Name: "receive no id", Method: "POST", URL: "/api/app/active/task/receive", Token: user, Body: `{}`, ExpectedStatus: 422, ExpectedTip: "缺少参数 id"},
			apitest.Scenario{Name: "receive negative id", Method: "POST", URL: "/api/app/active/task/receive", Token: user, Body: `{"id":-3}`, ExpectedStatus: 422},
			apitest.Scenario{Name: "receive string id", Method: "POST", URL: "/api/app/active/task/receive", Token: user, Body: `{"id":"1"}`, ExpectedStatus: 400},
			apitest.Scenario{Name: "receive unknown", Method: "POST", URL: "/api/app/active/task/receive", Token: user, Body: `{"id":99999}`, ExpectedStatus: 404, ExpectedTip: "任务不存在"},
			apitest.Scenario{Name: "prize no key", Method: "POST", URL: "/api/app/active/point/prize", Token: user, Body: `{"id":1}`, ExpectedStatus: 422, ExpectedTip: "idempotencyKey"},
			apitest.Scenario{Name: "prize huge id", Method: "POST", URL: "/api/app/active/point/prize", Token: user, Body: `{"id":9007199254740993,"idempotencyKey":"k-00000001"}`, ExpectedStatus: 422},
			apitest.Scenario{Name: "checkin malformed", Method: "POST", URL: "/api/app/active/checkin", Token: user, Body: `{"points":`, ExpectedStatus: 400},
			apitest.Scenario{Name: "records page size", URL: "/api/app/active/point/records?pageSize=5000", Token: user, ExpectedStatus: 422},
		)

		// Check in once; again is 409 and grants nothing.
		apitest.Run(t, s.Handler,
			apitest.Scenario{Name: "checkin", Method: "POST", URL: "/api/app/active/checkin", Token: user, Body: `{}`, ExpectedStatus: 200, ExpectedContent: []string{`"streak":1`, `"points":5`}},
			apitest.Scenario{Name: "checkin again", Method: "POST", URL: "/api/app/active/checkin", Token: user, Body: `{}`, ExpectedStatus: 409, ExpectedTip: "今日已签到"},
			apitest.Scenario{Name: "state", URL: "/api/app/active/checkin", Token: user, ExpectedStatus: 200, ExpectedContent: []string{`"checkedToday":true`, `"points":5`}},
			apitest.Scenario{Name: "records", URL: "/api/app/active/point/records", Token: user, ExpectedStatus: 200, ExpectedContent: []string{`"total":1`, `"kind":"checkin"`}},
		)

		// The operator: a bad prize refused, a good one audited.
		op := s.Operator(t, "ops_1", httpx.RoleOwner).Token
		apitest.Run(t, s.Handler,
			apitest.Scenario{Name: "bad prize", Method: "POST", URL: "/api/admin/rewards/prizes", Token: op, Body: `{"title":"x","cost":1,"reward":{"coins":-1},"active":true}`, ExpectedStatus: 422},
			apitest.Scenario{Name: "six days", Method: "POST", URL: "/api/admin/rewards/checkin", Token: op, Body: `{"days":[{"points":1},{"points":1},{"points":1},{"points":1},{"points":1},{"points":1}]}`, ExpectedStatus: 422},
			apitest.Scenario{Name: "prize", Method: "POST", URL: "/api/admin/rewards/prizes", Token: op, Body: `{"title":"5金币","cost":5,"reward":{"coins":5},"stock":1,"active":true}`, ExpectedStatus: 200},
			apitest.Scenario{Name: "exchange", Method: "POST", URL: "/api/app/active/point/prize", Token: user, Body: `{"id":1,"idempotencyKey":"k-00000001"}`, ExpectedStatus: 200, ExpectedContent: []string{`"points":0`}},
			apitest.Scenario{Name: "replay", Method: "POST", URL: "/api/app/active/point/prize", Token: user, Body: `{"id":1,"idempotencyKey":"k-00000001"}`, ExpectedStatus: 200, ExpectedContent: []string{`"replayed":true`}},
			apitest.Scenario{Name: "sold out", Method: "POST", URL: "/api/app/active/point/prize", Token: user, Body: `{"id":1,"idempotencyKey":"k-00000002"}`, ExpectedStatus: 409, ExpectedTip: "奖品已兑完"},
		)
		if err := s.App.DB.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE action LIKE 'rewards.%'`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("%d rewards audit rows (%v), want 1", n, err)
		}
	})
}

// Every task metric an operator may pick is counted by the domain that
// owns its rows: a metric left unwired would fail every task list that
// shows it.
func TestEveryTaskMetricHasACounter(t *testing.T) {
	s := apptest.New(t, db.SQLite)
	for metric := range rewards.Metrics {
		if s.App.Welfare.Counters[metric] == nil {
			t.Errorf("metric %q has no counter wired", metric)
		}
	}
}
