package app_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"prima/internal/app/apptest"
)

// TestRedemptionCodesAPI drives codes through the route table: operator
// only batches, a guest redeems one and the wallet shows it, a second try
// and another user's try are refused with their tips, the audit log holds
// the batch, on both engines.
func TestRedemptionCodesAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := newOps(t, s) // o.user is a guest
		body := `{"name":"开业福利","reward":{"coins":66,"coupons":1},"count":1,"usesPerCode":1}`
		o.call(t, "", "POST", "/api/admin/codes/batches", body, 401)
		o.call(t, o.user, "POST", "/api/admin/codes/batches", body, 401)
		o.call(t, o.user, "GET", "/api/admin/codes/batches", "", 401)
		made := decode[struct {
			Batch struct {
				ID int64 `json:"id"`
			} `json:"batch"`
			Codes []string `json:"codes"`
		}](t, o.call(t, o.op, "POST", "/api/admin/codes/batches", body, 200))
		if len(made.Codes) != 1 || made.Batch.ID == 0 {
			t.Fatalf("made %+v", made)
		}
		code, _ := json.Marshal(made.Codes[0])
		o.call(t, "", "POST", "/api/app/code/exchange", fmt.Sprintf(`{"code":%s}`, code), 401)
		red := decode[struct {
			Reward struct {
				Coins   int64 `json:"coins"`
				Coupons int   `json:"coupons"`
			} `json:"reward"`
		}](t, o.call(t, o.user, "POST", "/api/app/code/exchange", fmt.Sprintf(`{"code":%s}`, code), 200))
		if red.Reward.Coins != 66 || red.Reward.Coupons != 1 {
			t.Fatalf("redemption %+v", red)
		}
		w := decode[struct {
			Coins int64 `json:"coins"`
		}](t, o.call(t, o.user, "GET", "/api/app/mine/wallet", "", 200))
		if w.Coins != 66 {
			t.Fatalf("wallet coins %d, want 66", w.Coins)
		}
		o.call(t, o.user, "POST", "/api/app/code/exchange", fmt.Sprintf(`{"code":%s}`, code), 409, "你已兑换过该兑换码")
		o.call(t, o.app, "POST", "/api/app/code/exchange", fmt.Sprintf(`{"code":%s}`, code), 409, "兑换码已被使用")
		o.call(t, o.user, "POST", "/api/app/code/exchange", `{"code":"2345-6789-ABCD"}`, 404, "兑换码无效")
		recs := decode[struct {
			Total int `json:"total"`
		}](t, o.call(t, o.user, "GET", "/api/app/code/records", "", 200))
		if recs.Total != 1 {
			t.Fatalf("%d records", recs.Total)
		}
		o.call(t, o.op, "POST", "/api/admin/codes/batches/disable", fmt.Sprintf(`{"id":%d}`, made.Batch.ID), 200)
		if n := o.count(t, `SELECT COUNT(*) FROM audit_log WHERE action IN ('codes.batch.create', 'codes.batch.disable') AND actor_uid = ?`, o.opUID); n != 2 {
			t.Fatalf("%d audit rows, want 2", n)
		}
	})
}
