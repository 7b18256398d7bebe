package account

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	"strings"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// SMS codes: 6 digits, valid CodeTTL, used once, dead after CodeTries
// wrong guesses. With 5 tries a guesser's chance per code is 5 in a
// million, and a number gets a new code at most once a minute and
// SMSLimits.PerMobile times in a window.
const (
	CodeTTL      = 5 * time.Minute
	CodeTries    = 5
	CodeCooldown = time.Minute
	codeDigits   = 6
)

// Code purposes: a code asked for one call cannot be spent on another.
const (
	PurposeBind   = "bind"   // bind or change the caller's phone (signed-in, registered)
	PurposeForget = "forget" // reset a forgotten password (anonymous)
	PurposePwd    = "pwd"    // change the password with the bound phone instead of the old password
)

// SMSLimits bound what sending codes costs: SMS gateways charge per
// message and a number can be flooded. They fail closed: with the limiter
// down no code is sent (503).
type SMSLimits struct {
	PerMobile Rate // codes sent to one number
	PerIP     Rate // codes asked for from one address, over all numbers
}

// DefaultSMSLimits: 5 codes an hour to a number, 20 an hour from an address.
var DefaultSMSLimits = SMSLimits{PerMobile: Rate{5, time.Hour}, PerIP: Rate{20, time.Hour}}

var (
	// ErrCodeInvalid: a wrong, expired, used or dead code (422); the error
	// is a *CodeError whose Tip says which.
	ErrCodeInvalid = errors.New("sms code invalid")
	// ErrMobileTaken: the number is bound to another user (409).
	ErrMobileTaken = errors.New("mobile bound to another user")
	// ErrMobileSame: the number is already the caller's (409).
	ErrMobileSame = errors.New("mobile already bound to this user")
	// ErrNotYours: the call names another user (403).
	ErrNotYours = errors.New("not the caller's own user")
	// ErrUnavailable: a fail-closed limiter could not answer (503).
	ErrUnavailable = errors.New("service unavailable")
)

// CodeError says why a code was refused; it matches ErrCodeInvalid.
type CodeError struct{ Reason, Tip string }

func (e *CodeError) Error() string        { return "sms code " + e.Reason }
func (e *CodeError) Is(target error) bool { return target == ErrCodeInvalid }

var (
	errCodeWrong   = &CodeError{"wrong", "验证码错误"}
	errCodeExpired = &CodeError{"expired", "验证码已过期，请重新获取"}
	errCodeUsed    = &CodeError{"used", "验证码已使用，请重新获取"}
	errCodeDead    = &CodeError{"dead", "验证码错误次数过多，请重新获取"}
)

// NormalizeMobile accepts a mainland mobile number, 1[3-9] and 9 more
// digits, optionally written with the +86 country code, and returns its
// 11 digits, the form stored and sent to. Anything else (spaces, other
// countries, landlines) is refused rather than guessed at.
func NormalizeMobile(m string) (string, error) {
	m = strings.TrimPrefix(m, "+86")
	ok := len(m) == 11 && m[0] == '1' && m[1] >= '3' && m[1] <= '9'
	for i := 0; ok && i < len(m); i++ {
		ok = m[i] >= '0' && m[i] <= '9'
	}
	if !ok {
		if m == "" {
			return "", invalid("mobile", "请输入手机号", "mobile is required")
		}
		return "", invalid("mobile", "手机号格式不正确", "mobile must be a mainland number: 1[3-9] and 9 digits, optionally +86")
	}
	return m, nil
}

// MaskMobile shows the first three and last four digits: 138****0000.
func MaskMobile(m string) string {
	if len(m) != 11 {
		return ""
	}
	return m[:3] + "****" + m[7:]
}

func checkCode(code string) error {
	ok := len(code) == codeDigits
	for i := 0; ok && i < len(code); i++ {
		ok = code[i] >= '0' && code[i] <= '9'
	}
	if !ok {
		if code == "" {
			return invalid("code", "请输入验证码", "code is required")
		}
		return invalid("code", "验证码为6位数字", "code must be 6 digits")
	}
	return nil
}

func checkPurpose(p string) error {
	switch p {
	case PurposeBind, PurposeForget, PurposePwd:
		return nil
	}
	return invalid("purpose", "验证码用途无效", "purpose "+httpx.Echo(p)+" is not bind, forget or pwd")
}

// CodeRequest is POST /api/app/sms/captcha. UID is the caller (0 when
// anonymous); bind and pwd codes need a registered caller.
type CodeRequest struct {
	Mobile  string
	Type    int
	Purpose string
	UID     int64
	IP      string
}

// RequestCode sends a new code for the number and purpose, replacing any
// earlier one. A forget code for a number no user has bound is not sent,
// and the reply is the same as when it is: the call does not tell who
// has an account.
func (s *Service) RequestCode(ctx context.Context, in CodeRequest) error {
	if in.Type != 1 {
		return invalid("type", "验证码类型无效", fmt.Sprintf("type %d is not 1 (SMS)", in.Type))
	}
	if in.Purpose == "" {
		in.Purpose = PurposeBind
	}
	if err := checkPurpose(in.Purpose); err != nil {
		return err
	}
	mobile, err := NormalizeMobile(in.Mobile)
	if err != nil {
		return err
	}
	send := true
	switch in.Purpose {
	case PurposeBind, PurposePwd:
		if in.UID == 0 {
			return ErrSessionInvalid
		}
		u, err := userByID(ctx, s.db, in.UID)
		if err != nil {
			return err
		}
		if u.IsGuest() {
			return ErrNotRegistered
		}
		if in.Purpose == PurposePwd && u.Mobile != mobile {
			return invalid("mobile", "请使用已绑定的手机号", "a pwd code goes to the caller's bound mobile only")
		}
	case PurposeForget:
		if _, err := userByMobile(ctx, s.db, mobile); errors.Is(err, db.ErrNotFound) {
			send = false
		} else if err != nil {
			return err
		}
	}
	lim := s.SMSLimits
	if err := s.limitClosed(ctx, "sms", "sms:ip:"+in.IP, lim.PerIP); err != nil {
		return err
	}
	// The cooldown is per number and purpose (a code to bind does not hold
	// up a forget code a minute later); the hourly cap is per number.
	if err := s.limitClosed(ctx, "sms", "sms:cool:"+in.Purpose+":"+mobile, Rate{1, CodeCooldown}); err != nil {
		return err
	}
	if err := s.limitClosed(ctx, "sms", "sms:mobile:"+mobile, lim.PerMobile); err != nil {
		return err
	}
	if !send {
		return nil
	}
	code := newCode()
	now := s.now().Unix()
	_, err = s.db.Exec(ctx, `INSERT INTO sms_codes (mobile, purpose, code_hash, created_at, expires_at, tries, used_at) VALUES (?, ?, ?, ?, ?, 0, 0)
		ON CONFLICT (mobile, purpose) DO UPDATE SET code_hash = excluded.code_hash, created_at = excluded.created_at,
		expires_at = excluded.expires_at, tries = 0, used_at = 0`,
		mobile, in.Purpose, s.codeHash(mobile, in.Purpose, code), now, now+int64(CodeTTL/time.Second))
	if err != nil {
		return fmt.Errorf("store sms code: %w", err)
	}
	if s.SMS == nil {
		return errors.New("account: no SMS provider configured")
	}
	text := fmt.Sprintf("【Prima】验证码 %s，%d分钟内有效，请勿告诉他人。", code, int(CodeTTL/time.Minute))
	if err := s.SMS.Send(ctx, mobile, text); err != nil {
		return fmt.Errorf("send sms: %w", err)
	}
	return nil
}

// newCode is a uniformly random 6-digit code.
func newCode() string {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		panic(err) // crypto/rand does not fail (Go 1.24+)
	}
	return fmt.Sprintf("%06d", n.Int64())
}

// codeHash is an HMAC of the code under the service's key, bound to the
// number and purpose: a leaked table cannot be reversed by trying the
// million codes without the key, and a row cannot be moved to another
// number or purpose.
func (s *Service) codeHash(mobile, purpose, code string) string {
	m := hmac.New(sha256.New, s.codeKey())
	m.Write([]byte(mobile + "\x00" + purpose + "\x00" + code))
	return hex.EncodeToString(m.Sum(nil))
}

func (s *Service) codeKey() []byte {
	s.codeKeyOnce.Do(func() {
		if len(s.CodeKey) == 0 {
			// No configured key: one for this process. Codes then only
			// verify on the node that sent them, which is fine for one
			// node; internal/app always sets the install's secret.
			s.CodeKey = make([]byte, 32)
			_, _ = rand.Read(s.CodeKey)
		}
	})
	return s.CodeKey
}

// useCode checks code against the live code of (mobile, purpose) and
// spends it, inside tx. Every check counts one try, whatever the outcome,
// so the tries must be kept even when the code is wrong: withCode commits
// them.
func (s *Service) useCode(ctx context.Context, tx *db.Tx, mobile, purpose, code string) error {
	var (
		hash                   string
		expires, usedAt, tries int64
	)
	err := tx.QueryRow(ctx, `SELECT code_hash, expires_at, used_at, tries FROM sms_codes WHERE mobile = ? AND purpose = ?`+tx.ForUpdate(),
		mobile, purpose).Scan(&hash, &expires, &usedAt, &tries)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return errCodeWrong
	}
	if err != nil {
		return err
	}
	now := s.now().Unix()
	switch {
	case usedAt != 0:
		return errCodeUsed
	case tries >= CodeTries:
		return errCodeDead
	case now >= expires:
		return errCodeExpired
	}
	want, _ := hex.DecodeString(hash)
	got, _ := hex.DecodeString(s.codeHash(mobile, purpose, code))
	if !hmac.Equal(want, got) {
		if _, err := tx.Exec(ctx, `UPDATE sms_codes SET tries = tries + 1 WHERE mobile = ? AND purpose = ?`, mobile, purpose); err != nil {
			return err
		}
		if tries+1 >= CodeTries {
			return errCodeDead
		}
		return errCodeWrong
	}
	_, err = tx.Exec(ctx, `UPDATE sms_codes SET tries = tries + 1, used_at = ? WHERE mobile = ? AND purpose = ?`, now, mobile, purpose)
	return err
}

// withCode spends the code, then runs fn in the same transaction. A
// refused code still commits its counted try; a failing fn rolls both
// back, so a code is only used up by a call that did what it asked.
func (s *Service) withCode(ctx context.Context, mobile, purpose, code string, fn func(context.Context, *db.Tx) error) error {
	var refused error
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := s.useCode(ctx, tx, mobile, purpose, code); err != nil {
			if errors.Is(err, ErrCodeInvalid) {
				refused = err
				return nil
			}
			return err
		}
		return fn(ctx, tx)
	})
	if err != nil {
		return err
	}
	return refused
}

// limitClosed counts one attempt under key, refusing when the limiter
// cannot answer (ErrUnavailable): sending codes costs money and floods
// phones, so an outage must not open the gate.
func (s *Service) limitClosed(ctx context.Context, what, key string, r Rate) error {
	err := ratelimit.Enforce(ctx, s.limiter, key, r.N, r.Per, ratelimit.FailClosed)
	var le *ratelimit.LimitedError
	switch {
	case errors.As(err, &le):
		return &RateLimitError{What: what, RetryAfter: le.RetryAfter}
	case errors.Is(err, ratelimit.ErrUnavailable):
		slog.WarnContext(ctx, "limiter down, refusing", "what", what, "err", err)
		return fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	return err
}
