// Package account holds users, devices and sessions: guest login by device,
// registration (a guest is upgraded in place), password login, bearer tokens
// and the profile the client shows.
//
// Tokens are 32 random bytes, base64url-encoded; only their SHA-256 is
// stored, so a leaked database cannot be replayed as sessions. A session
// lives 30 days from its last use. Passwords are argon2id (password.go).
package account

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"prima/internal/membership"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
	"prima/internal/platform/realtime"
	"prima/internal/platform/sms"
	"prima/internal/search"
)

const (
	// SessionTTL is how long a token stays valid after its last use.
	SessionTTL = 30 * 24 * time.Hour
	// touchEvery bounds the writes a busy session causes: last use is
	// recorded (and the expiry slid) at most once per interval.
	touchEvery = time.Minute
	// maxCutInfos is the longest invite text a device may carry, in characters.
	maxCutInfos = 512
)

// Rate is a limit of N calls per Per.
type Rate struct {
	N   int
	Per time.Duration
}

// Limits are the rate limits the service applies.
//
// Password logins are throttled by failures, so that an attacker cannot
// lock the real owner out: failures are counted per (account, address)
// and per address. An address that keeps failing on one account waits,
// longer after each failure, while the owner signing in from anywhere else
// is not slowed. Across all addresses an account has a high failure
// ceiling (a distributed guesser); past it only addresses that signed in
// to the account recently get through, so even then the owner's own phone
// still does. A success forgets the failures of its (account, address).
type Limits struct {
	GuestPerIP Rate // guest logins: bounds how fast one address can mint users
	// LoginPerIP counts every password login from one address, success or
	// not: it bounds the argon2 work one address can ask for.
	LoginPerIP Rate
	// LoginFailPerIP counts failed logins from one address on any accounts:
	// one address trying many accounts. Past it the address waits, except
	// on accounts it is known for (LoginKnownFor).
	LoginFailPerIP Rate
	// LoginFailPerAccount counts failed logins on one account from every
	// address. Past it, addresses without a success on the account within
	// LoginKnownFor are refused until the window ends.
	LoginFailPerAccount Rate
	// One address on one account: LoginPairFree failures are free, then
	// each failure makes that address wait LoginPairWait, doubling per
	// further failure up to LoginPairMaxWait. Failures are remembered for
	// LoginPairMemory from the first, or until a success.
	LoginPairFree    int
	LoginPairWait    time.Duration
	LoginPairMaxWait time.Duration
	LoginPairMemory  time.Duration
	// LoginKnownFor is how long a success marks its address as the
	// account's own: on that account the address is exempt from the
	// per-account ceiling and from its own LoginFailPerIP limit.
	LoginKnownFor      time.Duration
	RegisterPerIP      Rate // registrations from one address
	RegisterPerAccount Rate // registrations naming one account
}

// DefaultLimits are generous for people and slow for a guesser. One address
// gets 5 free guesses at an account, then waits 1, 2, 4 ... up to 60
// minutes between guesses; it gets 20 failures in 10 minutes over all
// accounts. An account takes 100 failures an hour from everywhere before
// strangers are turned away. Guest login is looser because many phones can
// share one carrier address.
var DefaultLimits = Limits{
	GuestPerIP:          Rate{60, time.Minute},
	LoginPerIP:          Rate{30, time.Minute},
	LoginFailPerIP:      Rate{20, 10 * time.Minute},
	LoginFailPerAccount: Rate{100, time.Hour},
	LoginPairFree:       5,
	LoginPairWait:       time.Minute,
	LoginPairMaxWait:    time.Hour,
	LoginPairMemory:     24 * time.Hour,
	LoginKnownFor:       30 * 24 * time.Hour,
	RegisterPerIP:       Rate{10, 10 * time.Minute},
	RegisterPerAccount:  Rate{5, time.Minute},
}

var (
	// ErrDuplicateAccount: the account name is taken (409).
	ErrDuplicateAccount = errors.New("account already registered")
	// ErrBadCredentials: unknown account or wrong password; deliberately one
	// error for both so callers cannot tell which (401).
	ErrBadCredentials = errors.New("wrong account or password")
	// ErrSessionInvalid: a token that is malformed, unknown, revoked or expired (401).
	ErrSessionInvalid = errors.New("session invalid")
	// ErrRateLimited: too many attempts; the error is a *RateLimitError (429).
	ErrRateLimited = errors.New("rate limited")
	// ErrGuestRegistered: the guest token was upgraded by another
	// registration in the meantime (409); the caller should log in.
	ErrGuestRegistered = errors.New("guest already registered")
)

// ValidationError is input that breaks a rule (422). Tip is for the user.
type ValidationError struct {
	Field string
	Tip   string
	Msg   string
}

func (e *ValidationError) Error() string { return e.Field + ": " + e.Msg }

func invalid(field, tip, msg string) error { return &ValidationError{Field: field, Tip: tip, Msg: msg} }

// RateLimitError says how long to wait; it matches ErrRateLimited.
type RateLimitError struct {
	What       string
	RetryAfter time.Duration
}

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("too many %s attempts, retry after %v", e.What, e.RetryAfter)
}
func (e *RateLimitError) Is(target error) bool { return target == ErrRateLimited }

// sessionError says why a token was refused; it matches ErrSessionInvalid.
type sessionError struct{ reason string }

func (e *sessionError) Error() string        { return "session " + e.reason }
func (e *sessionError) Is(target error) bool { return target == ErrSessionInvalid }

// Service applies the account rules.
type Service struct {
	db      *db.DB
	limiter ratelimit.Store
	// Options are the dependencies NewService was given; tests may swap
	// one after construction.
	Options
	// Limits may be changed before the service is used.
	Limits Limits
	now    func() time.Time

	// Account certificates (certificate.go): the keys that derive them
	// (SetCertificateSecret) and their limits (zero: DefaultCertLimits).
	certKeys   [][]byte
	CertLimits CertLimits

	// SMS codes (smscode.go): the limits on sending them; the provider
	// and the HMAC key are Options.
	SMSLimits   SMSLimits
	codeKeyOnce sync.Once

	// active remembers who was counted active today (stats.go), so a
	// user's day costs one write per process, not one per request.
	active activeDays
}

// Options are what the account service is built with. app.New sets every
// one (TestEveryDependencyIsWired); a test leaves out what it does not
// exercise, and each says what nil does.
type Options struct {
	// Events tells a user's open connections about changes made elsewhere
	// (realtime.UserTopic). Nil sends nothing.
	Events realtime.Publisher
	// SMS sends login and phone codes (smscode.go). Nil cannot send.
	SMS sms.Sender
	// CodeKey keys the stored hashes of SMS codes (the install's secret;
	// empty: a random key for this process).
	CodeKey []byte
	// CertSecrets derive account certificates: the install's secret first,
	// then earlier ones still accepted (SetCertificateSecret).
	CertSecrets []string
	// Reports answers the user info's reportVid (the catalog implements
	// it). Nil leaves the field out.
	Reports Reports
	// Coupons answers the user info's newGoldVideoCoupon (the wallet
	// implements it). Nil leaves the empty list.
	Coupons Coupons
	// Portraits publishes a user's uploaded picture as their portrait and
	// Follows answers PublicProfile.isFollow (profile.go). Nil: portraits
	// cannot be set, isFollow is false.
	Portraits Portraits
	Follows   Follows
	// Inbox answers the user info's msgHasNew (messaging implements it).
	// Nil leaves it false.
	Inbox Inbox
	// Invites hears of new guests, registrations and phone bindings inside
	// their transaction (rewards implements it). Nil: nothing is told.
	Invites Invites
	// Words refuses a new profile name holding a blocked word (422 naming
	// the word; internal/wordfilter implements it). Nil checks nothing.
	Words Words
}

// Words refuses text holding a blocked word with an error the handlers
// answer as it is.
type Words interface {
	Check(ctx context.Context, text string) error
}

// Inbox says whether a user has an unread notice or message.
type Inbox interface {
	HasNew(ctx context.Context, uid int64) (bool, error)
}

// Invites binds a new guest to the inviter its clipboard text names and
// hears of what an invitee does that may pay their inviter: registering
// and binding a phone. Its error fails the login, registration or phone
// binding, so it returns errors only for real failures.
type Invites interface {
	GuestCreated(ctx context.Context, tx *db.Tx, uid int64, cutInfos string) error
	Registered(ctx context.Context, tx *db.Tx, uid int64) error
	PhoneBound(ctx context.Context, tx *db.Tx, uid int64) error
}

// Coupons lists a user's coupons grouped by state: unused, used, expired.
type Coupons interface {
	CouponGroups(ctx context.Context, uid int64) ([]CouponGroup, error)
}

// Reports lists the ids of the videos a user reported.
type Reports interface {
	ReportedVideos(ctx context.Context, uid int64) ([]int64, error)
}

// NewService returns the account service over d, counting attempts in
// limiter, with its dependencies opts.
func NewService(d *db.DB, limiter ratelimit.Store, opts Options) *Service {
	s := &Service{db: d, limiter: limiter, Options: opts, Limits: DefaultLimits, SMSLimits: DefaultSMSLimits, now: time.Now}
	if len(opts.CertSecrets) > 0 {
		s.SetCertificateSecret(opts.CertSecrets[0], opts.CertSecrets[1:]...)
	}
	return s
}

// Login is the outcome of a successful login or registration.
type Login struct {
	Token string
	IsNew bool // a guest login that created the user
	User  User
}

// GuestLoginInput is a guest login request.
type GuestLoginInput struct {
	DevID    string
	SysType  string
	CutInfos string
	IP       string
	Device   string // a label from the User-Agent (DeviceLabel), for the devices list
}

// GuestLogin creates or resumes the user bound to the device and opens a
// session for it.
func (s *Service) GuestLogin(ctx context.Context, in GuestLoginInput) (Login, error) {
	if err := checkDevID(in.DevID); err != nil {
		return Login{}, err
	}
	if err := checkSysType(in.SysType, true); err != nil {
		return Login{}, err
	}
	if n := utf8.RuneCountInString(in.CutInfos); n > maxCutInfos || !utf8.ValidString(in.CutInfos) {
		return Login{}, invalid("cutInfos", "邀请信息过长", fmt.Sprintf("cutInfos is %d characters, at most %d", n, maxCutInfos))
	}
	if err := s.limit(ctx, "guest", "guest:ip:"+in.IP, s.Limits.GuestPerIP); err != nil {
		return Login{}, err
	}
	token, hash := newToken()
	now := s.now().Unix()
	var out Login
	var err error
	// Two first logins of one device can race: both see no device, both
	// create a user, and the second device insert fails on the primary key,
	// rolling its user back. The retry then finds and resumes the winner's.
	for attempt := 0; attempt < 3; attempt++ {
		err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			out = Login{Token: token}
			uid, guest, err := deviceUser(ctx, tx, in.DevID)
			if err == nil {
				// A banned user's device cannot sign in, nor start over as
				// a new guest (ban.go).
				if err := checkBan(ctx, tx, uid, now); err != nil {
					return err
				}
			}
			switch {
			case err == nil && guest:
				if err := touchDevice(ctx, tx, in.DevID, in.SysType, now); err != nil {
					return err
				}
			case err == nil:
				// The device's account has a password now: a device id is no
				// credential for it, or logging out would mean nothing. The
				// device starts over as a new guest.
				uid, err = insertUser(ctx, tx, &User{Name: guestPrefix + shortCode(), CreatedAt: now, UpdatedAt: now})
				if err != nil {
					return err
				}
				if err := rebindDevice(ctx, tx, in.DevID, uid, now); err != nil {
					return err
				}
				out.IsNew = true
			case errors.Is(err, db.ErrNotFound):
				uid, err = insertUser(ctx, tx, &User{Name: guestPrefix + shortCode(), CreatedAt: now, UpdatedAt: now})
				if err != nil {
					return err
				}
				if err := insertDevice(ctx, tx, in.DevID, uid, in.SysType, in.CutInfos, now); err != nil {
					return err
				}
				out.IsNew = true
			default:
				return err
			}
			if out.IsNew && s.Invites != nil {
				if err := s.Invites.GuestCreated(ctx, tx, uid, in.CutInfos); err != nil {
					return err
				}
			}
			if err := insertSession(ctx, tx, newSession(hash, uid, in.DevID, now).from(in.SysType, in.Device)); err != nil {
				return err
			}
			out.User, err = userByID(ctx, tx, uid)
			return err
		})
		if err == nil || !db.IsUnique(err) {
			break
		}
	}
	if err != nil {
		return Login{}, fmt.Errorf("guest login: %w", err)
	}
	s.markActive(ctx, out.User.ID) // opening the app is a visit (stats.go)
	return out, nil
}

// PasswordLoginInput is an account-and-password login request.
type PasswordLoginInput struct {
	Account  string
	Password string
	SysType  string // optional
	IP       string
	DevID    string // from the client header, when it has a valid one
	Device   string // a label from the User-Agent (DeviceLabel)
}

// PasswordLogin checks the credentials and opens a session. An unknown
// account and a wrong password fail alike, in about the same time.
func (s *Service) PasswordLogin(ctx context.Context, in PasswordLoginInput) (Login, error) {
	if strings.TrimSpace(in.Account) == "" {
		return Login{}, invalid("account", "请输入账号", "account is required")
	}
	if in.Password == "" {
		return Login{}, invalid("passWord", "请输入密码", "passWord is required")
	}
	if err := checkSysType(in.SysType, false); err != nil {
		return Login{}, err
	}
	u, err := s.CheckPassword(ctx, in.Account, in.Password, in.IP)
	if err != nil {
		return Login{}, err
	}
	token, th := newToken()
	if err := insertSession(ctx, s.db, newSession(th, u.ID, in.DevID, s.now().Unix()).from(in.SysType, in.Device)); err != nil {
		return Login{}, err
	}
	s.markActive(ctx, u.ID)
	return Login{Token: token, User: u}, nil
}

// CheckPassword is the credential check of a password login without the
// session: the same limits (every attempt per address, failures per
// address and per account), the same answer and about the same time for an
// unknown account and a wrong password (ErrBadCredentials). The operator
// console's sign-in (internal/operator) checks the password through it, so
// a guess counts against the same limits wherever it is made.
func (s *Service) CheckPassword(ctx context.Context, account, password, ip string) (User, error) {
	if strings.TrimSpace(account) == "" {
		return User{}, invalid("account", "请输入账号", "account is required")
	}
	if password == "" {
		return User{}, invalid("passWord", "请输入密码", "passWord is required")
	}
	if err := s.limit(ctx, "login", "login:ip:"+ip, s.Limits.LoginPerIP); err != nil {
		return User{}, err
	}
	// A name that breaks the account rule cannot exist: it is neither
	// looked up nor given per-account limiter keys (keys stay short and
	// bounded in number), but it is still hashed against below so it
	// answers in the same time as any other failure.
	var (
		u     User
		found bool
		acct  string
	)
	if checkAccount(account) == nil {
		acct = strings.ToLower(account)
	}
	keys := newLoginKeys(acct, ip)
	if err := s.loginGate(ctx, keys); err != nil {
		return User{}, err
	}
	if acct != "" {
		var err error
		u, err = userByAccount(ctx, s.db, account)
		found = err == nil
		if err != nil && !errors.Is(err, db.ErrNotFound) {
			return User{}, err
		}
	}
	hash := u.PasswordHash
	if !found {
		var err error
		if hash, err = dummyHash(); err != nil {
			return User{}, err
		}
	}
	ok, stale, err := verifyPassword(ctx, hash, password)
	if err != nil {
		return User{}, fmt.Errorf("user %d: %w", u.ID, err)
	}
	if !found || !ok {
		s.loginFailed(ctx, keys)
		return User{}, ErrBadCredentials
	}
	s.loginSucceeded(ctx, keys)
	if stale {
		// Best effort: the login stands even if the upgrade fails; the next
		// login tries again.
		if h, err := hashPassword(ctx, password); err == nil {
			if err := setPasswordHash(ctx, s.db, u.ID, h, s.now().Unix()); err != nil {
				slog.WarnContext(ctx, "password rehash failed", "uid", u.ID, "err", err)
			}
		}
	}
	return u, nil
}

// RegisterInput is a registration request. Current is the caller's live
// session, if the request carried a valid token.
type RegisterInput struct {
	Account  string
	Password string
	IP       string
	DevID    string
	Current  *Session
	SysType  string // from the client header, for the devices list
	Device   string // a label from the User-Agent (DeviceLabel)
}

// Register gives the caller an account and password. A guest caller is
// upgraded in place, keeping its uid, devices and everything it owns; its
// guest token is revoked and a new one issued, because the session now
// stands for more than a device. Anyone else gets a new user.
func (s *Service) Register(ctx context.Context, in RegisterInput) (Login, error) {
	if err := checkAccount(in.Account); err != nil {
		return Login{}, err
	}
	if err := checkPassword(in.Password); err != nil {
		return Login{}, err
	}
	if err := s.limit(ctx, "register", "register:ip:"+in.IP, s.Limits.RegisterPerIP); err != nil {
		return Login{}, err
	}
	if err := s.limit(ctx, "register", "register:acct:"+strings.ToLower(in.Account), s.Limits.RegisterPerAccount); err != nil {
		return Login{}, err
	}
	// The 409 already says the name is taken, so checking first leaks
	// nothing and saves hashing for a request that cannot succeed. The
	// unique index still decides a race.
	if _, err := userByAccount(ctx, s.db, in.Account); err == nil {
		return Login{}, ErrDuplicateAccount
	} else if !errors.Is(err, db.ErrNotFound) {
		return Login{}, err
	}
	hash, err := hashPassword(ctx, in.Password)
	if err != nil {
		return Login{}, err
	}
	token, th := newToken()
	now := s.now().Unix()
	var out Login
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		out = Login{Token: token}
		var uid int64
		devID := in.DevID
		if in.Current != nil {
			// The row lock makes parallel registrations with one guest token
			// take turns: the first upgrades the guest and revokes the token,
			// the others then find a registered user and a revoked token and
			// are refused. Without it each would fall through to a new user.
			u, err := lockUser(ctx, tx, in.Current.UserID)
			if err != nil {
				return err
			}
			if u.IsGuest() {
				// The generated guest name means the user never chose one:
				// the account they just chose is a better name than 游客….
				name := u.Name
				if isGuestName(name) {
					name = in.Account
				}
				upgraded, err := setCredentials(ctx, tx, u.ID, in.Account, name, hash, now)
				if err != nil {
					return err
				}
				if !upgraded {
					return ErrGuestRegistered
				}
				uid = u.ID
				if err := search.Touch(ctx, tx, search.KindUser, uid); err != nil {
					return err
				}
				if s.Invites != nil {
					if err := s.Invites.Registered(ctx, tx, uid); err != nil {
						return err
					}
				}
				if devID == "" {
					devID = in.Current.DevID
				}
				if err := revokeSession(ctx, tx, in.Current.TokenHash, now); err != nil {
					return err
				}
				// Told only once the upgrade has committed: the guest's
				// other tabs refetch and see the account; the guest token
				// is gone. A client hanging up must not cancel the news.
				tx.AfterCommit(func() {
					pctx, topic := context.WithoutCancel(ctx), realtime.UserTopic(uid)
					realtime.Notify(pctx, s.Events, topic, "profile.changed", map[string]int64{"uid": uid})
					realtime.Notify(pctx, s.Events, topic, realtime.SessionRevokedType, map[string]string{"sid": in.Current.ID()})
				})
			} else {
				cur, err := sessionByHash(ctx, tx, in.Current.TokenHash)
				if err != nil {
					return err
				}
				if cur.RevokedAt != 0 {
					return ErrGuestRegistered
				}
				// A registered user's live session: registering makes a
				// second, separate user, as without a token.
			}
		}
		if uid == 0 {
			uid, err = insertUser(ctx, tx, &User{Name: "用户" + shortCode(), Account: in.Account, PasswordHash: hash, CreatedAt: now, UpdatedAt: now})
			if err != nil {
				return err
			}
		}
		if err := insertSession(ctx, tx, newSession(th, uid, devID, now).from(in.SysType, in.Device)); err != nil {
			return err
		}
		out.User, err = userByID(ctx, tx, uid)
		return err
	})
	switch {
	case db.IsUnique(err):
		return Login{}, ErrDuplicateAccount
	case errors.Is(err, ErrGuestRegistered):
		return Login{}, err
	case err != nil:
		return Login{}, fmt.Errorf("register: %w", err)
	}
	s.markActive(ctx, out.User.ID)
	return out, nil
}

// Authenticate resolves a bearer token to its live session and slides its
// expiry. A refused token gives an error matching ErrSessionInvalid.
// RefusedRegistration says why a registration that came with a refused
// token is refused: ErrGuestRegistered when the token's guest has since
// registered (another request upgraded it), else ErrSessionInvalid.
func (s *Service) RefusedRegistration(ctx context.Context, token string) error {
	hash, ok := tokenHash(token)
	if !ok {
		return &sessionError{"token malformed"}
	}
	sess, err := sessionByHash(ctx, s.db, hash)
	if errors.Is(err, db.ErrNotFound) {
		return &sessionError{"token unknown"}
	}
	if err != nil {
		return err
	}
	u, err := userByID(ctx, s.db, sess.UserID)
	if err != nil {
		return err
	}
	if !u.IsGuest() && sess.RevokedAt != 0 {
		return ErrGuestRegistered
	}
	return &sessionError{"refused"}
}

func (s *Service) Authenticate(ctx context.Context, token string) (Session, error) {
	hash, ok := tokenHash(token)
	if !ok {
		return Session{}, &sessionError{"token malformed"}
	}
	sess, err := sessionByHash(ctx, s.db, hash)
	if errors.Is(err, db.ErrNotFound) {
		return Session{}, &sessionError{"token unknown"}
	}
	if err != nil {
		return Session{}, err
	}
	now := s.now().Unix()
	switch {
	case sess.bannedUntil > now:
		// Before revoked: the ban ended the session, and its user is told
		// why (403) rather than sent to sign in again.
		return Session{}, &BannedError{Until: sess.bannedUntil, Reason: sess.banReason}
	case sess.RevokedAt != 0:
		return Session{}, &sessionError{"revoked"}
	case now >= sess.ExpiresAt:
		return Session{}, &sessionError{"expired"}
	}
	if now-sess.LastSeenAt >= int64(touchEvery/time.Second) {
		expires := now + int64(SessionTTL/time.Second)
		// A failed touch only delays the slide to the next request; the
		// token is still valid now, so the request goes on.
		if err := touchSession(ctx, s.db, hash, now, expires); err != nil {
			slog.WarnContext(ctx, "session touch failed", "uid", sess.UserID, "err", err)
		} else {
			sess.LastSeenAt, sess.ExpiresAt = now, expires
		}
	}
	s.markActive(ctx, sess.UserID)
	return sess, nil
}

// Logout revokes the session and tells the user's other connections, so
// the one using this session closes and the others can react.
func (s *Service) Logout(ctx context.Context, sess Session) error {
	if err := revokeSession(ctx, s.db, sess.TokenHash, s.now().Unix()); err != nil {
		return err
	}
	realtime.Notify(context.WithoutCancel(ctx), s.Events, realtime.UserTopic(sess.UserID), realtime.SessionRevokedType, map[string]string{"sid": sess.ID()})
	return nil
}

// User returns the user with id uid, or db.ErrNotFound.
func (s *Service) User(ctx context.Context, uid int64) (User, error) {
	return userByID(ctx, s.db, uid)
}

// UserInfo is what a user sees of themselves (the contract's UserInfo).
type UserInfo struct {
	UID           int64      `json:"uid"`
	Name          string     `json:"name"`
	Portrait      string     `json:"portrait"`
	Account       *string    `json:"account"`
	IsGuest       bool       `json:"isGuest"`
	Points        int64      `json:"points"`
	IsVip         bool       `json:"isVip"`
	VipLevel      int        `json:"vipLevel"`
	VipExpireDate *time.Time `json:"vipExpireDate"`
	// VipTiers is each tier's own expiry; vipExpireDate is the active one's.
	VipTiers            VipTiers      `json:"vipTiers"`
	TxDiscount          *int64        `json:"txDiscount"`
	NewGoldVideoCoupon  []CouponGroup `json:"newGoldVideoCoupon"`
	GoldVideoFreeExpire *time.Time    `json:"goldVideoFreeExpire"`
	VideoFreeExpiration *time.Time    `json:"videoFreeExpiration"`
	CreatedAt           time.Time     `json:"createdAt"`
	// ReportVid is the set of videos the user reported. Only GET
	// /api/app/mine/info fills it (login replies leave it out: the client
	// fetches the info after signing in anyway).
	ReportVid []int64 `json:"reportVid,omitzero"`

	// Profile (people, profile.go): 0 unset, 1 male, 2 female; the bio.
	Gender int    `json:"gender"`
	Bio    string `json:"bio"`

	// Messages (chat): an unread notice or message exists. Only
	// GET /api/app/mine/info fills it (Service.Inbox).
	MsgHasNew bool `json:"msgHasNew"`

	// Phone and password (task ways): the bound mobile masked as
	// 138****0000 ("" when none), and whether a password is set.
	Mobile      string `json:"mobile"`
	HasPassword bool   `json:"hasPassword"`
}

// VipTiers is when each VIP tier ends (null: never held).
type VipTiers struct {
	VIP  *time.Time `json:"vip"`
	SVIP *time.Time `json:"svip"`
}

// CouponGroup is the user's gold-video coupons in one state.
type CouponGroup struct {
	Position string   `json:"position"` // unused, used or expired
	Coupons  []Coupon `json:"coupons"`
}

// Coupon is one kind of coupon and how many the user holds.
type Coupon struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Count int    `json:"count"`
	// ExpiresAt is the soonest expiry among them (null: none).
	ExpiresAt *time.Time `json:"expiresAt"`
}

// PublicProfile is what anyone may see of a user: no account, points,
// expiry dates or anything else private.
type PublicProfile struct {
	UID       int64     `json:"uid"`
	Name      string    `json:"name"`
	Portrait  string    `json:"portrait"`
	VipLevel  int       `json:"vipLevel"`
	CreatedAt time.Time `json:"createdAt"`

	// People (profile.go): whether the caller follows this user (false for
	// the user themselves and when Follows is not wired), gender and bio.
	IsFollow bool   `json:"isFollow"`
	Gender   int    `json:"gender"`
	Bio      string `json:"bio"`
}

// tiers is what membership reads of u's VIP.
func tiers(u *User) membership.User {
	return membership.User{ID: u.ID, VipExpireAt: u.VipExpireAt, SvipExpireAt: u.SvipExpireAt}
}

// VipLevelAt is u's VIP level at now (membership.ActiveVipLevel).
func (u User) VipLevelAt(now time.Time) int { return membership.ActiveVipLevel(tiers(&u), now) }

// activeVipLevel is the user's VIP level now (membership.ActiveVipLevel):
// the highest tier whose expiry is ahead, else 0.
func (s *Service) activeVipLevel(u *User) int {
	return membership.ActiveVipLevel(tiers(u), s.now())
}

// Info is u as its owner sees it.
func (s *Service) Info(u User) UserInfo {
	level := s.activeVipLevel(&u)
	info := UserInfo{
		UID:                 u.ID,
		Name:                u.Name,
		Portrait:            u.Portrait,
		IsGuest:             u.IsGuest(),
		Points:              u.Points,
		IsVip:               level > 0,
		VipLevel:            level,
		VipExpireDate:       unixTime(membership.ActiveExpiry(tiers(&u), s.now())),
		VipTiers:            VipTiers{VIP: unixTime(u.VipExpireAt), SVIP: unixTime(u.SvipExpireAt)},
		TxDiscount:          u.TxDiscount,
		GoldVideoFreeExpire: unixTime(u.GoldVideoFreeUntil),
		VideoFreeExpiration: unixTime(u.VideoFreeUntil),
		CreatedAt:           time.Unix(u.CreatedAt, 0).UTC(),
		// The coupons are the wallet's: GET /api/app/mine/info fills them
		// through Coupons. Elsewhere the client gets an empty list rather
		// than null.
		NewGoldVideoCoupon: []CouponGroup{},
		Gender:             u.Gender,
		Bio:                u.Bio,
		Mobile:             MaskMobile(u.Mobile),
		HasPassword:        u.PasswordHash != "",
	}
	if !u.IsGuest() {
		info.Account = &u.Account
	}
	return info
}

// Profile is u as anyone sees it.
func (s *Service) Profile(u User) PublicProfile {
	return PublicProfile{UID: u.ID, Name: u.Name, Portrait: u.Portrait, VipLevel: s.activeVipLevel(&u), CreatedAt: time.Unix(u.CreatedAt, 0).UTC(),
		Gender: u.Gender, Bio: u.Bio}
}

func unixTime(sec int64) *time.Time {
	if sec == 0 {
		return nil
	}
	t := time.Unix(sec, 0).UTC()
	return &t
}

// limit counts one attempt under key. When the limiter itself fails (Redis
// down) it lets the attempt through: locking every user out during an
// outage is worse than a short stretch where argon2's cost is the only
// brake. Limits on money, codes or SMS use ratelimit.FailClosed instead.
func (s *Service) limit(ctx context.Context, what, key string, r Rate) error {
	err := ratelimit.Enforce(ctx, s.limiter, key, r.N, r.Per, ratelimit.FailOpen)
	var le *ratelimit.LimitedError
	if errors.As(err, &le) {
		return &RateLimitError{What: what, RetryAfter: le.RetryAfter}
	}
	return err
}

func newSession(hash string, uid int64, devID string, now int64) *Session {
	return &Session{TokenHash: hash, UserID: uid, DevID: devID, CreatedAt: now, LastSeenAt: now, ExpiresAt: now + int64(SessionTTL/time.Second)}
}

const tokenBytes = 32

var tokenEncoding = base64.RawURLEncoding

// newToken returns a fresh token and the hash stored for it.
func newToken() (token, hash string) {
	raw := make([]byte, tokenBytes)
	_, _ = rand.Read(raw) // crypto/rand.Read never fails (Go 1.24+)
	token = tokenEncoding.EncodeToString(raw)
	sum := sha256.Sum256([]byte(token))
	return token, hex.EncodeToString(sum[:])
}

// tokenHash is the stored hash of token, or false when token cannot be one
// of ours, which spares the database a lookup for garbage.
func tokenHash(token string) (string, bool) {
	if len(token) != tokenEncoding.EncodedLen(tokenBytes) {
		return "", false
	}
	if _, err := tokenEncoding.DecodeString(token); err != nil {
		return "", false
	}
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:]), true
}

// shortCode is six random characters (A-Z, 2-7) for default names.
func shortCode() string { return rand.Text()[:6] }

const guestPrefix = "游客"

// isGuestName reports whether name is one GuestLogin generated: 游客 and a
// shortCode. Nothing lets a user pick such a name, so it was never chosen.
func isGuestName(name string) bool {
	code, ok := strings.CutPrefix(name, guestPrefix)
	if !ok || len(code) != 6 {
		return false
	}
	for i := 0; i < len(code); i++ {
		if c := code[i]; !(c >= 'A' && c <= 'Z') && !(c >= '2' && c <= '7') {
			return false
		}
	}
	return true
}

// checkDevID enforces the client's format: 16 letters or digits, then a
// 10-13 digit millisecond timestamp (Date.now()).
func checkDevID(id string) error {
	bad := invalid("devID", "设备标识无效", "devID must be 16 letters or digits followed by a 10-13 digit timestamp")
	if id == "" {
		return invalid("devID", "缺少设备标识", "devID is required")
	}
	if !validDevID(id) {
		return bad
	}
	return nil
}

func validDevID(id string) bool {
	if len(id) < 26 || len(id) > 29 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		digit := c >= '0' && c <= '9'
		letter := (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !digit && (i >= 16 || !letter) {
			return false
		}
	}
	return true
}

var sysTypes = []string{"ios", "android", "pc", "h5"}

func checkSysType(t string, required bool) error {
	if t == "" {
		if required {
			return invalid("sysType", "缺少设备类型", "sysType is required: ios, android, pc or h5")
		}
		return nil
	}
	for _, v := range sysTypes {
		if t == v {
			return nil
		}
	}
	return invalid("sysType", "设备类型无效", "sysType "+httpx.Echo(t)+" is not one of ios, android, pc, h5")
}

// checkAccount: 4-20 letters, digits or underscores, starting with a letter.
func checkAccount(a string) error {
	if a == "" {
		return invalid("account", "请输入账号", "account is required")
	}
	ok := len(a) >= 4 && len(a) <= 20 && isASCIILetter(a[0])
	for i := 0; ok && i < len(a); i++ {
		c := a[i]
		ok = isASCIILetter(c) || (c >= '0' && c <= '9') || c == '_'
	}
	if !ok {
		return invalid("account", "账号需为4-20位字母、数字或下划线，且以字母开头", "account must be 4-20 letters, digits or underscores, starting with a letter")
	}
	return nil
}

// checkPassword: 6-32 characters with at least one letter and one digit,
// and no spaces or control characters, which are nearly always typing or
// pasting mistakes the user would not be able to repeat.
func checkPassword(p string) error {
	if p == "" {
		return invalid("passWord", "请输入密码", "passWord is required")
	}
	n := utf8.RuneCountInString(p)
	var letter, digit, bad bool
	for _, r := range p {
		switch {
		case r < utf8.RuneSelf && isASCIILetter(byte(r)):
			letter = true
		case r >= '0' && r <= '9':
			digit = true
		case unicode.IsSpace(r) || unicode.IsControl(r) || r == utf8.RuneError:
			bad = true
		}
	}
	switch {
	case n < 6 || n > 32:
		return invalid("passWord", "密码需为6-32位，且同时包含字母和数字", fmt.Sprintf("passWord is %d characters, must be 6-32", n))
	case bad:
		return invalid("passWord", "密码不能包含空格或控制字符", "passWord holds whitespace or control characters")
	case !letter || !digit:
		return invalid("passWord", "密码需同时包含字母和数字", "passWord needs at least one letter and one digit")
	}
	return nil
}

func isASCIILetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
