package rewards

// Redemption codes (兑换码): an operator makes a batch of codes that each
// grant one reward; a user types one on /mine/duihuancode and gets it.
//
// Codes are bearer secrets worth money, so the database holds only an HMAC
// of each (keyed by the install secret) plus its first four characters for
// lists: a leaked backup or a read-only SQL hole yields no usable code.
// The plain codes exist once, in the operator's answer that made them.

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/ratelimit"
	"prima/internal/wallet"
)

// CodeAlphabet has no 0/O, 1/I/L: nothing a person can misread on a card.
const CodeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// CodeLen is the length of a code without its dashes: 31^12 ≈ 7.9e17
// codes, so guessing one of even a million live ones takes ~10^12 tries,
// against a limit of a few per user and address per ten minutes.
const CodeLen = 12

// Limits of one batch and of guessing.
const (
	MaxBatchCodes   = 10000
	MaxUsesPerCode  = 1000000
	MaxBatchNameLen = 60
	// FailLimit failed (unknown) codes per user, and per client address,
	// within FailWindow; the next try answers 429 until the window ends.
	FailLimit  = 10
	FailWindow = 10 * time.Minute
)

var (
	// ErrCodeInvalid: malformed, unknown or in a disabled batch. One error
	// for all three so an answer never tells a guesser how close it came.
	ErrCodeInvalid = errors.New("rewards: invalid code")
	ErrCodeExpired = errors.New("rewards: code expired")
	ErrCodeUsedUp  = errors.New("rewards: code used up")
	// ErrCodeRedeemed: this user redeemed this code before.
	ErrCodeRedeemed = errors.New("rewards: code redeemed by this user before")
	// ErrCodeGuessing: too many unknown codes from this user or address.
	ErrCodeGuessing = errors.New("rewards: too many failed codes")
	// ErrCodeLimiterDown: the failure counters cannot answer. Codes are
	// money, so redemption fails closed rather than allow unlimited guesses.
	ErrCodeLimiterDown = errors.New("rewards: code limiter unavailable")
	ErrBatchNotFound   = errors.New("rewards: batch not found")
	ErrBatchDisabled   = errors.New("rewards: batch already disabled")
	ErrBadBatch        = errors.New("rewards: bad batch")
)

// Codes is the redemption-code service.
type Codes struct {
	db      *db.DB
	grant   Granter
	counter ratelimit.Counter
	key     []byte
	now     func() time.Time
}

// NewCodes builds the service; secret is the install secret (its HMAC key
// is derived so no other use of the secret can produce a code hash).
func NewCodes(d *db.DB, g Granter, counter ratelimit.Counter, secret string) *Codes {
	return &Codes{db: d, grant: g, counter: counter, key: []byte("redeem-code\x00" + secret), now: time.Now}
}

// SetClock replaces the clock (tests).
func (s *Codes) SetClock(now func() time.Time) { s.now = now }

// NormalizeCode turns what a person typed or pasted into the canonical 12
// characters: case-insensitive, spaces and dashes ignored. ok is false for
// anything else (wrong length, a character outside the alphabet).
func NormalizeCode(in string) (string, bool) {
	if len(in) > 64 {
		return "", false
	}
	var b strings.Builder
	for _, r := range in {
		switch {
		case r == ' ' || r == '-' || r == '\t' || r == '\u3000' || r == '\u2014' || r == '\u2013':
			continue
		case r >= 'a' && r <= 'z':
			r -= 'a' - 'A'
		}
		if r > 127 || !strings.ContainsRune(CodeAlphabet, r) {
			return "", false
		}
		b.WriteRune(r)
	}
	if b.Len() != CodeLen {
		return "", false
	}
	return b.String(), true
}

// FormatCode groups a canonical code as XXXX-XXXX-XXXX.
func FormatCode(c string) string {
	if len(c) != CodeLen {
		return c
	}
	return c[:4] + "-" + c[4:8] + "-" + c[8:]
}

// maskCode is what lists show of a code: its prefix, the rest hidden.
func maskCode(prefix string) string { return prefix + "-****-****" }

func (s *Codes) hash(code string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(code))
	return hex.EncodeToString(m.Sum(nil))
}

// newCode draws a redemption code.
func newCode() (string, error) { return randomCode(CodeLen) }

// randomCode draws size characters of CodeAlphabet uniformly (rejection
// sampling keeps the modulo from favouring the first letters): redemption
// and invite codes alike.
func randomCode(size int) (string, error) {
	const n = len(CodeAlphabet)
	limit := 256 - 256%n
	out := make([]byte, 0, size)
	buf := make([]byte, 32)
	for len(out) < size {
		if _, err := rand.Read(buf); err != nil {
			return "", err
		}
		for _, c := range buf {
			if int(c) < limit && len(out) < size {
				out = append(out, CodeAlphabet[int(c)%n])
			}
		}
	}
	return string(out), nil
}

// RewardView is a reward as the API shows it.
type RewardView struct {
	Coins    int64 `json:"coins"`
	VIPLevel int   `json:"vipLevel"`
	VIPDays  int   `json:"vipDays"`
	Coupons  int   `json:"coupons"`
}

func viewOf(r wallet.Reward) RewardView {
	return RewardView{Coins: r.Coins, VIPLevel: r.VIPLevel, VIPDays: r.VIPDays, Coupons: r.Coupons}
}

// Batch is one operator batch with its use counts.
type Batch struct {
	ID          int64      `json:"id"`
	Name        string     `json:"name"`
	Reward      RewardView `json:"reward"`
	Count       int        `json:"count"`
	UsesPerCode int        `json:"usesPerCode"`
	ExpiresAt   int64      `json:"expiresAt"`  // unix seconds, 0 never
	DisabledAt  int64      `json:"disabledAt"` // unix seconds, 0 enabled
	CreatedBy   int64      `json:"createdBy"`
	CreatedAt   int64      `json:"createdAt"`
	Redeemed    int64      `json:"redeemed"`    // redemptions across its codes
	CodesUsedUp int64      `json:"codesUsedUp"` // codes with no use left
}

// NewBatch is what an operator asks for.
type NewBatch struct {
	Name        string
	Reward      wallet.Reward
	Count       int
	UsesPerCode int
	ExpiresAt   int64 // unix seconds, 0 never
}

// CreateBatch makes a batch and its codes in one audited transaction and
// returns the plain codes, grouped; they are never readable again.
func (s *Codes) CreateBatch(ctx context.Context, actor audit.Actor, in NewBatch) (Batch, []string, error) {
	now := s.now()
	in.Name = strings.TrimSpace(in.Name)
	switch {
	case in.Name == "" || len([]rune(in.Name)) > MaxBatchNameLen:
		return Batch{}, nil, fmt.Errorf("%w: name must be 1-%d characters", ErrBadBatch, MaxBatchNameLen)
	case in.Count < 1 || in.Count > MaxBatchCodes:
		return Batch{}, nil, fmt.Errorf("%w: count must be 1-%d", ErrBadBatch, MaxBatchCodes)
	case in.UsesPerCode < 1 || in.UsesPerCode > MaxUsesPerCode:
		return Batch{}, nil, fmt.Errorf("%w: usesPerCode must be 1-%d", ErrBadBatch, MaxUsesPerCode)
	case in.ExpiresAt < 0 || (in.ExpiresAt != 0 && in.ExpiresAt <= now.Unix()):
		return Batch{}, nil, fmt.Errorf("%w: expiresAt must be in the future", ErrBadBatch)
	}
	if in.Reward.VIPDays == 0 {
		in.Reward.VIPLevel = 0
	}
	if err := wallet.CheckReward(in.Reward); err != nil {
		return Batch{}, nil, err
	}
	codes := make([]string, 0, in.Count)
	seen := make(map[string]bool, in.Count)
	for len(codes) < in.Count {
		c, err := newCode()
		if err != nil {
			return Batch{}, nil, err
		}
		if !seen[c] {
			seen[c] = true
			codes = append(codes, c)
		}
	}
	b := Batch{Name: in.Name, Reward: viewOf(in.Reward), Count: in.Count, UsesPerCode: in.UsesPerCode,
		ExpiresAt: in.ExpiresAt, CreatedBy: actor.UID, CreatedAt: now.Unix()}
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := tx.QueryRow(ctx, `INSERT INTO code_batches (name, coins, vip_level, vip_days, coupons, code_count, uses_per_code, expires_at, created_by, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			b.Name, b.Reward.Coins, b.Reward.VIPLevel, b.Reward.VIPDays, b.Reward.Coupons, b.Count, b.UsesPerCode, b.ExpiresAt, b.CreatedBy, b.CreatedAt).Scan(&b.ID); err != nil {
			return err
		}
		// Several rows per statement: 10,000 single inserts would hold the
		// one SQLite writer (and a PostgreSQL connection) for seconds.
		const chunk = 200
		for i := 0; i < len(codes); i += chunk {
			part := codes[i:min(i+chunk, len(codes))]
			var q strings.Builder
			q.WriteString(`INSERT INTO redeem_codes (batch_id, hash, prefix, max_uses) VALUES `)
			args := make([]any, 0, 4*len(part))
			for j, c := range part {
				if j > 0 {
					q.WriteString(", ")
				}
				q.WriteString("(?, ?, ?, ?)")
				args = append(args, b.ID, s.hash(c), c[:4], b.UsesPerCode)
			}
			if _, err := tx.Exec(ctx, q.String(), args...); err != nil {
				return err
			}
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "codes.batch.create", TargetType: "code_batch",
			TargetID: strconv.FormatInt(b.ID, 10), After: map[string]any{"name": b.Name, "reward": b.Reward, "count": b.Count,
				"usesPerCode": b.UsesPerCode, "expiresAt": b.ExpiresAt}}, now)
	})
	if err != nil {
		return Batch{}, nil, err
	}
	grouped := make([]string, len(codes))
	for i, c := range codes {
		grouped[i] = FormatCode(c)
	}
	return b, grouped, nil
}

// Batches is a keyset page of batches, newest first, with their use
// counts: after is the id the previous page ended on (0: the first page);
// it holds up to size+1 rows (the extra tells there is more).
func (s *Codes) Batches(ctx context.Context, after int64, size int) ([]Batch, error) {
	where, args := "", []any{}
	if after > 0 {
		where, args = "WHERE b.id < ?", append(args, after)
	}
	rows, err := s.db.Query(ctx, `SELECT b.id, b.name, b.coins, b.vip_level, b.vip_days, b.coupons, b.code_count, b.uses_per_code,
			b.expires_at, b.disabled_at, b.created_by, b.created_at,
			COALESCE((SELECT SUM(c.uses) FROM redeem_codes c WHERE c.batch_id = b.id), 0),
			(SELECT COUNT(*) FROM redeem_codes c WHERE c.batch_id = b.id AND c.uses >= c.max_uses)
		FROM code_batches b `+where+` ORDER BY b.id DESC LIMIT ?`, append(args, size+1)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	list := []Batch{}
	for rows.Next() {
		var b Batch
		if err := rows.Scan(&b.ID, &b.Name, &b.Reward.Coins, &b.Reward.VIPLevel, &b.Reward.VIPDays, &b.Reward.Coupons, &b.Count,
			&b.UsesPerCode, &b.ExpiresAt, &b.DisabledAt, &b.CreatedBy, &b.CreatedAt, &b.Redeemed, &b.CodesUsedUp); err != nil {
			return nil, err
		}
		list = append(list, b)
	}
	return list, rows.Err()
}

// DisableBatch stops every code of batch id, for good (a leaked batch).
func (s *Codes) DisableBatch(ctx context.Context, actor audit.Actor, id int64) error {
	now := s.now()
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE code_batches SET disabled_at = ? WHERE id = ? AND disabled_at = 0`, now.Unix(), id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			var one int
			if err := tx.QueryRow(ctx, `SELECT 1 FROM code_batches WHERE id = ?`, id).Scan(&one); err != nil {
				if errors.Is(db.NotFound(err), db.ErrNotFound) {
					return ErrBatchNotFound
				}
				return err
			}
			return ErrBatchDisabled
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "codes.batch.disable", TargetType: "code_batch",
			TargetID: strconv.FormatInt(id, 10), Before: map[string]any{"disabledAt": 0}, After: map[string]any{"disabledAt": now.Unix()}}, now)
	})
}

// Redemption is one code a user redeemed.
type Redemption struct {
	ID        int64      `json:"id"`
	Code      string     `json:"code"` // masked: ABCD-****-****
	Name      string     `json:"name"` // the batch's name
	Reward    RewardView `json:"reward"`
	CreatedAt int64      `json:"createdAt"`
}

func failKeys(uid int64, ip string) []string {
	keys := []string{"code:fail:u:" + strconv.FormatInt(uid, 10)}
	if ip != "" {
		keys = append(keys, "code:fail:ip:"+ip)
	}
	return keys
}

// Redeem gives uid the reward of the code typed, once. ip is the client
// address, counted with the user for failed tries.
func (s *Codes) Redeem(ctx context.Context, uid int64, ip, input string) (Redemption, error) {
	keys := failKeys(uid, ip)
	counts, err := s.counter.Peek(ctx, keys...)
	if err != nil {
		return Redemption{}, fmt.Errorf("%w: %v", ErrCodeLimiterDown, err)
	}
	for i, c := range counts {
		if c.N >= FailLimit {
			return Redemption{}, &ratelimit.LimitedError{Key: keys[i], RetryAfter: c.TTL}
		}
	}
	code, ok := NormalizeCode(input)
	if !ok {
		return Redemption{}, s.failed(ctx, keys)
	}
	now := s.now()
	var red Redemption
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var (
			codeID, batchID   int64
			prefix, name      string
			r                 wallet.Reward
			expires, disabled int64
		)
		err := tx.QueryRow(ctx, `SELECT c.id, c.batch_id, c.prefix, b.name, b.coins, b.vip_level, b.vip_days, b.coupons, b.expires_at, b.disabled_at
			FROM redeem_codes c JOIN code_batches b ON b.id = c.batch_id WHERE c.hash = ?`, s.hash(code)).
			Scan(&codeID, &batchID, &prefix, &name, &r.Coins, &r.VIPLevel, &r.VIPDays, &r.Coupons, &expires, &disabled)
		if errors.Is(db.NotFound(err), db.ErrNotFound) {
			return ErrCodeInvalid
		}
		if err != nil {
			return err
		}
		switch {
		case disabled != 0:
			return ErrCodeInvalid
		case expires != 0 && now.Unix() >= expires:
			return ErrCodeExpired
		}
		// The user's row first: a second try by the same user (or a
		// parallel double tap) stops on the unique pair before it can
		// take a use another user could have had.
		err = tx.QueryRow(ctx, `INSERT INTO code_redemptions (code_id, user_id, batch_id, coins, vip_level, vip_days, coupons, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, codeID, uid, batchID, r.Coins, r.VIPLevel, r.VIPDays, r.Coupons, now.Unix()).Scan(&red.ID)
		if db.IsUnique(err) {
			return ErrCodeRedeemed
		}
		if err != nil {
			return err
		}
		res, err := tx.Exec(ctx, `UPDATE redeem_codes SET uses = uses + 1 WHERE id = ? AND uses < max_uses`, codeID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrCodeUsedUp
		}
		key := "code:" + strconv.FormatInt(codeID, 10) + ":" + strconv.FormatInt(uid, 10)
		if err := s.grant.GrantReward(ctx, tx, uid, "code", key, "兑换码："+name, r, now); err != nil {
			return err
		}
		red.Code, red.Name, red.Reward, red.CreatedAt = maskCode(prefix), name, viewOf(r), now.Unix()
		return nil
	})
	if errors.Is(err, ErrCodeInvalid) {
		return Redemption{}, s.failed(ctx, keys)
	}
	return red, err
}

// failed counts an unknown code against the user and the address and
// answers ErrCodeInvalid, or ErrCodeLimiterDown when it cannot count.
func (s *Codes) failed(ctx context.Context, keys []string) error {
	for _, k := range keys {
		if _, err := s.counter.Incr(ctx, k, FailWindow); err != nil {
			return fmt.Errorf("%w: %v", ErrCodeLimiterDown, err)
		}
	}
	return ErrCodeInvalid
}

// Records is uid's redemptions, newest first.
func (s *Codes) Records(ctx context.Context, uid int64, pageNumber, pageSize int) ([]Redemption, int, error) {
	var total int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM code_redemptions WHERE user_id = ?`, uid).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := s.db.Query(ctx, `SELECT r.id, c.prefix, b.name, r.coins, r.vip_level, r.vip_days, r.coupons, r.created_at
		FROM code_redemptions r JOIN redeem_codes c ON c.id = r.code_id JOIN code_batches b ON b.id = r.batch_id
		WHERE r.user_id = ? ORDER BY r.id DESC LIMIT ? OFFSET ?`, uid, pageSize, (pageNumber-1)*pageSize)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	list := []Redemption{}
	for rows.Next() {
		var r Redemption
		var prefix string
		if err := rows.Scan(&r.ID, &prefix, &r.Name, &r.Reward.Coins, &r.Reward.VIPLevel, &r.Reward.VIPDays, &r.Reward.Coupons, &r.CreatedAt); err != nil {
			return nil, 0, err
		}
		r.Code = maskCode(prefix)
		list = append(list, r)
	}
	return list, total, rows.Err()
}
