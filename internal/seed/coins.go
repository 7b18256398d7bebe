package seed

import (
	"context"

	"prima/internal/platform/db"
)

// coinPackages are the demo top-up packages (cents, coins, bonus coins),
// bought through the sandbox provider.
var coinPackages = []struct {
	name         string
	price, coins int64
	bonus        int64
	label        string
}{
	{"60金币", 600, 60, 0, ""},
	{"300金币", 3000, 300, 30, ""},
	{"1000金币", 9800, 1000, 150, "热卖"},
	{"2000金币", 19800, 2000, 400, "超值"},
	{"5000金币", 51800, 5000, 1500, "最划算"},
}

// seedCoinPackages writes the demo coin packages in tx.
func seedCoinPackages(ctx context.Context, tx *db.Tx, now int64, st *stats) error {
	for i, p := range coinPackages {
		if _, err := tx.Exec(ctx, `INSERT INTO coin_packages (type, name, coins, bonus, price, original_price, label, sort, active, created_at, updated_at)
			VALUES (1, ?, ?, ?, ?, 0, ?, ?, 1, ?, ?)`, p.name, p.coins, p.bonus, p.price, p.label, i+1, now, now); err != nil {
			return err
		}
		st.coinPackages++
	}
	return nil
}
