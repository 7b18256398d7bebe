package account

// What the operator's people section reads of accounts (internal/admin):
// the user search, a user's sessions and devices, and ending one session.

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/realtime"
)

// SearchUsersMax is the most users one page of the search answers.
const SearchUsersMax = 50

// SearchUsers finds users whose uid, account (any case), bound phone or
// part of whose name is text, newest first (uid descending), below uid
// before (0: from the top), at most limit of them, and the uid to pass as
// before for the next page (0 on the last). text is a phone number as
// people type it too: "+86 138 0013 8000". A uid, account and phone match
// by their indexes; the name is matched while walking the primary key
// down from before, which stops as soon as the page is full.
func (s *Service) SearchUsers(ctx context.Context, text string, before int64, limit int) ([]User, int64, error) {
	text = strings.TrimSpace(text)
	if limit < 1 || limit > SearchUsersMax {
		limit = 20
	}
	var w db.Where
	var or []string
	var args []any
	if uid, err := strconv.ParseInt(text, 10, 64); err == nil && uid > 0 {
		or, args = append(or, "id = ?"), append(args, uid)
	}
	or, args = append(or, "lower(account) = lower(?)"), append(args, text)
	phone := strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' {
			return -1
		}
		return r
	}, text)
	if m, err := NormalizeMobile(phone); err == nil {
		or, args = append(or, "mobile = ?"), append(args, m)
	}
	or, args = append(or, `lower(name) LIKE ? ESCAPE '\'`), append(args, "%"+likeEscape(strings.ToLower(text))+"%")
	w.And("("+strings.Join(or, " OR ")+")", args...)
	if before > 0 {
		w.And("id < ?", before)
	}
	list, err := db.All(ctx, s.db, func(r db.Scanner) (User, error) { return scanUser(r) }, `SELECT `+userColumns+` FROM users`+w.Clause()+` ORDER BY id DESC LIMIT ?`, append(w.Args(), limit+1)...)
	if err != nil {
		return nil, 0, err
	}
	var next int64
	if len(list) > limit {
		list = list[:limit]
		next = list[limit-1].ID
	}
	return list, next, nil
}

// likeEscape escapes LIKE's wildcards (the pattern uses ESCAPE '\').
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// UserSessions is uid's live sessions, most recently used first (at most
// maxSessionsListed), for an operator.
func (s *Service) UserSessions(ctx context.Context, uid int64) ([]SessionInfo, error) {
	return s.Sessions(ctx, Session{UserID: uid})
}

// DeviceInfo is one device a user has signed in on as a guest (devices).
type DeviceInfo struct {
	DevID      string `json:"devID"`
	SysType    string `json:"sysType"`
	CreatedAt  int64  `json:"createdAt"`
	LastSeenAt int64  `json:"lastSeenAt"`
}

// UserDevices is the devices bound to uid, most recently seen first (at
// most 50).
func (s *Service) UserDevices(ctx context.Context, uid int64) ([]DeviceInfo, error) {
	list, err := db.All(ctx, s.db, func(r db.Scanner) (DeviceInfo, error) {
		var d DeviceInfo
		return d, r.Scan(&d.DevID, &d.SysType, &d.CreatedAt, &d.LastSeenAt)
	}, `SELECT dev_id, sys_type, created_at, last_seen_at FROM devices WHERE user_id = ? ORDER BY last_seen_at DESC LIMIT 50`, uid)
	if list == nil {
		list = []DeviceInfo{}
	}
	return list, err
}

// ErrNoSession: the user has no live session of that id (404).
var ErrNoSession = errors.New("account: no such live session")

// RevokeUserSession ends one live session of uid by its id
// (SessionInfo.ID), audited as "user.sessions.revoke" with the id. An
// unknown user is db.ErrNotFound, a session that is not uid's or already
// ended ErrNoSession; either changes nothing.
func (s *Service) RevokeUserSession(ctx context.Context, actor audit.Actor, uid int64, id string) error {
	if len(id) != 16 || strings.Trim(id, "0123456789abcdef") != "" {
		return invalid("sessionId", "会话标识无效", "sessionId must be 16 lowercase hex characters")
	}
	now := s.now()
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := lockUser(ctx, tx, uid); err != nil {
			return err
		}
		hashes, err := db.All(ctx, tx, func(r db.Scanner) (string, error) {
			var h string
			return h, r.Scan(&h)
		}, `SELECT token_hash FROM sessions WHERE user_id = ? AND substr(token_hash, 1, 16) = ? AND revoked_at = 0 AND expires_at > ?`, uid, id, now.Unix())
		if err != nil {
			return err
		}
		if len(hashes) == 0 {
			return ErrNoSession
		}
		for _, h := range hashes {
			if err := revokeSession(ctx, tx, h, now.Unix()); err != nil {
				return err
			}
		}
		tx.AfterCommit(func() {
			realtime.Notify(context.WithoutCancel(ctx), s.Events, realtime.UserTopic(uid), realtime.SessionRevokedType, map[string]string{"sid": id})
		})
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: ActionSessionsRevoke, TargetType: "user", TargetID: strconv.FormatInt(uid, 10),
			After: map[string]any{"revoked": len(hashes), "sessionId": id}}, now)
	})
}
