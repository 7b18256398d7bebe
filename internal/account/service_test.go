package account

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/argon2"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/ratelimit"
)

// clock is a settable time source for the service.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newTestService(t *testing.T, d *db.DB) (*Service, *clock) {
	t.Helper()
	c := &clock{t: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}
	s := NewService(d, ratelimit.NewMemoryClock(c.now), Options{})
	s.now = c.now
	return s, c
}

// devID makes a valid device id: 16 letters or digits and a 13-digit timestamp.
func devID(n int) string { return fmt.Sprintf("dev%013d1772366400000", n) }

func count(t *testing.T, d *db.DB, table string) int {
	t.Helper()
	var n int
	if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func guest(t *testing.T, s *Service, dev string) Login {
	t.Helper()
	l, err := s.GuestLogin(context.Background(), GuestLoginInput{DevID: dev, SysType: "ios", IP: "10.0.0.1"})
	if err != nil {
		t.Fatalf("guest login %s: %v", dev, err)
	}
	return l
}

func wantField(t *testing.T, err error, field string) *ValidationError {
	t.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Field != field {
		t.Fatalf("err = %v, want a validation error on %s", err, field)
	}
	return ve
}

func TestGuestLoginCreatesThenResumes(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, c := newTestService(t, d)
		ctx := context.Background()
		first, err := s.GuestLogin(ctx, GuestLoginInput{DevID: devID(1), SysType: "ios", CutInfos: "inviter=77", IP: "10.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		u := first.User
		if !first.IsNew || !u.IsGuest() || !strings.HasPrefix(u.Name, "游客") || len([]rune(u.Name)) != 8 || u.CreatedAt != c.now().Unix() {
			t.Fatalf("first login = %+v", first)
		}
		if len(first.Token) != 43 {
			t.Fatalf("token %q is not 32 bytes of base64url", first.Token)
		}
		// Only the hash is stored, never the token.
		var stored string
		if err := d.QueryRow(ctx, `SELECT token_hash FROM sessions`).Scan(&stored); err != nil || stored == first.Token || len(stored) != 64 {
			t.Fatalf("stored token_hash %q, %v", stored, err)
		}

		c.add(time.Hour)
		again, err := s.GuestLogin(ctx, GuestLoginInput{DevID: devID(1), SysType: "h5", CutInfos: "inviter=99", IP: "10.0.0.2"})
		if err != nil {
			t.Fatal(err)
		}
		if again.IsNew || again.User.ID != u.ID || again.Token == first.Token {
			t.Fatalf("resume = %+v, want the same uid %d with a new token", again, u.ID)
		}
		// Both tokens work: a second browser on the device keeps its session.
		for _, tok := range []string{first.Token, again.Token} {
			if sess, err := s.Authenticate(ctx, tok); err != nil || sess.UserID != u.ID || sess.DevID != devID(1) {
				t.Fatalf("Authenticate = %+v, %v", sess, err)
			}
		}
		if ci, _ := deviceCutInfos(ctx, d, devID(1)); ci != "inviter=77" {
			t.Fatalf("cut_infos = %q; the first install's inviter must stay", ci)
		}
		other := guest(t, s, devID(2))
		if other.User.ID == u.ID || !other.IsNew {
			t.Fatalf("another device got %+v", other)
		}
		if n := count(t, d, "users"); n != 2 {
			t.Fatalf("%d users, want 2", n)
		}
	})
}

func TestGuestLoginValidation(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		cases := []struct {
			name, dev, sys, cut, field string
		}{
			{"empty devID", "", "ios", "", "devID"},
			{"short prefix", "abc1700000000000", "ios", "", "devID"},
			{"timestamp 9 digits", "abcdefghABCDEFGH170000000", "ios", "", "devID"},
			{"timestamp 14 digits", "abcdefghABCDEFGH17000000000001", "ios", "", "devID"},
			{"punctuation", "abcdefgh-BCDEFGH1700000000000", "ios", "", "devID"},
			{"letter in timestamp", "abcdefghABCDEFGH170000000000x", "ios", "", "devID"},
			{"non-ASCII", "abcdefghABCDEFG中1700000000000", "ios", "", "devID"},
			{"missing sysType", devID(1), "", "", "sysType"},
			{"unknown sysType", devID(1), "windows", "", "sysType"},
			{"sysType case", devID(1), "IOS", "", "sysType"},
			{"cutInfos too long", devID(1), "ios", strings.Repeat("邀", 513), "cutInfos"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				_, err := s.GuestLogin(context.Background(), GuestLoginInput{DevID: c.dev, SysType: c.sys, CutInfos: c.cut, IP: "10.0.0.1"})
				wantField(t, err, c.field)
			})
		}
		if n := count(t, d, "users"); n != 0 {
			t.Fatalf("rejected logins created %d users", n)
		}
		// The boundaries are accepted: 10 and 13 digit stamps, 512 characters.
		for _, dev := range []string{"abcdefghABCDEFGH1700000000", "0123456789abcdef1700000000000"} {
			if _, err := s.GuestLogin(context.Background(), GuestLoginInput{DevID: dev, SysType: "pc", CutInfos: strings.Repeat("邀", 512), IP: "10.0.0.1"}); err != nil {
				t.Errorf("devID %s: %v", dev, err)
			}
		}
	})
}

func TestGuestLoginConcurrentSameDevice(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		const n = 20
		var wg sync.WaitGroup
		results := make([]Login, n)
		errs := make([]error, n)
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i], errs[i] = s.GuestLogin(context.Background(), GuestLoginInput{DevID: devID(5), SysType: "ios", IP: "10.0.0.1"})
			}()
		}
		wg.Wait()
		created := 0
		for i := range results {
			if errs[i] != nil {
				t.Fatalf("login %d: %v", i, errs[i])
			}
			if results[i].User.ID != results[0].User.ID {
				t.Fatalf("login %d got uid %d, login 0 uid %d", i, results[i].User.ID, results[0].User.ID)
			}
			if results[i].IsNew {
				created++
			}
		}
		if users := count(t, d, "users"); users != 1 || created != 1 {
			t.Fatalf("%d users, %d logins said isNew; want exactly 1 and 1", users, created)
		}
		if sessions := count(t, d, "sessions"); sessions != n {
			t.Fatalf("%d sessions, want %d", sessions, n)
		}
	})
}

func TestRegisterNewUser(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		ctx := context.Background()
		l, err := s.Register(ctx, RegisterInput{Account: "Alice_01", Password: "pass123", IP: "10.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		if l.User.IsGuest() || l.User.Account != "Alice_01" || !strings.HasPrefix(l.User.Name, "用户") {
			t.Fatalf("registered %+v", l.User)
		}
		if !strings.HasPrefix(l.User.PasswordHash, "$argon2id$") || strings.Contains(l.User.PasswordHash, "pass123") {
			t.Fatalf("password stored as %q", l.User.PasswordHash)
		}
		if sess, err := s.Authenticate(ctx, l.Token); err != nil || sess.UserID != l.User.ID {
			t.Fatalf("token: %+v, %v", sess, err)
		}
		// The account logs in with any case of its name.
		in, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "alice_01", Password: "pass123", IP: "10.0.0.2"})
		if err != nil || in.User.ID != l.User.ID {
			t.Fatalf("login: %+v, %v", in.User, err)
		}
	})
}

func TestRegisterUpgradesGuestInPlace(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		ctx := context.Background()
		g := guest(t, s, devID(1))
		sess, err := s.Authenticate(ctx, g.Token)
		if err != nil {
			t.Fatal(err)
		}
		l, err := s.Register(ctx, RegisterInput{Account: "bob_up", Password: "pass123", IP: "10.0.0.1", Current: &sess})
		if err != nil {
			t.Fatal(err)
		}
		// The generated 游客 name gives way to the chosen account.
		if l.User.ID != g.User.ID || l.User.IsGuest() || l.User.Name != "bob_up" {
			t.Fatalf("upgrade gave %+v, want uid %d named bob_up (was %q)", l.User, g.User.ID, g.User.Name)
		}
		if n := count(t, d, "users"); n != 1 {
			t.Fatalf("%d users after upgrade, want 1", n)
		}
		if uid, guest, err := deviceUser(ctx, d, devID(1)); err != nil || uid != g.User.ID || guest {
			t.Fatalf("device now bound to %d (guest %v), %v", uid, guest, err)
		}
		if _, err := s.Authenticate(ctx, g.Token); !errors.Is(err, ErrSessionInvalid) {
			t.Fatalf("old guest token: %v, want it revoked", err)
		}
		ns, err := s.Authenticate(ctx, l.Token)
		if err != nil || ns.UserID != g.User.ID || ns.DevID != devID(1) {
			t.Fatalf("new token: %+v, %v", ns, err)
		}
		// A registered user registering again gets a separate new user.
		l2, err := s.Register(ctx, RegisterInput{Account: "carol", Password: "pass123", IP: "10.0.0.1", Current: &ns})
		if err != nil || l2.User.ID == g.User.ID {
			t.Fatalf("second register: %+v, %v", l2.User, err)
		}
		if u, _ := s.User(ctx, g.User.ID); u.Account != "bob_up" {
			t.Fatalf("first account became %q", u.Account)
		}
	})
}

// After a guest registers and logs out, the device id alone must not sign
// back into the account: guest login on that device starts a new guest.
func TestGuestLoginNeverResumesARegisteredAccount(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		ctx := context.Background()
		g := guest(t, s, devID(7))
		sess, err := s.Authenticate(ctx, g.Token)
		if err != nil {
			t.Fatal(err)
		}
		reg, err := s.Register(ctx, RegisterInput{Account: "dora", Password: "pass123", IP: "10.0.0.1", Current: &sess})
		if err != nil {
			t.Fatal(err)
		}
		again := guest(t, s, devID(7))
		if again.User.ID == reg.User.ID || !again.User.IsGuest() || !again.IsNew {
			t.Fatalf("guest login after register resumed %+v (registered uid %d)", again.User, reg.User.ID)
		}
		// The new guest is then resumed as usual.
		if third := guest(t, s, devID(7)); third.User.ID != again.User.ID {
			t.Fatalf("new guest not resumed: %d, want %d", third.User.ID, again.User.ID)
		}
		if l, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "dora", Password: "pass123", IP: "10.0.0.2"}); err != nil || l.User.ID != reg.User.ID {
			t.Fatalf("password login: %+v %v", l.User, err)
		}
	})
}

func TestRegisterDuplicateChangesNothing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		ctx := context.Background()
		if _, err := s.Register(ctx, RegisterInput{Account: "alice", Password: "pass123", IP: "10.0.0.1"}); err != nil {
			t.Fatal(err)
		}
		g := guest(t, s, devID(1))
		sess, _ := s.Authenticate(ctx, g.Token)
		for _, name := range []string{"alice", "ALICE", "Alice"} {
			_, err := s.Register(ctx, RegisterInput{Account: name, Password: "other123", IP: "10.0.0.1", Current: &sess})
			if !errors.Is(err, ErrDuplicateAccount) {
				t.Fatalf("register %s: %v, want ErrDuplicateAccount", name, err)
			}
		}
		if u, _ := s.User(ctx, g.User.ID); !u.IsGuest() {
			t.Fatalf("guest became %+v", u)
		}
		if _, err := s.Authenticate(ctx, g.Token); err != nil {
			t.Fatalf("guest token after a failed register: %v", err)
		}
		if n := count(t, d, "users"); n != 2 {
			t.Fatalf("%d users, want 2", n)
		}
		if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "alice", Password: "pass123", IP: "10.0.0.3"}); err != nil {
			t.Fatalf("the original password stopped working: %v", err)
		}
	})
}

func TestRegisterRules(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		s.Limits.RegisterPerIP = Rate{1000, time.Minute}
		cases := []struct {
			account, password, field, tip string
		}{
			{"", "pass123", "account", "请输入账号"},
			{"abc", "pass123", "account", "4-20位"},
			{"a23456789012345678901", "pass123", "account", "4-20位"},
			{"1abc", "pass123", "account", "以字母开头"},
			{"_abc", "pass123", "account", "以字母开头"},
			{"ab-cd", "pass123", "account", "字母、数字或下划线"},
			{"ab cd", "pass123", "account", "字母、数字或下划线"},
			{"用户名字", "pass123", "account", "字母、数字或下划线"},
			{"alice", "", "passWord", "请输入密码"},
			{"alice", "ab12", "passWord", "6-32位"},
			{"alice", strings.Repeat("a1", 17), "passWord", "6-32位"},
			{"alice", "abcdefgh", "passWord", "字母和数字"},
			{"alice", "12345678", "passWord", "字母和数字"},
			{"alice", "pass 123", "passWord", "空格"},
		}
		for _, c := range cases {
			_, err := s.Register(context.Background(), RegisterInput{Account: c.account, Password: c.password, IP: "10.0.0.1"})
			ve := wantField(t, err, c.field)
			if !strings.Contains(ve.Tip, c.tip) {
				t.Errorf("account %q password %q: tip %q, want it to mention %q", c.account, c.password, ve.Tip, c.tip)
			}
		}
		if n := count(t, d, "users"); n != 0 {
			t.Fatalf("rejected registrations created %d users", n)
		}
		for _, ok := range []struct{ account, password string }{
			{"abcd", "abc123"}, {"a2345678901234567890", strings.Repeat("a1", 16)}, {"a_b_c", "密码abc123"},
		} {
			if _, err := s.Register(context.Background(), RegisterInput{Account: ok.account, Password: ok.password, IP: "10.0.0.1"}); err != nil {
				t.Errorf("register %q/%q: %v", ok.account, ok.password, err)
			}
		}
	})
}

func TestPasswordLoginFailsAlike(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		ctx := context.Background()
		reg, err := s.Register(ctx, RegisterInput{Account: "dave", Password: "pass123", IP: "10.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		l, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "dave", Password: "pass123", SysType: "h5", IP: "10.0.0.1", DevID: devID(3)})
		if err != nil || l.User.ID != reg.User.ID || l.Token == reg.Token {
			t.Fatalf("login: %+v, %v", l, err)
		}
		if sess, _ := s.Authenticate(ctx, l.Token); sess.DevID != devID(3) {
			t.Fatalf("session dev_id %q", sess.DevID)
		}
		for _, c := range []struct{ account, password string }{
			{"dave", "pass124"}, {"dave", "PASS123"}, {"nobody", "pass123"}, {"bad-name!", "pass123"},
		} {
			if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: c.account, Password: c.password, IP: "10.0.0.2"}); !errors.Is(err, ErrBadCredentials) {
				t.Errorf("%s/%s: err = %v, want ErrBadCredentials", c.account, c.password, err)
			}
		}
		_, err = s.PasswordLogin(ctx, PasswordLoginInput{Account: "", Password: "x", IP: "10.0.0.3"})
		wantField(t, err, "account")
		_, err = s.PasswordLogin(ctx, PasswordLoginInput{Account: "dave", Password: "", IP: "10.0.0.3"})
		wantField(t, err, "passWord")
		_, err = s.PasswordLogin(ctx, PasswordLoginInput{Account: "dave", Password: "pass123", SysType: "tv", IP: "10.0.0.3"})
		wantField(t, err, "sysType")
	})
}

func TestRateLimits(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		ctx := context.Background()
		// Per address, failures only: twenty failures on twenty accounts,
		// then even the right password from that address waits.
		if _, err := s.Register(ctx, RegisterInput{Account: "erin", Password: "pass123", IP: "10.9.9.9"}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 20; i++ {
			_, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: fmt.Sprintf("user%d", i), Password: "x1", IP: "10.2.0.1"})
			if !errors.Is(err, ErrBadCredentials) {
				t.Fatalf("address attempt %d: %v", i+1, err)
			}
		}
		_, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "erin", Password: "pass123", IP: "10.2.0.1"})
		var rl *RateLimitError
		if !errors.As(err, &rl) || !errors.Is(err, ErrRateLimited) || rl.RetryAfter <= 0 || rl.RetryAfter > 10*time.Minute {
			t.Fatalf("21st attempt from one address: %v, want a rate limit with a retry time", err)
		}
		// The same accounts from another address are untouched.
		if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "erin", Password: "pass123", IP: "10.2.0.2"}); err != nil {
			t.Fatalf("erin from another address: %v", err)
		}
		// An account that signed in from the blocked address before (the
		// owner behind the same carrier address) still gets in from it.
		if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "erin", Password: "pass123", IP: "10.2.0.3"}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 20; i++ {
			s.PasswordLogin(ctx, PasswordLoginInput{Account: fmt.Sprintf("other%d", i), Password: "x1", IP: "10.2.0.3"})
		}
		if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "nobody", Password: "pass123", IP: "10.2.0.3"}); !errors.Is(err, ErrRateLimited) {
			t.Fatalf("a stranger account from the blocked address: %v", err)
		}
		if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "erin", Password: "pass123", IP: "10.2.0.3"}); err != nil {
			t.Fatalf("erin from her known, now blocked address: %v", err)
		}

		// Registration per address: ten in ten minutes.
		for i := 0; i < 10; i++ {
			if _, err := s.Register(ctx, RegisterInput{Account: fmt.Sprintf("reg%d", i), Password: "pass123", IP: "10.3.0.1"}); err != nil {
				t.Fatalf("register %d: %v", i, err)
			}
		}
		if _, err := s.Register(ctx, RegisterInput{Account: "reg99", Password: "pass123", IP: "10.3.0.1"}); !errors.Is(err, ErrRateLimited) {
			t.Fatalf("eleventh registration: %v", err)
		}
		if _, err := userByAccount(ctx, d, "reg99"); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("a refused registration created its user: %v", err)
		}
	})
}

// An attacker failing on an account from one address is locked out, longer
// after each failure; the owner signing in from elsewhere is not, and a
// success clears the owner's own count.
func TestLoginLockoutIsPerAddress(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, c := newTestService(t, d)
		ctx := context.Background()
		if _, err := s.Register(ctx, RegisterInput{Account: "gina", Password: "pass123", IP: "10.9.9.9"}); err != nil {
			t.Fatal(err)
		}
		login := func(pw, ip string) error {
			_, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "Gina", Password: pw, IP: ip})
			return err
		}
		const attacker, owner = "203.0.113.7", "198.51.100.20"
		for i := 1; i <= 5; i++ {
			if err := login("wrong123", attacker); !errors.Is(err, ErrBadCredentials) {
				t.Fatalf("attacker failure %d: %v", i, err)
			}
		}
		var rl *RateLimitError
		if err := login("pass123", attacker); !errors.As(err, &rl) || rl.RetryAfter != time.Minute {
			t.Fatalf("attacker after 5 failures: %v, want a one-minute wait", err)
		}
		// The owner, elsewhere, gets in at once, any number of times.
		for i := 0; i < 3; i++ {
			if err := login("pass123", owner); err != nil {
				t.Fatalf("owner login %d while the attacker is locked out: %v", i, err)
			}
		}
		// The wait doubles with each failure after it ends.
		c.add(time.Minute)
		if err := login("wrong123", attacker); !errors.Is(err, ErrBadCredentials) {
			t.Fatalf("attacker 6th failure: %v", err)
		}
		if err := login("wrong123", attacker); !errors.As(err, &rl) || rl.RetryAfter != 2*time.Minute {
			t.Fatalf("after the 6th failure: %v, want a two-minute wait", err)
		}
		c.add(2 * time.Minute)
		// The owner mistyping four times and then succeeding starts clean.
		for i := 0; i < 4; i++ {
			if err := login("typo1234", owner); !errors.Is(err, ErrBadCredentials) {
				t.Fatalf("owner typo %d: %v", i, err)
			}
		}
		if err := login("pass123", owner); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 4; i++ {
			if err := login("typo1234", owner); !errors.Is(err, ErrBadCredentials) {
				t.Fatalf("owner typo %d after a success: %v, want the count cleared", i, err)
			}
		}
		if err := login("pass123", owner); err != nil {
			t.Fatalf("owner after 4 more typos: %v", err)
		}
	})
}

// A distributed guesser (a new address per guess) trips the per-account
// ceiling; past it, strangers wait, but an address that signed in to the
// account recently still gets in.
func TestLoginAccountCeilingSparesKnownAddresses(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, c := newTestService(t, d)
		s.Limits.LoginFailPerAccount = Rate{10, time.Hour}
		ctx := context.Background()
		if _, err := s.Register(ctx, RegisterInput{Account: "hana", Password: "pass123", IP: "10.9.9.9"}); err != nil {
			t.Fatal(err)
		}
		const home = "198.51.100.30"
		if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "hana", Password: "pass123", IP: home}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 10; i++ {
			_, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "hana", Password: "wrong123", IP: fmt.Sprintf("192.0.2.%d", i+1)})
			if !errors.Is(err, ErrBadCredentials) {
				t.Fatalf("guess %d: %v", i+1, err)
			}
		}
		_, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "hana", Password: "pass123", IP: "192.0.2.200"})
		var rl *RateLimitError
		if !errors.As(err, &rl) || rl.RetryAfter <= 0 || rl.RetryAfter > time.Hour {
			t.Fatalf("a new address past the ceiling: %v, want a wait", err)
		}
		if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "hana", Password: "pass123", IP: home}); err != nil {
			t.Fatalf("the owner's known address past the ceiling: %v", err)
		}
		// Other accounts are not affected, and the ceiling lifts with its window.
		if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "nobody1", Password: "wrong123", IP: "192.0.2.200"}); !errors.Is(err, ErrBadCredentials) {
			t.Fatalf("another account from the refused address: %v", err)
		}
		c.add(time.Hour)
		if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "hana", Password: "pass123", IP: "192.0.2.200"}); err != nil {
			t.Fatalf("after the window: %v", err)
		}
	})
}

// brokenLimiter fails like an unreachable Redis.
type brokenLimiter struct{}

var errDown = errors.New("connection refused")

func (brokenLimiter) Allow(context.Context, string, int, time.Duration) (bool, time.Duration, error) {
	return false, 0, errDown
}
func (brokenLimiter) Incr(context.Context, string, time.Duration) (int64, error) { return 0, errDown }
func (brokenLimiter) Peek(context.Context, ...string) ([]ratelimit.Count, error) {
	return nil, errDown
}
func (brokenLimiter) Set(context.Context, string, int64, time.Duration) error { return errDown }
func (brokenLimiter) Delete(context.Context, ...string) error                 { return errDown }

// Login and registration fail open: an outage of the limiter must not lock
// everyone out. (Limits on money and codes use ratelimit.FailClosed; see
// the ratelimit tests.)
func TestLimiterOutageFailsOpen(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := NewService(d, brokenLimiter{}, Options{})
		if _, err := s.Register(context.Background(), RegisterInput{Account: "frank", Password: "pass123", IP: "10.0.0.1"}); err != nil {
			t.Fatalf("register with the limiter down: %v", err)
		}
		for i := 0; i < 3; i++ {
			if _, err := s.PasswordLogin(context.Background(), PasswordLoginInput{Account: "frank", Password: "wrong123", IP: "10.0.0.1"}); !errors.Is(err, ErrBadCredentials) {
				t.Fatalf("failed login with the limiter down: %v", err)
			}
		}
		if _, err := s.PasswordLogin(context.Background(), PasswordLoginInput{Account: "frank", Password: "pass123", IP: "10.0.0.1"}); err != nil {
			t.Fatalf("login with the limiter down: %v", err)
		}
	})
}

func TestSessionSlidesAndExpires(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, c := newTestService(t, d)
		ctx := context.Background()
		g := guest(t, s, devID(1))
		start := c.now().Unix()
		stored := func() Session {
			h, _ := tokenHash(g.Token)
			sess, err := sessionByHash(ctx, d, h)
			if err != nil {
				t.Fatal(err)
			}
			return sess
		}
		if got := stored(); got.ExpiresAt != start+30*24*3600 {
			t.Fatalf("expires_at = %d, want 30 days after %d", got.ExpiresAt, start)
		}
		// Used within the minute: no write.
		c.add(30 * time.Second)
		if _, err := s.Authenticate(ctx, g.Token); err != nil {
			t.Fatal(err)
		}
		if got := stored(); got.LastSeenAt != start {
			t.Fatalf("last_seen_at moved to %d within a minute", got.LastSeenAt)
		}
		// Used a minute later: last use and expiry slide.
		c.add(31 * time.Second)
		if _, err := s.Authenticate(ctx, g.Token); err != nil {
			t.Fatal(err)
		}
		now := c.now().Unix()
		if got := stored(); got.LastSeenAt != now || got.ExpiresAt != now+30*24*3600 {
			t.Fatalf("after a minute: %+v, want last seen %d", got, now)
		}
		// Unused for 30 days less a second: still valid; then it lapses.
		c.add(30*24*time.Hour - time.Second)
		if _, err := s.Authenticate(ctx, g.Token); err != nil {
			t.Fatalf("one second before expiry: %v", err)
		}
		c.add(30*24*time.Hour + time.Second)
		_, err := s.Authenticate(ctx, g.Token)
		if !errors.Is(err, ErrSessionInvalid) || !strings.Contains(err.Error(), "expired") {
			t.Fatalf("after 30 idle days: %v, want expired", err)
		}
	})
}

func TestLogoutAndGarbageTokens(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		ctx := context.Background()
		a := guest(t, s, devID(1))
		b := guest(t, s, devID(1))
		sess, err := s.Authenticate(ctx, a.Token)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Logout(ctx, sess); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Authenticate(ctx, a.Token); !errors.Is(err, ErrSessionInvalid) || !strings.Contains(err.Error(), "revoked") {
			t.Fatalf("logged-out token: %v, want revoked", err)
		}
		if _, err := s.Authenticate(ctx, b.Token); err != nil {
			t.Fatalf("logout revoked the device's other session: %v", err)
		}
		unknown, _ := newToken()
		for _, tok := range []string{"", "abc", strings.Repeat("!", 43), a.Token + "x", unknown} {
			if _, err := s.Authenticate(ctx, tok); !errors.Is(err, ErrSessionInvalid) {
				t.Errorf("token %q: %v, want ErrSessionInvalid", tok, err)
			}
		}
	})
}

func TestInfoAndProfile(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, c := newTestService(t, d)
		now := c.now().Unix()
		disc := int64(12)
		vip := User{ID: 9, Name: "V", Portrait: "/v.png", Account: "vip", Points: 30, SvipExpireAt: now + 3600, VipExpireAt: now + 7200,
			TxDiscount: &disc, GoldVideoFreeUntil: now + 60, CreatedAt: now - 100}
		info := s.Info(vip)
		if !info.IsVip || info.VipLevel != 2 || info.IsGuest || info.Account == nil || *info.Account != "vip" || info.Points != 30 ||
			info.TxDiscount == nil || *info.TxDiscount != 12 || info.VideoFreeExpiration != nil ||
			info.GoldVideoFreeExpire == nil || !info.GoldVideoFreeExpire.Equal(time.Unix(now+60, 0)) ||
			info.VipExpireDate == nil || info.VipExpireDate.Location() != time.UTC || info.NewGoldVideoCoupon == nil {
			t.Fatalf("info = %+v", info)
		}
		if p := s.Profile(vip); p != (PublicProfile{UID: 9, Name: "V", Portrait: "/v.png", VipLevel: 2, CreatedAt: time.Unix(now-100, 0).UTC()}) {
			t.Fatalf("profile = %+v", p)
		}
		if !info.VipExpireDate.Equal(time.Unix(now+3600, 0)) || info.VipTiers.SVIP == nil || info.VipTiers.VIP == nil ||
			!info.VipTiers.VIP.Equal(time.Unix(now+7200, 0)) {
			t.Fatalf("super VIP's expiry %v, tiers %+v", info.VipExpireDate, info.VipTiers)
		}
		// Super VIP over, the VIP tier it sat on top of shows again, with its own expiry.
		c.add(90 * time.Minute)
		if info := s.Info(vip); !info.IsVip || info.VipLevel != 1 || !info.VipExpireDate.Equal(time.Unix(now+7200, 0)) {
			t.Fatalf("after super VIP: %+v", info)
		}
		// A lapsed VIP is not VIP, though the old expiry is still shown to its owner.
		c.add(2 * time.Hour)
		if info := s.Info(vip); info.IsVip || info.VipLevel != 0 || info.VipExpireDate == nil {
			t.Fatalf("lapsed info = %+v", info)
		}
		if p := s.Profile(vip); p.VipLevel != 0 {
			t.Fatalf("lapsed profile vipLevel %d", p.VipLevel)
		}
		g := s.Info(User{ID: 3, Name: "游客X", CreatedAt: now})
		if !g.IsGuest || g.Account != nil || g.IsVip || g.VipExpireDate != nil || g.TxDiscount != nil {
			t.Fatalf("guest info = %+v", g)
		}
	})
}

func TestLoginRehashesOldParameters(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTestService(t, d)
		ctx := context.Background()
		salt := []byte("0123456789abcdef")
		key := argon2.IDKey([]byte("legacy123"), salt, 1, 8*1024, 1, 32)
		old := fmt.Sprintf("$argon2id$v=19$m=8192,t=1,p=1$%s$%s", b64.EncodeToString(salt), b64.EncodeToString(key))
		id := mustInsertUser(t, d, User{Account: "legacy", PasswordHash: old, CreatedAt: 1, UpdatedAt: 1})
		if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "legacy", Password: "legacy123", IP: "10.0.0.1"}); err != nil {
			t.Fatal(err)
		}
		u, _ := s.User(ctx, id)
		if u.PasswordHash == old || !strings.HasPrefix(u.PasswordHash, fmt.Sprintf("$argon2id$v=19$m=%d,t=%d,p=%d$", argonMemory, argonTime, argonThreads)) {
			t.Fatalf("hash after login %q, want today's parameters", u.PasswordHash)
		}
		if _, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: "legacy", Password: "legacy123", IP: "10.0.0.1"}); err != nil {
			t.Fatalf("login with the new hash: %v", err)
		}
	})
}
