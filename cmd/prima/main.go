// Command prima is the whole server: `prima serve`, `prima worker`, `prima migrate`, `prima seed`, `prima admin`, `prima withdrawals`, `prima reindex`.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"

	"prima/internal/app"
	"prima/internal/migrations"
	"prima/internal/platform/config"
	"prima/internal/platform/db"
	"prima/internal/search"
	"prima/internal/seed"
)

const usage = `prima: a self-hostable mobile-web content platform.

Usage:
  prima serve     serve the API and the web app, and run background jobs
                  (PRIMA_WORKERS at once, default 2; 0 leaves them to workers)
  prima worker    run background jobs only, no HTTP (for scaled-out deployments)
  prima migrate   apply database migrations
  prima seed      load the demo catalogue into an empty database
  prima admin create -account NAME
                  make NAME an operator (creates it, asking for a password,
                  or promotes an existing account)
  prima wallet check
                  verify the ledger's invariants; exits non-zero on a breach
  prima withdrawals list|approve|reject
                  list withdrawals, mark one paid or reject it (-h for flags)
  prima reindex   rebuild the search index from the content; prints counts

Each command takes -h for its flags; every flag also reads an environment
variable (PRIMA_LISTEN, PRIMA_DATA_DIR, PRIMA_DATABASE_URL, PRIMA_WORKERS, ...).
`

func main() {
	if err := run(os.Args[1:]); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "prima:", err)
		}
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usage)
		return errors.New("a command is needed")
	}
	cmd, args := args[0], args[1:]
	if cmd == "admin" {
		return runAdmin(args, os.Stdin, os.Stdout, os.Stderr)
	}
	if cmd == "wallet" {
		return runWallet(args, os.Stdout)
	}
	if cmd == "withdrawals" {
		return runWithdrawals(args, os.Stdout, os.Stderr)
	}
	if cmd == "reindex" {
		return runReindex(args, os.Stdout)
	}
	cfg, err := config.Load("prima "+cmd, args)
	if err != nil {
		return err
	}
	log := newLogger(cfg.LogLevel)
	slog.SetDefault(log)
	ctx := context.Background()

	switch cmd {
	case "serve":
		a, err := app.New(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer a.Close()
		return a.Serve(ctx)
	case "worker":
		a, err := app.New(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer a.Close()
		return a.Work(ctx)
	case "migrate":
		d, err := db.Open(ctx, cfg.DatabaseURL)
		if err != nil {
			return err
		}
		defer d.Close()
		applied, err := migrations.Apply(ctx, d)
		if err != nil {
			return err
		}
		fmt.Printf("migrated %s: %d new (%v)\n", d.Engine, len(applied), applied)
		// The next serve or worker rebuilds an index these emptied.
		return search.EnqueueRebuild(ctx, d, applied)
	case "seed":
		a, err := app.New(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer a.Close()
		report, err := seed.Run(ctx, a)
		if err != nil {
			return err
		}
		fmt.Println(report)
		return nil
	default:
		fmt.Fprint(os.Stderr, usage)
		return fmt.Errorf("unknown command %q", cmd)
	}
}

func newLogger(level string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level))
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: l}))
}
