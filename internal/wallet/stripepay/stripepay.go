// Package stripepay is Stripe Checkout as a wallet provider (payType
// "stripe", notified at /api/pay/notify/stripe), through the official SDK
// (github.com/stripe/stripe-go/v82): a Checkout Session per order, the
// webhook's signature checked by webhook.ConstructEvent
// (docs/operator-guide.md for the settings and the webhook to register).
package stripepay

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"

	"prima/internal/wallet"
)

// Name is the payType and the notify path's provider.
const Name = "stripe"

// Config is one Stripe account.
type Config struct {
	SecretKey     string // sk_live_... / sk_test_... (or a restricted key allowed Checkout Sessions)
	WebhookSecret string // whsec_... of the endpoint registered for /api/pay/notify/stripe
	// Currency charged (ISO 4217, any case). Prices are charged as the same
	// figure in it: an order of 3000 cents is 30.00 of it; in a currency
	// without minor units (JPY) it must be whole (3000 cents = ¥30).
	Currency string
	// PublicURL is this server's address: the payer returns to its result
	// page.
	PublicURL string
	// APIURL replaces https://api.stripe.com (stripe-mock, a test double).
	APIURL string
	// HTTPClient makes the calls to Stripe; nil: a client with a 15 s
	// timeout.
	HTTPClient *http.Client
}

// Provider is the configured account.
type Provider struct {
	client   *stripe.Client
	cfg      Config
	currency string // upper case
	zero     bool   // a currency without minor units
	now      func() time.Time
}

// zeroDecimal are Stripe's currencies without minor units.
var zeroDecimal = map[string]bool{"BIF": true, "CLP": true, "DJF": true, "GNF": true, "JPY": true, "KMF": true, "KRW": true,
	"MGA": true, "PYG": true, "RWF": true, "UGX": true, "VND": true, "VUV": true, "XAF": true, "XOF": true, "XPF": true}

// threeDecimal are currencies whose minor unit is a thousandth: prices in
// cents cannot be charged in them exactly.
var threeDecimal = map[string]bool{"BHD": true, "JOD": true, "KWD": true, "OMR": true, "TND": true}

// New checks cfg and returns the provider.
func New(cfg Config) (*Provider, error) {
	cur := strings.ToUpper(strings.TrimSpace(cfg.Currency))
	switch {
	case cfg.SecretKey == "" || cfg.WebhookSecret == "":
		return nil, errors.New("stripe: the secret key and the webhook secret are required")
	case cfg.PublicURL == "":
		return nil, errors.New("stripe: the public URL is required (the payer returns to it)")
	case len(cur) != 3 || strings.Trim(cur, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") != "":
		return nil, fmt.Errorf("stripe: currency %q is not a three-letter code", cfg.Currency)
	case threeDecimal[cur]:
		return nil, fmt.Errorf("stripe: currency %s has three decimals; prices in cents cannot be charged in it", cur)
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 15 * time.Second}
	}
	bc := &stripe.BackendConfig{HTTPClient: hc, LeveledLogger: &stripe.LeveledLogger{Level: stripe.LevelNull}, MaxNetworkRetries: stripe.Int64(1)}
	if cfg.APIURL != "" {
		bc.URL = stripe.String(cfg.APIURL)
	}
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	return &Provider{client: stripe.NewClient(cfg.SecretKey, stripe.WithBackends(stripe.NewBackendsWithConfig(bc))),
		cfg: cfg, currency: cur, zero: zeroDecimal[cur], now: time.Now}, nil
}

func (p *Provider) Name() string     { return Name }
func (p *Provider) Title() string    { return "银行卡 (Stripe)" }
func (p *Provider) Ack() string      { return "success" }
func (p *Provider) Currency() string { return p.currency }

// minor is an order amount in the currency's minor unit.
func (p *Provider) minor(cents int64) (int64, error) {
	if !p.zero {
		return cents, nil
	}
	if cents%100 != 0 {
		return 0, fmt.Errorf("%w: %d cents is not a whole amount of %s", wallet.ErrProviderRefused, cents, p.currency)
	}
	return cents / 100, nil
}

// cents is an amount in the currency's minor unit as the order keeps it.
func (p *Provider) cents(minor int64) int64 {
	if p.zero {
		return minor * 100
	}
	return minor
}

// minSession is the shortest life Stripe gives a Checkout Session (30
// minutes), plus a margin for clocks.
const minSession = 31 * time.Minute

// Create makes o's Checkout Session: one line of o's title and amount, our
// order number as client_reference_id and in the metadata of the session
// and its PaymentIntent (charges and refunds name it), the result page as
// the way back. The idempotency key is the order's, so a retried request
// gives the same session. The session lives at least Stripe's 30 minutes;
// the expiry job closes it when the order expires (Close).
func (p *Provider) Create(ctx context.Context, o wallet.Order) (wallet.Payment, error) {
	amount, err := p.minor(o.Amount)
	if err != nil {
		return wallet.Payment{}, err
	}
	back := p.cfg.PublicURL + "/mine/usercoinchongzhi?orderNo=" + url.QueryEscape(o.OrderNo)
	meta := map[string]string{"orderNo": o.OrderNo}
	expires := o.ExpiresAt
	if min := p.now().Add(minSession); expires.Before(min) {
		expires = min
	}
	params := &stripe.CheckoutSessionCreateParams{
		Mode:              stripe.String(string(stripe.CheckoutSessionModePayment)),
		ClientReferenceID: stripe.String(o.OrderNo),
		Metadata:          meta,
		PaymentIntentData: &stripe.CheckoutSessionCreatePaymentIntentDataParams{Metadata: meta},
		LineItems: []*stripe.CheckoutSessionCreateLineItemParams{{
			Quantity: stripe.Int64(1),
			PriceData: &stripe.CheckoutSessionCreateLineItemPriceDataParams{
				Currency:    stripe.String(strings.ToLower(p.currency)),
				UnitAmount:  stripe.Int64(amount),
				ProductData: &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: stripe.String(o.Title)},
			},
		}},
		SuccessURL: stripe.String(back),
		CancelURL:  stripe.String(back),
		ExpiresAt:  stripe.Int64(expires.Unix()),
	}
	params.SetIdempotencyKey("prima-order-" + o.OrderNo)
	s, err := p.client.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		return wallet.Payment{}, classify(err)
	}
	return wallet.Payment{URL: s.URL, Ref: s.ID}, nil
}

// classify: an answer of Stripe's (4xx) is a refusal; no answer, or its
// 5xx, is the provider down.
func classify(err error) error {
	var se *stripe.Error
	if errors.As(err, &se) && se.HTTPStatusCode > 0 && se.HTTPStatusCode < 500 {
		return fmt.Errorf("%w: stripe %d %s: %s", wallet.ErrProviderRefused, se.HTTPStatusCode, se.Code, se.Msg)
	}
	return fmt.Errorf("%w: stripe: %v", wallet.ErrProviderDown, err)
}

// maxEvent bounds a webhook body (Stripe's events are a few KiB).
const maxEvent = 256 << 10

// VerifyCallback checks a webhook event's Stripe-Signature with the SDK
// (webhook.ConstructEvent: HMAC-SHA256 under the endpoint's secret, the
// timestamp within 5 minutes, the event's API version the SDK's) and reads
// what it says: checkout.session.completed and
// checkout.session.async_payment_succeeded with payment_status paid pay
// the order named by client_reference_id; checkout.session.expired and
// async_payment_failed cancel it; charge.refunded refunds it when the
// whole charge went back. Anything else is acknowledged and ignored.
func (p *Provider) VerifyCallback(r *http.Request) (wallet.Callback, error) {
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxEvent))
	if err != nil {
		return wallet.Callback{}, fmt.Errorf("%w: %v", wallet.ErrCallback, err)
	}
	ev, err := webhook.ConstructEvent(body, r.Header.Get("Stripe-Signature"), p.cfg.WebhookSecret)
	if err != nil {
		return wallet.Callback{}, fmt.Errorf("%w: %v", wallet.ErrCallback, err)
	}
	if ev.Data == nil {
		return wallet.Callback{}, fmt.Errorf("%w: event %s without data", wallet.ErrCallback, ev.ID)
	}
	note := string(ev.Type) + " " + ev.ID
	ignore := func(no, why string) (wallet.Callback, error) {
		return wallet.Callback{OrderNo: no, Status: wallet.CallbackIgnore, Note: note + ": " + why}, nil
	}
	switch ev.Type {
	case stripe.EventTypeCheckoutSessionCompleted, stripe.EventTypeCheckoutSessionAsyncPaymentSucceeded,
		stripe.EventTypeCheckoutSessionExpired, stripe.EventTypeCheckoutSessionAsyncPaymentFailed:
		var s stripe.CheckoutSession
		if err := json.Unmarshal(ev.Data.Raw, &s); err != nil {
			return wallet.Callback{}, fmt.Errorf("%w: %s: %v", wallet.ErrCallback, note, err)
		}
		// Every session this server makes carries metadata.orderNo; one
		// without it is another integration's on the same account.
		no := s.Metadata["orderNo"]
		if no == "" {
			return ignore("", "not an order of this server")
		}
		if s.ClientReferenceID != no {
			return wallet.Callback{OrderNo: no}, fmt.Errorf("%w: client_reference_id %q, metadata orderNo %q", wallet.ErrCallback, s.ClientReferenceID, no)
		}
		cb := wallet.Callback{OrderNo: no, TradeNo: s.ID, Amount: p.cents(s.AmountTotal), Currency: strings.ToUpper(string(s.Currency)), Note: note}
		if s.PaymentIntent != nil && s.PaymentIntent.ID != "" {
			cb.TradeNo = s.PaymentIntent.ID
		}
		switch {
		case ev.Type == stripe.EventTypeCheckoutSessionExpired || ev.Type == stripe.EventTypeCheckoutSessionAsyncPaymentFailed:
			cb.Status = wallet.OrderCancelled
		case s.PaymentStatus != stripe.CheckoutSessionPaymentStatusPaid:
			// A delayed method (a bank debit): async_payment_succeeded
			// follows when the money arrives.
			return ignore(no, "payment_status "+string(s.PaymentStatus))
		default:
			cb.Status = wallet.OrderPaid
		}
		return cb, nil
	case stripe.EventTypeChargeRefunded:
		var c stripe.Charge
		if err := json.Unmarshal(ev.Data.Raw, &c); err != nil {
			return wallet.Callback{}, fmt.Errorf("%w: %s: %v", wallet.ErrCallback, note, err)
		}
		if !c.Refunded {
			return ignore(c.Metadata["orderNo"], fmt.Sprintf("partial refund %d of %d: settle by hand", c.AmountRefunded, c.Amount))
		}
		cb := wallet.Callback{OrderNo: c.Metadata["orderNo"], Amount: p.cents(c.Amount), Currency: strings.ToUpper(string(c.Currency)),
			Status: wallet.OrderRefunded, Note: note + " " + c.ID}
		if c.PaymentIntent != nil {
			cb.TradeNo = c.PaymentIntent.ID
		}
		if cb.OrderNo == "" && cb.TradeNo == "" {
			return ignore("", "not an order of this server")
		}
		return cb, nil
	}
	return ignore("", "not acted on")
}

// Query reads o's Checkout Session: paid, it is a paid Callback.
func (p *Provider) Query(ctx context.Context, o wallet.Order) (wallet.Callback, error) {
	if o.PayRef == "" {
		return wallet.Callback{}, nil
	}
	s, err := p.client.V1CheckoutSessions.Retrieve(ctx, o.PayRef, nil)
	if err != nil {
		return wallet.Callback{}, classify(err)
	}
	if s.PaymentStatus != stripe.CheckoutSessionPaymentStatusPaid {
		return wallet.Callback{}, nil
	}
	cb := wallet.Callback{OrderNo: s.ClientReferenceID, TradeNo: s.ID, Amount: p.cents(s.AmountTotal),
		Currency: strings.ToUpper(string(s.Currency)), Status: wallet.OrderPaid, Note: "session " + s.ID}
	if s.PaymentIntent != nil && s.PaymentIntent.ID != "" {
		cb.TradeNo = s.PaymentIntent.ID
	}
	return cb, nil
}

// Close expires o's Checkout Session so it cannot be paid after the order
// closed. A session completed meanwhile is an error: the job retries and
// its Query credits the payment.
func (p *Provider) Close(ctx context.Context, o wallet.Order) error {
	if o.PayRef == "" {
		return nil
	}
	s, err := p.client.V1CheckoutSessions.Retrieve(ctx, o.PayRef, nil)
	if err != nil {
		return classify(err)
	}
	switch s.Status {
	case stripe.CheckoutSessionStatusExpired:
		return nil
	case stripe.CheckoutSessionStatusComplete:
		return fmt.Errorf("session %s completed (payment_status %s)", s.ID, s.PaymentStatus)
	}
	if _, err := p.client.V1CheckoutSessions.Expire(ctx, o.PayRef, nil); err != nil {
		return classify(err)
	}
	return nil
}
