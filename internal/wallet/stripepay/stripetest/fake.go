// Package stripetest is a fake Stripe for tests: an httptest server on
// 127.0.0.1 answering the Checkout Session calls the SDK makes (create with
// an idempotency key, retrieve, expire; the secret key checked), and
// sending webhook events signed with the endpoint's secret as Stripe signs
// them (webhook.GenerateTestSignedPayload).
package stripetest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/webhook"
)

// Session is a Checkout Session as the fake holds it.
type Session struct {
	ID, URL, Currency, OrderNo, MetaOrderNo, PIMetaOrderNo, SuccessURL, Name string
	Amount, ExpiresAt                                                        int64
	Status, PaymentStatus, PaymentIntent                                     string
}

// Fake is the Stripe API and its webhook sender.
type Fake struct {
	Server        *httptest.Server
	SecretKey     string
	WebhookSecret string
	// WebhookURL is where events go (the server's /api/pay/notify/stripe).
	WebhookURL string

	mu       sync.Mutex
	sessions map[string]*Session
	idem     map[string]string
	seq      int
	// FailCreate makes session creation answer 400 (a refused order).
	FailCreate bool
	// Creates counts session creations (a replay of an idempotency key
	// does not count).
	Creates int
}

// New starts a fake Stripe for the secret key and webhook secret.
func New(secretKey, webhookSecret string) *Fake {
	f := &Fake{SecretKey: secretKey, WebhookSecret: webhookSecret, sessions: map[string]*Session{}, idem: map[string]string{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/checkout/sessions", f.create)
	mux.HandleFunc("GET /v1/checkout/sessions/{id}", f.retrieve)
	mux.HandleFunc("POST /v1/checkout/sessions/{id}/expire", f.expire)
	mux.HandleFunc("GET /pay/{id}", f.page)
	f.Server = httptest.NewServer(mux)
	return f
}

// Close stops the fake.
func (f *Fake) Close() { f.Server.Close() }

func stripeError(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"error":{"type":%q,"message":%q}}`, typ, msg)
}

func (f *Fake) authorized(w http.ResponseWriter, r *http.Request) bool {
	if r.Header.Get("Authorization") != "Bearer "+f.SecretKey {
		stripeError(w, http.StatusUnauthorized, "invalid_request_error", "Invalid API Key provided")
		return false
	}
	return true
}

func (f *Fake) create(w http.ResponseWriter, r *http.Request) {
	if !f.authorized(w, r) {
		return
	}
	_ = r.ParseForm()
	v := r.PostForm
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.FailCreate {
		stripeError(w, http.StatusBadRequest, "invalid_request_error", "This account cannot currently make live charges.")
		return
	}
	if k := r.Header.Get("Idempotency-Key"); k != "" {
		if id, ok := f.idem[k]; ok {
			f.write(w, f.sessions[id])
			return
		}
	}
	amount, err := strconv.ParseInt(v.Get("line_items[0][price_data][unit_amount]"), 10, 64)
	if err != nil || v.Get("mode") != "payment" || v.Get("success_url") == "" || v.Get("line_items[0][quantity]") != "1" {
		stripeError(w, http.StatusBadRequest, "invalid_request_error", "bad parameters")
		return
	}
	exp, _ := strconv.ParseInt(v.Get("expires_at"), 10, 64)
	if exp != 0 && exp < time.Now().Add(30*time.Minute).Unix() {
		stripeError(w, http.StatusBadRequest, "invalid_request_error", "expires_at must be at least 30 minutes from creation")
		return
	}
	f.seq++
	f.Creates++
	id := fmt.Sprintf("cs_test_%06d", f.seq)
	s := &Session{ID: id, URL: f.Server.URL + "/pay/" + id, Currency: v.Get("line_items[0][price_data][currency]"), Amount: amount,
		OrderNo: v.Get("client_reference_id"), MetaOrderNo: v.Get("metadata[orderNo]"), PIMetaOrderNo: v.Get("payment_intent_data[metadata][orderNo]"),
		SuccessURL: v.Get("success_url"), Name: v.Get("line_items[0][price_data][product_data][name]"), ExpiresAt: exp,
		Status: "open", PaymentStatus: "unpaid"}
	f.sessions[id] = s
	if k := r.Header.Get("Idempotency-Key"); k != "" {
		f.idem[k] = id
	}
	f.write(w, s)
}

func (f *Fake) write(w http.ResponseWriter, s *Session) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(sessionJSON(s))
}

func sessionJSON(s *Session) map[string]any {
	m := map[string]any{"id": s.ID, "object": "checkout.session", "url": s.URL, "status": s.Status, "payment_status": s.PaymentStatus,
		"amount_total": s.Amount, "currency": s.Currency, "client_reference_id": s.OrderNo, "metadata": map[string]string{"orderNo": s.MetaOrderNo},
		"mode": "payment", "expires_at": s.ExpiresAt, "success_url": s.SuccessURL, "payment_intent": nil}
	if s.PaymentIntent != "" {
		m["payment_intent"] = s.PaymentIntent
	}
	return m
}

func (f *Fake) retrieve(w http.ResponseWriter, r *http.Request) {
	if !f.authorized(w, r) {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.sessions[r.PathValue("id")]
	if !ok {
		stripeError(w, http.StatusNotFound, "invalid_request_error", "No such checkout.session")
		return
	}
	f.write(w, s)
}

func (f *Fake) expire(w http.ResponseWriter, r *http.Request) {
	if !f.authorized(w, r) {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.sessions[r.PathValue("id")]
	if !ok {
		stripeError(w, http.StatusNotFound, "invalid_request_error", "No such checkout.session")
		return
	}
	if s.Status != "open" {
		stripeError(w, http.StatusBadRequest, "invalid_request_error", "Only Checkout Sessions with a status of open can be expired.")
		return
	}
	s.Status = "expired"
	f.write(w, s)
}

// page stands in for Stripe's hosted checkout page.
func (f *Fake) page(w http.ResponseWriter, r *http.Request) {
	s := f.Session(r.PathValue("id"))
	if s == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<!doctype html><title>Checkout</title><h1>%s</h1><p>%d %s</p>", s.Name, s.Amount, s.Currency)
}

// Session is a copy of session id, or nil.
func (f *Fake) Session(id string) *Session {
	f.mu.Lock()
	defer f.mu.Unlock()
	if s, ok := f.sessions[id]; ok {
		c := *s
		return &c
	}
	return nil
}

// SessionOf is the last session of order no, or nil.
func (f *Fake) SessionOf(no string) *Session {
	f.mu.Lock()
	defer f.mu.Unlock()
	var found *Session
	for _, s := range f.sessions {
		if s.OrderNo == no && (found == nil || s.ID > found.ID) {
			c := *s
			found = &c
		}
	}
	return found
}

// Complete marks session id paid (a card payment) without telling anyone.
func (f *Fake) Complete(id string) *Session {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.sessions[id]
	if s == nil {
		return nil
	}
	s.Status, s.PaymentStatus = "complete", "paid"
	s.PaymentIntent = "pi_" + strings.TrimPrefix(s.ID, "cs_test_")
	c := *s
	return &c
}

// Event is a webhook event of type typ around object, as Stripe sends it
// (the SDK's API version).
func Event(typ string, object any) []byte {
	b, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("evt_%d", time.Now().UnixNano()), "object": "event",
		"api_version": stripe.APIVersion, "created": time.Now().Unix(), "type": typ, "livemode": false, "pending_webhooks": 1,
		"data": map[string]any{"object": object}})
	return b
}

// SessionEvent is an event of typ about session s.
func SessionEvent(typ string, s *Session) []byte { return Event(typ, sessionJSON(s)) }

// RefundEvent is charge.refunded for session s's payment: refunded whole
// when amountRefunded equals the amount.
func RefundEvent(s *Session, amountRefunded int64, withMetadata bool) []byte {
	meta := map[string]string{}
	if withMetadata {
		meta["orderNo"] = s.PIMetaOrderNo
	}
	return Event("charge.refunded", map[string]any{"id": "ch_" + strings.TrimPrefix(s.ID, "cs_test_"), "object": "charge",
		"amount": s.Amount, "amount_refunded": amountRefunded, "refunded": amountRefunded == s.Amount, "currency": s.Currency,
		"payment_intent": s.PaymentIntent, "metadata": meta, "paid": true, "status": "succeeded"})
}

// Sign is the Stripe-Signature header of payload under secret at t.
func Sign(payload []byte, secret string, t time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: t}).Header
}

var client = &http.Client{Timeout: 30 * time.Second}

// Send posts payload to the webhook URL with the header sig and returns
// the server's status and body.
func (f *Fake) Send(payload []byte, sig string) (int, string, error) {
	req, err := http.NewRequest(http.MethodPost, f.WebhookURL, strings.NewReader(string(payload)))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("Stripe-Signature", sig)
	res, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, string(b), err
}

// Deliver signs payload now with the webhook secret and sends it.
func (f *Fake) Deliver(payload []byte) (int, string, error) {
	return f.Send(payload, Sign(payload, f.WebhookSecret, time.Now()))
}

// Pay completes session id and delivers checkout.session.completed.
func (f *Fake) Pay(id string) (int, string, error) {
	s := f.Complete(id)
	if s == nil {
		return 0, "", fmt.Errorf("no session %s", id)
	}
	return f.Deliver(SessionEvent("checkout.session.completed", s))
}
