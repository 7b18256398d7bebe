package operator

import (
	"context"
	"database/sql"
	"errors"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// The operator tables (migration 0055): operators, operator_totp,
// operator_recovery_codes, operator_enrol_tickets, operator_sessions.

// roleOf is uid's console role; db.ErrNotFound when uid is no operator.
// lock takes the row's lock in a transaction.
func roleOf(ctx context.Context, q db.Querier, uid int64, lock string) (httpx.Role, error) {
	var r httpx.Role
	err := q.QueryRow(ctx, `SELECT role FROM operators WHERE uid = ?`+lock, uid).Scan(&r)
	return r, db.NotFound(err)
}

// lockOwners locks the owners' rows in uid order and returns their uids.
func lockOwners(ctx context.Context, tx *db.Tx) ([]int64, error) {
	return db.All(ctx, tx, scanInt, `SELECT uid FROM operators WHERE role = 'owner' ORDER BY uid`+tx.ForUpdate())
}

func scanInt(r db.Scanner) (int64, error) {
	var n int64
	return n, r.Scan(&n)
}

// sealedSecret is uid's sealed TOTP secret; db.ErrNotFound before enrolment.
func sealedSecret(ctx context.Context, q db.Querier, uid int64) (string, error) {
	var s string
	err := q.QueryRow(ctx, `SELECT secret FROM operator_totp WHERE uid = ?`, uid).Scan(&s)
	return s, db.NotFound(err)
}

// claimStep records that uid's code of step was used; false when a code
// of this step or a later one was used before (a replay).
func claimStep(ctx context.Context, tx *db.Tx, uid, step int64) (bool, error) {
	res, err := tx.Exec(ctx, `UPDATE operator_totp SET last_step = ? WHERE uid = ? AND last_step < ?`, step, uid, step)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// useRecoveryCode spends uid's unused code whose stored hash is one of
// hashes; false when there is none.
func useRecoveryCode(ctx context.Context, tx *db.Tx, uid int64, hashes []any, now int64) (bool, error) {
	args := append([]any{now, uid}, hashes...)
	res, err := tx.Exec(ctx, `UPDATE operator_recovery_codes SET used_at = ? WHERE uid = ? AND used_at = 0 AND code_hash IN (`+db.Placeholders(len(hashes))+`)`, args...)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// forgetTOTP deletes uid's secret, recovery codes and enrolment tickets.
func forgetTOTP(ctx context.Context, tx *db.Tx, uid int64) error {
	for _, q := range []string{
		`DELETE FROM operator_totp WHERE uid = ?`,
		`DELETE FROM operator_recovery_codes WHERE uid = ?`,
		`DELETE FROM operator_enrol_tickets WHERE uid = ?`,
	} {
		if _, err := tx.Exec(ctx, q, uid); err != nil {
			return err
		}
	}
	return nil
}

// ticket is a row of operator_enrol_tickets.
type ticket struct {
	UID       int64
	Secret    string // sealed
	Tries     int
	ExpiresAt int64
	UsedAt    int64
}

func ticketByHash(ctx context.Context, q db.Querier, hash string) (ticket, error) {
	var t ticket
	err := q.QueryRow(ctx, `SELECT uid, secret, tries, expires_at, used_at FROM operator_enrol_tickets WHERE ticket_hash = ?`, hash).
		Scan(&t.UID, &t.Secret, &t.Tries, &t.ExpiresAt, &t.UsedAt)
	return t, db.NotFound(err)
}

// session is a row of operator_sessions with its operator's role.
type session struct {
	ID          int64
	UID         int64
	Role        httpx.Role
	CreatedAt   int64
	LastSeenAt  int64
	ExpiresAt   int64
	StepUpUntil int64
	RevokedAt   int64
	IP          string
	UserAgent   string
}

const sessionColumns = `s.id, s.uid, o.role, s.created_at, s.last_seen_at, s.expires_at, s.step_up_until, s.revoked_at, s.ip, s.user_agent`

func scanSession(r db.Scanner) (session, error) {
	var s session
	err := r.Scan(&s.ID, &s.UID, &s.Role, &s.CreatedAt, &s.LastSeenAt, &s.ExpiresAt, &s.StepUpUntil, &s.RevokedAt, &s.IP, &s.UserAgent)
	return s, err
}

// sessionByHash is the session of a token hash whose user is still an
// operator; db.ErrNotFound otherwise.
func sessionByHash(ctx context.Context, q db.Querier, hash string) (session, error) {
	s, err := scanSession(q.QueryRow(ctx, `SELECT `+sessionColumns+` FROM operator_sessions s JOIN operators o ON o.uid = s.uid WHERE s.token_hash = ?`, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return s, db.ErrNotFound
	}
	return s, err
}

func sessionByID(ctx context.Context, q db.Querier, id int64) (session, error) {
	s, err := scanSession(q.QueryRow(ctx, `SELECT `+sessionColumns+` FROM operator_sessions s JOIN operators o ON o.uid = s.uid WHERE s.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return s, db.ErrNotFound
	}
	return s, err
}

// liveSessions lists the sessions neither revoked nor expired (absolute or
// idle) at now, of uid or of everyone (uid 0), newest first.
func liveSessions(ctx context.Context, q db.Querier, uid, now, idleSince int64) ([]session, error) {
	var w db.Where
	w.And("s.revoked_at = 0")
	w.And("s.expires_at > ?", now)
	w.And("s.last_seen_at > ?", idleSince)
	if uid != 0 {
		w.And("s.uid = ?", uid)
	}
	return db.All(ctx, q, scanSession, `SELECT `+sessionColumns+` FROM operator_sessions s JOIN operators o ON o.uid = s.uid`+w.Clause()+` ORDER BY s.id DESC LIMIT 500`, w.Args()...)
}

// revokeSessions ends every live console session of uid.
func revokeSessions(ctx context.Context, tx *db.Tx, uid, now int64) (int64, error) {
	res, err := tx.Exec(ctx, `UPDATE operator_sessions SET revoked_at = ? WHERE uid = ? AND revoked_at = 0`, now, uid)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// operatorRow is a row of operators with whether TOTP is enrolled.
type operatorRow struct {
	UID       int64
	Role      httpx.Role
	TOTP      bool
	CreatedAt int64
}

func listOperators(ctx context.Context, q db.Querier) ([]operatorRow, error) {
	return db.All(ctx, q, func(r db.Scanner) (operatorRow, error) {
		var o operatorRow
		var totp int
		err := r.Scan(&o.UID, &o.Role, &o.CreatedAt, &totp)
		o.TOTP = totp == 1
		return o, err
	}, `SELECT o.uid, o.role, o.created_at, CASE WHEN t.uid IS NULL THEN 0 ELSE 1 END
		FROM operators o LEFT JOIN operator_totp t ON t.uid = o.uid ORDER BY o.uid`)
}
