package app_test

import (
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
)

// The certificate routes are mounted with their gates: showing and
// resetting need a user; extraction is public but takes only multipart;
// a certificate login without a valid credential is refused, changing
// nothing (the account package tests the rules themselves).
func TestCertificateRoutes(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		user := apitest.GuestLogin(t, s.Handler, apitest.DevID(1))
		apitest.Run(t, s.Handler,
			apitest.Scenario{Name: "qr without token", URL: "/api/app/mine/certificate/qr", ExpectedStatus: 401},
			apitest.Scenario{Name: "reset without token", Method: "POST", URL: "/api/app/mine/certificate/reset", ExpectedStatus: 401},
			apitest.Scenario{Name: "qr", URL: "/api/app/mine/certificate/qr", Token: user, ExpectedStatus: 200, ExpectedContent: []string{`"qrCnt":"`}},
			apitest.Scenario{Name: "extract JSON", Method: "POST", URL: "/api/app/mine/qrcode/extract", Body: `{}`, ExpectedStatus: 415},
			apitest.Scenario{Name: "extract no file", Method: "POST", URL: "/api/app/mine/qrcode/extract", Body: "--x--\r\n",
				Headers: map[string]string{"Content-Type": "multipart/form-data; boundary=x"}, ExpectedStatus: 400},
			apitest.Scenario{Name: "forged certificate login", Method: "POST", URL: "/api/app/mine/login",
				Body: `{"devID":"` + apitest.DevID(2) + `","sysType":"ios","cutInfos":"","uid":1,"qrCnt":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}`, ExpectedStatus: 401},
		)
		var n int
		if err := s.App.DB.QueryRow(t.Context(), `SELECT COUNT(*) FROM devices WHERE dev_id = ?`, apitest.DevID(2)).Scan(&n); err != nil || n != 0 {
			t.Fatalf("a refused certificate login bound the device (%d, %v)", n, err)
		}
	})
}
