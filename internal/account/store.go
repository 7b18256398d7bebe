package account

import (
	"context"
	"database/sql"
	"errors"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/search"
)

// User is a row of users. Account is empty for a guest (NULL in the table).
type User struct {
	ID           int64
	Name         string
	Portrait     string
	Account      string
	PasswordHash string
	Role         httpx.Role // RoleUser unless made an operator
	Points       int64
	// Each VIP tier keeps its own expiry (unix seconds, 0 when never):
	// VipExpireAt the VIP (level 1) tier's, SvipExpireAt the super VIP
	// (level 2) tier's. membership.ActiveVipLevel reads them.
	VipExpireAt        int64
	SvipExpireAt       int64
	TxDiscount         *int64
	GoldVideoFreeUntil int64
	VideoFreeUntil     int64
	CreatedAt          int64
	UpdatedAt          int64
	// Profile (profile.go): 0 unset, 1 male, 2 female; a short bio.
	Gender int
	Bio    string
	// Mobile is the bound mainland number, 11 digits ("" when none).
	Mobile string
}

// IsGuest reports whether the user has no account and password yet.
func (u *User) IsGuest() bool { return u.Account == "" }

// Session is a row of sessions. The token itself is never stored. Role is
// the user's role, read with the session so that every request sees the
// role as it is now.
type Session struct {
	TokenHash  string
	UserID     int64
	Role       httpx.Role
	DevID      string
	CreatedAt  int64
	LastSeenAt int64
	ExpiresAt  int64
	RevokedAt  int64
	// SysType and Device say what opened the session (the client's
	// sysType, a label from its User-Agent), for the devices list.
	SysType string
	Device  string
	// bannedUntil and banReason are the user's ban (user_bans), read with
	// the session by sessionByHash; 0 when there is none.
	bannedUntil int64
	banReason   string
}

// ID names the session to its user (in session.revoked events) without
// giving out its token hash whole: 16 hex characters of it are enough to
// tell one user's sessions apart and reveal nothing usable.
func (s Session) ID() string {
	if len(s.TokenHash) < 16 {
		return s.TokenHash
	}
	return s.TokenHash[:16]
}

const userColumns = `id, name, portrait, account, password_hash, role, points, vip_expire_at, svip_expire_at, tx_discount, gold_video_free_until, video_free_until, created_at, updated_at, gender, bio, mobile`

func scanUser(row interface{ Scan(...any) error }) (User, error) {
	var (
		u       User
		account sql.NullString
		disc    sql.NullInt64
		mobile  sql.NullString
	)
	err := row.Scan(&u.ID, &u.Name, &u.Portrait, &account, &u.PasswordHash, &u.Role, &u.Points, &u.VipExpireAt, &u.SvipExpireAt,
		&disc, &u.GoldVideoFreeUntil, &u.VideoFreeUntil, &u.CreatedAt, &u.UpdatedAt, &u.Gender, &u.Bio, &mobile)
	if err != nil {
		return User{}, db.NotFound(err)
	}
	u.Account = account.String
	u.Mobile = mobile.String
	if disc.Valid {
		u.TxDiscount = &disc.Int64
	}
	return u, nil
}

func userByID(ctx context.Context, q db.Querier, id int64) (User, error) {
	return scanUser(q.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE id = ?`, id))
}

// lockUser reads user id and holds its row until tx ends, so that rules
// checked on the row stay true until the transaction's writes land.
func lockUser(ctx context.Context, tx *db.Tx, id int64) (User, error) {
	return scanUser(tx.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE id = ?`+tx.ForUpdate(), id))
}

// userByAccount matches case-insensitively, as the unique index does.
func userByAccount(ctx context.Context, q db.Querier, account string) (User, error) {
	return scanUser(q.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE lower(account) = lower(?)`, account))
}

// insertUser stores u and returns its id. It takes a Tx because RETURNING
// must run on the write connection (a DB's QueryRow reads from the read pool).
func insertUser(ctx context.Context, tx *db.Tx, u *User) (int64, error) {
	var account any
	if u.Account != "" {
		account = u.Account
	}
	var disc any
	if u.TxDiscount != nil {
		disc = *u.TxDiscount
	}
	role := u.Role
	if role == "" {
		role = httpx.RoleUser
	}
	var id int64
	// registered_at and began_guest feed the daily statistics (stats.go):
	// a user made with an account registered as it was made; one without
	// began as a guest.
	var registeredAt, beganGuest int64
	if u.Account != "" {
		registeredAt = u.CreatedAt
	} else {
		beganGuest = 1
	}
	err := tx.QueryRow(ctx, `INSERT INTO users (name, portrait, account, password_hash, role, points, vip_expire_at, svip_expire_at, tx_discount, gold_video_free_until, video_free_until, created_at, updated_at, registered_at, began_guest)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		u.Name, u.Portrait, account, u.PasswordHash, role, u.Points, u.VipExpireAt, u.SvipExpireAt, disc,
		u.GoldVideoFreeUntil, u.VideoFreeUntil, u.CreatedAt, u.UpdatedAt, registeredAt, beganGuest).Scan(&id)
	if err == nil && u.Account != "" {
		// A registered user can be found by name; a guest cannot, so the
		// hot path of a new device pays nothing for search.
		err = search.Touch(ctx, tx, search.KindUser, id)
	}
	return id, err
}

// setCredentials turns a guest into a registered user in place, named
// name. It only touches a row that is still a guest, and reports whether it
// did, so two racing registrations cannot both claim the same guest.
func setCredentials(ctx context.Context, q db.Querier, uid int64, account, name, hash string, now int64) (bool, error) {
	res, err := q.Exec(ctx, `UPDATE users SET account = ?, name = ?, password_hash = ?, updated_at = ?, registered_at = ? WHERE id = ? AND account IS NULL`,
		account, name, hash, now, now, uid)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func setPasswordHash(ctx context.Context, q db.Querier, uid int64, hash string, now int64) error {
	_, err := q.Exec(ctx, `UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?`, hash, now, uid)
	return err
}

// deviceUser is the user bound to devID, and whether that user is still a
// guest (has no account).
func deviceUser(ctx context.Context, q db.Querier, devID string) (uid int64, guest bool, err error) {
	var account sql.NullString
	err = q.QueryRow(ctx, `SELECT d.user_id, u.account FROM devices d JOIN users u ON u.id = d.user_id WHERE d.dev_id = ?`, devID).Scan(&uid, &account)
	return uid, !account.Valid || account.String == "", db.NotFound(err)
}

// rebindDevice hands devID to another user.
func rebindDevice(ctx context.Context, q db.Querier, devID string, uid int64, now int64) error {
	_, err := q.Exec(ctx, `UPDATE devices SET user_id = ?, last_seen_at = ? WHERE dev_id = ?`, uid, now, devID)
	return err
}

func insertDevice(ctx context.Context, q db.Querier, devID string, uid int64, sysType, cutInfos string, now int64) error {
	_, err := q.Exec(ctx, `INSERT INTO devices (dev_id, user_id, sys_type, cut_infos, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?)`,
		devID, uid, sysType, cutInfos, now, now)
	return err
}

// touchDevice records a returning device. cut_infos keeps the value from the
// first install: it says who invited this device, which later visits must
// not rewrite.
func touchDevice(ctx context.Context, q db.Querier, devID, sysType string, now int64) error {
	_, err := q.Exec(ctx, `UPDATE devices SET sys_type = ?, last_seen_at = ? WHERE dev_id = ?`, sysType, now, devID)
	return err
}

// deviceCutInfos is the invite information stored with devID.
func deviceCutInfos(ctx context.Context, q db.Querier, devID string) (string, error) {
	var s string
	err := q.QueryRow(ctx, `SELECT cut_infos FROM devices WHERE dev_id = ?`, devID).Scan(&s)
	return s, db.NotFound(err)
}

// insertSession stores a new session. It is the one door of every way of
// signing in, so it refuses a banned user (*BannedError, ban.go).
func insertSession(ctx context.Context, q db.Querier, s *Session) error {
	if err := checkBan(ctx, q, s.UserID, s.CreatedAt); err != nil {
		return err
	}
	_, err := q.Exec(ctx, `INSERT INTO sessions (token_hash, user_id, dev_id, created_at, last_seen_at, expires_at, revoked_at, sys_type, device) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)`,
		s.TokenHash, s.UserID, s.DevID, s.CreatedAt, s.LastSeenAt, s.ExpiresAt, s.SysType, s.Device)
	return err
}

func sessionByHash(ctx context.Context, q db.Querier, hash string) (Session, error) {
	s := Session{TokenHash: hash}
	err := q.QueryRow(ctx, `SELECT s.user_id, u.role, s.dev_id, s.created_at, s.last_seen_at, s.expires_at, s.revoked_at,
		COALESCE(b.banned_until, 0), COALESCE(b.reason, '')
		FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN user_bans b ON b.user_id = s.user_id WHERE s.token_hash = ?`, hash).
		Scan(&s.UserID, &s.Role, &s.DevID, &s.CreatedAt, &s.LastSeenAt, &s.ExpiresAt, &s.RevokedAt, &s.bannedUntil, &s.banReason)
	return s, db.NotFound(err)
}

// touchSession slides a live session's expiry. A revoked session stays
// revoked even if a request using it was already in flight.
func touchSession(ctx context.Context, q db.Querier, hash string, now, expires int64) error {
	_, err := q.Exec(ctx, `UPDATE sessions SET last_seen_at = ?, expires_at = ? WHERE token_hash = ? AND revoked_at = 0`, now, expires, hash)
	return err
}

func revokeSession(ctx context.Context, q db.Querier, hash string, now int64) error {
	_, err := q.Exec(ctx, `UPDATE sessions SET revoked_at = ? WHERE token_hash = ? AND revoked_at = 0`, now, hash)
	return err
}

// Joined reads when uid was created and whether it has an account (a
// guest has none), on q; db.ErrNotFound for no such user. The invitation
// rules read both inside their binding transaction, the wallet's new-user
// offers and guest checks inside their money transaction.
func Joined(ctx context.Context, q db.Querier, uid int64) (created int64, registered bool, err error) {
	var account sql.NullString
	err = q.QueryRow(ctx, `SELECT created_at, account FROM users WHERE id = ?`, uid).Scan(&created, &account)
	return created, account.Valid && account.String != "", db.NotFound(err)
}

// FirstDevice is the device uid first appeared on (its guest login), else
// the device of its first session, else "".
func FirstDevice(ctx context.Context, q db.Querier, uid int64) (string, error) {
	var dev string
	err := q.QueryRow(ctx, `SELECT dev_id FROM devices WHERE user_id = ? ORDER BY created_at, dev_id LIMIT 1`, uid).Scan(&dev)
	if errors.Is(err, sql.ErrNoRows) {
		err = q.QueryRow(ctx, `SELECT dev_id FROM sessions WHERE user_id = ? AND dev_id <> '' ORDER BY created_at LIMIT 1`, uid).Scan(&dev)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return dev, err
}

// SharesDevice reports whether users a and b have appeared on one device:
// a guest login's or a session's (earnings pays no commission between two
// accounts of one phone). Sessions are purged some days after they end, so
// this sees the devices of the last weeks, which is when a farmed account
// pays.
func SharesDevice(ctx context.Context, q db.Querier, a, b int64) (bool, error) {
	const devs = `SELECT dev_id FROM devices WHERE user_id = ? UNION SELECT dev_id FROM sessions WHERE user_id = ? AND dev_id <> ''`
	var one int
	err := q.QueryRow(ctx, `SELECT 1 FROM (`+devs+`) x JOIN (`+devs+`) y ON y.dev_id = x.dev_id LIMIT 1`, a, a, b, b).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}
