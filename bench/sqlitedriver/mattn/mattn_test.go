// Package mattn measures github.com/mattn/go-sqlite3, the cgo driver that
// links SQLite's C amalgamation.
package mattn

import (
	"database/sql"
	"net/url"
	"testing"

	_ "github.com/mattn/go-sqlite3" // registers "sqlite3"

	"prima/bench/sqlitedriver"
)

// open sets the same pragmas as prima's db package, in mattn's DSN keys.
func open(path string, readOnly bool) (*sql.DB, error) {
	q := url.Values{}
	q.Set("_busy_timeout", "10000")
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "NORMAL")
	q.Set("_foreign_keys", "1")
	q.Set("_cache_size", "-16000")
	if readOnly {
		q.Set("mode", "ro")
	} else {
		q.Set("_txlock", "immediate")
	}
	return sql.Open("sqlite3", "file:"+path+"?"+q.Encode())
}

func BenchmarkMattn(b *testing.B) { sqlitedriver.Run(b, open) }
