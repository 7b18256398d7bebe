package wallet

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"prima/internal/membership"
	"prima/internal/platform/audit"
	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// newUserAt inserts a user made at created; a registered one when account
// is not "".
func newUserAt(t *testing.T, d *db.DB, account string, created time.Time) int64 {
	t.Helper()
	var acct any
	if account != "" {
		acct = account
	}
	var id int64
	if err := d.QueryRow(context.Background(), `INSERT INTO users (account, created_at, updated_at) VALUES (?, ?, ?) RETURNING id`,
		acct, created.Unix(), created.Unix()).Scan(&id); err != nil {
		t.Fatal(err)
	}
	return id
}

func newProduct(t *testing.T, d *db.DB, p membership.Product) membership.Product {
	t.Helper()
	p.Active = true
	if p.Name == "" {
		p.Name = fmt.Sprintf("L%d %dd", p.Level, p.Days)
	}
	var out membership.Product
	if err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		var err error
		out, err = membership.SaveProduct(ctx, tx, p, now)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func tiersOf(t *testing.T, d *db.DB, uid int64) (vip, svip int64) {
	t.Helper()
	if err := d.QueryRow(context.Background(), `SELECT vip_expire_at, svip_expire_at FROM users WHERE id = ?`, uid).Scan(&vip, &svip); err != nil {
		t.Fatal(err)
	}
	return vip, svip
}

const day = int64(86400)

func TestBuySVIPDayKeepsVIPYear(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		uid := newUserAt(t, d, "alice", now.Add(-72*time.Hour))
		year := newProduct(t, d, membership.Product{Level: 1, Days: 365, Price: 19800, Coins: 1980})
		svipDay := newProduct(t, d, membership.Product{Level: 2, Days: 1, Price: 300, Coins: 30})
		month := newProduct(t, d, membership.Product{Level: 1, Days: 30, Price: 3000, Coins: 300})
		topUp(t, s.Ledger, d, uid, 3000, "topup:alice")

		if _, _, err := s.BuyVIP(ctx, uid, year.ID, "key-year-1"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.BuyVIP(ctx, uid, svipDay.ID, "key-svip-1"); err != nil {
			t.Fatal(err)
		}
		vip, svip := tiersOf(t, d, uid)
		if vip != now.Unix()+365*day || svip != now.Unix()+day {
			t.Fatalf("tiers after a VIP year and a SVIP day: vip %d svip %d (now %d)", vip, svip, now.Unix())
		}
		u := membership.User{VipExpireAt: vip, SvipExpireAt: svip}
		if l := membership.ActiveVipLevel(u, now); l != 2 {
			t.Fatalf("level today %d, want 2", l)
		}
		if l := membership.ActiveVipLevel(u, now.Add(48*time.Hour)); l != 1 {
			t.Fatalf("level in two days %d, want 1 (the VIP year resumes)", l)
		}
		// Another month extends the running year from its end, not from now.
		if _, _, err := s.BuyVIP(ctx, uid, month.ID, "key-month-1"); err != nil {
			t.Fatal(err)
		}
		if vip2, _ := tiersOf(t, d, uid); vip2 != vip+30*day {
			t.Fatalf("a month over a year: %d, want %d", vip2, vip+30*day)
		}
		if b, _ := Balance(ctx, d, UserCoins(uid)); b != 3000-1980-30-300 {
			t.Fatalf("coins left %d", b)
		}
		page, err := s.Bills(ctx, uid, BillQuery{Account: Coins, Type: "buy_vip", PageNumber: 1, PageSize: 10})
		if err != nil || page.Total != 3 || page.List[0].Amount != -300 || page.List[0].Title != "购买会员" || page.List[0].Balance != 690 {
			t.Fatalf("bill: %+v %v", page, err)
		}
		mustCheck(t, d)
	})
}

func TestBuyVIPRefusals(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		old := newUserAt(t, d, "old", now.Add(-25*time.Hour))
		fresh := newUserAt(t, d, "", now.Add(-time.Hour))
		card := newProduct(t, d, membership.Product{Level: 1, Days: 30, Price: 3000, Coins: 300})
		moneyOnly := newProduct(t, d, membership.Product{Level: 1, Days: 30, Price: 3000})
		newbie := newProduct(t, d, membership.Product{Level: 1, Days: 7, Price: 100, Coins: 10, NewUser: true})
		off := newProduct(t, d, membership.Product{Level: 2, Days: 30, Price: 6000, Coins: 600})
		if _, err := d.Exec(ctx, `UPDATE vip_products SET active = 0 WHERE id = ?`, off.ID); err != nil {
			t.Fatal(err)
		}
		topUp(t, s.Ledger, d, old, 1000, "topup:old")
		topUp(t, s.Ledger, d, fresh, 1000, "topup:fresh")
		for _, c := range []struct {
			uid, pid int64
			want     error
		}{
			{old, 999999, membership.ErrNoProduct},
			{old, off.ID, membership.ErrNoProduct},
			{old, moneyOnly.ID, ErrNotForCoins},
			{old, newbie.ID, ErrNewUserOver},
		} {
			if _, _, err := s.BuyVIP(ctx, c.uid, c.pid, fmt.Sprintf("key-refused-%d", c.pid)); !errors.Is(err, c.want) {
				t.Fatalf("product %d: %v, want %v", c.pid, err, c.want)
			}
		}
		// The new user may buy the new-user card.
		if _, _, err := s.BuyVIP(ctx, fresh, newbie.ID, "key-newbie-1"); err != nil {
			t.Fatal(err)
		}
		// Not enough coins: refused, nothing stored, so the same key works
		// once the user has the coins.
		poor := newUserAt(t, d, "poor", now.Add(-48*time.Hour))
		topUp(t, s.Ledger, d, poor, 299, "topup:poor1")
		if _, _, err := s.BuyVIP(ctx, poor, card.ID, "key-poor-01"); !errors.Is(err, ErrInsufficient) {
			t.Fatalf("short of coins: %v", err)
		}
		if vip, _ := tiersOf(t, d, poor); vip != 0 {
			t.Fatalf("a refused buy granted VIP until %d", vip)
		}
		topUp(t, s.Ledger, d, poor, 1, "topup:poor2")
		if _, replay, err := s.BuyVIP(ctx, poor, card.ID, "key-poor-01"); err != nil || replay {
			t.Fatalf("retry with coins: %v %v", replay, err)
		}
		// The same key for another card: 409, nothing moved.
		if _, _, err := s.BuyVIP(ctx, poor, newbie.ID, "key-poor-01"); !errors.Is(err, ErrKeyReused) {
			t.Fatalf("key reused: %v", err)
		}
		if b, _ := Balance(ctx, d, UserCoins(poor)); b != 0 {
			t.Fatalf("poor has %d", b)
		}
		// Lists: the new-user card only for a fresh account that has not
		// had it; once bought it is gone, and a second buy is refused.
		unused := newUserAt(t, d, "", now.Add(-time.Hour))
		for uid, want := range map[int64]int{old: 2, fresh: 2, unused: 3} {
			ps, err := s.VIPProducts(ctx, uid)
			if err != nil || len(ps.List) != want {
				t.Fatalf("user %d sees %d cards (%v), want %d", uid, len(ps.List), err, want)
			}
		}
		if ps, _ := s.VIPProducts(ctx, fresh); ps.Tiers.VIP == nil || ps.Tiers.VIP.Unix() != now.Unix()+7*day || ps.Tiers.SVIP != nil {
			t.Fatalf("fresh tiers %+v", ps.Tiers)
		}
		cd, err := s.Countdown(ctx, unused)
		if err != nil || !cd.IsNew || cd.SecondsLeft != 23*3600 || cd.Offer == nil || cd.Offer.ID != newbie.ID || cd.Used {
			t.Fatalf("unused countdown %+v %v", cd, err)
		}
		if cd, err := s.Countdown(ctx, fresh); err != nil || cd.Offer != nil || !cd.Used {
			t.Fatalf("countdown after the offer was bought %+v %v", cd, err)
		}
		if _, _, err := s.BuyVIP(ctx, fresh, newbie.ID, "key-newbie-2"); !errors.Is(err, ErrNewUserUsed) {
			t.Fatalf("the new-user card bought twice: %v", err)
		}
		// The first key again is a replay of the first purchase, not a refusal.
		if _, replay, err := s.BuyVIP(ctx, fresh, newbie.ID, "key-newbie-1"); err != nil || !replay {
			t.Fatalf("replay of the first buy: %v %v", replay, err)
		}
		if vip, _ := tiersOf(t, d, fresh); vip != now.Unix()+7*day {
			t.Fatalf("fresh VIP until %d, want one new-user card", vip)
		}
		if cd, err := s.Countdown(ctx, old); err != nil || cd.IsNew || cd.SecondsLeft != 0 || cd.Offer != nil {
			t.Fatalf("old countdown %+v %v", cd, err)
		}
		mustCheck(t, d)
	})
}

// The new-user card, tapped 20 times at once with distinct keys by one new
// account with coins for all of them: one buy, one week, 10 coins.
func TestNewUserCardParallelBuysOnce(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		uid := newUserAt(t, d, "", now.Add(-time.Hour))
		newbie := newProduct(t, d, membership.Product{Level: 1, Days: 7, Price: 100, Coins: 10, NewUser: true})
		topUp(t, s.Ledger, d, uid, 1000, "topup:newbie")
		var ok, used atomic.Int32
		var wg sync.WaitGroup
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _, err := s.BuyVIP(ctx, uid, newbie.ID, fmt.Sprintf("key-newbie-%02d", i))
				switch {
				case err == nil:
					ok.Add(1)
				case errors.Is(err, ErrNewUserUsed):
					used.Add(1)
				default:
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if ok.Load() != 1 || used.Load() != 19 {
			t.Fatalf("%d bought, %d refused; want 1 and 19", ok.Load(), used.Load())
		}
		if vip, _ := tiersOf(t, d, uid); vip != now.Unix()+7*day {
			t.Fatalf("VIP until %d, want one week", vip)
		}
		if b, _ := Balance(ctx, d, UserCoins(uid)); b != 990 {
			t.Fatalf("coins left %d, want 990", b)
		}
		mustCheck(t, d)
	})
}

// 30 parallel buys with distinct keys on a balance for 10 buy exactly 10.
func TestBuyVIPParallelDistinctKeys(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		uid := newUserAt(t, d, "rush", now.Add(-48*time.Hour))
		card := newProduct(t, d, membership.Product{Level: 1, Days: 3, Price: 100, Coins: 10})
		topUp(t, s.Ledger, d, uid, 100, "topup:rush")
		var ok, short atomic.Int32
		var wg sync.WaitGroup
		for i := range 30 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _, err := s.BuyVIP(ctx, uid, card.ID, fmt.Sprintf("key-rush-%02d", i))
				switch {
				case err == nil:
					ok.Add(1)
				case errors.Is(err, ErrInsufficient):
					short.Add(1)
				default:
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if ok.Load() != 10 || short.Load() != 20 {
			t.Fatalf("%d bought, %d refused; want 10 and 20", ok.Load(), short.Load())
		}
		if vip, _ := tiersOf(t, d, uid); vip != now.Unix()+10*3*day {
			t.Fatalf("VIP until %d, want 10 cards of 3 days", vip)
		}
		if b, _ := Balance(ctx, d, UserCoins(uid)); b != 0 {
			t.Fatalf("coins left %d", b)
		}
		mustCheck(t, d)
	})
}

// The same key sent in parallel buys once; every caller gets the first purchase.
func TestBuyVIPSameKeyParallel(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		uid := newUserAt(t, d, "twice", now.Add(-48*time.Hour))
		card := newProduct(t, d, membership.Product{Level: 2, Days: 30, Price: 6000, Coins: 600})
		topUp(t, s.Ledger, d, uid, 5000, "topup:twice")
		var first atomic.Int32
		txns := make([]int64, 10)
		var wg sync.WaitGroup
		for i := range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out, replay, err := s.BuyVIP(ctx, uid, card.ID, "key-same-tap")
				if err != nil {
					t.Error(err)
					return
				}
				if !replay {
					first.Add(1)
				}
				txns[i] = out.TxnID
			}()
		}
		wg.Wait()
		if first.Load() != 1 {
			t.Fatalf("the same key bought %d times", first.Load())
		}
		for _, id := range txns {
			if id != txns[0] || id == 0 {
				t.Fatalf("answers name different movements: %v", txns)
			}
		}
		if _, svip := tiersOf(t, d, uid); svip != now.Unix()+30*day {
			t.Fatalf("SVIP until %d, want one card", svip)
		}
		if b, _ := Balance(ctx, d, UserCoins(uid)); b != 4400 {
			t.Fatalf("coins %d, want 4400", b)
		}
		mustCheck(t, d)
	})
}

// credit gives uid income as a commission would.
func credit(t *testing.T, s *Service, d *db.DB, uid, cents int64, key string, at time.Time) {
	t.Helper()
	if err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		_, err := s.Ledger.Post(ctx, tx, Transfer{Kind: "commission", Key: key, UserID: uid, Legs: []Leg{
			{System(SysIncomePaid), -cents}, {UserIncome(uid), cents}}}, at)
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

func TestExchangeCoinsRounding(t *testing.T) {
	for _, c := range []struct {
		amount, rate, min, coins int64
		ok                       bool
	}{
		{100, 10, 100, 10, true},
		{105, 10, 100, 10, true}, // 10.5 coins: rounded down
		{199, 10, 100, 19, true},
		{99, 10, 100, 0, false}, // under the minimum
		{0, 10, 0, 0, false},
		{-100, 10, 0, 0, false},
		{5, 10, 1, 0, false},       // buys half a coin: none
		{10, 10, 1, 1, true},       // exactly one
		{1 << 62, 10, 1, 0, false}, // would overflow
	} {
		coins, ok := ExchangeCoins(c.amount, c.rate, c.min)
		if coins != c.coins || ok != c.ok {
			t.Errorf("%d cents at %d (min %d): %d %v, want %d %v", c.amount, c.rate, c.min, coins, ok, c.coins, c.ok)
		}
		// What the coins cost never exceeds the amount, and buys them.
		if ok {
			cost := ExchangeCost(coins, c.rate)
			if cost > c.amount || cost*c.rate/100 != coins {
				t.Errorf("%d coins at %d cost %d (of %d)", coins, c.rate, cost, c.amount)
			}
		}
	}
	for _, c := range []struct{ coins, rate, cost int64 }{
		{55, 10, 550}, {1, 10, 10}, {1, 3, 34}, {3, 3, 100}, {10, 100, 10}, {7, 7, 100}, {1, 7, 15},
	} {
		if got := ExchangeCost(c.coins, c.rate); got != c.cost {
			t.Errorf("%d coins at %d: cost %d, want %d", c.coins, c.rate, got, c.cost)
		}
	}
}

func TestExchange(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		uid := newUserAt(t, d, "earner", now.Add(-48*time.Hour))
		guest := newUserAt(t, d, "", now.Add(-48*time.Hour))
		credit(t, s, d, uid, 1000, "commission:1", now)
		credit(t, s, d, guest, 1000, "commission:2", now)
		if _, _, err := s.Exchange(ctx, guest, 500, "key-guest-1"); !errors.Is(err, ErrRegisteredOnly) {
			t.Fatalf("a guest exchanged: %v", err)
		}
		out, replay, err := s.Exchange(ctx, uid, 555, "key-exch-01")
		// 555 cents buy 55 coins, which cost 550: the 5 left stay income.
		if err != nil || replay || out.Coins != 55 || out.Amount != 555 || out.Taken != 550 {
			t.Fatalf("exchange: %+v %v %v", out, replay, err)
		}
		again, replay, err := s.Exchange(ctx, uid, 555, "key-exch-01")
		if err != nil || !replay || again != out {
			t.Fatalf("replay: %+v %v %v", again, replay, err)
		}
		if _, _, err := s.Exchange(ctx, uid, 99, "key-exch-02"); !errors.Is(err, ErrExchangeAmount) {
			t.Fatalf("under the minimum: %v", err)
		}
		if _, _, err := s.Exchange(ctx, uid, 461, "key-exch-03"); !errors.Is(err, ErrInsufficient) {
			t.Fatalf("more than the income: %v", err)
		}
		sum, _ := s.Summary(ctx, uid)
		if sum.Income != 450 || sum.Coins != 55 {
			t.Fatalf("after: %+v", sum)
		}
		// Parallel exchanges of the rest with distinct keys: one succeeds.
		var ok atomic.Int32
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, _, err := s.Exchange(ctx, uid, 450, fmt.Sprintf("key-par-%02d", i)); err == nil {
					ok.Add(1)
				} else if !errors.Is(err, ErrInsufficient) {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if ok.Load() != 1 {
			t.Fatalf("%d parallel exchanges of the whole income went through", ok.Load())
		}
		for a, want := range map[Account]int64{UserIncome(uid): 0, UserCoins(uid): 100, System(SysIncomeExchange): 1000, System(SysCoinsExchanged): -100, UserIncome(guest): 1000} {
			if b, _ := Balance(ctx, d, a); b != want {
				t.Errorf("%v: %d, want %d", a, b, want)
			}
		}
		inc, err := s.Bills(ctx, uid, BillQuery{Account: Income, Type: "exchange", PageNumber: 1, PageSize: 10})
		if err != nil || inc.Total != 2 || inc.List[0].Amount != -450 || inc.List[0].Title != "收益兑换金币" {
			t.Fatalf("income bill: %+v %v", inc, err)
		}
		mustCheck(t, d)
	})
}

func TestBillsFilters(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		uid := newUserAt(t, d, "biller", now.Add(-480*time.Hour))
		other := newUserAt(t, d, "other", now.Add(-480*time.Hour))
		// 2026-02-28 23:30 and 2026-03-01 00:30 Shanghai: February and March
		// there, both still February in UTC.
		feb := time.Date(2026, 2, 28, 23, 30, 0, 0, days.Zone)
		mar := time.Date(2026, 3, 1, 0, 30, 0, 0, days.Zone)
		post := func(kind, key string, uid, coins int64, at time.Time) {
			if err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				_, err := s.Ledger.Post(ctx, tx, Transfer{Kind: kind, Key: key, UserID: uid, Ref: key, Legs: []Leg{
					{System(SysCoinsPromo), -coins}, {UserCoins(uid), coins}}}, at)
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}
		for i := range 5 {
			post("bonus", fmt.Sprintf("b:%d", i), uid, 10, feb)
		}
		post("topup", "t:1", uid, 100, mar)
		post("topup", "t:2", other, 100, mar)
		all, err := s.Bills(ctx, uid, BillQuery{Account: Coins, PageNumber: 1, PageSize: 4})
		if err != nil || all.Total != 6 || len(all.List) != 4 || !all.HasMore || all.List[0].Type != "topup" || all.List[0].Balance != 150 {
			t.Fatalf("first page: %+v %v", all, err)
		}
		p2, err := s.Bills(ctx, uid, BillQuery{Account: Coins, PageNumber: 2, PageSize: 4})
		if err != nil || len(p2.List) != 2 || p2.HasMore || p2.List[1].Balance != 10 || p2.List[1].Title != "充值赠送" {
			t.Fatalf("second page: %+v %v", p2, err)
		}
		for _, c := range []struct {
			typ, month string
			want       int
		}{{"bonus", "", 5}, {"topup", "", 1}, {"", "2026-02", 5}, {"", "2026-03", 1}, {"topup", "2026-02", 0}, {"", "2026-04", 0}, {"buy_vip", "", 0}} {
			p, err := s.Bills(ctx, uid, BillQuery{Account: Coins, Type: c.typ, Month: c.month, PageNumber: 1, PageSize: 20})
			if err != nil || p.Total != c.want || len(p.List) != c.want {
				t.Errorf("type %q month %q: %d (%d listed), %v; want %d", c.typ, c.month, p.Total, len(p.List), err, c.want)
			}
		}
		// Past the end: an empty page, not an error.
		if p, err := s.Bills(ctx, uid, BillQuery{Account: Coins, PageNumber: 9, PageSize: 4}); err != nil || len(p.List) != 0 || p.HasMore || p.List == nil {
			t.Fatalf("past the end: %+v %v", p, err)
		}
		// No income account yet: an empty bill.
		if p, err := s.Bills(ctx, uid, BillQuery{Account: Income, PageNumber: 1, PageSize: 4}); err != nil || p.Total != 0 {
			t.Fatalf("no income: %+v %v", p, err)
		}
		mustCheck(t, d)
	})
}

func TestAdjust(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		op := newUserAt(t, d, "operator", now.Add(-480*time.Hour))
		uid := newUserAt(t, d, "adjusted", now.Add(-48*time.Hour))
		actor := audit.Actor{UID: op, IP: "192.0.2.9"}
		out, replay, err := s.Adjust(ctx, actor, Adjustment{UID: uid, Account: Coins, Amount: 500, Reason: "补偿"}, "key-adj-001")
		if err != nil || replay || out.Balance != 500 {
			t.Fatalf("credit: %+v %v %v", out, replay, err)
		}
		if again, replay, err := s.Adjust(ctx, actor, Adjustment{UID: uid, Account: Coins, Amount: 500, Reason: "补偿"}, "key-adj-001"); err != nil || !replay || again != out {
			t.Fatalf("replay: %+v %v %v", again, replay, err)
		}
		if _, _, err := s.Adjust(ctx, actor, Adjustment{UID: uid, Account: Coins, Amount: -501, Reason: "扣回"}, "key-adj-002"); !errors.Is(err, ErrInsufficient) {
			t.Fatalf("debit below zero: %v", err)
		}
		if _, _, err := s.Adjust(ctx, actor, Adjustment{UID: uid, Account: Income, Amount: -1, Reason: "扣回"}, "key-adj-003"); !errors.Is(err, ErrInsufficient) {
			t.Fatalf("income debit below zero: %v", err)
		}
		if _, _, err := s.Adjust(ctx, actor, Adjustment{UID: 999999, Account: Coins, Amount: 1, Reason: "x"}, "key-adj-004"); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("unknown user: %v", err)
		}
		if out, _, err := s.Adjust(ctx, actor, Adjustment{UID: uid, Account: Income, Amount: 250, Reason: "活动奖励"}, "key-adj-005"); err != nil || out.Balance != 250 {
			t.Fatalf("income credit: %+v %v", out, err)
		}
		var audits int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE action = 'wallet.adjust' AND actor_uid = ? AND target_id = ?`, op, fmt.Sprint(uid)).Scan(&audits); err != nil || audits != 2 {
			t.Fatalf("%d audit rows, %v; want 2 (refusals and replays write none)", audits, err)
		}
		aw, err := s.AdminWallet(ctx, uid, "", nil, 50)
		if err != nil || aw.Wallet.Coins != 500 || aw.Wallet.Income != 250 || len(aw.Entries) != 2 || aw.Entries[0].OperatorID != op || aw.Entries[0].Memo != "活动奖励" || aw.Entries[0].Account != Income {
			t.Fatalf("admin wallet: %+v %v", aw, err)
		}
		mustCheck(t, d)
	})
}

func TestSaveProduct(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		actor := audit.Actor{UID: 1}
		p, err := s.SaveProduct(ctx, actor, membership.Product{Level: 2, Name: "超级VIP 月卡", Days: 30, Price: 6000, Coins: 600, Coupons: 2, Active: true})
		if err != nil || p.ID == 0 || !p.Active || p.Coupons != 2 {
			t.Fatalf("create: %+v %v", p, err)
		}
		p.Active = false
		p.Label = "下架"
		if q, err := s.SaveProduct(ctx, actor, p); err != nil || q.Active || q.Label != "下架" {
			t.Fatalf("update: %+v %v", q, err)
		}
		if _, err := s.SaveProduct(ctx, actor, membership.Product{ID: 424242, Level: 1, Name: "x", Days: 1, Price: 1}); !errors.Is(err, membership.ErrNoProduct) {
			t.Fatalf("update of nothing: %v", err)
		}
		all, _ := s.AdminProducts(ctx)
		active, _ := membership.Products(ctx, d)
		if len(all) != 1 || len(active) != 0 {
			t.Fatalf("%d cards, %d active", len(all), len(active))
		}
	})
}
