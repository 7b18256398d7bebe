// Package wallet keeps every coin and cent in a double-entry ledger, and
// builds on it top-up orders, purchases, VIP sales, coupons and
// withdrawals (docs/architecture.md, *Wallet ledger*).
//
// The rules the ledger keeps, whatever calls it:
//   - a movement is one ledger_txns row whose entries sum to zero per
//     currency, written in the caller's database transaction;
//   - a user account's cached balance equals the sum of its entries and
//     never goes below zero (a conditional update, not a read-then-write);
//   - a movement names an idempotency key, unique across the ledger: posting
//     the same key again moves nothing and returns the first movement.
//
// Nothing edits a balance except Post, and nothing deletes an entry.
package wallet

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"prima/internal/platform/db"
)

// Currencies. Coins are the app's own unit; cents are fiat (CNY fen):
// payments, income and withdrawals.
const (
	Coin = "coin"
	Cent = "cent"
)

// The two accounts of every user.
const (
	// Coins are spendable coins: bought by top-up, granted as bonus, spent
	// on gold videos and VIP.
	Coins = "coins"
	// Income is withdrawable money in cents (referral and creator earnings,
	// operator credits); kept apart from coins and never spendable as them
	// except through an exchange.
	Income = "income"
)

// System accounts (user 0). Their kind names their currency
// ("sys:<currency>:<name>"), so a new one needs no registration. They may
// go negative (money entering the system is a debit of its source) and
// keep no cached balance: their balance is the sum of their entries, so
// the busiest of them is never one locked row every purchase waits on.
const (
	SysCoinsSold      = "sys:coin:sold"      // coins issued for a paid top-up (negative: coins in circulation)
	SysCoinsSpent     = "sys:coin:spent"     // coins users spent on videos, VIP, galleries
	SysCoinsPromo     = "sys:coin:promo"     // bonus and promotion coins granted
	SysCoinsExchanged = "sys:coin:exchanged" // coins issued for income exchanged
	SysCoinsAdjust    = "sys:coin:adjust"    // operator adjustments of coins
	SysPayments       = "sys:cent:payments"  // money received from payment providers (negative)
	SysSales          = "sys:cent:sales"     // revenue of paid orders
	SysIncomePaid     = "sys:cent:income"    // income credited to users (commission, creator earnings)
	SysIncomeExchange = "sys:cent:exchange"  // income turned into coins
	SysWithdrawHeld   = "sys:cent:withdraw_held"
	SysWithdrawFees   = "sys:cent:withdraw_fees"
	SysPayouts        = "sys:cent:payouts" // money paid out to users' accounts
	SysCentsAdjust    = "sys:cent:adjust"  // operator adjustments of income
)

// Account names one ledger account: a user's (UserID > 0, Kind Coins or
// Income) or a system account (UserID 0, Kind one of the Sys constants).
type Account struct {
	UserID int64
	Kind   string
}

// UserCoins is uid's coin account.
func UserCoins(uid int64) Account { return Account{UserID: uid, Kind: Coins} }

// UserIncome is uid's income account.
func UserIncome(uid int64) Account { return Account{UserID: uid, Kind: Income} }

// System is the system account kind.
func System(kind string) Account { return Account{Kind: kind} }

// Currency is the unit a's amounts are in, or "" when a names no account
// the ledger knows.
func (a Account) Currency() string {
	if a.UserID > 0 {
		switch a.Kind {
		case Coins:
			return Coin
		case Income:
			return Cent
		}
		return ""
	}
	if a.UserID == 0 && strings.HasPrefix(a.Kind, "sys:") {
		switch cur, _, _ := strings.Cut(a.Kind[len("sys:"):], ":"); cur {
		case Coin, Cent:
			return cur
		}
	}
	return ""
}

func (a Account) String() string {
	if a.UserID == 0 {
		return a.Kind
	}
	return fmt.Sprintf("user:%d:%s", a.UserID, a.Kind)
}

// Leg is one entry of a movement: Amount (positive credit, negative debit)
// on Account.
type Leg struct {
	Account Account
	Amount  int64
}

// Transfer is one movement. Key is its idempotency key, unique across the
// ledger: callers namespace it (for instance "topup:<orderNo>" or
// "buy:<uid>:<client key>"). Kind says what it was ("topup", "buy_video",
// ...): the bill shows it. UserID is the user it concerns (0 for none),
// Ref the business record it belongs to (an order number, a video id).
type Transfer struct {
	Kind       string
	Key        string
	UserID     int64
	Ref        string
	Memo       string
	OperatorID int64
	Legs       []Leg
}

// Posted is the outcome of Post.
type Posted struct {
	TxnID int64
	// Replayed: the key was posted before; this call moved nothing and
	// TxnID is the first movement's.
	Replayed bool
	// Balances are the user accounts' balances after this movement (after
	// the first one, on a replay: read now).
	Balances map[Account]int64
}

var (
	// ErrInsufficient: a user account would go below zero (409). Nothing moved.
	ErrInsufficient = errors.New("insufficient balance")
	// ErrUnbalanced: the legs do not sum to zero per currency, name an
	// unknown account, carry a zero amount, or touch a user account whose
	// bill has no such kind: a bug in the caller.
	ErrUnbalanced = errors.New("unbalanced transfer")
)

// InsufficientError says which account fell short.
type InsufficientError struct {
	Account Account
	Balance int64 // what it holds
	Need    int64 // what the movement takes from it
}

func (e *InsufficientError) Error() string {
	return fmt.Sprintf("%s: balance %d, need %d", e.Account, e.Balance, e.Need)
}

func (e *InsufficientError) Is(target error) bool { return target == ErrInsufficient }

// Ledger posts movements. It caches system account ids (they never change
// once created); everything else is read in the caller's transaction.
type Ledger struct {
	mu  sync.Mutex
	sys map[string]int64
}

// NewLedger returns a Ledger.
func NewLedger() *Ledger { return &Ledger{sys: map[string]int64{}} }

// validate checks t before anything is written.
func validate(t *Transfer) error {
	if t.Kind == "" || t.Key == "" || len(t.Legs) < 2 {
		return fmt.Errorf("%w: kind, key and two legs needed", ErrUnbalanced)
	}
	sums := map[string]int64{}
	seen := map[Account]bool{}
	for _, l := range t.Legs {
		cur := l.Account.Currency()
		if cur == "" || l.Amount == 0 {
			return fmt.Errorf("%w: leg %v %d", ErrUnbalanced, l.Account, l.Amount)
		}
		if l.Account.UserID > 0 && !onBill(t.Kind, l.Account.Kind) {
			// The user's bill would show a raw kind with no chip to find it by.
			return fmt.Errorf("%w: kind %q has no title on the %s bill (bills.go)", ErrUnbalanced, t.Kind, l.Account.Kind)
		}
		if seen[l.Account] {
			return fmt.Errorf("%w: %v twice", ErrUnbalanced, l.Account)
		}
		seen[l.Account] = true
		// Amounts come from validated requests; still, refuse sums that
		// would overflow rather than wrap.
		s := sums[cur] + l.Amount
		if (l.Amount > 0 && s < sums[cur]) || (l.Amount < 0 && s > sums[cur]) {
			return fmt.Errorf("%w: overflow", ErrUnbalanced)
		}
		sums[cur] = s
	}
	for cur, s := range sums {
		if s != 0 {
			return fmt.Errorf("%w: %s legs sum to %d", ErrUnbalanced, cur, s)
		}
	}
	return nil
}

// Post writes t in tx. A key posted before moves nothing and returns the
// first movement (Replayed). A user account that would go below zero fails
// the whole movement with an *InsufficientError; the caller's transaction
// should then roll back (returning the error from the d.Tx fn does).
func (l *Ledger) Post(ctx context.Context, tx *db.Tx, t Transfer, now time.Time) (Posted, error) {
	if err := validate(&t); err != nil {
		return Posted{}, err
	}
	at := now.Unix()
	var txnID int64
	err := tx.QueryRow(ctx, `INSERT INTO ledger_txns (kind, idem_key, user_id, ref, memo, operator_id, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idem_key) DO NOTHING RETURNING id`,
		t.Kind, t.Key, t.UserID, t.Ref, t.Memo, t.OperatorID, at).Scan(&txnID)
	if errors.Is(err, sql.ErrNoRows) {
		// Posted before (on PostgreSQL the insert waited for that
		// transaction to commit): answer with the first movement.
		if err := tx.QueryRow(ctx, `SELECT id FROM ledger_txns WHERE idem_key = ?`, t.Key).Scan(&txnID); err != nil {
			return Posted{}, err
		}
		p := Posted{TxnID: txnID, Replayed: true, Balances: map[Account]int64{}}
		for _, leg := range t.Legs {
			if leg.Account.UserID > 0 {
				b, err := balance(ctx, tx, leg.Account)
				if err != nil {
					return Posted{}, err
				}
				p.Balances[leg.Account] = b
			}
		}
		return p, nil
	}
	if err != nil {
		return Posted{}, err
	}
	// User accounts in one order, so two movements touching the same two
	// users lock them in the same order and cannot deadlock.
	legs := slices.Clone(t.Legs)
	slices.SortFunc(legs, func(a, b Leg) int {
		if c := a.Account.UserID - b.Account.UserID; c != 0 {
			if c < 0 {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Account.Kind, b.Account.Kind)
	})
	p := Posted{TxnID: txnID, Balances: map[Account]int64{}}
	// The entries go in as one statement: a movement's legs are written
	// together anyway, and on SQLite every statement has a fixed cost.
	var q strings.Builder
	q.WriteString(`INSERT INTO ledger_entries (txn_id, account_id, amount, balance_after, created_at) VALUES `)
	args := make([]any, 0, 5*len(legs))
	for i, leg := range legs {
		var (
			id    int64
			after int64
			err   error
		)
		if leg.Account.UserID > 0 {
			id, after, err = move(ctx, tx, leg, at)
			p.Balances[leg.Account] = after
		} else {
			id, err = l.systemID(ctx, tx, leg.Account, at)
		}
		if err != nil {
			return Posted{}, err
		}
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString("(?, ?, ?, ?, ?)")
		args = append(args, txnID, id, leg.Amount, after, at)
	}
	if _, err := tx.Exec(ctx, q.String(), args...); err != nil {
		return Posted{}, err
	}
	return p, nil
}

// move applies leg to a user account with one conditional update, creating
// the account on its first credit, and returns the account id and the
// balance after.
func move(ctx context.Context, tx *db.Tx, leg Leg, at int64) (id, after int64, err error) {
	a := leg.Account
	for range 2 {
		err = tx.QueryRow(ctx, `UPDATE ledger_accounts SET balance = balance + ?
			WHERE user_id = ? AND kind = ? AND balance + ? >= 0 RETURNING id, balance`,
			leg.Amount, a.UserID, a.Kind, leg.Amount).Scan(&id, &after)
		if err == nil {
			return id, after, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, 0, err
		}
		// No row: the account does not exist yet, or it holds too little.
		have, err := balanceOrMissing(ctx, tx, a)
		missing := errors.Is(err, db.ErrNotFound)
		if err != nil && !missing {
			return 0, 0, err
		}
		if leg.Amount < 0 {
			return 0, 0, &InsufficientError{Account: a, Balance: have, Need: -leg.Amount}
		}
		if !missing {
			// A credit cannot be short: the account was created by a
			// concurrent first credit after the update looked. Update it.
			continue
		}
		err = tx.QueryRow(ctx, `INSERT INTO ledger_accounts (user_id, kind, currency, balance, created_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (user_id, kind) DO NOTHING RETURNING id, balance`,
			a.UserID, a.Kind, a.Currency(), leg.Amount, at).Scan(&id, &after)
		if err == nil {
			return id, after, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, 0, err
		}
		// Created by a concurrent first credit meanwhile: update it.
	}
	return 0, 0, fmt.Errorf("ledger account %v: could not create or update", a)
}

// systemID is the id of system account a, created on first use.
func (l *Ledger) systemID(ctx context.Context, tx *db.Tx, a Account, at int64) (int64, error) {
	l.mu.Lock()
	id, ok := l.sys[a.Kind]
	l.mu.Unlock()
	if ok {
		return id, nil
	}
	if _, err := tx.Exec(ctx, `INSERT INTO ledger_accounts (user_id, kind, currency, balance, created_at) VALUES (0, ?, ?, 0, ?)
		ON CONFLICT (user_id, kind) DO NOTHING`, a.Kind, a.Currency(), at); err != nil {
		return 0, err
	}
	if err := tx.QueryRow(ctx, `SELECT id FROM ledger_accounts WHERE user_id = 0 AND kind = ?`, a.Kind).Scan(&id); err != nil {
		return 0, err
	}
	// Cached only after commit: a rolled-back creation must not leave an
	// id behind that no row has.
	tx.AfterCommit(func() {
		l.mu.Lock()
		l.sys[a.Kind] = id
		l.mu.Unlock()
	})
	return id, nil
}

func balanceOrMissing(ctx context.Context, q db.Querier, a Account) (int64, error) {
	var b int64
	err := q.QueryRow(ctx, `SELECT balance FROM ledger_accounts WHERE user_id = ? AND kind = ?`, a.UserID, a.Kind).Scan(&b)
	return b, db.NotFound(err)
}

// balance is a user account's balance, 0 when it has none yet.
func balance(ctx context.Context, q db.Querier, a Account) (int64, error) {
	b, err := balanceOrMissing(ctx, q, a)
	if errors.Is(err, db.ErrNotFound) {
		return 0, nil
	}
	return b, err
}

// Balance is account a's balance: the cached one for a user account, the
// sum of entries for a system account.
func Balance(ctx context.Context, q db.Querier, a Account) (int64, error) {
	if a.UserID > 0 {
		return balance(ctx, q, a)
	}
	var s sql.NullInt64
	err := q.QueryRow(ctx, `SELECT SUM(e.amount) FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
		WHERE a.user_id = 0 AND a.kind = ?`, a.Kind).Scan(&s)
	return s.Int64, err
}
