package epay

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"prima/internal/wallet"
)

// The signature against values computed outside Go (Python's hashlib over
// the protocol's string), both ways of joining the key.
func TestSignKnownValues(t *testing.T) {
	v := url.Values{"pid": {"1001"}, "type": {"alipay"}, "out_trade_no": {"20160806151343349"},
		"notify_url": {"http://www.pay.com/notify_url.php"}, "return_url": {"http://www.pay.com/return_url.php"},
		"name": {"VIP会员"}, "money": {"1.00"}, "sitename": {""}, "sign": {"x"}, "sign_type": {"MD5"}}
	const key = "89unJUB8HZ54Hj7x4nUj56HN4nUzUJ8i"
	if got := Sign(v, key, StylePlain); got != "427724b6656aa612cfdbe7a2262036a3" {
		t.Errorf("plain: %s", got)
	}
	if got := Sign(v, key, StyleAmpKey); got != "ee39ea3c29e2611b234c3b306ccf119f" {
		t.Errorf("amp-key: %s", got)
	}
	v.Set("sign", "427724B6656AA612CFDBE7A2262036A3")
	if !Verify(v, key, StylePlain) || Verify(v, key, StyleAmpKey) || Verify(v, key+"x", StylePlain) {
		t.Error("verify")
	}
	v.Set("money", "1.01")
	if Verify(v, key, StylePlain) {
		t.Error("a changed field still verifies")
	}
	v.Set("money", "1.00")
	v.Set("sign", "")
	if Verify(v, key, StylePlain) {
		t.Error("an empty signature verifies")
	}
}

func TestMoney(t *testing.T) {
	for in, want := range map[string]int64{"0.01": 1, "30.00": 3000, "1234.56": 123456, "0.00": 0} {
		if got, err := cents(in); err != nil || got != want {
			t.Errorf("%q: %d %v", in, got, err)
		}
	}
	for _, in := range []string{"", "30", "30.0", "30.000", "-1.00", "+1.00", "01.00", " 1.00", "1,00", "1e2", "９.００", "99999999999999.00"} {
		if _, err := cents(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
	if Yuan(3000) != "30.00" || Yuan(5) != "0.05" || Yuan(123456) != "1234.56" {
		t.Error("Yuan")
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	ok := Config{URL: "https://pay.example.com", PID: "1", Key: "k", Channels: []string{"alipay"}, PublicURL: "https://app.example.com"}
	if _, err := New(ok); err != nil {
		t.Fatal(err)
	}
	for name, mut := range map[string]func(*Config){
		"no key":      func(c *Config) { c.Key = "" },
		"no public":   func(c *Config) { c.PublicURL = "" },
		"bad channel": func(c *Config) { c.Channels = []string{"paypal"} },
		"bad mode":    func(c *Config) { c.Mode = "jump" },
		"bad style":   func(c *Config) { c.Style = "sha1" },
		"bad url":     func(c *Config) { c.URL = "pay.example.com" },
	} {
		c := ok
		mut(&c)
		if _, err := New(c); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}

// What mapi.php answers decides the pay URL, or a refusal.
func TestAPIOrderAnswers(t *testing.T) {
	var answer string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if !Verify(r.PostForm, "k", StylePlain) || r.PostForm.Get("clientip") != "203.0.113.9" || r.PostForm.Get("money") != "30.00" {
			http.Error(w, "bad request", 400)
			return
		}
		if answer == "500" {
			http.Error(w, "oops", 500)
			return
		}
		_, _ = w.Write([]byte(answer))
	}))
	defer srv.Close()
	m, err := New(Config{URL: srv.URL, PID: "1", Key: "k", Channels: []string{"wxpay"}, Mode: ModeAPI, PublicURL: "https://app.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	ch := m.Providers()[0]
	o := wallet.Order{OrderNo: "P1", Amount: 3000, Title: "300金币", PayerIP: "203.0.113.9"}
	for _, c := range []struct {
		answer, url string
		err         error
	}{
		{`{"code":1,"trade_no":"T1","payurl":"https://gw/pay/T1"}`, "https://gw/pay/T1", nil},
		{"\ufeff" + `{"code":"1","trade_no":"T1","urlscheme":"weixin://dl/business/?t=x"}`, "weixin://dl/business/?t=x", nil},
		{`{"code":1,"trade_no":"T1","qrcode":"https://qr.example/x"}`, "https://qr.example/x", nil},
		{`{"code":1,"trade_no":"T1","qrcode":"weixin://wxpay/bizpayurl?pr=x"}`, "", wallet.ErrProviderRefused},
		{`{"code":-1,"msg":"通道维护中"}`, "", wallet.ErrProviderRefused},
		{`{"code":1,"payurl":"javascript:alert(1)"}`, "", wallet.ErrProviderRefused},
		{`{"code":1,"urlscheme":"JavaScript:alert(1)"}`, "", wallet.ErrProviderRefused},
		{`{"code":1,"payurl":"data:text/html,x"}`, "", wallet.ErrProviderRefused},
		{`<html>error</html>`, "", wallet.ErrProviderRefused},
		{"500", "", wallet.ErrProviderDown},
	} {
		answer = c.answer
		p, err := ch.Create(context.Background(), o)
		if p.URL != c.url || !errors.Is(err, c.err) && (err != nil || c.err != nil) {
			t.Errorf("%s: %+v %v", c.answer, p, err)
		}
	}
	srv.Close()
	if _, err := ch.Create(context.Background(), o); !errors.Is(err, wallet.ErrProviderDown) || strings.Contains(err.Error(), "k&") {
		t.Errorf("gateway gone: %v", err)
	}
}

// BenchmarkVerify is the signature check of one notice alone (the MD5 and
// the sorted join), to set beside the whole notice's cost.
func BenchmarkVerify(b *testing.B) {
	v := url.Values{"pid": {"1001"}, "trade_no": {"2026000000000001"}, "out_trade_no": {"P20260101000000000000001"}, "type": {"alipay"},
		"name": {"300金币"}, "money": {"30.00"}, "trade_status": {"TRADE_SUCCESS"}, "sign_type": {"MD5"}}
	v.Set("sign", Sign(v, "bench-key", StylePlain))
	for b.Loop() {
		if !Verify(v, "bench-key", StylePlain) {
			b.Fatal("bad")
		}
	}
}
