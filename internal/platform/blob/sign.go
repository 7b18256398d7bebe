package blob

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The signed media URL scheme (docs/architecture.md, "Blobs and signed
// URLs", is its specification for a CDN edge that verifies it too):
//
//	/media/s/<kid>.<exp>.<depth>.<sig>/<key>
//
// The signature rides in a path segment rather than a query so that an HLS
// playlist served from a signed folder needs no rewriting: its relative
// segment URIs ("720p/seg3.m4s") resolve against the playlist's URL and
// inherit the token. depth says how much of the key the signature covers:
// 0 the exact key, n > 0 the folder made of the key's first n segments
// (with a trailing slash), so one token opens a whole HLS rendition and
// nothing outside it.
//
//	sig = base64url_nopad(HMAC-SHA256(mediaKey, "prima-media-v1\n" + kid + "\n" + exp + "\n" + scope))
//	mediaKey = HMAC-SHA256(secret, "prima-media-key")
//	kid = base64url_nopad(SHA-256(mediaKey))[:6]
//
// The media key is derived from the server secret so that a CDN can be
// given a key that signs media and nothing else; the kid names the key,
// so after a secret rotation URLs signed with the previous key verify until
// they expire (NewSigner's previous secrets) and unknown kids fail fast.
const (
	// reservedSigned is the first path segment under /media/ that marks a
	// signed URL; NewKey never puts a key under it.
	reservedSigned = "s"
	// MountPath is where the media handler is mounted.
	MountPath = "/media/"
	signLabel = "prima-media-v1\n"
	maxDepth  = 32
)

// Signer makes and checks signed media URLs.
type Signer struct {
	kid  string
	keys map[string][]byte // kid -> media key
	now  func() time.Time
}

// MediaKey derives the media signing key from the server secret.
func MediaKey(secret string) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("prima-media-key"))
	return m.Sum(nil)
}

// KeyID names a media key in tokens.
func KeyID(mediaKey []byte) string {
	sum := sha256.Sum256(mediaKey)
	return base64.RawURLEncoding.EncodeToString(sum[:])[:6]
}

// NewSigner signs with secret and also accepts URLs signed with any of the
// previous secrets (keep one for as long as the longest TTL after a rotation).
func NewSigner(secret string, previous ...string) (*Signer, error) {
	if len(secret) < 16 {
		return nil, errors.New("blob: signing secret shorter than 16 bytes")
	}
	s := &Signer{keys: map[string][]byte{}, now: time.Now}
	for i, sec := range append([]string{secret}, previous...) {
		k := MediaKey(sec)
		id := KeyID(k)
		if i == 0 {
			s.kid = id
		}
		if _, dup := s.keys[id]; !dup {
			s.keys[id] = k
		}
	}
	return s, nil
}

// expiry rounds now+ttl up to a step of a tenth of the TTL (1 s to 1 h), so
// everyone asking for the same object within that step gets the same URL,
// and browsers and CDNs caching by URL share one entry.
func (s *Signer) expiry(ttl time.Duration) int64 {
	if ttl < time.Second {
		ttl = time.Second
	}
	step := int64(min(max(ttl/10, time.Second), time.Hour) / time.Second)
	exp := s.now().Add(ttl).Unix()
	return (exp + step - 1) / step * step
}

func mac(key []byte, kid, exp, scope string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(signLabel + kid + "\n" + exp + "\n" + scope))
	return m.Sum(nil)
}

func (s *Signer) token(scope string, depth int, ttl time.Duration) string {
	exp := strconv.FormatInt(s.expiry(ttl), 10)
	sig := base64.RawURLEncoding.EncodeToString(mac(s.keys[s.kid], s.kid, exp, scope))
	return s.kid + "." + exp + "." + strconv.Itoa(depth) + "." + sig
}

// URL is a path that opens key for about ttl (up to 10% longer, see expiry).
// The key must be valid; callers pass keys they stored.
func (s *Signer) URL(key string, ttl time.Duration) (string, error) {
	if err := CheckKey(key); err != nil {
		return "", err
	}
	return MountPath + reservedSigned + "/" + s.token(key, 0, ttl) + "/" + key, nil
}

// FolderURL is a path to key whose token opens everything under folder
// (which ends in "/" and holds key): hand it out for an HLS playlist and
// every segment and sub-playlist the playlist names relatively is reachable.
func (s *Signer) FolderURL(folder, key string, ttl time.Duration) (string, error) {
	if folder == "" || CheckPrefix(folder) != nil {
		return "", fmt.Errorf("%w: folder %q", ErrBadKey, folder)
	}
	if err := CheckKey(key); err != nil {
		return "", err
	}
	if !strings.HasPrefix(key, folder) {
		return "", fmt.Errorf("%w: %q is not under %q", ErrBadKey, key, folder)
	}
	depth := strings.Count(folder, "/")
	if depth > maxDepth {
		return "", fmt.Errorf("%w: folder %q too deep", ErrBadKey, folder)
	}
	return MountPath + reservedSigned + "/" + s.token(folder, depth, ttl) + "/" + key, nil
}

// Verify reports whether token grants key now. Every failure is the same
// false: the handler answers all of them with one bare 403.
func (s *Signer) Verify(token, key string) bool {
	parts := strings.Split(token, ".")
	if len(parts) != 4 {
		return false
	}
	kid, exp, depthS, sigS := parts[0], parts[1], parts[2], parts[3]
	k, ok := s.keys[kid]
	if !ok {
		return false
	}
	e, ok := canonicalInt(exp, 12)
	if !ok || e <= s.now().Unix() {
		return false
	}
	depth, ok := canonicalInt(depthS, 2)
	if !ok || depth > maxDepth {
		return false
	}
	scope := key
	if depth > 0 {
		segs := strings.Split(key, "/")
		if int64(len(segs)) <= depth {
			return false // the folder must hold the key, not be it
		}
		scope = strings.Join(segs[:depth], "/") + "/"
	}
	sig, err := base64.RawURLEncoding.DecodeString(sigS)
	if err != nil || len(sig) != sha256.Size || base64.RawURLEncoding.EncodeToString(sig) != sigS {
		return false
	}
	return hmac.Equal(sig, mac(k, kid, exp, scope))
}

// canonicalInt parses a decimal of at most n digits with no sign and no
// leading zero, so each number has exactly one spelling in a token.
func canonicalInt(s string, n int) (int64, bool) {
	if s == "" || len(s) > n || (len(s) > 1 && s[0] == '0') {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil
}
