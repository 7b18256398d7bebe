package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"prima/internal/migrations"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/wallet"
)

func TestWalletCheck(t *testing.T) {
	for _, e := range []db.Engine{db.SQLite, db.Postgres} {
		t.Run(string(e), func(t *testing.T) {
			ctx := context.Background()
			url := dbtest.URL(t, e)
			d, err := db.Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if _, err := migrations.Apply(ctx, d); err != nil {
				t.Fatal(err)
			}
			l := wallet.NewLedger()
			if err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				_, err := l.Post(ctx, tx, wallet.Transfer{Kind: "adjust", Key: "adjust:cli:1", UserID: 5, Legs: []wallet.Leg{
					{Account: wallet.UserCoins(5), Amount: 40}, {Account: wallet.System(wallet.SysCoinsAdjust), Amount: -40}}}, time.Now())
				return err
			}); err != nil {
				t.Fatal(err)
			}
			run := func(args ...string) (string, error) {
				var out bytes.Buffer
				err := runWallet(append(args, "-data-dir", t.TempDir(), "-database-url", url, "-log-level", "error"), &out)
				return out.String(), err
			}
			if out, err := run("check"); err != nil || !strings.Contains(out, "1 movements, 2 entries") {
				t.Fatalf("sound ledger: %q %v", out, err)
			}
			// A balance edited behind the ledger's back: a breach, an error
			// (main exits 1 on it).
			if _, err := d.Exec(ctx, `UPDATE ledger_accounts SET balance = 41 WHERE user_id = 5`); err != nil {
				t.Fatal(err)
			}
			if _, err := run("check"); err == nil || !strings.Contains(err.Error(), "cached balance differs") {
				t.Fatalf("breach: %v", err)
			}
			if _, err := run("repair"); err == nil || !strings.Contains(err.Error(), "usage") {
				t.Fatalf("unknown subcommand: %v", err)
			}
		})
	}
}
