package httpx

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"time"
)

// Healthz answers 200 "ok" while the process can serve HTTP at all. It
// checks nothing else on purpose: an orchestrator restarts a process whose
// liveness fails, and a database outage is not cured by a restart.
func Healthz(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write([]byte("ok\n"))
}

// Check is one named readiness check, e.g. the database ping. Fn gets a
// context that ends after the check's timeout.
type Check struct {
	Name string
	Fn   func(ctx context.Context) error
}

// ReadyTimeout bounds each readiness check, so a hung dependency makes the
// node "not ready" quickly instead of hanging the load balancer's probe.
const ReadyTimeout = 2 * time.Second

// Readyz answers 200 when every check passes and 503 when one fails or
// takes longer than ReadyTimeout; checks run concurrently. The body names
// each check with "ok", "fail" or "timeout"; causes go to the log only, since this
// answer is public and an error text can name internal hosts.
func Readyz(checks func() []Check) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cs := checks()
		type result struct {
			name string
			err  error
		}
		done := make(chan result, len(cs)) // buffered: a late check never blocks
		ctx, cancel := context.WithTimeout(r.Context(), ReadyTimeout)
		defer cancel()
		for _, c := range cs {
			go func() { done <- result{c.Name, c.Fn(ctx)} }()
		}
		results := make(map[string]string, len(cs))
		for _, c := range cs {
			results[c.Name] = "timeout" // until it answers; a check that ignores ctx cannot hang us
		}
		ready := true
	collect:
		for range cs {
			select {
			case res := <-done:
				if res.err != nil {
					ready = false
					results[res.name] = "fail"
					slog.WarnContext(r.Context(), "not ready", "check", res.name, "err", res.err)
					continue
				}
				results[res.name] = "ok"
			case <-ctx.Done():
				ready = false
				break collect
			}
		}
		status, word := http.StatusOK, "ok"
		if !ready {
			status, word = http.StatusServiceUnavailable, "unavailable"
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]any{"status": word, "checks": results})
	})
}
