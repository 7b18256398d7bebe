package operator

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
)

// Keys derived from the install secret (PRIMA_SECRET) and the one before a
// rotation (PRIMA_SECRET_PREVIOUS): a sealed TOTP secret or a recovery
// code's hash made under the previous secret still opens, so rotating the
// install secret does not lock operators out.
type keys struct {
	seal [][]byte // AES-256-GCM keys of TOTP secrets, current first
	code [][]byte // HMAC-SHA256 keys of recovery codes, current first
}

func deriveKeys(secrets ...string) keys {
	var k keys
	for _, s := range secrets {
		if s == "" {
			continue
		}
		seal := sha256.Sum256([]byte("prima operator totp seal\x00" + s))
		code := sha256.Sum256([]byte("prima operator recovery code\x00" + s))
		k.seal = append(k.seal, seal[:])
		k.code = append(k.code, code[:])
	}
	return k
}

var errUnseal = errors.New("operator: sealed secret does not open with any key")

// seal encrypts plain with the current key: base64(nonce | ciphertext).
func (k keys) sealText(plain string) (string, error) {
	g, err := gcm(k.seal[0])
	if err != nil {
		return "", err
	}
	nonce := make([]byte, g.NonceSize())
	_, _ = rand.Read(nonce)
	return base64.RawStdEncoding.EncodeToString(g.Seal(nonce, nonce, []byte(plain), nil)), nil
}

// open decrypts what seal made, with any key.
func (k keys) openText(sealed string) (string, error) {
	raw, err := base64.RawStdEncoding.DecodeString(sealed)
	if err != nil {
		return "", errUnseal
	}
	for _, key := range k.seal {
		g, err := gcm(key)
		if err != nil {
			return "", err
		}
		if len(raw) < g.NonceSize() {
			return "", errUnseal
		}
		if plain, err := g.Open(nil, raw[:g.NonceSize()], raw[g.NonceSize():], nil); err == nil {
			return string(plain), nil
		}
	}
	return "", errUnseal
}

func gcm(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(b)
}

// codeHashes are the stored forms a recovery code may have: its HMAC under
// each key, current first.
func (k keys) codeHashes(code string) []any {
	out := make([]any, 0, len(k.code))
	for _, key := range k.code {
		m := hmac.New(sha256.New, key)
		m.Write([]byte(code))
		out = append(out, hex.EncodeToString(m.Sum(nil)))
	}
	return out
}

// TOTP: RFC 6238 with SHA-1, 6 digits and 30-second steps, what every
// authenticator app reads from an otpauth:// URL.
const (
	totpPeriod = 30
	totpDigits = otp.DigitsSix
)

var totpOpts = totp.ValidateOpts{Period: totpPeriod, Digits: totpDigits, Algorithm: otp.AlgorithmSHA1}

// newTOTP makes a secret (160 bits, base32) and its otpauth:// URL naming
// the operator's account under issuer.
func newTOTP(issuer, account string) (secret, url string, err error) {
	key, err := totp.Generate(totp.GenerateOpts{Issuer: issuer, AccountName: account, Period: totpPeriod,
		SecretSize: 20, Digits: totpDigits, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return "", "", err
	}
	return key.Secret(), key.URL(), nil
}

// Code is the TOTP code of secret at t (tests and `prima admin totp-code`
// compute what an authenticator app shows).
func Code(secret string, t time.Time) (string, error) {
	return totp.GenerateCodeCustom(secret, t, totpOpts)
}

// step is the TOTP time step of t.
func step(t time.Time) int64 { return t.Unix() / totpPeriod }

// matchStep finds the step, among the one of now and its two neighbours
// (a phone's clock a little off, a code typed as it turned), whose code is
// code. ok is false when none is.
func matchStep(secret, code string, now time.Time) (int64, bool) {
	if !isTOTPCode(code) {
		return 0, false
	}
	found, at := false, int64(0)
	for _, d := range []int64{-1, 0, 1} {
		s := step(now) + d
		want, err := Code(secret, time.Unix(s*totpPeriod, 0))
		if err != nil {
			return 0, false
		}
		// Compare all three in constant time, so the time says nothing.
		if hmac.Equal([]byte(want), []byte(code)) && !found {
			found, at = true, s
		}
	}
	return at, found
}

// isTOTPCode reports whether code has the shape of a TOTP code: 6 digits.
func isTOTPCode(code string) bool {
	if len(code) != 6 {
		return false
	}
	for i := 0; i < len(code); i++ {
		if code[i] < '0' || code[i] > '9' {
			return false
		}
	}
	return true
}

// Recovery codes: 8 characters of lower-case base32 (a-z, 2-7; 40 bits)
// shown as xxxx-xxxx.
const recoveryLen = 8

func newRecoveryCode() string {
	c := strings.ToLower(rand.Text()[:recoveryLen])
	return c[:4] + "-" + c[4:]
}

// normRecovery is code as stored (lower case, no dash or spaces), or ""
// when it cannot be a recovery code.
func normRecovery(code string) string {
	c := strings.ToLower(strings.NewReplacer("-", "", " ", "").Replace(strings.TrimSpace(code)))
	if len(c) != recoveryLen {
		return ""
	}
	for i := 0; i < len(c); i++ {
		if !(c[i] >= 'a' && c[i] <= 'z') && !(c[i] >= '2' && c[i] <= '7') {
			return ""
		}
	}
	return c
}

// Tokens: console sessions "pc_" and API keys "pk_", each followed by 32
// random bytes in base64url. Only their SHA-256 is stored.
const (
	sessionPrefix = "pc_"
	keyPrefix     = "pk_"
	tokenBytes    = 32
)

var tokenEncoding = base64.RawURLEncoding

func newToken(prefix string) (token, hash string) {
	raw := make([]byte, tokenBytes)
	_, _ = rand.Read(raw)
	token = prefix + tokenEncoding.EncodeToString(raw)
	return token, hashToken(token)
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// tokenHashOf is the stored hash of token when it has prefix and the shape
// of one of ours, else false (garbage costs no lookup).
func tokenHashOf(token, prefix string) (string, bool) {
	body, ok := strings.CutPrefix(token, prefix)
	if !ok || len(body) != tokenEncoding.EncodedLen(tokenBytes) {
		return "", false
	}
	if _, err := tokenEncoding.DecodeString(body); err != nil {
		return "", false
	}
	return hashToken(token), true
}
