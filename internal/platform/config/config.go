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
	"net"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"prima/internal/platform/httpx"
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
	// SecretGenerated: Secret came from the data dir's generated file, not
	// from the operator (several nodes would each have their own).
	SecretGenerated bool
	RedisURL        string // redis:// URL for shared counters and realtime events across nodes; empty keeps them in-process
	RedisPrefix     string // prefix of every Redis key and pub/sub channel, so installs can share a Redis

	TrustedProxies string // CIDRs whose X-Forwarded-For / X-Real-IP are believed; empty: none
	AdminAllow     string // CIDRs or addresses allowed to reach /api/admin (the console and its sign-in); empty: any
	MetricsListen  string // address of the Prometheus /metrics listener; empty: off

	// SecretPrevious is the secret before a rotation: media URLs it signed
	// keep working until they expire.
	SecretPrevious string

	// S3-compatible media storage; with endpoint and bucket set it replaces
	// the media folder in the data dir. TLS follows the endpoint's scheme.
	S3Endpoint, S3Bucket, S3AccessKey, S3SecretKey, S3Region, S3Prefix string

	// Workers is how many background jobs this process runs at once; 0:
	// serve runs none (an API-only node beside `prima worker` processes).
	Workers int
	workers string

	// ShutdownDrain: how long serve keeps serving, unready, after SIGTERM.
	ShutdownDrain time.Duration
	shutdownDrain string

	// PageCacheMB bounds the in-memory cache of public catalogue pages
	// (internal/platform/pagecache), in MiB of gzipped answers; 0: off.
	PageCacheMB int
	pageCacheMB string

	// Scheduled backups (internal/backup): where to, how often, how many
	// kept. BackupTo empty: none scheduled.
	BackupTo    string
	BackupEvery time.Duration
	BackupKeep  int
	backupEvery string
	backupKeep  string

	// TestMode lets end-to-end tests read the SMS codes the server sends
	// (GET /api/test/sms/last). Never on in production: anyone could read
	// anyone's code.
	TestMode bool
	testMode string

	// PaySandbox turns on the built-in sandbox payment provider: its
	// hosted page marks orders paid without money, so it is off unless an
	// operator (or a test) turns it on.
	PaySandbox bool
	paySandbox string

	// EasyPay (彩虹易支付): one merchant at one gateway, on when the gateway,
	// pid and key are set (all three, with PublicURL for its notify_url).
	// EpayChannels are the channel codes offered (alipay, wxpay, qqpay),
	// EpayMode "submit" (page jump) or "mapi" (API), EpaySign "plain"
	// (key appended) or "amp-key" ("&key=" + key appended).
	EpayGateway, EpayPID, EpayKey string
	EpayChannels                  []string
	EpayMode, EpaySign            string
	epayChannels                  string

	// Stripe Checkout: on when the secret key and the webhook secret are
	// set (with PublicURL). StripeAPIURL replaces api.stripe.com
	// (stripe-mock, tests).
	StripeSecretKey, StripeWebhookSecret, StripeCurrency, StripeAPIURL string
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
	{"redis-url", "PRIMA_REDIS_URL", "", "Redis for rate limits and realtime events shared by several nodes, e.g. redis://127.0.0.1:6379/0 (empty: in-process)", func(c *Config) *string { return &c.RedisURL }, redisURL},
	{"redis-prefix", "PRIMA_REDIS_PREFIX", "prima:", "prefix of Prima's Redis keys and pub/sub channels (installs sharing one Redis need different ones)", func(c *Config) *string { return &c.RedisPrefix }, redisPrefix},
	{"s3-endpoint", "PRIMA_S3_ENDPOINT", "", "S3-compatible media storage URL, e.g. https://s3.eu-central-1.amazonaws.com (empty: the media folder in the data dir)", func(c *Config) *string { return &c.S3Endpoint }, httpURL},
	{"s3-bucket", "PRIMA_S3_BUCKET", "", "S3 bucket for media (set with s3-endpoint)", func(c *Config) *string { return &c.S3Bucket }, nil},
	{"s3-access-key", "PRIMA_S3_ACCESS_KEY", "", "S3 access key id", func(c *Config) *string { return &c.S3AccessKey }, nil},
	{"s3-secret-key", "PRIMA_S3_SECRET_KEY", "", "S3 secret access key", func(c *Config) *string { return &c.S3SecretKey }, nil},
	{"s3-region", "PRIMA_S3_REGION", "", "S3 region (empty: asked of the service)", func(c *Config) *string { return &c.S3Region }, nil},
	{"s3-prefix", "PRIMA_S3_PREFIX", "", "folder in the bucket that holds this installation's media, e.g. prima/", func(c *Config) *string { return &c.S3Prefix }, nil},
	{"secret-previous", "PRIMA_SECRET_PREVIOUS", "", "the signing secret before the last rotation, still accepted for media URLs it signed", func(c *Config) *string { return &c.SecretPrevious }, nil},
	{"trusted-proxies", "PRIMA_TRUSTED_PROXIES", "", "comma-separated CIDRs of your reverse proxies; only their X-Forwarded-For and X-Real-IP are believed (empty: none, the peer address is the client)", func(c *Config) *string { return &c.TrustedProxies }, cidrList},
	{"admin-allow", "PRIMA_ADMIN_ALLOW", "", "comma-separated CIDRs or addresses allowed to reach the operator console's API (/api/admin, its sign-in too); others get 403 (empty: any address); the client address is resolved through trusted-proxies", func(c *Config) *string { return &c.AdminAllow }, cidrList},
	{"metrics-listen", "PRIMA_METRICS_LISTEN", "", "address for Prometheus /metrics, kept off the public listener, e.g. 127.0.0.1:9090 (empty: off)", func(c *Config) *string { return &c.MetricsListen }, listenAddr},
	{"test-mode", "PRIMA_TEST_MODE", "0", "test mode: SMS codes readable at GET /api/test/sms/last, for end-to-end tests only (1: on; never in production)", func(c *Config) *string { return &c.testMode }, oneOf("0", "1", "true", "false")},
	{"pay-sandbox", "PRIMA_PAY_SANDBOX", "0", "sandbox payment provider: its hosted page pays orders without money, for trials and tests (1: on; never in production)", func(c *Config) *string { return &c.paySandbox }, oneOf("0", "1", "true", "false")},
	{"epay-gateway", "PRIMA_EPAY_GATEWAY", "", "EasyPay (彩虹易支付) gateway address, e.g. https://pay.example.com/ (https; empty: EasyPay off)", func(c *Config) *string { return &c.EpayGateway }, providerURL},
	{"epay-pid", "PRIMA_EPAY_PID", "", "EasyPay merchant id (商户ID)", func(c *Config) *string { return &c.EpayPID }, printable},
	{"epay-key", "PRIMA_EPAY_KEY", "", "EasyPay merchant key (商户密钥)", func(c *Config) *string { return &c.EpayKey }, printable},
	{"epay-channels", "PRIMA_EPAY_CHANNELS", "alipay,wxpay", "EasyPay channels offered, in order: alipay, wxpay, qqpay (comma-separated)", func(c *Config) *string { return &c.epayChannels }, epayChannels},
	{"epay-mode", "PRIMA_EPAY_MODE", "submit", "how EasyPay orders are made: submit (page jump to submit.php) or mapi (API order at mapi.php)", func(c *Config) *string { return &c.EpayMode }, oneOf("submit", "mapi")},
	{"epay-sign", "PRIMA_EPAY_SIGN", "plain", "how the EasyPay key joins the signed string: plain (appended) or amp-key (appended as &key=KEY), as the gateway documents", func(c *Config) *string { return &c.EpaySign }, oneOf("plain", "amp-key")},
	{"stripe-secret-key", "PRIMA_STRIPE_SECRET_KEY", "", "Stripe secret key, sk_live_... (empty: Stripe off)", func(c *Config) *string { return &c.StripeSecretKey }, printable},
	{"stripe-webhook-secret", "PRIMA_STRIPE_WEBHOOK_SECRET", "", "signing secret (whsec_...) of the Stripe webhook endpoint for /api/pay/notify/stripe", func(c *Config) *string { return &c.StripeWebhookSecret }, printable},
	{"stripe-currency", "PRIMA_STRIPE_CURRENCY", "cny", "currency Stripe charges; prices are charged as the same figure in it", func(c *Config) *string { return &c.StripeCurrency }, currencyCode},
	{"stripe-api-url", "PRIMA_STRIPE_API_URL", "", "Stripe API address instead of https://api.stripe.com (stripe-mock or a test double)", func(c *Config) *string { return &c.StripeAPIURL }, providerURL},
	{"shutdown-drain", "PRIMA_SHUTDOWN_DRAIN", "0s", "behind a load balancer: on SIGTERM, answer /readyz 503 and close kept-alive connections for this long before stopping, so the balancer moves new requests elsewhere first (e.g. 3s, over its health check's interval x fall; 0: stop at once)", func(c *Config) *string { return &c.shutdownDrain }, durationBetween(0, 5*time.Minute)},
	{"page-cache-mb", "PRIMA_PAGE_CACHE_MB", "32", "MiB of memory for the public catalogue pages kept encoded and gzipped (module lists, listings, sections, tags, announcements, the remote configuration), dropped on every node by the writes that change them (0: off, every call reads the database)", func(c *Config) *string { return &c.pageCacheMB }, intBetween(0, 4096)},
	{"backup-to", "PRIMA_BACKUP_TO", "", "where scheduled backups go: a directory or s3://bucket/prefix on the s3-endpoint service (empty: no scheduled backups; prima backup -to still works)", func(c *Config) *string { return &c.BackupTo }, nil},
	{"backup-every", "PRIMA_BACKUP_EVERY", "24h", "how often the scheduled backup runs (a Go duration, 1h to 168h)", func(c *Config) *string { return &c.backupEvery }, durationBetween(time.Hour, 168*time.Hour)},
	{"backup-keep", "PRIMA_BACKUP_KEEP", "7", "how many scheduled backups are kept (1 to 1000); older ones are deleted after each new one", func(c *Config) *string { return &c.backupKeep }, intBetween(1, 1000)},
	{"workers", "PRIMA_WORKERS", "2", "background jobs run at once by this process (0: serve runs none, leaving them to prima worker processes)", func(c *Config) *string { return &c.workers }, workerCount},
}

// secretOptions name the options whose values are credentials: help output
// never shows them as defaults, even when the environment sets them.
var secretOptions = map[string]bool{"PRIMA_SECRET": true, "PRIMA_SECRET_PREVIOUS": true, "PRIMA_S3_SECRET_KEY": true,
	"PRIMA_EPAY_KEY": true, "PRIMA_STRIPE_SECRET_KEY": true, "PRIMA_STRIPE_WEBHOOK_SECRET": true}

// boolOptions are switches: `-test-mode` alone turns one on, as with
// flag.Bool, while the table keeps their values as "0"/"1" strings.
var boolOptions = map[string]bool{"PRIMA_TEST_MODE": true, "PRIMA_PAY_SANDBOX": true}

// boolString is a flag.Value over a "0"/"1" string that may be given
// without a value.
type boolString struct{ p *string }

func (b boolString) String() string {
	if b.p == nil {
		return ""
	}
	return *b.p
}
func (b boolString) Set(v string) error {
	switch v {
	case "1", "true":
		*b.p = "1"
	case "0", "false":
		*b.p = "0"
	default:
		return fmt.Errorf("%q is not 0, 1, true or false", v)
	}
	return nil
}
func (b boolString) IsBoolFlag() bool { return true }

// Load parses args (flags win over the environment, which wins over defaults)
// and fills in derived values.
func Load(name string, args []string) (*Config, error) { return LoadCommand(name, args, nil) }

// LoadCommand is Load for a command with flags of its own (prima admin
// create -account ...): extra registers them on the same flag set, so they
// mix freely with the configuration flags and show in -h.
func LoadCommand(name string, args []string, extra func(*flag.FlagSet)) (*Config, error) {
	c := &Config{}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	if extra != nil {
		extra(fs)
	}
	for _, o := range options {
		def := o.def
		if v, ok := os.LookupEnv(o.env); ok {
			def = v
		}
		if boolOptions[o.env] {
			*o.field(c) = def
			fs.Var(boolString{o.field(c)}, o.name, o.usage+" ($"+o.env+")")
			continue
		}
		if secretOptions[o.env] {
			fs.StringVar(o.field(c), o.name, "", o.usage+" ($"+o.env+")")
			*o.field(c) = def // after registering, so -h prints no default
			continue
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
	c.BackupEvery, _ = time.ParseDuration(c.backupEvery)
	c.ShutdownDrain, _ = time.ParseDuration(c.shutdownDrain)
	c.PageCacheMB, _ = strconv.Atoi(c.pageCacheMB)
	c.BackupKeep, _ = strconv.Atoi(c.backupKeep)
	c.TestMode = c.testMode == "1" || c.testMode == "true"
	c.PaySandbox = c.paySandbox == "1" || c.paySandbox == "true"
	if (c.S3Endpoint == "") != (c.S3Bucket == "") {
		return nil, errors.New("s3-endpoint and s3-bucket: set both to store media in S3, or neither")
	}
	c.EpayChannels = strings.Split(c.epayChannels, ",")
	if n := countSet(c.EpayGateway, c.EpayPID, c.EpayKey); n != 0 && n != 3 {
		return nil, errors.New("epay-gateway, epay-pid and epay-key: set all three to take EasyPay payments, or none")
	}
	if (c.StripeSecretKey == "") != (c.StripeWebhookSecret == "") {
		return nil, errors.New("stripe-secret-key and stripe-webhook-secret: set both to take Stripe payments, or neither")
	}
	if (c.EpayGateway != "" || c.StripeSecretKey != "") && c.PublicURL == "" {
		return nil, errors.New("public-url: payment providers need this server's public address (their notices and the payer's way back are built on it)")
	}
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
		c.SecretGenerated = true
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

// durationBetween accepts a Go duration from lo to hi.
func durationBetween(lo, hi time.Duration) func(string) error {
	return func(s string) error {
		d, err := time.ParseDuration(s)
		if err != nil || d < lo || d > hi {
			return fmt.Errorf("%q is not a duration from %s to %s", s, lo, hi)
		}
		return nil
	}
}

// intBetween accepts a whole number from lo to hi.
func intBetween(lo, hi int) func(string) error {
	return func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n < lo || n > hi {
			return fmt.Errorf("%q is not a whole number from %d to %d", s, lo, hi)
		}
		return nil
	}
}

func workerCount(s string) error {
	if n, err := strconv.Atoi(s); err != nil || n < 0 || n > 1000 {
		return fmt.Errorf("%q is not a number from 0 to 1000", s)
	}
	return nil
}

// redisPrefix keeps to characters that read well in redis-cli; an empty
// prefix would mix Prima's keys with whatever else the server holds.
func redisPrefix(s string) error {
	if s == "" || len(s) > 64 {
		return fmt.Errorf("%q must be 1-64 characters", s)
	}
	for _, r := range s {
		if r <= ' ' || r > '~' {
			return fmt.Errorf("%q may hold only printable ASCII without spaces", s)
		}
	}
	return nil
}

func cidrList(s string) error {
	_, err := httpx.ParseTrustedProxies(s)
	return err
}

func listenAddr(s string) error {
	if s == "" {
		return nil
	}
	if _, _, err := net.SplitHostPort(s); err != nil {
		return fmt.Errorf("%q is not host:port", s)
	}
	return nil
}

func httpURL(s string) error {
	if s == "" || strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") {
		return nil
	}
	return fmt.Errorf("%q is not an http(s) URL", s)
}

func countSet(vals ...string) int {
	n := 0
	for _, v := range vals {
		if v != "" {
			n++
		}
	}
	return n
}

// providerURL is a payment provider's address: https, or http to a
// loopback address (a local test double). EasyPay's order query carries the
// merchant key in its URL, so nothing else goes over plain http.
func providerURL(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%q is not an http(s) URL", s)
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if ip, err := netip.ParseAddr(u.Hostname()); (err == nil && ip.IsLoopback()) || u.Hostname() == "localhost" {
			return nil
		}
		return fmt.Errorf("%q: use https (plain http only to a loopback address)", s)
	}
	return fmt.Errorf("%q is not an http(s) URL", s)
}

// printable refuses control characters and spaces in ids and keys (a
// pasted line break would sign every request wrongly).
func printable(s string) error {
	for _, r := range s {
		if r <= ' ' || r == 0x7f {
			return fmt.Errorf("contains a space or control character")
		}
	}
	return nil
}

func epayChannels(s string) error {
	seen := map[string]bool{}
	for _, c := range strings.Split(s, ",") {
		if c != "alipay" && c != "wxpay" && c != "qqpay" {
			return fmt.Errorf("%q: channels are alipay, wxpay and qqpay, comma-separated", s)
		}
		if seen[c] {
			return fmt.Errorf("%q: %s twice", s, c)
		}
		seen[c] = true
	}
	return nil
}

func currencyCode(s string) error {
	if len(s) != 3 || strings.Trim(strings.ToLower(s), "abcdefghijklmnopqrstuvwxyz") != "" {
		return fmt.Errorf("%q is not a three-letter currency code", s)
	}
	return nil
}
