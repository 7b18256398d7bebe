// Package operator is the operator console's identity: who the operators
// are and their console roles, signing in with account, password and a
// TOTP code, console sessions (idle 30 minutes, at most 12 hours, listed
// and revocable), step-up, API keys for scripts, and the gate every
// /api/admin route passes (Handler.Gate, with the route's Access).
//
// An operator is a registered user (account's users row, role 'operator')
// with a row in operators naming the console role. The phone app's tokens
// open nothing under /api/admin; only a console session ("pc_...") or an
// API key ("pk_...") does (docs/architecture.md, *Operator identity*).
package operator

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"prima/internal/account"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// Lifetimes.
const (
	// IdleTimeout ends a console session this long after its last request.
	IdleTimeout = 30 * time.Minute
	// SessionMax ends a console session this long after its sign-in.
	SessionMax = 12 * time.Hour
	// StepUpFor is how long an entered code lets step-up routes through.
	StepUpFor = 5 * time.Minute
	// TicketTTL is how long an enrolment ticket waits for its code.
	TicketTTL = 10 * time.Minute
	// ticketTries wrong codes end a ticket.
	ticketTries = 5
	// RecoveryCodes are issued at each enrolment.
	RecoveryCodes = 10
	ticketPrefix  = "pt_"
)

// Users is what the console needs of the account service: the password
// check (with its limits) and the users row of an operator, changed in the
// console's own transaction.
type Users interface {
	CheckPassword(ctx context.Context, account, password, ip string) (account.User, error)
	User(ctx context.Context, uid int64) (account.User, error)
	UserByAccount(ctx context.Context, name string) (account.User, error)
	HashOperatorPassword(ctx context.Context, password string) (string, error)
	EnsureOperator(ctx context.Context, tx *db.Tx, actor audit.Actor, account, hash string) (account.User, bool, error)
	SetRoleIn(ctx context.Context, tx *db.Tx, actor audit.Actor, uid int64, role httpx.Role) (account.User, error)
}

// Rate is N events per Per.
type Rate struct {
	N   int
	Per time.Duration
}

// Limits of the console's sign-in. The password is also held to the
// account's login limits (account.Limits), shared with the phone app.
type Limits struct {
	// SignInPerIP counts every sign-in and enrolment attempt from one
	// address.
	SignInPerIP Rate
	// CodeFailures counts wrong codes on one operator (sign-in, step-up,
	// which only a signed-in operator reaches);
	// past it the operator's codes are refused until the window ends. Six
	// digits with three steps accepted leave a guesser about one chance in
	// 66,000 per window.
	CodeFailures Rate
}

// DefaultLimits: 20 attempts a minute per address; 5 wrong codes per
// operator per 15 minutes.
var DefaultLimits = Limits{SignInPerIP: Rate{20, time.Minute}, CodeFailures: Rate{5, 15 * time.Minute}}

// Service applies the console's identity rules.
type Service struct {
	db      *db.DB
	users   Users
	limiter ratelimit.Store
	keys    keys
	now     func() time.Time
	// Issuer names the install in authenticator apps (otpauth URLs).
	Issuer string
	// Limits may be changed before the service is used.
	Limits Limits
}

// NewService returns the console service over d. secret (and the one
// before a rotation) keys the sealing of TOTP secrets and the hashes of
// recovery codes.
func NewService(d *db.DB, users Users, limiter ratelimit.Store, secret string, previous ...string) *Service {
	if secret == "" {
		panic("operator: an install secret is needed")
	}
	return &Service{db: d, users: users, limiter: limiter, keys: deriveKeys(append([]string{secret}, previous...)...),
		now: time.Now, Issuer: "Prima", Limits: DefaultLimits}
}

// SetClock replaces the service's clock (tests of expiry and TOTP steps).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.now() }

// Caller is who an /api/admin request acts for: a console session or an
// API key of an operator, with the operator's role as it is now.
type Caller struct {
	UID       int64
	Role      httpx.Role
	SessionID int64 // the console session; 0 for an API key
	KeyID     int64 // the API key; 0 for a console session
	// ExpiresAt is the absolute end; IdleExpiresAt the end if no request
	// comes before it (a key's are its expiry). Unix seconds.
	ExpiresAt     int64
	IdleExpiresAt int64
	StepUpUntil   int64 // 0: never stepped up (keys never do)
}

// SignedIn is a new console session.
type SignedIn struct {
	Token     string
	ExpiresAt time.Time
	Role      httpx.Role
	UID       int64
	// RecoveryCodes are the enrolment's ten one-time codes, shown once.
	RecoveryCodes []string
}

// Enrolment is SignIn's answer to an operator without TOTP yet: the
// secret to add to an authenticator app, its otpauth:// URL (the console
// shows it as a QR code) and the ticket that Enrol takes back with the
// first code.
type Enrolment struct {
	Ticket     string `json:"ticket"`
	Secret     string `json:"secret"`
	OTPAuthURL string `json:"otpauthURL"`
}

// SignInInput is a console sign-in.
type SignInInput struct {
	Account, Password, Code string
	IP, UserAgent           string
}

// SignIn checks account, password and code (a TOTP code, or an unused
// recovery code, which it spends) and opens a console session. An operator
// whose password is right but who has no TOTP yet gets an Enrolment
// instead (and no session). Every other failure is ErrBadSignIn, alike for
// an unknown account, a wrong password, a user who is no operator and a
// wrong or replayed code.
func (s *Service) SignIn(ctx context.Context, in SignInInput) (SignedIn, *Enrolment, error) {
	if err := s.limitAddress(ctx, in.IP); err != nil {
		return SignedIn{}, nil, err
	}
	u, err := s.users.CheckPassword(ctx, in.Account, in.Password, in.IP)
	if errors.Is(err, account.ErrBadCredentials) {
		return SignedIn{}, nil, ErrBadSignIn
	}
	if err != nil {
		return SignedIn{}, nil, err
	}
	if _, err := roleOf(ctx, s.db, u.ID, ""); errors.Is(err, db.ErrNotFound) {
		slog.WarnContext(ctx, "console sign-in by a user who is no operator", "uid", u.ID, "ip", in.IP)
		return SignedIn{}, nil, ErrBadSignIn
	} else if err != nil {
		return SignedIn{}, nil, err
	}
	sealed, err := sealedSecret(ctx, s.db, u.ID)
	if errors.Is(err, db.ErrNotFound) {
		e, err := s.enrolment(ctx, u)
		return SignedIn{}, e, err
	}
	if err != nil {
		return SignedIn{}, nil, err
	}
	if err := s.codeGate(ctx, u.ID); err != nil {
		return SignedIn{}, nil, err
	}
	var out SignedIn
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		now := s.now()
		method, err := s.spendCode(ctx, tx, u.ID, sealed, in.Code, now)
		if err != nil {
			return err
		}
		role, err := roleOf(ctx, tx, u.ID, tx.ForUpdate())
		if errors.Is(err, db.ErrNotFound) {
			return ErrBadSignIn // removed meanwhile
		}
		if err != nil {
			return err
		}
		out, err = s.openSession(ctx, tx, u.ID, role, in.IP, in.UserAgent, now)
		if err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: audit.Actor{UID: u.ID, IP: in.IP}, Action: "operator.signin",
			TargetType: "operator", TargetID: strconv.FormatInt(u.ID, 10), After: map[string]any{"method": method}}, now)
	})
	if errors.Is(err, ErrCodeWrong) {
		s.codeFailed(ctx, u.ID)
		slog.WarnContext(ctx, "console sign-in with a wrong code", "uid", u.ID, "ip", in.IP)
		return SignedIn{}, nil, ErrBadSignIn
	}
	return out, nil, err
}

// enrolment proposes a fresh TOTP secret to u and keeps it under a ticket.
func (s *Service) enrolment(ctx context.Context, u account.User) (*Enrolment, error) {
	secret, url, err := newTOTP(s.Issuer, u.Account)
	if err != nil {
		return nil, err
	}
	sealed, err := s.keys.sealText(secret)
	if err != nil {
		return nil, err
	}
	tk, th := newToken(ticketPrefix)
	now := s.now().Unix()
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		// Tickets that can no longer be used are of no more use to keep.
		if _, err := tx.Exec(ctx, `DELETE FROM operator_enrol_tickets WHERE uid = ? AND (expires_at <= ? OR used_at <> 0)`, u.ID, now); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO operator_enrol_tickets (ticket_hash, uid, secret, expires_at, created_at) VALUES (?, ?, ?, ?, ?)`,
			th, u.ID, sealed, now+int64(TicketTTL/time.Second), now)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &Enrolment{Ticket: tk, Secret: secret, OTPAuthURL: url}, nil
}

// EnrolInput answers an enrolment ticket with the first code.
type EnrolInput struct {
	Ticket, Code  string
	IP, UserAgent string
}

// Enrol stores the ticket's secret as the operator's TOTP once code shows
// the app has it, issues ten recovery codes and opens a console session.
// A wrong code is ErrCodeWrong (the ticket takes 5); a ticket unknown,
// expired, used, out of tries, or of an operator who enrolled meanwhile is
// ErrTicketInvalid.
func (s *Service) Enrol(ctx context.Context, in EnrolInput) (SignedIn, error) {
	if err := s.limitAddress(ctx, in.IP); err != nil {
		return SignedIn{}, err
	}
	th, ok := tokenHashOf(in.Ticket, ticketPrefix)
	if !ok {
		return SignedIn{}, ErrTicketInvalid
	}
	now := s.now()
	t, err := ticketByHash(ctx, s.db, th)
	if errors.Is(err, db.ErrNotFound) {
		return SignedIn{}, ErrTicketInvalid
	}
	if err != nil {
		return SignedIn{}, err
	}
	if t.UsedAt != 0 || now.Unix() >= t.ExpiresAt || t.Tries >= ticketTries {
		return SignedIn{}, ErrTicketInvalid
	}
	secret, err := s.keys.openText(t.Secret)
	if err != nil {
		return SignedIn{}, err
	}
	st, ok := matchStep(secret, in.Code, now)
	if !ok {
		if _, err := s.db.Exec(ctx, `UPDATE operator_enrol_tickets SET tries = tries + 1 WHERE ticket_hash = ?`, th); err != nil {
			return SignedIn{}, err
		}
		return SignedIn{}, ErrCodeWrong
	}
	codes := make([]string, RecoveryCodes)
	for i := range codes {
		codes[i] = newRecoveryCode()
	}
	var out SignedIn
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE operator_enrol_tickets SET used_at = ? WHERE ticket_hash = ? AND used_at = 0 AND expires_at > ? AND tries < ?`,
			now.Unix(), th, now.Unix(), ticketTries)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return cmpErr(err, ErrTicketInvalid)
		}
		role, err := roleOf(ctx, tx, t.UID, tx.ForUpdate())
		if errors.Is(err, db.ErrNotFound) {
			return ErrTicketInvalid
		}
		if err != nil {
			return err
		}
		if _, err := sealedSecret(ctx, tx, t.UID); err == nil {
			return ErrTicketInvalid // enrolled meanwhile through another ticket
		} else if !errors.Is(err, db.ErrNotFound) {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO operator_totp (uid, secret, last_step, created_at) VALUES (?, ?, ?, ?)`, t.UID, t.Secret, st, now.Unix()); err != nil {
			return err
		}
		if err := s.storeRecoveryCodes(ctx, tx, t.UID, codes, now.Unix()); err != nil {
			return err
		}
		if out, err = s.openSession(ctx, tx, t.UID, role, in.IP, in.UserAgent, now); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: audit.Actor{UID: t.UID, IP: in.IP}, Action: "operator.enrol",
			TargetType: "operator", TargetID: strconv.FormatInt(t.UID, 10)}, now)
	})
	if db.IsUnique(err) {
		return SignedIn{}, ErrTicketInvalid
	}
	if err != nil {
		return SignedIn{}, err
	}
	out.RecoveryCodes = codes
	return out, nil
}

func cmpErr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// storeRecoveryCodes replaces uid's recovery codes with the hashes of codes.
func (s *Service) storeRecoveryCodes(ctx context.Context, tx *db.Tx, uid int64, codes []string, now int64) error {
	if _, err := tx.Exec(ctx, `DELETE FROM operator_recovery_codes WHERE uid = ?`, uid); err != nil {
		return err
	}
	for _, c := range codes {
		h := s.keys.codeHashes(normRecovery(c))[0]
		if _, err := tx.Exec(ctx, `INSERT INTO operator_recovery_codes (uid, code_hash, created_at) VALUES (?, ?, ?)`, uid, h, now); err != nil {
			return err
		}
	}
	return nil
}

// spendCode checks code for uid in tx and uses it up: a TOTP code claims
// its time step (a code of that step or an earlier one is refused from
// then on), a recovery code is marked used. It answers which kind it was,
// or ErrCodeWrong.
func (s *Service) spendCode(ctx context.Context, tx *db.Tx, uid int64, sealed, code string, now time.Time) (string, error) {
	if isTOTPCode(code) {
		secret, err := s.keys.openText(sealed)
		if err != nil {
			return "", err
		}
		st, ok := matchStep(secret, code, now)
		if !ok {
			return "", ErrCodeWrong
		}
		claimed, err := claimStep(ctx, tx, uid, st)
		if err != nil {
			return "", err
		}
		if !claimed {
			return "", fmt.Errorf("%w: the code of step %d or a later one was used before", ErrCodeWrong, st)
		}
		return "totp", nil
	}
	c := normRecovery(code)
	if c == "" {
		return "", ErrCodeWrong
	}
	used, err := useRecoveryCode(ctx, tx, uid, s.keys.codeHashes(c), now.Unix())
	if err != nil {
		return "", err
	}
	if !used {
		return "", ErrCodeWrong
	}
	return "recovery", nil
}

// openSession makes a console session for uid, stepped up (a code was
// just entered).
func (s *Service) openSession(ctx context.Context, tx *db.Tx, uid int64, role httpx.Role, ip, ua string, now time.Time) (SignedIn, error) {
	token, th := newToken(sessionPrefix)
	n := now.Unix()
	exp := n + int64(SessionMax/time.Second)
	_, err := tx.Exec(ctx, `INSERT INTO operator_sessions (token_hash, uid, created_at, last_seen_at, expires_at, step_up_until, ip, user_agent)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, th, uid, n, n, exp, n+int64(StepUpFor/time.Second), clip(ip, 64), clip(ua, 256))
	if err != nil {
		return SignedIn{}, err
	}
	return SignedIn{Token: token, ExpiresAt: time.Unix(exp, 0).UTC(), Role: role, UID: uid}, nil
}

// Authenticate resolves a bearer token to its caller: a live console
// session (its last request moves its idle end) or a live API key. Anything
// else, a phone-app token included, is ErrSessionInvalid.
func (s *Service) Authenticate(ctx context.Context, token string) (Caller, error) {
	if strings.HasPrefix(token, keyPrefix) {
		return s.authenticateKey(ctx, token)
	}
	th, ok := tokenHashOf(token, sessionPrefix)
	if !ok {
		return Caller{}, fmt.Errorf("%w: not a console token", ErrSessionInvalid)
	}
	sess, err := sessionByHash(ctx, s.db, th)
	if errors.Is(err, db.ErrNotFound) {
		return Caller{}, fmt.Errorf("%w: unknown, or its operator is gone", ErrSessionInvalid)
	}
	if err != nil {
		return Caller{}, err
	}
	now := s.now().Unix()
	idle := int64(IdleTimeout / time.Second)
	switch {
	case sess.RevokedAt != 0:
		return Caller{}, fmt.Errorf("%w: revoked", ErrSessionInvalid)
	case now >= sess.ExpiresAt:
		return Caller{}, fmt.Errorf("%w: past its %v", ErrSessionInvalid, SessionMax)
	case now >= sess.LastSeenAt+idle:
		return Caller{}, fmt.Errorf("%w: idle for %v", ErrSessionInvalid, IdleTimeout)
	}
	if now > sess.LastSeenAt {
		// A failed touch only shortens this session's idle end; the token
		// is still valid now, so the request goes on.
		if _, err := s.db.Exec(ctx, `UPDATE operator_sessions SET last_seen_at = ? WHERE id = ? AND last_seen_at < ?`, now, sess.ID, now); err != nil {
			slog.WarnContext(ctx, "console session touch failed", "session", sess.ID, "err", err)
		} else {
			sess.LastSeenAt = now
		}
	}
	return Caller{UID: sess.UID, Role: sess.Role, SessionID: sess.ID, ExpiresAt: sess.ExpiresAt,
		IdleExpiresAt: min(sess.ExpiresAt, sess.LastSeenAt+idle), StepUpUntil: sess.StepUpUntil}, nil
}

// SignOut ends the caller's console session.
func (s *Service) SignOut(ctx context.Context, actor audit.Actor, c Caller) error {
	now := s.now()
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE operator_sessions SET revoked_at = ? WHERE id = ? AND revoked_at = 0`, now.Unix(), c.SessionID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return cmpErr(err, ErrSessionInvalid)
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "operator.signout", TargetType: "operator_session",
			TargetID: strconv.FormatInt(c.SessionID, 10)}, now)
	})
}

// StepUp checks a fresh code (TOTP or recovery) of the caller and lets
// step-up routes through for StepUpFor; it answers the new end.
func (s *Service) StepUp(ctx context.Context, actor audit.Actor, c Caller, code string) (time.Time, error) {
	if err := s.codeGate(ctx, c.UID); err != nil {
		return time.Time{}, err
	}
	sealed, err := sealedSecret(ctx, s.db, c.UID)
	if err != nil {
		return time.Time{}, err
	}
	now := s.now()
	until := now.Add(StepUpFor)
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		method, err := s.spendCode(ctx, tx, c.UID, sealed, code, now)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE operator_sessions SET step_up_until = ? WHERE id = ?`, until.Unix(), c.SessionID); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "operator.stepup", TargetType: "operator_session",
			TargetID: strconv.FormatInt(c.SessionID, 10), After: map[string]any{"method": method}}, now)
	})
	if errors.Is(err, ErrCodeWrong) {
		s.codeFailed(ctx, c.UID)
	}
	if err != nil {
		return time.Time{}, err
	}
	return until.UTC(), nil
}

// limitAddress counts one sign-in attempt from ip.
func (s *Service) limitAddress(ctx context.Context, ip string) error {
	err := ratelimit.Enforce(ctx, s.limiter, "oplogin:ip:"+clip(ip, 64), s.Limits.SignInPerIP.N, s.Limits.SignInPerIP.Per, ratelimit.FailOpen)
	if errors.Is(err, ratelimit.ErrLimited) {
		return fmt.Errorf("%w: %w", ErrTooMany, err)
	}
	return err
}

func codeKey(uid int64) string { return "opcode:fail:" + strconv.FormatInt(uid, 10) }

// codeGate refuses uid's codes while its wrong codes are over the limit.
// It fails closed: codes are short, so an outage of the limiter must not
// open an unlimited window for guessing.
func (s *Service) codeGate(ctx context.Context, uid int64) error {
	cs, err := s.limiter.Peek(ctx, codeKey(uid))
	if err != nil {
		return fmt.Errorf("%w: %w", ratelimit.ErrUnavailable, err)
	}
	if cs[0].N >= int64(s.Limits.CodeFailures.N) {
		return fmt.Errorf("%w: %w", ErrTooMany, &ratelimit.LimitedError{Key: codeKey(uid), RetryAfter: cs[0].TTL})
	}
	return nil
}

func (s *Service) codeFailed(ctx context.Context, uid int64) {
	if _, err := s.limiter.Incr(ctx, codeKey(uid), s.Limits.CodeFailures.Per); err != nil {
		slog.WarnContext(ctx, "rate limiter unavailable, wrong code not counted", "uid", uid, "err", err)
	}
}

// clip bounds text a client sends (addresses, user agents) at a byte
// length on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
