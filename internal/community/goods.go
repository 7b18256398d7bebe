package community

import (
	"context"

	"prima/internal/platform/db"
)

// PostGoods is post id as goods for the wallet's sale (wallet.Goods, wired
// in internal/app), read on the sale's handle: its price in coins, its
// title, its author (who earns creator earnings from it) and whether it
// is on sale (published: a pending, rejected, removed or deleted post is
// not); db.ErrNotFound when there is none.
func PostGoods(ctx context.Context, q db.Querier, id int64) (price int64, title string, owner int64, onSale bool, err error) {
	var state string
	err = q.QueryRow(ctx, `SELECT coins, title, author_id, state FROM posts WHERE id = ?`, id).Scan(&price, &title, &owner, &state)
	return price, title, owner, state == "published", db.NotFound(err)
}
