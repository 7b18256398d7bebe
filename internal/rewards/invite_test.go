package rewards

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/account"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
	"prima/internal/wallet"
)

type people struct{ d *db.DB }

func (p people) InvitePeople(ctx context.Context, uids []int64) (map[int64]InvitePerson, error) {
	out := map[int64]InvitePerson{}
	for _, uid := range uids {
		var name string
		if err := p.d.QueryRow(ctx, `SELECT name FROM users WHERE id = ?`, uid).Scan(&name); err == nil {
			out[uid] = InvitePerson{UID: uid, Name: name}
		}
	}
	return out, nil
}

// Joined and FirstDevice are the account's, as the app wires them.
func (people) Joined(ctx context.Context, q db.Querier, uid int64) (int64, bool, error) {
	return account.Joined(ctx, q, uid)
}

func (people) FirstDevice(ctx context.Context, q db.Querier, uid int64) (string, error) {
	return account.FirstDevice(ctx, q, uid)
}

type inviteFixture struct {
	d    *db.DB
	acct *account.Service
	inv  *Invites
	// on is the operator's reward trigger the fixture answers with
	// (earnings' setting in the app): "phone" unless a test changes it.
	on string
}

func newInviteFixture(t *testing.T, d *db.DB) *inviteFixture {
	acct := account.NewService(d, ratelimit.NewMemory(), account.Options{})
	acct.Limits.GuestPerIP = account.Rate{N: 10000, Per: time.Minute}
	acct.Limits.RegisterPerIP = account.Rate{N: 10000, Per: time.Minute}
	inv := NewInvites(d, wallet.NewService(d), people{d}, nil, nil, "")
	acct.Invites = inv
	f := &inviteFixture{d: d, acct: acct, inv: inv, on: RewardPhone}
	inv.Trigger = func(context.Context, db.Querier) (string, error) { return f.on, nil }
	inv.Signs = Signs{Phone: account.PhoneBound, Paid: wallet.PaidOrdersSince}
	return f
}

// phone binds a phone number to uid as the account's phone flow does: the
// number and the invitation's hook in one transaction.
func (f *inviteFixture) phone(t *testing.T, uid int64, mobile string) {
	t.Helper()
	err := f.d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE users SET mobile = ? WHERE id = ?`, mobile, uid); err != nil {
			return err
		}
		return f.inv.PhoneBound(ctx, tx, uid)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// paid records a paid order of uid and tells the invitation, as the
// wallet's payment hook does.
func (f *inviteFixture) paid(t *testing.T, uid int64, no string) {
	t.Helper()
	err := f.d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO orders (order_no, user_id, product_type, product_id, title, amount, pay_type, status, created_at, expires_at, paid_at)
			VALUES (?, ?, 'coins', 1, 't', 600, 'sandbox', 'paid', 1, 2, 1)`, no, uid); err != nil {
			return err
		}
		return f.inv.Paid(ctx, tx, uid)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func dev(n int) string { return fmt.Sprintf("dev%013d1772366400000", n) }

func (f *inviteFixture) guest(t *testing.T, n int, cut string) account.Login {
	t.Helper()
	l, err := f.acct.GuestLogin(context.Background(), account.GuestLoginInput{DevID: dev(n), SysType: "h5", CutInfos: cut, IP: "10.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func (f *inviteFixture) register(t *testing.T, l account.Login, name string) error {
	t.Helper()
	sess, err := f.acct.Authenticate(context.Background(), l.Token)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.acct.Register(context.Background(), account.RegisterInput{Account: name, Password: "abc12345", IP: "10.0.0.2", Current: &sess})
	return err
}

func (f *inviteFixture) code(t *testing.T, uid int64) string {
	t.Helper()
	c, err := f.inv.Code(context.Background(), uid)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (f *inviteFixture) coins(t *testing.T, uid int64) int64 {
	t.Helper()
	n, err := wallet.Balance(context.Background(), f.d, wallet.UserCoins(uid))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (f *inviteFixture) state(t *testing.T, invitee int64) string {
	t.Helper()
	var s string
	if err := f.d.QueryRow(context.Background(), `SELECT reward_state FROM invite_bindings WHERE invitee_id = ?`, invitee).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestInviteBindRules(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newInviteFixture(t, d)
		a, b, c := f.guest(t, 1, ""), f.guest(t, 2, ""), f.guest(t, 3, "")
		codeA, codeB := f.code(t, a.User.ID), f.code(t, b.User.ID)
		if again := f.code(t, a.User.ID); again != codeA {
			t.Fatalf("code changed: %s then %s", codeA, again)
		}
		if _, ok := NormalizeInviteCode(codeA); !ok {
			t.Fatalf("code %q is not well formed", codeA)
		}
		// Lower case is the same code; the inviter comes back.
		p, err := f.inv.Bind(ctx, b.User.ID, " "+toLower(codeA)+" ")
		if err != nil || p.UID != a.User.ID {
			t.Fatalf("bind: %+v %v", p, err)
		}
		cases := []struct {
			name string
			uid  int64
			code string
			want error
		}{
			{"twice", b.User.ID, codeA, ErrBound},
			{"twice elsewhere", b.User.ID, f.code(t, c.User.ID), ErrBound},
			{"cycle", a.User.ID, codeB, ErrCycle},
			{"self", c.User.ID, f.code(t, c.User.ID), ErrSelfInvite},
			{"unknown", c.User.ID, "ZZZZZZ", ErrUnknownCode},
			{"malformed", c.User.ID, "AB0O1I", ErrBadCode},
			{"too long", c.User.ID, "ABCDEFGHJ", ErrBadCode},
			{"nul", c.User.ID, "ABC\x00EF", ErrBadCode},
		}
		for _, tc := range cases {
			if _, err := f.inv.Bind(ctx, tc.uid, tc.code); !errors.Is(err, tc.want) {
				t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
			}
		}
		// A longer cycle: C is invited by B (invited by A); A cannot bind C.
		if _, err := f.inv.Bind(ctx, c.User.ID, codeB); err != nil {
			t.Fatal(err)
		}
		if _, err := f.inv.Bind(ctx, a.User.ID, f.code(t, c.User.ID)); !errors.Is(err, ErrCycle) {
			t.Fatalf("A binding C (A->B->C): %v, want ErrCycle", err)
		}
		// The window: an account 8 days old cannot bind (default 7 days).
		old := f.guest(t, 4, "")
		if _, err := d.Exec(ctx, `UPDATE users SET created_at = ? WHERE id = ?`, time.Now().Add(-8*24*time.Hour).Unix(), old.User.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := f.inv.Bind(ctx, old.User.ID, codeA); !errors.Is(err, ErrWindow) {
			t.Fatalf("old account: %v, want ErrWindow", err)
		}
		info, err := f.inv.Info(ctx, old.User.ID)
		if err != nil || info.CanBind || info.Inviter != nil {
			t.Fatalf("old account info: %+v %v", info, err)
		}
		var n int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM invite_bindings`).Scan(&n); err != nil || n != 2 {
			t.Fatalf("%d bindings (%v), want 2: refusals changed something", n, err)
		}
		info, err = f.inv.Info(ctx, b.User.ID)
		if err != nil || info.Inviter == nil || info.Inviter.UID != a.User.ID || info.CanBind || info.Code != codeB || info.Link != "/?ic="+codeB {
			t.Fatalf("B's info: %+v %v", info, err)
		}
		info, err = f.inv.Info(ctx, a.User.ID)
		if err != nil || info.InviteCount != 1 || info.TodayCount != 1 || info.RegisteredCount != 0 || !info.CanBind || info.RewardCoins != 50 {
			t.Fatalf("A's info: %+v %v", info, err)
		}
		page, err := f.inv.Invitees(ctx, a.User.ID, 1, 20)
		if err != nil || page.Total != 1 || len(page.List) != 1 || page.List[0].UID != b.User.ID || page.List[0].Registered || page.HasMore {
			t.Fatalf("A's invitees: %+v %v", page, err)
		}
	})
}

func toLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

// The reward waits for the operator's sign (issue 19: registering alone,
// with device ids the client makes up, let one inviter farm the sign-up
// coins): registered and a bound phone ("phone"), registered and a paid
// order ("payment"), never ("off"). Whatever the trigger, it is paid once
// per invitee and once per device.
func TestInviterIsRewardedOnceTheInviteeShowsTheSign(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newInviteFixture(t, d)
		a := f.guest(t, 1, "")
		codeA := f.code(t, a.User.ID)
		// B arrives with A's link on the clipboard: bound at creation.
		b := f.guest(t, 2, "看看这个 https://prima.example/?ic="+codeA+"&x=1")
		if f.state(t, b.User.ID) != "pending" || f.coins(t, a.User.ID) != 0 {
			t.Fatal("a guest invitee paid its inviter before registering")
		}
		// A phone bound before registering is no sign on its own.
		f.phone(t, b.User.ID, "13800000002")
		if f.state(t, b.User.ID) != "pending" || f.coins(t, a.User.ID) != 0 {
			t.Fatal("a guest's phone paid its inviter")
		}
		if _, err := d.Exec(ctx, `UPDATE users SET mobile = NULL WHERE id = ?`, b.User.ID); err != nil {
			t.Fatal(err)
		}
		// Parallel registrations with B's one guest token: one upgrades B;
		// registering pays nothing while the operator waits for a phone.
		var wg sync.WaitGroup
		for i := 0; i < 4; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				_ = f.register(t, b, fmt.Sprintf("bee%d", i))
			}(i)
		}
		wg.Wait()
		if f.state(t, b.User.ID) != "pending" || f.coins(t, a.User.ID) != 0 {
			t.Fatalf("registering paid: state %s, coins %d", f.state(t, b.User.ID), f.coins(t, a.User.ID))
		}
		// B binds a phone, four times at once: the inviter is paid once.
		for range 4 {
			wg.Go(func() { f.phone(t, b.User.ID, "13800000002") })
		}
		wg.Wait()
		if got := f.coins(t, a.User.ID); got != 50 {
			t.Fatalf("inviter has %d coins, want 50", got)
		}
		if f.state(t, b.User.ID) != "rewarded" {
			t.Fatalf("state %s", f.state(t, b.User.ID))
		}
		var notices int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM notices WHERE user_id = ? AND kind = 'invite'`, a.User.ID).Scan(&notices); err != nil || notices != 1 {
			t.Fatalf("%d invite notices (%v), want 1", notices, err)
		}
		// The same phone starts over as a new guest (its user is
		// registered now), binds A again through the clipboard, registers
		// and binds a phone: the device already earned A a reward.
		b2 := f.guest(t, 2, "ic="+codeA)
		if b2.User.ID == b.User.ID {
			t.Fatal("expected a new guest on the registered device")
		}
		if err := f.register(t, b2, "beetwo"); err != nil {
			t.Fatal(err)
		}
		f.phone(t, b2.User.ID, "13800000022")
		if f.state(t, b2.User.ID) != "device" || f.coins(t, a.User.ID) != 50 {
			t.Fatalf("second invitee on one device: state %s, coins %d", f.state(t, b2.User.ID), f.coins(t, a.User.ID))
		}
		// A user who registered and bound a phone first, and binds A
		// later, pays at bind time.
		c := f.guest(t, 3, "")
		if err := f.register(t, c, "seaone"); err != nil {
			t.Fatal(err)
		}
		f.phone(t, c.User.ID, "13800000003")
		if _, err := f.inv.Bind(ctx, c.User.ID, codeA); err != nil {
			t.Fatal(err)
		}
		if f.state(t, c.User.ID) != "rewarded" || f.coins(t, a.User.ID) != 100 {
			t.Fatalf("registered invitee: state %s, coins %d", f.state(t, c.User.ID), f.coins(t, a.User.ID))
		}
		info, err := f.inv.Info(ctx, a.User.ID)
		if err != nil || info.InviteCount != 3 || info.RegisteredCount != 3 || info.RewardedCoins != 100 || info.RewardOn != "phone" || info.RewardCoins != 50 {
			t.Fatalf("A's info: %+v %v", info, err)
		}

		// "payment": registered and a phone are not enough, a paid order is.
		f.on = RewardPayment
		e := f.guest(t, 5, "ic="+codeA)
		if err := f.register(t, e, "eveone"); err != nil {
			t.Fatal(err)
		}
		f.phone(t, e.User.ID, "13800000005")
		if f.state(t, e.User.ID) != "pending" {
			t.Fatalf("payment trigger paid on a phone: %s", f.state(t, e.User.ID))
		}
		f.paid(t, e.User.ID, "P-eve-1")
		f.paid(t, e.User.ID, "P-eve-2")
		if f.state(t, e.User.ID) != "rewarded" || f.coins(t, a.User.ID) != 150 {
			t.Fatalf("first payment: state %s, coins %d", f.state(t, e.User.ID), f.coins(t, a.User.ID))
		}
		// A guest who pays, then registers: paid at registration.
		g := f.guest(t, 6, "ic="+codeA)
		f.paid(t, g.User.ID, "P-gus-1")
		if f.state(t, g.User.ID) != "pending" {
			t.Fatal("a guest's payment paid before registering")
		}
		if err := f.register(t, g, "gusone"); err != nil {
			t.Fatal(err)
		}
		if f.state(t, g.User.ID) != "rewarded" || f.coins(t, a.User.ID) != 200 {
			t.Fatalf("paid guest registering: state %s, coins %d", f.state(t, g.User.ID), f.coins(t, a.User.ID))
		}

		// "off" (the default): a registration closes the binding unpaid,
		// and a phone or payment later pays nothing.
		f.on = RewardOff
		h := f.guest(t, 7, "ic="+codeA)
		if err := f.register(t, h, "hanone"); err != nil {
			t.Fatal(err)
		}
		f.phone(t, h.User.ID, "13800000007")
		f.paid(t, h.User.ID, "P-han-1")
		if f.state(t, h.User.ID) != "off" || f.coins(t, a.User.ID) != 200 {
			t.Fatalf("off: state %s, coins %d", f.state(t, h.User.ID), f.coins(t, a.User.ID))
		}
		if info, _ := f.inv.Info(ctx, a.User.ID); info.RewardOn != "off" || info.RewardCoins != 0 {
			t.Fatalf("off info %+v", info)
		}
		if err := wallet.Check(ctx, d); err != nil {
			t.Fatalf("ledger: %v", err)
		}
	})
}

// One device farming invitees: five accounts registered and phone-bound
// one after another on one phone (each a new guest of that device) earn
// their inviter one reward, whatever the trigger waits for.
func TestOneDeviceFarmingEarnsOnce(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newInviteFixture(t, d)
		a := f.guest(t, 1, "")
		codeA := f.code(t, a.User.ID)
		var wg sync.WaitGroup
		for i := range 5 {
			g := f.guest(t, 9, "ic="+codeA)
			if err := f.register(t, g, fmt.Sprintf("farm%d", i)); err != nil {
				t.Fatal(err)
			}
			wg.Go(func() { f.phone(t, g.User.ID, fmt.Sprintf("1390000000%d", i)) })
		}
		wg.Wait()
		if got := f.coins(t, a.User.ID); got != 50 {
			t.Fatalf("farming earned %d coins, want 50", got)
		}
		var device int
		if err := d.QueryRow(context.Background(), `SELECT COUNT(*) FROM invite_bindings WHERE reward_state = 'device'`).Scan(&device); err != nil || device != 4 {
			t.Fatalf("%d refused for their device (%v), want 4", device, err)
		}
	})
}

func TestInviteDailyCapAndClipboardNoise(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newInviteFixture(t, d)
		a := f.guest(t, 1, "")
		codeA := f.code(t, a.User.ID)
		if _, err := f.inv.SetConfig(ctx, audit.Actor{UID: a.User.ID}, InviteConfig{RewardCoins: 30, WindowDays: 7, DailyCap: 1, Rules: "规则一\n\n规则二"}); err != nil {
			t.Fatal(err)
		}
		for i, name := range []string{"capone", "captwo"} {
			g := f.guest(t, 10+i, "ic="+codeA)
			if err := f.register(t, g, name); err != nil {
				t.Fatal(err)
			}
			f.phone(t, g.User.ID, fmt.Sprintf("1370000000%d", i))
		}
		if got := f.coins(t, a.User.ID); got != 30 {
			t.Fatalf("coins %d, want 30 (cap 1 a day)", got)
		}
		var capped int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM invite_bindings WHERE reward_state = 'capped'`).Scan(&capped); err != nil || capped != 1 {
			t.Fatalf("%d capped (%v), want 1", capped, err)
		}
		info, err := f.inv.Info(ctx, a.User.ID)
		if err != nil || len(info.Rules) != 2 || info.RewardCoins != 30 {
			t.Fatalf("info: %+v %v", info, err)
		}
		// Clipboard text that names no code, or an unknown one, leaves
		// the new guest unbound and the login goes on.
		for i, cut := range []string{"hello", "ic=ZZZZZZ", "music=ABCDEF", "ic=" + codeA + "\x01"} {
			g := f.guest(t, 20+i, cut)
			_, err := inviterOf(ctx, d, g.User.ID)
			if i == 3 {
				if err != nil {
					t.Errorf("%q: not bound: %v", cut, err)
				}
				continue
			}
			if !errors.Is(err, db.ErrNotFound) {
				t.Errorf("%q bound the guest (%v)", cut, err)
			}
		}
		// Operator settings: bad values refused, nothing changed.
		for _, c := range []InviteConfig{{RewardCoins: -1, WindowDays: 7, DailyCap: 1}, {RewardCoins: 1 << 40, WindowDays: 7, DailyCap: 1},
			{RewardCoins: 5, WindowDays: 0, DailyCap: 1}, {RewardCoins: 5, WindowDays: 7, DailyCap: 0}} {
			if _, err := f.inv.SetConfig(ctx, audit.Actor{}, c); err == nil {
				t.Errorf("%+v accepted", c)
			}
		}
		var audits int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE action = 'invite.config'`).Scan(&audits); err != nil || audits != 1 {
			t.Fatalf("%d audit rows (%v), want 1", audits, err)
		}
	})
}

func TestParallelBindsMakeOneBinding(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newInviteFixture(t, d)
		a, b := f.guest(t, 1, ""), f.guest(t, 2, "")
		codes := []string{f.code(t, a.User.ID), f.code(t, f.guest(t, 3, "").User.ID)}
		codeB := f.code(t, b.User.ID)
		var wg sync.WaitGroup
		var mu sync.Mutex
		ok := 0
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				// B binds A or the other, while A binds B: at most one
				// direction between A and B can win.
				uid, code := b.User.ID, codes[i%2]
				if i%4 == 3 {
					uid, code = a.User.ID, codeB
				}
				if _, err := f.inv.Bind(ctx, uid, code); err == nil {
					mu.Lock()
					ok++
					mu.Unlock()
				}
			}(i)
		}
		wg.Wait()
		var bBound, aBound int
		_ = d.QueryRow(ctx, `SELECT COUNT(*) FROM invite_bindings WHERE invitee_id = ?`, b.User.ID).Scan(&bBound)
		_ = d.QueryRow(ctx, `SELECT COUNT(*) FROM invite_bindings WHERE invitee_id = ? `, a.User.ID).Scan(&aBound)
		if bBound > 1 || aBound > 1 || ok != bBound+aBound || ok == 0 {
			t.Fatalf("%d binds succeeded; B bound %d, A bound %d", ok, bBound, aBound)
		}
		var cycle int
		_ = d.QueryRow(ctx, `SELECT COUNT(*) FROM invite_bindings x JOIN invite_bindings y ON x.inviter_id = y.invitee_id AND y.inviter_id = x.invitee_id`).Scan(&cycle)
		if cycle != 0 {
			t.Fatal("parallel binds made a cycle")
		}
	})
}

func TestBindAttemptsAreRateLimited(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newInviteFixture(t, d)
		f.inv.Limiter = ratelimit.NewMemory()
		g := f.guest(t, 1, "")
		var last error
		for i := 0; i <= BindRate.N; i++ {
			_, last = f.inv.Bind(context.Background(), g.User.ID, "ZZZZZZ")
		}
		if last == nil || last.Error() == ErrUnknownCode.Error() {
			t.Fatalf("attempt %d: %v, want a 429", BindRate.N+1, last)
		}
	})
}

func TestCodeFromText(t *testing.T) {
	for text, want := range map[string]string{
		"ic=ABC234":                            "ABC234",
		"https://x.example/?ic=abc234&a=1":     "ABC234",
		"https://x.example/#/?ic=ABC234":       "ABC234",
		"快来看 https://x.example/?a=1&ic=ABC234": "ABC234",
		"  abc234 ":                            "ABC234",
		"music=ABC234":                         "",
		"ic=ABC":                               "",
		"ic=ABCDEFGHJK":                        "",
		"ic=ABC0O1":                            "",
		"":                                     "",
		"hello world":                          "",
	} {
		got, ok := CodeFromText(text)
		if got != want || ok != (want != "") {
			t.Errorf("%q: %q %v, want %q", text, got, ok, want)
		}
	}
	for i := 0; i < 200; i++ {
		if c, ok := NormalizeInviteCode(mustCode(t)); !ok || len(c) != inviteCodeLen {
			t.Fatalf("generated %q", c)
		}
	}
	if MaskName("alice") != "a**e" || MaskName("张三") != "张*" || MaskName("") != "" {
		t.Error("MaskName")
	}
}

func mustCode(t *testing.T) string {
	t.Helper()
	c, err := randomCode(inviteCodeLen)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The operator's invitation list: every binding newest first (ties by
// invitee), or one inviter's, paged by keyset with names unmasked.
func TestAdminInvitationsPageByKeyset(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newInviteFixture(t, d)
		a, e := f.guest(t, 1, ""), f.guest(t, 2, "")
		codeA, codeE := f.code(t, a.User.ID), f.code(t, e.User.ID)
		var invitees []int64
		for i := 3; i <= 6; i++ {
			g := f.guest(t, i, "")
			code := codeA
			if i == 6 {
				code = codeE
			}
			if _, err := f.inv.Bind(ctx, g.User.ID, code); err != nil {
				t.Fatal(err)
			}
			invitees = append(invitees, g.User.ID)
		}
		walk := func(inviter int64) (got []int64, pages int) {
			var after []int64
			for {
				p, err := f.inv.Invitations(ctx, inviter, after, 2)
				if err != nil {
					t.Fatal(err)
				}
				pages++
				for _, v := range p.List {
					if v.Invitee.Name == "" || v.Inviter.Name == "" || v.BoundAt == 0 || v.RewardState != "pending" {
						t.Fatalf("row %+v", v)
					}
					got = append(got, v.Invitee.UID)
				}
				if p.NextCursor == nil {
					return got, pages
				}
				keys, ok := httpx.ParseCursor(*p.NextCursor, 2)
				if !ok || pages > 5 {
					t.Fatalf("cursor %q", *p.NextCursor)
				}
				after = keys
			}
		}
		// Bound in the same second here: newest invitee first.
		all, pages := walk(0)
		if fmt.Sprint(all) != fmt.Sprint([]int64{invitees[3], invitees[2], invitees[1], invitees[0]}) || pages != 2 {
			t.Fatalf("all: %v in %d pages", all, pages)
		}
		mine, _ := walk(a.User.ID)
		if fmt.Sprint(mine) != fmt.Sprint([]int64{invitees[2], invitees[1], invitees[0]}) {
			t.Fatalf("a's: %v", mine)
		}
		if none, _ := walk(invitees[0]); len(none) != 0 {
			t.Fatalf("an invitee's own list: %v", none)
		}
	})
}

// GET /api/admin/invites/list refuses what is not a uid, a cursor it
// did not give or a page size out of range, with a clear 4xx.
func TestAdminInvitationsRefusesBadQueries(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newInviteFixture(t, d)
		h := NewInviteHandler(f.inv)
		get := func(query string) (int, string) {
			r := httptest.NewRequest(http.MethodGet, "/?"+query, nil)
			w := httptest.NewRecorder()
			httpx.Handler(h.AdminInvitations).ServeHTTP(w, r)
			return w.Code, w.Body.String()
		}
		for _, q := range []string{"inviter=-1", "inviter=abc", "inviter=1.5", "inviter=99999999999999999999", "cursor=k1", "cursor=k1.2.3", "cursor=k-1.2", "cursor=%00", "pageSize=0", "pageSize=51", "pageSize=x"} {
			if code, body := get(q); code != 422 && code != 400 {
				t.Errorf("%s: %d %s, want 4xx", q, code, body)
			}
		}
		if code, body := get("inviter=5&pageSize=50"); code != 200 || !strings.Contains(body, `"list":[]`) || !strings.Contains(body, `"nextCursor":null`) {
			t.Errorf("empty list: %d %s", code, body)
		}
	})
}
