// Package config reads Prima's settings from flags and the environment.
//
// Every option sits in one table with its environment name, default and a
// validator, so `prima serve -h` and the operator guide list the same things.
// Nothing needs setting: secrets that are not configured are generated once
// and kept in the data directory.
package config

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Config is the resolved configuration of one process.
type Config struct {
	Listen      string // address serve listens on
	DataDir     string // SQLite file, media, generated secrets
	DatabaseURL string // sqlite file path or postgres:// URL
	LogLevel    string // debug, info, warn, error
	Gate        string // platform gate: off, mobile, ios
	GateURL     string // where a gated device is sent; empty shows the QR hand-off page
	PublicURL   string // the URL phones use, shown on the QR hand-off page; empty means the request's host
	Secret      string // signs media URLs; generated when empty
	RedisURL    string // redis:// URL for shared counters across nodes; empty keeps them in-process
	Workers     int    // background jobs this process runs at once; 0: serve runs none
	workers     string
}

type option struct {
	name, env, def, usage string
	field                 func(*Config) *string
	valid                 func(string) error
}

var options = []option{
	{"listen", "PRIMA_LISTEN", ":8080", "address to listen on", func(c *Config) *string { return &c.Listen }, nil},
	{"data-dir", "PRIMA_DATA_DIR", "./data", "directory for the SQLite database, media and generated secrets", func(c *Config) *string { return &c.DataDir }, nil},
	{"database-url", "PRIMA_DATABASE_URL", "", "database: empty for SQLite in the data dir, a file path, or a postgres:// URL", func(c *Config) *string { return &c.DatabaseURL }, nil},
	{"log-level", "PRIMA_LOG_LEVEL", "info", "debug, info, warn or error", func(c *Config) *string { return &c.LogLevel }, oneOf("debug", "info", "warn", "error")},
	{"gate", "PRIMA_GATE", "off", "platform gate: off, mobile or ios", func(c *Config) *string { return &c.Gate }, oneOf("off", "mobile", "ios")},
	{"gate-redirect-url", "PRIMA_GATE_REDIRECT_URL", "", "where a gated device is sent (empty: a QR hand-off page)", func(c *Config) *string { return &c.GateURL }, httpURL},
	{"public-url", "PRIMA_PUBLIC_URL", "", "the address phones open, for the QR hand-off page (empty: the request's host)", func(c *Config) *string { return &c.PublicURL }, httpURL},
	{"secret", "PRIMA_SECRET", "", "signing secret (generated in the data dir when empty)", func(c *Config) *string { return &c.Secret }, nil},
	{"redis-url", "PRIMA_REDIS_URL", "", "Redis for rate limits shared by several nodes, e.g. redis://127.0.0.1:6379/0 (empty: in-process)", func(c *Config) *string { return &c.RedisURL }, redisURL},
	{"workers", "PRIMA_WORKERS", "2", "background jobs run at once by this process (0: serve runs none, leaving them to prima worker processes)", func(c *Config) *string { return &c.workers }, workerCount},
}

// Load parses args (flags win over the environment, which wins over defaults)
// and fills in derived values.
func Load(name string, args []string) (*Config, error) {
	c := &Config{}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	for _, o := range options {
		def := o.def
		if v, ok := os.LookupEnv(o.env); ok {
			def = v
		}
		fs.StringVar(o.field(c), o.name, def, o.usage+" ($"+o.env+")")
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	for _, o := range options {
		if o.valid == nil {
			continue
		}
		if err := o.valid(*o.field(c)); err != nil {
			return nil, fmt.Errorf("%s: %w", o.name, err)
		}
	}
	c.Workers, _ = strconv.Atoi(c.workers) // validated above
	if c.DatabaseURL == "" {
		c.DatabaseURL = filepath.Join(c.DataDir, "prima.db")
	}
	if err := os.MkdirAll(c.DataDir, 0o750); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	if c.Secret == "" {
		s, err := persistedSecret(filepath.Join(c.DataDir, "secret"))
		if err != nil {
			return nil, err
		}
		c.Secret = s
	}
	return c, nil
}

// persistedSecret reads the secret file, creating it with 32 random bytes the
// first time, so restarts keep signed URLs valid.
func persistedSecret(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err == nil && len(strings.TrimSpace(string(b))) >= 32 {
		return strings.TrimSpace(string(b)), nil
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("secret: %w", err)
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	s := hex.EncodeToString(raw)
	if err := os.WriteFile(path, []byte(s+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("secret: %w", err)
	}
	return s, nil
}

// IsPostgres reports whether the database URL names a PostgreSQL server.
func IsPostgres(url string) bool {
	return strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://")
}

func oneOf(vals ...string) func(string) error {
	return func(s string) error {
		for _, v := range vals {
			if s == v {
				return nil
			}
		}
		return fmt.Errorf("%q is not one of %s", s, strings.Join(vals, ", "))
	}
}

func redisURL(s string) error {
	if s == "" || strings.HasPrefix(s, "redis://") || strings.HasPrefix(s, "rediss://") || strings.HasPrefix(s, "unix://") {
		return nil
	}
	return fmt.Errorf("%q is not a redis://, rediss:// or unix:// URL", s)
}

func workerCount(s string) error {
	if n, err := strconv.Atoi(s); err != nil || n < 0 || n > 1000 {
		return fmt.Errorf("%q is not a number from 0 to 1000", s)
	}
	return nil
}

func httpURL(s string) error {
	if s == "" || strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") {
		return nil
	}
	return fmt.Errorf("%q is not an http(s) URL", s)
}
