package wallet

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/ratelimit"
)

const (
	goodCard  = "6222021234567890128"
	goodTRC20 = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"
	goodERC20 = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" // EIP-55's own example
)

func TestPayoutValidation(t *testing.T) {
	one, two, three := int64(1), int64(2), int64(3)
	for name, c := range map[string]struct {
		in PayoutInput
		ok bool
	}{
		"card":                {PayoutInput{ActType: &one, Number: goodCard, Holder: "张三", BankName: "中国银行"}, true},
		"card with spaces":    {PayoutInput{ActType: &one, Number: "4111 1111 1111 1111", Holder: "Zhang San", BankName: "ICBC"}, true},
		"card 15 digits":      {PayoutInput{ActType: &one, Number: "622848000000000", Holder: "阿卜杜·热合曼", BankName: "农业银行(乌鲁木齐分行)"}, true},
		"card luhn wrong":     {PayoutInput{ActType: &one, Number: "6222021234567890127", Holder: "张三", BankName: "中国银行"}, false},
		"card too short":      {PayoutInput{ActType: &one, Number: "42424242424", Holder: "张三", BankName: "中国银行"}, false},
		"card too long":       {PayoutInput{ActType: &one, Number: "62220212345678901280", Holder: "张三", BankName: "中国银行"}, false},
		"card letters":        {PayoutInput{ActType: &one, Number: "6222O21234567890128", Holder: "张三", BankName: "中国银行"}, false},
		"card negative":       {PayoutInput{ActType: &one, Number: "-622202123456789012", Holder: "张三", BankName: "中国银行"}, false},
		"holder empty":        {PayoutInput{ActType: &one, Number: goodCard, Holder: "  ", BankName: "中国银行"}, false},
		"holder digits":       {PayoutInput{ActType: &one, Number: goodCard, Holder: "张三1", BankName: "中国银行"}, false},
		"holder too long":     {PayoutInput{ActType: &one, Number: goodCard, Holder: "张三张三张三张三张三张三张三张三张三张三张三张三张三张三张三张", BankName: "中国银行"}, false},
		"holder control":      {PayoutInput{ActType: &one, Number: goodCard, Holder: "张\u0000三", BankName: "中国银行"}, false},
		"bank missing":        {PayoutInput{ActType: &one, Number: goodCard, Holder: "张三"}, false},
		"bank symbols":        {PayoutInput{ActType: &one, Number: goodCard, Holder: "张三", BankName: "<script>"}, false},
		"trc20":               {PayoutInput{ActType: &two, Network: "TRC20", Address: goodTRC20}, true},
		"trc20 lower network": {PayoutInput{ActType: &two, Network: "trc20", Address: goodTRC20}, true},
		"trc20 checksum":      {PayoutInput{ActType: &two, Network: "TRC20", Address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u"}, false},
		"trc20 not base58":    {PayoutInput{ActType: &two, Network: "TRC20", Address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj60"}, false},
		"trc20 short":         {PayoutInput{ActType: &two, Network: "TRC20", Address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6"}, false},
		"trc20 bitcoin":       {PayoutInput{ActType: &two, Network: "TRC20", Address: "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"}, false},
		"erc20 checksummed":   {PayoutInput{ActType: &two, Network: "ERC20", Address: goodERC20}, true},
		"erc20 lower":         {PayoutInput{ActType: &two, Network: "ERC20", Address: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"}, true},
		"erc20 upper":         {PayoutInput{ActType: &two, Network: "ERC20", Address: "0x5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED"}, true},
		"erc20 bad checksum":  {PayoutInput{ActType: &two, Network: "ERC20", Address: "0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}, false},
		"erc20 not hex":       {PayoutInput{ActType: &two, Network: "ERC20", Address: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg"}, false},
		"erc20 no 0x":         {PayoutInput{ActType: &two, Network: "ERC20", Address: "5aaeb6053f3e94c9b9a09f33669435e7ef1beaed00"}, false},
		"erc20 on trc20":      {PayoutInput{ActType: &two, Network: "TRC20", Address: goodERC20}, false},
		"network missing":     {PayoutInput{ActType: &two, Address: goodTRC20}, false},
		"network unknown":     {PayoutInput{ActType: &two, Network: "BEP20", Address: goodERC20}, false},
		"type missing":        {PayoutInput{Number: goodCard, Holder: "张三", BankName: "中国银行"}, false},
		"type unknown":        {PayoutInput{ActType: &three, Number: goodCard, Holder: "张三", BankName: "中国银行"}, false},
	} {
		_, err := validatePayout(c.in)
		if (err == nil) != c.ok {
			t.Errorf("%s: %v", name, err)
		}
		if err != nil && status(err) != http.StatusUnprocessableEntity {
			t.Errorf("%s: %v is not a 422", name, err)
		}
	}
	// A TRC20 address of the wrong version byte with a valid checksum.
	if err := CheckTRC20("1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"); err == nil {
		t.Error("a bitcoin address passed as TRC20")
	}
	if MaskCard(goodCard) != "**** **** **** 0128" || MaskAddress(goodTRC20) != "TR7NHq****Lj6t" {
		t.Errorf("masks: %q %q", MaskCard(goodCard), MaskAddress(goodTRC20))
	}
}

func TestFee(t *testing.T) {
	for _, c := range [][3]int64{{10000, 20, 2000}, {10001, 20, 2001}, {10099, 20, 2020}, {10000, 0, 0}, {10000, 100, 10000}, {10001, 3, 301}, {5_000_000, 20, 1_000_000}} {
		if got := Fee(c[0], c[1]); got != c[2] {
			t.Errorf("Fee(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
}

// fakePasswords: uid -> password; a uid missing is a guest.
type fakePasswords map[int64]string

func (f fakePasswords) VerifyPassword(_ context.Context, uid int64, pw, _ string) error {
	want, ok := f[uid]
	switch {
	case !ok:
		return ErrGuest
	case pw != want:
		return ErrWrongPassword
	}
	return nil
}

type fixture struct {
	s   *Service
	d   *db.DB
	now time.Time
}

func newFixture(t *testing.T, d *db.DB) *fixture {
	t.Helper()
	f := &fixture{s: NewService(d), d: d, now: time.Date(2026, 11, 23, 2, 0, 0, 0, time.UTC)}
	f.s.SetClock(func() time.Time { return f.now })
	f.s.Passwords = fakePasswords{1: "pw-one", 2: "pw-two"}
	f.s.Limiter = ratelimit.NewMemory()
	for uid, acct := range map[int64]any{1: "alice", 2: "bob", 3: nil} {
		if _, err := d.Exec(context.Background(), `INSERT INTO users (id, name, account, created_at, updated_at) VALUES (?, ?, ?, 0, 0)`,
			uid, fmt.Sprint("u", uid), acct); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// earn credits uid's income as a commission would.
func (f *fixture) earn(t *testing.T, uid, cents int64) {
	t.Helper()
	err := f.d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		_, err := f.s.Ledger.Post(ctx, tx, Transfer{Kind: "commission", Key: fmt.Sprintf("commission:%d:%d:%d", uid, cents, time.Now().UnixNano()),
			UserID: uid, Legs: []Leg{{System(SysIncomePaid), -cents}, {UserIncome(uid), cents}}}, f.now)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) card(t *testing.T, uid int64, pw string) PayoutAccount {
	t.Helper()
	one := int64(ActBank)
	a, err := f.s.AddPayout(context.Background(), uid, "192.0.2.1", PayoutInput{ActType: &one, Number: goodCard, Holder: "张三", BankName: "中国银行", PassWord: pw})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func (f *fixture) withdraw(uid, amount, accountID int64, key string) (Withdrawal, error) {
	return f.s.Withdraw(context.Background(), uid, "192.0.2.1", key, WithdrawInput{Amount: &amount, AccountID: &accountID, PassWord: map[int64]string{1: "pw-one", 2: "pw-two"}[uid]})
}

func (f *fixture) summary(t *testing.T, uid int64) Summary {
	t.Helper()
	s, err := f.s.Summary(context.Background(), uid)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestPayoutAccounts(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		one, two := int64(ActBank), int64(ActUSDT)
		// Guests cannot add; a wrong or missing password adds nothing.
		in := PayoutInput{ActType: &one, Number: goodCard, Holder: "张三", BankName: "中国银行"}
		in.PassWord = "x"
		if _, err := f.s.AddPayout(ctx, 3, "ip", in); !errors.Is(err, ErrGuest) {
			t.Fatalf("guest: %v", err)
		}
		in.PassWord = ""
		if _, err := f.s.AddPayout(ctx, 3, "ip", in); !errors.Is(err, ErrGuest) {
			t.Fatalf("guest without password: %v", err)
		}
		if _, err := f.s.AddPayout(ctx, 1, "ip", in); status(err) != 422 {
			t.Fatalf("no password: %v", err)
		}
		in.PassWord = "wrong"
		if _, err := f.s.AddPayout(ctx, 1, "ip", in); !errors.Is(err, ErrWrongPassword) {
			t.Fatalf("wrong password: %v", err)
		}
		a := f.card(t, 1, "pw-one")
		if a.Number != "**** **** **** 0128" || a.Holder != "张三" || a.ActType != ActBank || a.Address != "" {
			t.Fatalf("card: %+v", a)
		}
		// The same card twice: 409.
		in.PassWord = "pw-one"
		if _, err := f.s.AddPayout(ctx, 1, "ip", in); status(err) != 409 {
			t.Fatalf("duplicate: %v", err)
		}
		u, err := f.s.AddPayout(ctx, 1, "ip", PayoutInput{ActType: &two, Network: "erc20", Address: goodERC20, PassWord: "pw-one"})
		if err != nil || u.Network != ERC20 || u.Address != "0x5aAe****eAed" || u.Number != "" {
			t.Fatalf("usdt: %+v %v", u, err)
		}
		// The same address in another case is the same address.
		if _, err := f.s.AddPayout(ctx, 1, "ip", PayoutInput{ActType: &two, Network: "ERC20", Address: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", PassWord: "pw-one"}); status(err) != 409 {
			t.Fatalf("duplicate in lower case: %v", err)
		}
		// Five of a type at most, even when added in parallel.
		var wg sync.WaitGroup
		var added atomic.Int64
		for _, n := range []string{"4111111111111111", "622848000000000", "5555555555554444", "378282246310005", "6011111111111117", "3530111333300000"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := f.s.AddPayoutAccount(ctx, 1, PayoutInput{ActType: &one, Number: n, Holder: "张三", BankName: "中国银行"})
				if err == nil {
					added.Add(1)
				} else if status(err) != 409 {
					t.Error(n, err)
				}
			}()
		}
		wg.Wait()
		cards, err := f.s.PayoutAccounts(ctx, 1, ActBank)
		if err != nil || len(cards) != MaxPayoutAccounts || added.Load() != 4 {
			t.Fatalf("%d cards (%d added in parallel), %v", len(cards), added.Load(), err)
		}
		// Bob sees none of Alice's, and cannot delete them (404, as an unknown id).
		if l, _ := f.s.PayoutAccounts(ctx, 2, ActBank); len(l) != 0 {
			t.Fatalf("bob sees %v", l)
		}
		if err := f.s.DeletePayoutAccount(ctx, 2, a.ID); status(err) != 404 {
			t.Fatalf("bob deletes alice's: %v", err)
		}
		if err := f.s.DeletePayoutAccount(ctx, 1, 999999); status(err) != 404 {
			t.Fatalf("unknown id: %v", err)
		}
		// An account a pending withdrawal pays to stays.
		f.earn(t, 1, 50_000)
		if _, err := f.withdraw(1, 10_000, a.ID, "wd-key-0001"); err != nil {
			t.Fatal(err)
		}
		if err := f.s.DeletePayoutAccount(ctx, 1, a.ID); status(err) != 409 {
			t.Fatalf("delete with pending: %v", err)
		}
		if err := f.s.DeletePayoutAccount(ctx, 1, u.ID); err != nil {
			t.Fatal(err)
		}
		if err := f.s.DeletePayoutAccount(ctx, 1, u.ID); status(err) != 404 {
			t.Fatalf("deleted twice: %v", err)
		}
		if l, _ := f.s.PayoutAccounts(ctx, 1, ActUSDT); len(l) != 0 {
			t.Fatalf("deleted account listed: %v", l)
		}
		mustCheck(t, d)
	})
}

func TestWithdrawAndDecide(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		a := f.card(t, 1, "pw-one")
		b := f.card(t, 2, "pw-two")
		f.earn(t, 1, 100_000)

		// Bad input: nothing moves.
		for name, c := range map[string]struct {
			amount, account int64
			want            int
		}{
			"zero":            {0, a.ID, 422},
			"negative":        {-10_000, a.ID, 422},
			"below min":       {9_999, a.ID, 422},
			"above max":       {5_000_001, a.ID, 422},
			"huge":            {1 << 62, a.ID, 422},
			"no account":      {10_000, 0, 422},
			"unknown account": {10_000, 999_999, 404},
			"bob's account":   {10_000, b.ID, 404},
			"more than held":  {100_001, a.ID, 409},
		} {
			if _, err := f.withdraw(1, c.amount, c.account, "bad-key-"+name); status(err) != c.want {
				t.Errorf("%s: %v, want %d", name, err, c.want)
			}
		}
		if _, err := f.withdraw(3, 10_000, a.ID, "guest-key-1"); !errors.Is(err, ErrGuest) {
			t.Fatalf("guest: %v", err)
		}
		amt, acc := int64(10_000), a.ID
		if _, err := f.s.Withdraw(ctx, 1, "ip", "wrong-pw-1", WithdrawInput{Amount: &amt, AccountID: &acc, PassWord: "nope"}); !errors.Is(err, ErrWrongPassword) {
			t.Fatalf("wrong password: %v", err)
		}
		if s := f.summary(t, 1); s.Income != 100_000 || s.IncomeFrozen != 0 {
			t.Fatalf("refused withdrawals moved money: %+v", s)
		}

		// A withdrawal holds the whole amount; the fee is 20% rounded up.
		w1, err := f.withdraw(1, 30_001, a.ID, "wd-key-0001")
		if err != nil {
			t.Fatal(err)
		}
		if w1.Status != StatusPending || w1.Fee != 6001 || w1.Net != 24_000 || w1.Account.Number != "**** **** **** 0128" || w1.DecidedAt != nil {
			t.Fatalf("withdrawal: %+v", w1)
		}
		if s := f.summary(t, 1); s.Income != 69_999 || s.IncomeFrozen != 30_001 {
			t.Fatalf("after withdraw: %+v", s)
		}
		// The same key again: the same answer, nothing moved; other params: 409.
		again, err := f.withdraw(1, 30_001, a.ID, "wd-key-0001")
		if err != nil || again.OrderNo != w1.OrderNo {
			t.Fatalf("replay: %+v %v", again, err)
		}
		if _, err := f.withdraw(1, 30_002, a.ID, "wd-key-0001"); status(err) != 409 {
			t.Fatalf("key reused: %v", err)
		}
		if s := f.summary(t, 1); s.Income != 69_999 {
			t.Fatalf("replay moved: %+v", s)
		}
		// A user's own fee percent (txDiscount).
		if _, err := d.Exec(ctx, `UPDATE users SET tx_discount = 5 WHERE id = 1`); err != nil {
			t.Fatal(err)
		}
		w2, err := f.withdraw(1, 20_000, a.ID, "wd-key-0002")
		if err != nil || w2.Fee != 1000 {
			t.Fatalf("5%%: %+v %v", w2, err)
		}

		// Approve: held -> payouts + fees; twice changes nothing.
		op := audit.Actor{UID: 99, IP: "192.0.2.9"}
		got, changed, err := f.s.Decide(ctx, op, w1.OrderNo, true, "")
		if err != nil || !changed || got.Status != StatusPaid || got.Account.Number != goodCard || got.UserID != 1 || got.DecidedAt == nil {
			t.Fatalf("approve: %+v %v %v", got, changed, err)
		}
		got, changed, err = f.s.Decide(ctx, op, w1.OrderNo, true, "")
		if err != nil || changed || got.Status != StatusPaid {
			t.Fatalf("approve twice: %+v %v %v", got, changed, err)
		}
		// Rejecting a paid one changes nothing either.
		got, changed, err = f.s.Decide(ctx, op, w1.OrderNo, false, "太晚了")
		if err != nil || changed || got.Status != StatusPaid || got.Reason != "" {
			t.Fatalf("reject a paid one: %+v %v %v", got, changed, err)
		}
		for sys, want := range map[string]int64{SysPayouts: 24_000, SysWithdrawFees: 6001, SysWithdrawHeld: 20_000} {
			if b, _ := Balance(ctx, d, System(sys)); b != want {
				t.Errorf("%s: %d, want %d", sys, b, want)
			}
		}
		// Reject: the amount returns to income, with the reason.
		if _, _, err := f.s.Decide(ctx, op, w2.OrderNo, false, ""); status(err) != 422 {
			t.Fatalf("reject without reason: %v", err)
		}
		if _, _, err := f.s.Decide(ctx, op, w2.OrderNo, false, "bad\x00reason"); status(err) != 422 {
			t.Fatalf("reject with NUL: %v", err)
		}
		got, changed, err = f.s.Decide(ctx, op, w2.OrderNo, false, "账户信息有误")
		if err != nil || !changed || got.Status != StatusRejected || got.Reason != "账户信息有误" {
			t.Fatalf("reject: %+v %v %v", got, changed, err)
		}
		if _, changed, _ := f.s.Decide(ctx, op, w2.OrderNo, true, ""); changed {
			t.Fatal("approved a rejected withdrawal")
		}
		if _, _, err := f.s.Decide(ctx, op, "W-nope", true, ""); status(err) != 404 {
			t.Fatalf("unknown order: %v", err)
		}
		if s := f.summary(t, 1); s.Income != 69_999 || s.IncomeFrozen != 0 {
			t.Fatalf("after decisions: %+v", s)
		}
		// One audit entry and one notice per decision that changed something.
		var audits, notices int
		d.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE action LIKE 'withdraw.%' AND actor_uid = 99`).Scan(&audits)
		d.QueryRow(ctx, `SELECT COUNT(*) FROM notices WHERE user_id = 1 AND kind = 'withdraw'`).Scan(&notices)
		if audits != 2 || notices != 2 {
			t.Fatalf("%d audits, %d notices; want 2 and 2", audits, notices)
		}
		// The user's list: newest first, masked, with the reason.
		p, err := f.s.Withdrawals(ctx, 1, "", 1, 20)
		if err != nil || p.Total != 2 || p.List[0].OrderNo != w2.OrderNo || p.List[0].Reason != "账户信息有误" || p.List[1].Status != StatusPaid ||
			p.List[0].Account.Number != "**** **** **** 0128" {
			t.Fatalf("list: %+v %v", p, err)
		}
		if p, _ := f.s.Withdrawals(ctx, 2, "", 1, 20); p.Total != 0 {
			t.Fatalf("bob sees %+v", p)
		}
		if p, _ := f.s.AdminWithdrawals(ctx, 0, StatusPaid, 1, 20); p.Total != 1 || p.List[0].Account.Number != goodCard {
			t.Fatalf("admin list: %+v", p)
		}
		mustCheck(t, d)
	})
}

func TestWithdrawDailyLimits(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		f.s.Settings.WithdrawDailyMax = 50_000
		a := f.card(t, 1, "pw-one")
		f.earn(t, 1, 1_000_000)
		w, err := f.withdraw(1, 30_000, a.ID, "day-key-01")
		if err != nil {
			t.Fatal(err)
		}
		// 30,000 + 20,001 is over the day's 50,000.
		if _, err := f.withdraw(1, 20_001, a.ID, "day-key-02"); status(err) != 409 {
			t.Fatalf("over the daily amount: %v", err)
		}
		// A rejected one does not count.
		if _, _, err := f.s.Decide(ctx, audit.Actor{UID: 9}, w.OrderNo, false, "no"); err != nil {
			t.Fatal(err)
		}
		for i := range 3 {
			if _, err := f.withdraw(1, 10_000, a.ID, fmt.Sprintf("day-key-1%d", i)); err != nil {
				t.Fatal(i, err)
			}
		}
		if _, err := f.withdraw(1, 10_000, a.ID, "day-key-20"); status(err) != 409 {
			t.Fatalf("a fourth withdrawal: %v", err)
		}
		// The Shanghai day turns at 16:00 UTC.
		f.now = time.Date(2026, 11, 23, 15, 59, 0, 0, time.UTC)
		if _, err := f.withdraw(1, 10_000, a.ID, "day-key-21"); status(err) != 409 {
			t.Fatalf("still the same Shanghai day: %v", err)
		}
		f.now = time.Date(2026, 11, 23, 16, 0, 0, 0, time.UTC)
		if _, err := f.withdraw(1, 10_000, a.ID, "day-key-22"); err != nil {
			t.Fatalf("the next Shanghai day: %v", err)
		}
		mustCheck(t, d)
	})
}

// Races: parallel withdrawals of the whole balance, parallel withdrawals
// against the daily count, parallel decisions of one withdrawal and the
// same key sent in parallel. On PostgreSQL these run truly at once.
func TestWithdrawRaces(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		f.s.Settings.WithdrawDailyCount = 100
		f.s.Limiter = nil // the races send more than the hourly limit
		a := f.card(t, 1, "pw-one")
		f.earn(t, 1, 50_000)
		run := func(n int, fn func(i int) error) (ok, refused int64) {
			var wg sync.WaitGroup
			var okN, refN atomic.Int64
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					switch err := fn(i); {
					case err == nil:
						okN.Add(1)
					case status(err) == 409:
						refN.Add(1)
					default:
						t.Error(err)
					}
				}()
			}
			wg.Wait()
			return okN.Load(), refN.Load()
		}
		// Ten withdrawals of the whole balance: one wins.
		ok, refused := run(10, func(i int) error {
			_, err := f.withdraw(1, 50_000, a.ID, fmt.Sprintf("race-all-%d", i))
			return err
		})
		if ok != 1 || refused != 9 {
			t.Fatalf("whole balance: %d won, %d refused", ok, refused)
		}
		if s := f.summary(t, 1); s.Income != 0 || s.IncomeFrozen != 50_000 {
			t.Fatalf("after the race: %+v", s)
		}
		// The same key twenty times at once: one withdrawal.
		f.earn(t, 1, 20_000)
		orders := make(chan string, 20)
		ok, _ = run(20, func(int) error {
			w, err := f.withdraw(1, 20_000, a.ID, "race-same-key")
			if err == nil {
				orders <- w.OrderNo
			}
			return err
		})
		close(orders)
		first := <-orders
		for o := range orders {
			if o != first {
				t.Fatalf("one key made two orders: %s, %s", first, o)
			}
		}
		if ok != 20 {
			t.Fatalf("replays answered %d of 20", ok)
		}
		// The daily count holds under a race: 3 left of 5.
		f.s.Settings.WithdrawDailyCount = 5
		f.earn(t, 1, 200_000)
		ok, refused = run(10, func(i int) error {
			_, err := f.withdraw(1, 10_000, a.ID, fmt.Sprintf("race-count-%d", i))
			return err
		})
		if ok != 3 || refused != 7 {
			t.Fatalf("daily count: %d won, %d refused; want 3 and 7", ok, refused)
		}
		// Approve and reject the same withdrawal at once: one decision.
		p, _ := f.s.AdminWithdrawals(ctx, 1, StatusPending, 1, 50)
		var changes atomic.Int64
		var wg sync.WaitGroup
		for _, w := range p.List {
			for i := range 6 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					_, changed, err := f.s.Decide(ctx, audit.Actor{UID: 7}, w.OrderNo, i%2 == 0, "拒绝")
					if err != nil {
						t.Error(err)
					}
					if changed {
						changes.Add(1)
					}
				}()
			}
		}
		wg.Wait()
		if int(changes.Load()) != len(p.List) {
			t.Fatalf("%d changes for %d withdrawals", changes.Load(), len(p.List))
		}
		if s := f.summary(t, 1); s.IncomeFrozen != 0 {
			t.Fatalf("frozen after every decision: %+v", s)
		}
		var entries int
		d.QueryRow(ctx, `SELECT COUNT(*) FROM ledger_txns WHERE kind IN ('withdraw_paid', 'withdraw_return')`).Scan(&entries)
		if entries != len(p.List) {
			t.Fatalf("%d decision movements for %d withdrawals", entries, len(p.List))
		}
		mustCheck(t, d)
	})
}

// The per-user limits of payout calls: over it 429, the limiter down 503
// (fail closed), nothing moved either way.
func TestWithdrawLimiter(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		a := f.card(t, 1, "pw-one")
		f.earn(t, 1, 10_000_000)
		f.s.Settings.WithdrawDailyCount = 100
		f.s.Settings.WithdrawDailyMax = 1 << 40
		for i := range WithdrawRate.N {
			if _, err := f.withdraw(1, 10_000, a.ID, fmt.Sprintf("lim-key-%d", i)); err != nil {
				t.Fatal(i, err)
			}
		}
		if _, err := f.withdraw(1, 10_000, a.ID, "lim-key-over"); status(err) != 429 {
			t.Fatalf("over the limit: %v", err)
		}
		f.s.Limiter = downLimiter{}
		if _, err := f.withdraw(2, 10_000, a.ID, "lim-key-down"); status(err) != 503 {
			t.Fatalf("limiter down: %v", err)
		}
		one := int64(ActBank)
		if _, err := f.s.AddPayout(context.Background(), 2, "ip", PayoutInput{ActType: &one, Number: goodCard, Holder: "李四", BankName: "中国银行", PassWord: "pw-two"}); status(err) != 503 {
			t.Fatalf("add with the limiter down: %v", err)
		}
		if s := f.summary(t, 1); s.IncomeFrozen != int64(WithdrawRate.N)*10_000 {
			t.Fatalf("frozen %d", s.IncomeFrozen)
		}
		mustCheck(t, d)
	})
}
