package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"prima/internal/earnings"
	"prima/internal/platform/config"
	"prima/internal/platform/db"
	"prima/internal/wallet"
)

const walletUsage = `Usage:
  prima wallet check   verify every ledger invariant; exits non-zero on a breach
                       (read only: safe on a live server; -h for its flags)
`

// runWallet is `prima wallet check`: it verifies every ledger invariant on
// the configured database (wallet.Check, with earnings' rows against their
// ledger accounts) and fails, so the process exits
// non-zero, on any breach. It only reads, so it is safe on a live server.
func runWallet(args []string, stdout io.Writer) error {
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprint(stdout, walletUsage)
		return nil
	}
	if len(args) == 0 || args[0] != "check" {
		return errors.New("usage: prima wallet check [flags]")
	}
	cfg, err := config.Load("prima wallet check", args[1:])
	if err != nil {
		return err
	}
	ctx := context.Background()
	d, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := wallet.Check(ctx, d, earnings.Check); err != nil {
		return err
	}
	var txns, entries int64
	if err := d.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM ledger_txns), (SELECT COUNT(*) FROM ledger_entries)`).Scan(&txns, &entries); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wallet ledger ok: %d movements, %d entries; every invariant holds\n", txns, entries)
	return nil
}
