package wallet

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

var now = time.Unix(1_800_000_000, 0)

// topUp credits uid with coins as a paid order would.
func topUp(t *testing.T, l *Ledger, d *db.DB, uid, coins int64, key string) Posted {
	t.Helper()
	var p Posted
	err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		var err error
		p, err = l.Post(ctx, tx, Transfer{Kind: "topup", Key: key, UserID: uid, Legs: []Leg{
			{System(SysPayments), -coins * 10}, {System(SysSales), coins * 10},
			{System(SysCoinsSold), -coins}, {UserCoins(uid), coins},
		}}, now)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func spend(l *Ledger, d *db.DB, uid, coins int64, key string) (Posted, error) {
	var p Posted
	err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		var err error
		p, err = l.Post(ctx, tx, Transfer{Kind: "buy_video", Key: key, UserID: uid, Legs: []Leg{
			{UserCoins(uid), -coins}, {System(SysCoinsSpent), coins},
		}}, now)
		return err
	})
	return p, err
}

func mustCheck(t *testing.T, d *db.DB) {
	t.Helper()
	if err := Check(context.Background(), d); err != nil {
		t.Fatal(err)
	}
}

func TestPostMovesAndReplays(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		l := NewLedger()
		p := topUp(t, l, d, 7, 100, "topup:A")
		if p.Replayed || p.Balances[UserCoins(7)] != 100 {
			t.Fatalf("first top-up: %+v", p)
		}
		// The same key again moves nothing and names the first movement.
		p2 := topUp(t, l, d, 7, 100, "topup:A")
		if !p2.Replayed || p2.TxnID != p.TxnID || p2.Balances[UserCoins(7)] != 100 {
			t.Fatalf("replay: %+v, first %+v", p2, p)
		}
		if _, err := spend(l, d, 7, 30, "buy:1"); err != nil {
			t.Fatal(err)
		}
		// Too much: refused, nothing written, the balance as it was.
		_, err := spend(l, d, 7, 71, "buy:2")
		var ie *InsufficientError
		if !errors.As(err, &ie) || !errors.Is(err, ErrInsufficient) || ie.Balance != 70 || ie.Need != 71 {
			t.Fatalf("overspend: %v", err)
		}
		// A user with no account yet cannot spend either.
		if _, err := spend(l, d, 8, 1, "buy:3"); !errors.Is(err, ErrInsufficient) {
			t.Fatalf("spend without an account: %v", err)
		}
		for a, want := range map[Account]int64{UserCoins(7): 70, UserCoins(8): 0, System(SysCoinsSpent): 30, System(SysCoinsSold): -100, System(SysSales): 1000} {
			if b, err := Balance(ctx, d, a); err != nil || b != want {
				t.Errorf("%v: %d, %v; want %d", a, b, err, want)
			}
		}
		var txns int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM ledger_txns`).Scan(&txns); err != nil || txns != 2 {
			t.Fatalf("%d movements, %v; want 2 (the refused ones leave none)", txns, err)
		}
		mustCheck(t, d)
	})
}

func TestPostRefusesUnbalanced(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		l := NewLedger()
		for name, legs := range map[string][]Leg{
			"sum not zero":      {{UserCoins(1), 10}, {System(SysCoinsPromo), -9}},
			"currencies mixed":  {{UserCoins(1), 10}, {System(SysPayments), -10}},
			"one leg":           {{UserCoins(1), 0}},
			"zero amount":       {{UserCoins(1), 0}, {System(SysCoinsPromo), 0}},
			"unknown user kind": {{Account{UserID: 1, Kind: "gems"}, 5}, {System(SysCoinsPromo), -5}},
			"unknown system":    {{UserCoins(1), 5}, {System("sys:gem:x"), -5}},
			"same account":      {{UserCoins(1), 5}, {UserCoins(1), -5}},
		} {
			err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
				_, err := l.Post(ctx, tx, Transfer{Kind: "adjust", Key: "k:" + name, Legs: legs}, now)
				return err
			})
			if !errors.Is(err, ErrUnbalanced) {
				t.Errorf("%s: %v", name, err)
			}
		}
		mustCheck(t, d)
	})
}

// Many spenders race for one balance: exactly as many succeed as it
// covers, and the same key posted in parallel moves once.
func TestPostUnderContention(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		l := NewLedger()
		topUp(t, l, d, 1, 20, "topup:1")
		var ok, short atomic.Int64
		var wg sync.WaitGroup
		for i := range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := spend(l, d, 1, 1, fmt.Sprintf("buy:%d", i))
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
		if ok.Load() != 20 || short.Load() != 30 {
			t.Fatalf("%d spent, %d refused; want 20 and 30", ok.Load(), short.Load())
		}
		topUp(t, l, d, 2, 50, "topup:2")
		var first atomic.Int64
		for range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p, err := spend(l, d, 2, 5, "buy:same")
				if err != nil {
					t.Error(err)
					return
				}
				if !p.Replayed {
					first.Add(1)
				}
				if p.Balances[UserCoins(2)] != 45 {
					t.Errorf("balance after %d", p.Balances[UserCoins(2)])
				}
			}()
		}
		wg.Wait()
		if first.Load() != 1 {
			t.Fatalf("the same key moved %d times", first.Load())
		}
		// Two new accounts created by parallel first credits: one row each.
		for i := range 10 {
			wg.Add(1)
			go func() { defer wg.Done(); topUp(t, l, d, 3, 1, fmt.Sprintf("topup:3:%d", i)) }()
		}
		wg.Wait()
		if b, _ := Balance(context.Background(), d, UserCoins(3)); b != 10 {
			t.Fatalf("parallel first credits: %d", b)
		}
		mustCheck(t, d)
	})
}

func TestCheckFindsBreaches(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		l := NewLedger()
		topUp(t, l, d, 1, 20, "topup:1")
		mustCheck(t, d)
		if _, err := d.Exec(ctx, `UPDATE ledger_accounts SET balance = balance + 1 WHERE user_id = 1`); err != nil {
			t.Fatal(err)
		}
		if err := Check(ctx, d); err == nil {
			t.Fatal("a balance edited behind the ledger passed the check")
		}
		if _, err := d.Exec(ctx, `UPDATE ledger_accounts SET balance = balance - 1 WHERE user_id = 1`); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Exec(ctx, `UPDATE ledger_entries SET amount = amount + 1 WHERE amount = 20`); err != nil {
			t.Fatal(err)
		}
		if err := Check(ctx, d); err == nil {
			t.Fatal("an edited entry passed the check")
		}
	})
}

func TestOnce(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		calls := 0
		run := func(uid int64, key string, req any, fail bool) (int, bool, error) {
			var out int
			var replay bool
			err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				var err error
				out, replay, err = Once(ctx, tx, uid, "buy", key, req, now, func() (int, error) {
					calls++
					if fail {
						return 0, errors.New("refused")
					}
					return 100 + calls, nil
				})
				return err
			})
			return out, replay, err
		}
		if _, _, err := run(1, "key-0001", map[string]int{"id": 1}, true); err == nil {
			t.Fatal("fn's error was lost")
		}
		// A failed first attempt stored nothing: the retry runs.
		out, replay, err := run(1, "key-0001", map[string]int{"id": 1}, false)
		if err != nil || replay || out != 102 {
			t.Fatalf("retry after failure: %d %v %v", out, replay, err)
		}
		out, replay, err = run(1, "key-0001", map[string]int{"id": 1}, false)
		if err != nil || !replay || out != 102 || calls != 2 {
			t.Fatalf("replay: %d %v %v, %d calls", out, replay, err, calls)
		}
		if _, _, err := run(1, "key-0001", map[string]int{"id": 2}, false); !errors.Is(err, ErrKeyReused) {
			t.Fatalf("same key, other request: %v", err)
		}
		// Keys are per user: another user's same key is a new request.
		if out, replay, err := run(2, "key-0001", map[string]int{"id": 1}, false); err != nil || replay || out != 103 {
			t.Fatalf("other user: %d %v %v", out, replay, err)
		}
	})
}

func TestCheckKey(t *testing.T) {
	for key, ok := range map[string]bool{"": false, "short": false, "abcd-1234": true, "a:b.c_d-e": true,
		"has space1": false, "nul\x00nul00": false, "ключ-12345": false, string(make([]byte, 65)): false} {
		if err := CheckKey(key); (err == nil) != ok {
			t.Errorf("%q: %v", key, err)
		}
	}
}
