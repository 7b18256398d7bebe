package wallet

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"prima/internal/catalog"
	"prima/internal/community"
	"prima/internal/gallery"
	"prima/internal/membership"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// shop is a module with gold videos (25 coins each), a free video, a gold
// draft and a gold gallery (30 coins).
type shop struct {
	gold    []int64
	free    int64
	draft   int64
	gallery int64
}

func newShop(t *testing.T, d *db.DB, golds int) shop {
	t.Helper()
	var s shop
	at := now.Unix()
	err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		mod, err := catalog.InsertModule(ctx, tx, 0, "首页", 0, 1, at)
		if err != nil {
			return err
		}
		sub, err := catalog.InsertModule(ctx, tx, mod, "推荐", 0, 1, at)
		if err != nil {
			return err
		}
		add := func(coins int64, published bool) (int64, error) {
			return catalog.InsertVideo(ctx, tx, catalog.NewVideo{Title: "v", Cover: "/c.jpg", Duration: 60, ModuleID: mod, SubModuleID: sub,
				Coins: coins, Published: published, CreatedAt: at})
		}
		for range golds {
			id, err := add(25, true)
			if err != nil {
				return err
			}
			s.gold = append(s.gold, id)
		}
		if s.free, err = add(0, true); err != nil {
			return err
		}
		if s.draft, err = add(25, false); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `INSERT INTO galleries (title, module_id, sub_module_id, vip_level, coins, image_count, published, created_at, updated_at)
			VALUES ('g', ?, ?, 0, 30, 0, 1, ?, ?) RETURNING id`, mod, sub, at, at).Scan(&s.gallery)
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// newUser inserts a user row and returns its id.
func newUser(t *testing.T, d *db.DB) int64 {
	t.Helper()
	var id int64
	err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		return tx.QueryRow(ctx, `INSERT INTO users (created_at, updated_at) VALUES (?, ?) RETURNING id`, now.Unix(), now.Unix()).Scan(&id)
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func testService(d *db.DB) *Service {
	s := NewService(d)
	s.SetClock(func() time.Time { return now })
	wireGoods(s)
	return s
}

// wireGoods reads the goods through their owners, as internal/app does.
func wireGoods(s *Service) {
	s.VideoGoods, s.PublishedVideos = catalog.VideoGoods, catalog.PublishedVideos
	s.GalleryGoods, s.PostGoods = gallery.GalleryGoods, community.PostGoods
}

func coins(t *testing.T, d *db.DB, uid int64) int64 {
	t.Helper()
	b, err := Balance(context.Background(), d, UserCoins(uid))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func count(t *testing.T, d *db.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := d.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// handlerErrs are the tables the handlers answer with: services return
// sentinels, and a test asks what a handler would answer.
var handlerErrs = slices.Concat(purchaseErrs, couponGrantErrs, withdrawErrs, payErrs, vipErrs, passwordErrs, limitErrs)

// status is the HTTP status an error maps to (200 for nil).
func status(err error) int {
	if err == nil {
		return 200
	}
	var he *httpx.Error
	if errors.As(handlerErrs.Map(err), &he) {
		return he.Status
	}
	return 500
}

func TestBuyVideo(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		sh := newShop(t, d, 2)
		alice, bob, carol := newUser(t, d), newUser(t, d), newUser(t, d)
		topUp(t, s.Ledger, d, alice, 100, "topup:alice")
		topUp(t, s.Ledger, d, carol, 10, "topup:carol")

		p, err := s.BuyVideo(ctx, alice, sh.gold[0], false, "key-0001")
		if err != nil || p.Price != 25 || p.PaidWith != PaidCoins || p.VideoID != sh.gold[0] {
			t.Fatalf("buy: %+v %v", p, err)
		}
		if got := coins(t, d, alice); got != 75 {
			t.Fatalf("coins after buy = %d, want 75", got)
		}
		// A retry with the same key answers the first purchase and moves nothing.
		p2, err := s.BuyVideo(ctx, alice, sh.gold[0], false, "key-0001")
		if err != nil || p2.ID != p.ID || coins(t, d, alice) != 75 {
			t.Fatalf("replay: %+v %v", p2, err)
		}
		// The same key for another request is refused.
		if _, err := s.BuyVideo(ctx, alice, sh.gold[1], false, "key-0001"); !errors.Is(err, ErrKeyReused) || status(err) != 409 {
			t.Fatalf("key reuse: %v", err)
		}
		// A second buy with a fresh key: already bought, nothing moves.
		if _, err := s.BuyVideo(ctx, alice, sh.gold[0], false, "key-0002"); !errors.Is(err, ErrAlreadyBought) || status(err) != 409 {
			t.Fatalf("second buy: %v", err)
		}
		// Not gold, unpublished, unknown.
		for _, c := range []struct {
			id   int64
			want int
		}{{sh.free, 422}, {sh.draft, 404}, {999999, 404}} {
			if _, err := s.BuyVideo(ctx, alice, c.id, false, fmt.Sprintf("key-x%d", c.id)); status(err) != c.want {
				t.Fatalf("buy %d: %v, want %d", c.id, err, c.want)
			}
		}
		if got := coins(t, d, alice); got != 75 {
			t.Fatalf("coins after refused buys = %d, want 75", got)
		}
		// Too few coins: 409, no purchase, no stored key, balance as it was.
		_, err = s.BuyVideo(ctx, carol, sh.gold[0], false, "key-carol")
		if !errors.Is(err, ErrInsufficient) || status(err) != 409 {
			t.Fatalf("insufficient: %v", err)
		}
		if n := count(t, d, `SELECT COUNT(*) FROM video_purchases WHERE user_id = ?`, carol); n != 0 {
			t.Fatalf("refused buy wrote %d purchases", n)
		}
		if n := count(t, d, `SELECT COUNT(*) FROM idempotency_keys WHERE user_id = ?`, carol); n != 0 {
			t.Fatalf("refused buy stored its key")
		}
		if coins(t, d, carol) != 10 {
			t.Fatal("refused buy moved coins")
		}
		// The refused key is evaluated again once carol can pay.
		topUp(t, s.Ledger, d, carol, 20, "topup:carol2")
		if _, err := s.BuyVideo(ctx, carol, sh.gold[0], false, "key-carol"); err != nil || coins(t, d, carol) != 5 {
			t.Fatalf("retry after top-up: %v, coins %d", err, coins(t, d, carol))
		}

		// Access: alice's purchase opens the video for alice, not for bob.
		m := membership.NewService(d, s)
		for _, c := range []struct {
			uid    int64
			reason string
		}{{alice, membership.ReasonBought}, {bob, membership.ReasonNeedCoins}} {
			a, err := m.Check(ctx, c.uid, membership.Video{ID: sh.gold[0], Coins: 25})
			if err != nil || a.Reason != c.reason {
				t.Fatalf("access of %d: %+v %v, want %s", c.uid, a, err, c.reason)
			}
		}
		// A price change does not void the purchase or rewrite what was paid.
		if _, err := d.Exec(ctx, `UPDATE videos SET coins = 999 WHERE id = ?`, sh.gold[0]); err != nil {
			t.Fatal(err)
		}
		if a, _ := m.Check(ctx, alice, membership.Video{ID: sh.gold[0], Coins: 999}); a.Reason != membership.ReasonBought {
			t.Fatalf("after a price change: %+v", a)
		}
		page, err := s.VideoPurchases(ctx, alice, 1, 20)
		if err != nil || page.Total != 1 || len(page.List) != 1 || page.List[0].Price != 25 || page.List[0].VideoID != sh.gold[0] {
			t.Fatalf("buyVid: %+v %v", page, err)
		}
		// Bob's list is his own: empty.
		if page, err := s.VideoPurchases(ctx, bob, 1, 20); err != nil || page.Total != 0 || len(page.List) != 0 {
			t.Fatalf("bob's buyVid: %+v %v", page, err)
		}
		mustCheck(t, d)
	})
}

func TestBuyGallery(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		sh := newShop(t, d, 1)
		alice, bob := newUser(t, d), newUser(t, d)
		topUp(t, s.Ledger, d, alice, 50, "topup:alice")
		if _, err := s.BuyGallery(ctx, alice, sh.gallery, true, "gal-coupon"); status(err) != 422 {
			t.Fatalf("gallery with a coupon: %v", err)
		}
		p, err := s.BuyGallery(ctx, alice, sh.gallery, false, "gal-00001")
		if err != nil || p.Price != 30 || p.GalleryID != sh.gallery {
			t.Fatalf("gallery buy: %+v %v", p, err)
		}
		if _, err := s.BuyGallery(ctx, alice, sh.gallery, false, "gal-00002"); status(err) != 409 {
			t.Fatalf("gallery bought twice: %v", err)
		}
		// The gallery's purchase is not a video's with the same id.
		if ok, _ := s.HasBought(ctx, alice, sh.gallery); ok && sh.gallery != sh.gold[0] {
			t.Fatal("a gallery purchase opened a video")
		}
		if ok, err := s.HasBoughtGallery(ctx, alice, sh.gallery); !ok || err != nil {
			t.Fatalf("HasBoughtGallery: %v %v", ok, err)
		}
		if ok, _ := s.HasBoughtGallery(ctx, bob, sh.gallery); ok {
			t.Fatal("alice's gallery opened for bob")
		}
		m := membership.NewService(d, s)
		g := membership.Video{ID: sh.gallery, Coins: 30}
		if a, err := m.CheckGallery(ctx, alice, g); err != nil || a.Reason != membership.ReasonBought {
			t.Fatalf("alice's gallery access: %+v %v", a, err)
		}
		if a, err := m.CheckGallery(ctx, bob, g); err != nil || a.Reason != membership.ReasonNeedCoins {
			t.Fatalf("bob's gallery access: %+v %v", a, err)
		}
		if coins(t, d, alice) != 20 {
			t.Fatalf("coins = %d, want 20", coins(t, d, alice))
		}
		mustCheck(t, d)
	})
}

// 30 buys of one video with distinct keys: one succeeds, the rest are 409,
// the coins move once. Then 10 buys with one key: all get the same answer.
func TestParallelBuys(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		sh := newShop(t, d, 2)
		uid := newUser(t, d)
		topUp(t, s.Ledger, d, uid, 1000, "topup:1")

		var wg sync.WaitGroup
		codes := make([]int, 30)
		for i := range codes {
			wg.Go(func() {
				_, err := s.BuyVideo(ctx, uid, sh.gold[0], false, fmt.Sprintf("distinct-%03d", i))
				codes[i] = status(err)
			})
		}
		wg.Wait()
		ok, conflict := 0, 0
		for _, c := range codes {
			switch c {
			case 200:
				ok++
			case 409:
				conflict++
			}
		}
		if ok != 1 || conflict != 29 {
			t.Fatalf("distinct keys: %d ok, %d conflicts (%v)", ok, conflict, codes)
		}
		if coins(t, d, uid) != 975 {
			t.Fatalf("coins = %d, want 975", coins(t, d, uid))
		}

		ids := make([]int64, 10)
		errs := make([]error, 10)
		for i := range ids {
			wg.Go(func() {
				p, err := s.BuyVideo(ctx, uid, sh.gold[1], false, "same-key-1")
				ids[i], errs[i] = p.ID, err
			})
		}
		wg.Wait()
		for i := range ids {
			if errs[i] != nil || ids[i] != ids[0] {
				t.Fatalf("same key: %v %v", ids, errs)
			}
		}
		if coins(t, d, uid) != 950 {
			t.Fatalf("coins = %d, want 950", coins(t, d, uid))
		}
		if n := count(t, d, `SELECT COUNT(*) FROM ledger_txns WHERE user_id = ? AND kind = 'buy_video'`, uid); n != 2 {
			t.Fatalf("%d buy movements, want 2", n)
		}
		mustCheck(t, d)
	})
}

func TestCoupons(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		sh := newShop(t, d, 10)
		uid, other := newUser(t, d), newUser(t, d)
		topUp(t, s.Ledger, d, uid, 100, "topup:1")
		op := audit.Actor{UID: other}
		// No coupon yet: 409, nothing written.
		if _, err := s.BuyVideo(ctx, uid, sh.gold[0], true, "coupon-none"); status(err) != 409 {
			t.Fatalf("buy without a coupon: %v", err)
		}
		if _, err := s.GrantCoupons(ctx, op, CouponGrant{UID: uid, Count: 2, Days: 7, Reason: "test", Key: "grant-0001"}); err != nil {
			t.Fatal(err)
		}
		// A replayed grant gives nothing more; an unknown user is 404.
		if _, err := s.GrantCoupons(ctx, op, CouponGrant{UID: uid, Count: 2, Days: 7, Reason: "test", Key: "grant-0001"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.GrantCoupons(ctx, op, CouponGrant{UID: 999999, Count: 2, Days: 7, Reason: "test", Key: "grant-0002"}); status(err) != 404 {
			t.Fatalf("grant to nobody: %v", err)
		}
		if n := count(t, d, `SELECT COUNT(*) FROM audit_log WHERE action = 'coupon.grant'`); n != 1 {
			t.Fatalf("%d audit rows, want 1", n)
		}
		groups, err := s.CouponGroups(ctx, uid)
		if err != nil || len(groups) != 3 || groups[0].Position != "unused" || len(groups[0].Coupons) != 1 || groups[0].Coupons[0].Count != 2 {
			t.Fatalf("backpack: %+v %v", groups, err)
		}

		// 10 coupon buys of different videos at once: the 2 coupons pay 2.
		var wg sync.WaitGroup
		codes := make([]int, 10)
		for i := range codes {
			wg.Go(func() {
				p, err := s.BuyVideo(ctx, uid, sh.gold[i], true, fmt.Sprintf("coupon-%03d", i))
				codes[i] = status(err)
				if err == nil && (p.Price != 0 || p.PaidWith != PaidCoupon) {
					t.Errorf("coupon purchase: %+v", p)
				}
			})
		}
		wg.Wait()
		ok := 0
		for _, c := range codes {
			if c == 200 {
				ok++
			} else if c != 409 {
				t.Fatalf("coupon race codes: %v", codes)
			}
		}
		if ok != 2 {
			t.Fatalf("coupon race: %d succeeded, want 2 (%v)", ok, codes)
		}
		if coins(t, d, uid) != 100 {
			t.Fatalf("coupon buys moved coins: %d", coins(t, d, uid))
		}
		if n := count(t, d, `SELECT COUNT(*) FROM video_purchases WHERE user_id = ? AND paid_with = 'coupon' AND coupon_id > 0`, uid); n != 2 {
			t.Fatalf("%d coupon purchases, want 2", n)
		}
		groups, _ = s.CouponGroups(ctx, uid)
		if len(groups[0].Coupons) != 0 || len(groups[1].Coupons) != 1 || groups[1].Coupons[0].Count != 2 {
			t.Fatalf("backpack after use: %+v", groups)
		}

		// An expired coupon is listed as expired and pays nothing.
		if _, err := s.GrantCoupons(ctx, op, CouponGrant{UID: uid, Count: 1, Days: 1, Reason: "short", Key: "grant-0003"}); err != nil {
			t.Fatal(err)
		}
		s.SetClock(func() time.Time { return now.Add(25 * time.Hour) })
		groups, _ = s.CouponGroups(ctx, uid)
		if len(groups[2].Coupons) != 1 || groups[2].Coupons[0].Count != 1 || len(groups[0].Coupons) != 0 {
			t.Fatalf("backpack with an expired coupon: %+v", groups)
		}
		if _, err := s.BuyVideo(ctx, uid, sh.gold[9], true, "coupon-late"); status(err) != 409 {
			t.Fatalf("an expired coupon paid: %v", err)
		}
		mustCheck(t, d)
	})
}

// A VIP card with coupons grants them with its days, in the same
// transaction.
func TestGrantVIPCoupons(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		uid := newUser(t, d)
		card := membership.Product{ID: 7, Level: 1, Days: 30, Coupons: 3}
		err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := s.grantVIP(ctx, tx, uid, card, "test:card", now)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		groups, err := s.CouponGroups(ctx, uid)
		if err != nil || len(groups[0].Coupons) != 1 || groups[0].Coupons[0].Count != 3 {
			t.Fatalf("backpack after a card: %+v %v", groups, err)
		}
		if exp := groups[0].Coupons[0].ExpiresAt; exp == nil || !exp.Equal(now.Add(30*24*time.Hour)) {
			t.Fatalf("coupon expiry %v", exp)
		}
		// A card without coupons grants none.
		err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := s.grantVIP(ctx, tx, uid, membership.Product{ID: 8, Level: 2, Days: 1}, "test:card2", now)
			return err
		})
		if err != nil || count(t, d, `SELECT COUNT(*) FROM user_coupons WHERE user_id = ?`, uid) != 3 {
			t.Fatalf("a card without coupons: %v", err)
		}
	})
}

// downLimiter is a limiter whose store does not answer.
type downLimiter struct{}

func (downLimiter) Allow(context.Context, string, int, time.Duration) (bool, time.Duration, error) {
	return false, 0, errors.New("redis: connection refused")
}

// Buys are limited per user and fail closed: over the limit 429, the
// limiter down 503, and neither writes anything.
func TestBuyLimits(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		sh := newShop(t, d, 1)
		uid := newUser(t, d)
		topUp(t, s.Ledger, d, uid, 100, "topup:1")
		s.Limiter = downLimiter{}
		if _, err := s.BuyVideo(ctx, uid, sh.gold[0], false, "limit-0001"); status(err) != 503 {
			t.Fatalf("limiter down: %v", err)
		}
		mem := ratelimit.NewMemoryClock(func() time.Time { return now })
		s.Limiter = mem
		for i := range buysPerMinute {
			if err := s.limitBuys(ctx, uid); err != nil {
				t.Fatalf("buy %d refused: %v", i, err)
			}
		}
		if _, err := s.BuyVideo(ctx, uid, sh.gold[0], false, "limit-0002"); status(err) != 429 {
			t.Fatalf("over the limit: %v", err)
		}
		if coins(t, d, uid) != 100 || count(t, d, `SELECT COUNT(*) FROM video_purchases`) != 0 {
			t.Fatal("a limited buy wrote something")
		}
		mustCheck(t, d)
	})
}
