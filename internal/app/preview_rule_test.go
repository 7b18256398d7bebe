package app_test

import (
	"strings"
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
)

// The preview rule's operator calls: operators only, validated, audited.
func TestPreviewRuleCalls(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		user := apitest.GuestLogin(t, s.Handler, apitest.DevID(1))
		o := newOps(t, s)
		apitest.Run(t, s.Handler,
			apitest.Scenario{Name: "no token", URL: "/api/admin/preview", ExpectedStatus: 401},
			apitest.Scenario{Name: "a user reads", URL: "/api/admin/preview", Token: user, ExpectedStatus: 401},
			apitest.Scenario{Name: "a user sets", Method: "POST", URL: "/api/admin/preview", Token: user, Body: `{"maxSeconds":60}`, ExpectedStatus: 401},
			apitest.Scenario{Name: "defaults", URL: "/api/admin/preview", Token: o.op, ExpectedStatus: 200,
				ExpectedContent: []string{`"maxSeconds":10`, `"maxFraction":{"num":1,"den":3}`, `"updatedAt":0`}},
			apitest.Scenario{Name: "more than half", Method: "POST", URL: "/api/admin/preview", Token: o.op, Body: `{"maxFraction":{"num":2,"den":3}}`,
				ExpectedStatus: 422, ExpectedTip: "试看比例应在 0 到 1/2 之间"},
			apitest.Scenario{Name: "negative", Method: "POST", URL: "/api/admin/preview", Token: o.op, Body: `{"maxSeconds":-5}`, ExpectedStatus: 422},
			apitest.Scenario{Name: "a float", Method: "POST", URL: "/api/admin/preview", Token: o.op, Body: `{"maxSeconds":7.5}`, ExpectedStatus: 400},
			apitest.Scenario{Name: "nothing", Method: "POST", URL: "/api/admin/preview", Token: o.op, Body: `{}`, ExpectedStatus: 422},
			apitest.Scenario{Name: "set", Method: "POST", URL: "/api/admin/preview", Token: o.op, Body: `{"maxSeconds":6,"maxFraction":{"num":1,"den":4}}`,
				ExpectedStatus: 200, ExpectedContent: []string{`"maxSeconds":6`, `"maxFraction":{"num":1,"den":4}`}},
			apitest.Scenario{Name: "read back", URL: "/api/admin/preview", Token: o.op, ExpectedStatus: 200,
				ExpectedContent: []string{`"maxSeconds":6`, `"num":1,"den":4`}},
			apitest.Scenario{Name: "audited", URL: "/api/admin/audit?target=preview_rule", Token: o.op, ExpectedStatus: 200,
				ExpectedContent: []string{`"action":"preview.rule"`, `"nextCursor":null`}, Check: func(t *testing.T, res *apitest.Response) {
					if n := strings.Count(string(res.Envelope.Data), `"action":`); n != 1 {
						t.Fatalf("%d rows: %s", n, res.Envelope.Data)
					}
				}},
		)
	})
}
