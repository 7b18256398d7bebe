package wallet

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"prima/internal/membership"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// AdminProducts lists every VIP card, inactive ones too.
func (s *Service) AdminProducts(ctx context.Context) ([]membership.Product, error) {
	return membership.AllProducts(ctx, s.db)
}

// SaveProduct creates p (ID 0) or replaces card p.ID, with the audit row.
func (s *Service) SaveProduct(ctx context.Context, actor audit.Actor, p membership.Product) (membership.Product, error) {
	now := s.now()
	var out membership.Product
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var before any
		if p.ID != 0 {
			old, err := membership.AnyProductByID(ctx, tx, p.ID)
			if err != nil {
				return err
			}
			before = old
		}
		saved, err := membership.SaveProduct(ctx, tx, p, now)
		if err != nil {
			return err
		}
		out = saved
		action := "vip_product.create"
		if before != nil {
			action = "vip_product.update"
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: action, TargetType: "vip_product",
			TargetID: strconv.FormatInt(saved.ID, 10), Before: before, After: saved}, now)
	})
	return out, err
}

// AdminVIPProducts is GET /api/admin/vip/products: every card.
func (h *Handler) AdminVIPProducts(w http.ResponseWriter, r *http.Request) error {
	ps, err := h.s.AdminProducts(r.Context())
	if err != nil {
		return err
	}
	return httpx.OK(w, ps)
}

// AdminSaveVIPProduct is POST /api/admin/vip/products: a card without id
// is created, with id replaced (every field).
func (h *Handler) AdminSaveVIPProduct(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		ID            *int64 `json:"id"`
		Level         int    `json:"level"`
		Name          string `json:"name"`
		Days          int    `json:"days"`
		Price         int64  `json:"price"`
		OriginalPrice int64  `json:"originalPrice"`
		Coins         int64  `json:"coins"`
		Label         string `json:"label"`
		NewUser       bool   `json:"newUser"`
		Coupons       int    `json:"coupons"`
		Sort          int    `json:"sort"`
		Active        *bool  `json:"active"`
	}
	if err := httpx.Decode(w, r, &body); err != nil {
		return err
	}
	p := membership.Product{Level: body.Level, Name: strings.TrimSpace(body.Name), Days: body.Days, Price: body.Price,
		OriginalPrice: body.OriginalPrice, Coins: body.Coins, Label: strings.TrimSpace(body.Label), NewUser: body.NewUser,
		Coupons: body.Coupons, Sort: body.Sort, Active: body.Active == nil || *body.Active}
	if body.ID != nil {
		id, err := httpx.BodyID(body.ID)
		if err != nil {
			return err
		}
		p.ID = id
	}
	if err := checkProduct(p); err != nil {
		return err
	}
	out, err := h.s.SaveProduct(r.Context(), audit.ActorFrom(r), p)
	if err != nil {
		return vipAdminErrs.Map(err)
	}
	return httpx.OK(w, out)
}

// checkProduct bounds an operator's card.
func checkProduct(p membership.Product) error {
	const maxMoney = 100_000_000 // ¥1,000,000 or 100,000,000 coins
	switch {
	case p.Level != membership.LevelVIP && p.Level != membership.LevelSVIP:
		return httpx.Invalid("参数 level 无效", "level must be 1 (VIP) or 2 (super VIP)")
	case p.Name == "" || utf8.RuneCountInString(p.Name) > 40:
		return httpx.Invalid("参数 name 无效", "name takes 1-40 characters")
	case p.Days < 1 || p.Days > 3660:
		return httpx.Invalid("参数 days 无效", "days must be 1..3660")
	case p.Price < 0 || p.Price > maxMoney:
		return httpx.Invalid("参数 price 无效", "price must be 0..100000000 cents")
	case p.OriginalPrice < 0 || p.OriginalPrice > maxMoney:
		return httpx.Invalid("参数 originalPrice 无效", "originalPrice must be 0..100000000 cents")
	case p.Coins < 0 || p.Coins > maxMoney:
		return httpx.Invalid("参数 coins 无效", "coins must be 0..100000000")
	case p.Price == 0 && p.Coins == 0:
		return httpx.Invalid("参数 price 无效", "a card needs a price in cents or coins")
	case utf8.RuneCountInString(p.Label) > 20:
		return httpx.Invalid("参数 label 过长", "label takes at most 20 characters")
	case p.Coupons < 0 || p.Coupons > 100:
		return httpx.Invalid("参数 coupons 无效", "coupons must be 0..100")
	case p.Sort < -1_000_000 || p.Sort > 1_000_000:
		return httpx.Invalid("参数 sort 无效", "sort must be within ±1000000")
	}
	return nil
}
