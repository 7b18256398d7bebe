// Package earnings pays the people who bring the app users and content:
// promoter commission on orders paid with money (levels up the inviter
// chain), creator earnings on coin purchases of a creator's posts, videos
// and galleries, the promoter application and its review, share link
// visits and the promotion data (docs/architecture.md, *Earnings*).
//
// It owns its tables (commission_config, promoter_applications,
// commissions, creator_earnings, earning_debts, invitee_orders,
// share_visits) and moves money only through the wallet's ledger
// (wallet.Ledger.Post, one idempotency key per movement): an earning is
// pending in a system account of its kind, tagged with the earner, and
// settling it moves it into the earner's withdrawable income. The wallet
// tells it of payments, refunds and sales inside the money transaction
// (wallet.Earnings); Check holds the rows equal to their ledger accounts.
package earnings

import (
	"context"
	"errors"
	"strings"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/ratelimit"
	"prima/internal/platform/realtime"
	"prima/internal/wallet"
)

// The ledger accounts of earnings: system accounts (user 0) whose entries
// carry the earner as their movement's user, so what one user has pending
// or owes is the sum of the entries of movements about them.
const (
	// SysCommissionPending holds commission created and not yet settled.
	SysCommissionPending = "sys:cent:commission_pending"
	// SysCreatorPending holds creator earnings not yet settled.
	SysCreatorPending = "sys:cent:creator_pending"
	// SysEarningDebt is what users owe back: commission reversed after it
	// had reached their income (negative: owed to the platform).
	SysEarningDebt = "sys:cent:earning_debt"
)

// States of a commission or creator earning.
const (
	StatePending  = "pending"
	StateSettled  = "settled"
	StateReversed = "reversed"
)

// Invitations are the invite bindings (rewards implements them, wired in
// internal/app).
type Invitations interface {
	// InviterOf is uid's inviter (0: none), read on q.
	InviterOf(ctx context.Context, q db.Querier, uid int64) (int64, error)
	// Code is uid's invite code, made on first ask.
	Code(ctx context.Context, uid int64) (string, error)
	// CodeOwner is the user whose invite code code is (0: no such code).
	CodeOwner(ctx context.Context, code string) (int64, error)
	// Registrations are the times (unix seconds) at which inviter's
	// invitees registered, within [from, to).
	Registrations(ctx context.Context, inviter, from, to int64) ([]int64, error)
	// InviteeCounts is how many invitees each of uids has.
	InviteeCounts(ctx context.Context, uids []int64) (map[int64]int, error)
}

// Person is a user as earnings shows them: operators whole, invitees to
// their inviter masked.
type Person struct {
	Account string // "" for a guest
	Name    string
}

// People reads users through the account rules (account implements them,
// wired in internal/app).
type People interface {
	// Joined is when uid was created and whether it has an account, read
	// on q (db.ErrNotFound: no such user).
	Joined(ctx context.Context, q db.Querier, uid int64) (created int64, registered bool, err error)
	// SharesDevice reports whether users a and b have appeared on one
	// device, read on q.
	SharesDevice(ctx context.Context, q db.Querier, a, b int64) (bool, error)
	// People are uids' accounts and names; missing uids are left out.
	People(ctx context.Context, uids []int64) (map[int64]Person, error)
}

// Creators says whether uid's creator application (/mine/settled) was
// approved, read on q (support implements it, wired in internal/app).
type Creators func(ctx context.Context, q db.Querier, uid int64) (bool, error)

// Service holds the earnings rules.
type Service struct {
	db       *db.DB
	ledger   *wallet.Ledger
	invites  Invitations
	people   People
	creators Creators
	// Limiter bounds promoter applications and share visits (nil: no
	// limit, for tests).
	Limiter ratelimit.Limiter
	// Events carries notices and wallet.changed to users' open apps (nil: none).
	Events realtime.Publisher
	// PublicURL prefixes share links; empty leaves them relative (the
	// client puts its own origin in front), as the invite page does.
	PublicURL string
	now       func() time.Time
}

// NewService builds the earnings over d, posting on ledger (the wallet's),
// reading invitations, people and creators through their owners' seams.
func NewService(d *db.DB, ledger *wallet.Ledger, invites Invitations, people People, creators Creators) *Service {
	return &Service{db: d, ledger: ledger, invites: invites, people: people, creators: creators, now: time.Now}
}

// SetClock replaces the clock (tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// registered refuses a guest (ErrGuest): earnings are paid into income,
// which only a registered user may withdraw.
func (s *Service) registered(ctx context.Context, q db.Querier, uid int64) error {
	_, reg, err := s.people.Joined(ctx, q, uid)
	if errors.Is(err, db.ErrNotFound) {
		return ErrGuest
	}
	if err != nil {
		return err
	}
	if !reg {
		return ErrGuest
	}
	return nil
}

// link is the share link of an invite code, as the invite page makes it.
func (s *Service) link(code string) string {
	return strings.TrimRight(s.PublicURL, "/") + "/?ic=" + code
}

// MaskName shows a name's first and last characters ("a**e"; one
// character "*"): an inviter recognises a friend without the list handing
// out account names.
func MaskName(name string) string {
	r := []rune(name)
	switch len(r) {
	case 0:
		return ""
	case 1:
		return "*"
	}
	return string(r[0]) + "**" + string(r[len(r)-1])
}

// MaskOrderNo shows an order number's first and last four characters.
func MaskOrderNo(no string) string {
	if len(no) <= 8 {
		return strings.Repeat("*", len(no))
	}
	return no[:4] + "****" + no[len(no)-4:]
}

// notify tells uid's open apps that their wallet changed, after tx commits.
func (s *Service) notify(tx *db.Tx, uid int64, why string) {
	wallet.ChangedOnce(tx, s.Events, uid, why)
}
