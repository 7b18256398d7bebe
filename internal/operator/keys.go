package operator

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// Bounds of an API key's lifetime.
const (
	MinKeyTTL = time.Minute
	MaxKeyTTL = 90 * 24 * time.Hour
	// keyPrefixLen characters of a key are kept to tell keys apart.
	keyPrefixLen = 8
)

// ErrKeyTTL: a lifetime outside MinKeyTTL..MaxKeyTTL.
var ErrKeyTTL = errors.New("API key lifetime out of bounds")

// Key is an API key as the console lists it (never the key itself).
type Key struct {
	ID         int64      `json:"id"`
	UID        int64      `json:"uid"`
	Account    string     `json:"account"`
	Role       httpx.Role `json:"role"`
	Prefix     string     `json:"prefix"`
	CreatedAt  time.Time  `json:"createdAt"`
	ExpiresAt  time.Time  `json:"expiresAt"`
	LastUsedAt *time.Time `json:"lastUsedAt"`
	RevokedAt  *time.Time `json:"revokedAt"`
}

// IssueKey makes an API key for operator uid, valid for ttl, and answers
// it once (only its hash is kept). The key acts with the operator's role
// as it is at each use. Audited as apikey.create.
func (s *Service) IssueKey(ctx context.Context, actor audit.Actor, uid int64, ttl time.Duration) (string, Key, error) {
	if ttl < MinKeyTTL || ttl > MaxKeyTTL {
		return "", Key{}, fmt.Errorf("%w: %v is not between %v and %v", ErrKeyTTL, ttl, MinKeyTTL, MaxKeyTTL)
	}
	token, hash := newToken(keyPrefix)
	now := s.now()
	exp := now.Add(ttl)
	var id int64
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := roleOf(ctx, tx, uid, tx.ForUpdate()); errors.Is(err, db.ErrNotFound) {
			return ErrNoOperator
		} else if err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `INSERT INTO operator_api_keys (uid, prefix, key_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
			uid, token[:keyPrefixLen], hash, now.Unix(), exp.Unix()).Scan(&id); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "apikey.create", TargetType: "apikey", TargetID: strconv.FormatInt(id, 10),
			After: map[string]any{"uid": uid, "prefix": token[:keyPrefixLen], "expiresAt": exp.Unix()}}, now)
	})
	if err != nil {
		return "", Key{}, err
	}
	keys, err := s.listKeys(ctx, id, 0)
	if err != nil || len(keys) != 1 {
		return "", Key{}, cmpErr(err, ErrNoSession)
	}
	return token, keys[0], nil
}

// authenticateKey is Authenticate for an API key.
func (s *Service) authenticateKey(ctx context.Context, token string) (Caller, error) {
	hash, ok := tokenHashOf(token, keyPrefix)
	if !ok {
		return Caller{}, fmt.Errorf("%w: not an API key", ErrSessionInvalid)
	}
	var (
		c                  Caller
		revoked, expiresAt int64
	)
	err := s.db.QueryRow(ctx, `SELECT k.id, k.uid, o.role, k.expires_at, k.revoked_at FROM operator_api_keys k JOIN operators o ON o.uid = k.uid
		WHERE k.key_hash = ?`, hash).Scan(&c.KeyID, &c.UID, &c.Role, &expiresAt, &revoked)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return Caller{}, fmt.Errorf("%w: unknown API key, or its operator is gone", ErrSessionInvalid)
	}
	if err != nil {
		return Caller{}, err
	}
	switch now := s.now().Unix(); {
	case revoked != 0:
		return Caller{}, fmt.Errorf("%w: API key revoked", ErrSessionInvalid)
	case now >= expiresAt:
		return Caller{}, fmt.Errorf("%w: API key expired", ErrSessionInvalid)
	}
	c.ExpiresAt, c.IdleExpiresAt = expiresAt, expiresAt
	return c, nil
}

// KeyUsed records a request made with an API key, let through or not: the
// audit row (apikey.use: method, path, whether the route let the key
// through) and the key's last use, in one transaction. The request goes
// on only once it is recorded.
func (s *Service) KeyUsed(ctx context.Context, r *http.Request, c Caller, allowed bool) error {
	now := s.now()
	actor := audit.ActorFrom(r)
	actor.UID = c.UID
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE operator_api_keys SET last_used_at = ? WHERE id = ?`, now.Unix(), c.KeyID); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "apikey.use", TargetType: "apikey", TargetID: strconv.FormatInt(c.KeyID, 10),
			After: map[string]any{"method": r.Method, "path": clip(r.URL.Path, 200), "allowed": allowed}}, now)
	})
}

// Keys lists the API keys the caller may see, newest first: an owner
// every operator's, anyone else their own; revoked and expired ones too.
func (s *Service) Keys(ctx context.Context, c Caller) ([]Key, error) {
	uid := c.UID
	if c.Role == httpx.RoleOwner {
		uid = 0
	}
	return s.listKeys(ctx, 0, uid)
}

// listKeys reads key id, or the keys of uid (0: everyone's).
func (s *Service) listKeys(ctx context.Context, id, uid int64) ([]Key, error) {
	var w db.Where
	if id != 0 {
		w.And("k.id = ?", id)
	}
	if uid != 0 {
		w.And("k.uid = ?", uid)
	}
	rows, err := db.All(ctx, s.db, func(r db.Scanner) (Key, error) {
		var (
			k                                 Key
			created, expires, used, revokedAt int64
		)
		err := r.Scan(&k.ID, &k.UID, &k.Role, &k.Prefix, &created, &expires, &used, &revokedAt)
		k.CreatedAt, k.ExpiresAt = time.Unix(created, 0).UTC(), time.Unix(expires, 0).UTC()
		k.LastUsedAt, k.RevokedAt = unixOrNil(used), unixOrNil(revokedAt)
		return k, err
	}, `SELECT k.id, k.uid, COALESCE(o.role, ''), k.prefix, k.created_at, k.expires_at, k.last_used_at, k.revoked_at
		FROM operator_api_keys k LEFT JOIN operators o ON o.uid = k.uid`+w.Clause()+` ORDER BY k.id DESC LIMIT 500`, w.Args()...)
	if err != nil {
		return nil, err
	}
	names := map[int64]string{}
	for i := range rows {
		name, ok := names[rows[i].UID]
		if !ok {
			u, err := s.users.User(ctx, rows[i].UID)
			if err != nil {
				return nil, err
			}
			name, names[rows[i].UID] = u.Account, u.Account
		}
		rows[i].Account = name
	}
	return rows, nil
}

func unixOrNil(sec int64) *time.Time {
	if sec == 0 {
		return nil
	}
	t := time.Unix(sec, 0).UTC()
	return &t
}

// RevokeKey revokes API key id: any operator's for an owner, else only the
// caller's own (another's is ErrNoSession, as an unknown id). revoked is
// false when it was revoked already.
func (s *Service) RevokeKey(ctx context.Context, actor audit.Actor, c Caller, id int64) (revoked bool, err error) {
	now := s.now()
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var uid int64
		err := tx.QueryRow(ctx, `SELECT uid FROM operator_api_keys WHERE id = ?`+tx.ForUpdate(), id).Scan(&uid)
		if errors.Is(db.NotFound(err), db.ErrNotFound) || (err == nil && c.Role != httpx.RoleOwner && uid != c.UID) {
			return ErrNoSession
		}
		if err != nil {
			return err
		}
		res, err := tx.Exec(ctx, `UPDATE operator_api_keys SET revoked_at = ? WHERE id = ? AND revoked_at = 0`, now.Unix(), id)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil || n == 0 {
			return err
		}
		revoked = true
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "apikey.revoke", TargetType: "apikey", TargetID: strconv.FormatInt(id, 10),
			After: map[string]any{"uid": uid}}, now)
	})
	return revoked, err
}

// revokeKeys revokes every live API key of uid.
func revokeKeys(ctx context.Context, tx *db.Tx, uid, now int64) error {
	_, err := tx.Exec(ctx, `UPDATE operator_api_keys SET revoked_at = ? WHERE uid = ? AND revoked_at = 0`, now, uid)
	return err
}
