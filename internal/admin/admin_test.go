package admin_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"prima/internal/account"
	"prima/internal/admin"
	"prima/internal/app/apptest"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

type envelope struct {
	Code int             `json:"code"`
	Tip  string          `json:"tip"`
	Msg  string          `json:"msg"`
	Data json.RawMessage `json:"data"`
}

// fixture is an install with one operator (an owner, signed in to the
// console and to the phone app), one registered user and one guest.
type fixture struct {
	s                        *apptest.Server
	op                       *apptest.Operator
	opUID, userUID, guestUID int64
	opApp, userToken, guestT string
}

func newFixture(t *testing.T, s *apptest.Server) *fixture {
	t.Helper()
	ctx := context.Background()
	f := &fixture{s: s, op: s.Operator(t, "ops_1", httpx.RoleOwner)}
	f.opUID = f.op.UID
	l, err := s.App.Account.PasswordLogin(ctx, account.PasswordLoginInput{Account: "ops_1", Password: apptest.OperatorPassword, IP: "10.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	f.opApp = l.Token
	u, err := s.App.Account.Register(ctx, account.RegisterInput{Account: "kate", Password: "pass123", IP: "10.0.0.2"})
	if err != nil {
		t.Fatal(err)
	}
	f.userUID, f.userToken = u.User.ID, u.Token
	g, err := s.App.Account.GuestLogin(ctx, account.GuestLoginInput{DevID: "abcdefghABCDEFGH1772366400000", SysType: "ios", IP: "10.0.0.3"})
	if err != nil {
		t.Fatal(err)
	}
	f.guestUID, f.guestT = g.User.ID, g.Token
	return f
}

// do sends a request as if through a proxy at 192.0.2.9 (trusted by the
// test server, so the request id it sends lands in the audit rows).
func (f *fixture) do(t *testing.T, method, path, body, token string) (int, envelope) {
	t.Helper()
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	r.RemoteAddr = "192.0.2.9:5000"
	r.Header.Set("X-Request-Id", "test-req")
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	rec := httptest.NewRecorder()
	f.s.Handler.ServeHTTP(rec, r)
	var e envelope
	if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil {
		t.Fatalf("%s %s: not an envelope: %s", method, path, rec.Body)
	}
	if e.Code != rec.Code {
		t.Fatalf("%s %s: status %d but code %d", method, path, rec.Code, e.Code)
	}
	if rec.Code != 200 && e.Tip == "" {
		t.Fatalf("%s %s: an error without a tip: %s", method, path, rec.Body)
	}
	return rec.Code, e
}

func (f *fixture) auditCount(t *testing.T) int {
	t.Helper()
	var n int
	if err := f.s.App.DB.QueryRow(context.Background(), `SELECT COUNT(*) FROM audit_log`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

const trusted = "-trusted-proxies"

func each(t *testing.T, fn func(t *testing.T, f *fixture)) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) { fn(t, newFixture(t, s)) }, trusted, "192.0.2.0/24")
}

// Only a console token opens the operator API: no token, a garbage token
// and every phone-app token (a user's, a guest's, the operator's own) are
// 401, for known and unknown paths alike, and change nothing.
func TestOnlyOperatorsReachTheAdminAPI(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		calls := []struct{ method, path, body string }{
			{"GET", "/api/admin/users?account=kate", ""},
			{"POST", "/api/admin/operators/role", fmt.Sprintf(`{"uid":%d,"role":"owner"}`, f.userUID)},
			{"POST", "/api/admin/users/sessions/revoke", fmt.Sprintf(`{"uid":%d}`, f.opUID)},
			{"GET", "/api/admin/audit", ""},
			{"GET", "/api/admin/no/such/call", ""},
		}
		before := f.auditCount(t)
		for _, c := range calls {
			if code, e := f.do(t, c.method, c.path, c.body, ""); code != 401 || e.Tip != "请先登录" {
				t.Errorf("%s %s without a token: %d %q", c.method, c.path, code, e.Tip)
			}
			if code, _ := f.do(t, c.method, c.path, c.body, "garbage"); code != 401 {
				t.Errorf("%s %s with a bad token: %d", c.method, c.path, code)
			}
			for _, tok := range []string{f.userToken, f.guestT, f.opApp} {
				if code, e := f.do(t, c.method, c.path, c.body, tok); code != 401 || e.Tip != "登录已过期，请重新登录" {
					t.Errorf("%s %s with a phone-app token: %d %q", c.method, c.path, code, e.Tip)
				}
			}
		}
		if n := f.auditCount(t); n != before {
			t.Fatalf("refused calls wrote %d audit rows", n-before)
		}
		if u, _ := f.s.App.Account.User(context.Background(), f.userUID); u.Role != httpx.RoleUser {
			t.Fatalf("a refused call promoted the user")
		}
		if code, _ := f.do(t, "GET", "/api/admin/no/such/call", "", f.op.Token); code != 404 {
			t.Fatalf("unknown admin call as operator: %d", code)
		}
	})
}

func TestAdminUsersAndAudit(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		op := f.op.Token
		// Lookup by account (any case) and by uid.
		code, e := f.do(t, "GET", "/api/admin/users?account=KATE", "", op)
		var v admin.UserView
		if code != 200 || json.Unmarshal(e.Data, &v) != nil || v.UID != f.userUID || v.Role != "user" || v.Account == nil || *v.Account != "kate" || v.LiveSessions != 1 {
			t.Fatalf("lookup kate: %d %s", code, e.Data)
		}
		if strings.Contains(string(e.Data), "argon2") || strings.Contains(string(e.Data), "password") {
			t.Fatalf("the password hash leaked: %s", e.Data)
		}
		code, e = f.do(t, "GET", fmt.Sprintf("/api/admin/users?uid=%d", f.guestUID), "", op)
		if code != 200 || json.Unmarshal(e.Data, &v) != nil || !v.IsGuest || v.Account != nil {
			t.Fatalf("lookup guest: %d %s", code, e.Data)
		}

		// Make kate an owner. Her phone-app token still opens nothing: she
		// signs in to the console (and enrols) first.
		code, e = f.do(t, "POST", "/api/admin/operators/role", fmt.Sprintf(`{"uid":%d,"role":"owner"}`, f.userUID), op)
		if code != 200 || !strings.Contains(string(e.Data), `"role":"owner"`) {
			t.Fatalf("promote: %d %s", code, e.Data)
		}
		if u, _ := f.s.App.Account.User(context.Background(), f.userUID); u.Role != httpx.RoleOperator {
			t.Fatalf("kate's users row: %q", u.Role)
		}
		if code, _ := f.do(t, "GET", "/api/admin/audit", "", f.userToken); code != 401 {
			t.Fatalf("kate's phone-app token after promotion: %d", code)
		}
		kate := consoleSignIn(t, f, "kate", "pass123")
		if code, _ := f.do(t, "GET", "/api/admin/audit", "", kate); code != 200 {
			t.Fatalf("kate in the console: %d", code)
		}
		// kate takes ops out of the console; ops's token loses the API on
		// its next call.
		if code, e := f.do(t, "POST", "/api/admin/operators/role", fmt.Sprintf(`{"uid":%d,"role":"user"}`, f.opUID), kate); code != 200 {
			t.Fatalf("demote ops: %d %s", code, e.Tip)
		}
		if code, _ := f.do(t, "GET", "/api/admin/audit", "", op); code != 401 {
			t.Fatalf("ops after demotion: %d", code)
		}
		// kate is the last owner now and cannot step down.
		for _, role := range []string{"user", "content"} {
			if code, e := f.do(t, "POST", "/api/admin/operators/role", fmt.Sprintf(`{"uid":%d,"role":%q}`, f.userUID, role), kate); code != 409 || !strings.Contains(e.Tip, "最后一位") {
				t.Fatalf("the last owner to %s: %d %q", role, code, e.Tip)
			}
		}
		// Sign ops out of the phone app everywhere.
		code, e = f.do(t, "POST", "/api/admin/users/sessions/revoke", fmt.Sprintf(`{"uid":%d}`, f.opUID), kate)
		if code != 200 || string(e.Data) != fmt.Sprintf(`{"revoked":1,"uid":%d}`, f.opUID) {
			t.Fatalf("revoke: %d %s", code, e.Data)
		}
		if _, err := f.s.App.Account.Authenticate(context.Background(), f.opApp); err == nil {
			t.Fatal("ops's phone-app token survived the revoke")
		}

		// The user rows of the log, newest first: revoke, demote, promote,
		// the CLI's create.
		code, e = f.do(t, "GET", "/api/admin/audit?limit=10&target=user", "", kate)
		var page admin.AuditPage
		if code != 200 || json.Unmarshal(e.Data, &page) != nil {
			t.Fatalf("audit: %d %s", code, e.Data)
		}
		want := []struct {
			actor  int64
			action string
			target int64
		}{
			{f.userUID, account.ActionSessionsRevoke, f.opUID},
			{f.userUID, account.ActionUserRole, f.opUID},
			{f.opUID, account.ActionUserRole, f.userUID},
			{audit.CLI, account.ActionUserCreate, f.opUID},
		}
		if len(page.List) != len(want) || page.NextCursor != nil {
			t.Fatalf("audit page %s", e.Data)
		}
		for i, w := range want {
			r := page.List[i]
			if r.Actor != w.actor || r.Action != w.action || r.Target != fmt.Sprint("user:", w.target) {
				t.Errorf("row %d = %+v, want %+v", i, r, w)
			}
			if w.actor != audit.CLI && (r.IP != "192.0.2.9" || r.RequestID != "test-req") {
				t.Errorf("row %d ip %q request %q", i, r.IP, r.RequestID)
			}
			if len(r.Hash) != 64 || len(r.PrevHash) != 64 || r.At.IsZero() {
				t.Errorf("row %d hash %q prev %q at %v", i, r.Hash, r.PrevHash, r.At)
			}
		}
		if a := page.List[0].ActorAccount + "," + page.List[2].ActorAccount + "," + page.List[3].ActorAccount; a != "kate,ops_1," {
			t.Errorf("actor accounts %q", a)
		}
		// Filters and paging.
		code, e = f.do(t, "GET", fmt.Sprintf("/api/admin/audit?action=user.role&target=user:%d", f.userUID), "", kate)
		if code != 200 || json.Unmarshal(e.Data, &page) != nil || len(page.List) != 1 || page.List[0].Actor != f.opUID {
			t.Fatalf("filtered: %d %s", code, e.Data)
		}
		code, e = f.do(t, "GET", "/api/admin/audit?actor=0&target=user", "", kate)
		if code != 200 || json.Unmarshal(e.Data, &page) != nil || len(page.List) != 1 || page.List[0].Action != account.ActionUserCreate {
			t.Fatalf("actor 0: %d %s", code, e.Data)
		}
		code, e = f.do(t, "GET", "/api/admin/audit?limit=3&target=user", "", kate)
		if code != 200 || json.Unmarshal(e.Data, &page) != nil || len(page.List) != 3 || page.NextCursor == nil {
			t.Fatalf("page 1 of 3: %s", e.Data)
		}
		code, e = f.do(t, "GET", "/api/admin/audit?limit=3&target=user&cursor="+*page.NextCursor, "", kate)
		if code != 200 || json.Unmarshal(e.Data, &page) != nil || len(page.List) != 1 || page.List[0].Action != account.ActionUserCreate || page.NextCursor != nil {
			t.Fatalf("after the cursor: %s", e.Data)
		}
		// Time: nothing before the install, everything up to now.
		code, e = f.do(t, "GET", "/api/admin/audit?target=user&to=2000-01-01T00:00:00Z", "", kate)
		if code != 200 || json.Unmarshal(e.Data, &page) != nil || len(page.List) != 0 {
			t.Fatalf("to 2000: %s", e.Data)
		}
		code, e = f.do(t, "GET", fmt.Sprintf("/api/admin/audit?target=user&from=946684800&to=%d", time.Now().Add(time.Hour).Unix()), "", kate)
		if code != 200 || json.Unmarshal(e.Data, &page) != nil || len(page.List) != 4 {
			t.Fatalf("from 2000 to now: %s", e.Data)
		}
	})
}

// consoleSignIn signs a fresh operator in to the console: 428 with a
// ticket, then the enrolment with a code from the secret.
func consoleSignIn(t *testing.T, f *fixture, acct, password string) string {
	t.Helper()
	code, e := f.do(t, "POST", "/api/admin/session", fmt.Sprintf(`{"account":%q,"passWord":%q,"code":""}`, acct, password), "")
	var d struct {
		Enrol struct{ Ticket, Secret string } `json:"enrol"`
	}
	if code != http.StatusPreconditionRequired || json.Unmarshal(e.Data, &d) != nil {
		t.Fatalf("sign-in: %d %s", code, e.Data)
	}
	o := &apptest.Operator{Secret: d.Enrol.Secret}
	code, e = f.do(t, "POST", "/api/admin/session/enrol", fmt.Sprintf(`{"ticket":%q,"code":%q}`, d.Enrol.Ticket, o.Code(t, f.s.App.Operators.Now())), "")
	var s struct{ Token string }
	if code != 200 || json.Unmarshal(e.Data, &s) != nil {
		t.Fatalf("enrol: %d %s", code, e.Data)
	}
	return s.Token
}

func TestAdminBadInput(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		before := f.auditCount(t)
		for _, c := range []struct {
			method, path, body string
			status             int
			tip                string
		}{
			{"GET", "/api/admin/users", "", 422, "请输入账号或用户ID"},
			{"GET", "/api/admin/users?account=kate&uid=1", "", 422, "之一"},
			{"GET", "/api/admin/users?uid=abc", "", 422, "uid"},
			{"GET", "/api/admin/users?uid=0", "", 422, "uid"},
			{"GET", "/api/admin/users?account=nobody", "", 404, "用户不存在"},
			{"GET", "/api/admin/users?uid=987654", "", 404, "用户不存在"},
			{"POST", "/api/admin/operators/role", `{"uid":`, 400, "请求格式错误"},
			{"POST", "/api/admin/operators/role", `{"uid":"x","role":"user"}`, 400, "uid 类型错误"},
			{"POST", "/api/admin/operators/role", `{"role":"owner"}`, 422, "用户ID"},
			{"POST", "/api/admin/operators/role", fmt.Sprintf(`{"uid":%d,"role":"admin"}`, f.userUID), 422, "角色无效"},
			{"POST", "/api/admin/operators/role", fmt.Sprintf(`{"uid":%d,"role":"operator"}`, f.userUID), 422, "角色无效"},
			{"POST", "/api/admin/operators/role", fmt.Sprintf(`{"uid":%d}`, f.userUID), 422, "角色无效"},
			{"POST", "/api/admin/operators/role", fmt.Sprintf(`{"uid":%d,"role":"owner"}`, f.guestUID), 422, "游客"},
			{"POST", "/api/admin/operators/role", `{"uid":987654,"role":"owner"}`, 404, "用户不存在"},
			{"POST", "/api/admin/operators/role", fmt.Sprintf(`{"uid":%d,"role":"user"}`, f.userUID), 404, "运营人员不存在"},
			{"POST", "/api/admin/operators/role", fmt.Sprintf(`{"uid":%d,"role":"user"}`, f.opUID), 409, "最后一位"},
			{"POST", "/api/admin/users/sessions/revoke", `{}`, 422, "用户ID"},
			{"POST", "/api/admin/users/sessions/revoke", `{"uid":-3}`, 422, "用户ID"},
			{"POST", "/api/admin/users/sessions/revoke", `{"uid":987654}`, 404, "用户不存在"},
			{"POST", "/api/admin/users/sessions/revoke", ``, 400, "不能为空"},
			{"GET", "/api/admin/audit?limit=0", "", 422, "limit"},
			{"GET", "/api/admin/audit?limit=201", "", 422, "limit"},
			{"GET", "/api/admin/audit?cursor=x", "", 422, "cursor"},
			{"GET", "/api/admin/audit?cursor=0", "", 422, "cursor"},
			{"GET", "/api/admin/audit?actor=-1", "", 422, "actor"},
			{"GET", "/api/admin/audit?from=yesterday", "", 422, "from"},
			{"GET", "/api/admin/audit?to=2026-13-01", "", 422, "to"},
			{"GET", "/api/admin/audit?action=" + strings.Repeat("a", 65), "", 422, "action"},
			{"GET", "/api/admin/audit?target=" + strings.Repeat("a", 258), "", 422, "target"},
			{"GET", "/api/admin/audit?target=a%00b", "", 422, "target"},
			{"GET", "/api/admin/audit.csv?limit=5&from=x", "", 422, "from"},
		} {
			code, e := f.do(t, c.method, c.path, c.body, f.op.Token)
			if code != c.status || !strings.Contains(e.Tip, c.tip) {
				t.Errorf("%s %s %s: %d %q, want %d with %q", c.method, c.path, c.body, code, e.Tip, c.status, c.tip)
			}
		}
		if n := f.auditCount(t); n != before {
			t.Fatalf("bad input wrote %d audit rows", n-before)
		}
		if u, _ := f.s.App.Account.User(context.Background(), f.opUID); u.Role != httpx.RoleOperator {
			t.Fatal("bad input demoted the operator")
		}
	})
}

// The export: the listing's filters, a CSV attachment with a byte order
// mark and a header, newest first, spreadsheet formulas defused.
func TestAuditCSV(t *testing.T) {
	each(t, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		err := f.s.App.DB.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			return audit.Record(ctx, tx, audit.Entry{Actor: audit.Actor{UID: f.opUID, RequestID: "@SUM(1)"}, Action: "tag.create",
				TargetType: "tag", TargetID: "9", After: map[string]any{"name": "猫, \"狗\"\n鱼"}})
		})
		if err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest("GET", "/api/admin/audit.csv?target=tag", nil)
		r.Header.Set("Authorization", "Bearer "+f.op.Token)
		rec := httptest.NewRecorder()
		f.s.Handler.ServeHTTP(rec, r)
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "text/csv; charset=utf-8" ||
			!strings.HasPrefix(rec.Header().Get("Content-Disposition"), `attachment; filename="audit-`) {
			t.Fatalf("%d %v", rec.Code, rec.Header())
		}
		body := rec.Body.String()
		if !strings.HasPrefix(body, "\ufeffid,at,actor,actorAccount,action,target,before,after,ip,requestId,prevHash,hash\n") {
			t.Fatalf("head %q", body[:min(len(body), 120)])
		}
		recs, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(body, "\ufeff"))).ReadAll()
		if err != nil || len(recs) != 2 {
			t.Fatalf("%d records %v\n%s", len(recs), err, body)
		}
		row := recs[1]
		if row[2] != fmt.Sprint(f.opUID) || row[3] != "ops_1" || row[4] != "tag.create" || row[5] != "tag:9" || row[6] != "null" ||
			row[7] != `{"name":"猫, \"狗\"\n鱼"}` || row[9] != "'@SUM(1)" || len(row[11]) != 64 {
			t.Fatalf("row %q", row)
		}
		// Everything, newest first.
		r = httptest.NewRequest("GET", "/api/admin/audit.csv", nil)
		r.Header.Set("Authorization", "Bearer "+f.op.Token)
		rec = httptest.NewRecorder()
		f.s.Handler.ServeHTTP(rec, r)
		recs, _ = csv.NewReader(strings.NewReader(strings.TrimPrefix(rec.Body.String(), "\ufeff"))).ReadAll()
		if len(recs) != f.auditCount(t)+1 || recs[1][4] != "tag.create" {
			t.Fatalf("%d records for %d rows", len(recs)-1, f.auditCount(t))
		}
	})
}
