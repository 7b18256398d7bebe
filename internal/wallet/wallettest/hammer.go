// Package wallettest hammers a running Prima's wallet over HTTP with many
// concurrent clients doing everything that moves money (top-ups with paid,
// replayed and forged callbacks, purchases, VIP buys, withdrawals,
// operator decisions and refunds, with repeated idempotency keys), then
// checks the ledger and the business tables against each other. The
// wallet's tests run it on both engines in process; cmd/prima's runs it
// against a `prima serve` that it kills with SIGKILL midway.
package wallettest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"prima/internal/earnings"
	"prima/internal/platform/db"
	"prima/internal/wallet"
)

// A valid TRC20 address (base58check) for payout accounts.
const trc20 = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"

// Target is the server under test.
type Target struct {
	// Base is the server's URL (http://127.0.0.1:port); a restart may
	// change it, so it is read on every call.
	Base func() string
	// Ops is an operator's token.
	Ops string
	// Sign signs a sandbox callback form (the server's sandbox secret).
	Sign func(url.Values) string
	// Down, when set, says the server is being killed or restarted:
	// transport errors then are expected and retried, not failures.
	Down *atomic.Bool
}

// User is one hammering client's account.
type User struct {
	UID      int64
	Token    string
	Password string
	Payout   int64 // a USDT payout account
}

// Fixture is what Setup made.
type Fixture struct {
	Users    []User
	Videos   []int64 // gold videos
	Package  int64   // a coin package
	VIPCoins int64   // a VIP card sold for coins (and money)
}

type envelope struct {
	Code int             `json:"code"`
	Tip  string          `json:"tip"`
	Msg  string          `json:"msg"`
	Data json.RawMessage `json:"data"`
}

var client = &http.Client{Timeout: 30 * time.Second}

// do sends one call and returns the HTTP status and the envelope. A
// transport error while tg.Down is set is retried after a pause; the
// answer may then be a replay of a request that reached the dying server,
// which is what idempotency keys are for.
func (tg *Target) do(method, path, token string, body any, header map[string]string) (int, envelope, error) {
	var raw []byte
	if body != nil {
		if s, ok := body.(string); ok {
			raw = []byte(s)
		} else {
			raw, _ = json.Marshal(body)
		}
	}
	for attempt := 0; ; attempt++ {
		req, _ := http.NewRequest(method, tg.Base()+path, bytes.NewReader(raw))
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := client.Do(req)
		if err != nil {
			if tg.Down != nil && attempt < 600 {
				time.Sleep(100 * time.Millisecond)
				continue
			}
			return 0, envelope{}, err
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		var env envelope
		if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			if err := json.Unmarshal(b, &env); err != nil {
				return resp.StatusCode, env, fmt.Errorf("%s %s: %d %s", method, path, resp.StatusCode, b)
			}
		} else {
			env.Msg = string(b)
		}
		return resp.StatusCode, env, nil
	}
}

// must makes a call that has to succeed and decodes its data into out.
func (tg *Target) must(t testing.TB, method, path, token string, body, out any, header map[string]string) {
	t.Helper()
	st, env, err := tg.do(method, path, token, body, header)
	if err != nil || st != 200 {
		t.Fatalf("%s %s: %d %v %s %s", method, path, st, err, env.Tip, env.Msg)
	}
	if out != nil {
		if err := json.Unmarshal(env.Data, out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

// Setup makes users (registered, with income and a payout account), gold
// videos, a coin package and a VIP card. The server must trust
// X-Forwarded-For from 127.0.0.1 (-trusted-proxies 127.0.0.1/32), so each
// user registers from an address of its own.
func Setup(t testing.TB, tg *Target, users, videos int) Fixture {
	t.Helper()
	var f Fixture
	var mod struct {
		ID int64 `json:"id"`
	}
	tg.must(t, "POST", "/api/admin/modules", tg.Ops, map[string]any{"name": "hammer", "moduleType": 0}, &mod, nil)
	var sub struct {
		ID int64 `json:"id"`
	}
	tg.must(t, "POST", "/api/admin/modules", tg.Ops, map[string]any{"name": "hammer-sub", "pid": mod.ID}, &sub, nil)
	for i := range videos {
		var v struct {
			ID int64 `json:"id"`
		}
		tg.must(t, "POST", "/api/admin/videos", tg.Ops, map[string]any{"title": fmt.Sprintf("gold %d", i), "subModuleId": sub.ID,
			"coins": 5 + i%20, "published": true}, &v, nil)
		f.Videos = append(f.Videos, v.ID)
	}
	var pkg struct {
		ID int64 `json:"id"`
	}
	tg.must(t, "POST", "/api/admin/currencys", tg.Ops, map[string]any{"name": "100金币", "coins": 100, "bonus": 10, "price": 1000}, &pkg, nil)
	f.Package = pkg.ID
	var card struct {
		ID int64 `json:"id"`
	}
	tg.must(t, "POST", "/api/admin/vip/products", tg.Ops, map[string]any{"level": 1, "name": "VIP周卡", "days": 7, "price": 700,
		"coins": 70, "active": true}, &card, nil)
	f.VIPCoins = card.ID
	for i := range users {
		u := User{Password: fmt.Sprintf("pass%04d", i)}
		var reg struct {
			Token string `json:"token"`
			User  struct {
				UID int64 `json:"uid"`
			} `json:"user"`
		}
		tg.must(t, "POST", "/api/app/mine/register", "", map[string]any{"account": fmt.Sprintf("hammer%d", i), "passWord": u.Password},
			&reg, map[string]string{"X-Forwarded-For": fmt.Sprintf("10.9.%d.%d", i/250, i%250+1)})
		u.Token, u.UID = reg.Token, reg.User.UID
		tg.must(t, "POST", "/api/admin/wallet/adjust", tg.Ops, map[string]any{"uid": u.UID, "account": "income", "amount": 200_000,
			"reason": "hammer income", "idempotencyKey": fmt.Sprintf("hammer-income-%d", i)}, nil, nil)
		var pa struct {
			ID int64 `json:"id"`
		}
		tg.must(t, "POST", "/api/app/mine/txnact/bank/add", u.Token, map[string]any{"actType": 2, "network": "TRC20", "address": trc20,
			"passWord": u.Password}, &pa, nil)
		u.Payout = pa.ID
		f.Users = append(f.Users, u)
	}
	return f
}

// Stats counts outcomes per operation ("topup 200", "buy 409" ...).
type Stats struct {
	mu sync.Mutex
	n  map[string]int
}

func (s *Stats) add(op string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n == nil {
		s.n = map[string]int{}
	}
	s.n[fmt.Sprintf("%s %d", op, status)]++
}

// Count is how many op calls answered status.
func (s *Stats) Count(op string, status int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n[fmt.Sprintf("%s %d", op, status)]
}

func (s *Stats) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, _ := json.Marshal(s.n)
	return string(b)
}

// allowed are the answers each operation may give; anything else (a 500
// above all) fails the run. 429 and 503 are the limits doing their work.
var allowed = map[string][]int{
	"topay":    {200, 409, 429},
	"callback": {200, 400},
	"forged":   {400},
	"buy":      {200, 409, 429},
	"vip":      {200, 409, 429},
	"withdraw": {200, 409, 429},
	"decide":   {200},
	"refund":   {200, 409},
}

// Hammer runs workers clients until ctx ends, each acting as one user of
// f (round robin), and returns what they got. An answer outside allowed
// fails t.
func Hammer(ctx context.Context, t testing.TB, tg *Target, f Fixture, workers int) *Stats {
	st := &Stats{}
	var wg sync.WaitGroup
	var orders sync.Map // order numbers paid, for refunds
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			u := f.Users[w%len(f.Users)]
			r := rand.New(rand.NewPCG(uint64(w), 42))
			var keys []string // this worker's keys, some reused
			key := func(prefix string) string {
				if len(keys) > 0 && r.IntN(10) == 0 {
					return keys[r.IntN(len(keys))]
				}
				k := fmt.Sprintf("%s-%d-%d", prefix, w, r.Uint64())
				keys = append(keys, k)
				return k
			}
			check := func(op string, status int, env envelope, err error) bool {
				if err != nil {
					t.Errorf("%s: %v", op, err)
					return false
				}
				st.add(op, status)
				for _, ok := range allowed[op] {
					if status == ok {
						return true
					}
				}
				t.Errorf("%s: unexpected %d %s %s", op, status, env.Tip, env.Msg)
				return false
			}
			for ctx.Err() == nil {
				switch n := r.IntN(100); {
				case n < 35: // top up, then pay (sometimes replayed, sometimes forged, sometimes never)
					k := key("topay")
					s, env, err := tg.do("POST", "/api/app/mine/topay", u.Token, map[string]any{"productType": "coins", "productID": f.Package,
						"payType": "sandbox", "idempotencyKey": k}, nil)
					if !check("topay", s, env, err) || s != 200 {
						continue
					}
					var o wallet.Order
					_ = json.Unmarshal(env.Data, &o)
					if o.Status != wallet.OrderPending || r.IntN(10) == 0 {
						continue // paid already (a reused key), or left to expire
					}
					form := url.Values{"orderNo": {o.OrderNo}, "amount": {fmt.Sprint(o.Amount)}, "currency": {"CNY"}, "status": {"paid"},
						"tradeNo": {"T" + o.OrderNo}, "ts": {fmt.Sprint(time.Now().Unix())}}
					if r.IntN(10) == 0 {
						form.Set("amount", fmt.Sprint(o.Amount+1)) // forged: signed, but not what the order says
						form.Set("sign", tg.Sign(form))
						s, env, err := tg.callback(form)
						check("forged", s, env, err)
						continue
					}
					form.Set("sign", tg.Sign(form))
					for range 1 + r.IntN(3) { // replays
						s, env, err := tg.callback(form)
						check("callback", s, env, err)
					}
					orders.Store(o.OrderNo, true)
				case n < 60:
					v := f.Videos[r.IntN(len(f.Videos))]
					s, env, err := tg.do("POST", "/api/app/vid/buy", u.Token, map[string]any{"id": v, "idempotencyKey": key("buy")}, nil)
					check("buy", s, env, err)
				case n < 70:
					s, env, err := tg.do("POST", "/api/app/vip/buy", u.Token, map[string]any{"productID": f.VIPCoins, "idempotencyKey": key("vip")}, nil)
					check("vip", s, env, err)
				case n < 82:
					s, env, err := tg.do("POST", "/api/app/withdraw", u.Token, map[string]any{"amount": 10_000 + r.IntN(20_000), "accountID": u.Payout,
						"passWord": u.Password, "idempotencyKey": key("wd")}, nil)
					check("withdraw", s, env, err)
				case n < 95: // an operator decides a pending withdrawal, sometimes twice at once
					s, env, err := tg.do("GET", "/api/admin/withdrawals?status=pending&pageSize=20", tg.Ops, nil, nil)
					if err != nil || s != 200 {
						check("decide", s, env, err)
						continue
					}
					var page struct {
						List []struct {
							OrderNo string `json:"orderNo"`
						} `json:"list"`
					}
					_ = json.Unmarshal(env.Data, &page)
					if len(page.List) == 0 {
						continue
					}
					no := page.List[r.IntN(len(page.List))].OrderNo
					var dw sync.WaitGroup
					for range 1 + r.IntN(2) {
						dw.Add(1)
						go func() {
							defer dw.Done()
							if r2 := rand.IntN(2); r2 == 0 {
								s, env, err := tg.do("POST", "/api/admin/withdrawals/approve", tg.Ops, map[string]any{"orderNo": no}, nil)
								check("decide", s, env, err)
							} else {
								s, env, err := tg.do("POST", "/api/admin/withdrawals/reject", tg.Ops, map[string]any{"orderNo": no, "reason": "hammer"}, nil)
								check("decide", s, env, err)
							}
						}()
					}
					dw.Wait()
				default: // an operator refunds a paid order (409 when its coins are spent)
					var no string
					orders.Range(func(k, _ any) bool { no = k.(string); return r.IntN(3) != 0 })
					if no == "" {
						continue
					}
					s, env, err := tg.do("POST", "/api/admin/orders/refund", tg.Ops, map[string]any{"orderNo": no, "reason": "hammer"}, nil)
					check("refund", s, env, err)
				}
			}
		}()
	}
	wg.Wait()
	return st
}

// callback posts a sandbox callback form.
func (tg *Target) callback(form url.Values) (int, envelope, error) {
	for attempt := 0; ; attempt++ {
		resp, err := client.Post(tg.Base()+"/api/pay/callback/sandbox", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
		if err != nil {
			if tg.Down != nil && attempt < 600 {
				time.Sleep(100 * time.Millisecond)
				continue
			}
			return 0, envelope{}, err
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode, envelope{Msg: string(b)}, nil
	}
}

// Verify checks the ledger's invariants (wallet.Check) and that the
// business tables agree with it: every paid order credited exactly once
// and no unpaid one credited; every coin purchase paid by exactly its
// price; every withdrawal's money where its state says.
func Verify(t testing.TB, d *db.DB) {
	t.Helper()
	ctx := context.Background()
	if err := wallet.Check(ctx, d, earnings.Check); err != nil {
		t.Fatal(err)
	}
	for what, q := range map[string]string{
		"orders credited not exactly once while paid (or credited while unpaid)": `SELECT o.order_no || ' ' || o.status FROM orders o
			WHERE (SELECT COUNT(*) FROM ledger_txns x WHERE x.idem_key IN ('topup:' || o.order_no, 'buyvip:' || o.order_no))
			<> CASE WHEN o.status IN ('paid', 'refunded') THEN 1 ELSE 0 END`,
		"refunded orders without exactly one refund, or refunds of others": `SELECT o.order_no || ' ' || o.status FROM orders o
			WHERE (SELECT COUNT(*) FROM ledger_txns x WHERE x.idem_key = 'refund:' || o.order_no) <> CASE WHEN o.status = 'refunded' THEN 1 ELSE 0 END`,
		"coin purchases not paid by exactly their price": `SELECT CAST(p.id AS TEXT) FROM video_purchases p WHERE p.paid_with = 'coins' AND NOT EXISTS (
			SELECT 1 FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
			WHERE e.txn_id = p.txn_id AND a.user_id = p.user_id AND a.kind = 'coins' AND e.amount = -p.price)`,
		"withdrawals whose money is not where their state says": `SELECT w.order_no || ' ' || w.status FROM withdrawals w WHERE
			(SELECT COUNT(*) FROM ledger_txns x WHERE x.idem_key = 'withdraw:' || w.order_no) <> 1
			OR (SELECT COUNT(*) FROM ledger_txns x WHERE x.idem_key = 'withdraw_paid:' || w.order_no) <> CASE WHEN w.status = 'paid' THEN 1 ELSE 0 END
			OR (SELECT COUNT(*) FROM ledger_txns x WHERE x.idem_key = 'withdraw_return:' || w.order_no) <> CASE WHEN w.status = 'rejected' THEN 1 ELSE 0 END`,
		"users whose held withdrawal money differs from their pending withdrawals": `SELECT CAST(u.id AS TEXT) FROM users u WHERE
			COALESCE((SELECT SUM(w.amount) FROM withdrawals w WHERE w.user_id = u.id AND w.status = 'pending'), 0) <>
			COALESCE((SELECT SUM(e.amount) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_txns x ON x.id = e.txn_id
				WHERE a.user_id = 0 AND a.kind = 'sys:cent:withdraw_held' AND x.user_id = u.id), 0)`,
	} {
		bad, err := db.All(ctx, d, func(s db.Scanner) (string, error) { var v string; return v, s.Scan(&v) }, q)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if len(bad) > 0 {
			t.Errorf("%s: %v", what, bad)
		}
	}
}
