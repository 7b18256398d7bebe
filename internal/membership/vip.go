package membership

import (
	"context"
	"errors"
	"time"

	"prima/internal/platform/db"
)

// Product is a VIP card (vip_products): Days of tier Level, sold for Price
// cents through a payment provider, or for Coins coins when Coins > 0.
// NewUser cards are offered only to accounts younger than NewUserWindow,
// and once per account and per device (the wallet's new-user claims);
// Coupons is how many gold-video coupons come with the card.
type Product struct {
	ID            int64  `json:"id"`
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
	Active        bool   `json:"active"`
}

// NewUserWindow is how long an account counts as new (spec §4, §9: 24 hours).
const NewUserWindow = 24 * time.Hour

// ErrNoProduct: no active product with that id (404).
var ErrNoProduct = errors.New("no such VIP product")

const productColumns = `id, level, name, days, price, original_price, coins, label, new_user, coupons, sort, active`

func scanProduct(s db.Scanner) (Product, error) {
	var p Product
	var newUser, active int
	err := s.Scan(&p.ID, &p.Level, &p.Name, &p.Days, &p.Price, &p.OriginalPrice, &p.Coins, &p.Label, &newUser, &p.Coupons, &p.Sort, &active)
	p.NewUser, p.Active = newUser != 0, active != 0
	return p, err
}

// Products are the active VIP cards in display order.
func Products(ctx context.Context, q db.Querier) ([]Product, error) {
	return db.All(ctx, q, scanProduct, `SELECT `+productColumns+` FROM vip_products WHERE active = 1 ORDER BY sort, level, days, id`)
}

// ProductByID is the active product id, or ErrNoProduct.
func ProductByID(ctx context.Context, q db.Querier, id int64) (Product, error) {
	p, err := scanProduct(q.QueryRow(ctx, `SELECT `+productColumns+` FROM vip_products WHERE id = ? AND active = 1`, id))
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return Product{}, ErrNoProduct
	}
	return p, err
}
