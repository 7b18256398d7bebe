package account

import (
	"context"
	"log/slog"
	"time"
)

// loginKeys are the limiter keys of one password login. acct is the
// lower-cased account, or "" for a name that cannot exist, which only
// counts against its address.
type loginKeys struct {
	acct     string
	failIP   string // failures from the address, any account
	pairFail string // failures from the address on the account
	pairLock string // present while the address must wait on the account
	acctFail string // failures on the account, any address
	known    string // present while the address is one the account signed in from
}

func newLoginKeys(acct, ip string) loginKeys {
	// An address is at most 45 characters, but X-Real-Ip from a local proxy
	// is whatever it sends: bound the key.
	if len(ip) > 64 {
		ip = ip[:64]
	}
	k := loginKeys{acct: acct, failIP: "login:fail:ip:" + ip}
	if acct != "" {
		pair := acct + "|" + ip
		k.pairFail = "login:fail:pair:" + pair
		k.pairLock = "login:lock:" + pair
		k.acctFail = "login:fail:acct:" + acct
		k.known = "login:known:" + pair
	}
	return k
}

// loginGate refuses a login whose address is over its failure limits. Like
// limit it fails open: an unreachable limiter lets the attempt through.
func (s *Service) loginGate(ctx context.Context, k loginKeys) error {
	keys := []string{k.failIP}
	if k.acct != "" {
		keys = append(keys, k.pairLock, k.acctFail, k.known)
	}
	cs, err := s.limiter.Peek(ctx, keys...)
	if err != nil {
		slog.WarnContext(ctx, "rate limiter unavailable, allowing login", "err", err)
		return nil
	}
	// An address over its failure limit is refused, except on an account
	// it signed in to recently: the owner behind the same carrier address
	// as a credential stuffer still gets in (its own lock still applies).
	known := k.acct != "" && cs[3].N > 0
	if cs[0].N >= int64(s.Limits.LoginFailPerIP.N) && !known {
		return &RateLimitError{What: "login", RetryAfter: cs[0].TTL}
	}
	if k.acct == "" {
		return nil
	}
	lock, acctFail := cs[1], cs[2]
	if lock.N > 0 {
		return &RateLimitError{What: "login", RetryAfter: lock.TTL}
	}
	if acctFail.N >= int64(s.Limits.LoginFailPerAccount.N) && !known {
		return &RateLimitError{What: "login", RetryAfter: acctFail.TTL}
	}
	return nil
}

// loginFailed counts a failure everywhere it counts and, once the address
// has used its free failures on the account, makes it wait.
func (s *Service) loginFailed(ctx context.Context, k loginKeys) {
	l := s.Limits
	warn := func(err error) {
		slog.WarnContext(ctx, "rate limiter unavailable, login failure not counted", "err", err)
	}
	if _, err := s.limiter.Incr(ctx, k.failIP, l.LoginFailPerIP.Per); err != nil {
		warn(err)
		return
	}
	if k.acct == "" {
		return
	}
	if _, err := s.limiter.Incr(ctx, k.acctFail, l.LoginFailPerAccount.Per); err != nil {
		warn(err)
		return
	}
	n, err := s.limiter.Incr(ctx, k.pairFail, l.LoginPairMemory)
	if err != nil {
		warn(err)
		return
	}
	if n >= int64(l.LoginPairFree) {
		if err := s.limiter.Set(ctx, k.pairLock, 1, pairWait(l, n)); err != nil {
			warn(err)
		}
	}
}

// pairWait is how long an address waits after its nth failure on an
// account: LoginPairWait at the last free failure, doubling after each
// further one, at most LoginPairMaxWait.
func pairWait(l Limits, n int64) time.Duration {
	w := l.LoginPairWait
	for i := int64(l.LoginPairFree); i < n && w < l.LoginPairMaxWait; i++ {
		w *= 2
	}
	return min(w, l.LoginPairMaxWait)
}

// loginSucceeded forgets the address's failures on the account and marks
// the address as the account's own.
func (s *Service) loginSucceeded(ctx context.Context, k loginKeys) {
	if k.acct == "" {
		return
	}
	if err := s.limiter.Delete(ctx, k.pairFail, k.pairLock); err != nil {
		slog.WarnContext(ctx, "rate limiter unavailable, login failures not cleared", "err", err)
		return
	}
	if err := s.limiter.Set(ctx, k.known, 1, s.Limits.LoginKnownFor); err != nil {
		slog.WarnContext(ctx, "rate limiter unavailable, address not remembered", "err", err)
	}
}
