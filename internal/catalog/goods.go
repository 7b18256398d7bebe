package catalog

import (
	"context"
	"database/sql"

	"prima/internal/platform/db"
)

// What the wallet reads of videos when it sells them (wallet.Goods and
// wallet.PublishedVideos, wired in internal/app), on the sale's handle.

// VideoGoods is video id as goods: its price in coins, its title, its
// uploader (a user whose upload it plays, who earns creator earnings from
// it; 0 for an operator's upload, the platform's own catalogue) and
// whether it is on sale (published); db.ErrNotFound when there is none.
func VideoGoods(ctx context.Context, q db.Querier, id int64) (price int64, title string, owner int64, onSale bool, err error) {
	var (
		published int
		uploader  sql.NullInt64
	)
	err = q.QueryRow(ctx, `SELECT v.coins, v.title, v.published, u.id FROM videos v
		LEFT JOIN media_assets m ON m.id = v.media_id LEFT JOIN users u ON u.id = m.owner_uid AND u.role = 'user'
		WHERE v.id = ?`, id).Scan(&price, &title, &published, &uploader)
	return price, title, uploader.Int64, published == 1, db.NotFound(err)
}

// PublishedVideos says which of ids are published videos.
func PublishedVideos(ctx context.Context, q db.Querier, ids []int64) (map[int64]bool, error) {
	out := make(map[int64]bool, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	live, err := db.All(ctx, q, func(r db.Scanner) (int64, error) {
		var id int64
		return id, r.Scan(&id)
	}, `SELECT id FROM videos WHERE published = 1 AND id IN (`+db.Placeholders(len(ids))+`)`, args...)
	for _, id := range live {
		out[id] = true
	}
	return out, err
}
