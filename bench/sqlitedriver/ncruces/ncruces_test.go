// Package ncruces measures github.com/ncruces/go-sqlite3, pure Go too: SQLite
// compiled to Wasm, then translated to Go by wasm2go (releases before v0.31
// ran the Wasm on wazero instead).
package ncruces

import (
	"database/sql"
	"net/url"
	"testing"

	_ "github.com/ncruces/go-sqlite3/driver" // registers "sqlite3"

	"prima/bench/sqlitedriver"
)

// open uses the same _pragma and _txlock keys as modernc.
func open(path string, readOnly bool) (*sql.DB, error) {
	q := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "journal_mode(WAL)", "synchronous(NORMAL)", "foreign_keys(ON)", "cache_size(-16000)"} {
		q.Add("_pragma", p)
	}
	if readOnly {
		q.Set("mode", "ro")
	} else {
		q.Set("_txlock", "immediate")
	}
	return sql.Open("sqlite3", "file:"+path+"?"+q.Encode())
}

func BenchmarkNcruces(b *testing.B) { sqlitedriver.Run(b, open) }
