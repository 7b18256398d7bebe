package config

import (
	"strings"
	"testing"
)

// Each unsafe or unfinished setting is named, and a production-like
// configuration names nothing.
func TestFindings(t *testing.T) {
	settings := func(args ...string) []string {
		t.Helper()
		c, err := Load("prima doctor", append([]string{"-data-dir", t.TempDir()}, args...))
		if err != nil {
			return []string{"error"}
		}
		var out []string
		for _, f := range c.Findings() {
			out = append(out, f.Level+" "+f.Setting)
		}
		return out
	}
	const pg = "postgres://prima@127.0.0.1:5432/prima"
	s3 := []string{"-s3-endpoint", "http://127.0.0.1:7070", "-s3-bucket", "media"}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"one machine, defaults", nil, "unfinished PRIMA_BACKUP_TO"},
		{"backups set", []string{"-backup-to", "/var/backups/prima"}, ""},
		{"test mode (sandbox expected)", []string{"-backup-to", "b", "-test-mode", "-pay-sandbox"}, "unsafe PRIMA_TEST_MODE"},
		{"sandbox in production", []string{"-backup-to", "b", "-pay-sandbox"}, "unsafe PRIMA_PAY_SANDBOX"},
		{"cluster with a generated secret and local media", []string{"-backup-to", "b", "-database-url", pg},
			"unsafe PRIMA_SECRET,unsafe PRIMA_S3_ENDPOINT,unfinished PRIMA_SHUTDOWN_DRAIN"},
		{"API-only node", append([]string{"-backup-to", "b", "-workers", "0", "-secret", "s", "-shutdown-drain", "3s"}, s3...), ""},
		{"cluster done right", append([]string{"-backup-to", "b", "-database-url", pg, "-secret", "s", "-redis-url", "redis://r:6379/0", "-shutdown-drain", "3s"}, s3...), ""},
		{"a drain too long", []string{"-shutdown-drain", "1h"}, "error"},
		{"proxy without public url", []string{"-backup-to", "b", "-trusted-proxies", "127.0.0.1"}, "unfinished PRIMA_PUBLIC_URL"},
		{"proxy with public url", []string{"-backup-to", "b", "-trusted-proxies", "127.0.0.1", "-public-url", "https://v.example.com"}, ""},
		{"unsafe first", []string{"-pay-sandbox"}, "unsafe PRIMA_PAY_SANDBOX,unfinished PRIMA_BACKUP_TO"},
	}
	for _, c := range cases {
		if got := strings.Join(settings(c.args...), ","); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// A database on a local disk is not on a network file system.
func TestLocalDiskIsNotNetwork(t *testing.T) {
	if fs := networkFS(t.TempDir()); fs != "" {
		t.Fatalf("a temporary folder reads as %s", fs)
	}
}
