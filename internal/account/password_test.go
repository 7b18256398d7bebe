package account

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/crypto/argon2"
)

func TestPasswordHashRoundTrip(t *testing.T) {
	ctx := context.Background()
	h1, err := hashPassword(ctx, "secret123")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("$argon2id$v=19$m=%d,t=%d,p=%d$", argonMemory, argonTime, argonThreads)
	if !strings.HasPrefix(h1, want) {
		t.Fatalf("hash %q does not start with %q", h1, want)
	}
	if ok, stale, err := verifyPassword(ctx, h1, "secret123"); !ok || stale || err != nil {
		t.Fatalf("right password: ok=%v stale=%v err=%v", ok, stale, err)
	}
	for _, wrong := range []string{"secret124", "Secret123", "secret12", "secret1234", ""} {
		if ok, _, err := verifyPassword(ctx, h1, wrong); ok || err != nil {
			t.Errorf("verify(%q) ok=%v err=%v, want false", wrong, ok, err)
		}
	}
	h2, _ := hashPassword(ctx, "secret123")
	if h1 == h2 {
		t.Fatal("two hashes of one password are equal: the salt is not per hash")
	}
}

func TestPasswordStaleParameters(t *testing.T) {
	ctx := context.Background()
	salt := []byte("0123456789abcdef")
	key := argon2.IDKey([]byte("old123"), salt, 1, 8*1024, 1, 32)
	old := fmt.Sprintf("$argon2id$v=19$m=%d,t=1,p=1$%s$%s", 8*1024, b64.EncodeToString(salt), b64.EncodeToString(key))
	ok, stale, err := verifyPassword(ctx, old, "old123")
	if !ok || !stale || err != nil {
		t.Fatalf("old-parameter hash: ok=%v stale=%v err=%v, want ok and stale", ok, stale, err)
	}
}

func TestPasswordMalformedHash(t *testing.T) {
	ctx := context.Background()
	good, _ := hashPassword(ctx, "secret123")
	parts := strings.Split(good, "$")
	for name, h := range map[string]string{
		"empty":          "",
		"bcrypt":         "$2a$10$abcdefghijklmnopqrstuu",
		"argon2i":        strings.Replace(good, "argon2id", "argon2i", 1),
		"version":        strings.Replace(good, "v=19", "v=16", 1),
		"huge memory":    strings.Replace(good, parts[3], "m=4194304,t=3,p=1", 1),
		"zero time":      strings.Replace(good, parts[3], "m=32768,t=0,p=1", 1),
		"bad salt":       strings.Replace(good, parts[4], "!!!", 1),
		"short key":      strings.Replace(good, parts[5], "AAAA", 1),
		"missing fields": "$argon2id$v=19$m=32768,t=3,p=1$" + parts[4],
	} {
		if ok, _, err := verifyPassword(ctx, h, "secret123"); ok || err == nil {
			t.Errorf("%s: ok=%v err=%v, want an error", name, ok, err)
		}
	}
}

// BenchmarkHashPassword shows the cost chosen in password.go (~50 ms/op on
// the 2-core development machine).
func BenchmarkHashPassword(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		if _, err := hashPassword(ctx, "benchmark123"); err != nil {
			b.Fatal(err)
		}
	}
}
