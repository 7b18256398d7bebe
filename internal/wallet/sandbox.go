package wallet

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// Sandbox is the built-in payment provider: real enough to test the whole
// flow end to end without a payment company. Its pay URL opens a hosted
// page on this server (GET /pay/sandbox/{orderNo}) where the payer pays or
// cancels; either sends the signed server-to-server callback that a real
// provider would, which the wallet verifies like any other.
//
// Its secret is derived from the server's signing secret (PRIMA_SECRET),
// so every node of one deployment signs and verifies alike.
type Sandbox struct {
	secret []byte
	base   string
}

// SandboxName is the sandbox's payType.
const SandboxName = "sandbox"

// NewSandbox is the sandbox provider with a key derived from serverSecret;
// baseURL prefixes its pay URLs ("" for paths on this host).
func NewSandbox(serverSecret, baseURL string) *Sandbox {
	m := hmac.New(sha256.New, []byte(serverSecret))
	m.Write([]byte("prima pay sandbox v1"))
	return &Sandbox{secret: m.Sum(nil), base: strings.TrimRight(baseURL, "/")}
}

func (*Sandbox) Name() string  { return SandboxName }
func (*Sandbox) Title() string { return "沙箱支付" }
func (*Sandbox) Ack() string   { return "success" }

// Create returns the hosted page of o, with the order's key (orderKey) in
// it: the URL goes to the order's owner only, and the page acts for no one
// without the key.
func (s *Sandbox) Create(_ context.Context, o Order) (Payment, error) {
	return Payment{URL: s.base + "/pay/sandbox/" + url.PathEscape(o.OrderNo) + "?k=" + s.orderKey(o.OrderNo)}, nil
}

// sandboxFields are the signed fields of a callback, in signing order.
var sandboxFields = []string{"orderNo", "amount", "currency", "status", "tradeNo", "ts"}

// Sign is the callback signature over v's fields: hex HMAC-SHA256 of
// "orderNo=..&amount=..&currency=..&status=..&tradeNo=..&ts=.." (values as
// sent, in that order) under the sandbox key.
func (s *Sandbox) Sign(v url.Values) string {
	m := hmac.New(sha256.New, s.secret)
	for i, f := range sandboxFields {
		if i > 0 {
			m.Write([]byte("&"))
		}
		m.Write([]byte(f + "=" + v.Get(f)))
	}
	return hex.EncodeToString(m.Sum(nil))
}

// orderKey binds the hosted page to one order: an HMAC of its number under
// the sandbox key, in the pay URL only the order's owner receives (topay,
// their order list). An order number alone (seen in a screenshot, a support
// chat, the result page's address) opens nothing and pays or cancels
// nothing; neither can another site that learnt it.
func (s *Sandbox) orderKey(orderNo string) string {
	m := hmac.New(sha256.New, s.secret)
	m.Write([]byte("page:" + orderNo))
	return hex.EncodeToString(m.Sum(nil))[:32]
}

// keyOK reports whether k is order no's key (constant time).
func (s *Sandbox) keyOK(no, k string) bool {
	return len(k) == 32 && hmac.Equal([]byte(k), []byte(s.orderKey(no)))
}

// maxCallback bounds a callback body.
const maxCallback = 8 << 10

// VerifyCallback reads a form-encoded callback and checks its signature
// (constant-time) before anything in it is believed.
func (s *Sandbox) VerifyCallback(r *http.Request) (Callback, error) {
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
		return Callback{}, fmt.Errorf("%w: content type %q", ErrCallback, ct)
	}
	r.Body = http.MaxBytesReader(nil, r.Body, maxCallback)
	if err := r.ParseForm(); err != nil {
		return Callback{}, fmt.Errorf("%w: %v", ErrCallback, err)
	}
	v := r.PostForm
	for _, f := range append(sandboxFields, "sign") {
		if len(v[f]) != 1 || v.Get(f) == "" {
			return Callback{}, fmt.Errorf("%w: field %s missing or repeated", ErrCallback, f)
		}
	}
	got, err := hex.DecodeString(v.Get("sign"))
	want, _ := hex.DecodeString(s.Sign(v))
	if err != nil || !hmac.Equal(got, want) {
		return Callback{}, fmt.Errorf("%w: bad signature", ErrCallback)
	}
	amount, err := strconv.ParseInt(v.Get("amount"), 10, 64)
	if err != nil || amount <= 0 {
		return Callback{}, fmt.Errorf("%w: amount %q", ErrCallback, v.Get("amount"))
	}
	if _, err := strconv.ParseInt(v.Get("ts"), 10, 64); err != nil {
		return Callback{}, fmt.Errorf("%w: ts %q", ErrCallback, v.Get("ts"))
	}
	return Callback{OrderNo: v.Get("orderNo"), TradeNo: v.Get("tradeNo"), Amount: amount, Currency: v.Get("currency"), Status: v.Get("status")}, nil
}

// CallbackForm is the signed callback the sandbox sends for order o with
// status ("paid" or "cancelled").
func (s *Sandbox) CallbackForm(o Order, status, tradeNo string, ts int64) url.Values {
	v := url.Values{}
	v.Set("orderNo", o.OrderNo)
	v.Set("amount", strconv.FormatInt(o.Amount, 10))
	v.Set("currency", "CNY")
	v.Set("status", status)
	v.Set("tradeNo", tradeNo)
	v.Set("ts", strconv.FormatInt(ts, 10))
	v.Set("sign", s.Sign(v))
	return v
}

var errBadOrderNo = errors.New("bad order number")

// validOrderNo: order numbers are "P" and digits, at most 32 characters;
// anything else is not looked up.
func validOrderNo(no string) bool {
	if len(no) < 2 || len(no) > 32 || no[0] != 'P' {
		return false
	}
	for i := 1; i < len(no); i++ {
		if no[i] < '0' || no[i] > '9' {
			return false
		}
	}
	return true
}
