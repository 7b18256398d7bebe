package earnings_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"prima/internal/earnings"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// Everything that moves earnings at once, on both engines: payments (each
// order told twice, as racing notifies are), refunds (some twice), the
// settlement job, the settings flipping between settling at once and
// after a week, and coin sales of creators' posts. Among the users: a
// cycle in the bindings, an inviter sharing a device with an invitee, an
// approved promoter. Afterwards the rows equal the ledger (Check), and
// every commission row is earned by the payer's level-th ancestor, who is
// never the payer, never met lower in the chain, and never shares the
// payer's device.
func TestEarningsHammer(t *testing.T) {
	if testing.Short() {
		t.Skip("hammer: long")
	}
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		e.shop()
		users := make([]int64, 14)
		for i := range users {
			users[i] = e.user(t, fmt.Sprintf("user%02d", i))
			e.coins(t, users[i], 10_000, fmt.Sprintf("adj:%d", i))
		}
		// 0 <- 1 <- 2 <- 3 <- 4, 0 <- 5 <- 6, 1 <- 7, 8 <- 9 <- 8 (a cycle), 9 <- 10,
		// 11 and 12 alone; 13 is 6's second account on 6's phone.
		for _, p := range [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {0, 5}, {5, 6}, {1, 7}, {8, 9}, {9, 8}, {9, 10}, {6, 13}} {
			e.bind(t, users[p[0]], users[p[1]])
		}
		e.device(t, users[6], "phone-of-6")
		e.exec(t, `INSERT INTO sessions (token_hash, user_id, dev_id, created_at, last_seen_at, expires_at) VALUES ('h13', ?, 'phone-of-6', 1, 1, 9999999999)`, users[13])
		e.approvePromoter(t, users[1])
		e.creator(t, users[11])
		posts := []int64{e.post(t, users[11], 30, "a"), e.post(t, users[11], 45, "b"), e.post(t, users[12], 30, "c")}

		var (
			mu     sync.Mutex
			paid   []string
			payers = map[string]int64{}
			seq    atomic.Int64
		)
		var wg sync.WaitGroup
		for w := range 8 {
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(w), 7))
				for range 30 {
					switch op := r.IntN(10); {
					case op < 4: // a payment, told twice at once
						payer := users[r.IntN(len(users))]
						no := fmt.Sprintf("P-h-%04d", seq.Add(1))
						amount := int64(100 + r.IntN(50_000))
						var two sync.WaitGroup
						for range 2 {
							two.Go(func() {
								if err := e.pay(t, payer, no, amount); err != nil {
									t.Error(err)
								}
							})
						}
						two.Wait()
						mu.Lock()
						paid, payers[no] = append(paid, no), payer
						mu.Unlock()
					case op < 6: // a refund of a paid order (the wallet refunds once; earnings may hear twice)
						mu.Lock()
						if len(paid) == 0 {
							mu.Unlock()
							continue
						}
						no := paid[r.IntN(len(paid))]
						payer := payers[no]
						mu.Unlock()
						if err := e.refund(t, payer, no, 1); err != nil {
							t.Error(err)
						}
					case op < 8:
						if _, err := e.s.SettleDue(ctx); err != nil {
							t.Error(err)
						}
					case op < 9:
						days := 0
						if r.IntN(2) == 0 {
							days = 7
						}
						if _, err := e.s.SetConfig(ctx, opActor, earnings.Config{Levels: []int64{1000, 300, 100}, PromoterLevels: []int64{2000, 500, 200},
							SettleDays: days, CreatorShareBps: 5000, InviteReward: "off"}); err != nil {
							t.Error(err)
						}
					default:
						buyer := users[r.IntN(len(users))]
						_, _ = e.wallet.BuyPost(ctx, buyer, posts[r.IntN(len(posts))], fmt.Sprintf("k-h-%06d", seq.Add(1)))
					}
				}
			})
		}
		wg.Wait()
		// Half of what is pending comes due; settle it with a refund of
		// everything still pending racing it.
		*e.clock = now.AddDate(0, 0, 8)
		var last sync.WaitGroup
		last.Go(func() {
			if _, err := e.s.SettleDue(ctx); err != nil {
				t.Error(err)
			}
		})
		for _, no := range paid[:len(paid)/2] {
			last.Go(func() {
				if err := e.refund(t, payers[no], no, 1); err != nil {
					t.Error(err)
				}
			})
		}
		last.Wait()
		e.check(t)

		inviter := map[int64]int64{}
		rows, err := db.All(ctx, d, func(r db.Scanner) ([2]int64, error) {
			var v [2]int64
			return v, r.Scan(&v[0], &v[1])
		}, `SELECT invitee_id, inviter_id FROM invite_bindings`)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			inviter[r[0]] = r[1]
		}
		type row struct {
			no           string
			level        int
			earner, paid int64
		}
		all, err := db.All(ctx, d, func(r db.Scanner) (row, error) {
			var v row
			return v, r.Scan(&v.no, &v.level, &v.earner, &v.paid)
		}, `SELECT order_no, level, user_id, payer_id FROM commissions`)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) == 0 {
			t.Fatal("the hammer made no commission")
		}
		for _, c := range all {
			seen := map[int64]bool{c.paid: true}
			up := c.paid
			for range c.level {
				up = inviter[up]
				if seen[up] {
					up = -1
					break
				}
				seen[up] = true
			}
			if up != c.earner || c.earner == c.paid {
				t.Errorf("%s level %d: earned by %d, the chain gives %d (payer %d)", c.no, c.level, c.earner, up, c.paid)
			}
			if c.paid == users[13] && c.earner == users[6] {
				t.Errorf("%s: 6 earned from their own second account", c.no)
			}
		}
		var earned int64
		_ = d.QueryRow(ctx, `SELECT COUNT(*) FROM creator_earnings WHERE user_id = ?`, users[12]).Scan(&earned)
		if earned != 0 {
			t.Errorf("a user who is not a creator earned %d times", earned)
		}
		t.Logf("%d orders, %d commission rows", len(paid), len(all))
	})
}
