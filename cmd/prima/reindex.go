package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"prima/internal/migrations"
	"prima/internal/platform/config"
	"prima/internal/platform/db"
	"prima/internal/search"
)

// runReindex is `prima reindex`: it rebuilds the search index from the
// source tables (search.Reindex: batches of one transaction each, so a live
// server keeps searching meanwhile) and prints the docs of each kind.
func runReindex(args []string, stdout io.Writer) error {
	cfg, err := config.Load("prima reindex", args)
	if err != nil {
		return err
	}
	ctx := context.Background()
	d, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer d.Close()
	if _, err := migrations.Apply(ctx, d); err != nil {
		return err
	}
	start := time.Now()
	n, err := search.Reindex(ctx, d)
	if err != nil {
		return err
	}
	counts, err := search.Counts(ctx, d)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "reindexed %s: %d docs in %s\n", d.Engine, n, time.Since(start).Round(time.Millisecond))
	for _, k := range search.Kinds {
		fmt.Fprintf(stdout, "  %-8s %d\n", k, counts[k])
	}
	return nil
}
