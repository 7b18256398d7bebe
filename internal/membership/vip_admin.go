package membership

import (
	"context"
	"errors"
	"time"

	"prima/internal/platform/db"
)

// AllProducts are every VIP card, inactive ones too (operators).
func AllProducts(ctx context.Context, q db.Querier) ([]Product, error) {
	return db.All(ctx, q, scanProduct, `SELECT `+productColumns+` FROM vip_products ORDER BY sort, level, days, id`)
}

// AnyProductByID is card id whether active or not, or ErrNoProduct.
func AnyProductByID(ctx context.Context, q db.Querier, id int64) (Product, error) {
	p, err := scanProduct(q.QueryRow(ctx, `SELECT `+productColumns+` FROM vip_products WHERE id = ?`, id))
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return Product{}, ErrNoProduct
	}
	return p, err
}

// SaveProduct inserts p (ID 0) or replaces every field of card p.ID
// (ErrNoProduct when there is none) and returns it as stored. Cards are
// never deleted: a card sold once stays for the orders that name it; an
// operator turns it off with Active false.
func SaveProduct(ctx context.Context, tx *db.Tx, p Product, now time.Time) (Product, error) {
	t := now.Unix()
	if p.ID == 0 {
		err := tx.QueryRow(ctx, `INSERT INTO vip_products (level, name, days, price, original_price, coins, label, new_user, coupons, sort, active, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			p.Level, p.Name, p.Days, p.Price, p.OriginalPrice, p.Coins, p.Label, db.BoolInt(p.NewUser), p.Coupons, p.Sort, db.BoolInt(p.Active), t, t).Scan(&p.ID)
		if err != nil {
			return Product{}, err
		}
	} else {
		res, err := tx.Exec(ctx, `UPDATE vip_products SET level = ?, name = ?, days = ?, price = ?, original_price = ?, coins = ?, label = ?,
			new_user = ?, coupons = ?, sort = ?, active = ?, updated_at = ? WHERE id = ?`,
			p.Level, p.Name, p.Days, p.Price, p.OriginalPrice, p.Coins, p.Label, db.BoolInt(p.NewUser), p.Coupons, p.Sort, db.BoolInt(p.Active), t, p.ID)
		if err != nil {
			return Product{}, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return Product{}, err
		} else if n == 0 {
			return Product{}, ErrNoProduct
		}
	}
	return AnyProductByID(ctx, tx, p.ID)
}
