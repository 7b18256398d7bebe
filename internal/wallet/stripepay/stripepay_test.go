package stripepay

import (
	"bytes"
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"prima/internal/wallet"
	"prima/internal/wallet/stripepay/stripetest"
)

func provider(t testing.TB, currency string) *Provider {
	p, err := New(Config{SecretKey: "sk_test_x", WebhookSecret: "whsec_x", Currency: currency, PublicURL: "https://app.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestNewRefusesBadConfig(t *testing.T) {
	for _, c := range []Config{
		{WebhookSecret: "w", Currency: "cny", PublicURL: "https://a"},
		{SecretKey: "s", Currency: "cny", PublicURL: "https://a"},
		{SecretKey: "s", WebhookSecret: "w", Currency: "cny"},
		{SecretKey: "s", WebhookSecret: "w", Currency: "yuan", PublicURL: "https://a"},
		{SecretKey: "s", WebhookSecret: "w", Currency: "kwd", PublicURL: "https://a"},
	} {
		if _, err := New(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

// Minor units: the same figure in a two-decimal currency, whole units in
// a zero-decimal one (an amount that is not whole cannot be charged).
func TestMinorUnits(t *testing.T) {
	cny, jpy := provider(t, "cny"), provider(t, "JPY")
	if m, err := cny.minor(3050); m != 3050 || err != nil || cny.cents(3050) != 3050 || cny.Currency() != "CNY" {
		t.Errorf("cny: %d %v", m, err)
	}
	if m, err := jpy.minor(3000); m != 30 || err != nil || jpy.cents(30) != 3000 {
		t.Errorf("jpy: %d %v", m, err)
	}
	if _, err := jpy.minor(3050); err == nil {
		t.Error("jpy: 30.50 accepted")
	}
}

// A session event signed now verifies to what it says; the same bytes under
// another secret, or changed after signing, do not.
func TestVerifyEvent(t *testing.T) {
	p := provider(t, "cny")
	s := &stripetest.Session{ID: "cs_1", OrderNo: "P1", MetaOrderNo: "P1", Amount: 3000, Currency: "cny", Status: "complete", PaymentStatus: "paid", PaymentIntent: "pi_1"}
	payload := stripetest.SessionEvent("checkout.session.completed", s)
	send := func(body []byte, sig string) (wallet.Callback, error) {
		r := httptest.NewRequest("POST", "/api/pay/notify/stripe", bytes.NewReader(body))
		r.Header.Set("Stripe-Signature", sig)
		return p.VerifyCallback(r)
	}
	cb, err := send(payload, stripetest.Sign(payload, "whsec_x", time.Now()))
	if err != nil || cb != (wallet.Callback{OrderNo: "P1", TradeNo: "pi_1", Amount: 3000, Currency: "CNY", Status: wallet.OrderPaid, Note: cb.Note}) {
		t.Fatalf("%+v %v", cb, err)
	}
	if _, err := send(payload, stripetest.Sign(payload, "whsec_y", time.Now())); err == nil {
		t.Error("another secret verified")
	}
	tampered := bytes.Replace(payload, []byte(`"amount_total":3000`), []byte(`"amount_total":1`), 1)
	if _, err := send(tampered, stripetest.Sign(payload, "whsec_x", time.Now())); err == nil || bytes.Equal(tampered, payload) {
		t.Error("a changed body verified")
	}
	if _, err := p.Query(context.Background(), wallet.Order{}); err != nil {
		t.Error("query without a session")
	}
}

// BenchmarkVerifyEvent is the SDK's signature check and decoding of one
// webhook event alone.
func BenchmarkVerifyEvent(b *testing.B) {
	p := provider(b, "cny")
	s := &stripetest.Session{ID: "cs_1", OrderNo: "P1", MetaOrderNo: "P1", Amount: 3000, Currency: "cny", Status: "complete", PaymentStatus: "paid", PaymentIntent: "pi_1"}
	payload := stripetest.SessionEvent("checkout.session.completed", s)
	sig := stripetest.Sign(payload, "whsec_x", time.Now())
	for b.Loop() {
		r := httptest.NewRequest("POST", "/api/pay/notify/stripe", bytes.NewReader(payload))
		r.Header.Set("Stripe-Signature", sig)
		if _, err := p.VerifyCallback(r); err != nil {
			b.Fatal(err)
		}
	}
}
