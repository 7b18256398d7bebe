package account

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"prima/internal/apitest"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
)

func auditRows(t *testing.T, d *db.DB, f audit.Filter) []audit.Row {
	t.Helper()
	rows, err := audit.List(context.Background(), d, f, 50)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestCreateOperator(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		ctx := context.Background()
		// A new account: created with the password, as an operator, audited as the CLI.
		u, created, err := s.CreateOperator(ctx, audit.Actor{UID: audit.CLI}, "ops_1", "secret12")
		if err != nil || !created || u.Role != httpx.RoleOperator || u.Account != "ops_1" || u.Name != "ops_1" {
			t.Fatalf("create: %+v created=%v %v", u, created, err)
		}
		if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "ops_1", Password: "secret12", IP: "10.0.0.1"}); err != nil {
			t.Fatalf("the operator cannot log in: %v", err)
		}
		rows := auditRows(t, d, audit.Filter{Actor: audit.CLI})
		if len(rows) != 1 || rows[0].Action != ActionUserCreate || rows[0].TargetID != fmt.Sprint(u.ID) || !strings.Contains(string(rows[0].After), `"role":"operator"`) {
			t.Fatalf("audit after create: %+v", rows)
		}
		// An existing user is promoted in place; the password is not needed or changed.
		reg, err := s.Register(ctx, RegisterInput{Account: "ivan", Password: "pass123", IP: "10.0.0.2"})
		if err != nil {
			t.Fatal(err)
		}
		p, created, err := s.CreateOperator(ctx, audit.Actor{UID: audit.CLI}, "IVAN", "")
		if err != nil || created || p.ID != reg.User.ID || p.Role != httpx.RoleOperator {
			t.Fatalf("promote: %+v created=%v %v", p, created, err)
		}
		if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "ivan", Password: "pass123", IP: "10.0.0.2"}); err != nil {
			t.Fatalf("promotion changed the password: %v", err)
		}
		// The registration rules hold, and a refusal writes nothing.
		before := count(t, d, "audit_log")
		for _, c := range []struct{ account, pw, field string }{
			{"ab", "secret12", "account"},
			{"newops", "short", "passWord"},
			{"newops", "letters only", "passWord"},
		} {
			_, _, err := s.CreateOperator(ctx, audit.Actor{}, c.account, c.pw)
			wantField(t, err, c.field)
		}
		if _, _, err := s.CreateOperator(ctx, audit.Actor{}, "newops", ""); !errors.Is(err, ErrPasswordNeeded) {
			t.Fatalf("new account without a password: %v", err)
		}
		if n := count(t, d, "audit_log"); n != before {
			t.Fatalf("refusals wrote %d audit rows", n-before)
		}
		if _, err := userByAccount(ctx, d, "newops"); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("a refused create made the account: %v", err)
		}
	})
}

func TestSetRoleRules(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		ctx := context.Background()
		a, _, err := s.CreateOperator(ctx, audit.Actor{}, "ops_a", "secret12")
		if err != nil {
			t.Fatal(err)
		}
		actor := audit.Actor{UID: a.ID, IP: "10.1.1.1", RequestID: "r1"}
		// The last operator stays.
		if _, err := s.SetRole(ctx, actor, a.ID, httpx.RoleUser); !errors.Is(err, ErrLastOperator) {
			t.Fatalf("demoting the only operator: %v", err)
		}
		// A guest cannot be promoted.
		g := guest(t, s, devID(1))
		if _, err := s.SetRole(ctx, actor, g.User.ID, httpx.RoleOperator); !errors.Is(err, ErrGuestOperator) {
			t.Fatalf("promoting a guest: %v", err)
		}
		if _, err := s.SetRole(ctx, actor, a.ID, "admin"); err == nil {
			t.Fatal("an unknown role was accepted")
		}
		if _, err := s.SetRole(ctx, actor, 999999, httpx.RoleOperator); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("unknown uid: %v", err)
		}
		if n := count(t, d, "audit_log"); n != 1 { // only the create
			t.Fatalf("%d audit rows after refusals, want 1", n)
		}
		b, err := s.Register(ctx, RegisterInput{Account: "ops_b", Password: "pass123", IP: "10.0.0.3"})
		if err != nil {
			t.Fatal(err)
		}
		if u, err := s.SetRole(ctx, actor, b.User.ID, httpx.RoleOperator); err != nil || u.Role != httpx.RoleOperator {
			t.Fatalf("promote b: %+v %v", u, err)
		}
		// Setting the role a user has is a no-op, not another audit row.
		if _, err := s.SetRole(ctx, actor, b.User.ID, httpx.RoleOperator); err != nil {
			t.Fatal(err)
		}
		rows := auditRows(t, d, audit.Filter{Actor: a.ID, Action: ActionUserRole})
		if len(rows) != 1 || rows[0].IP != "10.1.1.1" || rows[0].RequestID != "r1" ||
			string(rows[0].Before) != `{"role":"user"}` || string(rows[0].After) != `{"role":"operator"}` {
			t.Fatalf("role audit rows %+v", rows)
		}
		// Two operators demoting each other at once: one wins, one operator stays.
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i, pair := range [][2]int64{{a.ID, b.User.ID}, {b.User.ID, a.ID}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = s.SetRole(ctx, audit.Actor{UID: pair[0]}, pair[1], httpx.RoleUser)
			}()
		}
		wg.Wait()
		var ops int
		d.QueryRow(ctx, `SELECT COUNT(*) FROM users WHERE role = 'operator'`).Scan(&ops)
		lost := 0
		for _, err := range errs {
			if errors.Is(err, ErrLastOperator) {
				lost++
			} else if err != nil {
				t.Fatal(err)
			}
		}
		if ops != 1 || lost != 1 {
			t.Fatalf("after mutual demotion: %d operators, %d refused (%v)", ops, lost, errs)
		}
	})
}

func TestRevokeSessions(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		ctx := context.Background()
		reg, err := s.Register(ctx, RegisterInput{Account: "judy", Password: "pass123", IP: "10.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		second, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "judy", Password: "pass123", IP: "10.0.0.2"})
		if err != nil {
			t.Fatal(err)
		}
		other := guest(t, s, devID(5))
		if n, _ := s.LiveSessions(ctx, reg.User.ID); n != 2 {
			t.Fatalf("%d live sessions, want 2", n)
		}
		n, err := s.RevokeSessions(ctx, audit.Actor{UID: 42}, reg.User.ID)
		if err != nil || n != 2 {
			t.Fatalf("revoke: %d, %v", n, err)
		}
		for _, tok := range []string{reg.Token, second.Token} {
			if _, err := s.Authenticate(ctx, tok); !errors.Is(err, ErrSessionInvalid) {
				t.Fatalf("a revoked token still works: %v", err)
			}
		}
		if _, err := s.Authenticate(ctx, other.Token); err != nil {
			t.Fatalf("another user's session was revoked: %v", err)
		}
		rows := auditRows(t, d, audit.Filter{Actor: 42})
		if len(rows) != 1 || rows[0].Action != ActionSessionsRevoke || string(rows[0].After) != `{"revoked":2}` {
			t.Fatalf("audit %+v", rows)
		}
		if _, err := s.RevokeSessions(ctx, audit.Actor{UID: 42}, 999999); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("unknown uid: %v", err)
		}
	})
}

// Ten registrations racing with one guest token: exactly one upgrades the
// guest, nine are refused with 409, and no new user appears.
func TestRegisterWithOneGuestTokenIsAtomic(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, api := newTestAPI(t, d)
		s.Limits.RegisterPerIP = Rate{100, 1 << 40}
		g := guest(t, s, devID(1))
		const n = 10
		codes := make([]int, n)
		tips := make([]string, n)
		var wg sync.WaitGroup
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res := apitest.Scenario{Method: http.MethodPost, URL: "/api/app/mine/register", Token: g.Token,
					Body: fmt.Sprintf(`{"account":"racer%d","passWord":"pass123"}`, i)}.Send(t, api)
				codes[i] = res.Code
				tips[i] = res.Envelope.Tip
			}()
		}
		wg.Wait()
		ok, refused := 0, 0
		for i := range codes {
			switch {
			case codes[i] == 200:
				ok++
			case codes[i] == http.StatusConflict && strings.Contains(tips[i], "该游客已注册"):
				refused++
			default:
				t.Errorf("request %d: %d %q", i, codes[i], tips[i])
			}
		}
		if ok != 1 || refused != n-1 {
			t.Fatalf("%d upgrades and %d refusals, want 1 and %d", ok, refused, n-1)
		}
		if users := count(t, d, "users"); users != 1 {
			t.Fatalf("%d users, want the one upgraded guest", users)
		}
		u, _ := s.User(context.Background(), g.User.ID)
		if u.IsGuest() || !strings.HasPrefix(u.Account, "racer") || u.Name != u.Account {
			t.Fatalf("the guest became %+v", u)
		}
	})
}

func TestIsGuestName(t *testing.T) {
	for name, want := range map[string]bool{
		"游客ABCDEF": true, "游客A2B3C7": true, "游客abcdef": false, "游客ABCDE": false, "游客ABCDEFG": false,
		"游客ABCDE1": false, "用户ABCDEF": false, "小明": false, "": false,
	} {
		if got := isGuestName(name); got != want {
			t.Errorf("isGuestName(%q) = %v, want %v", name, got, want)
		}
	}
	if n := guestPrefix + shortCode(); !isGuestName(n) {
		t.Fatalf("a generated name %q is not recognised", n)
	}
}

// A guest who renamed themselves keeps the chosen name on registration.
// The test sets the name in the table, so only registration is under test.
func TestRegisterKeepsAChosenName(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		ctx := context.Background()
		g := guest(t, s, devID(3))
		if _, err := d.Exec(ctx, `UPDATE users SET name = '小明' WHERE id = ?`, g.User.ID); err != nil {
			t.Fatal(err)
		}
		sess, _ := s.Authenticate(ctx, g.Token)
		l, err := s.Register(ctx, RegisterInput{Account: "xiaoming", Password: "pass123", IP: "10.0.0.1", Current: &sess})
		if err != nil || l.User.Name != "小明" {
			t.Fatalf("register: %+v %v", l.User, err)
		}
	})
}
