package gallery

import (
	"context"

	"prima/internal/platform/db"
)

// GalleryGoods is gallery id as goods for the wallet's sale (wallet.Goods,
// wired in internal/app), read on the sale's handle: its price in coins,
// its title, its owner (always 0: galleries are the platform's own
// catalogue, made by operators) and whether it is on sale (published);
// db.ErrNotFound when there is none.
func GalleryGoods(ctx context.Context, q db.Querier, id int64) (price int64, title string, owner int64, onSale bool, err error) {
	var published int
	err = q.QueryRow(ctx, `SELECT coins, title, published FROM galleries WHERE id = ?`, id).Scan(&price, &title, &published)
	return price, title, 0, published == 1, db.NotFound(err)
}
