// Package app builds Prima's services from the configuration and mounts
// them on one route table.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
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
	"prima/internal/platform/metrics"
	"prima/internal/platform/ratelimit"
	"prima/web"
)

// App is one running Prima: its database and services.
type App struct {
	Config  *config.Config
	DB      *db.DB
	Media   blob.Store
	Signer  *blob.Signer // signs /media/ URLs of protected keys (videos, uploads)
	Account *account.Service
	Catalog *catalog.Service
	Log     *slog.Logger
	Metrics *metrics.Metrics
	// Checks are what /readyz asks; a seam with a dependency of its own
	// (Redis, object storage) appends its check in New.
	Checks  []httpx.Check
	trusted []netip.Prefix
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
	media, err := openMedia(ctx, cfg)
	if err != nil {
		d.Close()
		return nil, err
	}
	var previous []string
	if cfg.SecretPrevious != "" {
		previous = append(previous, cfg.SecretPrevious)
	}
	signer, err := blob.NewSigner(cfg.Secret, previous...)
	if err != nil {
		d.Close()
		return nil, err
	}
	trusted, err := httpx.ParseTrustedProxies(cfg.TrustedProxies)
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("trusted proxies: %w", err)
	}
	checks := []httpx.Check{{Name: "database", Fn: d.Ping}}
	var limiter ratelimit.Store = ratelimit.NewMemory()
	if cfg.RedisURL != "" {
		// Several nodes behind a load balancer must share their counters,
		// or each would allow the full limit.
		rl, err := ratelimit.DialRedis(ctx, cfg.RedisURL)
		if err != nil {
			d.Close()
			return nil, fmt.Errorf("redis: %w", err)
		}
		limiter = rl
		checks = append(checks, httpx.Check{Name: "redis", Fn: rl.Ping})
	}
	return &App{
		Config:  cfg,
		DB:      d,
		Media:   media,
		Signer:  signer,
		Account: account.NewService(d, limiter),
		Catalog: catalog.NewService(d, catalog.Options{Gate: cfg.Gate, GateURL: cfg.GateURL, PublicURL: cfg.PublicURL}),
		Log:     log,
		Metrics: metrics.New(d),
		Checks:  checks,
		trusted: trusted,
	}, nil
}

// openMedia is the S3 bucket when one is configured, else the media folder
// in the data dir. The bucket is checked now, so a wrong endpoint or key
// stops the start instead of failing the first upload.
func openMedia(ctx context.Context, cfg *config.Config) (blob.Store, error) {
	if cfg.S3Endpoint == "" {
		return blob.NewLocal(filepath.Join(cfg.DataDir, "media"))
	}
	s3, err := blob.NewS3(blob.S3Config{
		Endpoint: cfg.S3Endpoint, Bucket: cfg.S3Bucket, AccessKey: cfg.S3AccessKey,
		SecretKey: cfg.S3SecretKey, Region: cfg.S3Region, Prefix: cfg.S3Prefix,
	})
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := s3.Check(cctx); err != nil {
		return nil, err
	}
	return s3, nil
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
	return httpx.Chain(httpx.NotePattern(mux),
		httpx.RealIP(a.trusted), // first: what follows asks who the client is
		httpx.WithRequestID,
		httpx.Observe(a.Metrics.Begin),
		httpx.AccessLog(a.Log),
		httpx.Recover,
		httpx.SecurityHeaders,
		httpx.Gzip,
		account.NewHandler(a.Account).Authenticate,
	), nil
}

// Serve listens on cfg.Listen (and on cfg.MetricsListen for /metrics, when
// set) until SIGINT or SIGTERM, then drains requests on both.
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
	servers := []*http.Server{srv}
	if a.Config.MetricsListen != "" {
		// Its own listener, so the public one never exposes metrics; the
		// operator keeps this address on a private network.
		m := http.NewServeMux()
		m.Handle("GET /metrics", a.Metrics.Handler())
		servers = append(servers, &http.Server{
			Addr:              a.Config.MetricsListen,
			Handler:           m,
			ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout:       10 * time.Second,
			WriteTimeout:      30 * time.Second,
			IdleTimeout:       120 * time.Second,
		})
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, len(servers))
	for _, s := range servers {
		ln, err := net.Listen("tcp", s.Addr)
		if err != nil {
			for _, started := range servers {
				_ = started.Close()
			}
			return err
		}
		go func() { errc <- s.Serve(ln) }()
	}
	a.Log.Info("serving", "listen", a.Config.Listen, "metrics", a.Config.MetricsListen, "database", a.DB.Engine, "gate", a.Config.Gate)
	select {
	case err = <-errc: // one listener failed: stop the other too
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for _, s := range servers {
		err = errors.Join(err, s.Shutdown(shut))
	}
	return err
}
