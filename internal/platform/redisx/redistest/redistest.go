// Package redistest names the Redis server tests use. Like PostgreSQL it is
// not optional: a test that needs it fails when it is down rather than
// skipping, so a change that only works in process cannot pass unnoticed.
package redistest

import "os"

// URL is the test Redis; PRIMA_TEST_REDIS overrides the local default.
func URL() string {
	if u := os.Getenv("PRIMA_TEST_REDIS"); u != "" {
		return u
	}
	return "redis://127.0.0.1:6379/0"
}
