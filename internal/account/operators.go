package account

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/realtime"
)

var (
	// ErrLastOperator: demoting the only operator would leave the install
	// without anyone who can use the operator API (409).
	ErrLastOperator = errors.New("cannot demote the last operator")
	// ErrGuestOperator: a guest has no password, and a device id is no
	// credential for the operator API (422).
	ErrGuestOperator = errors.New("a guest cannot be an operator")
	// ErrPasswordNeeded: creating an operator account needs a password.
	ErrPasswordNeeded = errors.New("a new operator account needs a password")
)

// Audit actions written by this package.
const (
	ActionUserCreate     = "user.create"
	ActionUserRole       = "user.role"
	ActionSessionsRevoke = "user.sessions.revoke"
)

// CreateOperator makes account an operator: an existing account is
// promoted (its password is left alone, and password may be empty); a new
// one is created with password, which must pass the registration rule.
// created says which happened. The audit row is written in the same
// transaction, with actor as the actor (audit.CLI for the command line).
//
// It makes the users row staff only; the console role is the operator
// package's (operator.Service.Create calls EnsureOperator in its own
// transaction).
func (s *Service) CreateOperator(ctx context.Context, actor audit.Actor, account, password string) (u User, created bool, err error) {
	if err := checkAccount(account); err != nil {
		return User{}, false, err
	}
	hash := ""
	if _, err := userByAccount(ctx, s.db, account); errors.Is(err, db.ErrNotFound) {
		if hash, err = s.HashOperatorPassword(ctx, password); err != nil {
			return User{}, false, err
		}
	} else if err != nil {
		return User{}, false, err
	}
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		u, created, err = s.EnsureOperator(ctx, tx, actor, account, hash)
		return err
	})
	if db.IsUnique(err) {
		// Registered between the lookup and the insert: promote that one.
		return s.CreateOperator(ctx, actor, account, "")
	}
	if err != nil {
		return User{}, false, fmt.Errorf("create operator: %w", err)
	}
	return u, created, nil
}

// HashOperatorPassword checks a new operator account's password against
// the registration rule and hashes it, outside any transaction (the hash
// takes ~50 ms); EnsureOperator stores it.
func (s *Service) HashOperatorPassword(ctx context.Context, password string) (string, error) {
	if password == "" {
		return "", ErrPasswordNeeded
	}
	if err := checkPassword(password); err != nil {
		return "", err
	}
	return hashPassword(ctx, password)
}

// EnsureOperator is CreateOperator's step in the caller's transaction: the
// existing account is promoted (a guest cannot be), else a new one is
// created with the password hash (from HashOperatorPassword; empty ->
// ErrPasswordNeeded). The users row and its audit row are written in tx.
func (s *Service) EnsureOperator(ctx context.Context, tx *db.Tx, actor audit.Actor, account, hash string) (u User, created bool, err error) {
	if err := checkAccount(account); err != nil {
		return User{}, false, err
	}
	if existing, err := userByAccount(ctx, tx, account); err == nil {
		u, err = s.SetRoleIn(ctx, tx, actor, existing.ID, httpx.RoleOperator)
		return u, false, err
	} else if !errors.Is(err, db.ErrNotFound) {
		return User{}, false, err
	}
	if hash == "" {
		return User{}, false, ErrPasswordNeeded
	}
	now := s.now()
	id, err := insertUser(ctx, tx, &User{Name: account, Account: account, PasswordHash: hash, Role: httpx.RoleOperator,
		CreatedAt: now.Unix(), UpdatedAt: now.Unix()})
	if err != nil {
		return User{}, false, err
	}
	if u, err = userByID(ctx, tx, id); err != nil {
		return User{}, false, err
	}
	return u, true, audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: ActionUserCreate, TargetType: "user", TargetID: strconv.FormatInt(id, 10),
		After: map[string]any{"account": account, "role": httpx.RoleOperator}}, now)
}

// SetRole gives user uid role and audits the change; setting the role the
// user already has changes and records nothing. The last operator cannot
// be demoted, and a guest cannot be promoted.
func (s *Service) SetRole(ctx context.Context, actor audit.Actor, uid int64, role httpx.Role) (User, error) {
	var u User
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		u, err = s.SetRoleIn(ctx, tx, actor, uid, role)
		return err
	})
	if err != nil {
		return User{}, err
	}
	return u, nil
}

// SetRoleIn is SetRole in the caller's transaction (the operator package
// changes the users row and its console role together).
func (s *Service) SetRoleIn(ctx context.Context, tx *db.Tx, actor audit.Actor, uid int64, role httpx.Role) (User, error) {
	if !role.Valid() {
		return User{}, invalid("role", "角色无效", fmt.Sprintf("role %q is not user or operator", role))
	}
	now := s.now()
	if role == httpx.RoleUser {
		// Lock every operator row first, in one order: two operators
		// demoting each other at once then take turns, and the second
		// sees one operator left. (PostgreSQL re-checks the WHERE of a
		// row that changed while it waited for the lock.)
		ops, err := operatorIDs(ctx, tx)
		if err != nil {
			return User{}, err
		}
		if len(ops) == 1 && ops[0] == uid {
			return User{}, ErrLastOperator
		}
	}
	u, err := lockUser(ctx, tx, uid)
	if err != nil {
		return User{}, err
	}
	if u.Role == role {
		return u, nil
	}
	if role == httpx.RoleOperator && u.IsGuest() {
		return User{}, ErrGuestOperator
	}
	if _, err := tx.Exec(ctx, `UPDATE users SET role = ?, updated_at = ? WHERE id = ?`, role, now.Unix(), uid); err != nil {
		return User{}, err
	}
	before := u.Role
	u.Role, u.UpdatedAt = role, now.Unix()
	return u, audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: ActionUserRole, TargetType: "user", TargetID: strconv.FormatInt(uid, 10),
		Before: map[string]any{"role": before}, After: map[string]any{"role": role}}, now)
}

// RevokeSessions signs user uid out everywhere and reports how many live
// sessions it ended. The audit row is written even when there were none, so
// the log shows that the operator acted.
func (s *Service) RevokeSessions(ctx context.Context, actor audit.Actor, uid int64) (int64, error) {
	now := s.now()
	var n int64
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := lockUser(ctx, tx, uid); err != nil {
			return err
		}
		res, err := tx.Exec(ctx, `UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at = 0 AND expires_at > ?`, now.Unix(), uid, now.Unix())
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil {
			return err
		}
		// Every open connection of the user closes at once, not at its
		// next session re-check.
		tx.AfterCommit(func() {
			realtime.Notify(context.WithoutCancel(ctx), s.Events, realtime.UserTopic(uid), realtime.SessionRevokedType, map[string]bool{"all": true})
		})
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: ActionSessionsRevoke, TargetType: "user", TargetID: strconv.FormatInt(uid, 10),
			After: map[string]any{"revoked": n}}, now)
	})
	return n, err
}

// UserByAccount looks a user up by account name, case-insensitively.
func (s *Service) UserByAccount(ctx context.Context, account string) (User, error) {
	return userByAccount(ctx, s.db, account)
}

// LiveSessions counts the user's sessions that are neither revoked nor expired.
func (s *Service) LiveSessions(ctx context.Context, uid int64) (int, error) {
	var n int
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM sessions WHERE user_id = ? AND revoked_at = 0 AND expires_at > ?`, uid, s.now().Unix()).Scan(&n)
	return n, err
}

// operatorIDs locks and returns the operators' ids in id order.
func operatorIDs(ctx context.Context, tx *db.Tx) ([]int64, error) {
	return db.All(ctx, tx, func(r db.Scanner) (int64, error) {
		var id int64
		return id, r.Scan(&id)
	}, `SELECT id FROM users WHERE role = 'operator' ORDER BY id`+tx.ForUpdate())
}
