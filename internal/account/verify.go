package account

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrNotRegistered: the user is a guest, with no password to check (403 at
// the callers).
var ErrNotRegistered = errors.New("guest account has no password")

// VerifyPassword checks uid's password afresh, for calls that need more
// than a token (adding a payout account, withdrawing: a guest token is
// device-bound and replayable, and a stolen session should not be enough
// to move money). A wrong password counts as a login failure on the
// account from ip and the check is refused while logins would be, so the
// check cannot be used to guess passwords faster than the login.
// It answers nil, ErrNotRegistered, ErrBadCredentials or a *RateLimitError.
func (s *Service) VerifyPassword(ctx context.Context, uid int64, password, ip string) error {
	u, err := userByID(ctx, s.db, uid)
	if err != nil {
		return err
	}
	if u.IsGuest() {
		return ErrNotRegistered
	}
	keys := newLoginKeys(strings.ToLower(u.Account), ip)
	if err := s.loginGate(ctx, keys); err != nil {
		return err
	}
	ok, _, err := verifyPassword(ctx, u.PasswordHash, password)
	if err != nil {
		return fmt.Errorf("user %d: %w", u.ID, err)
	}
	if !ok {
		s.loginFailed(ctx, keys)
		return ErrBadCredentials
	}
	s.loginSucceeded(ctx, keys)
	return nil
}
