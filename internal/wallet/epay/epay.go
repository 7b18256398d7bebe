// Package epay is the EasyPay (彩虹易支付) aggregator protocol as wallet
// providers: one merchant (gateway, pid, key) and its channels, each a
// payType (epay_alipay, epay_wxpay, epay_qqpay), all notified at
// /api/pay/notify/epay (docs/api.md, *Top-up orders and payment
// providers*; docs/operator-guide.md for the settings).
//
// The protocol: every request and notice carries its parameters and a
// signature, MD5 in lower-case hex over the parameters sorted by name
// (empty values, sign and sign_type left out) joined as k=v with &, then
// the merchant key appended (directly, or as "&key=" + key on some
// gateways: Style). Orders are made by sending the payer to submit.php
// (page jump) or by asking mapi.php for a pay URL (API); the gateway
// notifies the notify_url (GET or POST) until it reads the body "success";
// api.php?act=order answers what became of an order.
package epay

import (
	"context"
	"crypto/md5"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"prima/internal/wallet"
)

// Style is how the merchant key joins the signed string.
type Style string

const (
	// StylePlain appends the key directly: md5("a=1&b=2" + key), the
	// protocol as published.
	StylePlain Style = "plain"
	// StyleAmpKey appends "&key=" and the key: md5("a=1&b=2&key=" + key),
	// as some gateways do.
	StyleAmpKey Style = "amp-key"
)

// Mode is how an order is made at the gateway.
type Mode string

const (
	// ModeSubmit sends the payer to submit.php with the signed order in
	// the URL (page jump): no call from the server at all.
	ModeSubmit Mode = "submit"
	// ModeAPI asks mapi.php for the order and sends the payer to the URL
	// it answers.
	ModeAPI Mode = "mapi"
)

// Channels are the payment channels an EasyPay gateway offers, by their
// protocol code, with the names payers see.
var Channels = map[string]string{"alipay": "支付宝", "wxpay": "微信支付", "qqpay": "QQ钱包"}

// Gateway is the name in the notify path (/api/pay/notify/epay) and the
// prefix of the payTypes.
const Gateway = "epay"

// Config is one merchant at one gateway.
type Config struct {
	// URL is the gateway's base address (submit.php, mapi.php and api.php
	// are under it), e.g. https://pay.example.com/.
	URL      string
	PID      string
	Key      string
	Channels []string // codes of Channels, in the order payers see them
	Mode     Mode
	Style    Style
	// PublicURL is this server's address as the gateway and payers reach
	// it: notify_url and return_url are built on it.
	PublicURL string
	// SiteName is sent as sitename (shown by some cashiers); "" omits it.
	SiteName string
	// Client makes the calls to the gateway; nil: a client with a 15 s
	// timeout.
	Client *http.Client
}

// Merchant is a configured merchant; Providers gives its channels.
type Merchant struct {
	cfg    Config
	base   string
	client *http.Client
}

// New checks cfg and returns the merchant.
func New(cfg Config) (*Merchant, error) {
	u, err := url.Parse(cfg.URL)
	switch {
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "":
		return nil, fmt.Errorf("epay: gateway %q is not an http(s) URL", cfg.URL)
	case cfg.PID == "" || cfg.Key == "":
		return nil, errors.New("epay: pid and key are required")
	case cfg.PublicURL == "":
		return nil, errors.New("epay: the public URL is required (notify_url and return_url are built on it)")
	case len(cfg.Channels) == 0:
		return nil, errors.New("epay: no channel")
	}
	for _, c := range cfg.Channels {
		if _, ok := Channels[c]; !ok {
			return nil, fmt.Errorf("epay: unknown channel %q (alipay, wxpay, qqpay)", c)
		}
	}
	if cfg.Mode == "" {
		cfg.Mode = ModeSubmit
	}
	if cfg.Style == "" {
		cfg.Style = StylePlain
	}
	if cfg.Mode != ModeSubmit && cfg.Mode != ModeAPI {
		return nil, fmt.Errorf("epay: mode %q is not submit or mapi", cfg.Mode)
	}
	if cfg.Style != StylePlain && cfg.Style != StyleAmpKey {
		return nil, fmt.Errorf("epay: sign style %q is not plain or amp-key", cfg.Style)
	}
	client := cfg.Client
	if client == nil {
		client = &http.Client{Timeout: 15 * time.Second}
	}
	base := cfg.URL
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	return &Merchant{cfg: cfg, base: base, client: client}, nil
}

// Providers are the merchant's channels as wallet providers, in the
// configured order.
func (m *Merchant) Providers() []wallet.Provider {
	out := make([]wallet.Provider, 0, len(m.cfg.Channels))
	for _, c := range m.cfg.Channels {
		out = append(out, &channel{m: m, code: c})
	}
	return out
}

// Sign is the protocol's signature of params under key: lower-case hex MD5
// of the non-empty parameters other than sign and sign_type, sorted by
// name, joined as k=v with &, then the key joined as style says.
func Sign(params url.Values, key string, style Style) string {
	names := make([]string, 0, len(params))
	for k := range params {
		if k != "sign" && k != "sign_type" && params.Get(k) != "" {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	var b strings.Builder
	for i, k := range names {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(params.Get(k))
	}
	if style == StyleAmpKey {
		b.WriteString("&key=")
	}
	b.WriteString(key)
	sum := md5.Sum([]byte(b.String()))
	return hex.EncodeToString(sum[:])
}

// Verify reports whether params carry their signature under key, in
// constant time. An upper-case hex signature is accepted.
func Verify(params url.Values, key string, style Style) bool {
	got := strings.ToLower(params.Get("sign"))
	want := Sign(params, key, style)
	return len(got) == len(want) && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// Yuan is cents as the protocol writes money: yuan with two decimals.
func Yuan(cents int64) string { return fmt.Sprintf("%d.%02d", cents/100, cents%100) }

var moneyRE = regexp.MustCompile(`^(0|[1-9][0-9]{0,11})\.[0-9]{2}$`)

// cents reads money written as yuan with two decimals ("30.00"); anything
// else (no decimals, three, a sign, spaces) is refused.
func cents(money string) (int64, error) {
	if !moneyRE.MatchString(money) {
		return 0, fmt.Errorf("money %q is not yuan with two decimals", clip(money))
	}
	y, f, _ := strings.Cut(money, ".")
	a, _ := strconv.ParseInt(y, 10, 64)
	b, _ := strconv.ParseInt(f, 10, 64)
	return a*100 + b, nil
}

func clip(s string) string {
	if len(s) > 40 {
		s = s[:40]
	}
	return strings.ToValidUTF8(s, "?")
}

// channel is one payType of the merchant.
type channel struct {
	m    *Merchant
	code string
}

func (c *channel) Name() string    { return Gateway + "_" + c.code }
func (c *channel) Title() string   { return Channels[c.code] }
func (c *channel) Gateway() string { return Gateway }
func (c *channel) Ack() string     { return "success" }

// orderParams are the signed parameters of an order at the gateway.
func (c *channel) orderParams(o wallet.Order) url.Values {
	m := c.m
	name := o.Title
	if len(name) > 120 {
		name = strings.ToValidUTF8(name[:120], "")
	}
	v := url.Values{}
	v.Set("pid", m.cfg.PID)
	v.Set("type", c.code)
	v.Set("out_trade_no", o.OrderNo)
	v.Set("notify_url", m.cfg.PublicURL+"/api/pay/notify/"+Gateway)
	v.Set("return_url", m.cfg.PublicURL+"/mine/usercoinchongzhi?orderNo="+url.QueryEscape(o.OrderNo))
	v.Set("name", name)
	v.Set("money", Yuan(o.Amount))
	if m.cfg.SiteName != "" {
		v.Set("sitename", m.cfg.SiteName)
	}
	return v
}

func (m *Merchant) sign(v url.Values) {
	v.Set("sign", Sign(v, m.cfg.Key, m.cfg.Style))
	v.Set("sign_type", "MD5")
}

// Create makes o's payment: in submit mode the signed page-jump URL (no
// call); in API mode mapi.php's answer.
func (c *channel) Create(ctx context.Context, o wallet.Order) (wallet.Payment, error) {
	m := c.m
	v := c.orderParams(o)
	if m.cfg.Mode == ModeSubmit {
		m.sign(v)
		return wallet.Payment{URL: m.base + "submit.php?" + v.Encode()}, nil
	}
	v.Set("clientip", o.PayerIP)
	v.Set("device", "mobile")
	m.sign(v)
	var ans struct {
		Code      flexInt `json:"code"`
		Msg       string  `json:"msg"`
		TradeNo   string  `json:"trade_no"`
		PayURL    string  `json:"payurl"`
		QRCode    string  `json:"qrcode"`
		URLScheme string  `json:"urlscheme"`
	}
	if err := m.call(ctx, http.MethodPost, m.base+"mapi.php", v, &ans); err != nil {
		return wallet.Payment{}, err
	}
	if ans.Code != 1 {
		return wallet.Payment{}, fmt.Errorf("%w: mapi.php code %d: %s", wallet.ErrProviderRefused, ans.Code, clip(ans.Msg))
	}
	// An H5 page, else a payment app's URL scheme, else a QR code's content
	// when it is a web page: what a phone's browser can open. The payer's
	// browser is sent there, so nothing else (javascript:, data:) passes.
	for _, u := range []string{ans.PayURL, ans.URLScheme, ans.QRCode} {
		p, err := url.Parse(u)
		if u == "" || err != nil || p.Scheme == "" {
			continue
		}
		sc := strings.ToLower(p.Scheme)
		if (sc == "https" || sc == "http") && p.Host != "" || u == ans.URLScheme && appSchemes[sc] {
			return wallet.Payment{URL: u, Ref: ans.TradeNo}, nil
		}
	}
	return wallet.Payment{}, fmt.Errorf("%w: mapi.php answered no URL a phone can open", wallet.ErrProviderRefused)
}

// appSchemes are the payment apps' URL schemes a gateway may answer.
var appSchemes = map[string]bool{"alipays": true, "alipay": true, "weixin": true, "mqqapi": true, "mqqwallet": true}

// call sends v to the gateway (POST form or GET query) and decodes its
// JSON answer into out. Network trouble and 5xx are ErrProviderDown; any
// other answer that is not JSON is ErrProviderRefused.
func (m *Merchant) call(ctx context.Context, method, u string, v url.Values, out any) error {
	var body io.Reader
	if method == http.MethodGet {
		u += "?" + v.Encode()
	} else {
		body = strings.NewReader(v.Encode())
	}
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return fmt.Errorf("%w: %v", wallet.ErrProviderRefused, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("Accept", "application/json")
	res, err := m.client.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %v", wallet.ErrProviderDown, redact(err, m.cfg.Key))
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if err != nil {
		return fmt.Errorf("%w: %v", wallet.ErrProviderDown, err)
	}
	if res.StatusCode >= 500 {
		return fmt.Errorf("%w: gateway answered %d", wallet.ErrProviderDown, res.StatusCode)
	}
	// Some gateways send a UTF-8 BOM before the JSON.
	raw = []byte(strings.TrimPrefix(string(raw), "\ufeff"))
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%w: gateway answered %d and no JSON: %q", wallet.ErrProviderRefused, res.StatusCode, clip(string(raw)))
	}
	return nil
}

// redact keeps the key out of an error that quotes the URL (api.php takes
// it in the query).
func redact(err error, key string) string {
	return strings.ReplaceAll(err.Error(), url.QueryEscape(key), "***")
}

// flexInt decodes a number that some gateways send as a string ("1").
type flexInt int64

func (f *flexInt) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "" || s == "null" {
		*f = 0
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	*f = flexInt(n)
	return err
}

// flexString decodes a string that some gateways send as a number.
type flexString string

func (f *flexString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		err := json.Unmarshal(b, &s)
		*f = flexString(s)
		return err
	}
	if string(b) == "null" {
		*f = ""
		return nil
	}
	*f = flexString(b)
	return nil
}

// maxNotice bounds a notice's body.
const maxNotice = 8 << 10

// notified are the fields every notice must carry, once each.
var notified = []string{"pid", "trade_no", "out_trade_no", "type", "money", "trade_status", "sign"}

// VerifyCallback checks a gateway notice (GET query or POST form):
// signature first (constant time), then the merchant, the status and the
// money. The order number it names comes back with a refusal too
// (unverified, for the record).
func (c *channel) VerifyCallback(r *http.Request) (wallet.Callback, error) {
	m := c.m
	if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(nil, r.Body, maxNotice)
	}
	if err := r.ParseForm(); err != nil {
		return wallet.Callback{}, fmt.Errorf("%w: %v", wallet.ErrCallback, err)
	}
	v := r.Form
	claimed := wallet.Callback{OrderNo: v.Get("out_trade_no")}
	for _, f := range notified {
		if len(v[f]) != 1 || v.Get(f) == "" {
			return claimed, fmt.Errorf("%w: field %s missing or repeated", wallet.ErrCallback, f)
		}
	}
	for k, vals := range v {
		if len(vals) != 1 {
			return claimed, fmt.Errorf("%w: field %s repeated", wallet.ErrCallback, clip(k))
		}
	}
	if st := v.Get("sign_type"); st != "" && !strings.EqualFold(st, "MD5") {
		return claimed, fmt.Errorf("%w: sign_type %q", wallet.ErrCallback, clip(st))
	}
	if !Verify(v, m.cfg.Key, m.cfg.Style) {
		return claimed, fmt.Errorf("%w: bad signature", wallet.ErrCallback)
	}
	if pid := v.Get("pid"); pid != m.cfg.PID {
		return claimed, fmt.Errorf("%w: merchant pid %q is not this server's", wallet.ErrCallback, clip(pid))
	}
	amount, err := cents(v.Get("money"))
	if err != nil {
		return claimed, fmt.Errorf("%w: %v", wallet.ErrCallback, err)
	}
	cb := wallet.Callback{OrderNo: v.Get("out_trade_no"), TradeNo: v.Get("trade_no"), Amount: amount, Currency: "CNY",
		Status: wallet.OrderPaid, Note: "channel " + clip(v.Get("type"))}
	if st := v.Get("trade_status"); st != "TRADE_SUCCESS" {
		cb.Status, cb.Note = wallet.CallbackIgnore, "trade_status "+clip(st)
	}
	return cb, nil
}

// Query asks api.php?act=order about o: a paid order's answer, checked
// against the merchant, is a paid Callback; anything else (unpaid, unknown
// to the gateway) is Status "".
func (c *channel) Query(ctx context.Context, o wallet.Order) (wallet.Callback, error) {
	m := c.m
	v := url.Values{"act": {"order"}, "pid": {m.cfg.PID}, "key": {m.cfg.Key}, "out_trade_no": {o.OrderNo}}
	var ans struct {
		Code       flexInt    `json:"code"`
		Msg        string     `json:"msg"`
		TradeNo    flexString `json:"trade_no"`
		OutTradeNo flexString `json:"out_trade_no"`
		Type       string     `json:"type"`
		PID        flexString `json:"pid"`
		Money      flexString `json:"money"`
		Status     flexInt    `json:"status"`
	}
	if err := m.call(ctx, http.MethodGet, m.base+"api.php", v, &ans); err != nil {
		return wallet.Callback{}, err
	}
	if ans.Code != 1 || ans.Status != 1 {
		return wallet.Callback{}, nil
	}
	if string(ans.PID) != m.cfg.PID || string(ans.OutTradeNo) != o.OrderNo {
		return wallet.Callback{}, fmt.Errorf("%w: order query answered pid %q order %q", wallet.ErrProviderRefused, clip(string(ans.PID)), clip(string(ans.OutTradeNo)))
	}
	amount, err := cents(string(ans.Money))
	if err != nil {
		return wallet.Callback{}, fmt.Errorf("%w: order query: %v", wallet.ErrProviderRefused, err)
	}
	return wallet.Callback{OrderNo: o.OrderNo, TradeNo: string(ans.TradeNo), Amount: amount, Currency: "CNY",
		Status: wallet.OrderPaid, Note: "channel " + clip(ans.Type)}, nil
}
