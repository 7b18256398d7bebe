package wallet

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"time"

	"prima/internal/account"
	"prima/internal/membership"
	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/jobs"
)

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

	// PayRef is the provider's reference of the payment (a Stripe Checkout
	// Session id), kept with the pay URL; providers read it, clients never.
	PayRef string `json:"-"`
	// PayerIP is the address the order was made from, for providers that
	// ask for it (EasyPay's API); set on the order handed to Create only.
	PayerIP string `json:"-"`

	currency   string
	vipCoupons int
}

// Currency is the order's currency (ISO 4217, upper case): CNY unless its
// provider charges in another.
func (o Order) Currency() string { return o.currency }

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

// TopayInput is POST /api/app/mine/topay.
type TopayInput struct {
	ProductType string `json:"productType"`
	ProductID   int64  `json:"productID"`
	PayType     string `json:"payType"`
	// PayerIP is the client's address (not part of the request's identity
	// for idempotency).
	PayerIP string `json:"-"`
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
// input return the first order) and registers it with its provider, in
// three steps so that no transaction waits on the network: the order row,
// its key and its expiry job commit first; then the provider is asked for
// the pay URL; then the URL is stored. A provider that fails closes the
// order (ErrProviderDown or ErrProviderRefused, nothing charged) and drops
// the key, so a retry with it makes a new order.
func (s *Service) Topay(ctx context.Context, uid int64, in TopayInput, key string) (Order, bool, error) {
	pr := s.Pay.provider(in.PayType)
	if pr == nil && in.PayType == SandboxName {
		return Order{}, false, errSandboxOff
	}
	if pr == nil {
		return Order{}, false, errNoPayType
	}
	if off, err := switchedOff(ctx, s.db); err != nil {
		return Order{}, false, err
	} else if off[pr.Name()] {
		return Order{}, false, ErrProviderOff
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
	if err != nil {
		return Order{}, false, err
	}
	if replay {
		o, err = s.awaitPayURL(ctx, o.OrderNo)
		return o, true, err
	}
	o.PayerIP = in.PayerIP
	o, err = s.startPayment(ctx, pr, o, uid, key)
	return o, false, err
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
	if c, ok := pr.(Currencied); ok {
		o.currency = c.Currency()
	}
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
			created, _, err := account.Joined(ctx, tx, uid)
			if err != nil {
				return Order{}, err
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
	// The pay URL comes after the commit (startPayment): a provider's
	// answer is never waited for inside a transaction.
	if _, err := tx.Exec(ctx, `INSERT INTO orders (order_no, user_id, product_type, product_id, title, amount, currency, coins, bonus,
		vip_level, vip_days, vip_coupons, pay_type, status, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
		o.OrderNo, uid, o.ProductType, o.ProductID, o.Title, o.Amount, o.currency, o.Coins, o.Bonus,
		o.VipLevel, o.VipDays, o.vipCoupons, o.PayType, o.CreatedAt.Unix(), o.ExpiresAt.Unix()); err != nil {
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
type OrderPage = httpx.Page[Order]

// Orders lists orders newest first.
func (s *Service) Orders(ctx context.Context, f OrderFilter) (OrderPage, error) {
	var w db.Where
	if f.UserID > 0 {
		w.And("user_id = ?", f.UserID)
	}
	if f.Status != "" {
		w.And("status = ?", f.Status)
	}
	if f.OrderNo != "" {
		w.And("order_no = ?", f.OrderNo)
	}
	where, args := w.Clause(), w.Args()
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
