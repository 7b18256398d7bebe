package seed

import (
	"context"
	"time"

	"prima/internal/membership"
	"prima/internal/platform/db"
)

// demoVIPProducts are the demo install's VIP cards: prices in cents and in
// coins (10 coins a yuan, as the demo coin packages sell them).
var demoVIPProducts = []membership.Product{
	{Level: membership.LevelVIP, Name: "新人VIP 7天", Days: 7, Price: 100, OriginalPrice: 1000, Coins: 10, Label: "新人专享", NewUser: true, Sort: 0, Active: true},
	{Level: membership.LevelVIP, Name: "VIP 月卡", Days: 30, Price: 3000, OriginalPrice: 4500, Coins: 300, Label: "", Sort: 10, Active: true},
	{Level: membership.LevelVIP, Name: "VIP 季卡", Days: 90, Price: 7800, OriginalPrice: 13500, Coins: 780, Label: "热卖", Sort: 11, Active: true},
	{Level: membership.LevelVIP, Name: "VIP 年卡", Days: 365, Price: 19800, OriginalPrice: 54000, Coins: 1980, Label: "超值", Sort: 12, Active: true},
	{Level: membership.LevelSVIP, Name: "超级VIP 月卡", Days: 30, Price: 6000, OriginalPrice: 9000, Coins: 600, Coupons: 2, Sort: 20, Active: true},
	{Level: membership.LevelSVIP, Name: "超级VIP 年卡", Days: 365, Price: 39800, OriginalPrice: 108000, Coins: 3980, Coupons: 24, Label: "推荐", Sort: 21, Active: true},
}

// seedVIPProducts adds the demo VIP cards when there are none.
func seedVIPProducts(ctx context.Context, tx *db.Tx, now int64) (int, error) {
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM vip_products`).Scan(&n); err != nil || n > 0 {
		return 0, err
	}
	for _, p := range demoVIPProducts {
		if _, err := membership.SaveProduct(ctx, tx, p, time.Unix(now, 0)); err != nil {
			return 0, err
		}
	}
	return len(demoVIPProducts), nil
}
