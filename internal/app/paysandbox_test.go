package app

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"strings"
	"testing"

	"prima/internal/platform/config"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/wallet"
)

// The sandbox pays orders without money: an install that sets nothing has
// no sandbox, one that turns it on outside test mode says so in its log.
func TestPaySandboxOffUnlessTurnedOn(t *testing.T) {
	url := dbtest.URL(t, db.SQLite)
	build := func(args ...string) (*App, string) {
		t.Helper()
		cfg, err := config.Load("test", append([]string{"-data-dir", t.TempDir(), "-database-url", url}, args...))
		if err != nil {
			t.Fatal(err)
		}
		var logs bytes.Buffer
		a, err := New(context.Background(), cfg, slog.New(slog.NewTextHandler(&logs, nil)))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		return a, logs.String()
	}
	t.Setenv("PRIMA_PAY_SANDBOX", "")
	os.Unsetenv("PRIMA_PAY_SANDBOX") // t.Setenv restores it afterwards
	a, logs := build()
	if n := len(a.Wallet.Pay.Providers); n != 0 {
		t.Fatalf("nothing set: %d providers", n)
	}
	if strings.Contains(logs, "sandbox") {
		t.Fatalf("off, yet the log speaks of the sandbox:\n%s", logs)
	}
	a, logs = build("-pay-sandbox")
	if len(a.Wallet.Pay.Providers) != 1 || a.Wallet.Pay.Providers[0].Name() != wallet.SandboxName {
		t.Fatalf("-pay-sandbox: %d providers", len(a.Wallet.Pay.Providers))
	}
	if !strings.Contains(logs, "level=WARN") || !strings.Contains(logs, "payment sandbox on") {
		t.Fatalf("on outside test mode without a warning:\n%s", logs)
	}
	// In test mode (end-to-end tests) it is expected: no warning of its own.
	if _, logs = build("-pay-sandbox", "-test-mode"); strings.Contains(logs, "payment sandbox") {
		t.Fatalf("test mode warned about the sandbox:\n%s", logs)
	}
}
