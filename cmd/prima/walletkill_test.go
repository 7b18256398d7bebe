package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/wallet"
	"prima/internal/wallet/wallettest"
)

// The wallet survives a crash: 50 clients hammer a `prima serve` with
// everything that moves money, the process is killed with SIGKILL in the
// middle, restarted on the same database, hammered again (clients retry
// what the kill cut off, with the same idempotency keys); afterwards the
// ledger's invariants hold and no order was credited twice. Both engines.
func TestWalletSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("SIGKILL hammer: long")
	}
	exe := filepath.Join(t.TempDir(), "prima")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, e := range []db.Engine{db.SQLite, db.Postgres} {
		t.Run(string(e), func(t *testing.T) {
			dataDir := t.TempDir()
			dbURL := dbtest.URL(t, e)
			raw := make([]byte, 32)
			_, _ = rand.Read(raw)
			secret := hex.EncodeToString(raw)
			addr := freeAddr(t)
			base := "http://" + addr
			args := []string{"serve", "-listen", addr, "-data-dir", dataDir, "-database-url", dbURL, "-secret", secret,
				"-trusted-proxies", "127.0.0.1/32", "-log-level", "warn", "-pay-sandbox"}
			var logs syncBuffer
			start := func() *exec.Cmd {
				cmd := exec.Command(exe, args...)
				cmd.Stdout, cmd.Stderr = &logs, &logs
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				deadline := time.Now().Add(60 * time.Second)
				for {
					resp, err := http.Get(base + "/api/app/ping/check")
					if err == nil {
						resp.Body.Close()
						if resp.StatusCode == 200 {
							return cmd
						}
					}
					if time.Now().After(deadline) {
						t.Fatalf("prima did not come up: %v\n%s", err, logs.String())
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
			cmd := start()
			defer func() {
				_ = cmd.Process.Signal(syscall.SIGTERM)
				_ = cmd.Wait()
				if t.Failed() {
					t.Logf("server output:\n%s", logs.String())
				}
			}()

			var sink bytes.Buffer
			if err := runAdmin([]string{"create", "-account", "ops_kill", "-data-dir", dataDir, "-database-url", dbURL, "-log-level", "error"},
				stdinWith(t, "secret12\n"), &sink, &sink); err != nil {
				t.Fatalf("admin create: %v %s", err, sink.String())
			}
			ops := consoleSignIn(t, base, "ops_kill", "secret12")
			sb := wallet.NewSandbox(secret, base)
			down := &atomic.Bool{}
			tg := &wallettest.Target{Base: func() string { return base }, Ops: ops, Sign: func(v url.Values) string { return sb.Sign(v) }, Down: down}
			f := wallettest.Setup(t, tg, 25, 40)

			ctx, cancel := context.WithTimeout(context.Background(), 12*time.Second)
			defer cancel()
			down.Store(true) // from here on a refused connection is the crash, retried
			done := make(chan *wallettest.Stats)
			go func() { done <- wallettest.Hammer(ctx, t, tg, f, 50) }()
			time.Sleep(4 * time.Second)
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			time.Sleep(300 * time.Millisecond)
			cmd = start()
			st := <-done
			t.Logf("outcomes across the crash: %s", st)

			d, err := db.Open(context.Background(), dbURL)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			wallettest.Verify(t, d)
		})
	}
}
