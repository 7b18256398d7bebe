package catalog

import (
	"context"

	"prima/internal/platform/db"
)

// What the wallet reads of videos when it sells them (wallet.Goods and
// wallet.PublishedVideos, wired in internal/app), on the sale's handle.

// VideoGoods reads video id as goods: its price in coins, its title, its
// uploader (a user whose upload it plays, who earns creator earnings from
// it; 0 for an operator's upload, the platform's own catalogue) and
// whether it is on sale (published); db.ErrNotFound when there is none.
// The upload and its owner's card are read through upload and people
// (media's and account's), on the same handle.
func VideoGoods(upload func(ctx context.Context, q db.Querier, id int64) (Upload, error), people People) func(ctx context.Context, q db.Querier, id int64) (price int64, title string, owner int64, onSale bool, err error) {
	s := &Service{Uploads: uploadFunc(upload), People: people}
	return func(ctx context.Context, q db.Querier, id int64) (price int64, title string, owner int64, onSale bool, err error) {
		var published int
		var media int64
		err = q.QueryRow(ctx, `SELECT coins, title, published, media_id FROM videos WHERE id = ?`, id).Scan(&price, &title, &published, &media)
		if err != nil {
			return 0, "", 0, false, db.NotFound(err)
		}
		c, ok, err := s.uploaderCard(ctx, q, media)
		if ok {
			owner = c.UID
		}
		return price, title, owner, published == 1, err
	}
}

// uploadFunc is an Uploads that only reads one upload (all VideoGoods needs).
type uploadFunc func(ctx context.Context, q db.Querier, id int64) (Upload, error)

func (f uploadFunc) UploadOf(ctx context.Context, q db.Querier, id int64) (Upload, error) {
	return f(ctx, q, id)
}
func (uploadFunc) UploadsOf(context.Context, int64, bool) ([]int64, error) { return nil, nil }

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
