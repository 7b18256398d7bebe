package wallet

import (
	"context"
	"net/http"
	"strings"

	"prima/internal/platform/audit"
	"prima/internal/platform/httpx"
)

type buyBody struct {
	ID             *int64 `json:"id"`
	UseCoupon      bool   `json:"useCoupon"`
	IdempotencyKey string `json:"idempotencyKey"`
}

func (b buyBody) check(r *http.Request) (id int64, key string, err error) {
	if id, err = httpx.BodyID(b.ID); err != nil {
		return 0, "", err
	}
	key, err = KeyFrom(r, b.IdempotencyKey)
	return id, key, err
}

// BuyVideoReply is POST /api/app/vid/buy's answer.
type BuyVideoReply struct {
	Purchase Purchase `json:"purchase"`
	Wallet   Summary  `json:"wallet"`
}

// BuyGalleryReply is POST /api/app/gallery/buy's answer.
type BuyGalleryReply struct {
	Purchase GalleryPurchase `json:"purchase"`
	Wallet   Summary         `json:"wallet"`
}

// BuyVideo answers POST /api/app/vid/buy {id, useCoupon, idempotencyKey}.
func (h *Handler) BuyVideo(w http.ResponseWriter, r *http.Request) error {
	return serveBuy(w, r, h.s, h.s.BuyVideo, func(p Purchase, sum Summary) any { return BuyVideoReply{p, sum} })
}

// BuyGallery answers POST /api/app/gallery/buy {id, idempotencyKey}.
func (h *Handler) BuyGallery(w http.ResponseWriter, r *http.Request) error {
	return serveBuy(w, r, h.s, h.s.BuyGallery, func(p GalleryPurchase, sum Summary) any { return BuyGalleryReply{p, sum} })
}

// BuyPostReply is POST /api/app/community/post/buy's answer.
type BuyPostReply struct {
	Purchase PostPurchase `json:"purchase"`
	Wallet   Summary      `json:"wallet"`
}

// BuyPost answers POST /api/app/community/post/buy {id, key}: the
// idempotency key may also come as idempotencyKey (like every buy) or the
// Idempotency-Key header.
func (h *Handler) BuyPost(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		ID             *int64 `json:"id"`
		Key            string `json:"key"`
		IdempotencyKey string `json:"idempotencyKey"`
	}
	if err := httpx.Decode(w, r, &b); err != nil {
		return err
	}
	id, err := httpx.BodyID(b.ID)
	if err != nil {
		return err
	}
	body := b.IdempotencyKey
	if b.Key != "" {
		if body != "" && body != b.Key {
			return httpx.Invalid("参数 key 无效", "key and idempotencyKey differ")
		}
		body = b.Key
	}
	key, err := KeyFrom(r, body)
	if err != nil {
		return err
	}
	uid := httpx.UserID(r.Context())
	p, err := h.s.BuyPost(r.Context(), uid, id, key)
	if err != nil {
		return purchaseErrs.Map(err)
	}
	sum, err := h.s.Summary(r.Context(), uid)
	if err != nil {
		return err
	}
	return httpx.OK(w, BuyPostReply{p, sum})
}

// serveBuy is a buy call: decode and check the body, buy, answer the
// purchase with the caller's wallet after it.
func serveBuy[P any](w http.ResponseWriter, r *http.Request, s *Service,
	buy func(ctx context.Context, uid, id int64, useCoupon bool, key string) (P, error), reply func(P, Summary) any) error {
	var b buyBody
	if err := httpx.Decode(w, r, &b); err != nil {
		return err
	}
	id, key, err := b.check(r)
	if err != nil {
		return err
	}
	uid := httpx.UserID(r.Context())
	p, err := buy(r.Context(), uid, id, b.UseCoupon, key)
	if err != nil {
		return purchaseErrs.Map(err)
	}
	sum, err := s.Summary(r.Context(), uid)
	if err != nil {
		return err
	}
	return httpx.OK(w, reply(p, sum))
}

// BoughtVideos answers GET /api/app/mine/buyVid?pageNumber&pageSize.
func (h *Handler) BoughtVideos(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	num, size := httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	page, err := h.s.VideoPurchases(r.Context(), httpx.UserID(r.Context()), num, size)
	if err != nil {
		return err
	}
	return httpx.OK(w, page)
}

// Backpack answers GET /api/app/backpack: the caller's coupons by state.
func (h *Handler) Backpack(w http.ResponseWriter, r *http.Request) error {
	groups, err := h.s.CouponGroups(r.Context(), httpx.UserID(r.Context()))
	if err != nil {
		return err
	}
	return httpx.OK(w, groups)
}

type grantBody struct {
	UID            *int64 `json:"uid"`
	Count          *int64 `json:"count"`
	Days           *int64 `json:"days"`
	Reason         string `json:"reason"`
	IdempotencyKey string `json:"idempotencyKey"`
}

// Bounds of an operator's coupon grant.
const (
	maxGrantCount = 100
	maxGrantDays  = 3650
	maxReasonLen  = 200
)

// AdminGrantCoupons answers POST /api/admin/coupons/grant {uid, count,
// days, reason, idempotencyKey}.
func (h *Handler) AdminGrantCoupons(w http.ResponseWriter, r *http.Request) error {
	var b grantBody
	if err := httpx.Decode(w, r, &b); err != nil {
		return err
	}
	if b.UID == nil {
		return httpx.Invalid("缺少参数 uid", "uid is required")
	}
	if *b.UID < 1 || *b.UID > httpx.MaxID {
		return httpx.Invalid("参数 uid 无效", "uid must be a positive id")
	}
	if b.Count == nil {
		return httpx.Invalid("缺少参数 count", "count is required")
	}
	if *b.Count < 1 || *b.Count > maxGrantCount {
		return httpx.Invalid("参数 count 无效", "count must be 1-100")
	}
	if b.Days == nil {
		return httpx.Invalid("缺少参数 days", "days is required")
	}
	if *b.Days < 1 || *b.Days > maxGrantDays {
		return httpx.Invalid("参数 days 无效", "days must be 1-3650")
	}
	reason := strings.TrimSpace(b.Reason)
	if reason == "" {
		return httpx.Invalid("请填写原因", "reason is required")
	}
	if len([]rune(reason)) > maxReasonLen {
		return httpx.Invalid("原因过长", "reason is at most 200 characters")
	}
	key, err := KeyFrom(r, b.IdempotencyKey)
	if err != nil {
		return err
	}
	res, err := h.s.GrantCoupons(r.Context(), audit.ActorFrom(r), CouponGrant{UID: *b.UID, Count: int(*b.Count), Days: int(*b.Days), Reason: reason, Key: key})
	if err != nil {
		return couponGrantErrs.Map(err)
	}
	return httpx.OK(w, res)
}
