package wallet

import (
	"context"
	"net/http"

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
