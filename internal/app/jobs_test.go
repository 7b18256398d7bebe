package app

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"prima/internal/account"
	"prima/internal/platform/config"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// `prima worker` runs the registered jobs with no listener and stops on
// cancellation; with no workers configured it refuses to start.
func TestWorkRunsJobsUntilStopped(t *testing.T) {
	url := dbtest.URL(t, db.SQLite)
	newApp := func(workers string) *App {
		cfg, err := config.Load("test", []string{"-data-dir", t.TempDir(), "-database-url", url, "-workers", workers})
		if err != nil {
			t.Fatal(err)
		}
		a, err := New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Close() })
		return a
	}
	if err := newApp("0").Work(context.Background()); err == nil || !strings.Contains(err.Error(), "PRIMA_WORKERS") {
		t.Fatalf("Work with 0 workers: %v", err)
	}

	a := newApp("1")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Work(ctx) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int
		if err := a.DB.QueryRow(ctx, `SELECT COUNT(*) FROM jobs WHERE kind = ? AND state = 'succeeded'`, account.PurgeSessionsKind).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the session purge did not run under Work")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Work: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Work did not return after cancellation")
	}
}
