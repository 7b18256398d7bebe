package account

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/realtime"
	"prima/internal/platform/sms"
)

// newPhoneService is a test service whose SMS go to a recorder.
func newPhoneService(t *testing.T, d *db.DB) (*Service, *clock, *sms.Recorder) {
	t.Helper()
	s, c := newTestService(t, d)
	rec := &sms.Recorder{}
	s.SMS = rec
	s.CodeKey = []byte("test key")
	return s, c, rec
}

// lastCode reads the code of the last SMS to mobile.
func lastCode(t *testing.T, rec *sms.Recorder, mobile string) string {
	t.Helper()
	text, ok := rec.Last(mobile)
	if !ok {
		t.Fatalf("no SMS to %s", mobile)
	}
	i := strings.Index(text, "验证码 ")
	if i < 0 {
		t.Fatalf("no code in %q", text)
	}
	return text[i+len("验证码 ") : i+len("验证码 ")+6]
}

func wrongOf(code string) string {
	if code == "000000" {
		return "000001"
	}
	return "000000"
}

func register(t *testing.T, s *Service, account string) Login {
	t.Helper()
	l, err := s.Register(context.Background(), RegisterInput{Account: account, Password: "pass123", IP: "10.0.0.9"})
	if err != nil {
		t.Fatalf("register %s: %v", account, err)
	}
	return l
}

func codeReason(t *testing.T, err error, reason string) {
	t.Helper()
	var ce *CodeError
	if !errors.As(err, &ce) || ce.Reason != reason {
		t.Fatalf("err = %v, want code %s", err, reason)
	}
}

func mobileOf(t *testing.T, d *db.DB, uid int64) string {
	t.Helper()
	u, err := userByID(context.Background(), d, uid)
	if err != nil {
		t.Fatal(err)
	}
	return u.Mobile
}

func TestNormalizeMobile(t *testing.T) {
	for in, want := range map[string]string{"13800000000": "13800000000", "+8619912345678": "19912345678"} {
		if got, err := NormalizeMobile(in); err != nil || got != want {
			t.Errorf("%q = %q, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "12800000000", "1380000000", "138000000000", "138 0000 0000", "8613800000000", "+85213800000000", "1380000000a", "１3800000000"} {
		if _, err := NormalizeMobile(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if MaskMobile("13812345678") != "138****5678" || MaskMobile("") != "" {
		t.Fatal(MaskMobile("13812345678"))
	}
}

func TestRequestCodeRules(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _, rec := newPhoneService(t, d)
		ctx := context.Background()
		alice := register(t, s, "alice")
		g := guest(t, s, devID(1))
		cases := []struct {
			name string
			in   CodeRequest
			want func(error) bool
		}{
			{"type 2", CodeRequest{Mobile: "13800000001", Type: 2, UID: alice.User.ID}, func(err error) bool { var ve *ValidationError; return errors.As(err, &ve) && ve.Field == "type" }},
			{"bad number", CodeRequest{Mobile: "1380000", Type: 1, UID: alice.User.ID}, func(err error) bool { var ve *ValidationError; return errors.As(err, &ve) && ve.Field == "mobile" }},
			{"bad purpose", CodeRequest{Mobile: "13800000001", Type: 1, Purpose: "login", UID: alice.User.ID}, func(err error) bool { var ve *ValidationError; return errors.As(err, &ve) && ve.Field == "purpose" }},
			{"bind signed out", CodeRequest{Mobile: "13800000001", Type: 1}, func(err error) bool { return errors.Is(err, ErrSessionInvalid) }},
			{"bind as guest", CodeRequest{Mobile: "13800000001", Type: 1, UID: g.User.ID}, func(err error) bool { return errors.Is(err, ErrNotRegistered) }},
			{"pwd to a number not bound", CodeRequest{Mobile: "13800000001", Type: 1, Purpose: PurposePwd, UID: alice.User.ID}, func(err error) bool { var ve *ValidationError; return errors.As(err, &ve) && ve.Field == "mobile" }},
		}
		for _, c := range cases {
			c.in.IP = "10.1.1.1"
			if err := s.RequestCode(ctx, c.in); !c.want(err) {
				t.Errorf("%s: %v", c.name, err)
			}
		}
		if _, ok := rec.Last("13800000001"); ok || count(t, d, "sms_codes") != 0 {
			t.Fatal("a refused request sent or stored a code")
		}
		// A forget code for a number nobody bound: the same answer, and nothing sent.
		if err := s.RequestCode(ctx, CodeRequest{Mobile: "13800000002", Type: 1, Purpose: PurposeForget, IP: "10.1.1.1"}); err != nil {
			t.Fatal(err)
		}
		if _, ok := rec.Last("13800000002"); ok || count(t, d, "sms_codes") != 0 {
			t.Fatal("a forget code went to a number no user has")
		}
	})
}

// The bind journey with its bad inputs: a wrong code counts a try, the
// right one binds, the same code again is used up, an expired one and a
// fifth wrong guess kill the code, and a number bound to another user is
// 409 with the code left unspent.
func TestBindPhoneCodes(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, c, rec := newPhoneService(t, d)
		ctx := context.Background()
		alice, bob := register(t, s, "alice"), register(t, s, "bobby")
		const m = "13900000001"
		ask := func(uid int64) string {
			t.Helper()
			if err := s.RequestCode(ctx, CodeRequest{Mobile: m, Type: 1, Purpose: PurposeBind, UID: uid, IP: "10.2.0.1"}); err != nil {
				t.Fatal(err)
			}
			return lastCode(t, rec, m)
		}
		code := ask(alice.User.ID)
		var stored string
		if err := d.QueryRow(ctx, `SELECT code_hash FROM sms_codes WHERE mobile = ?`, m).Scan(&stored); err != nil || strings.Contains(stored, code) {
			t.Fatalf("stored %q for code %s (%v)", stored, code, err)
		}
		_, err := s.BindPhone(ctx, alice.User.ID, m, wrongOf(code), "pass123", "10.2.0.1")
		codeReason(t, err, "wrong")
		if _, err := s.BindPhone(ctx, alice.User.ID, m, code, "wrong123", "10.2.0.1"); !errors.Is(err, ErrBadCredentials) {
			t.Fatalf("wrong password: %v", err)
		}
		if _, err := s.BindPhone(ctx, alice.User.ID, m, "12345", "pass123", "10.2.0.1"); err == nil {
			t.Fatal("5-digit code accepted")
		}
		u, err := s.BindPhone(ctx, alice.User.ID, m, code, "pass123", "10.2.0.1")
		if err != nil || u.Mobile != m || s.Info(u).Mobile != "139****0001" || !s.Info(u).HasPassword {
			t.Fatalf("bind = %+v, %v", u, err)
		}
		// Replaying the same request: already bound (409) before the code is looked at.
		if _, err := s.BindPhone(ctx, alice.User.ID, m, code, "pass123", "10.2.0.1"); !errors.Is(err, ErrMobileSame) {
			t.Fatalf("replay: %v", err)
		}
		// Bob, holding a fresh code for alice's number, is refused with 409;
		// the code stays good, and alice keeps her number.
		c.add(CodeCooldown)
		code = ask(bob.User.ID)
		if _, err := s.BindPhone(ctx, bob.User.ID, m, code, "pass123", "10.2.0.2"); !errors.Is(err, ErrMobileTaken) {
			t.Fatalf("taken: %v", err)
		}
		if mobileOf(t, d, bob.User.ID) != "" || mobileOf(t, d, alice.User.ID) != m {
			t.Fatal("a refused bind changed a user")
		}
		var used int64
		if err := d.QueryRow(ctx, `SELECT used_at FROM sms_codes WHERE mobile = ?`, m).Scan(&used); err != nil || used != 0 {
			t.Fatalf("the refused bind spent the code: used_at %d %v", used, err)
		}

		// A code used once is used up.
		const m2 = "13900000002"
		c.add(CodeCooldown)
		if err := s.RequestCode(ctx, CodeRequest{Mobile: m2, Type: 1, UID: bob.User.ID, IP: "10.2.0.3"}); err != nil {
			t.Fatal(err)
		}
		code = lastCode(t, rec, m2)
		if _, err := s.BindPhone(ctx, bob.User.ID, m2, code, "pass123", "10.2.0.3"); err != nil {
			t.Fatal(err)
		}
		_, err = s.BindPhone(ctx, alice.User.ID, m2, code, "pass123", "10.2.0.1")
		codeReason(t, err, "used")

		// Expired after CodeTTL.
		const m3 = "13900000003"
		if err := s.RequestCode(ctx, CodeRequest{Mobile: m3, Type: 1, UID: alice.User.ID, IP: "10.2.0.4"}); err != nil {
			t.Fatal(err)
		}
		code = lastCode(t, rec, m3)
		c.add(CodeTTL)
		_, err = s.BindPhone(ctx, alice.User.ID, m3, code, "pass123", "10.2.0.1")
		codeReason(t, err, "expired")
		// Every code so far has expired by now: the purge drops them all,
		// and a purged code is refused like any wrong one.
		live := count(t, d, "sms_codes")
		if n, err := s.PurgeCodes(ctx); err != nil || int(n) != live || count(t, d, "sms_codes") != 0 {
			t.Fatalf("purge = %d, %v (had %d)", n, err, live)
		}
		_, err = s.BindPhone(ctx, alice.User.ID, m3, code, "pass123", "10.2.0.1")
		codeReason(t, err, "wrong")
		if mobileOf(t, d, alice.User.ID) != m {
			t.Fatal("an expired code changed the phone")
		}

		// Five wrong guesses kill the code, even for the right one after.
		const m4 = "13900000004"
		if err := s.RequestCode(ctx, CodeRequest{Mobile: m4, Type: 1, UID: alice.User.ID, IP: "10.2.0.5"}); err != nil {
			t.Fatal(err)
		}
		code = lastCode(t, rec, m4)
		for i := 1; i <= CodeTries; i++ {
			_, err := s.BindPhone(ctx, alice.User.ID, m4, wrongOf(code), "pass123", "10.2.0.1")
			if i < CodeTries {
				codeReason(t, err, "wrong")
			} else {
				codeReason(t, err, "dead")
			}
		}
		_, err = s.BindPhone(ctx, alice.User.ID, m4, code, "pass123", "10.2.0.1")
		codeReason(t, err, "dead")
		if mobileOf(t, d, alice.User.ID) != m {
			t.Fatal("a dead code changed the phone")
		}
		// A new code revives the number: it replaces the dead one.
		c.add(CodeCooldown)
		if err := s.RequestCode(ctx, CodeRequest{Mobile: m4, Type: 1, UID: alice.User.ID, IP: "10.2.0.5"}); err != nil {
			t.Fatal(err)
		}
		if u, err := s.BindPhone(ctx, alice.User.ID, m4, lastCode(t, rec, m4), "pass123", "10.2.0.1"); err != nil || u.Mobile != m4 {
			t.Fatalf("change to a new number: %+v %v", u, err)
		}
		// A guest cannot bind at all.
		g := guest(t, s, devID(2))
		if _, err := s.BindPhone(ctx, g.User.ID, "13900000009", "123456", "pass123", "10.2.0.1"); !errors.Is(err, ErrNotRegistered) {
			t.Fatalf("guest bind: %v", err)
		}
	})
}

// Codes are rate limited per number (a cooldown, then an hourly cap) and
// per address, and with the limiter down none is sent.
func TestRequestCodeLimits(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, c, rec := newPhoneService(t, d)
		ctx := context.Background()
		alice := register(t, s, "alice")
		req := func(mobile, ip string) error {
			return s.RequestCode(ctx, CodeRequest{Mobile: mobile, Type: 1, UID: alice.User.ID, IP: ip})
		}
		if err := req("13700000001", "10.3.0.1"); err != nil {
			t.Fatal(err)
		}
		first := lastCode(t, rec, "13700000001")
		if err := req("13700000001", "10.3.0.2"); !errors.Is(err, ErrRateLimited) {
			t.Fatalf("within the cooldown: %v", err)
		}
		if lastCode(t, rec, "13700000001") != first {
			t.Fatal("a refused request replaced the code")
		}
		for i := 1; i < s.SMSLimits.PerMobile.N; i++ {
			c.add(CodeCooldown)
			if err := req("13700000001", "10.3.0.3"); err != nil {
				t.Fatalf("code %d: %v", i+1, err)
			}
		}
		c.add(CodeCooldown)
		if err := req("13700000001", "10.3.0.4"); !errors.Is(err, ErrRateLimited) {
			t.Fatalf("past the hourly cap: %v", err)
		}
		// One address over many numbers.
		s.SMSLimits.PerIP = Rate{3, time.Hour}
		for i := 0; i < 3; i++ {
			if err := req("1370000010"+string(rune('0'+i)), "10.3.9.9"); err != nil {
				t.Fatal(err)
			}
		}
		if err := req("13700000109", "10.3.9.9"); !errors.Is(err, ErrRateLimited) {
			t.Fatalf("past the address cap: %v", err)
		}
		if _, ok := rec.Last("13700000109"); ok {
			t.Fatal("sent past the address cap")
		}
	})
}

// Codes cost money and flood phones: with the limiter down none is sent (503).
func TestRequestCodeFailsClosed(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := NewService(d, brokenLimiter{}, Options{})
		rec := &sms.Recorder{}
		s.SMS = rec
		l, err := s.Register(context.Background(), RegisterInput{Account: "carol", Password: "pass123", IP: "10.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.RequestCode(context.Background(), CodeRequest{Mobile: "13700000001", Type: 1, UID: l.User.ID, IP: "10.3.0.1"}); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("limiter down: %v", err)
		}
		if _, ok := rec.Last("13700000001"); ok || count(t, d, "sms_codes") != 0 {
			t.Fatal("a code was sent with the limiter down")
		}
	})
}

// A forgotten password reset by SMS: the new password works, the old one
// does not, every session ends and hears so; the code cannot be used twice,
// even by two requests at once.
func TestResetPasswordBySMS(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, c, rec := newPhoneService(t, d)
		broker := realtime.NewMemory(0)
		defer broker.Close()
		s.Events = broker
		ctx := context.Background()
		alice := register(t, s, "alice")
		const m = "15800000001"
		if err := s.RequestCode(ctx, CodeRequest{Mobile: m, Type: 1, UID: alice.User.ID, IP: "10.4.0.1"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.BindPhone(ctx, alice.User.ID, m, lastCode(t, rec, m), "pass123", "10.4.0.1"); err != nil {
			t.Fatal(err)
		}
		c.add(CodeCooldown)
		if err := s.RequestCode(ctx, CodeRequest{Mobile: "+86" + m, Type: 1, Purpose: PurposeForget, IP: "10.4.0.2"}); err != nil {
			t.Fatal(err)
		}
		code := lastCode(t, rec, m)
		// A bind code is not a forget code.
		codeReason(t, s.ResetPassword(ctx, m, wrongOf(code), "newpass9"), "wrong")
		wantField(t, s.ResetPassword(ctx, m, code, "short"), "passWord")
		sub, _ := broker.Subscribe(ctx, realtime.UserTopic(alice.User.ID))
		var (
			wg   sync.WaitGroup
			errs = make([]error, 2)
		)
		for i := range errs {
			wg.Add(1)
			go func() { defer wg.Done(); errs[i] = s.ResetPassword(ctx, m, code, "newpass9") }()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else if !errors.Is(err, ErrCodeInvalid) {
				t.Fatalf("parallel reset: %v", err)
			}
		}
		if ok != 1 {
			t.Fatalf("two parallel resets with one code: %v", errs)
		}
		if ev := recv(t, sub); ev.Type != realtime.SessionRevokedType {
			t.Fatalf("event %s", ev.Type)
		}
		if _, err := s.Authenticate(ctx, alice.Token); !errors.Is(err, ErrSessionInvalid) {
			t.Fatalf("old session after reset: %v", err)
		}
		if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "alice", Password: "pass123", IP: "10.4.0.3"}); !errors.Is(err, ErrBadCredentials) {
			t.Fatalf("old password: %v", err)
		}
		if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "alice", Password: "newpass9", IP: "10.4.0.3"}); err != nil {
			t.Fatalf("new password: %v", err)
		}
		codeReason(t, s.ResetPassword(ctx, m, code, "other999"), "used")
	})
}

func TestChangePassword(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, c, rec := newPhoneService(t, d)
		ctx := context.Background()
		alice, bob := register(t, s, "alice"), register(t, s, "bobby")
		phone, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "alice", Password: "pass123", IP: "10.5.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		sess, _ := s.Authenticate(ctx, alice.Token)
		if err := s.ChangePassword(ctx, sess, PasswordChange{UID: bob.User.ID, Pwd: "newpass9", OldPwd: "pass123"}); !errors.Is(err, ErrNotYours) {
			t.Fatalf("another uid: %v", err)
		}
		if err := s.ChangePassword(ctx, sess, PasswordChange{UID: alice.User.ID, Pwd: "newpass9", OldPwd: "wrong123", IP: "10.5.0.1"}); !errors.Is(err, ErrBadCredentials) {
			t.Fatalf("wrong old: %v", err)
		}
		wantField(t, s.ChangePassword(ctx, sess, PasswordChange{UID: alice.User.ID, Pwd: "newpass9"}), "oldPwd")
		wantField(t, s.ChangePassword(ctx, sess, PasswordChange{UID: alice.User.ID, Pwd: "newpass9", Code: "123456"}), "code")
		wantField(t, s.ChangePassword(ctx, sess, PasswordChange{UID: alice.User.ID, Pwd: "nodigits", OldPwd: "pass123"}), "passWord")
		if err := s.ChangePassword(ctx, sess, PasswordChange{UID: alice.User.ID, SysType: "h5", Pwd: "newpass9", OldPwd: "pass123", IP: "10.5.0.1"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, alice.Token); err != nil {
			t.Fatalf("the changing session ended: %v", err)
		}
		if _, err := s.Authenticate(ctx, phone.Token); !errors.Is(err, ErrSessionInvalid) {
			t.Fatalf("another session survived: %v", err)
		}
		// By a code to the bound phone instead of the old password.
		const m = "15900000001"
		if err := s.RequestCode(ctx, CodeRequest{Mobile: m, Type: 1, UID: alice.User.ID, IP: "10.5.0.2"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.BindPhone(ctx, alice.User.ID, m, lastCode(t, rec, m), "newpass9", "10.5.0.1"); err != nil {
			t.Fatal(err)
		}
		c.add(CodeCooldown)
		if err := s.RequestCode(ctx, CodeRequest{Mobile: m, Type: 1, Purpose: PurposePwd, UID: alice.User.ID, IP: "10.5.0.2"}); err != nil {
			t.Fatal(err)
		}
		code := lastCode(t, rec, m)
		codeReason(t, s.ChangePassword(ctx, sess, PasswordChange{UID: alice.User.ID, Pwd: "third999", Code: wrongOf(code)}), "wrong")
		if err := s.ChangePassword(ctx, sess, PasswordChange{UID: alice.User.ID, Pwd: "third999", Code: code}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "alice", Password: "third999", IP: "10.5.0.3"}); err != nil {
			t.Fatal(err)
		}
		// A guest has no password to change.
		g := guest(t, s, devID(3))
		gs, _ := s.Authenticate(ctx, g.Token)
		if err := s.ChangePassword(ctx, gs, PasswordChange{UID: g.User.ID, Pwd: "newpass9", OldPwd: "x"}); !errors.Is(err, ErrNotRegistered) {
			t.Fatalf("guest: %v", err)
		}
	})
}

// The devices list shows only the caller's live sessions; revoking another
// user's session is not found and changes nothing.
func TestSessionsListAndRevoke(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _, _ := newPhoneService(t, d)
		broker := realtime.NewMemory(0)
		defer broker.Close()
		s.Events = broker
		ctx := context.Background()
		alice := register(t, s, "alice")
		bob := register(t, s, "bobby")
		ua := "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1"
		second, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "alice", Password: "pass123", IP: "10.6.0.1", SysType: "ios", Device: DeviceLabel(ua)})
		if err != nil {
			t.Fatal(err)
		}
		third, _ := s.PasswordLogin(ctx, PasswordLoginInput{Account: "alice", Password: "pass123", IP: "10.6.0.1"})
		sess, _ := s.Authenticate(ctx, alice.Token)
		list, err := s.Sessions(ctx, sess)
		if err != nil || len(list) != 3 {
			t.Fatalf("list = %+v, %v", list, err)
		}
		var cur int
		var secondID string
		s2, _ := s.Authenticate(ctx, second.Token)
		for _, si := range list {
			if si.Current {
				cur++
			}
			if si.ID == s2.ID() {
				secondID = si.ID
				if si.SysType != "ios" || si.Device != "iPhone · Safari" {
					t.Fatalf("second = %+v", si)
				}
			}
		}
		if cur != 1 || secondID == "" {
			t.Fatalf("list = %+v", list)
		}
		bobSess, _ := s.Authenticate(ctx, bob.Token)
		if err := s.RevokeSession(ctx, bobSess, secondID); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("bob revoking alice's session: %v", err)
		}
		if _, err := s.Authenticate(ctx, second.Token); err != nil {
			t.Fatal("bob's attempt ended alice's session")
		}
		wantField(t, s.RevokeSession(ctx, sess, sess.ID()), "id")
		wantField(t, s.RevokeSession(ctx, sess, "'; DROP TABLE x"), "id")
		sub, _ := broker.Subscribe(ctx, realtime.UserTopic(alice.User.ID))
		if err := s.RevokeSession(ctx, sess, secondID); err != nil {
			t.Fatal(err)
		}
		if ev := recv(t, sub); ev.Type != realtime.SessionRevokedType || dataOf(t, ev)["sid"] != secondID {
			t.Fatalf("event %s %s", ev.Type, ev.Data)
		}
		if err := s.RevokeSession(ctx, sess, secondID); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("revoking twice: %v", err)
		}
		n, err := s.RevokeOtherSessions(ctx, sess)
		if err != nil || n != 1 {
			t.Fatalf("others = %d, %v", n, err)
		}
		if _, err := s.Authenticate(ctx, third.Token); !errors.Is(err, ErrSessionInvalid) {
			t.Fatal("third session survived")
		}
		if _, err := s.Authenticate(ctx, alice.Token); err != nil {
			t.Fatal("the current session ended")
		}
		if _, err := s.Authenticate(ctx, bob.Token); err != nil {
			t.Fatal("bob's session ended")
		}
		list, _ = s.Sessions(ctx, sess)
		if len(list) != 1 || !list[0].Current {
			t.Fatalf("after = %+v", list)
		}
	})
}

func TestDeviceLabel(t *testing.T) {
	for ua, want := range map[string]string{
		"Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36": "Android · Chrome",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0":                         "Windows · Firefox",
		"curl/8.0": "",
	} {
		if got := DeviceLabel(ua); got != want {
			t.Errorf("%q = %q, want %q", ua, got, want)
		}
	}
}
