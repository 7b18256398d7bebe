package wallet

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// The new operator calls refuse what is not theirs to take with a clear
// 4xx and change nothing: bad cursors, ids, numbers, types, control
// characters, both single and bulk approval at once.
func TestMoneyConsoleCallsRefuseBadInput(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		f.s.Limiter = nil
		a := f.card(t, 1, "pw-one")
		f.earn(t, 1, 50_000)
		w, err := f.withdraw(1, 20_000, a.ID, "http-1")
		if err != nil {
			t.Fatal(err)
		}
		h := NewHandler(f.s)
		do := func(fn func(http.ResponseWriter, *http.Request) error, method, target, body string) int {
			t.Helper()
			var r *http.Request
			if body == "" {
				r = httptest.NewRequest(method, target, nil)
			} else {
				r = httptest.NewRequest(method, target, strings.NewReader(body))
				r.Header.Set("Content-Type", "application/json")
			}
			err := fn(httptest.NewRecorder(), r)
			if err == nil {
				return 200
			}
			if e, ok := asHTTP(withdrawErrs.Map(err)); ok {
				return e.Status
			}
			t.Errorf("%s %s: %v", method, target, err)
			return 500
		}
		for _, c := range []struct {
			fn     func(http.ResponseWriter, *http.Request) error
			method string
			target string
			body   string
			want   int
		}{
			{h.AdminWithdrawals, "GET", "/x?status=pending", "", 200},
			{h.AdminWithdrawals, "GET", "/x?cursor=zzz", "", 422},
			{h.AdminWithdrawals, "GET", "/x?cursor=k1.2", "", 422},
			{h.AdminWithdrawals, "GET", "/x?status=lost", "", 422},
			{h.AdminWithdrawals, "GET", "/x?uid=0", "", 422},
			{h.AdminWithdrawals, "GET", "/x?pageSize=51", "", 422},
			{h.AdminWithdrawRisk, "GET", "/x?orderNo=" + w.OrderNo, "", 200},
			{h.AdminWithdrawRisk, "GET", "/x", "", 422},
			{h.AdminWithdrawRisk, "GET", "/x?orderNo=W%00x", "", 422},
			{h.AdminWithdrawRisk, "GET", "/x?orderNo=W404", "", 404},
			{h.AdminSetWithdrawSettings, "POST", "/x", `{}`, 422},
			{h.AdminSetWithdrawSettings, "POST", "/x", `{"twoPersonAbove":-1}`, 422},
			{h.AdminSetWithdrawSettings, "POST", "/x", `{"twoPersonAbove":99999999999999}`, 422},
			{h.AdminSetWithdrawSettings, "POST", "/x", `{"twoPersonAbove":"100"}`, 400},
			{h.AdminSetWithdrawSettings, "POST", "/x", `{"twoPersonAbove":1.5}`, 400},
			{h.AdminApprove, "POST", "/x", `{"orderNo":"` + w.OrderNo + `","orderNos":["` + w.OrderNo + `"]}`, 422},
			{h.AdminApprove, "POST", "/x", `{"orderNos":[]}`, 422},
			{h.AdminApprove, "POST", "/x", `{"orderNos":"W1"}`, 400},
			{h.AdminApprove, "POST", "/x", `{"orderNos":[` + strings.Repeat(`"W1",`, 100) + `"W1"]}`, 422},
			{h.AdminApprove, "POST", "/x", `{"orderNo":"W\u0000"}`, 422},
			{h.AdminReject, "POST", "/x", `{"orderNo":"` + w.OrderNo + `","reason":"a\u0007b"}`, 422},
			{h.AdminWallet, "GET", "/x?uid=1&account=cash", "", 422},
			{h.AdminWallet, "GET", "/x?uid=1&cursor=k1.5.1", "", 422},
			{h.AdminWallet, "GET", "/x?uid=1&cursor=k1.1", "", 422},
			{h.AdminWallet, "GET", "/x?uid=-1", "", 422},
			{h.AdminWallet, "GET", "/x?uid=424242", "", 404},
			{h.AdminWallet, "GET", "/x?uid=1&account=points", "", 200},
		} {
			if got := do(c.fn, c.method, c.target, c.body); got != c.want {
				t.Errorf("%s %s %s: %d, want %d", c.method, c.target, c.body, got, c.want)
			}
		}
		// Nothing moved: still pending, no first approval, threshold off.
		got, _ := f.s.AdminWithdrawalPage(ctx, WithdrawalQuery{Status: StatusPending, PageSize: 5})
		if len(got.List) != 1 || got.List[0].FirstApproverID != 0 {
			t.Fatalf("after the refusals: %+v", got.List)
		}
		if st, _ := f.s.WithdrawSettings(ctx); st.TwoPersonAbove != 0 {
			t.Fatalf("threshold %d", st.TwoPersonAbove)
		}
		var n int
		d.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log`).Scan(&n)
		if n != 0 {
			t.Fatalf("%d audit rows after refusals", n)
		}
	})
}
