// Package app builds Prima's services from the configuration and mounts
// them on one route table.
package app

import (
	"context"
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
	}
	return &App{
		Config:  cfg,
		DB:      d,
		Media:   media,
		Signer:  signer,
		Account: account.NewService(d, limiter),
		Catalog: catalog.NewService(d, catalog.Options{Gate: cfg.Gate, GateURL: cfg.GateURL, PublicURL: cfg.PublicURL}),
		Log:     log,
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
