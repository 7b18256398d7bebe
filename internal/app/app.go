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
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"prima/console"
	"prima/internal/account"
	"prima/internal/backup"
	"prima/internal/catalog"
	"prima/internal/community"
	"prima/internal/earnings"
	"prima/internal/gallery"
	"prima/internal/media"
	"prima/internal/membership"
	"prima/internal/messaging"
	"prima/internal/migrations"
	"prima/internal/operator"
	"prima/internal/platform/audit"
	"prima/internal/platform/blob"
	"prima/internal/platform/config"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/jobs"
	"prima/internal/platform/metrics"
	"prima/internal/platform/pagecache"
	"prima/internal/platform/ratelimit"
	"prima/internal/platform/realtime"
	"prima/internal/platform/redisx"
	"prima/internal/platform/sms"
	"prima/internal/report"
	"prima/internal/rewards"
	"prima/internal/search"
	"prima/internal/searchapi"
	"prima/internal/stats"
	"prima/internal/support"
	"prima/internal/wallet"
	"prima/internal/wallet/epay"
	"prima/internal/wallet/stripepay"
	"prima/internal/wordfilter"
	"prima/web"
)

// App is one running Prima: its database and services.
type App struct {
	// draining: SIGTERM came and PRIMA_SHUTDOWN_DRAIN runs: /readyz says
	// so and every answer closes its connection.
	draining atomic.Bool

	// Backups: the owner's view of the scheduled backups and a backup now.
	Backups *backup.Handler

	Config  *config.Config
	DB      *db.DB
	Media   blob.Store
	Signer  *blob.Signer // signs /media/ URLs of protected keys (videos, uploads)
	Account *account.Service
	Catalog *catalog.Service
	Reports *report.Service
	Log     *slog.Logger
	Metrics *metrics.Metrics
	// Checks are what /readyz asks; a seam with a dependency of its own
	// (Redis, object storage) appends its check in New.
	Checks  []httpx.Check
	trusted []netip.Prefix
	// Operators is the console's identity: operators, console sessions,
	// TOTP, step-up, API keys (internal/operator). adminAllow is
	// PRIMA_ADMIN_ALLOW; adminRoutes the /api/admin routes with their
	// access, filled by the route table (AdminRoutes).
	Operators   *operator.Service
	adminAllow  []netip.Prefix
	adminRoutes []operator.Route
	apiPatterns []string
	// Redis is the one client this process shares (nil without
	// PRIMA_REDIS_URL): rate-limit counters and realtime pub/sub.
	Redis *redis.Client
	// pages carries page-cache invalidations between nodes (nil without
	// Redis or with the cache off).
	pages *pagecache.Cluster
	// Events carries realtime events to users' open connections.
	Events realtime.Broker
	WS     *realtime.WS
	// Jobs runs background jobs; Serve starts it when cfg.Workers > 0 and
	// Work runs it alone. Enqueueing needs no running queue.
	Jobs *jobs.Queue
	// Uploads is the media pipeline: uploads, image variants, transcodes.
	Uploads *media.Service
	// Galleries are picture galleries over uploaded pictures.
	Galleries *gallery.Service
	// Wallet is the ledger and what is built on it: orders, purchases,
	// VIP sales, coupons, withdrawals.
	Wallet *wallet.Service
	// Community holds follows, posts, comments and topics.
	Community *community.Service
	// Support is feedback and creator applications.
	Support *support.Service
	// Messages is the message centre: notices and direct messages.
	Messages *messaging.Service
	// Welfare is points, daily check-in, tasks and points prizes.
	Welfare *rewards.Welfare
	// Codes is redemption codes (rewards): operator batches, redemption.
	Codes *rewards.Codes
	// Invites are invitation codes, bindings and inviter rewards.
	Invites *rewards.Invites
	// Earnings are promoter commission, creator earnings, promoter
	// applications and the promotion data.
	Earnings *earnings.Service
	// Search is the search calls: the engine's hits as the domains' cards.
	Search *searchapi.Service
	// Words is the blocked-words list (internal/wordfilter) that posts,
	// comments, messages and profile names are checked against.
	Words *wordfilter.Service
	// Stats is the operator's numbers (issue 21): the daily rollup and
	// the charts' reads, each figure from its owner.
	Stats *stats.Service
	// SMSRecorder keeps the last SMS per number, only in test mode (nil
	// otherwise, and then /api/test/sms/last is not mounted).
	SMSRecorder *sms.Recorder
}

// New opens the database, applies migrations and builds the services.
func New(ctx context.Context, cfg *config.Config, log *slog.Logger) (_ *App, err error) {
	// What `prima doctor` would say, said at every start too.
	for _, f := range cfg.Findings() {
		level := slog.LevelWarn
		if f.Level == config.Unfinished {
			level = slog.LevelInfo
		}
		log.Log(ctx, level, f.Message, "setting", f.Setting, "doctor", f.Level)
	}
	d, err := db.Open(ctx, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	var (
		limiter ratelimit.Store = ratelimit.NewMemory()
		events  realtime.Broker = realtime.NewMemory(0)
		rdb     *redis.Client
		pages   *pagecache.Cluster
	)
	// One cleanup path: a step that fails below closes what was opened
	// before it, in Close's order.
	defer func() {
		if err != nil {
			events.Close()
			if pages != nil {
				pages.Close()
			}
			if rdb != nil {
				rdb.Close()
			}
			d.Close()
		}
	}()
	applied, err := migrations.Apply(ctx, d)
	if err != nil {
		return nil, err
	}
	if len(applied) > 0 {
		log.Info("migrated", "engine", d.Engine, "versions", applied)
	}
	mediaStore, err := OpenMedia(ctx, cfg)
	if err != nil {
		return nil, err
	}
	var previous []string
	if cfg.SecretPrevious != "" {
		previous = append(previous, cfg.SecretPrevious)
	}
	signer, err := blob.NewSigner(cfg.Secret, previous...)
	if err != nil {
		return nil, err
	}
	trusted, err := httpx.ParseTrustedProxies(cfg.TrustedProxies)
	if err != nil {
		return nil, fmt.Errorf("trusted proxies: %w", err)
	}
	adminAllow, err := httpx.ParseTrustedProxies(cfg.AdminAllow) // the same list syntax
	if err != nil {
		return nil, fmt.Errorf("admin allow: %w", err)
	}
	checks := []httpx.Check{{Name: "database", Fn: d.Ping}}
	if c, ok := mediaStore.(interface{ Check(context.Context) error }); ok {
		checks = append(checks, httpx.Check{Name: "storage", Fn: c.Check})
	}
	if cfg.RedisURL != "" {
		// Several nodes behind a load balancer must share their counters,
		// or each would allow the full limit, and their events, or a user
		// connected to one node would not hear what another did.
		rdb, err = redisx.Dial(ctx, cfg.RedisURL)
		if err != nil {
			return nil, fmt.Errorf("redis: %w", err)
		}
		rl := ratelimit.NewRedis(rdb, cfg.RedisPrefix+"rl:")
		limiter = rl
		checks = append(checks, httpx.Check{Name: "redis", Fn: rl.Ping})
		events = realtime.NewRedis(rdb, cfg.RedisPrefix+"rt:", 0, log)
	}
	// An upgrade whose migrations emptied the search index rebuilds it in
	// the background; search answers from what is rebuilt so far.
	if err := search.EnqueueRebuild(ctx, d, applied); err != nil {
		return nil, fmt.Errorf("search rebuild: %w", err)
	}

	var origins []string
	if cfg.PublicURL != "" {
		if u, err := url.Parse(cfg.PublicURL); err == nil && u.Host != "" {
			origins = append(origins, u.Host)
		}
	}
	cat := catalog.NewService(d, catalog.Options{Gate: cfg.Gate, GateURL: cfg.GateURL, PublicURL: cfg.PublicURL})
	cat.Events = events // like notices to uploaders
	if cfg.PageCacheMB > 0 {
		// Public catalogue pages from memory; with several nodes, a write
		// on one drops them on all before its request returns.
		cat.Pages = pagecache.New(pagecache.Options{Budget: int64(cfg.PageCacheMB) << 20})
		if rdb != nil {
			if pages, err = pagecache.Join(ctx, cat.Pages, rdb, cfg.RedisPrefix, log); err != nil {
				return nil, err
			}
		}
	}

	uploads := newUploads(d, mediaStore, signer, media.Options{
		Log:        log,
		Previews:   cat,             // the operator's preview rule
		VideoMedia: catalog.MediaOf, // the upload a catalogue video plays
	})
	cat.Media = uploads        // playback URLs of videos with media attached
	cat.Covers = uploads       // operators' covers, copied to public covers/ keys
	cat.Uploads = uploads      // a video's upload and its owner, the uploader
	cat.People = account.Cards // the uploader's name and portrait

	wal := wallet.NewService(d)
	wal.Events = events
	// Videos and galleries follow one access rule, whose purchases are
	// the wallet's; bought videos list in the catalog's shape.
	wal.Videos = cat
	// The goods sold one by one are read through their owners, on the
	// sale's transaction.
	wal.VideoGoods, wal.PublishedVideos = catalog.VideoGoods(uploads.UploadOf, account.Cards), catalog.PublishedVideos
	wal.GalleryGoods, wal.PostGoods = gallery.GalleryGoods, community.PostGoods
	wal.Limiter = limiter
	access := membership.NewService(d, account.Tiers, wal) // tiers are columns of account's users row
	cat.Access = access
	// Payment providers (docs/architecture.md, *Payments and providers*):
	// EasyPay's channels and Stripe when configured, then the sandbox only
	// when turned on (PRIMA_PAY_SANDBOX=1: its page pays without money).
	if cfg.EpayGateway != "" {
		m, err := epay.New(epay.Config{URL: cfg.EpayGateway, PID: cfg.EpayPID, Key: cfg.EpayKey, Channels: cfg.EpayChannels,
			Mode: epay.Mode(cfg.EpayMode), Style: epay.Style(cfg.EpaySign), PublicURL: cfg.PublicURL})
		if err != nil {
			return nil, err
		}
		wal.Pay.Providers = append(wal.Pay.Providers, m.Providers()...)
	}
	if cfg.StripeSecretKey != "" {
		sp, err := stripepay.New(stripepay.Config{SecretKey: cfg.StripeSecretKey, WebhookSecret: cfg.StripeWebhookSecret,
			Currency: cfg.StripeCurrency, PublicURL: cfg.PublicURL, APIURL: cfg.StripeAPIURL})
		if err != nil {
			return nil, err
		}
		wal.Pay.Providers = append(wal.Pay.Providers, sp)
	}
	if cfg.PaySandbox {
		wal.Pay.Providers = append(wal.Pay.Providers, wallet.NewSandbox(cfg.Secret, cfg.PublicURL))
	}
	wal.Pay.Limiter = limiter

	galleries := gallery.NewService(d, signer, access, catalog.ModuleKind, media.AssetsOn)

	// The operator's blocked words: posts, comments, messages and profile
	// names are checked against them (each domain declares Words).
	words := wordfilter.New(d)

	// People: follows, their counts and notices; posts and comments.
	com := community.NewService(d)
	com.Words = words
	com.Events = events
	com.Limiter = limiter
	com.Likes = cat // likes on videos of the user's uploads
	com.Media = uploads
	com.Tiers = access  // a paid post: membership's rule
	com.Purchases = wal // and the wallet's purchase of it
	com.Modules = catalog.ModuleKind
	com.Assets = media.AssetOn
	com.People = account.Cards // authors, follow lists, people search
	cat.Follows = com          // a video uploader's isFollow

	// The message centre: users through the account rules, chat pictures
	// through the media pipeline; Mine's msgHasNew is its unread state.
	messages := messaging.NewService(d, limiter, messagePeople{d}, messagePictures{uploads}, events)
	messages.Words = words
	messages.Mutes = messageMutes{com} // the community's mute: it covers messages, and a report may be handled by muting

	// Welfare grants coins, VIP and coupons through the wallet; a points
	// change tells the user's apps like a wallet change (points show in
	// the user info).
	// Task progress is counted by the domain that owns the rows counted.
	welfare := rewards.NewWelfare(d, wal, events, map[string]rewards.Counter{
		"watch": catalog.PlayedSince, "like": catalog.LikedSince, "follow": community.FollowedSince,
		"topup": wallet.PaidOrdersSince, "bind_phone": account.PhoneBound, "portrait": account.HasPortrait,
	})
	// Invitations: inviters are paid by the wallet; new guests and
	// registrations are told to them inside their own transaction.
	invites := rewards.NewInvites(d, wal, invitePeople{d}, limiter, events, cfg.PublicURL)

	// SMS codes: the built-in provider logs them; in test mode a recorder
	// in front keeps the last one per number for GET /api/test/sms/last.
	var smsSender sms.Sender = sms.Log{Logger: log}
	var smsRec *sms.Recorder
	if cfg.TestMode {
		smsRec = &sms.Recorder{Next: smsSender}
		smsSender = smsRec
	}
	acct := account.NewService(d, limiter, account.Options{
		Events:      events,
		SMS:         smsSender,
		CodeKey:     []byte("sms-code\x00" + cfg.Secret),
		CertSecrets: []string{cfg.Secret, cfg.SecretPrevious}, // account certificates
		Reports:     cat,                                      // reportVid in the user info
		Coupons:     wal,                                      // the user info's coupons are the wallet's backpack
		Portraits:   portraits{uploads},                       // the user's own uploaded pictures, published like covers
		Follows:     com,
		Inbox:       messages,
		Invites:     invites,
		Words:       words,
	})
	wal.Passwords = walletPasswords{acct} // fresh password check of payout calls
	wal.Users = wallet.UserInfoFunc(func(ctx context.Context, uid int64) (any, error) {
		u, err := acct.User(ctx, uid)
		if err != nil {
			return nil, err
		}
		return acct.Info(u), nil
	})

	// Earnings: commission up the inviter chain and creator earnings, paid
	// through the wallet's ledger; invitations, people and creators are
	// read through their owners.
	earn := earnings.NewService(d, wal.Ledger, invites, earningsPeople{acct}, support.IsCreator)
	earn.Limiter = limiter
	earn.Events = events
	earn.PublicURL = cfg.PublicURL
	// Payments, refunds and sales, inside their transaction.
	wal.Earnings = moneyHooks{earn, invites}
	// The console's reconciliation and ledger check (issue 21: finance).
	wal.Books = earn
	wal.Invariants = []wallet.Invariant{earnings.Check}
	wal.Points = welfare // the console's wallet view shows and adjusts points (rewards' ledger)
	// The invitee list's paid and commission columns; the sign-up reward
	// paid when the operator's sign shows (a bound phone, a paid order).
	invites.Contributions = earn.Contributions
	invites.Trigger = earn.InviteReward
	invites.Signs = rewards.Signs{Phone: account.PhoneBound, Paid: wallet.PaidOrdersSince}

	// The operator console: sign-in through the account's password rules;
	// TOTP secrets and recovery codes keyed by the install secret.
	ops := operator.NewService(d, acct, limiter, cfg.Secret, cfg.SecretPrevious)
	if cfg.PublicURL != "" {
		if u, err := url.Parse(cfg.PublicURL); err == nil && u.Host != "" {
			ops.Issuer = "Prima " + u.Host // tells installs apart in an authenticator app
		}
	}

	a := &App{
		Config:     cfg,
		Operators:  ops,
		adminAllow: adminAllow,
		DB:         d,
		Media:      mediaStore,
		Signer:     signer,
		Account:    acct,
		Catalog:    cat,
		Reports:    report.NewService(d, limiter),
		Log:        log,
		Metrics:    metrics.New(d),
		Checks:     checks,
		trusted:    trusted,
		Redis:      rdb,
		pages:      pages,
		Events:     events,
		WS:         realtime.NewWS(events, wsAuth(acct), realtime.WSOptions{OriginHosts: origins, AllowOrigin: cat.AllowsOrigin, Log: log}),
		Jobs:       jobs.New(d, jobs.Config{Workers: cfg.Workers, Log: log}),
		Uploads:    uploads,
		Galleries:  galleries,
		Wallet:     wal,
		Community:  com,
		Support:    support.NewService(d, signer, limiter, events, media.AssetOn), // media.AssetOn: feedback pictures
		Messages:   messages,
		Welfare:    welfare,
		// Redemption codes grant through the wallet; their hashes are keyed
		// by the install secret, their failed tries counted by the shared
		// limiter.
		Codes:    rewards.NewCodes(d, wal, limiter, cfg.Secret),
		Invites:  invites,
		Earnings: earn,
		// Search: hits hydrated by the domains' card loaders; the shared
		// limiter keeps a refresh loop from pushing a hot word.
		Search:      searchapi.New(d, limiter, cat, galleries, com),
		SMSRecorder: smsRec,
		Words:       words,
	}
	// issue 21: stats — each raw figure from the domain that owns it.
	a.Stats = stats.New(d, stats.Sources{Users: acct, Money: wal, Plays: cat, Searches: a.Search})
	// Every domain's handlers are registered in every process, so any
	// process that runs workers can run any job.
	acct.RegisterJobs(a.Jobs)
	uploads.RegisterJobs(a.Jobs)
	wal.RegisterJobs(a.Jobs)
	earn.RegisterJobs(a.Jobs)
	search.RegisterJobs(a.Jobs, d)
	// Unready while draining (PRIMA_SHUTDOWN_DRAIN), so a balancer moves on.
	a.Checks = append(a.Checks, httpx.Check{Name: "accepting", Fn: a.accepting})
	a.Backups = &backup.Handler{DB: d, Place: cfg.BackupTo, Every: cfg.BackupEvery, Keep: cfg.BackupKeep}
	if cfg.BackupTo != "" {
		to, err := backup.Target(cfg.BackupTo, S3Config(cfg))
		if err != nil {
			return nil, err
		}
		a.Backups.To = to
		backup.Schedule{DB: d, Media: mediaStore, To: to, Every: cfg.BackupEvery, Keep: cfg.BackupKeep,
			Work: cfg.DataDir, Log: log}.Register(a.Jobs)
	}
	a.Stats.RegisterJobs(a.Jobs)
	a.Metrics.Registry().MustRegister(metrics.NewJobsCollector(a.Jobs, d))
	if cat.Pages != nil {
		a.Metrics.Registry().MustRegister(metrics.NewPageCacheCollector(cat.Pages))
	}
	return a, nil
}

// AdminRoutes are the /api/admin routes with the access each names, as
// the route table mounted them (after Handler).
func (a *App) AdminRoutes() []operator.Route { return a.adminRoutes }

// APIPatterns are every route pattern of the /api table (after Handler).
func (a *App) APIPatterns() []string { return a.apiPatterns }

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

// S3Config is the media bucket cfg names.
func S3Config(cfg *config.Config) blob.S3Config {
	return blob.S3Config{Endpoint: cfg.S3Endpoint, Bucket: cfg.S3Bucket, AccessKey: cfg.S3AccessKey,
		SecretKey: cfg.S3SecretKey, Region: cfg.S3Region, Prefix: cfg.S3Prefix}
}

// OpenMedia is the S3 bucket when one is configured, else the media folder
// in the data dir. The bucket is checked now, so a wrong endpoint or key
// stops the start instead of failing the first upload.
func OpenMedia(ctx context.Context, cfg *config.Config) (blob.Store, error) {
	if cfg.S3Endpoint == "" {
		return blob.NewLocal(filepath.Join(cfg.DataDir, "media"))
	}
	s3, err := blob.NewS3(S3Config(cfg))
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

// Close ends realtime connections (they see "going away"), then releases
// Redis and the database.
func (a *App) Close() error {
	errs := []error{a.Events.Close()}
	if a.pages != nil {
		errs = append(errs, a.pages.Close())
	}
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
	ca, err := newConsoleApp(console.Dist())
	if err != nil {
		return nil, fmt.Errorf("operator console: %w", err)
	}
	mux := a.routes(wa, ca)
	wa.boot = &homeBoot{api: mux, lines: a.Catalog}
	return httpx.Chain(httpx.NotePattern(mux),
		httpx.DrainBody,         // outermost: it sets a deadline on the server's own connection
		httpx.RealIP(a.trusted), // next: what follows asks who the client is
		httpx.WithRequestID,
		httpx.Observe(a.Metrics.Begin),
		httpx.AccessLog(a.Log),
		httpx.Recover,
		httpx.SecurityHeadersFor(a.Catalog), // the CSP lists the delivery lines
		httpx.CORS(a.Catalog),               // pages on one line call another
		httpx.Gzip,
		account.NewHandler(a.Account).Authenticate,
	), nil
}

var errDraining = errors.New("draining: shutting down")

// accepting is the readiness check that fails once SIGTERM starts the drain.
func (a *App) accepting(context.Context) error {
	if a.draining.Load() {
		return errDraining
	}
	return nil
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
	// While draining, every answer closes its connection, so a balancer's
	// kept-alive connections end cleanly instead of being cut mid-request.
	srv.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a.draining.Load() {
			w.Header().Set("Connection", "close")
		}
		h.ServeHTTP(w, r)
	})
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
	a.Log.Info("serving", "listen", a.Config.Listen, "metrics", a.Config.MetricsListen, "database", a.DB.Engine, "gate", a.Config.Gate, "workers", a.Config.Workers)
	if a.Config.Workers > 0 {
		if err := a.Jobs.Start(ctx); err != nil {
			for _, s := range servers {
				_ = s.Close()
			}
			return err
		}
	}
	select {
	case err = <-errc: // one listener failed: stop the other too
	case <-ctx.Done():
		if d := a.Config.ShutdownDrain; d > 0 {
			// Unready first: the balancer takes this node out of rotation
			// while it still answers what it is sent.
			a.draining.Store(true)
			a.Log.Info("draining before shutdown", "for", d)
			time.Sleep(d)
		}
	}
	// HTTP first, so no request enqueues into a queue that is stopping
	// (its jobs would wait for the next start, not be lost), then jobs.
	shut, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	for _, s := range servers {
		err = errors.Join(err, s.Shutdown(shut))
	}
	return errors.Join(err, a.stopJobs())
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

// newUploads builds the media pipeline (a function of its own because New
// names its blob store "media", shadowing the package).
func newUploads(d *db.DB, store blob.Store, signer *blob.Signer, opts media.Options) *media.Service {
	return media.NewService(d, store, signer, opts)
}

// messageMutes is the community's mute as the message centre uses it: a
// muted sender is refused, a reported user may be muted (community owns
// community_mutes).
type messageMutes struct{ c *community.Service }

func (m messageMutes) MutedUntil(ctx context.Context, uid int64) (int64, error) {
	return m.c.MutedUntil(ctx, uid)
}

func (m messageMutes) Mute(ctx context.Context, actor audit.Actor, uid, minutes int64, reason string) error {
	_, err := m.c.MuteUser(ctx, actor, uid, minutes, reason)
	return err
}

// portraits publishes a user's own uploaded picture as their portrait, the
// way operators' covers are published (a public, immutable copy).
type portraits struct{ m *media.Service }

func (p portraits) PublishPortrait(ctx context.Context, owner, id int64) (string, error) {
	a, err := p.m.Get(ctx, id)
	if errors.Is(err, media.ErrNotFound) || (err == nil && a.OwnerUID != owner) {
		// Someone else's asset answers as a missing one: ids are not probed.
		return "", account.ErrPortraitNotFound
	}
	if err != nil {
		return "", err
	}
	url, err := p.m.PublishCover(ctx, id)
	switch {
	case errors.Is(err, catalog.ErrCoverNotFound):
		return "", account.ErrPortraitNotFound
	case errors.Is(err, catalog.ErrCoverNotImage):
		return "", account.ErrPortraitNotImage
	}
	return url, err
}
