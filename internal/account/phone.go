package account

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"prima/internal/platform/db"
	"prima/internal/platform/realtime"
)

// userByMobile is the user who bound mobile (11 digits).
func userByMobile(ctx context.Context, q db.Querier, mobile string) (User, error) {
	return scanUser(q.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE mobile = ?`, mobile))
}

// BindPhone binds mobile to user uid, or changes the bound number. It
// needs the code sent to the new number (proving the caller holds it) and
// the account's password: a stolen session alone must not be able to
// bind the thief's phone and then reset the password through it. The old
// number's code is not asked for, since a user changing numbers has often
// lost the old SIM; the password stands in for it. Guests cannot bind (they
// register first). A number bound to someone else is 409, checked after
// the code, so only its holder learns that; the code then stays unused.
func (s *Service) BindPhone(ctx context.Context, uid int64, mobile, code, password, ip string) (User, error) {
	mobile, err := NormalizeMobile(mobile)
	if err != nil {
		return User{}, err
	}
	if err := checkCode(code); err != nil {
		return User{}, err
	}
	if password == "" {
		return User{}, invalid("pwd", "请输入登录密码", "pwd (the current password) is required")
	}
	u, err := userByID(ctx, s.db, uid)
	if err != nil {
		return User{}, err
	}
	if u.IsGuest() {
		return User{}, ErrNotRegistered
	}
	if u.Mobile == mobile {
		return User{}, ErrMobileSame
	}
	if err := s.VerifyPassword(ctx, uid, password, ip); err != nil {
		return User{}, err
	}
	now := s.now().Unix()
	err = s.withCode(ctx, mobile, PurposeBind, code, func(ctx context.Context, tx *db.Tx) error {
		if other, err := userByMobile(ctx, tx, mobile); err == nil && other.ID != uid {
			return ErrMobileTaken
		} else if err != nil && !errors.Is(err, db.ErrNotFound) {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE users SET mobile = ?, updated_at = ? WHERE id = ?`, mobile, now, uid); err != nil {
			if db.IsUnique(err) {
				return ErrMobileTaken // bound by someone else since the check
			}
			return err
		}
		if s.Invites != nil {
			// A bound phone may be the sign an inviter's reward waits for.
			if err := s.Invites.PhoneBound(ctx, tx, uid); err != nil {
				return err
			}
		}
		tx.AfterCommit(func() {
			realtime.Notify(context.WithoutCancel(ctx), s.Events, realtime.UserTopic(uid), "profile.changed", map[string]int64{"uid": uid})
		})
		var err error
		u, err = userByID(ctx, tx, uid)
		return err
	})
	if err != nil {
		return User{}, err
	}
	return u, nil
}

// ResetPassword is the forgotten-password call: the code sent to the bound
// number sets a new password and signs the user out everywhere, since
// whoever knew the old password must not stay signed in.
func (s *Service) ResetPassword(ctx context.Context, mobile, code, password string) error {
	mobile, err := NormalizeMobile(mobile)
	if err != nil {
		return err
	}
	if err := checkCode(code); err != nil {
		return err
	}
	if err := checkPassword(password); err != nil {
		return err
	}
	hash, err := hashPassword(ctx, password)
	if err != nil {
		return err
	}
	now := s.now().Unix()
	return s.withCode(ctx, mobile, PurposeForget, code, func(ctx context.Context, tx *db.Tx) error {
		u, err := userByMobile(ctx, tx, mobile)
		if errors.Is(err, db.ErrNotFound) {
			// The number was unbound after its code was sent.
			return errCodeWrong
		}
		if err != nil {
			return err
		}
		if err := setPasswordHash(ctx, tx, u.ID, hash, now); err != nil {
			return err
		}
		return s.revokeAllBut(ctx, tx, u.ID, "", now)
	})
}

// PasswordChange is POST /api/app/mine/loginpwd. The caller proves it is
// the owner with the old password, or with a code sent to its bound phone.
type PasswordChange struct {
	UID     int64 // must be the caller's own
	SysType string
	Pwd     string
	OldPwd  string
	Code    string // a pwd-purpose code of the bound mobile, instead of OldPwd
	IP      string
}

// ChangePassword sets a new password for the caller and signs out its
// other sessions; the session making the change stays. Only registered
// users have a password: a guest registers (which sets one) instead.
func (s *Service) ChangePassword(ctx context.Context, sess Session, in PasswordChange) error {
	if in.UID != sess.UserID {
		return ErrNotYours
	}
	if err := checkSysType(in.SysType, false); err != nil {
		return err
	}
	if err := checkPassword(in.Pwd); err != nil {
		return err
	}
	u, err := userByID(ctx, s.db, sess.UserID)
	if err != nil {
		return err
	}
	if u.IsGuest() {
		return ErrNotRegistered
	}
	if in.Code != "" {
		if err := checkCode(in.Code); err != nil {
			return err
		}
		if u.Mobile == "" {
			return invalid("code", "尚未绑定手机号，请使用原密码", "no bound mobile to check a code against")
		}
	} else {
		if in.OldPwd == "" {
			return invalid("oldPwd", "请输入原密码", "oldPwd or code is required")
		}
		if err := s.VerifyPassword(ctx, u.ID, in.OldPwd, in.IP); err != nil {
			return err
		}
	}
	hash, err := hashPassword(ctx, in.Pwd)
	if err != nil {
		return err
	}
	now := s.now().Unix()
	change := func(ctx context.Context, tx *db.Tx) error {
		if err := setPasswordHash(ctx, tx, u.ID, hash, now); err != nil {
			return err
		}
		return s.revokeAllBut(ctx, tx, u.ID, sess.TokenHash, now)
	}
	if in.Code != "" {
		return s.withCode(ctx, u.Mobile, PurposePwd, in.Code, change)
	}
	return s.db.Tx(ctx, change)
}

// revokeAllBut revokes every live session of uid except keep (a token
// hash, "" for none) and announces each one after commit.
func (s *Service) revokeAllBut(ctx context.Context, tx *db.Tx, uid int64, keep string, now int64) error {
	hashes, err := db.All(ctx, tx, func(r db.Scanner) (string, error) {
		var h string
		return h, r.Scan(&h)
	}, `SELECT token_hash FROM sessions WHERE user_id = ? AND revoked_at = 0 AND expires_at > ? AND token_hash <> ?`, uid, now, keep)
	if err != nil {
		return err
	}
	for _, h := range hashes {
		if err := revokeSession(ctx, tx, h, now); err != nil {
			return err
		}
	}
	tx.AfterCommit(func() {
		pctx := context.WithoutCancel(ctx)
		for _, h := range hashes {
			realtime.Notify(pctx, s.Events, realtime.UserTopic(uid), realtime.SessionRevokedType, map[string]string{"sid": Session{TokenHash: h}.ID()})
		}
	})
	return nil
}

// SessionInfo is one of the caller's signed-in devices.
type SessionInfo struct {
	ID         string `json:"id"`
	SysType    string `json:"sysType"`
	Device     string `json:"device"`
	CreatedAt  int64  `json:"createdAt"`
	LastSeenAt int64  `json:"lastSeenAt"`
	Current    bool   `json:"current"`
}

// maxSessionsListed bounds the list; a user with more live sessions than
// this signs the others out with "all other devices".
const maxSessionsListed = 100

// Sessions lists the caller's live sessions, most recently used first.
func (s *Service) Sessions(ctx context.Context, sess Session) ([]SessionInfo, error) {
	list, err := db.All(ctx, s.db, func(r db.Scanner) (SessionInfo, error) {
		var (
			si   SessionInfo
			hash string
		)
		err := r.Scan(&hash, &si.SysType, &si.Device, &si.CreatedAt, &si.LastSeenAt)
		si.ID = Session{TokenHash: hash}.ID()
		si.Current = hash == sess.TokenHash
		return si, err
	}, `SELECT token_hash, sys_type, device, created_at, last_seen_at FROM sessions
		WHERE user_id = ? AND revoked_at = 0 AND expires_at > ? ORDER BY last_seen_at DESC, created_at DESC LIMIT ?`,
		sess.UserID, s.now().Unix(), maxSessionsListed)
	if list == nil {
		list = []SessionInfo{}
	}
	return list, err
}

// RevokeSession signs out one of the caller's other sessions by its id
// (SessionInfo.ID). Another user's session, or one already ended, is
// db.ErrNotFound; the current one is refused (that is logout).
func (s *Service) RevokeSession(ctx context.Context, sess Session, id string) error {
	if len(id) != 16 || strings.Trim(id, "0123456789abcdef") != "" {
		return invalid("id", "设备标识无效", "id must be 16 lowercase hex characters")
	}
	if id == sess.ID() {
		return invalid("id", "当前设备请使用退出登录", "id is the current session; use logout")
	}
	now := s.now().Unix()
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		hashes, err := db.All(ctx, tx, func(r db.Scanner) (string, error) {
			var h string
			return h, r.Scan(&h)
		}, `SELECT token_hash FROM sessions WHERE user_id = ? AND substr(token_hash, 1, 16) = ? AND revoked_at = 0 AND expires_at > ?`, sess.UserID, id, now)
		if err != nil {
			return err
		}
		if len(hashes) == 0 {
			return db.ErrNotFound
		}
		for _, h := range hashes {
			if err := revokeSession(ctx, tx, h, now); err != nil {
				return err
			}
		}
		tx.AfterCommit(func() {
			realtime.Notify(context.WithoutCancel(ctx), s.Events, realtime.UserTopic(sess.UserID), realtime.SessionRevokedType, map[string]string{"sid": id})
		})
		return nil
	})
}

// RevokeOtherSessions signs out every session of the caller but this one
// and says how many it ended.
func (s *Service) RevokeOtherSessions(ctx context.Context, sess Session) (int, error) {
	var n int
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		now := s.now().Unix()
		var c int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM sessions WHERE user_id = ? AND revoked_at = 0 AND expires_at > ? AND token_hash <> ?`,
			sess.UserID, now, sess.TokenHash).Scan(&c); err != nil {
			return err
		}
		n = c
		return s.revokeAllBut(ctx, tx, sess.UserID, sess.TokenHash, now)
	})
	if err != nil {
		return 0, fmt.Errorf("revoke other sessions: %w", err)
	}
	return n, nil
}

// from records what opened the session.
func (s *Session) from(sysType, device string) *Session {
	if checkSysType(sysType, false) == nil {
		s.SysType = sysType
	}
	s.Device = device
	return s
}

// DeviceLabel names the device and browser of a User-Agent in a few words
// ("iPhone · Safari"), enough for a person to recognise their own phone
// in the devices list; the full string is not kept.
func DeviceLabel(ua string) string {
	var dev, browser string
	switch {
	case strings.Contains(ua, "iPhone"):
		dev = "iPhone"
	case strings.Contains(ua, "iPad"):
		dev = "iPad"
	case strings.Contains(ua, "Android"):
		dev = "Android"
	case strings.Contains(ua, "Windows"):
		dev = "Windows"
	case strings.Contains(ua, "Macintosh"), strings.Contains(ua, "Mac OS X"):
		dev = "Mac"
	case strings.Contains(ua, "Linux"):
		dev = "Linux"
	}
	switch {
	case strings.Contains(ua, "MicroMessenger"):
		browser = "WeChat"
	case strings.Contains(ua, "Edg/"):
		browser = "Edge"
	case strings.Contains(ua, "Firefox/"), strings.Contains(ua, "FxiOS"):
		browser = "Firefox"
	case strings.Contains(ua, "Chrome/"), strings.Contains(ua, "CriOS"):
		browser = "Chrome"
	case strings.Contains(ua, "Safari/"):
		browser = "Safari"
	}
	switch {
	case dev != "" && browser != "":
		return dev + " · " + browser
	case dev != "":
		return dev
	}
	return browser
}
