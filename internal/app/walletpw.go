package app

import (
	"context"
	"errors"

	"prima/internal/account"
	"prima/internal/wallet"
)

// walletPasswords is the wallet's fresh password check, answered by the
// account service in the wallet's terms.
type walletPasswords struct{ acct *account.Service }

func (p walletPasswords) VerifyPassword(ctx context.Context, uid int64, password, ip string) error {
	err := p.acct.VerifyPassword(ctx, uid, password, ip)
	var rl *account.RateLimitError
	switch {
	case errors.Is(err, account.ErrNotRegistered):
		return wallet.ErrGuest
	case errors.Is(err, account.ErrBadCredentials):
		return wallet.ErrWrongPassword
	case errors.As(err, &rl):
		return &wallet.RetryError{After: rl.RetryAfter}
	}
	return err
}
