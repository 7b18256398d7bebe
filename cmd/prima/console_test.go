package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"prima/internal/operator"
)

// consoleSignIn signs an operator without TOTP in to the console of the
// server at base the way a person does: the sign-in answers 428 with an
// enrolment ticket and the secret, the code is computed from the secret,
// and the enrolment answers the console token.
func consoleSignIn(t *testing.T, base, account, password string) string {
	t.Helper()
	var enrol struct {
		Data struct {
			Enrol struct {
				Ticket string `json:"ticket"`
				Secret string `json:"secret"`
			} `json:"enrol"`
		} `json:"data"`
	}
	if code := postJSON(t, base+"/api/admin/session", map[string]string{"account": account, "passWord": password, "code": ""}, &enrol); code != http.StatusPreconditionRequired {
		t.Fatalf("console sign-in of %s: %d, want 428", account, code)
	}
	totp, err := operator.Code(enrol.Data.Enrol.Secret, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var signed struct {
		Data struct {
			Token string `json:"token"`
		} `json:"data"`
	}
	if code := postJSON(t, base+"/api/admin/session/enrol", map[string]string{"ticket": enrol.Data.Enrol.Ticket, "code": totp}, &signed); code != 200 || signed.Data.Token == "" {
		t.Fatalf("console enrolment of %s: %d", account, code)
	}
	return signed.Data.Token
}

func postJSON(t *testing.T, url string, body, out any) int {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	return resp.StatusCode
}
