// Package epaytest is a fake EasyPay gateway for tests: an httptest server
// on 127.0.0.1 that speaks the protocol both ways (it checks the
// merchant's signatures on submit.php, mapi.php and the key on api.php, and
// signs the notices it sends), with a cashier page a browser can pay on.
package epaytest

import (
	"fmt"
	"html/template"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"time"

	"prima/internal/wallet/epay"
)

// Order is an order as the gateway holds it.
type Order struct {
	TradeNo, OutTradeNo, Type, Name, Money, NotifyURL, ReturnURL string
	Paid                                                         bool
}

// Fake is the gateway.
type Fake struct {
	Server *httptest.Server
	PID    string
	Key    string
	Style  epay.Style

	mu     sync.Mutex
	orders map[string]*Order // by out_trade_no
	seq    int
	// FailCreate makes mapi.php answer code -1 (a refused order).
	FailCreate bool
	// Down makes every call answer 503.
	Down bool
	// NotifyByPost sends notices as POST forms instead of GET queries.
	NotifyByPost bool
	// Created counts orders made through mapi.php and submit.php.
	Created int
	// Queries counts api.php?act=order calls.
	Queries int
}

// New starts a fake gateway for merchant pid with key, signing as style.
func New(pid, key string, style epay.Style) *Fake {
	f := &Fake{PID: pid, Key: key, Style: style, orders: map[string]*Order{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/submit.php", f.submit)
	mux.HandleFunc("POST /mapi.php", f.mapi)
	mux.HandleFunc("GET /api.php", f.query)
	mux.HandleFunc("GET /cashier/{tradeNo}", f.cashier)
	mux.HandleFunc("POST /cashier/{tradeNo}", f.payForm)
	f.Server = httptest.NewServer(mux)
	return f
}

// URL is the gateway's base address (PRIMA_EPAY_GATEWAY).
func (f *Fake) URL() string { return f.Server.URL + "/" }

// Close stops the gateway.
func (f *Fake) Close() { f.Server.Close() }

// Order is the gateway's order of out_trade_no, or nil.
func (f *Fake) Order(outTradeNo string) *Order {
	f.mu.Lock()
	defer f.mu.Unlock()
	if o, ok := f.orders[outTradeNo]; ok {
		c := *o
		return &c
	}
	return nil
}

func (f *Fake) down(w http.ResponseWriter) bool {
	f.mu.Lock()
	down := f.Down
	f.mu.Unlock()
	if down {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}
	return down
}

// take checks a merchant request's signature and fields and keeps the order.
func (f *Fake) take(v url.Values) (*Order, string) {
	if !epay.Verify(v, f.Key, f.Style) {
		return nil, "签名校验失败"
	}
	if v.Get("pid") != f.PID {
		return nil, "商户不存在"
	}
	for _, k := range []string{"type", "out_trade_no", "notify_url", "name", "money"} {
		if v.Get(k) == "" {
			return nil, "缺少参数 " + k
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if o, ok := f.orders[v.Get("out_trade_no")]; ok {
		return o, ""
	}
	f.seq++
	f.Created++
	o := &Order{TradeNo: fmt.Sprintf("2026%012d", f.seq), OutTradeNo: v.Get("out_trade_no"), Type: v.Get("type"), Name: v.Get("name"),
		Money: v.Get("money"), NotifyURL: v.Get("notify_url"), ReturnURL: v.Get("return_url")}
	f.orders[o.OutTradeNo] = o
	return o, ""
}

// submit is the page jump: a signed order in the query or form, answered
// with the cashier.
func (f *Fake) submit(w http.ResponseWriter, r *http.Request) {
	if f.down(w) {
		return
	}
	_ = r.ParseForm()
	o, msg := f.take(r.Form)
	if o == nil {
		http.Error(w, msg, http.StatusBadRequest)
		return
	}
	http.Redirect(w, r, "/cashier/"+o.TradeNo, http.StatusFound)
}

// mapi is the API order: JSON with the cashier's URL.
func (f *Fake) mapi(w http.ResponseWriter, r *http.Request) {
	if f.down(w) {
		return
	}
	_ = r.ParseForm()
	w.Header().Set("Content-Type", "application/json")
	f.mu.Lock()
	fail := f.FailCreate
	f.mu.Unlock()
	if fail {
		_, _ = io.WriteString(w, `{"code":-1,"msg":"通道维护中"}`)
		return
	}
	if r.PostForm.Get("clientip") == "" {
		_, _ = io.WriteString(w, `{"code":-1,"msg":"缺少参数 clientip"}`)
		return
	}
	o, msg := f.take(r.PostForm)
	if o == nil {
		fmt.Fprintf(w, `{"code":-1,"msg":%q}`, msg)
		return
	}
	fmt.Fprintf(w, `{"code":1,"msg":"","trade_no":%q,"payurl":%q}`, o.TradeNo, f.Server.URL+"/cashier/"+o.TradeNo)
}

// query is api.php?act=order (the merchant's key in the query, as the
// protocol has it).
func (f *Fake) query(w http.ResponseWriter, r *http.Request) {
	if f.down(w) {
		return
	}
	q := r.URL.Query()
	w.Header().Set("Content-Type", "application/json")
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Queries++
	if q.Get("act") != "order" || q.Get("pid") != f.PID || q.Get("key") != f.Key {
		_, _ = io.WriteString(w, `{"code":-1,"msg":"商户ID或密钥错误"}`)
		return
	}
	o, ok := f.orders[q.Get("out_trade_no")]
	if !ok {
		_, _ = io.WriteString(w, `{"code":-1,"msg":"订单号不存在"}`)
		return
	}
	status := 0
	if o.Paid {
		status = 1
	}
	// Numbers as strings, as some gateways send them.
	fmt.Fprintf(w, `{"code":1,"msg":"查询订单号成功！","trade_no":%q,"out_trade_no":%q,"type":%q,"pid":%q,"addtime":"2026-01-01 00:00:00","endtime":"","name":%q,"money":%q,"status":"%d","param":"","buyer":""}`,
		o.TradeNo, o.OutTradeNo, o.Type, f.PID, o.Name, o.Money, status)
}

func (f *Fake) byTrade(tradeNo string) *Order {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, o := range f.orders {
		if o.TradeNo == tradeNo {
			return o
		}
	}
	return nil
}

var cashierTmpl = template.Must(template.New("c").Parse(`<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>收银台</title>
<style>body{font:16px -apple-system,sans-serif;margin:0;padding:24px;background:#f2f2f2}main{background:#fff;border-radius:12px;padding:24px}
.amt{font-size:36px;font-weight:700}button{width:100%;height:48px;border:0;border-radius:24px;background:#1677ff;color:#fff;font-size:17px}</style></head>
<body><main><h1>测试网关收银台</h1><p>{{.Name}}</p><p class="amt">¥{{.Money}}</p><p>订单号 {{.OutTradeNo}}</p>
{{if .Paid}}<p>已支付</p>{{else}}<form method="post"><button type="submit">确认付款</button></form>{{end}}</main></body></html>`))

func (f *Fake) cashier(w http.ResponseWriter, r *http.Request) {
	o := f.byTrade(r.PathValue("tradeNo"))
	if o == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = cashierTmpl.Execute(w, o)
}

// payForm is the payer paying on the cashier: the notice goes out, then the
// browser returns to the merchant's return_url with the signed result.
func (f *Fake) payForm(w http.ResponseWriter, r *http.Request) {
	o := f.byTrade(r.PathValue("tradeNo"))
	if o == nil {
		http.NotFound(w, r)
		return
	}
	_, _, _ = f.Pay(o.OutTradeNo)
	ret := o.ReturnURL
	if ret == "" {
		_, _ = io.WriteString(w, "支付成功")
		return
	}
	sep := "?"
	if strings.Contains(ret, "?") {
		sep = "&"
	}
	http.Redirect(w, r, ret+sep+f.Notice(o.OutTradeNo).Encode(), http.StatusFound)
}

// Notice is the signed notice of a paid order out_trade_no, as the gateway
// sends it.
func (f *Fake) Notice(outTradeNo string) url.Values {
	f.mu.Lock()
	o := f.orders[outTradeNo]
	f.mu.Unlock()
	if o == nil {
		return nil
	}
	v := url.Values{}
	v.Set("pid", f.PID)
	v.Set("trade_no", o.TradeNo)
	v.Set("out_trade_no", o.OutTradeNo)
	v.Set("type", o.Type)
	v.Set("name", o.Name)
	v.Set("money", o.Money)
	v.Set("trade_status", "TRADE_SUCCESS")
	return f.Signed(v)
}

// Signed signs v with the gateway's key (replacing sign and sign_type).
func (f *Fake) Signed(v url.Values) url.Values {
	v.Del("sign")
	v.Del("sign_type")
	v.Set("sign", epay.Sign(v, f.Key, f.Style))
	v.Set("sign_type", "MD5")
	return v
}

// MarkPaid marks out_trade_no paid without telling the merchant: a notice
// lost on the way.
func (f *Fake) MarkPaid(outTradeNo string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	o, ok := f.orders[outTradeNo]
	if ok {
		o.Paid = true
	}
	return ok
}

// Pay marks out_trade_no paid and sends its notice to the order's
// notify_url; it returns the merchant's answer.
func (f *Fake) Pay(outTradeNo string) (int, string, error) {
	if !f.MarkPaid(outTradeNo) {
		return 0, "", fmt.Errorf("no order %s", outTradeNo)
	}
	o := f.Order(outTradeNo)
	return f.Send(o.NotifyURL, f.Notice(outTradeNo))
}

var client = &http.Client{Timeout: 30 * time.Second}

// Send delivers notice v to notifyURL (GET query, or POST form with
// NotifyByPost) and returns the merchant's status and body.
func (f *Fake) Send(notifyURL string, v url.Values) (int, string, error) {
	f.mu.Lock()
	post := f.NotifyByPost
	f.mu.Unlock()
	var (
		res *http.Response
		err error
	)
	if post {
		res, err = client.PostForm(notifyURL, v)
	} else {
		sep := "?"
		if strings.Contains(notifyURL, "?") {
			sep = "&"
		}
		res, err = client.Get(notifyURL + sep + v.Encode())
	}
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, string(b), err
}
