package earnings_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"prima/internal/catalog"
	"prima/internal/community"
	"prima/internal/earnings"
	"prima/internal/gallery"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/wallet"
)

// shop wires the wallet's sales as internal/app does: goods read through
// their owners, earnings told of each sale.
func (e *env) shop() {
	e.wallet.VideoGoods, e.wallet.PublishedVideos = catalog.VideoGoods, catalog.PublishedVideos
	e.wallet.GalleryGoods, e.wallet.PostGoods = gallery.GalleryGoods, community.PostGoods
	e.wallet.Earnings = e.s
}

// coins credits uid with n coins (an operator's adjustment).
func (e *env) coins(t testing.TB, uid, n int64, key string) {
	t.Helper()
	err := e.d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		_, err := e.wallet.Ledger.Post(ctx, tx, wallet.Transfer{Kind: "adjust", Key: key, UserID: uid, Legs: []wallet.Leg{
			{Account: wallet.System(wallet.SysCoinsAdjust), Amount: -n}, {Account: wallet.UserCoins(uid), Amount: n}}}, now)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// creator files and approves uid's creator application.
func (e *env) creator(t testing.TB, uid int64) {
	t.Helper()
	e.exec(t, `INSERT INTO creator_applications (user_id, name, contact, intro, category, status, created_at, decided_at)
		VALUES (?, 'studio', 'tg@s', 'ten characters at least', 'post', 'approved', ?, ?)`, uid, now.Unix(), now.Unix())
}

// post inserts a published paid post of author.
func (e *env) post(t testing.TB, author, coins int64, title string) int64 {
	t.Helper()
	var id int64
	err := e.d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		return tx.QueryRow(ctx, `INSERT INTO posts (author_id, kind, title, body, coins, state, created_at, published_at, updated_at)
			VALUES (?, 'picture', ?, 'text', ?, 'published', 1, 1, 1) RETURNING id`, author, title, coins).Scan(&id)
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// video inserts a published gold video playing an upload of owner (0: an
// operator's catalogue video with no upload).
func (e *env) video(t testing.TB, owner, coins int64) int64 {
	t.Helper()
	var id int64
	err := e.d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		mod, err := catalog.InsertModule(ctx, tx, 0, "m", 0, 1, now.Unix())
		if err != nil {
			return err
		}
		id, err = catalog.InsertVideo(ctx, tx, catalog.NewVideo{Title: "作品", ModuleID: mod, SubModuleID: mod, Coins: coins, Published: true, CreatedAt: now.Unix()})
		if err != nil || owner == 0 {
			return err
		}
		var asset int64
		if err := tx.QueryRow(ctx, `INSERT INTO media_assets (owner_uid, kind, state, source_key, created_at, updated_at) VALUES (?, 'video', 'ready', 'k', 1, 1) RETURNING id`,
			owner).Scan(&asset); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE videos SET media_id = ? WHERE id = ?`, asset, id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// An approved creator earns a share of what their paid post and uploaded
// video sell for, pending then settled into income; a creator not yet
// approved, the platform's own video and galleries earn nobody anything.
func TestCreatorEarnings(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		e.shop()
		cara, nobody, buyer := e.user(t, "cara"), e.user(t, "nobody"), e.user(t, "buyer")
		e.creator(t, cara)
		e.coins(t, buyer, 1000, "adj:buyer")
		gold := e.post(t, cara, 30, "独家教程")
		vid := e.video(t, cara, 25)
		plain := e.post(t, nobody, 30, "随便写写")
		ops := e.video(t, 0, 25)
		if _, err := e.wallet.BuyPost(ctx, buyer, gold, "k-post-0001"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.wallet.BuyVideo(ctx, buyer, vid, false, "k-vid-00001"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.wallet.BuyPost(ctx, buyer, plain, "k-post-0002"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.wallet.BuyVideo(ctx, buyer, ops, false, "k-vid-00002"); err != nil {
			t.Fatal(err)
		}
		// floor(30*5000*100 / (10000*10)) = 150 cents; 25 coins: 125.
		page, err := e.s.CreatorEarnings(ctx, cara, 1, 20)
		if err != nil {
			t.Fatal(err)
		}
		s := page.Summary
		if !s.Approved || s.ShareBps != 5000 || s.PendingCents != 275 || s.SettledCents != 0 || s.Items != 2 || page.Total != 2 {
			t.Fatalf("summary %+v", page)
		}
		v, p := page.List[0], page.List[1]
		if v.Kind != "video" || v.ItemID != vid || v.Coins != 25 || v.AmountCents != 125 || v.State != "pending" ||
			p.Kind != "post" || p.Title != "独家教程" || p.AmountCents != 150 || p.ShareBps != 5000 {
			t.Fatalf("list %+v", page.List)
		}
		if n := e.count(t, `SELECT COUNT(*) FROM creator_earnings WHERE user_id <> ?`, cara); n != 0 {
			t.Fatalf("%d earnings of others", n)
		}
		if np, _ := e.s.CreatorEarnings(ctx, nobody, 1, 20); np.Summary.Approved || np.Total != 0 {
			t.Fatalf("non-creator %+v", np)
		}
		if _, err := e.s.CreatorEarnings(ctx, e.guest(t), 1, 20); status(err) != 403 {
			t.Fatalf("guest: %v", err)
		}
		e.check(t)
		*e.clock = now.AddDate(0, 0, 7)
		if n, err := e.s.SettleDue(ctx); err != nil || n != 2 {
			t.Fatalf("settled %d %v", n, err)
		}
		if e.income(t, cara) != 275 {
			t.Fatalf("income %d", e.income(t, cara))
		}
		// settleDays 0: straight into income with the purchase.
		e.config(t, earnings.Config{Levels: []int64{1000}, PromoterLevels: []int64{1000}, SettleDays: 0, CreatorShareBps: 10000, InviteReward: "off"})
		again := e.post(t, cara, 7, "")
		if _, err := e.wallet.BuyPost(ctx, buyer, again, "k-post-0003"); err != nil {
			t.Fatal(err)
		}
		if e.income(t, cara) != 275+70 {
			t.Fatalf("income after an instant sale %d", e.income(t, cara))
		}
		e.check(t)
	})
}

// Twenty buyers buy one creator's post at once while another taps buy ten
// times (ten keys): one earning per purchase, the ledger and rows agree.
func TestCreatorEarningsUnderConcurrentBuys(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		e.shop()
		cara := e.user(t, "cara")
		e.creator(t, cara)
		gold := e.post(t, cara, 40, "t")
		buyers := make([]int64, 20)
		for i := range buyers {
			buyers[i] = e.user(t, fmt.Sprintf("buyer%02d", i))
			e.coins(t, buyers[i], 100, fmt.Sprintf("adj:%d", i))
		}
		tapper := e.user(t, "tapper")
		e.coins(t, tapper, 100, "adj:tapper")
		var wg sync.WaitGroup
		for i, b := range buyers {
			wg.Go(func() {
				if _, err := e.wallet.BuyPost(ctx, b, gold, fmt.Sprintf("k-many-%04d", i)); err != nil {
					t.Error(err)
				}
			})
		}
		for i := range 10 {
			wg.Go(func() { _, _ = e.wallet.BuyPost(ctx, tapper, gold, fmt.Sprintf("k-again-%04d", i)) })
		}
		wg.Wait()
		if n := e.count(t, `SELECT COUNT(*) FROM creator_earnings`); n != 21 {
			t.Fatalf("%d earnings, want 21", n)
		}
		if n := e.count(t, `SELECT COUNT(*) FROM creator_earnings WHERE buyer_id = ?`, tapper); n != 1 {
			t.Fatalf("the tapper's ten taps made %d earnings", n)
		}
		if n := e.count(t, `SELECT COALESCE(SUM(amount), 0) FROM creator_earnings WHERE state = 'pending'`); n != 21*200 {
			t.Fatalf("pending %d", n)
		}
		e.check(t)
	})
}

func TestCreatorCents(t *testing.T) {
	for _, c := range []struct{ coins, share, rate, want int64 }{
		{30, 5000, 10, 150}, {1, 5000, 10, 5}, {1, 1, 10, 0}, {25, 10000, 10, 250}, {3, 3333, 7, 14}, {10, 5000, 0, 0},
	} {
		if got := earnings.CreatorCents(c.coins, c.share, c.rate); got != c.want {
			t.Errorf("CreatorCents(%d, %d, %d) = %d, want %d", c.coins, c.share, c.rate, got, c.want)
		}
	}
}
