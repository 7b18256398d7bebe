package account

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"

	"golang.org/x/crypto/argon2"
)

// Argon2id parameters. Measured on the 2-core development machine (Go 1.26,
// argon2.IDKey, 10 runs each): t=3 m=32MiB p=1 takes ~55 ms; t=1 m=64MiB
// ~49 ms; t=2 m=19MiB (OWASP's minimum) ~21 ms. We take t=3 with 32 MiB:
// about 50 ms per hash, above OWASP's floor, and half the memory of the
// 64 MiB option, which matters because several logins may hash at once.
// One lane, because a second lane only moves the same work onto the other
// core that concurrent requests need.
//
// The parameters are written into every hash, so they can be raised later:
// a login with an older hash verifies with the old parameters and is then
// re-hashed with the current ones.
const (
	argonTime    = 3
	argonMemory  = 32 * 1024 // KiB
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// hashSlots bounds how many hashes run at once, so a burst of logins costs
// at most hashSlots*argonMemory of memory and queues instead of swapping.
var hashSlots = make(chan struct{}, max(2, runtime.NumCPU()))

func acquireHashSlot(ctx context.Context) error {
	select {
	case hashSlots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func releaseHashSlot() { <-hashSlots }

var b64 = base64.RawStdEncoding

// hashPassword returns a PHC-style encoded argon2id hash of password with a
// fresh random salt: $argon2id$v=19$m=32768,t=3,p=1$<salt>$<hash>.
func hashPassword(ctx context.Context, password string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	if err := acquireHashSlot(ctx); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	releaseHashSlot()
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemory, argonTime, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

type argonParams struct {
	memory  uint32
	time    uint32
	threads uint8
	salt    []byte
	key     []byte
}

var errBadHash = errors.New("account: malformed password hash")

func parseHash(encoded string) (argonParams, error) {
	var p argonParams
	parts := strings.Split(encoded, "$")
	// "", "argon2id", "v=19", "m=..,t=..,p=..", salt, key
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return p, errBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return p, errBadHash
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.memory, &p.time, &p.threads); err != nil {
		return p, errBadHash
	}
	// Refuse parameters no hash of ours would carry, so a corrupt row cannot
	// make one login allocate gigabytes.
	if p.memory < 8 || p.memory > 1<<20 || p.time < 1 || p.time > 16 || p.threads < 1 || p.threads > 16 {
		return p, errBadHash
	}
	var err error
	if p.salt, err = b64.DecodeString(parts[4]); err != nil || len(p.salt) < 8 {
		return p, errBadHash
	}
	if p.key, err = b64.DecodeString(parts[5]); err != nil || len(p.key) < 16 || len(p.key) > 64 {
		return p, errBadHash
	}
	return p, nil
}

// verifyPassword reports whether password matches encoded, comparing in
// constant time. stale is true when the hash was made with other
// parameters than today's and should be replaced.
func verifyPassword(ctx context.Context, encoded, password string) (ok, stale bool, err error) {
	p, err := parseHash(encoded)
	if err != nil {
		return false, false, err
	}
	if err := acquireHashSlot(ctx); err != nil {
		return false, false, err
	}
	key := argon2.IDKey([]byte(password), p.salt, p.time, p.memory, p.threads, uint32(len(p.key)))
	releaseHashSlot()
	ok = subtle.ConstantTimeCompare(key, p.key) == 1
	stale = p.memory != argonMemory || p.time != argonTime || p.threads != argonThreads || len(p.key) != argonKeyLen
	return ok, stale, nil
}

// dummyHash is verified against when an account does not exist, so a
// login for an unknown account takes as long as one with a wrong password
// and timing does not tell which accounts exist.
// It is made on first use rather than at start-up, which every command and
// test binary that imports this package would otherwise pay for.
var dummyHash = sync.OnceValues(func() (string, error) {
	return hashPassword(context.Background(), "dummy-password-never-matches")
})
