// Command prima is the whole server: `prima serve`, `prima worker`, `prima migrate`, `prima seed`, `prima admin`, `prima wallet`, `prima audit`, `prima withdrawals`, `prima reindex`, `prima stats`, `prima backup`, `prima restore`, `prima doctor`, `prima help`.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
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
  prima admin create -account NAME [-role ROLE]
                  make NAME an operator of the console (creates it, asking for
                  a password, or promotes an existing account); ROLE: owner
                  (default), content, moderator, finance or support
  prima admin reset-totp -account NAME
                  forget NAME's authenticator (a lost phone)
  prima admin key -account NAME -ttl 24h
                  issue an API key with NAME's role for scripts (printed once)
  prima wallet check
                  verify the ledger's invariants; exits non-zero on a breach
  prima audit verify
                  recompute the audit log's hash chain; names the first broken
                  row and exits non-zero
  prima withdrawals list|approve|reject
                  list withdrawals, mark one paid or reject it (-h for flags)
  prima reindex   rebuild the search index from the content; prints counts
  prima doctor    what is unsafe or unfinished for production, and whether
                  the database, Redis and media storage answer
  prima backup -to DIR|s3://bucket/prefix [-keep N]
                  a consistent backup of the database and media while serving
  prima restore -from DIR|s3://bucket/prefix [-name prima-...]
                  load a backup into an empty install (checksums checked)
  prima stats rollup [-day YYYY-MM-DD] [-to YYYY-MM-DD]
                  (re)build the daily statistics of a day or a range

Each command takes -h for its flags (prima help COMMAND says the same);
every flag also reads an environment variable (PRIMA_LISTEN, PRIMA_DATA_DIR,
PRIMA_DATABASE_URL, PRIMA_WORKERS, ...). PRIMA_ADMIN_ALLOW (-admin-allow) limits
the operator console's API (/api/admin, its sign-in too) to a list of CIDRs.
`

func main() { os.Exit(cli(os.Args[1:], os.Stdout, os.Stderr)) }

// isHelp reports whether arg asks for help rather than naming a command.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "help":
		return true
	}
	return false
}

// cli runs the command args name and answers the exit status. Help asked
// for (prima -h, prima help, prima help serve, prima serve -h) prints the
// usage and exits 0; a missing or unknown command prints it to stderr and
// exits 1.
func cli(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && isHelp(args[0]) {
		if args[0] != "help" || len(args) == 1 {
			fmt.Fprint(stdout, usage)
			return 0
		}
		args = []string{args[1], "-h"} // prima help serve: serve's flags
	}
	err := run(args, stdout, stderr)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	default:
		fmt.Fprintln(stderr, "prima:", err)
		return 1
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("a command is needed")
	}
	cmd, args := args[0], args[1:]
	if cmd == "admin" {
		return runAdmin(args, os.Stdin, stdout, stderr)
	}
	if cmd == "wallet" {
		return runWallet(args, stdout)
	}
	if cmd == "audit" {
		return runAudit(args, stdout)
	}
	if cmd == "withdrawals" {
		return runWithdrawals(args, stdout, stderr)
	}
	if cmd == "doctor" {
		return runDoctor(args, stdout)
	}
	if cmd == "backup" {
		return runBackup(args, stdout)
	}
	if cmd == "restore" {
		return runRestore(args, stdout)
	}
	if cmd == "reindex" {
		return runReindex(args, stdout)
	}
	if cmd == "stats" {
		return runStats(args, stdout, stderr)
	}
	known := map[string]bool{"serve": true, "worker": true, "migrate": true, "seed": true}
	if !known[cmd] {
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q", cmd)
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
		fmt.Fprintf(stdout, "migrated %s: %d new (%v)\n", d.Engine, len(applied), applied)
		// The next serve or worker rebuilds an index these emptied.
		return search.EnqueueRebuild(ctx, d, applied)
	default: // seed
		a, err := app.New(ctx, cfg, log)
		if err != nil {
			return err
		}
		defer a.Close()
		report, err := seed.Run(ctx, a)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, report)
		return nil
	}
}

func newLogger(level string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level))
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: l}))
}
