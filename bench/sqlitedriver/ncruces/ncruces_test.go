// Package ncruces measures github.com/ncruces/go-sqlite3, pure Go too: SQLite
// compiled to Wasm, then translated to Go by wasm2go (releases before v0.31
// ran the Wasm on wazero instead).
package ncruces

import (
	"database/sql"
	"testing"

	_ "github.com/ncruces/go-sqlite3/driver" // registers "sqlite3"

	"prima/bench/sqlitedriver"
)

// open uses the DSN of prima's internal/platform/db.
func open(path string, readOnly bool) (*sql.DB, error) {
	return sql.Open("sqlite3", sqlitedriver.PragmaDSN(path, readOnly))
}

func BenchmarkNcruces(b *testing.B) { sqlitedriver.Run(b, open) }
