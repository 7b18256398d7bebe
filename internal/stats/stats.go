// Package stats is the operator's numbers (issue 21): a job rolls each
// Asia/Shanghai day (internal/platform/days) up into stats_daily and
// stats_top, and the console's charts read those rows only. Every raw
// figure comes from the domain that owns it, through the interfaces below
// (implemented by account, wallet, catalog and search, wired in
// internal/app): this package names no table but its own.
package stats

import (
	"context"
	"time"
)

// Span is one day: its key (YYYY-MM-DD in days.Zone) and the instants
// [From, To) it covers.
type Span struct {
	Day      string
	From, To time.Time
}

// UserFigures are a day's people (account).
type UserFigures struct {
	ActiveUsers   int64 // users who made a signed-in request, guests included
	NewGuests     int64 // users created as guests (a device's first open)
	Registrations int64 // users who registered (a guest upgraded or a new account)
}

// MoneyFigures are a day's money (wallet), fiat in cents.
type MoneyFigures struct {
	Payers        int64            // users with an order paid that day
	FirstPayments int64            // of them, those whose first paid order it is
	Topup         int64            // coin top-up orders paid
	VIP           int64            // VIP orders paid
	ByProvider    map[string]int64 // both, by pay type
	Withdrawals   int64            // withdrawals paid out that day
	WithdrawCents int64            // their amounts
}

// Count is one item of a day's top list with its count.
type Count struct {
	Key   string
	Title string
	Count int64
}

// Users is account's side: a day's people.
type Users interface {
	UserFigures(ctx context.Context, s Span) (UserFigures, error)
}

// Money is wallet's side: a day's payments and withdrawals.
type Money interface {
	MoneyFigures(ctx context.Context, s Span) (MoneyFigures, error)
}

// Plays is catalog's side: a day's plays and its limit most played videos
// (Key the video id, Title its title).
type Plays interface {
	PlayFigures(ctx context.Context, day string, limit int) (total int64, top []Count, err error)
}

// Searches is search's side: a day's searches and its limit most searched
// words (Key the word).
type Searches interface {
	SearchFigures(ctx context.Context, day string, limit int) (total int64, top []Count, err error)
}

// Sources are the owners of the raw figures.
type Sources struct {
	Users    Users
	Money    Money
	Plays    Plays
	Searches Searches
}
