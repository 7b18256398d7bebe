// Package migrations holds the versioned schema of each engine. A file is
// never edited after it lands; a change is a new file with the next number,
// written for both engines.
package migrations

import (
	"context"
	"embed"

	"prima/internal/platform/db"
)

//go:embed sqlite/*.sql postgres/*.sql
var files embed.FS

// Apply brings d's schema up to date and returns the versions it applied.
func Apply(ctx context.Context, d *db.DB) ([]string, error) {
	return db.Migrate(ctx, d, files)
}
