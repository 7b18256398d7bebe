package wallet

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
)

// registered inserts a registered user (an account name) and returns its id.
func registered(t *testing.T, d *db.DB, name string) int64 {
	t.Helper()
	var id int64
	err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		return tx.QueryRow(ctx, `INSERT INTO users (name, account, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id`,
			name, name, now.Unix(), now.Unix()).Scan(&id)
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// post inserts a community post of author in state with a price.
func post(t *testing.T, d *db.DB, author int64, state string, coins int64) int64 {
	t.Helper()
	var id int64
	err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		return tx.QueryRow(ctx, `INSERT INTO posts (author_id, kind, title, body, coins, state, created_at, published_at, updated_at)
			VALUES (?, 'picture', '', 'text', ?, ?, 1, 1, 1) RETURNING id`, author, coins, state).Scan(&id)
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// Buying a paid post: coins move once per post, a retry with the key
// answers the first purchase, and every refusal (guest, free, own, hidden,
// missing, poor, bought) moves nothing.
func TestBuyPost(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		author, alice, poor := registered(t, d, "author"), registered(t, d, "alice"), registered(t, d, "poor")
		guest := newUser(t, d)
		topUp(t, s.Ledger, d, alice, 100, "topup:alice")
		topUp(t, s.Ledger, d, guest, 100, "topup:guest")
		topUp(t, s.Ledger, d, author, 100, "topup:author")
		topUp(t, s.Ledger, d, poor, 5, "topup:poor")
		gold := post(t, d, author, "published", 30)
		free := post(t, d, author, "published", 0)
		pending := post(t, d, author, "pending", 30)
		removed := post(t, d, author, "removed", 30)
		deleted := post(t, d, author, "deleted", 30)

		for _, c := range []struct {
			name string
			uid  int64
			id   int64
			want int
		}{
			{"guest", guest, gold, 403}, {"free", alice, free, 422}, {"own", author, gold, 422},
			{"pending", alice, pending, 404}, {"own pending", author, pending, 404}, {"removed", alice, removed, 404},
			{"deleted", alice, deleted, 404}, {"missing", alice, 999999, 404}, {"poor", poor, gold, 409},
		} {
			if _, err := s.BuyPost(ctx, c.uid, c.id, "refused-"+c.name); status(err) != c.want {
				t.Errorf("%s: %v, want %d", c.name, err, c.want)
			}
		}
		if n := count(t, d, `SELECT COUNT(*) FROM post_purchases`); n != 0 {
			t.Fatalf("refused buys wrote %d purchases", n)
		}
		if coins(t, d, alice) != 100 || coins(t, d, guest) != 100 || coins(t, d, author) != 100 || coins(t, d, poor) != 5 {
			t.Fatal("a refused buy moved coins")
		}

		p, err := s.BuyPost(ctx, alice, gold, "post-buy-1")
		if err != nil || p.Price != 30 || p.PostID != gold || p.PaidWith != PaidCoins {
			t.Fatalf("buy: %+v %v", p, err)
		}
		again, err := s.BuyPost(ctx, alice, gold, "post-buy-1")
		if err != nil || again.ID != p.ID {
			t.Fatalf("replay: %+v %v", again, err)
		}
		if _, err := s.BuyPost(ctx, alice, gold, "post-buy-2"); status(err) != 409 {
			t.Fatalf("bought twice: %v", err)
		}
		if coins(t, d, alice) != 70 {
			t.Fatalf("coins %d, want 70", coins(t, d, alice))
		}
		if ok, err := s.HasBoughtPost(ctx, alice, gold); !ok || err != nil {
			t.Fatalf("HasBoughtPost: %v %v", ok, err)
		}
		if ok, _ := s.HasBoughtPost(ctx, poor, gold); ok {
			t.Fatal("alice's purchase opened the post for another user")
		}
		// A post's purchase is not a video's with the same id.
		if ok, _ := s.HasBought(ctx, alice, gold); ok {
			t.Fatal("a post purchase opened a video")
		}
		// A price change later does not touch the purchase.
		d.Exec(ctx, `UPDATE posts SET coins = 999 WHERE id = ?`, gold)
		if ok, _ := s.HasBoughtPost(ctx, alice, gold); !ok {
			t.Fatal("a price change voided the purchase")
		}
		mustCheck(t, d)
	})
}

// Parallel buys of one post with distinct keys charge once; with one key
// they all answer the same purchase.
func TestBuyPostParallel(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		author, buyer := registered(t, d, "author"), registered(t, d, "buyer")
		topUp(t, s.Ledger, d, buyer, 1000, "topup:buyer")
		a, b := post(t, d, author, "published", 40), post(t, d, author, "published", 60)
		var wg sync.WaitGroup
		codes := make([]int, 24)
		for i := range codes {
			wg.Go(func() {
				_, err := s.BuyPost(ctx, buyer, a, fmt.Sprintf("post-distinct-%03d", i))
				codes[i] = status(err)
			})
		}
		wg.Wait()
		ok := 0
		for _, c := range codes {
			switch c {
			case 200:
				ok++
			case 409:
			default:
				t.Fatalf("codes %v", codes)
			}
		}
		if ok != 1 || coins(t, d, buyer) != 960 {
			t.Fatalf("%d buys succeeded, coins %d (%v)", ok, coins(t, d, buyer), codes)
		}
		ids := make([]int64, 10)
		errs := make([]error, 10)
		for i := range ids {
			wg.Go(func() {
				p, err := s.BuyPost(ctx, buyer, b, "post-same-key")
				ids[i], errs[i] = p.ID, err
			})
		}
		wg.Wait()
		for i := range ids {
			if errs[i] != nil || ids[i] != ids[0] {
				t.Fatalf("same key: %v %v", ids, errs)
			}
		}
		if coins(t, d, buyer) != 900 || count(t, d, `SELECT COUNT(*) FROM ledger_txns WHERE user_id = ? AND kind = 'buy_post'`, buyer) != 2 {
			t.Fatalf("coins %d after two purchases", coins(t, d, buyer))
		}
		mustCheck(t, d)
	})
}

// answer is what a handler's table makes of a service's error: status, tip
// and msg, as the client reads them.
func answer(err error) string {
	var he *httpx.Error
	if !errors.As(handlerErrs.Map(err), &he) {
		return fmt.Sprintf("unmapped %v", err)
	}
	return fmt.Sprintf("%d %s | %s", he.Status, he.Tip, he.Msg)
}

// The services' refusals reach the client in the words they always had:
// the item's kind in a buy's tip, what a day's withdrawals leave, the
// payout account's state.
func TestRefusalWords(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		author, alice := registered(t, d, "author"), registered(t, d, "alice")
		guest := newUser(t, d)
		gold := post(t, d, author, "published", 30)
		free := post(t, d, author, "published", 0)
		for _, c := range []struct {
			name string
			err  error
			want string
		}{
			{"own", func() error { _, err := s.BuyPost(ctx, author, gold, "words-own"); return err }(), "422 不能购买自己的帖子 | the owner cannot buy their own item"},
			{"free", func() error { _, err := s.BuyPost(ctx, alice, free, "words-free"); return err }(), "422 该帖子无需购买 | not a gold item"},
			{"missing", func() error { _, err := s.BuyPost(ctx, alice, 999999, "words-none"); return err }(), "404 帖子不存在或已删除 | posts not found"},
			{"guest", func() error { _, err := s.BuyPost(ctx, guest, gold, "words-guest"); return err }(), "403 注册登录后才能购买帖子 | guests cannot buy posts: register first"},
			{"gallery coupon", func() error { _, err := s.BuyGallery(ctx, alice, 1, true, "words-gal"); return err }(), "422 金币视频券仅限购买视频 | coupons buy videos only"},
			{"missing video", func() error { _, err := s.BuyVideo(ctx, alice, 999999, true, "words-vid"); return err }(), "404 视频不存在或已下架 | videos not found"},
			{"grant to nobody", func() error {
				_, err := s.GrantCoupons(ctx, audit.Actor{UID: author}, CouponGrant{UID: 999999, Count: 1, Days: 1, Reason: "x", Key: "words-grant"})
				return err
			}(), "404 用户不存在 | no such user"},
			{"no withdrawal", func() error { _, _, err := s.Decide(ctx, audit.Actor{UID: author}, "W-none", true, ""); return err }(), "404 提现订单不存在 | no such withdrawal"},
			{"no orderNo", func() error { _, _, err := s.Decide(ctx, audit.Actor{UID: author}, " ", true, ""); return err }(), "422 缺少参数 orderNo | orderNo is required"},
			{"no payout account", s.DeletePayoutAccount(ctx, alice, 999999), "404 账户不存在 | no such payout account"},
			{"bad status", CheckStatus("nope"), "422 参数 status 无效 | status must be pending, paid or rejected"},
		} {
			if got := answer(c.err); got != c.want {
				t.Errorf("%s: %q, want %q", c.name, got, c.want)
			}
		}
	})
}
