package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"prima/internal/app"
	"prima/internal/platform/config"
	"prima/internal/platform/httpx"
)

const doctorUsage = `Usage:
  prima doctor [flags]
        names what is unsafe or unfinished in this configuration for
        production (the same lines the server logs at start), then checks
        that the database, Redis and the media storage answer. Exits 1 when
        something is unsafe or a check fails. Takes the server's flags and
        environment (-h lists them).
`

// runDoctor is `prima doctor`.
func runDoctor(args []string, stdout io.Writer) error {
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprint(stdout, doctorUsage)
		return nil
	}
	cfg, err := config.Load("prima doctor", args)
	if err != nil {
		return err
	}
	bad := 0
	findings := cfg.Findings()
	for _, f := range findings {
		fmt.Fprintf(stdout, "%-10s %s: %s\n", f.Level, f.Setting, f.Message)
		if f.Level == config.Unsafe {
			bad++
		}
	}
	if len(findings) == 0 {
		fmt.Fprintln(stdout, "configuration: nothing unsafe or unfinished")
	}
	fmt.Fprintln(stdout, "(X-Forwarded-For from a proxy not in PRIMA_TRUSTED_PROXIES shows only at run time: the server logs it at the first such request)")

	ctx := context.Background()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := app.New(ctx, cfg, quiet)
	if err != nil {
		fmt.Fprintf(stdout, "%-10s the server cannot start with this configuration: %v\n", "fail", err)
		return errors.New("doctor: the server cannot start")
	}
	defer a.Close()
	for _, c := range a.Checks {
		cctx, cancel := context.WithTimeout(ctx, httpx.ReadyTimeout)
		start := time.Now()
		err := c.Fn(cctx)
		cancel()
		if err != nil {
			bad++
			fmt.Fprintf(stdout, "%-10s %s: %v\n", "fail", c.Name, err)
			continue
		}
		fmt.Fprintf(stdout, "%-10s %s (%d ms)\n", "ok", c.Name, time.Since(start).Milliseconds())
	}
	if bad > 0 {
		return fmt.Errorf("doctor: %d unsafe or failing", bad)
	}
	return nil
}
