package wallet

import (
	"context"
	"errors"
	"net/http"
	"strings"

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

// notifier is an enabled provider whose notifications arrive at
// /api/pay/notify/{gateway} (any of its payTypes verifies them alike), or
// nil.
func (p *Payments) notifier(gateway string) Provider {
	for _, pr := range p.Providers {
		if GatewayOf(pr) == gateway {
			return pr
		}
	}
	return nil
}

// GatewayOf is the name in pr's notify path: Gateway() for a provider that
// serves several payTypes, else its payType.
func GatewayOf(pr Provider) string {
	if g, ok := pr.(Gatewayed); ok {
		return g.Gateway()
	}
	return pr.Name()
}

// ofGateway reports whether payType is paid through gateway: the payType is
// the gateway's name or that name, "_" and a channel ("epay_alipay"). The
// rule is in the names, not in the enabled providers, so a notice for an
// order of a channel the operator has since turned off still settles.
func ofGateway(gateway, payType string) bool {
	return payType == gateway || strings.HasPrefix(payType, gateway+"_")
}

// Provider is one way of paying an order: a payment company's API, or the
// built-in sandbox. A real provider implements these against its API; the
// fulfilment (state change, ledger movements, VIP days) is the wallet's and
// the same for all.
type Provider interface {
	// Name is the payType code ("sandbox", "epay_alipay", "stripe"):
	// the gateway's name, or the gateway's name, "_" and a channel.
	Name() string
	// Title is the name the payer sees (zh-CN).
	Title() string
	// Create registers o with the provider and returns the URL the payer
	// opens to pay. It is called outside any database transaction (it may
	// wait on the network) and at most once per order; an error closes the
	// order (wrap ErrProviderDown or ErrProviderRefused to say which).
	Create(ctx context.Context, o Order) (Payment, error)
	// VerifyCallback checks a server-to-server notification (signature
	// first, in constant time) and returns what it says. A request that
	// fails the check returns an error and must change nothing; the
	// Callback returned with the error may carry the order number the
	// request claimed (unverified), for the record.
	VerifyCallback(r *http.Request) (Callback, error)
	// Ack is the body the provider expects when a callback was handled
	// (so it stops resending): "success" for most.
	Ack() string
}

// Payment is what a provider's Create gives back.
type Payment struct {
	URL string // what the payer opens
	Ref string // the provider's reference of this payment ("" if none)
}

// Gatewayed is a provider that shares its notify path with others: one
// EasyPay merchant serves the payTypes epay_alipay, epay_wxpay and
// epay_qqpay, all notified at /api/pay/notify/epay.
type Gatewayed interface {
	Gateway() string
}

// Querier is a provider that can be asked whether an order was paid: the
// order-expiry job asks before it closes an unpaid order, so a payment
// whose notification was lost is credited. Query returns a verified
// Callback with Status "paid", or Status "" when the order is not paid.
// It is called outside any transaction.
type Querier interface {
	Query(ctx context.Context, o Order) (Callback, error)
}

// Closer is a provider whose payment stays payable on its side until it is
// closed there (a Stripe Checkout Session lives at least 30 minutes): the
// expiry job closes it before it expires the order. An error (the payment
// was completed meanwhile) keeps the order open and the job retries, and
// its next Query finds the payment.
type Closer interface {
	Close(ctx context.Context, o Order) error
}

// Currencied is a provider that charges in a currency other than CNY
// (Stripe's PRIMA_STRIPE_CURRENCY): its orders are made in it, and its
// notices must say it.
type Currencied interface {
	Currency() string
}

// Errors of a provider's Create: the order is closed and the payer told to
// try again or pay another way.
var (
	// ErrProviderDown: the provider could not be reached or did not answer
	// in time (503).
	ErrProviderDown = errors.New("payment provider unreachable")
	// ErrProviderRefused: the provider answered, but not with a payment
	// (an error code, a malformed answer) (502).
	ErrProviderRefused = errors.New("payment provider refused the order")
)

// Callback is what a verified provider notification says.
type Callback struct {
	OrderNo  string // "" when the notice names only the provider's trade number (a refund)
	TradeNo  string // the provider's own transaction number
	Amount   int64  // cents
	Currency string // "CNY"
	// Status is "paid", "cancelled", "refunded" (the provider gave the
	// whole payment back), or CallbackIgnore.
	Status string
	// Note is the provider's words for the record (channel, event type).
	Note string

	// queried: the answer of the provider to Query, not a notice: the
	// order is credited even past its expiry as long as it is still
	// pending (the expiry job asks before it closes the order).
	queried bool
}

// CallbackIgnore is the Status of a genuine notification that asks nothing
// of the wallet (an event type it does not act on, a partial refund): it is
// recorded and acknowledged.
const CallbackIgnore = "ignore"
