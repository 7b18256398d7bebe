package config

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDefaultsNeedNothingSet(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PRIMA_DATA_DIR", dir)
	c, err := Load("serve", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Listen != ":8080" || c.Gate != "off" || c.DatabaseURL != filepath.Join(dir, "prima.db") {
		t.Fatalf("defaults: %+v", c)
	}
	// The generated secret is kept, so a restart keeps signed URLs valid.
	if len(c.Secret) < 32 {
		t.Fatalf("secret %q", c.Secret)
	}
	again, err := Load("serve", nil)
	if err != nil || again.Secret != c.Secret {
		t.Fatalf("secret changed across loads: %q vs %q (%v)", c.Secret, again.Secret, err)
	}
	if st, err := os.Stat(filepath.Join(dir, "secret")); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("secret file: %v %v", st, err)
	}
}

func TestFlagsWinOverEnvironment(t *testing.T) {
	t.Setenv("PRIMA_DATA_DIR", t.TempDir())
	t.Setenv("PRIMA_LISTEN", "127.0.0.1:9000")
	t.Setenv("PRIMA_GATE", "ios")
	c, err := Load("serve", []string{"-listen", "127.0.0.1:9001"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Listen != "127.0.0.1:9001" || c.Gate != "ios" {
		t.Fatalf("got listen %q gate %q", c.Listen, c.Gate)
	}
}

func TestInvalidSettingsAreRefused(t *testing.T) {
	t.Setenv("PRIMA_DATA_DIR", t.TempDir())
	for _, args := range [][]string{
		{"-gate", "android"},
		{"-gate-redirect-url", "ftp://x"},
		{"-log-level", "loud"},
		{"-redis-url", "localhost:6379"},
		{"-redis-prefix", ""},
		{"-redis-prefix", "has space:"},
		{"-trusted-proxies", "10.0.0.0/8,proxy.local"},
		{"-trusted-proxies", "10.0.0.0/33"},
		{"-metrics-listen", "9090"},
		{"-s3-endpoint", "s3.example.com"},
		{"-s3-endpoint", "https://s3.example.com"}, // without a bucket
		{"-s3-bucket", "media"},                    // without an endpoint
	} {
		if _, err := Load("serve", args); err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(args[0], "-")) {
			t.Errorf("%v: want an error naming the option, got %v", args, err)
		}
	}
}

func TestWorkers(t *testing.T) {
	t.Setenv("PRIMA_DATA_DIR", t.TempDir())
	c, err := Load("serve", nil)
	if err != nil || c.Workers != 2 {
		t.Fatalf("default workers %d, %v; want 2", c.Workers, err)
	}
	t.Setenv("PRIMA_WORKERS", "0")
	if c, err := Load("serve", nil); err != nil || c.Workers != 0 {
		t.Fatalf("PRIMA_WORKERS=0: %d, %v", c.Workers, err)
	}
	for _, bad := range []string{"-1", "two", "1001", ""} {
		if _, err := Load("serve", []string{"-workers", bad}); err == nil || !strings.Contains(err.Error(), "workers") {
			t.Errorf("-workers %q: err = %v, want a workers error", bad, err)
		}
	}
}

func TestTrustedProxiesAndMetricsListen(t *testing.T) {
	t.Setenv("PRIMA_DATA_DIR", t.TempDir())
	t.Setenv("PRIMA_TRUSTED_PROXIES", "10.0.0.0/8, 127.0.0.1 ,::1")
	c, err := Load("serve", []string{"-metrics-listen", "127.0.0.1:9090"})
	if err != nil {
		t.Fatal(err)
	}
	if c.TrustedProxies != "10.0.0.0/8, 127.0.0.1 ,::1" || c.MetricsListen != "127.0.0.1:9090" {
		t.Fatalf("got %+v", c)
	}
	d, err := Load("serve", nil)
	if err != nil || d.MetricsListen != "" {
		t.Fatalf("metrics must be off by default: %q %v", d.MetricsListen, err)
	}
}

// Credentials set in the environment are used but never printed by -h.
func TestSecretsStayOutOfHelp(t *testing.T) {
	t.Setenv("PRIMA_DATA_DIR", t.TempDir())
	t.Setenv("PRIMA_S3_SECRET_KEY", "s3-very-secret-value")
	t.Setenv("PRIMA_SECRET", "server-very-secret-value-0123456789")
	t.Setenv("PRIMA_SECRET_PREVIOUS", "previous-very-secret-value-0123456789")
	t.Setenv("PRIMA_S3_ACCESS_KEY", "visible-access-key")
	c, err := Load("serve", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.S3SecretKey != "s3-very-secret-value" || c.Secret != "server-very-secret-value-0123456789" {
		t.Fatalf("secrets not read from the environment: %q %q", c.S3SecretKey, c.Secret)
	}
	c, err = Load("serve", []string{"-s3-secret-key", "from-flag"})
	if err != nil || c.S3SecretKey != "from-flag" {
		t.Fatalf("flag did not win: %q %v", c.S3SecretKey, err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	_, herr := Load("serve", []string{"-h"})
	os.Stderr = stderr
	w.Close()
	help, _ := io.ReadAll(r)
	if herr == nil || !strings.Contains(string(help), "s3-secret-key") {
		t.Fatalf("help: %v\n%s", herr, help)
	}
	if strings.Contains(string(help), "very-secret") {
		t.Fatalf("help output shows a secret:\n%s", help)
	}
	if !strings.Contains(string(help), "visible-access-key") {
		t.Fatal("help output hides a non-secret default; the test would not notice a leak")
	}
}

// Test mode is a switch: -test-mode alone turns it on, the environment
// takes 1/0, and it is off by default.
func TestTestModeSwitch(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		env  string
		args []string
		want bool
	}{
		{"", nil, false},
		{"", []string{"-test-mode"}, true},
		{"1", nil, true},
		{"0", nil, false},
		{"1", []string{"-test-mode=false"}, false},
	} {
		t.Setenv("PRIMA_TEST_MODE", c.env)
		if c.env == "" {
			os.Unsetenv("PRIMA_TEST_MODE")
		}
		cfg, err := Load("test", append([]string{"-data-dir", dir}, c.args...))
		if err != nil || cfg.TestMode != c.want {
			t.Errorf("env %q args %v: TestMode = %v, %v", c.env, c.args, cfg != nil && cfg.TestMode, err)
		}
	}
	t.Setenv("PRIMA_TEST_MODE", "yes")
	if _, err := Load("test", []string{"-data-dir", dir}); err == nil {
		t.Error("PRIMA_TEST_MODE=yes accepted")
	}
}

// The payment sandbox pays orders without money: off unless turned on, by
// -pay-sandbox or PRIMA_PAY_SANDBOX=1.
func TestPaySandboxSwitch(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		env  string
		args []string
		want bool
	}{
		{"", nil, false},
		{"", []string{"-pay-sandbox"}, true},
		{"1", nil, true},
		{"0", nil, false},
		{"1", []string{"-pay-sandbox=0"}, false},
	} {
		t.Setenv("PRIMA_PAY_SANDBOX", c.env)
		if c.env == "" {
			os.Unsetenv("PRIMA_PAY_SANDBOX")
		}
		cfg, err := Load("test", append([]string{"-data-dir", dir}, c.args...))
		if err != nil || cfg.PaySandbox != c.want {
			t.Errorf("env %q args %v: PaySandbox = %v, %v", c.env, c.args, cfg != nil && cfg.PaySandbox, err)
		}
	}
	t.Setenv("PRIMA_PAY_SANDBOX", "on")
	if _, err := Load("test", []string{"-data-dir", dir}); err == nil {
		t.Error("PRIMA_PAY_SANDBOX=on accepted")
	}
}

// Payment providers: each is on only when its credentials are all set,
// with the public URL their notices come back to; keys stay out of -h.
func TestPaymentProviderSettings(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PRIMA_DATA_DIR", dir)
	c, err := Load("serve", nil)
	if err != nil || c.EpayGateway != "" || c.StripeSecretKey != "" || strings.Join(c.EpayChannels, ",") != "alipay,wxpay" ||
		c.EpayMode != "submit" || c.EpaySign != "plain" || c.StripeCurrency != "cny" {
		t.Fatalf("defaults: %+v %v", c, err)
	}
	epay := []string{"-public-url", "https://app.example.com", "-epay-gateway", "https://pay.example.com/", "-epay-pid", "1001", "-epay-key", "k3y"}
	c, err = Load("serve", append(epay, "-epay-channels", "qqpay,alipay", "-epay-mode", "mapi", "-epay-sign", "amp-key"))
	if err != nil || strings.Join(c.EpayChannels, ",") != "qqpay,alipay" || c.EpayMode != "mapi" || c.EpaySign != "amp-key" || c.EpayKey != "k3y" {
		t.Fatalf("epay: %+v %v", c, err)
	}
	stripe := []string{"-public-url", "https://app.example.com", "-stripe-secret-key", "sk_test_1", "-stripe-webhook-secret", "whsec_1", "-stripe-currency", "usd"}
	if c, err = Load("serve", stripe); err != nil || c.StripeCurrency != "usd" {
		t.Fatalf("stripe: %+v %v", c, err)
	}
	if _, err := Load("serve", []string{"-epay-gateway", "http://127.0.0.1:9/", "-epay-pid", "1", "-epay-key", "k", "-public-url", "http://127.0.0.1:8080"}); err != nil {
		t.Fatalf("a loopback test gateway: %v", err)
	}
	for _, args := range [][]string{
		{"-epay-gateway", "https://pay.example.com/", "-epay-pid", "1001", "-public-url", "https://a.example"}, // no key
		{"-epay-gateway", "https://pay.example.com/", "-epay-pid", "1001", "-epay-key", "k"},                   // no public URL
		{"-epay-gateway", "http://pay.example.com/"},                                                           // plain http off loopback
		{"-epay-gateway", "pay.example.com"},
		{"-epay-channels", "alipay,paypal"},
		{"-epay-channels", "alipay,alipay"},
		{"-epay-channels", ""},
		{"-epay-mode", "jump"},
		{"-epay-sign", "sha256"},
		{"-epay-key", "has space"},
		{"-stripe-secret-key", "sk_test_1", "-public-url", "https://a.example"}, // no webhook secret
		{"-stripe-currency", "dollars"},
		{"-stripe-api-url", "http://stripe.example.com"},
	} {
		if _, err := Load("serve", args); err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(args[0], "-")) && !strings.Contains(err.Error(), "public-url") {
			t.Errorf("%v: want an error naming the option, got %v", args, err)
		}
	}
	// The keys are secrets: -h shows no default even when set.
	t.Setenv("PRIMA_EPAY_KEY", "epay-secret-value")
	t.Setenv("PRIMA_STRIPE_SECRET_KEY", "sk_live_secret_value")
	t.Setenv("PRIMA_STRIPE_WEBHOOK_SECRET", "whsec_secret_value")
	t.Setenv("PRIMA_EPAY_PID", "visible-pid-1001")
	help := helpOutput(t)
	if !strings.Contains(help, "visible-pid-1001") {
		t.Fatal("-h hides a non-secret default; the test would not notice a leak")
	}
	for _, s := range []string{"epay-secret-value", "sk_live_secret_value", "whsec_secret_value"} {
		if strings.Contains(help, s) {
			t.Errorf("-h shows %s", s)
		}
	}
	for _, s := range []string{"PRIMA_EPAY_GATEWAY", "PRIMA_EPAY_PID", "PRIMA_EPAY_KEY", "PRIMA_EPAY_CHANNELS", "PRIMA_STRIPE_SECRET_KEY", "PRIMA_STRIPE_WEBHOOK_SECRET", "PRIMA_STRIPE_CURRENCY"} {
		if !strings.Contains(help, s) {
			t.Errorf("-h does not list %s", s)
		}
	}
}

// helpOutput is what `prima serve -h` prints.
func helpOutput(t *testing.T) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	_, herr := Load("serve", []string{"-h"})
	os.Stderr = stderr
	w.Close()
	help, _ := io.ReadAll(r)
	if herr == nil {
		t.Fatal("-h did not stop the load")
	}
	return string(help)
}
