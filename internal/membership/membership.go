// Package membership decides who may watch what (spec §4): the access
// level of a video against the user's VIP level, free windows and
// purchases. Decide is the whole rule as a pure function; Service reads a
// user's tiers through TiersOn (they are columns of account's users row,
// moved by account.ExtendTier and account.RetractTier) and asks Purchases
// about gold videos.
package membership

import (
	"context"
	"errors"
	"fmt"
	"time"

	"prima/internal/platform/db"
)

// Video levels (videos.vip_level).
const (
	LevelFree = 0
	LevelVIP  = 1
	LevelSVIP = 2
)

// Reasons of an Access. The allowed ones say what opened the video, the
// others what the caller lacks.
const (
	ReasonFree       = "free"        // a free video: open to everyone, signed in or not
	ReasonVIP        = "vip"         // an active level-1 VIP opened a level-1 video
	ReasonSVIP       = "svip"        // an active super VIP (level 2) opened a VIP or super VIP video
	ReasonFreeWindow = "free_window" // videoFreeExpiration or goldVideoFreeExpire is still ahead
	ReasonBought     = "bought"      // the user bought this gold video
	ReasonLogin      = "login"       // no user: nothing but free videos until one signs in (a guest will do)
	ReasonNeedVIP    = "need_vip"
	ReasonNeedSVIP   = "need_svip"
	ReasonNeedCoins  = "need_coins"
)

// User is what the rules read of a user; times are Unix seconds, 0 unset.
type User struct {
	ID int64
	// Each tier keeps its own expiry: VipExpireAt is the VIP (level 1)
	// tier's, SvipExpireAt the super VIP (level 2) tier's.
	VipExpireAt        int64
	SvipExpireAt       int64
	GoldVideoFreeUntil int64
	VideoFreeUntil     int64
}

// Video is what the rules read of a video.
type Video struct {
	ID       int64
	VipLevel int   // 0 free, 1 VIP, 2 super VIP
	Coins    int64 // > 0: a gold video with this coin price
}

// Unlock is what would open a video the caller may not watch: a VIP level
// (0 none) or a coin price (0 none).
type Unlock struct {
	VipLevel int   `json:"needVipLevel"`
	Coins    int64 `json:"coins"`
}

// Access is the decision for one user and one video.
type Access struct {
	Allowed bool   `json:"allowed"`
	Reason  string `json:"reason"`
	Unlock  Unlock `json:"unlock"`
}

// IsGold reports whether v has a coin price. A price makes a video gold
// whatever its vip_level: a gold video is sold per video, and VIP does not
// open it (the wallet package sells it; VIP members may get coupons there).
func (v Video) IsGold() bool { return v.Coins > 0 }

// ActiveVipLevel is u's VIP level now: the highest tier whose expiry is
// ahead, else 0. The spec (§4) counts VIP as active only with a level and
// an expiry in the future; with one expiry per tier, a day of super VIP
// shows level 2 for that day and the VIP year resumes after it. An expiry
// equal to now has passed. account reports the same level in the user info.
func ActiveVipLevel(u User, now time.Time) int {
	t := now.Unix()
	switch {
	case u.SvipExpireAt > t:
		return LevelSVIP
	case u.VipExpireAt > t:
		return LevelVIP
	}
	return 0
}

// ActiveExpiry is when the level ActiveVipLevel reports ends; when no tier
// is active, the latest expiry the user ever had (0 when never VIP), so a
// lapsed member still sees the date it lapsed.
func ActiveExpiry(u User, now time.Time) int64 {
	switch ActiveVipLevel(u, now) {
	case LevelSVIP:
		return u.SvipExpireAt
	case LevelVIP:
		return u.VipExpireAt
	}
	return max(u.VipExpireAt, u.SvipExpireAt)
}

// Decide is the access rule. u is nil when nobody is signed in; bought says
// whether u bought v (only asked for gold videos).
//
// The free windows: the spec says "Free video access applies while
// goldVideoFreeExpire or videoFreeExpiration is in the future" without
// saying which window opens what. Prima reads each by its name:
// users.gold_video_free_until (goldVideoFreeExpire) opens gold videos and
// users.video_free_until (videoFreeExpiration) opens VIP and super VIP
// videos. Neither window opens what the other one is for, so a trial of
// member videos never gives away paid ones. A window ends at its instant:
// until == now is closed, like a VIP expiry.
func Decide(u *User, v Video, now time.Time, bought bool) Access {
	need := Unlock{}
	switch {
	case v.IsGold():
		need.Coins = v.Coins
	case v.VipLevel >= LevelSVIP:
		need.VipLevel = LevelSVIP
	case v.VipLevel == LevelVIP:
		need.VipLevel = LevelVIP
	default:
		return Access{Allowed: true, Reason: ReasonFree}
	}
	if u == nil {
		return Access{Reason: ReasonLogin, Unlock: need}
	}
	t := now.Unix()
	if v.IsGold() {
		switch {
		case bought:
			return Access{Allowed: true, Reason: ReasonBought}
		case u.GoldVideoFreeUntil > t:
			return Access{Allowed: true, Reason: ReasonFreeWindow}
		}
		return Access{Reason: ReasonNeedCoins, Unlock: need}
	}
	level := ActiveVipLevel(*u, now)
	switch {
	case level >= LevelSVIP:
		// Super VIP opens level 2 and, as the higher tier, level 1 too.
		return Access{Allowed: true, Reason: ReasonSVIP}
	case level >= need.VipLevel:
		return Access{Allowed: true, Reason: ReasonVIP}
	case u.VideoFreeUntil > t:
		return Access{Allowed: true, Reason: ReasonFreeWindow}
	case need.VipLevel == LevelSVIP:
		return Access{Reason: ReasonNeedSVIP, Unlock: need}
	}
	return Access{Reason: ReasonNeedVIP, Unlock: need}
}

// Tip is the zh-CN line a paywall shows for a refused access.
func (a Access) Tip() string {
	switch a.Reason {
	case ReasonLogin:
		return "登录后即可观看"
	case ReasonNeedVIP:
		return "开通VIP会员即可观看完整视频"
	case ReasonNeedSVIP:
		return "开通超级VIP即可观看完整视频"
	case ReasonNeedCoins:
		return fmt.Sprintf("支付%d金币即可观看完整视频", a.Unlock.Coins)
	}
	return ""
}

// Purchases answers whether a user bought a video. The wallet package
// implements it over its purchase table.
type Purchases interface {
	HasBought(ctx context.Context, uid, videoID int64) (bool, error)
}

// NoPurchases is the Purchases of a catalog built without the wallet (the
// catalog's own default, used by its package tests): nothing was sold
// through it, so the true answer to "did this user buy video X" is no. The
// app replaces it with the wallet (wallet.Service implements Purchases and
// GalleryPurchases); it is not a stand-in for a failing lookup.
type NoPurchases struct{}

// HasBought is always false: nothing has been sold.
func (NoPurchases) HasBought(context.Context, int64, int64) (bool, error) { return false, nil }

// TiersOn reads user uid's tiers and free windows on q, db.ErrNotFound
// when there is no such user. They are columns of account's users row
// (account.Tiers implements it); membership decides by them and never
// reads the row itself.
type TiersOn func(ctx context.Context, q db.Querier, uid int64) (User, error)

// NoTiers is the TiersOn of a catalog built without the accounts (the
// catalog's own default): every user exists and holds no tier and no free
// window, so only free videos and purchases open anything.
func NoTiers(_ context.Context, _ db.Querier, uid int64) (User, error) { return User{ID: uid}, nil }

// Service decides access for stored users.
type Service struct {
	db        *db.DB
	tiers     TiersOn
	purchases Purchases
	now       func() time.Time
}

// NewService decides over d, reading users' tiers with tiers (the app
// passes account.Tiers) and asking p about purchases (the app passes the
// wallet).
func NewService(d *db.DB, tiers TiersOn, p Purchases) *Service {
	return &Service{db: d, tiers: tiers, purchases: p, now: time.Now}
}

// GalleryPurchases answers whether a user bought a gallery. A Purchases
// that also sells galleries implements it; one that does not (NoPurchases)
// has sold none, so every gold gallery shows its price.
type GalleryPurchases interface {
	HasBoughtGallery(ctx context.Context, uid, galleryID int64) (bool, error)
}

// HasBoughtGallery is always false: nothing has been sold.
func (NoPurchases) HasBoughtGallery(context.Context, int64, int64) (bool, error) { return false, nil }

// Check decides v for user uid (0: nobody signed in). A uid with no row (a
// user deleted while their token lived) is decided as nobody.
func (s *Service) Check(ctx context.Context, uid int64, v Video) (Access, error) {
	return s.check(ctx, uid, v, s.purchases.HasBought)
}

// CheckGallery decides gallery g (its id, vip_level and coins in a Video)
// by the same rule as a video: galleries have the same levels, the same
// free windows (video_free_until opens VIP galleries, gold_video_free_until
// priced ones) and the same paywall. Only the purchase asked about is the
// gallery's, never a video's with the same id.
func (s *Service) CheckGallery(ctx context.Context, uid int64, g Video) (Access, error) {
	bought := func(ctx context.Context, uid, id int64) (bool, error) {
		if gp, ok := s.purchases.(GalleryPurchases); ok {
			return gp.HasBoughtGallery(ctx, uid, id)
		}
		return false, nil
	}
	return s.check(ctx, uid, g, bought)
}

func (s *Service) check(ctx context.Context, uid int64, v Video, hasBought func(ctx context.Context, uid, id int64) (bool, error)) (Access, error) {
	now := s.now()
	if uid == 0 || (!v.IsGold() && v.VipLevel == LevelFree) {
		return Decide(nil, v, now, false), nil
	}
	u, err := s.tiers(ctx, s.db, uid)
	if errors.Is(err, db.ErrNotFound) {
		return Decide(nil, v, now, false), nil
	}
	if err != nil {
		return Access{}, err
	}
	bought := false
	if v.IsGold() {
		if bought, err = hasBought(ctx, uid, v.ID); err != nil {
			return Access{}, err
		}
	}
	return Decide(&u, v, now, bought), nil
}

// Tiers is user uid's tiers and free windows, db.ErrNotFound when there is
// no such user: what another domain that decides by the same rule (a paid
// community post) passes to Decide.
func (s *Service) Tiers(ctx context.Context, uid int64) (User, error) {
	return s.tiers(ctx, s.db, uid)
}
