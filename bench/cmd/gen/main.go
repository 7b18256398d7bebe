// Command gen builds the bench catalogue on its own, for inspecting the data
// set or timing generation: `go run ./bench/cmd/gen -engines sqlite,postgres`.
// The bench command calls the same code and caches the result the same way,
// so a catalogue made here is reused by `make bench`.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"prima/bench/internal/gen"
	"prima/bench/internal/repo"
)

func main() {
	videos := flag.Int("videos", 1_000_000, "videos in the catalogue")
	engines := flag.String("engines", "sqlite,postgres", "engines to build: sqlite, postgres or both")
	sqlitePath := flag.String("sqlite", "", "SQLite file (default bench/data/catalog-<videos>.db)")
	pgURL := flag.String("pg-url", "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable", "PostgreSQL server (any database; used to create the bench one)")
	pgDB := flag.String("pg-db", "prima_bench", "PostgreSQL database to build")
	force := flag.Bool("force", false, "rebuild even when a complete data set of this size and schema exists")
	flag.Parse()
	if err := run(*videos, *engines, *sqlitePath, *pgURL, *pgDB, *force); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(videos int, engines, sqlitePath, pgURL, pgDB string, force bool) error {
	if videos < 1 {
		return fmt.Errorf("-videos must be at least 1")
	}
	root, err := repo.Root()
	if err != nil {
		return err
	}
	migs := os.DirFS(filepath.Join(root, "internal", "migrations"))
	ctx := context.Background()
	progress := func(s string) { fmt.Fprintf(os.Stderr, "%s %s\n", time.Now().Format("15:04:05"), s) }
	for _, e := range strings.Split(engines, ",") {
		switch strings.TrimSpace(e) {
		case "sqlite":
			path := sqlitePath
			if path == "" {
				path = filepath.Join(root, "bench", "data", fmt.Sprintf("catalog-%d.db", videos))
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
				return err
			}
			rep, err := gen.EnsureSQLite(ctx, migs, path, videos, force, progress)
			if err != nil {
				return fmt.Errorf("sqlite: %w", err)
			}
			fmt.Printf("%s -> %s\n", rep, path)
		case "postgres":
			u, rep, err := gen.EnsurePostgres(ctx, migs, pgURL, pgDB, videos, force, progress)
			if err != nil {
				return fmt.Errorf("postgres: %w", err)
			}
			fmt.Printf("%s -> %s\n", rep, u)
		default:
			return fmt.Errorf("unknown engine %q (sqlite, postgres)", e)
		}
	}
	return nil
}
