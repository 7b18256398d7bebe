package wallet

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// Idempotency keys: every request that moves money or rewards carries one,
// in the JSON body as idempotencyKey or in an Idempotency-Key header. The
// client makes one per intent (a tap on 购买) and sends the same key when
// it retries, so a retry after a lost response returns the first answer
// and moves nothing.

var (
	// ErrKeyReused: the key was used for a different request (409).
	ErrKeyReused = errors.New("idempotency key reused with other parameters")
)

// CheckKey validates an idempotency key: 8 to 64 of [A-Za-z0-9_.:-].
func CheckKey(key string) error {
	if key == "" {
		return httpx.Invalid("缺少参数 idempotencyKey", "idempotencyKey is required")
	}
	if len(key) < 8 || len(key) > 64 {
		return httpx.Invalid("参数 idempotencyKey 无效", "idempotencyKey must be 8-64 characters")
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == ':') {
			return httpx.Invalid("参数 idempotencyKey 无效", "idempotencyKey takes letters, digits and _ . : -")
		}
	}
	return nil
}

// KeyFrom is the request's idempotency key: body (the decoded
// idempotencyKey field) when set, else the Idempotency-Key header. Both set
// and different is a 422.
func KeyFrom(r *http.Request, body string) (string, error) {
	h := r.Header.Get("Idempotency-Key")
	key := body
	switch {
	case body == "":
		key = h
	case h != "" && h != body:
		return "", httpx.Invalid("参数 idempotencyKey 无效", "idempotencyKey in the body and the Idempotency-Key header differ")
	}
	return key, CheckKey(key)
}

// Once runs fn at most once per (uid, scope, key), inside tx. The first
// call stores fn's result; a later call with the same key and the same
// request returns that result with replay true and does not call fn; with
// the same key and a different request it fails with ErrKeyReused. When fn
// fails, nothing is stored (the transaction rolls back), so a retry runs
// again: a refused request moved nothing. request is what identifies the
// request (its parameters); it is hashed, not stored.
func Once[T any](ctx context.Context, tx *db.Tx, uid int64, scope, key string, request any, now time.Time, fn func() (T, error)) (T, bool, error) {
	var zero T
	b, err := json.Marshal(request)
	if err != nil {
		return zero, false, err
	}
	sum := sha256.Sum256(b)
	hash := hex.EncodeToString(sum[:])
	var inserted int
	err = tx.QueryRow(ctx, `INSERT INTO idempotency_keys (user_id, scope, idem_key, request_hash, response, created_at)
		VALUES (?, ?, ?, ?, '', ?) ON CONFLICT (user_id, scope, idem_key) DO NOTHING RETURNING 1`,
		uid, scope, key, hash, now.Unix()).Scan(&inserted)
	if errors.Is(err, sql.ErrNoRows) {
		var prevHash, resp string
		if err := tx.QueryRow(ctx, `SELECT request_hash, response FROM idempotency_keys WHERE user_id = ? AND scope = ? AND idem_key = ?`,
			uid, scope, key).Scan(&prevHash, &resp); err != nil {
			return zero, false, err
		}
		if prevHash != hash {
			return zero, false, ErrKeyReused
		}
		var out T
		if err := json.Unmarshal([]byte(resp), &out); err != nil {
			return zero, false, err
		}
		return out, true, nil
	}
	if err != nil {
		return zero, false, err
	}
	out, err := fn()
	if err != nil {
		return zero, false, err
	}
	resp, err := json.Marshal(out)
	if err != nil {
		return zero, false, err
	}
	if _, err := tx.Exec(ctx, `UPDATE idempotency_keys SET response = ? WHERE user_id = ? AND scope = ? AND idem_key = ?`,
		string(resp), uid, scope, key); err != nil {
		return zero, false, err
	}
	return out, false, nil
}
