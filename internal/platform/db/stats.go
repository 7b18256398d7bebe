package db

import "database/sql"

// PoolStats is one connection pool's statistics, for metrics.
type PoolStats struct {
	Name string // "write" and "read" on SQLite; "main" where one pool serves both
	sql.DBStats
}

// Stats reports each of d's connection pools.
func (d *DB) Stats() []PoolStats {
	if d.read == d.write {
		return []PoolStats{{Name: "main", DBStats: d.write.Stats()}}
	}
	return []PoolStats{{Name: "write", DBStats: d.write.Stats()}, {Name: "read", DBStats: d.read.Stats()}}
}
