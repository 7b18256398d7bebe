package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"prima/internal/app"
	"prima/internal/platform/audit"
	"prima/internal/platform/config"
	"prima/internal/platform/days"
	"prima/internal/stats"
)

const statsUsage = `Usage:
  prima stats rollup [-day YYYY-MM-DD] [-to YYYY-MM-DD]
                 (re)build the statistics of a day (default today, Asia/Shanghai),
                 or of every day from -day to -to; re-rolling replaces the rows.
                 Recorded in the audit log as the command line.
`

// runStats is `prima stats rollup`: the rollup job's work for the days
// asked, at once (stats.Service.Rollup).
func runStats(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprint(stdout, statsUsage)
		return nil
	}
	if len(args) == 0 || args[0] != "rollup" {
		fmt.Fprint(stderr, statsUsage)
		return errors.New("usage: prima stats rollup [-day YYYY-MM-DD] [-to YYYY-MM-DD]")
	}
	var day, to string
	cfg, err := config.LoadCommand("prima stats rollup", args[1:], func(fs *flag.FlagSet) {
		fs.StringVar(&day, "day", "", "the day to roll up, YYYY-MM-DD in Asia/Shanghai (default today)")
		fs.StringVar(&to, "to", "", "roll up every day from -day to this one too")
	})
	if err != nil {
		return err
	}
	if day == "" {
		day = days.Of(time.Now())
	}
	if to == "" {
		to = day
	}
	list, err := stats.Range(day, to)
	if err != nil {
		return fmt.Errorf("stats rollup: %w", err)
	}
	ctx := context.Background()
	a, err := app.New(ctx, cfg, newLogger(cfg.LogLevel))
	if err != nil {
		return err
	}
	defer a.Close()
	actor := audit.Actor{UID: audit.CLI}
	for _, d := range list {
		r, err := a.Stats.Rollup(ctx, d, &actor)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: %d active, %d new guests, %d registrations, %d payers, revenue %d cents, %d plays, %d searches (%d ms)\n",
			d, r.Day.ActiveUsers, r.Day.NewGuests, r.Day.Registrations, r.Day.Payers, r.Day.Revenue.Total, r.Day.Plays, r.Day.Searches, r.TookMs)
	}
	return nil
}
