package operator

import (
	"context"
	"crypto/rand"
	"errors"
	"strconv"
	"strings"
	"time"

	"prima/internal/account"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// Operator is an operator as the console lists them.
type Operator struct {
	UID       int64      `json:"uid"`
	Account   string     `json:"account"`
	Name      string     `json:"name"`
	Role      httpx.Role `json:"role"`
	TOTP      bool       `json:"totp"` // enrolled
	CreatedAt time.Time  `json:"createdAt"`
}

// Operators lists every operator, oldest first.
func (s *Service) Operators(ctx context.Context) ([]Operator, error) {
	rows, err := listOperators(ctx, s.db)
	if err != nil {
		return nil, err
	}
	out := make([]Operator, 0, len(rows))
	for _, r := range rows {
		o, err := s.view(ctx, r)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

func (s *Service) view(ctx context.Context, r operatorRow) (Operator, error) {
	u, err := s.users.User(ctx, r.UID)
	if err != nil {
		return Operator{}, err
	}
	return Operator{UID: r.UID, Account: u.Account, Name: u.Name, Role: r.Role, TOTP: r.TOTP, CreatedAt: time.Unix(r.CreatedAt, 0).UTC()}, nil
}

// Operator is one operator; ErrNoOperator when uid is none.
func (s *Service) Operator(ctx context.Context, uid int64) (Operator, error) {
	rows, err := listOperators(ctx, s.db)
	if err != nil {
		return Operator{}, err
	}
	for _, r := range rows {
		if r.UID == uid {
			return s.view(ctx, r)
		}
	}
	return Operator{}, ErrNoOperator
}

// ParseRole is role as a console role, or ErrBadRole.
func ParseRole(role string) (httpx.Role, error) {
	r := httpx.Role(strings.TrimSpace(role))
	if !r.Console() {
		return "", ErrBadRole
	}
	return r, nil
}

// Ensure makes account an operator with role, for the command line
// (`prima admin create`): a new account is created with password (the
// registration rule applies), an existing registered account is promoted
// and keeps its password, and an existing operator gets role (role ""
// keeps theirs; a new operator without one is an owner). Audited with
// actor (audit.CLI from the shell).
func (s *Service) Ensure(ctx context.Context, actor audit.Actor, acct string, role httpx.Role, password string) (o Operator, created bool, err error) {
	if role != "" && !role.Console() {
		return Operator{}, false, ErrBadRole
	}
	hash := ""
	if _, err := s.users.UserByAccount(ctx, acct); errors.Is(err, db.ErrNotFound) {
		if hash, err = s.users.HashOperatorPassword(ctx, password); err != nil {
			return Operator{}, false, err
		}
	} else if err != nil {
		return Operator{}, false, err
	}
	var uid int64
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		u, made, err := s.users.EnsureOperator(ctx, tx, actor, acct, hash)
		if err != nil {
			return err
		}
		uid, created = u.ID, made
		cur, err := roleOf(ctx, tx, u.ID, tx.ForUpdate())
		if errors.Is(err, db.ErrNotFound) {
			return s.insertOperator(ctx, tx, actor, u, cmpRole(role, httpx.RoleOwner))
		}
		if err != nil || role == "" || role == cur {
			return err
		}
		return s.changeRole(ctx, tx, actor, u.ID, cur, role)
	})
	if err != nil {
		return Operator{}, false, err
	}
	o, err = s.Operator(ctx, uid)
	return o, created, err
}

func cmpRole(r, otherwise httpx.Role) httpx.Role {
	if r == "" {
		return otherwise
	}
	return r
}

// Create is POST /api/admin/operators: account becomes an operator with
// role. A new account gets a generated password, answered once (the
// operator signs in with it and enrols TOTP); an existing registered
// account is promoted and keeps its own (password ""). An account that is
// an operator already is ErrAlreadyOperator.
func (s *Service) Create(ctx context.Context, actor audit.Actor, acct string, role httpx.Role) (o Operator, password string, err error) {
	if !role.Console() {
		return Operator{}, "", ErrBadRole
	}
	if u, err := s.users.UserByAccount(ctx, acct); err == nil {
		if _, err := roleOf(ctx, s.db, u.ID, ""); err == nil {
			return Operator{}, "", ErrAlreadyOperator
		}
	} else if errors.Is(err, db.ErrNotFound) {
		password = generatedPassword()
	} else {
		return Operator{}, "", err
	}
	o, _, err = s.Ensure(ctx, actor, acct, role, password)
	if err != nil {
		return Operator{}, "", err
	}
	return o, password, nil
}

// generatedPassword is 16 characters of base32 with a digit guaranteed
// (the registration rule asks for a letter and a digit): 80 bits.
func generatedPassword() string {
	p := []byte(strings.ToLower(rand.Text()[:16]))
	if !strings.ContainsAny(string(p), "234567") {
		p[15] = '7'
	}
	if !strings.ContainsAny(string(p), "abcdefghijklmnopqrstuvwxyz") {
		p[0] = 'k'
	}
	return string(p)
}

// SetRole gives operator uid role, makes a registered user an operator
// with it, or with role "user" makes an operator a plain user again (their
// sessions end and their TOTP and API keys are forgotten). There is always
// an owner: the last one keeps the role (ErrLastOwner). Setting the role
// there is changes nothing.
func (s *Service) SetRole(ctx context.Context, actor audit.Actor, uid int64, role httpx.Role) (Operator, error) {
	if role != httpx.RoleUser && !role.Console() {
		return Operator{}, ErrBadRole
	}
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		cur, err := roleOf(ctx, tx, uid, tx.ForUpdate())
		switch {
		case errors.Is(err, db.ErrNotFound) && role == httpx.RoleUser:
			return ErrNoOperator
		case errors.Is(err, db.ErrNotFound):
			u, err := s.users.SetRoleIn(ctx, tx, actor, uid, httpx.RoleOperator)
			if err != nil {
				return err
			}
			return s.insertOperator(ctx, tx, actor, u, role)
		case err != nil:
			return err
		case cur == role:
			return nil
		}
		return s.changeRole(ctx, tx, actor, uid, cur, role)
	})
	if err != nil || role == httpx.RoleUser {
		return Operator{UID: uid, Role: role}, err
	}
	return s.Operator(ctx, uid)
}

func (s *Service) insertOperator(ctx context.Context, tx *db.Tx, actor audit.Actor, u account.User, role httpx.Role) error {
	now := s.now()
	if _, err := tx.Exec(ctx, `INSERT INTO operators (uid, role, created_at, updated_at) VALUES (?, ?, ?, ?)`, u.ID, role, now.Unix(), now.Unix()); err != nil {
		return err
	}
	return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "operator.create", TargetType: "operator", TargetID: strconv.FormatInt(u.ID, 10),
		After: map[string]any{"account": u.Account, "role": role}}, now)
}

// changeRole moves operator uid (locked, role cur) to role, or out of the
// console with RoleUser, keeping an owner.
func (s *Service) changeRole(ctx context.Context, tx *db.Tx, actor audit.Actor, uid int64, cur, role httpx.Role) error {
	now := s.now()
	if cur == httpx.RoleOwner {
		// Every owner row in one order: two owners demoting each other at
		// once take turns, and the second sees one owner left.
		owners, err := lockOwners(ctx, tx)
		if err != nil {
			return err
		}
		if len(owners) <= 1 {
			return ErrLastOwner
		}
	}
	if role == httpx.RoleUser {
		if _, err := tx.Exec(ctx, `DELETE FROM operators WHERE uid = ?`, uid); err != nil {
			return err
		}
		if err := s.forget(ctx, tx, uid, now.Unix()); err != nil {
			return err
		}
		if _, err := s.users.SetRoleIn(ctx, tx, actor, uid, httpx.RoleUser); err != nil {
			return err
		}
	} else if _, err := tx.Exec(ctx, `UPDATE operators SET role = ?, updated_at = ? WHERE uid = ?`, role, now.Unix(), uid); err != nil {
		return err
	}
	return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "operator.role", TargetType: "operator", TargetID: strconv.FormatInt(uid, 10),
		Before: map[string]any{"role": cur}, After: map[string]any{"role": role}}, now)
}

// forget ends uid's console access: sessions revoked, TOTP, recovery codes
// and tickets deleted, API keys revoked.
func (s *Service) forget(ctx context.Context, tx *db.Tx, uid, now int64) error {
	if _, err := revokeSessions(ctx, tx, uid, now); err != nil {
		return err
	}
	if err := forgetTOTP(ctx, tx, uid); err != nil {
		return err
	}
	return revokeKeys(ctx, tx, uid, now)
}

// ResetTOTP forgets operator uid's TOTP and recovery codes and ends their
// console sessions: their next sign-in enrols a new authenticator (a lost
// phone). Their API keys stay.
func (s *Service) ResetTOTP(ctx context.Context, actor audit.Actor, uid int64) error {
	now := s.now()
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := roleOf(ctx, tx, uid, tx.ForUpdate()); errors.Is(err, db.ErrNotFound) {
			return ErrNoOperator
		} else if err != nil {
			return err
		}
		n, err := revokeSessions(ctx, tx, uid, now.Unix())
		if err != nil {
			return err
		}
		if err := forgetTOTP(ctx, tx, uid); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "operator.totp.reset", TargetType: "operator", TargetID: strconv.FormatInt(uid, 10),
			After: map[string]any{"sessionsRevoked": n}}, now)
	})
}

// SessionView is a console session as GET /api/admin/sessions lists it.
type SessionView struct {
	ID         int64      `json:"id"`
	UID        int64      `json:"uid"`
	Account    string     `json:"account"`
	Role       httpx.Role `json:"role"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastSeenAt time.Time  `json:"lastSeenAt"`
	IP         string     `json:"ip"`
	UserAgent  string     `json:"userAgent"`
	Current    bool       `json:"current"`
}

// Sessions lists the live console sessions the caller may see: an owner
// every operator's, anyone else their own; newest first.
func (s *Service) Sessions(ctx context.Context, c Caller) ([]SessionView, error) {
	uid := c.UID
	if c.Role == httpx.RoleOwner {
		uid = 0
	}
	now := s.now().Unix()
	rows, err := liveSessions(ctx, s.db, uid, now, now-int64(IdleTimeout/time.Second))
	if err != nil {
		return nil, err
	}
	names := map[int64]string{}
	out := make([]SessionView, 0, len(rows))
	for _, r := range rows {
		name, ok := names[r.UID]
		if !ok {
			u, err := s.users.User(ctx, r.UID)
			if err != nil {
				return nil, err
			}
			name, names[r.UID] = u.Account, u.Account
		}
		out = append(out, SessionView{ID: r.ID, UID: r.UID, Account: name, Role: r.Role, CreatedAt: time.Unix(r.CreatedAt, 0).UTC(),
			LastSeenAt: time.Unix(r.LastSeenAt, 0).UTC(), IP: r.IP, UserAgent: r.UserAgent, Current: r.ID == c.SessionID})
	}
	return out, nil
}

// RevokeSession ends console session id: any operator's for an owner, else
// only the caller's own (another's is ErrNoSession, as an unknown id).
// revoked is false when it had ended already.
func (s *Service) RevokeSession(ctx context.Context, actor audit.Actor, c Caller, id int64) (revoked bool, err error) {
	now := s.now()
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		sess, err := sessionByID(ctx, tx, id)
		if errors.Is(err, db.ErrNotFound) || (err == nil && c.Role != httpx.RoleOwner && sess.UID != c.UID) {
			return ErrNoSession
		}
		if err != nil {
			return err
		}
		res, err := tx.Exec(ctx, `UPDATE operator_sessions SET revoked_at = ? WHERE id = ? AND revoked_at = 0 AND expires_at > ?`, now.Unix(), id, now.Unix())
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil || n == 0 {
			return err
		}
		revoked = true
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "operator.session.revoke", TargetType: "operator_session",
			TargetID: strconv.FormatInt(id, 10), After: map[string]any{"uid": sess.UID}}, now)
	})
	return revoked, err
}
