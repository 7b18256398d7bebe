package account

// Bans (docs/api.md, *Operator API → Ban*): an operator bans a user for a
// while or for good, with a reason. While the ban lasts:
//   - no way of signing in opens a session: every one (password, guest
//     device, account certificate, registration upgrading a guest) stores
//     its session through insertSession, which refuses a banned user with a
//     *BannedError (403, the tip names the end);
//   - the ban ended every session of the user at once, so an old token no
//     longer resolves; Authenticate reads the ban with the session (one
//     primary-key join, no extra round trip) and answers a *BannedError
//     for a token of a banned user, revoked or not, so a sign-in racing the
//     ban cannot keep a token either, and RequireUser answers 403;
//   - a device whose user is banned cannot start over as a new guest.
// Lifting (minutes 0) deletes the row; an expired ban means nothing.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/realtime"
)

const (
	// MaxBanMinutes bounds a ban with an end: ten years. Longer is
	// "forever" (BanForever).
	MaxBanMinutes = 10 * 365 * 24 * 60
	// BanForever is banned_until of a ban without an end (9999-12-31).
	BanForever int64 = 253402300799
	// BanReasonMax is the longest reason, in characters.
	BanReasonMax = 200

	ActionUserBan   = "user.ban"
	ActionUserUnban = "user.unban"
)

var (
	// ErrBanned: the user is banned (403); the error is a *BannedError.
	ErrBanned = errors.New("account: banned")
	// ErrBanOperator: operators are not banned; their role is taken away
	// first (409).
	ErrBanOperator = errors.New("account: an operator cannot be banned")
)

// BannedError is a refused sign-in or token of a banned user. It matches
// ErrBanned and also ErrSessionInvalid, so every caller that only knows
// "the token is no good" (realtime, public routes) treats it so.
type BannedError struct {
	Until  int64
	Reason string
}

func (e *BannedError) Error() string {
	return fmt.Sprintf("account: banned until %s", time.Unix(e.Until, 0).UTC().Format(time.RFC3339))
}

func (e *BannedError) Is(target error) bool {
	return target == ErrBanned || target == ErrSessionInvalid
}

// Detail is the tip: when the ban ends and why.
func (e *BannedError) Detail() (tip, msg string) {
	when := "永久"
	if e.Until < BanForever {
		when = "至 " + time.Unix(e.Until, 0).In(shanghai).Format("2006-01-02 15:04")
	}
	tip = "账号已被封禁（" + when + "）"
	if e.Reason != "" {
		tip += "，原因：" + e.Reason
	}
	return tip, e.Error()
}

var shanghai = func() *time.Location {
	if l, err := time.LoadLocation("Asia/Shanghai"); err == nil {
		return l
	}
	return time.FixedZone("CST", 8*3600)
}()

// Ban is a user's ban as the operator's call answers it: BannedUntil 0
// when not banned.
type Ban struct {
	UID         int64  `json:"uid"`
	BannedUntil int64  `json:"bannedUntil"`
	Forever     bool   `json:"forever"`
	Reason      string `json:"reason"`
}

// banOf reads uid's ban; a missing or expired one is a zero Ban.
func banOf(ctx context.Context, q db.Querier, uid, now int64) (Ban, error) {
	b := Ban{UID: uid}
	err := q.QueryRow(ctx, `SELECT banned_until, reason FROM user_bans WHERE user_id = ?`, uid).Scan(&b.BannedUntil, &b.Reason)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && b.BannedUntil <= now) {
		return Ban{UID: uid}, nil
	}
	b.Forever = b.BannedUntil >= BanForever
	return b, err
}

// checkBan is nil unless uid is banned at now.
func checkBan(ctx context.Context, q db.Querier, uid, now int64) error {
	b, err := banOf(ctx, q, uid, now)
	if err != nil {
		return err
	}
	if b.BannedUntil > 0 {
		return &BannedError{Until: b.BannedUntil, Reason: b.Reason}
	}
	return nil
}

// BanOf is uid's ban now (BannedUntil 0: none).
func (s *Service) BanOf(ctx context.Context, uid int64) (Ban, error) {
	return banOf(ctx, s.db, uid, s.now().Unix())
}

// BanUser bans uid for minutes (1..MaxBanMinutes) or forever, with a
// reason (1..BanReasonMax characters, no control characters), replacing
// any ban they have, and ends all their sessions in the same transaction;
// minutes 0 without forever lifts the ban. Audited "user.ban" /
// "user.unban"; lifting a ban that is not there changes nothing and
// writes nothing. Operators are refused (ErrBanOperator), an unknown uid
// is db.ErrNotFound.
func (s *Service) BanUser(ctx context.Context, actor audit.Actor, uid, minutes int64, forever bool, reason string) (Ban, error) {
	if minutes < 0 || minutes > MaxBanMinutes {
		return Ban{}, invalid("minutes", fmt.Sprintf("封禁时长应在 0 到 %d 分钟（十年）之间，更长请选永久", MaxBanMinutes),
			fmt.Sprintf("minutes must be 0-%d (or forever)", MaxBanMinutes))
	}
	lift := minutes == 0 && !forever
	if !lift {
		reason = strings.TrimSpace(reason)
		n := utf8.RuneCountInString(reason)
		switch {
		case n == 0:
			return Ban{}, invalid("reason", "请填写封禁原因", "reason is required")
		case n > BanReasonMax:
			return Ban{}, invalid("reason", fmt.Sprintf("原因不能超过 %d 个字", BanReasonMax), fmt.Sprintf("reason is longer than %d characters", BanReasonMax))
		case strings.ContainsFunc(reason, func(r rune) bool { return r < 0x20 || r == 0x7f }):
			return Ban{}, invalid("reason", "原因不能包含控制字符", "reason has control characters")
		}
	} else {
		reason = ""
	}
	now := s.now()
	out := Ban{UID: uid, Reason: reason, Forever: forever}
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		u, err := lockUser(ctx, tx, uid)
		if err != nil {
			return err
		}
		if u.Role != httpx.RoleUser {
			return ErrBanOperator
		}
		before, err := banOf(ctx, tx, uid, now.Unix())
		if err != nil {
			return err
		}
		target := strconv.FormatInt(uid, 10)
		if lift {
			if before.BannedUntil == 0 {
				// Not banned now: nothing to lift (an expired row is tidied).
				_, err := tx.Exec(ctx, `DELETE FROM user_bans WHERE user_id = ?`, uid)
				return err
			}
			if _, err := tx.Exec(ctx, `DELETE FROM user_bans WHERE user_id = ?`, uid); err != nil {
				return err
			}
			return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: ActionUserUnban, TargetType: "user", TargetID: target,
				Before: map[string]any{"bannedUntil": before.BannedUntil, "reason": before.Reason}, After: map[string]int64{"bannedUntil": 0}}, now)
		}
		out.BannedUntil = BanForever
		if !forever {
			out.BannedUntil = now.Add(time.Duration(minutes) * time.Minute).Unix()
		}
		if _, err := tx.Exec(ctx, `INSERT INTO user_bans (user_id, banned_until, reason, operator_id, created_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (user_id) DO UPDATE SET banned_until = excluded.banned_until, reason = excluded.reason,
			operator_id = excluded.operator_id, created_at = excluded.created_at`, uid, out.BannedUntil, reason, actor.UID, now.Unix()); err != nil {
			return err
		}
		res, err := tx.Exec(ctx, `UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at = 0 AND expires_at > ?`, now.Unix(), uid, now.Unix())
		if err != nil {
			return err
		}
		ended, err := res.RowsAffected()
		if err != nil {
			return err
		}
		tx.AfterCommit(func() {
			realtime.Notify(context.WithoutCancel(ctx), s.Events, realtime.UserTopic(uid), realtime.SessionRevokedType, map[string]bool{"all": true})
		})
		after := map[string]any{"bannedUntil": out.BannedUntil, "forever": forever, "reason": reason, "sessionsEnded": ended}
		if !forever {
			after["minutes"] = minutes
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: ActionUserBan, TargetType: "user", TargetID: target,
			Before: map[string]any{"bannedUntil": before.BannedUntil, "reason": before.Reason}, After: after}, now)
	})
	if err != nil {
		return Ban{}, err
	}
	return out, nil
}
