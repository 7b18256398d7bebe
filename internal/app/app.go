// Package app builds Prima's services from the configuration and mounts
// them on one route table.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"prima/internal/account"
	"prima/internal/catalog"
	"prima/internal/migrations"
	"prima/internal/platform/blob"
	"prima/internal/platform/config"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/jobs"
	"prima/internal/platform/ratelimit"
	"prima/web"
)

// App is one running Prima: its database and services.
type App struct {
	Config  *config.Config
	DB      *db.DB
	Media   blob.Store
	Account *account.Service
	Catalog *catalog.Service
	// Jobs runs background jobs; Serve starts it when cfg.Workers > 0 and
	// Work runs it alone. Enqueueing needs no running queue.
	Jobs *jobs.Queue
	Log  *slog.Logger
}

// New opens the database, applies migrations and builds the services.
func New(ctx context.Context, cfg *config.Config, log *slog.Logger) (*App, error) {
	d, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	applied, err := migrations.Apply(ctx, d)
	if err != nil {
		d.Close()
		return nil, err
	}
	if len(applied) > 0 {
		log.Info("migrated", "engine", d.Engine, "versions", applied)
	}
	media, err := blob.NewLocal(filepath.Join(cfg.DataDir, "media"))
	if err != nil {
		d.Close()
		return nil, err
	}
	var limiter ratelimit.Limiter = ratelimit.NewMemory()
	if cfg.RedisURL != "" {
		// Several nodes behind a load balancer must share their counters,
		// or each would allow the full limit.
		rl, err := ratelimit.DialRedis(ctx, cfg.RedisURL)
		if err != nil {
			d.Close()
			return nil, fmt.Errorf("redis: %w", err)
		}
		limiter = rl
	}
	a := &App{
		Config:  cfg,
		DB:      d,
		Media:   media,
		Account: account.NewService(d, limiter),
		Catalog: catalog.NewService(d, catalog.Options{Gate: cfg.Gate, GateURL: cfg.GateURL, PublicURL: cfg.PublicURL}),
		Jobs:    jobs.New(d, jobs.Config{Workers: cfg.Workers, Log: log}),
		Log:     log,
	}
	// Every domain's handlers are registered in every process, so any
	// process that runs workers can run any job.
	a.Account.RegisterJobs(a.Jobs)
	return a, nil
}

// Close releases the database.
func (a *App) Close() error { return a.DB.Close() }

// Handler is the whole HTTP surface: routes plus middleware.
func (a *App) Handler() (http.Handler, error) {
	wa, err := newWebApp(web.Dist())
	if err != nil {
		return nil, fmt.Errorf("web app: %w", err)
	}
	mux := a.routes(wa)
	return httpx.Chain(mux,
		httpx.WithRequestID,
		httpx.AccessLog(a.Log),
		httpx.Recover,
		httpx.SecurityHeaders,
		httpx.Gzip,
		account.NewHandler(a.Account).Authenticate,
	), nil
}

// Serve listens on cfg.Listen until SIGINT or SIGTERM, then drains requests.
func (a *App) Serve(ctx context.Context) error {
	h, err := a.Handler()
	if err != nil {
		return err
	}
	srv := &http.Server{
		Addr:              a.Config.Listen,
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      120 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	a.Log.Info("serving", "listen", a.Config.Listen, "database", a.DB.Engine, "gate", a.Config.Gate, "workers", a.Config.Workers)
	if a.Config.Workers > 0 {
		if err := a.Jobs.Start(ctx); err != nil {
			srv.Close()
			return err
		}
	}
	var serveErr error
	select {
	case serveErr = <-errc:
	case <-ctx.Done():
	}
	// HTTP first, so no request enqueues into a queue that is stopping
	// (its jobs would wait for the next start, not be lost), then jobs.
	shut, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if serveErr == nil {
		serveErr = srv.Shutdown(shut)
	}
	return errors.Join(serveErr, a.stopJobs())
}

// Work runs background jobs only, with no HTTP listener, until SIGINT or
// SIGTERM: `prima worker`, for deployments that scale jobs apart from the API.
func (a *App) Work(ctx context.Context) error {
	if a.Config.Workers <= 0 {
		return errors.New("prima worker needs PRIMA_WORKERS (or -workers) above 0")
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := a.Jobs.Start(ctx); err != nil {
		return err
	}
	a.Log.Info("working", "database", a.DB.Engine, "workers", a.Config.Workers)
	<-ctx.Done()
	return a.stopJobs()
}

// stopJobs lets running jobs finish for up to 30 s, then releases the rest
// to be run again elsewhere. A no-op when the queue never started.
func (a *App) stopJobs() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return a.Jobs.Stop(ctx)
}
