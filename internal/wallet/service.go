package wallet

import (
	"context"
	"database/sql"
	"strconv"
	"time"

	"prima/internal/account"
	"prima/internal/platform/db"
	"prima/internal/platform/ratelimit"
	"prima/internal/platform/realtime"
)

// Settings are the wallet's business constants. Amounts of money are in
// cents.
type Settings struct {
	// ExchangeRate is how many coins 100 cents (¥1) of income buy.
	ExchangeRate int64
	// ExchangeMin is the least income one exchange takes, in cents.
	ExchangeMin int64
	// WithdrawMin is the least one withdrawal takes, in cents.
	WithdrawMin int64
	// WithdrawMax is the most one withdrawal takes, in cents.
	WithdrawMax int64
	// WithdrawDailyCount and WithdrawDailyMax bound a user's withdrawals
	// per Asia/Shanghai day (rejected ones do not count).
	WithdrawDailyCount int
	WithdrawDailyMax   int64
	// DefaultFeePercent is the withdrawal fee when the user has no
	// txDiscount of their own (spec §6, §9: 20).
	DefaultFeePercent int64
	// OrderTTL is how long an unpaid order waits before it expires.
	OrderTTL time.Duration
}

// DefaultSettings are a new install's.
var DefaultSettings = Settings{
	ExchangeRate:       10,
	ExchangeMin:        100,
	WithdrawMin:        10_000,
	WithdrawMax:        5_000_000,
	WithdrawDailyCount: 3,
	WithdrawDailyMax:   10_000_000,
	DefaultFeePercent:  20,
	OrderTTL:           15 * time.Minute,
}

// Service is the wallet: the ledger and everything built on it. Each part
// (orders and providers, purchases and VIP, withdrawals) lives in its own
// file with its handlers beside it.
type Service struct {
	db       *db.DB
	Ledger   *Ledger
	Settings Settings
	// Events tells a user's open apps that their wallet changed
	// (wallet.changed); nil in tests that do not listen.
	Events realtime.Publisher
	// Users gives the user info answered by calls that change it (vip/buy);
	// app.go wires account's.
	Users UserInfos
	// Passwords checks a password afresh before payout calls (withdraw.go).
	Passwords Passwords
	// Videos shows bought videos in the catalog's shape (purchase.go);
	// nil leaves Purchase.video null.
	Videos VideoCards
	// Limiter bounds the money calls per user (ratelimit.FailClosed: with
	// the limiter down they answer 503); nil applies no limit (tests).
	Limiter ratelimit.Limiter
	// Pay are the payment providers and the limits of top-up orders (providers.go).
	Pay Payments
	// VideoGoods, GalleryGoods and PostGoods read the goods sold one by
	// one in the sale's transaction (purchase.go); PublishedVideos filters
	// the bought-videos list. Wired in internal/app.
	VideoGoods      Goods
	GalleryGoods    Goods
	PostGoods       Goods
	PublishedVideos PublishedVideos
	// Books are earnings' books of the daily reconciliation (reconcile.go)
	// and Invariants the other domains' ledger checks that the console's
	// ledger check runs after the wallet's own (earnings.Check); wired in
	// internal/app.
	Books      EarningsBooks
	Invariants []Invariant
	// Earnings hears of payments, refunds and sales inside their
	// transaction (earnings.go); nil pays nobody.
	Earnings Earnings
	// Points is rewards' points ledger for the console's wallet view and
	// its adjustments (nil: no points there).
	Points PointsBook
	now    func() time.Time
}

// NewService is the wallet over d with the default settings.
func NewService(d *db.DB) *Service {
	return &Service{db: d, Ledger: NewLedger(), Settings: DefaultSettings, now: time.Now}
}

// SetClock replaces the clock (tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// Summary is GET /api/app/mine/wallet.
type Summary struct {
	Coins  int64 `json:"coins"`
	Income int64 `json:"income"` // cents
	// IncomeFrozen is income held by pending withdrawals (cents): already
	// taken from Income, paid out or returned when an operator decides.
	IncomeFrozen int64 `json:"incomeFrozen"`
	ExchangeRate int64 `json:"exchangeRate"` // coins per 100 cents
	ExchangeMin  int64 `json:"exchangeMin"`
	WithdrawMin  int64 `json:"withdrawMin"`
	WithdrawMax  int64 `json:"withdrawMax"`
	// FeePercent is this user's withdrawal fee: their txDiscount, else the default.
	FeePercent         int64 `json:"feePercent"`
	WithdrawDailyCount int   `json:"withdrawDailyCount"`
	WithdrawDailyMax   int64 `json:"withdrawDailyMax"`
}

// Summary reads uid's balances.
func (s *Service) Summary(ctx context.Context, uid int64) (Summary, error) {
	coins, err := Balance(ctx, s.db, UserCoins(uid))
	if err != nil {
		return Summary{}, err
	}
	income, err := Balance(ctx, s.db, UserIncome(uid))
	if err != nil {
		return Summary{}, err
	}
	frozen, err := s.frozen(ctx, s.db, uid)
	if err != nil {
		return Summary{}, err
	}
	fee, err := s.FeePercent(ctx, s.db, uid)
	if err != nil {
		return Summary{}, err
	}
	st := s.Settings
	return Summary{Coins: coins, Income: income, IncomeFrozen: frozen, ExchangeRate: st.ExchangeRate, ExchangeMin: st.ExchangeMin,
		WithdrawMin: st.WithdrawMin, WithdrawMax: st.WithdrawMax, FeePercent: fee,
		WithdrawDailyCount: st.WithdrawDailyCount, WithdrawDailyMax: st.WithdrawDailyMax}, nil
}

// frozen is the income uid's pending withdrawals hold: what the user's
// movements put into the withdrawal holding account and no decision has
// taken out yet.
func (s *Service) frozen(ctx context.Context, q db.Querier, uid int64) (int64, error) {
	var held sql.NullInt64
	err := q.QueryRow(ctx, `SELECT SUM(e.amount) FROM ledger_entries e
		JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_txns t ON t.id = e.txn_id
		WHERE a.user_id = 0 AND a.kind = ? AND t.user_id = ?`, SysWithdrawHeld, uid).Scan(&held)
	return held.Int64, err
}

// FeePercent is uid's withdrawal fee in percent: the user's own
// (account.TxDiscount) when set, else the default (spec §6: 20).
func (s *Service) FeePercent(ctx context.Context, q db.Querier, uid int64) (int64, error) {
	disc, err := account.TxDiscount(ctx, q, uid)
	if err != nil {
		return 0, err
	}
	if disc == nil {
		return s.Settings.DefaultFeePercent, nil
	}
	return *disc, nil
}

// notify tells uid's open apps, once tx commits, that their wallet changed:
// once per transaction and user, whatever else in tx (points too, through
// ChangedOnce) reports the same change.
func (s *Service) notify(tx *db.Tx, uid int64, why string) {
	ChangedOnce(tx, s.Events, uid, why)
}

// ChangedOnce publishes wallet.changed to uid after tx commits, once per
// transaction and user; points move under the same event, since they show
// beside the coins.
func ChangedOnce(tx *db.Tx, pub realtime.Publisher, uid int64, why string) {
	tx.AfterCommitOnce("wallet.changed:"+strconv.FormatInt(uid, 10), func() {
		realtime.Notify(context.Background(), pub, realtime.UserTopic(uid), "wallet.changed", map[string]string{"reason": why})
	})
}
