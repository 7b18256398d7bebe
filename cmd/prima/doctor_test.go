package main

import (
	"bytes"
	"strings"
	"testing"
)

// prima doctor names the configuration's findings, checks the database and
// storage, and exits non-zero only for something unsafe or failing.
func TestDoctor(t *testing.T) {
	run := func(args ...string) (string, error) {
		var out bytes.Buffer
		err := runDoctor(append([]string{"-data-dir", t.TempDir(), "-log-level", "error"}, args...), &out)
		return out.String(), err
	}
	out, err := run()
	if err != nil || !strings.Contains(out, "unfinished PRIMA_BACKUP_TO") || !strings.Contains(out, "ok         database") ||
		!strings.Contains(out, "ok         storage") {
		t.Fatalf("one machine, defaults: %v\n%s", err, out)
	}
	out, err = run("-pay-sandbox")
	if err == nil || !strings.Contains(out, "unsafe     PRIMA_PAY_SANDBOX") {
		t.Fatalf("sandbox in production: %v\n%s", err, out)
	}
	out, err = run("-backup-to", t.TempDir(), "-redis-url", "redis://127.0.0.1:1/0", "-secret", "s")
	if err == nil || !strings.Contains(out, "cannot start") {
		t.Fatalf("Redis unreachable: %v\n%s", err, out)
	}
}
