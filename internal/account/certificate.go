package account

// The account certificate (mine/accountcode): a credential the user keeps
// as a QR picture in Photos and later uploads, or opens as a link, to sign
// in to the same account on another device. For a guest, who has no
// password, it is the only way to keep the account on a new phone; for a
// registered user it stands beside the password. Holding it is enough to
// sign in, so the page says to keep it private, and a reset revokes it.
//
// The credential (qrCnt) is 43 base64url characters:
//
//	qrCnt = base64url_nopad(HMAC-SHA256(certKey, "prima-cert-v1\n" + uid + "\n" + seed))
//	certKey = HMAC-SHA256(server secret, "prima-account-certificate")
//
// The table keeps seed and SHA-256(qrCnt): a login looks the hash up, so
// checking needs no key and a leaked database holds no credential (nor can
// it make one without the server secret). Showing the certificate again
// recomputes qrCnt from seed, so a saved picture stays valid until the user
// resets it; after a secret rotation the previous secret still recomputes
// it (Config.SecretPrevious), and once no key does, the next GET issues a
// fresh certificate in its place.

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// ErrCertificateInvalid: a certificate that is malformed, unknown,
// revoked or another user's. One error for all, answered 401 like a wrong
// password, so a caller learns nothing about which it was.
var ErrCertificateInvalid = errors.New("account certificate invalid")

// ErrCertificateOperator: operators sign in with their password only. A
// picture in a camera roll is too easy to lose for a key to /api/admin
// (403); a certificate issued before a promotion stops signing in.
var ErrCertificateOperator = errors.New("operators have no account certificate")

// CertLimits bound certificate logins and QR extraction per address. The
// credential has 256 bits, so the limits are not what stops a guesser;
// they bound the work (QR decoding is CPU-heavy) and the noise.
type CertLimits struct {
	// LoginPerIP counts every certificate login and extraction check.
	LoginPerIP Rate
	// FailPerIP counts refused certificates; past it the address waits.
	FailPerIP Rate
	// ExtractPerIP counts uploaded pictures (each one decoded).
	ExtractPerIP Rate
}

// DefaultCertLimits suit a person trying a few pictures.
var DefaultCertLimits = CertLimits{
	LoginPerIP:   Rate{30, time.Minute},
	FailPerIP:    Rate{10, 10 * time.Minute},
	ExtractPerIP: Rate{20, time.Minute},
}

const (
	certLabel  = "prima-cert-v1\n"
	certBytes  = 32
	seedBytes  = 16
	qrCntChars = 43 // base64url of certBytes, no padding
)

// CertKey derives the certificate key from a server secret, so that the
// secret itself never signs anything but its own purpose.
func CertKey(secret string) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("prima-account-certificate"))
	return m.Sum(nil)
}

// SetCertificateSecret gives the service the secret that derives
// certificates and the previous ones still able to show old ones.
func (s *Service) SetCertificateSecret(secret string, previous ...string) {
	s.certKeys = nil
	for _, sec := range append([]string{secret}, previous...) {
		if sec != "" {
			s.certKeys = append(s.certKeys, CertKey(sec))
		}
	}
}

func (s *Service) certLimits() CertLimits {
	if s.CertLimits == (CertLimits{}) {
		return DefaultCertLimits
	}
	return s.CertLimits
}

// Certificate is a user's live certificate as the owner sees it.
type Certificate struct {
	UID       int64     `json:"uid"`
	QrCnt     string    `json:"qrCnt"`
	CreatedAt time.Time `json:"createdAt"`
}

type certRow struct {
	ID        int64
	UserID    int64
	Seed      string
	Hash      string
	CreatedAt int64
	RevokedAt int64
}

func deriveCert(key []byte, uid int64, seed string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(certLabel + strconv.FormatInt(uid, 10) + "\n" + seed))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// certHash is the stored hash of qrCnt, or false when qrCnt cannot be one
// of ours (wrong length or alphabet), which spares the database a lookup.
func certHash(qrCnt string) (string, bool) {
	if len(qrCnt) != qrCntChars {
		return "", false
	}
	if _, err := base64.RawURLEncoding.DecodeString(qrCnt); err != nil {
		return "", false
	}
	sum := sha256.Sum256([]byte(qrCnt))
	return hex.EncodeToString(sum[:]), true
}

// Certificate returns uid's live certificate, issuing one the first time.
// Calling it again answers the same credential, so a saved picture keeps
// working; only ResetCertificate replaces it.
func (s *Service) Certificate(ctx context.Context, uid int64) (Certificate, error) {
	if len(s.certKeys) == 0 {
		return Certificate{}, errors.New("account certificates: no secret configured")
	}
	u, err := userByID(ctx, s.db, uid)
	if err != nil {
		return Certificate{}, err
	}
	if u.Role == httpx.RoleOperator {
		return Certificate{}, ErrCertificateOperator
	}
	row, err := liveCert(ctx, s.db, uid)
	if err == nil {
		if c, ok := s.showCert(row); ok {
			return c, nil
		}
		// No key recomputes it any more (the secret was rotated twice):
		// it still signs in, but cannot be shown, so a new one replaces it.
		slog.WarnContext(ctx, "account certificate not derivable with current keys, reissuing", "uid", uid)
		return s.issueCert(ctx, uid, true)
	}
	if !errors.Is(err, db.ErrNotFound) {
		return Certificate{}, err
	}
	return s.issueCert(ctx, uid, false)
}

// ResetCertificate revokes uid's live certificate, if any, and issues a
// new one: every saved picture and link of the old one stops working.
func (s *Service) ResetCertificate(ctx context.Context, uid int64) (Certificate, error) {
	if len(s.certKeys) == 0 {
		return Certificate{}, errors.New("account certificates: no secret configured")
	}
	return s.issueCert(ctx, uid, true)
}

// showCert recomputes row's credential with the first key whose result
// matches the stored hash.
func (s *Service) showCert(row certRow) (Certificate, bool) {
	for _, k := range s.certKeys {
		q := deriveCert(k, row.UserID, row.Seed)
		if h, _ := certHash(q); subtle.ConstantTimeCompare([]byte(h), []byte(row.Hash)) == 1 {
			return Certificate{UID: row.UserID, QrCnt: q, CreatedAt: time.Unix(row.CreatedAt, 0).UTC()}, true
		}
	}
	return Certificate{}, false
}

// issueCert stores a new certificate for uid, revoking the live one when
// replace is set. The user's row lock makes parallel calls take turns, so
// two first GETs issue one certificate (the second finds the first's) and
// two resets leave exactly one live; the partial unique index on live
// certificates holds the rule even so.
func (s *Service) issueCert(ctx context.Context, uid int64, replace bool) (Certificate, error) {
	var out Certificate
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		u, err := lockUser(ctx, tx, uid)
		if err != nil {
			return err
		}
		if u.Role == httpx.RoleOperator {
			return ErrCertificateOperator
		}
		now := s.now().Unix()
		if replace {
			if err := revokeCerts(ctx, tx, uid, now); err != nil {
				return err
			}
		} else if row, err := liveCert(ctx, tx, uid); err == nil {
			if c, ok := s.showCert(row); ok {
				out = c
				return nil
			}
			if err := revokeCerts(ctx, tx, uid, now); err != nil {
				return err
			}
		} else if !errors.Is(err, db.ErrNotFound) {
			return err
		}
		raw := make([]byte, seedBytes)
		_, _ = rand.Read(raw)
		seed := hex.EncodeToString(raw)
		q := deriveCert(s.certKeys[0], uid, seed)
		h, _ := certHash(q)
		if err := insertCert(ctx, tx, uid, seed, h, now); err != nil {
			return err
		}
		out = Certificate{UID: uid, QrCnt: q, CreatedAt: time.Unix(now, 0).UTC()}
		return nil
	})
	if err != nil {
		return Certificate{}, fmt.Errorf("issue certificate: %w", err)
	}
	return out, nil
}

// CertLoginInput is a certificate login: POST mine/login without a token,
// with qrCnt and uid beside the guest login's fields.
type CertLoginInput struct {
	DevID    string
	SysType  string
	CutInfos string
	QrCnt    string
	UID      int64
	IP       string
	Device   string // what the devices list calls it (DeviceLabel)
}

// CertificateLogin checks the certificate and opens a session of its user
// on the device, binding the device to that user (a device bound to
// someone else, say the guest it was before, is handed over, as a guest
// login does when a device's account gets a password).
func (s *Service) CertificateLogin(ctx context.Context, in CertLoginInput) (Login, error) {
	if err := checkDevID(in.DevID); err != nil {
		return Login{}, err
	}
	if err := checkSysType(in.SysType, true); err != nil {
		return Login{}, err
	}
	if n := utf8.RuneCountInString(in.CutInfos); n > maxCutInfos || !utf8.ValidString(in.CutInfos) {
		return Login{}, invalid("cutInfos", "邀请信息过长", fmt.Sprintf("cutInfos is %d characters, at most %d", n, maxCutInfos))
	}
	if in.UID <= 0 {
		return Login{}, invalid("uid", "缺少账号ID", "uid is required with qrCnt")
	}
	if err := s.certGate(ctx, in.IP); err != nil {
		return Login{}, err
	}
	hash, ok := certHash(in.QrCnt)
	if !ok {
		s.certFailed(ctx, in.IP)
		return Login{}, ErrCertificateInvalid
	}
	token, th := newToken()
	now := s.now().Unix()
	var out Login
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		row, err := certByHash(ctx, tx, hash)
		if errors.Is(err, db.ErrNotFound) {
			return ErrCertificateInvalid
		}
		if err != nil {
			return err
		}
		if row.RevokedAt != 0 || row.UserID != in.UID {
			return ErrCertificateInvalid
		}
		uid := row.UserID
		u, err := userByID(ctx, tx, uid)
		if err != nil {
			return err
		}
		if u.Role == httpx.RoleOperator {
			return ErrCertificateInvalid
		}
		owner, _, err := deviceUser(ctx, tx, in.DevID)
		switch {
		case errors.Is(err, db.ErrNotFound):
			err = insertDevice(ctx, tx, in.DevID, uid, in.SysType, in.CutInfos, now)
		case err != nil:
		case owner == uid:
			err = touchDevice(ctx, tx, in.DevID, in.SysType, now)
		default:
			err = rebindDevice(ctx, tx, in.DevID, uid, now)
		}
		if err != nil {
			return err
		}
		if err := insertSession(ctx, tx, newSession(th, uid, in.DevID, now).from(in.SysType, in.Device)); err != nil {
			return err
		}
		if err := touchCert(ctx, tx, row.ID, now); err != nil {
			return err
		}
		out = Login{Token: token, User: u}
		return nil
	})
	if errors.Is(err, ErrCertificateInvalid) {
		s.certFailed(ctx, in.IP)
		return Login{}, err
	}
	if err != nil {
		return Login{}, fmt.Errorf("certificate login: %w", err)
	}
	return out, nil
}

// CheckCertificate says whether qrCnt is uid's live certificate without
// signing in (the extraction step, so the page can show whose account it
// is before the user confirms). It counts like a login attempt.
func (s *Service) CheckCertificate(ctx context.Context, uid int64, qrCnt, ip string) error {
	if err := s.certGate(ctx, ip); err != nil {
		return err
	}
	hash, ok := certHash(qrCnt)
	if ok && uid > 0 {
		row, err := certByHash(ctx, s.db, hash)
		if err != nil && !errors.Is(err, db.ErrNotFound) {
			return err
		}
		if err == nil && row.RevokedAt == 0 && row.UserID == uid {
			return nil
		}
	}
	s.certFailed(ctx, ip)
	return ErrCertificateInvalid
}

// LimitExtract counts one uploaded picture from ip.
func (s *Service) LimitExtract(ctx context.Context, ip string) error {
	return s.limit(ctx, "certificate", "cert:extract:ip:"+clipIP(ip), s.certLimits().ExtractPerIP)
}

// certGate counts an attempt and refuses an address over its failures.
// Like the password limits it fails open when the limiter is down.
func (s *Service) certGate(ctx context.Context, ip string) error {
	l := s.certLimits()
	ip = clipIP(ip)
	if err := s.limit(ctx, "certificate", "cert:ip:"+ip, l.LoginPerIP); err != nil {
		return err
	}
	cs, err := s.limiter.Peek(ctx, "cert:fail:ip:"+ip)
	if err != nil {
		slog.WarnContext(ctx, "rate limiter unavailable, allowing certificate check", "err", err)
		return nil
	}
	if cs[0].N >= int64(l.FailPerIP.N) {
		return &RateLimitError{What: "certificate", RetryAfter: cs[0].TTL}
	}
	return nil
}

func (s *Service) certFailed(ctx context.Context, ip string) {
	if _, err := s.limiter.Incr(ctx, "cert:fail:ip:"+clipIP(ip), s.certLimits().FailPerIP.Per); err != nil {
		slog.WarnContext(ctx, "rate limiter unavailable, certificate failure not counted", "err", err)
	}
}

// clipIP bounds a limiter key built from an address a proxy sent.
func clipIP(ip string) string {
	if len(ip) > 64 {
		return ip[:64]
	}
	return ip
}

// ParseCertificateLink reads the content of a certificate QR code: the
// link the web app encodes, {origin}/mine/login#uid=<uid>&qrCnt=<qrCnt>
// (the credential rides in the fragment, which browsers never send to a
// server or put in a Referer), or the same with a query string instead.
// Any origin is accepted: the app may run on several lines, and the
// credential, not the host, is what is checked. ok is false for anything
// else, including a well-formed link whose values cannot be ours.
func ParseCertificateLink(content string) (uid int64, qrCnt string, ok bool) {
	u, err := url.Parse(strings.TrimSpace(content))
	if err != nil || !strings.HasSuffix(strings.TrimSuffix(u.Path, "/"), "/mine/login") {
		return 0, "", false
	}
	for _, raw := range []string{u.Fragment, u.RawQuery} {
		v, err := url.ParseQuery(raw)
		if err != nil {
			continue
		}
		q := v.Get("qrCnt")
		id, err := strconv.ParseInt(v.Get("uid"), 10, 64)
		if _, well := certHash(q); well && err == nil && id > 0 {
			return id, q, true
		}
	}
	return 0, "", false
}

// Store.

func liveCert(ctx context.Context, q db.Querier, uid int64) (certRow, error) {
	var c certRow
	err := q.QueryRow(ctx, `SELECT id, user_id, seed, hash, created_at, revoked_at FROM account_certificates WHERE user_id = ? AND revoked_at = 0`, uid).
		Scan(&c.ID, &c.UserID, &c.Seed, &c.Hash, &c.CreatedAt, &c.RevokedAt)
	return c, db.NotFound(err)
}

func certByHash(ctx context.Context, q db.Querier, hash string) (certRow, error) {
	var c certRow
	err := q.QueryRow(ctx, `SELECT id, user_id, seed, hash, created_at, revoked_at FROM account_certificates WHERE hash = ?`, hash).
		Scan(&c.ID, &c.UserID, &c.Seed, &c.Hash, &c.CreatedAt, &c.RevokedAt)
	return c, db.NotFound(err)
}

func insertCert(ctx context.Context, q db.Querier, uid int64, seed, hash string, now int64) error {
	_, err := q.Exec(ctx, `INSERT INTO account_certificates (user_id, seed, hash, created_at) VALUES (?, ?, ?, ?)`, uid, seed, hash, now)
	return err
}

func revokeCerts(ctx context.Context, q db.Querier, uid, now int64) error {
	_, err := q.Exec(ctx, `UPDATE account_certificates SET revoked_at = ? WHERE user_id = ? AND revoked_at = 0`, now, uid)
	return err
}

func touchCert(ctx context.Context, q db.Querier, id, now int64) error {
	_, err := q.Exec(ctx, `UPDATE account_certificates SET last_used_at = ? WHERE id = ?`, now, id)
	return err
}
