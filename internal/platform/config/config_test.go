package config

import (
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
