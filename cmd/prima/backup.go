package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"prima/internal/app"
	"prima/internal/backup"
	"prima/internal/platform/blob"
	"prima/internal/platform/config"
	"prima/internal/platform/db"
)

const backupUsage = `Usage:
  prima backup -to DIR|s3://bucket/prefix [-keep N]
        a consistent backup of the configured database and media while the
        server keeps serving (SQLite online backup or pg_dump), in a new
        folder prima-<UTC time>/ with a manifest of counts and checksums;
        -keep N then deletes all but the newest N backups there
  prima backup list -to DIR|s3://bucket/prefix
        the finished backups there, oldest first
  prima restore -from DIR|s3://bucket/prefix [-name prima-...]
        loads a backup (the newest unless -name) into the configured
        database, which must be empty, and media store, checking every
        checksum and row count; start the server afterwards
s3:// places use the configured S3 service (s3-endpoint, s3-access-key,
s3-secret-key). PostgreSQL backups need pg_dump and pg_restore of the
server's major version. Scheduled backups: backup-to, backup-every, backup-keep.
`

// runBackup is `prima backup` (and `prima backup list`).
func runBackup(args []string, stdout io.Writer) error {
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprint(stdout, backupUsage)
		return nil
	}
	list := len(args) > 0 && args[0] == "list"
	if list {
		args = args[1:]
	}
	var (
		to   string
		keep int
	)
	cfg, err := config.LoadCommand("prima backup", args, func(fs *flag.FlagSet) {
		fs.StringVar(&to, "to", "", "where the backup goes: a directory or s3://bucket/prefix")
		fs.IntVar(&keep, "keep", 0, "afterwards keep only the newest N backups there (0: keep all)")
	})
	if err != nil {
		return err
	}
	if to == "" {
		return errors.New("backup: -to DIR or -to s3://bucket/prefix is needed")
	}
	if keep < 0 || keep > 1000 {
		return errors.New("backup: -keep is 0 to 1000")
	}
	dst, err := backup.Target(to, app.S3Config(cfg))
	if err != nil {
		return err
	}
	ctx := context.Background()
	if list {
		names, err := backup.List(ctx, dst)
		if err != nil {
			return err
		}
		for _, n := range names {
			fmt.Fprintln(stdout, n)
		}
		return nil
	}
	d, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return err
	}
	defer d.Close()
	media, err := app.OpenMedia(ctx, cfg)
	if err != nil {
		return err
	}
	start := time.Now()
	m, err := backup.Run(ctx, d, media, dst, cfg.DataDir, start)
	if err != nil {
		return err
	}
	var rows int64
	for _, n := range m.Rows {
		rows += n
	}
	fmt.Fprintf(stdout, "backup %s: %s database (%d tables, %d rows, %d bytes), %d media objects (%d bytes) in %.1fs\n",
		m.Name, m.Engine, len(m.Rows), rows, m.Database.Size, len(m.Media), m.MediaSize, time.Since(start).Seconds())
	if keep > 0 {
		gone, err := backup.Prune(ctx, dst, keep)
		if err != nil {
			return err
		}
		for _, g := range gone {
			fmt.Fprintln(stdout, "deleted old backup", g)
		}
	}
	return nil
}

// runRestore is `prima restore`.
func runRestore(args []string, stdout io.Writer) error {
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprint(stdout, backupUsage)
		return nil
	}
	var from, name string
	cfg, err := config.LoadCommand("prima restore", args, func(fs *flag.FlagSet) {
		fs.StringVar(&from, "from", "", "where the backups are: a directory or s3://bucket/prefix")
		fs.StringVar(&name, "name", "", "which backup (prima-...; empty: the newest)")
	})
	if err != nil {
		return err
	}
	if from == "" {
		return errors.New("restore: -from DIR or -from s3://bucket/prefix is needed")
	}
	src, err := backup.Target(from, app.S3Config(cfg))
	if err != nil {
		return err
	}
	ctx := context.Background()
	if name == "" {
		names, err := backup.List(ctx, src)
		if err != nil {
			return err
		}
		if len(names) == 0 {
			return fmt.Errorf("restore: no finished backup in %s", from)
		}
		name = names[len(names)-1]
	}
	var media blob.Store
	if media, err = app.OpenMedia(ctx, cfg); err != nil {
		return err
	}
	start := time.Now()
	m, err := backup.Restore(ctx, src, name, cfg.DatabaseURL, media, cfg.DataDir)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "restored %s (taken %s, schema %s): %d tables, %d media objects in %.1fs\n",
		m.Name, m.CreatedAt.Format(time.RFC3339), m.Schema, len(m.Rows), len(m.Media), time.Since(start).Seconds())
	return nil
}
