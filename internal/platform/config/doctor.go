package config

import (
	"path/filepath"
	"strings"
)

// Finding is something about a configuration that is unsafe in production
// or not finished, for `prima doctor` and the log at start.
type Finding struct {
	Level   string `json:"level"`   // Unsafe or Unfinished
	Setting string `json:"setting"` // the environment variable to look at
	Message string `json:"message"`
}

// Finding levels.
const (
	Unsafe     = "unsafe"     // users or money are at risk as it stands
	Unfinished = "unfinished" // works, but something an operator needs is missing
)

// MultiNode reports whether this configuration is one of several
// processes: a shared PostgreSQL database, Redis, or an API-only node.
func (c *Config) MultiNode() bool {
	return c.Postgres() || c.RedisURL != "" || c.Workers == 0
}

// Postgres reports whether the database is PostgreSQL.
func (c *Config) Postgres() bool {
	return strings.HasPrefix(c.DatabaseURL, "postgres://") || strings.HasPrefix(c.DatabaseURL, "postgresql://")
}

// Findings names what is unsafe or unfinished in c, unsafe first.
func (c *Config) Findings() []Finding {
	var out []Finding
	add := func(level, setting, msg string) { out = append(out, Finding{level, setting, msg}) }
	if c.TestMode {
		add(Unsafe, "PRIMA_TEST_MODE", "test mode: SMS codes are readable at /api/test/sms/last by anyone (PRIMA_TEST_MODE=0 in production)")
	}
	if c.PaySandbox && !c.TestMode {
		add(Unsafe, "PRIMA_PAY_SANDBOX", "payment sandbox on: anyone can pay their orders on its page without money (PRIMA_PAY_SANDBOX=0 in production)")
	}
	if c.SecretGenerated && c.MultiNode() {
		add(Unsafe, "PRIMA_SECRET", "the signing secret was generated in this data dir: every node of a multi-node install generates its own, so media links and certificates one signs the others refuse; set the same PRIMA_SECRET on every node")
	}
	if c.MultiNode() && c.S3Endpoint == "" {
		add(Unsafe, "PRIMA_S3_ENDPOINT", "media are kept in this node's data dir on a multi-node install: uploads made through one node are missing on the others; use S3 (PRIMA_S3_*)")
	}
	if !c.Postgres() {
		if fs := networkFS(filepath.Dir(c.DatabaseURL)); fs != "" {
			add(Unsafe, "PRIMA_DATABASE_URL", "the SQLite database is on a network file system ("+fs+"): its locks do not hold there and the database can be corrupted; keep it on a local disk")
		}
	}
	if c.TrustedProxies != "" && c.PublicURL == "" {
		add(Unfinished, "PRIMA_PUBLIC_URL", "behind a proxy without PRIMA_PUBLIC_URL: the QR hand-off page and the line list use whatever host the request names")
	}
	if c.MultiNode() && c.ShutdownDrain == 0 {
		add(Unfinished, "PRIMA_SHUTDOWN_DRAIN", "several nodes behind a balancer stop at once on SIGTERM: a request the balancer sends in that moment fails; set PRIMA_SHUTDOWN_DRAIN (e.g. 3s) for rolling upgrades without errors")
	}
	if c.BackupTo == "" {
		add(Unfinished, "PRIMA_BACKUP_TO", "no scheduled backup: set PRIMA_BACKUP_TO to a directory or s3://bucket/prefix (docs/deploy.md, Backups)")
	}
	unsafe := out[:0:0]
	var rest []Finding
	for _, f := range out {
		if f.Level == Unsafe {
			unsafe = append(unsafe, f)
		} else {
			rest = append(rest, f)
		}
	}
	return append(unsafe, rest...)
}

// EnvNames are the environment variables every setting reads, for tools
// and tests that check files naming them (deploy/).
func EnvNames() []string {
	out := make([]string, 0, len(options))
	for _, o := range options {
		out = append(out, o.env)
	}
	return out
}
