// Package modernc measures modernc.org/sqlite, the pure-Go (C translated to
// Go) driver Prima ships with.
package modernc

import (
	"database/sql"
	"net/url"
	"testing"

	_ "modernc.org/sqlite" // registers "sqlite"

	"prima/bench/sqlitedriver"
)

// open uses the DSN of prima's internal/platform/db.
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
	return sql.Open("sqlite", "file:"+path+"?"+q.Encode())
}

func BenchmarkModernc(b *testing.B) { sqlitedriver.Run(b, open) }
