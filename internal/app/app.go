// Package app builds Prima's services from the configuration and mounts
// them on one route table.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"prima/internal/account"
	"prima/internal/catalog"
	"prima/internal/migrations"
	"prima/internal/platform/blob"
	"prima/internal/platform/config"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
	"prima/internal/platform/realtime"
	"prima/internal/platform/redisx"
	"prima/web"
)

// App is one running Prima: its database and services.
type App struct {
	Config  *config.Config
	DB      *db.DB
	Media   blob.Store
	Account *account.Service
	Catalog *catalog.Service
	Log     *slog.Logger
	// Redis is the one client this process shares (nil without
	// PRIMA_REDIS_URL): rate-limit counters and realtime pub/sub.
	Redis *redis.Client
	// Events carries realtime events to users' open connections.
	Events realtime.Broker
	WS     *realtime.WS
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
	var (
		limiter ratelimit.Limiter = ratelimit.NewMemory()
		events  realtime.Broker   = realtime.NewMemory(0)
		rdb     *redis.Client
	)
	if cfg.RedisURL != "" {
		// Several nodes behind a load balancer must share their counters,
		// or each would allow the full limit, and their events, or a user
		// connected to one node would not hear what another did.
		rdb, err = redisx.Dial(ctx, cfg.RedisURL)
		if err != nil {
			d.Close()
			return nil, fmt.Errorf("redis: %w", err)
		}
		limiter = ratelimit.NewRedis(rdb, cfg.RedisPrefix+"rl:")
		events = realtime.NewRedis(rdb, cfg.RedisPrefix+"rt:", 0, log)
	}
	acct := account.NewService(d, limiter)
	acct.Events = events
	var origins []string
	if cfg.PublicURL != "" {
		if u, err := url.Parse(cfg.PublicURL); err == nil && u.Host != "" {
			origins = append(origins, u.Host)
		}
	}
	return &App{
		Config:  cfg,
		DB:      d,
		Media:   media,
		Account: acct,
		Catalog: catalog.NewService(d, catalog.Options{Gate: cfg.Gate, GateURL: cfg.GateURL, PublicURL: cfg.PublicURL}),
		Log:     log,
		Redis:   rdb,
		Events:  events,
		WS:      realtime.NewWS(events, wsAuth(acct), realtime.WSOptions{OriginHosts: origins, Log: log}),
	}, nil
}

// wsAuth lets the WebSocket endpoint check tokens with the account rules.
func wsAuth(s *account.Service) realtime.Authenticator {
	return func(ctx context.Context, token string) (realtime.Session, error) {
		sess, err := s.Authenticate(ctx, token)
		if errors.Is(err, account.ErrSessionInvalid) {
			return realtime.Session{}, fmt.Errorf("%w: %v", realtime.ErrUnauthorized, err)
		}
		if err != nil {
			return realtime.Session{}, err
		}
		return realtime.Session{UserID: sess.UserID, ID: sess.ID()}, nil
	}
}

// Close ends realtime connections (they see "going away"), then releases
// Redis and the database.
func (a *App) Close() error {
	errs := []error{a.Events.Close()}
	if a.Redis != nil {
		errs = append(errs, a.Redis.Close())
	}
	errs = append(errs, a.DB.Close())
	return errors.Join(errs...)
}

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
	a.Log.Info("serving", "listen", a.Config.Listen, "database", a.DB.Engine, "gate", a.Config.Gate)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	return srv.Shutdown(shut)
}
