// Package modernc measures modernc.org/sqlite, the pure-Go (C translated to
// Go) driver Prima ships with.
package modernc

import (
	"database/sql"
	"testing"

	_ "modernc.org/sqlite" // registers "sqlite"

	"prima/bench/sqlitedriver"
)

// open uses the DSN of prima's internal/platform/db.
func open(path string, readOnly bool) (*sql.DB, error) {
	return sql.Open("sqlite", sqlitedriver.PragmaDSN(path, readOnly))
}

func BenchmarkModernc(b *testing.B) { sqlitedriver.Run(b, open) }
