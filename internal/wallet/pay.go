package wallet

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"

	"prima/internal/catalog"
	"prima/internal/membership"
	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/jobs"
	"prima/internal/platform/ratelimit"
)

// Payments are the top-up side of the wallet: the payment providers that
// orders can be paid through and the limits on making orders
// (docs/architecture.md, *Payments and providers*).
type Payments struct {
	// Providers by name (an order's payType), in the order the client
	// shows them. Empty: nothing can be bought with money.
	Providers []Provider
	// Limiter bounds how many orders a user makes (fail closed); nil in
	// tests that do not need it.
	Limiter ratelimit.Limiter
	// BaseURL prefixes the pay URLs of hosted pages (the public URL of this
	// server); "" gives paths on this host.
	BaseURL string
}

// provider is the enabled provider called name, or nil.
func (p *Payments) provider(name string) Provider {
	for _, pr := range p.Providers {
		if pr.Name() == name {
			return pr
		}
	}
	return nil
}

// Provider is one way of paying an order: a payment company's API, or the
// built-in sandbox. A real provider implements these against its API; the
// fulfilment (state change, ledger movements, VIP days) is the wallet's and
// the same for all.
type Provider interface {
	// Name is the payType code ("sandbox", "alipay", ...).
	Name() string
	// Title is the name the payer sees (zh-CN).
	Title() string
	// Create registers o with the provider and returns the URL the payer
	// opens to pay.
	Create(ctx context.Context, o Order) (payURL string, err error)
	// VerifyCallback checks a server-to-server notification (signature
	// first, in constant time) and returns what it says. A request that
	// fails the check returns an error and must change nothing.
	VerifyCallback(r *http.Request) (Callback, error)
	// Ack is the body the provider expects when a callback was handled
	// (so it stops resending): "success" for most.
	Ack() string
}

// Callback is what a verified provider notification says.
type Callback struct {
	OrderNo  string
	TradeNo  string // the provider's own transaction number
	Amount   int64  // cents
	Currency string // "CNY"
	Status   string // "paid" or "cancelled"
}

// Order statuses.
const (
	OrderPending   = "pending"
	OrderPaid      = "paid"
	OrderCancelled = "cancelled"
	OrderExpired   = "expired"
	OrderRefunded  = "refunded"
)

// Product types of an order.
const (
	ProductCoins = "coins"
	ProductVIP   = "vip"
)

// Order is a top-up order as the client sees it.
type Order struct {
	OrderNo     string     `json:"orderNo"`
	UserID      int64      `json:"uid"`
	ProductType string     `json:"productType"`
	ProductID   int64      `json:"productID"`
	Title       string     `json:"title"`
	Amount      int64      `json:"amount"` // cents
	Coins       int64      `json:"coins"`
	Bonus       int64      `json:"bonus"`
	VipLevel    int        `json:"vipLevel"` // 0 for coin orders
	VipDays     int        `json:"vipDays"`
	PayType     string     `json:"payType"`
	Status      string     `json:"status"`
	PayURL      string     `json:"payUrl"`
	TradeNo     string     `json:"tradeNo"`
	CreatedAt   time.Time  `json:"createdAt"`
	PaidAt      *time.Time `json:"paidAt"`
	ExpiresAt   time.Time  `json:"expiresAt"`

	currency   string
	vipCoupons int
}

const orderColumns = `order_no, user_id, product_type, product_id, title, amount, currency, coins, bonus, vip_level, vip_days, vip_coupons,
	pay_type, status, trade_no, pay_url, created_at, expires_at, paid_at`

func scanOrder(s db.Scanner) (Order, error) {
	var o Order
	var created, expires, paid int64
	err := s.Scan(&o.OrderNo, &o.UserID, &o.ProductType, &o.ProductID, &o.Title, &o.Amount, &o.currency, &o.Coins, &o.Bonus,
		&o.VipLevel, &o.VipDays, &o.vipCoupons, &o.PayType, &o.Status, &o.TradeNo, &o.PayURL, &created, &expires, &paid)
	o.CreatedAt, o.ExpiresAt = time.Unix(created, 0).UTC(), time.Unix(expires, 0).UTC()
	if paid > 0 {
		t := time.Unix(paid, 0).UTC()
		o.PaidAt = &t
	}
	if o.Status != OrderPending {
		o.PayURL = ""
	}
	return o, err
}

// Errors of orders and callbacks.
var (
	// ErrNoOrder: no order with that number (of this user) (404).
	ErrNoOrder = errors.New("no such order")
	// ErrNoPackage: no active coin package with that id (404).
	ErrNoPackage = errors.New("no such coin package")
	// ErrCallback: a callback failed verification or does not match its
	// order (amount, currency, provider): 400, nothing changed.
	ErrCallback = errors.New("callback refused")
	// ErrOrderState: the order is not in a state the call can act on (409).
	ErrOrderState = errors.New("order state does not allow this")
)

// CoinPackage is a top-up package (GET /api/app/mine/currencys).
type CoinPackage struct {
	ID            int64     `json:"id"`
	Type          int       `json:"type"`
	Name          string    `json:"name"`
	Coins         int64     `json:"coins"`
	Bonus         int64     `json:"bonus"`
	Price         int64     `json:"price"`
	OriginalPrice int64     `json:"originalPrice"`
	Label         string    `json:"label"`
	Sort          int       `json:"sort"`
	Active        bool      `json:"active"`
	PayTypes      []PayType `json:"payTypes"`
}

// PayType is an enabled provider as the client lists it.
type PayType struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

const packageColumns = `id, type, name, coins, bonus, price, original_price, label, sort, active`

func scanPackage(s db.Scanner) (CoinPackage, error) {
	var p CoinPackage
	var active int
	err := s.Scan(&p.ID, &p.Type, &p.Name, &p.Coins, &p.Bonus, &p.Price, &p.OriginalPrice, &p.Label, &p.Sort, &active)
	p.Active = active != 0
	return p, err
}

// PayTypes are the enabled providers.
func (s *Service) PayTypes() []PayType {
	out := []PayType{}
	for _, p := range s.Pay.Providers {
		out = append(out, PayType{Code: p.Name(), Name: p.Title()})
	}
	return out
}

// Packages are the active coin packages of type typ in display order;
// all, inactive ones too, for an operator.
func (s *Service) Packages(ctx context.Context, typ int, all bool) ([]CoinPackage, error) {
	where := `WHERE type = ? AND active = 1`
	if all {
		where = `WHERE type = ?`
	}
	ps, err := db.All(ctx, s.db, scanPackage, `SELECT `+packageColumns+` FROM coin_packages `+where+` ORDER BY sort, price, id`, typ)
	if err != nil {
		return nil, err
	}
	for i := range ps {
		ps[i].PayTypes = s.PayTypes()
	}
	return ps, nil
}

// TopayInput is POST /api/app/mine/topay.
type TopayInput struct {
	ProductType string `json:"productType"`
	ProductID   int64  `json:"productID"`
	PayType     string `json:"payType"`
}

// MaxPendingOrders bounds a user's unpaid orders at once (429 past it),
// besides the rate limit.
const MaxPendingOrders = 10

// ErrTooManyOrders: the user has MaxPendingOrders unpaid orders (429).
var ErrTooManyOrders = errors.New("too many unpaid orders")

// ErrNewUserOnly: a new-user VIP card bought by an account past its first
// 24 hours (403).
var ErrNewUserOnly = errors.New("new-user card: account too old")

// Topay makes an order for uid (idempotent under key: the same key and
// input return the first order) and registers it with its provider.
func (s *Service) Topay(ctx context.Context, uid int64, in TopayInput, key string) (Order, bool, error) {
	pr := s.Pay.provider(in.PayType)
	if pr == nil && in.PayType == SandboxName {
		return Order{}, false, errSandboxOff
	}
	if pr == nil {
		return Order{}, false, errNoPayType
	}
	now := s.now()
	var (
		o      Order
		replay bool
	)
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		o, replay, err = Once(ctx, tx, uid, "topay", key, in, now, func() (Order, error) {
			return s.createOrder(ctx, tx, uid, in, pr, now)
		})
		return err
	})
	return o, replay, err
}

var (
	errNoPayType = errors.New("unknown pay type")
	// errSandboxOff: payType sandbox while the sandbox is off (the
	// default; PRIMA_PAY_SANDBOX=1 turns it on).
	errSandboxOff = errors.New("the sandbox pay type is off")
)

func (s *Service) createOrder(ctx context.Context, tx *db.Tx, uid int64, in TopayInput, pr Provider, now time.Time) (Order, error) {
	var pending int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM orders WHERE user_id = ? AND status = 'pending' AND expires_at > ?`, uid, now.Unix()).Scan(&pending); err != nil {
		return Order{}, err
	}
	if pending >= MaxPendingOrders {
		return Order{}, ErrTooManyOrders
	}
	newUser := false
	o := Order{UserID: uid, ProductType: in.ProductType, ProductID: in.ProductID, PayType: pr.Name(), Status: OrderPending,
		CreatedAt: now.UTC().Truncate(time.Second), ExpiresAt: now.Add(s.Settings.OrderTTL).UTC().Truncate(time.Second), currency: "CNY"}
	switch in.ProductType {
	case ProductCoins:
		p, err := scanPackage(tx.QueryRow(ctx, `SELECT `+packageColumns+` FROM coin_packages WHERE id = ? AND active = 1`, in.ProductID))
		if err != nil {
			if errors.Is(db.NotFound(err), db.ErrNotFound) {
				return Order{}, ErrNoPackage
			}
			return Order{}, err
		}
		o.Title, o.Amount, o.Coins, o.Bonus = p.Name, p.Price, p.Coins, p.Bonus
	case ProductVIP:
		p, err := membership.ProductByID(ctx, tx, in.ProductID)
		if err != nil {
			return Order{}, err
		}
		newUser = p.NewUser
		if p.Price <= 0 {
			return Order{}, membership.ErrNoProduct
		}
		if p.NewUser {
			var created int64
			if err := tx.QueryRow(ctx, `SELECT created_at FROM users WHERE id = ?`, uid).Scan(&created); err != nil {
				return Order{}, db.NotFound(err)
			}
			if now.Unix()-created >= int64(membership.NewUserWindow/time.Second) {
				return Order{}, ErrNewUserOnly
			}
		}
		o.Title, o.Amount, o.VipLevel, o.VipDays, o.vipCoupons = p.Name, p.Price, p.Level, p.Days, p.Coupons
	default:
		return Order{}, errBadProductType
	}
	no, err := newOrderNo("P", now)
	if err != nil {
		return Order{}, err
	}
	o.OrderNo = no
	// A new-user card's order holds the offer from now: a second order for
	// it is refused while this one may still be paid.
	if newUser {
		if err := claimNewUser(ctx, tx, uid, deviceOf(ctx), o.ProductID, "order:"+no, now); err != nil {
			return Order{}, err
		}
	}
	url, err := pr.Create(ctx, o)
	if err != nil {
		return Order{}, fmt.Errorf("provider %s: %w", pr.Name(), err)
	}
	o.PayURL = url
	if _, err := tx.Exec(ctx, `INSERT INTO orders (order_no, user_id, product_type, product_id, title, amount, currency, coins, bonus,
		vip_level, vip_days, vip_coupons, pay_type, status, pay_url, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?)`,
		o.OrderNo, uid, o.ProductType, o.ProductID, o.Title, o.Amount, o.currency, o.Coins, o.Bonus,
		o.VipLevel, o.VipDays, o.vipCoupons, o.PayType, o.PayURL, o.CreatedAt.Unix(), o.ExpiresAt.Unix()); err != nil {
		return Order{}, err
	}
	// The order expires through the job queue; the job commits with it.
	if _, err := jobs.Enqueue(ctx, tx, ExpireOrderKind, expirePayload{OrderNo: o.OrderNo},
		jobs.Opts{RunAt: o.ExpiresAt, UniqueKey: "order-expire:" + o.OrderNo, MaxAttempts: 10}); err != nil {
		return Order{}, err
	}
	return o, nil
}

var errBadProductType = errors.New("unknown product type")

// newOrderNo is prefix ("P" payment orders, "W" withdrawals) + the
// Shanghai time to the second + 10 random digits: sortable by time, not
// guessable from another order's number; the UNIQUE column catches the rest.
func newOrderNo(prefix string, now time.Time) (string, error) {
	n, err := rand.Int(rand.Reader, big.NewInt(10_000_000_000))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s%s%010d", prefix, now.In(days.Zone).Format("20060102150405"), n.Int64()), nil
}

// OrderFilter narrows an order list.
type OrderFilter struct {
	UserID     int64  // 0: every user (operators)
	Status     string // "" any
	OrderNo    string // "" any
	PageNumber int
	PageSize   int
}

// OrderPage is a page of orders (the lists' page shape).
type OrderPage = catalog.Page[Order]

// Orders lists orders newest first.
func (s *Service) Orders(ctx context.Context, f OrderFilter) (OrderPage, error) {
	var (
		conds []string
		args  []any
	)
	if f.UserID > 0 {
		conds, args = append(conds, "user_id = ?"), append(args, f.UserID)
	}
	if f.Status != "" {
		conds, args = append(conds, "status = ?"), append(args, f.Status)
	}
	if f.OrderNo != "" {
		conds, args = append(conds, "order_no = ?"), append(args, f.OrderNo)
	}
	where := ""
	if len(conds) > 0 {
		where = " WHERE " + strings.Join(conds, " AND ")
	}
	page := OrderPage{List: []Order{}, PageNumber: f.PageNumber, PageSize: f.PageSize}
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM orders`+where, args...).Scan(&page.Total); err != nil {
		return page, err
	}
	list, err := db.All(ctx, s.db, scanOrder, `SELECT `+orderColumns+` FROM orders`+where+` ORDER BY id DESC LIMIT ? OFFSET ?`,
		append(args, f.PageSize, (f.PageNumber-1)*f.PageSize)...)
	if err != nil {
		return page, err
	}
	page.List = list
	page.HasMore = f.PageNumber*f.PageSize < page.Total
	return page, nil
}

// orderForUpdate reads order no in tx, locking its row on PostgreSQL so
// that two callbacks, a callback and the expiry job, or a callback and an
// operator decide one after the other.
func orderForUpdate(ctx context.Context, tx *db.Tx, no string) (Order, error) {
	o, err := scanOrder(tx.QueryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE order_no = ?`+tx.ForUpdate(), no))
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return Order{}, ErrNoOrder
	}
	return o, err
}

// Outcome says what a callback or an operator call did.
type Outcome string

const (
	OutcomePaid      Outcome = "paid"      // credited now
	OutcomeReplay    Outcome = "replay"    // already in that state: nothing moved
	OutcomeCancelled Outcome = "cancelled" // pending -> cancelled
	OutcomeLate      Outcome = "late"      // paid after the order closed: recorded, nothing credited
	OutcomeIgnored   Outcome = "ignored"   // a cancel for an order no longer pending
)

// settle applies a verified callback cb from provider prov: the one path
// from a provider's word to money. Amount, currency and provider are
// compared with the order; the order's state decides the rest, and every
// state change is conditional on the state read.
func (s *Service) settle(ctx context.Context, prov string, cb Callback) (Outcome, Order, error) {
	now := s.now()
	var (
		out Outcome
		o   Order
	)
	decide := s.settleDecide(prov, cb, now, &out, &o)
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := decide(ctx, tx); err != nil {
			return err
		}
		// What came of it commits with it: one write, one commit.
		_, err := tx.Exec(ctx, `INSERT INTO payment_callbacks (provider, order_no, outcome, detail, created_at) VALUES (?, ?, ?, ?, ?)`,
			prov, cb.OrderNo, string(out), fmt.Sprintf("status %s, tradeNo %s, amount %d", cb.Status, clipText(cb.TradeNo, 64), cb.Amount), now.Unix())
		return err
	})
	return out, o, err
}

// clipText bounds text from a callback kept for operators.
func clipText(s string, n int) string {
	if len(s) > n {
		s = s[:n]
	}
	return strings.ToValidUTF8(s, "?")
}

// settleDecide is settle's decision inside its transaction: it sets *o and
// *out, or fails (and the transaction rolls back).
func (s *Service) settleDecide(prov string, cb Callback, now time.Time, out *Outcome, o *Order) func(ctx context.Context, tx *db.Tx) error {
	return func(ctx context.Context, tx *db.Tx) error {
		var err error
		*o, err = orderForUpdate(ctx, tx, cb.OrderNo)
		if err != nil {
			return err
		}
		if o.PayType != prov {
			return fmt.Errorf("%w: order %s is paid through %s, not %s", ErrCallback, o.OrderNo, o.PayType, prov)
		}
		if cb.Currency != o.currency {
			return fmt.Errorf("%w: currency %q, order in %s", ErrCallback, cb.Currency, o.currency)
		}
		if cb.Amount != o.Amount {
			return fmt.Errorf("%w: amount %d, order of %d", ErrCallback, cb.Amount, o.Amount)
		}
		switch cb.Status {
		case OrderPaid:
			switch {
			case o.Status == OrderPaid || o.Status == OrderRefunded:
				*out = OutcomeReplay
				return nil
			case o.Status != OrderPending || !now.Before(o.ExpiresAt):
				// Paid after the order closed (cancelled, or expired even if
				// the job has not run yet): nothing is credited; an operator
				// sees it in the callbacks and may mark the order paid.
				*out = OutcomeLate
				return nil
			}
			*out = OutcomePaid
			*o, err = s.fulfil(ctx, tx, *o, []string{OrderPending}, cb.TradeNo, 0, now)
			return err
		case OrderCancelled:
			if o.Status != OrderPending {
				*out = OutcomeIgnored
				return nil
			}
			if err := setStatus(ctx, tx, o.OrderNo, OrderPending, OrderCancelled, now); err != nil {
				return err
			}
			if err := releaseNewUser(ctx, tx, o.OrderNo); err != nil {
				return err
			}
			o.Status, o.PayURL, *out = OrderCancelled, "", OutcomeCancelled
			return nil
		}
		return fmt.Errorf("%w: status %q", ErrCallback, cb.Status)
	}
}

// setStatus moves order no from one state to another, or fails with
// ErrOrderState when it is no longer in from.
func setStatus(ctx context.Context, tx *db.Tx, no, from, to string, now time.Time) error {
	res, err := tx.Exec(ctx, `UPDATE orders SET status = ?, closed_at = ? WHERE order_no = ? AND status = ?`, to, now.Unix(), no, from)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != 1 {
		return ErrOrderState
	}
	return nil
}

// fulfil marks o paid (from one of the states from, conditionally) and
// credits what it sells, in tx: the "topup" and "bonus" movements for
// coins, the money and the card's days for VIP. The ledger keys are the
// order's, so however often fulfil is reached for one order it credits
// once.
func (s *Service) fulfil(ctx context.Context, tx *db.Tx, o Order, from []string, tradeNo string, operator int64, now time.Time) (Order, error) {
	ph := strings.TrimSuffix(strings.Repeat("?, ", len(from)), ", ")
	args := []any{tradeNo, now.Unix(), o.OrderNo}
	for _, f := range from {
		args = append(args, f)
	}
	res, err := tx.Exec(ctx, `UPDATE orders SET status = 'paid', trade_no = ?, paid_at = ? WHERE order_no = ? AND status IN (`+ph+`)`, args...)
	if err != nil {
		return o, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return o, err
	} else if n != 1 {
		return o, ErrOrderState
	}
	memo := "充值 " + o.Title
	money := []Leg{{System(SysPayments), -o.Amount}, {System(SysSales), o.Amount}}
	switch o.ProductType {
	case ProductCoins:
		legs := append(money, Leg{System(SysCoinsSold), -o.Coins}, Leg{UserCoins(o.UserID), o.Coins})
		if _, err := s.Ledger.Post(ctx, tx, Transfer{Kind: "topup", Key: "topup:" + o.OrderNo, UserID: o.UserID, Ref: o.OrderNo,
			Memo: memo, OperatorID: operator, Legs: legs}, now); err != nil {
			return o, err
		}
		if o.Bonus > 0 {
			if _, err := s.Ledger.Post(ctx, tx, Transfer{Kind: "bonus", Key: "bonus:" + o.OrderNo, UserID: o.UserID, Ref: o.OrderNo,
				Memo: "充值赠送", OperatorID: operator, Legs: []Leg{{System(SysCoinsPromo), -o.Bonus}, {UserCoins(o.UserID), o.Bonus}}}, now); err != nil {
				return o, err
			}
		}
	case ProductVIP:
		if err := keepNewUserClaim(ctx, tx, o, now); err != nil {
			return o, err
		}
		if _, err := s.Ledger.Post(ctx, tx, Transfer{Kind: "buy_vip", Key: "buyvip:" + o.OrderNo, UserID: o.UserID, Ref: o.OrderNo,
			Memo: "购买 " + o.Title, OperatorID: operator, Legs: money}, now); err != nil {
			return o, err
		}
		p := membership.Product{ID: o.ProductID, Level: o.VipLevel, Name: o.Title, Days: o.VipDays, Price: o.Amount, Coupons: o.vipCoupons}
		if _, err := s.grantVIP(ctx, tx, o.UserID, p, "order:"+o.OrderNo, now); err != nil {
			return o, err
		}
	}
	uid := o.UserID
	s.notify(tx, uid, "topup")
	t := now.UTC().Truncate(time.Second)
	o.Status, o.TradeNo, o.PaidAt, o.PayURL = OrderPaid, tradeNo, &t, ""
	return o, nil
}

// recordCallback keeps what a callback was and what came of it, for
// operators, in its own write: a refused callback's transaction rolled back.
func (s *Service) recordCallback(ctx context.Context, prov, orderNo string, out string, detail string) {
	if len(detail) > 500 {
		detail = detail[:500]
	}
	if len(orderNo) > 64 {
		orderNo = orderNo[:64]
	}
	_, _ = s.db.Exec(context.WithoutCancel(ctx), `INSERT INTO payment_callbacks (provider, order_no, outcome, detail, created_at) VALUES (?, ?, ?, ?, ?)`,
		prov, strings.ToValidUTF8(orderNo, "?"), out, strings.ToValidUTF8(detail, "?"), s.now().Unix())
}

// ExpireOrderKind is the job that closes an unpaid order at its expiry.
const ExpireOrderKind = "wallet.order.expire"

type expirePayload struct {
	OrderNo string `json:"orderNo"`
}

// errNotYet: the expiry job ran before the order's expiry (clocks of two
// nodes apart); it retries.
var errNotYet = errors.New("order not yet expired")

// ExpireOrder closes order no when it is still pending and past its expiry;
// otherwise it changes nothing (paid, cancelled, already expired). It
// reports whether it expired the order.
func (s *Service) ExpireOrder(ctx context.Context, no string) (bool, error) {
	now := s.now()
	var done bool
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		o, err := orderForUpdate(ctx, tx, no)
		if errors.Is(err, ErrNoOrder) {
			return nil
		}
		if err != nil || o.Status != OrderPending {
			return err
		}
		if now.Before(o.ExpiresAt) {
			return errNotYet
		}
		res, err := tx.Exec(ctx, `UPDATE orders SET status = 'expired', closed_at = ? WHERE order_no = ? AND status = 'pending' AND expires_at <= ?`,
			now.Unix(), no, now.Unix())
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if done = n == 1; err != nil || !done {
			return err
		}
		return releaseNewUser(ctx, tx, no)
	})
	return done, err
}

// RegisterJobs adds the wallet's background jobs to q: the order expiry.
func (s *Service) RegisterJobs(q *jobs.Queue) {
	jobs.Register(q, ExpireOrderKind, func(ctx context.Context, j jobs.Job, p expirePayload) error {
		_, err := s.ExpireOrder(ctx, p.OrderNo)
		return err
	}, jobs.KindOpts{MaxAttempts: 10})
}

// MarkPaid is an operator crediting a missed payment: a pending, expired or
// cancelled order becomes paid and credits what the callback would have,
// once. A paid order answers as it is (replay true).
func (s *Service) MarkPaid(ctx context.Context, no string, operator int64, audit func(ctx context.Context, tx *db.Tx, before, after Order) error) (Order, bool, error) {
	now := s.now()
	var (
		o      Order
		replay bool
	)
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		before, err := orderForUpdate(ctx, tx, no)
		if err != nil {
			return err
		}
		switch before.Status {
		case OrderPaid:
			o, replay = before, true
			return nil
		case OrderRefunded:
			return ErrOrderState
		}
		o, err = s.fulfil(ctx, tx, before, []string{OrderPending, OrderExpired, OrderCancelled},
			fmt.Sprintf("manual:%d", operator), operator, now)
		if err != nil {
			return err
		}
		return audit(ctx, tx, before, o)
	})
	return o, replay, err
}

// ErrRefundSpent: the coins of the order were spent; a refund would take
// the user below zero (409).
var ErrRefundSpent = errors.New("coins of the order already spent")

// ErrRefundCouponUsed: a coupon that came with the order's VIP card has
// bought something; a refund would leave the user what it bought (409).
var ErrRefundCouponUsed = errors.New("a coupon of the order already used")

// Refund reverses a paid order: the "refund" movement takes back its coins
// and bonus (ErrRefundSpent when the user spent them) and returns the money
// to the payments account, or takes back the VIP days it added
// (membership.Retract) and the coupons it gave (ErrRefundCouponUsed when
// one of them bought something). What the order gave is taken back whole,
// or the refund is refused and nothing changes: the operator settles it
// with the user another way. A refunded order answers as it is (replay
// true).
func (s *Service) Refund(ctx context.Context, no, reason string, operator int64, audit func(ctx context.Context, tx *db.Tx, before, after Order) error) (Order, bool, error) {
	now := s.now()
	var (
		o      Order
		replay bool
	)
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		before, err := orderForUpdate(ctx, tx, no)
		if err != nil {
			return err
		}
		switch before.Status {
		case OrderRefunded:
			o, replay = before, true
			return nil
		case OrderPaid:
		default:
			return ErrOrderState
		}
		if err := setStatus(ctx, tx, no, OrderPaid, OrderRefunded, now); err != nil {
			return err
		}
		if before.ProductType == ProductVIP {
			if err := retractCoupons(ctx, tx, before.UserID, "order:"+no, now); err != nil {
				return err
			}
		}
		legs := []Leg{{System(SysPayments), before.Amount}, {System(SysSales), -before.Amount}}
		if before.ProductType == ProductCoins {
			legs = append(legs, Leg{UserCoins(before.UserID), -(before.Coins + before.Bonus)}, Leg{System(SysCoinsSold), before.Coins})
			if before.Bonus > 0 {
				legs = append(legs, Leg{System(SysCoinsPromo), before.Bonus})
			}
		}
		memo := "退款 " + before.Title
		if reason != "" {
			memo += "：" + reason
		}
		_, err = s.Ledger.Post(ctx, tx, Transfer{Kind: "refund", Key: "refund:" + no, UserID: before.UserID, Ref: no,
			Memo: memo, OperatorID: operator, Legs: legs}, now)
		if errors.Is(err, ErrInsufficient) {
			return fmt.Errorf("%w: %w", ErrRefundSpent, err)
		}
		if err != nil {
			return err
		}
		if before.ProductType == ProductVIP {
			if _, err := membership.Retract(ctx, tx, before.UserID, before.VipLevel, before.VipDays, now); err != nil {
				return err
			}
		}
		o = before
		o.Status, o.PayURL = OrderRefunded, ""
		uid := o.UserID
		s.notify(tx, uid, "refund")
		return audit(ctx, tx, before, o)
	})
	return o, replay, err
}

// BonusGrant is one bonus movement of a user (GET /api/app/goldExtra/userList).
type BonusGrant struct {
	ID        int64     `json:"id"`
	Coins     int64     `json:"coins"`
	Reason    string    `json:"reason"`
	Ref       string    `json:"ref"`
	CreatedAt time.Time `json:"createdAt"`
}

// BonusPage is a page of bonus grants (the lists' page shape).
type BonusPage = catalog.Page[BonusGrant]

// Bonuses are the bonus coins credited to uid, newest first.
func (s *Service) Bonuses(ctx context.Context, uid int64, pageNumber, pageSize int) (BonusPage, error) {
	page := BonusPage{List: []BonusGrant{}, PageNumber: pageNumber, PageSize: pageSize}
	const from = ` FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_txns t ON t.id = e.txn_id
		WHERE a.user_id = ? AND a.kind = 'coins' AND t.kind = 'bonus' AND e.amount > 0`
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*)`+from, uid).Scan(&page.Total); err != nil {
		return page, err
	}
	list, err := db.All(ctx, s.db, func(sc db.Scanner) (BonusGrant, error) {
		var g BonusGrant
		var at int64
		err := sc.Scan(&g.ID, &g.Coins, &g.Reason, &g.Ref, &at)
		g.CreatedAt = time.Unix(at, 0).UTC()
		return g, err
	}, `SELECT t.id, e.amount, t.memo, t.ref, t.created_at`+from+` ORDER BY t.id DESC LIMIT ? OFFSET ?`, uid, pageSize, (pageNumber-1)*pageSize)
	if err != nil {
		return page, err
	}
	page.List = list
	page.HasMore = pageNumber*pageSize < page.Total
	return page, nil
}

// CallbackRecord is one row of payment_callbacks.
type CallbackRecord struct {
	ID        int64     `json:"id"`
	Provider  string    `json:"provider"`
	OrderNo   string    `json:"orderNo"`
	Outcome   string    `json:"outcome"`
	Detail    string    `json:"detail"`
	CreatedAt time.Time `json:"createdAt"`
}

// Callbacks are the last 100 callbacks recorded, of order no when given.
func (s *Service) Callbacks(ctx context.Context, no string) ([]CallbackRecord, error) {
	where, args := "", []any{}
	if no != "" {
		where, args = " WHERE order_no = ?", append(args, no)
	}
	return db.All(ctx, s.db, func(sc db.Scanner) (CallbackRecord, error) {
		var c CallbackRecord
		var at int64
		err := sc.Scan(&c.ID, &c.Provider, &c.OrderNo, &c.Outcome, &c.Detail, &at)
		c.CreatedAt = time.Unix(at, 0).UTC()
		return c, err
	}, `SELECT id, provider, order_no, outcome, detail, created_at FROM payment_callbacks`+where+` ORDER BY id DESC LIMIT 100`, args...)
}

// SavePackage creates (p.ID 0) or updates a coin package in tx and returns
// it as stored.
func (s *Service) SavePackage(ctx context.Context, tx *db.Tx, p CoinPackage) (CoinPackage, CoinPackage, error) {
	now := s.now().Unix()
	active := 0
	if p.Active {
		active = 1
	}
	var before CoinPackage
	if p.ID == 0 {
		err := tx.QueryRow(ctx, `INSERT INTO coin_packages (type, name, coins, bonus, price, original_price, label, sort, active, created_at, updated_at)
			VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, p.Name, p.Coins, p.Bonus, p.Price, p.OriginalPrice, p.Label, p.Sort, active, now, now).Scan(&p.ID)
		if err != nil {
			return before, p, err
		}
	} else {
		var err error
		before, err = scanPackage(tx.QueryRow(ctx, `SELECT `+packageColumns+` FROM coin_packages WHERE id = ?`+tx.ForUpdate(), p.ID))
		if errors.Is(db.NotFound(err), db.ErrNotFound) {
			return before, p, ErrNoPackage
		}
		if err != nil {
			return before, p, err
		}
		if _, err := tx.Exec(ctx, `UPDATE coin_packages SET name = ?, coins = ?, bonus = ?, price = ?, original_price = ?, label = ?, sort = ?, active = ?, updated_at = ?
			WHERE id = ?`, p.Name, p.Coins, p.Bonus, p.Price, p.OriginalPrice, p.Label, p.Sort, active, now, p.ID); err != nil {
			return before, p, err
		}
	}
	p.Type = 1
	p.PayTypes = s.PayTypes()
	return before, p, nil
}

// PaidOrdersSince counts uid's orders paid at or after since (unix
// seconds): the welfare tasks' topup metric (rewards.Counter).
func PaidOrdersSince(ctx context.Context, q db.Querier, uid, since int64) (int64, error) {
	var n int64
	err := q.QueryRow(ctx, `SELECT COUNT(*) FROM orders WHERE user_id = ? AND status = 'paid' AND paid_at >= ?`, uid, since).Scan(&n)
	return n, err
}
