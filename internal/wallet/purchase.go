package wallet

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"prima/internal/catalog"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// Gold videos and galleries are sold one by one (docs/architecture.md,
// *Gold purchases and coupons*). A purchase is one row per (user, item),
// unique, written in the same transaction as the coin movement (or the
// coupon it used), and never deleted: a later price change does not touch
// it, and it keeps opening the item.

// Ways a purchase was paid.
const (
	PaidCoins  = "coins"
	PaidCoupon = "coupon"
)

// VideoCards shows videos in the catalog's list shape (catalog.Service
// implements it); only published ones are returned.
type VideoCards interface {
	VideoCards(ctx context.Context, ids []int64) (map[int64]catalog.Video, error)
}

// Purchase is a bought gold video.
type Purchase struct {
	ID        int64     `json:"id"`
	VideoID   int64     `json:"videoID"`
	Price     int64     `json:"price"` // coins paid; 0 with a coupon
	PaidWith  string    `json:"paidWith"`
	CreatedAt time.Time `json:"createdAt"`
	// Video is the video as lists show it; null when it is not published
	// now (the purchase stands and opens it again once it is).
	Video *catalog.Video `json:"video"`
}

// GalleryPurchase is a bought gold gallery.
type GalleryPurchase struct {
	ID        int64     `json:"id"`
	GalleryID int64     `json:"galleryID"`
	Price     int64     `json:"price"`
	PaidWith  string    `json:"paidWith"`
	CreatedAt time.Time `json:"createdAt"`
}

// item says what is sold: the kind of goods (which Goods seam reads
// them, and the sale's kind for earnings), the purchase table and the
// words for it.
type item struct {
	sale             string // "video", "gallery" or "post"
	purchases, col   string // video_purchases / video_id
	kind, scope, key string // ledger kind, idempotency scope, ledger key prefix
	notFound, bought string // tips
	missing          string // the developers' words of notFound
	notGold          string
	couponOnly       string
	// ownTip, when set, refuses the goods' owner buying them (422).
	ownTip string
}

var (
	videoItem = item{sale: SaleVideo, purchases: "video_purchases", col: "video_id",
		kind: "buy_video", scope: "vid.buy", key: "buyvid",
		notFound: "视频不存在或已下架", missing: "videos not found", bought: "已购买该视频", notGold: "该视频无需购买"}
	galleryItem = item{sale: SaleGallery, purchases: "gallery_purchases", col: "gallery_id",
		kind: "buy_gallery", scope: "gallery.buy", key: "buygal",
		notFound: "图集不存在或已下架", missing: "galleries not found", bought: "已购买该图集", notGold: "该图集无需购买",
		couponOnly: "金币视频券仅限购买视频"}
	// A community post is on sale while published; its author cannot buy
	// it. A post the buyer may not see (pending, rejected, removed,
	// deleted) answers as a missing one.
	postItem = item{sale: SalePost, purchases: "post_purchases", col: "post_id",
		kind: "buy_post", scope: "post.buy", key: "buypost",
		notFound: "帖子不存在或已删除", missing: "posts not found", bought: "已购买该帖子", notGold: "该帖子无需购买",
		couponOnly: "金币视频券仅限购买视频", ownTip: "不能购买自己的帖子"}
)

// Kinds of goods sold one by one.
const (
	SaleVideo   = "video"
	SaleGallery = "gallery"
	SalePost    = "post"
)

// Goods reads one item of a kind of goods for a sale, on the sale's
// transaction q: its price in coins, its title, its owner (the user who
// made it and earns from it; 0 for the platform's own catalogue) and
// whether it is on sale now; db.ErrNotFound when there is no such item.
// The goods' owner implements it (catalog.VideoGoods, gallery.GalleryGoods,
// community.PostGoods), wired in internal/app, so the wallet reads no
// other domain's table.
type Goods func(ctx context.Context, q db.Querier, id int64) (price int64, title string, owner int64, onSale bool, err error)

// PublishedVideos says which of ids are published videos, read on q
// (catalog.PublishedVideos): the bought-videos list shows those only.
type PublishedVideos func(ctx context.Context, q db.Querier, ids []int64) (map[int64]bool, error)

// errNoGoods: a Goods seam is not wired (a bug in the wiring, not input).
var errNoGoods = errors.New("wallet: no goods seam wired for this kind")

// goods is the seam that reads kind's goods.
func (s *Service) goods(kind string) Goods {
	switch kind {
	case SaleVideo:
		return s.VideoGoods
	case SaleGallery:
		return s.GalleryGoods
	case SalePost:
		return s.PostGoods
	}
	return nil
}

// Refusals of a buy (answered by purchaseErrs). Their tips name the kind of
// item, so sell returns them as a *refusal carrying the item's words.
var (
	// ErrAlreadyBought: the user owns the item already (409).
	ErrAlreadyBought = errors.New("already bought")
	// ErrNoItem: no such item on sale (404).
	ErrNoItem = errors.New("item not found")
	// ErrNotGold: the item has no price (422).
	ErrNotGold = errors.New("not a gold item")
	// ErrOwnItem: the item's owner cannot buy it (422).
	ErrOwnItem = errors.New("the owner cannot buy their own item")
	// ErrCouponVideosOnly: a coupon offered for something not a video (422).
	ErrCouponVideosOnly = errors.New("coupons buy videos only")
)

// bought is what a buy stores for its idempotent replay.
type bought struct {
	ID        int64  `json:"id"`
	ItemID    int64  `json:"itemID"`
	Price     int64  `json:"price"`
	PaidWith  string `json:"paidWith"`
	CreatedAt int64  `json:"createdAt"`
}

// buy sells item id to uid, paid with coins (its current price) or one
// coupon, once per key. Unknown or unpublished ErrNoItem, no price
// ErrNotGold, owned already ErrAlreadyBought, too few coins ErrInsufficient,
// no coupon ErrNoCoupon (purchaseErrs answers them).
func (s *Service) buy(ctx context.Context, it item, uid, id int64, useCoupon bool, key string) (bought, error) {
	if useCoupon && it.couponOnly != "" {
		return bought{}, httpx.Refuse(ErrCouponVideosOnly, it.couponOnly, "coupons buy videos only")
	}
	if err := s.limitBuys(ctx, uid); err != nil {
		return bought{}, err
	}
	now := s.now()
	var out bought
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		req := map[string]any{"id": id, "useCoupon": useCoupon}
		var err error
		out, _, err = Once(ctx, tx, uid, it.scope, key, req, now, func() (bought, error) {
			return s.sell(ctx, tx, it, uid, id, useCoupon, now)
		})
		if err != nil {
			return err
		}
		s.notify(tx, uid, it.kind)
		return nil
	})
	return out, err
}

// Buys a user may make per minute, videos and galleries together: far
// above a person tapping 购买, low enough to stop a script draining a
// stolen token's coins at database speed.
const buysPerMinute = 60

// limitBuys counts one buy of uid: ratelimit.ErrLimited over the limit,
// ratelimit.ErrUnavailable when the limiter cannot answer (fail closed:
// money calls wait for it).
func (s *Service) limitBuys(ctx context.Context, uid int64) error {
	if s.Limiter == nil {
		return nil
	}
	return ratelimit.Enforce(ctx, s.Limiter, "wallet:buy:"+strconv.FormatInt(uid, 10), buysPerMinute, time.Minute, ratelimit.FailClosed)
}

// sell is one purchase inside tx: the item's price read now, the purchase
// row (unique per user and item: a concurrent second buy finds it and
// fails), then the payment. Any failure rolls the whole transaction back.
func (s *Service) sell(ctx context.Context, tx *db.Tx, it item, uid, id int64, useCoupon bool, now time.Time) (bought, error) {
	read := s.goods(it.sale)
	if read == nil {
		return bought{}, errNoGoods
	}
	price, title, owner, onSale, err := read(ctx, tx, id)
	if errors.Is(err, db.ErrNotFound) || (err == nil && !onSale) {
		return bought{}, httpx.Refuse(ErrNoItem, it.notFound, it.missing)
	}
	if err != nil {
		return bought{}, err
	}
	if it.ownTip != "" && owner == uid {
		return bought{}, httpx.Refuse(ErrOwnItem, it.ownTip, "the owner cannot buy their own item")
	}
	if title == "" {
		title = "#" + strconv.FormatInt(id, 10)
	}
	if price <= 0 {
		return bought{}, httpx.Refuse(ErrNotGold, it.notGold, "not a gold item")
	}
	b := bought{ItemID: id, Price: price, PaidWith: PaidCoins, CreatedAt: now.Unix()}
	ref := strconv.FormatInt(id, 10)
	// Pay first, then write the purchase row with what paid for it: one
	// statement fewer than filling it in afterwards. The row's UNIQUE
	// (user, item) still decides a race for the same item, and a loss
	// rolls the payment back with it.
	var couponID, txnID int64
	if useCoupon {
		b.Price, b.PaidWith = 0, PaidCoupon
		if couponID, err = useOneCoupon(ctx, tx, uid, it.key+":"+ref, now); err != nil {
			return bought{}, err
		}
	} else {
		p, err := s.Ledger.Post(ctx, tx, Transfer{Kind: it.kind, Key: it.key + ":" + strconv.FormatInt(uid, 10) + ":" + ref,
			UserID: uid, Ref: ref, Memo: title, Legs: []Leg{
				{UserCoins(uid), -price}, {System(SysCoinsSpent), price},
			}}, now)
		if err != nil {
			return bought{}, err
		}
		if p.Replayed {
			// This user's payment for this item exists: so does the purchase.
			return bought{}, httpx.Refuse(ErrAlreadyBought, it.bought, "already bought")
		}
		txnID = p.TxnID
		if err := s.earnSold(ctx, tx, Sale{Kind: it.sale, ItemID: id, Title: title, Buyer: uid, Owner: owner, Coins: price, At: now}); err != nil {
			return bought{}, err
		}
	}
	err = tx.QueryRow(ctx, `INSERT INTO `+it.purchases+` (user_id, `+it.col+`, price, paid_with, coupon_id, txn_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (user_id, `+it.col+`) DO NOTHING RETURNING id`, uid, id, b.Price, b.PaidWith, couponID, txnID, b.CreatedAt).Scan(&b.ID)
	if errors.Is(err, sql.ErrNoRows) {
		return bought{}, httpx.Refuse(ErrAlreadyBought, it.bought, "already bought")
	}
	return b, err
}

// BuyVideo buys gold video id for uid (POST /api/app/vid/buy) and returns
// the purchase with the video.
func (s *Service) BuyVideo(ctx context.Context, uid, id int64, useCoupon bool, key string) (Purchase, error) {
	b, err := s.buy(ctx, videoItem, uid, id, useCoupon, key)
	if err != nil {
		return Purchase{}, err
	}
	p := Purchase{ID: b.ID, VideoID: b.ItemID, Price: b.Price, PaidWith: b.PaidWith, CreatedAt: time.Unix(b.CreatedAt, 0).UTC()}
	if err := s.attachVideos(ctx, []*Purchase{&p}); err != nil {
		return Purchase{}, err
	}
	return p, nil
}

// BuyGallery buys gold gallery id for uid with coins (POST
// /api/app/gallery/buy).
func (s *Service) BuyGallery(ctx context.Context, uid, id int64, useCoupon bool, key string) (GalleryPurchase, error) {
	b, err := s.buy(ctx, galleryItem, uid, id, useCoupon, key)
	if err != nil {
		return GalleryPurchase{}, err
	}
	return GalleryPurchase{ID: b.ID, GalleryID: b.ItemID, Price: b.Price, PaidWith: b.PaidWith, CreatedAt: time.Unix(b.CreatedAt, 0).UTC()}, nil
}

func (s *Service) attachVideos(ctx context.Context, ps []*Purchase) error {
	if s.Videos == nil || len(ps) == 0 {
		return nil
	}
	ids := make([]int64, len(ps))
	for i, p := range ps {
		ids[i] = p.VideoID
	}
	cards, err := s.Videos.VideoCards(ctx, ids)
	if err != nil {
		return err
	}
	for _, p := range ps {
		if v, ok := cards[p.VideoID]; ok {
			p.Video = &v
		}
	}
	return nil
}

// PostPurchase is a bought paid community post.
type PostPurchase struct {
	ID        int64     `json:"id"`
	PostID    int64     `json:"postID"`
	Price     int64     `json:"price"`
	PaidWith  string    `json:"paidWith"`
	CreatedAt time.Time `json:"createdAt"`
}

// ErrGuestBuy: guests cannot buy posts (403): the community is registered
// users' (docs/architecture.md, *Community*).
var ErrGuestBuy = errors.New("guests cannot buy posts")

// BuyPost buys paid community post id for uid with coins (POST
// /api/app/community/post/buy), once per key: the same generic buy as
// videos. A post that is free, the buyer's own (422), not published (404)
// or bought already (409) moves nothing. Guests are refused (403).
func (s *Service) BuyPost(ctx context.Context, uid, id int64, key string) (PostPurchase, error) {
	var account sql.NullString
	err := s.db.QueryRow(ctx, `SELECT account FROM users WHERE id = ?`, uid).Scan(&account)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return PostPurchase{}, err
	}
	if !account.Valid || account.String == "" {
		return PostPurchase{}, ErrGuestBuy
	}
	b, err := s.buy(ctx, postItem, uid, id, false, key)
	if err != nil {
		return PostPurchase{}, err
	}
	return PostPurchase{ID: b.ID, PostID: b.ItemID, Price: b.Price, PaidWith: b.PaidWith, CreatedAt: time.Unix(b.CreatedAt, 0).UTC()}, nil
}

// HasBoughtPost reports whether uid bought community post postID (the post
// detail's access decision).
func (s *Service) HasBoughtPost(ctx context.Context, uid, postID int64) (bool, error) {
	return s.has(ctx, postItem, uid, postID)
}

// HasBought reports whether uid bought video videoID
// (membership.Purchases).
func (s *Service) HasBought(ctx context.Context, uid, videoID int64) (bool, error) {
	return s.has(ctx, videoItem, uid, videoID)
}

// HasBoughtGallery reports whether uid bought gallery galleryID
// (membership.GalleryPurchases).
func (s *Service) HasBoughtGallery(ctx context.Context, uid, galleryID int64) (bool, error) {
	return s.has(ctx, galleryItem, uid, galleryID)
}

func (s *Service) has(ctx context.Context, it item, uid, id int64) (bool, error) {
	var one int
	err := s.db.QueryRow(ctx, `SELECT 1 FROM `+it.purchases+` WHERE user_id = ? AND `+it.col+` = ?`, uid, id).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// VideoPurchases is GET /api/app/mine/buyVid: uid's purchases of videos
// published now, newest first. A purchase of a video taken down is kept
// and listed again when the video is back. The purchases are the wallet's
// and what is published the catalog's (PublishedVideos): the newest
// httpx.PageWindow purchases are read, those of published videos kept,
// and the page cut from them, so total is exact up to the window, as every
// list's total is.
func (s *Service) VideoPurchases(ctx context.Context, uid int64, pageNumber, pageSize int) (httpx.Page[Purchase], error) {
	page := httpx.Page[Purchase]{List: []Purchase{}, PageNumber: pageNumber, PageSize: pageSize}
	if s.PublishedVideos == nil {
		return page, errNoGoods
	}
	all, err := db.All(ctx, s.db, func(r db.Scanner) (Purchase, error) {
		var p Purchase
		var at int64
		err := r.Scan(&p.ID, &p.VideoID, &p.Price, &p.PaidWith, &at)
		p.CreatedAt = time.Unix(at, 0).UTC()
		return p, err
	}, `SELECT id, video_id, price, paid_with, created_at FROM video_purchases WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
		uid, httpx.PageWindow)
	if err != nil {
		return page, err
	}
	live := map[int64]bool{}
	for from := 0; from < len(all); from += 500 {
		ids := make([]int64, 0, 500)
		for _, p := range all[from:min(from+500, len(all))] {
			ids = append(ids, p.VideoID)
		}
		got, err := s.PublishedVideos(ctx, s.db, ids)
		if err != nil {
			return page, err
		}
		for id, ok := range got {
			live[id] = ok
		}
	}
	shown := all[:0]
	for _, p := range all {
		if live[p.VideoID] {
			shown = append(shown, p)
		}
	}
	offset := (pageNumber - 1) * pageSize
	list := []Purchase{}
	if offset < len(shown) {
		list = append(list, shown[offset:min(offset+pageSize, len(shown))]...)
	}
	ptrs := make([]*Purchase, len(list))
	for i := range list {
		ptrs[i] = &list[i]
	}
	if err := s.attachVideos(ctx, ptrs); err != nil {
		return page, err
	}
	return httpx.NewPage(list, len(shown), pageNumber, pageSize), nil
}
