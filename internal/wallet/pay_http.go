package wallet

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"prima/internal/platform/audit"
	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// Currencys is GET /api/app/mine/currencys?type=1.
func (h *Handler) Currencys(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	typ := q.Int("type", 1, 1, 1)
	if err := q.Err(); err != nil {
		return err
	}
	ps, err := h.s.Packages(r.Context(), int(typ), false)
	if err != nil {
		return err
	}
	return httpx.OK(w, ps)
}

// topayLimit bounds the orders one user makes: 20 per 10 minutes.
const (
	topayLimit  = 20
	topayWindow = 10 * time.Minute
)

// Topay is POST /api/app/mine/topay.
func (h *Handler) Topay(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		ProductType    string `json:"productType"`
		ProductID      *int64 `json:"productID"`
		PayType        string `json:"payType"`
		IdempotencyKey string `json:"idempotencyKey"`
	}
	if err := httpx.Decode(w, r, &body); err != nil {
		return err
	}
	key, err := KeyFrom(r, body.IdempotencyKey)
	if err != nil {
		return err
	}
	switch {
	case body.ProductType == "":
		return httpx.Invalid("缺少参数 productType", "productType is required")
	case body.ProductID == nil:
		return httpx.Invalid("缺少参数 productID", "productID is required")
	case *body.ProductID < 1 || *body.ProductID > httpx.MaxID:
		return httpx.Invalid("参数 productID 无效", "productID must be a positive integer")
	case body.PayType == "":
		return httpx.Invalid("缺少参数 payType", "payType is required")
	}
	uid := httpx.UserID(r.Context())
	if h.s.Pay.Limiter != nil {
		if err := ratelimit.Enforce(r.Context(), h.s.Pay.Limiter, fmt.Sprintf("topay:%d", uid), topayLimit, topayWindow, ratelimit.FailClosed); err != nil {
			return payErrs.Map(err)
		}
	}
	o, _, err := h.s.Topay(r.Context(), uid, TopayInput{ProductType: body.ProductType, ProductID: *body.ProductID, PayType: body.PayType,
		PayerIP: httpx.ClientIP(r)}, key)
	if err != nil {
		return payErrs.Map(err)
	}
	return httpx.OK(w, o)
}

var orderStatuses = []string{OrderPending, OrderPaid, OrderCancelled, OrderExpired, OrderRefunded}

// orderFilter reads status, orderNo and the page of an order list.
func orderFilter(r *http.Request) (OrderFilter, *httpx.Query, error) {
	q := httpx.Q(r)
	f := OrderFilter{Status: q.String("status"), OrderNo: q.String("orderNo")}
	f.PageNumber, f.PageSize = pageParams(q)
	if err := q.Err(); err != nil {
		return f, q, err
	}
	if f.Status != "" && !contains(orderStatuses, f.Status) {
		return f, q, httpx.Invalid("参数 status 无效", "status must be one of "+strings.Join(orderStatuses, ", "))
	}
	if f.OrderNo != "" && !validOrderNo(f.OrderNo) {
		return f, q, httpx.Invalid("参数 orderNo 无效", "orderNo is P and up to 31 digits")
	}
	return f, q, nil
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

// RchgOrders is GET /api/app/mine/rchg/order: the caller's orders.
func (h *Handler) RchgOrders(w http.ResponseWriter, r *http.Request) error {
	f, _, err := orderFilter(r)
	if err != nil {
		return err
	}
	f.UserID = httpx.UserID(r.Context())
	page, err := h.s.Orders(r.Context(), f)
	if err != nil {
		return err
	}
	return httpx.OK(w, page)
}

// BonusList is GET /api/app/goldExtra/userList.
func (h *Handler) BonusList(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	num, size := pageParams(q)
	if err := q.Err(); err != nil {
		return err
	}
	page, err := h.s.Bonuses(r.Context(), httpx.UserID(r.Context()), num, size)
	if err != nil {
		return err
	}
	return httpx.OK(w, page)
}

// PayCallback is a provider's server-to-server notification: POST
// /api/pay/callback/{provider} (the sandbox's) and GET or POST
// /api/pay/notify/{provider} (EasyPay notifies by GET or POST, Stripe posts
// its webhook events). It answers the provider in its own format (plain
// text), not with an envelope.
func (h *Handler) PayCallback(w http.ResponseWriter, r *http.Request) error {
	status, body := h.callback(r, r.PathValue("provider"))
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
	return nil
}

// callback verifies and applies one notification of gateway name: the
// code path every provider's notification takes, the sandbox's own
// included. It returns the HTTP status and body for the provider. Every
// notification, believed or not, leaves a payment_callbacks row with its
// verdict.
func (h *Handler) callback(r *http.Request, name string) (int, string) {
	ctx := r.Context()
	pr := h.s.Pay.notifier(name)
	if pr == nil {
		return http.StatusNotFound, "fail: unknown provider"
	}
	cb, err := pr.VerifyCallback(r)
	if err != nil {
		// The order number it claims is kept (unverified) so an operator
		// finds the attempt beside the order.
		claimed := ""
		if validOrderNo(cb.OrderNo) {
			claimed = cb.OrderNo
		}
		h.s.recordCallback(ctx, name, claimed, "refused", err.Error())
		slog.WarnContext(ctx, "payment callback refused", "provider", name, "err", err)
		return http.StatusBadRequest, "fail: " + err.Error()
	}
	if cb.OrderNo != "" && !validOrderNo(cb.OrderNo) {
		h.s.recordCallback(ctx, name, "", "unknown_order", "order number "+clipText(cb.OrderNo, 64))
		return http.StatusNotFound, "fail: unknown order"
	}
	var out Outcome
	switch cb.Status {
	case CallbackIgnore:
		h.s.recordCallback(ctx, name, cb.OrderNo, string(OutcomeIgnored), callbackDetail(cb))
		return http.StatusOK, pr.Ack()
	case OrderRefunded:
		out, err = h.s.providerRefund(ctx, name, cb)
	default:
		if cb.OrderNo == "" {
			h.s.recordCallback(ctx, name, "", "refused", "no order number: "+callbackDetail(cb))
			return http.StatusBadRequest, "fail: no order number"
		}
		out, _, err = h.s.settle(ctx, name, cb)
	}
	switch {
	case errors.Is(err, ErrNoOrder) && cb.OrderNo == "":
		// A refund named by a trade number no order of ours has (another
		// integration on the same account): nothing of ours to resend for.
		h.s.recordCallback(ctx, name, "", "unknown_order", callbackDetail(cb))
		return http.StatusOK, pr.Ack()
	case errors.Is(err, ErrNoOrder):
		h.s.recordCallback(ctx, name, cb.OrderNo, "unknown_order", callbackDetail(cb))
		return http.StatusNotFound, "fail: unknown order"
	case errors.Is(err, ErrCallback):
		h.s.recordCallback(ctx, name, cb.OrderNo, "refused", err.Error())
		slog.WarnContext(ctx, "payment callback refused", "provider", name, "order", cb.OrderNo, "err", err)
		return http.StatusBadRequest, "fail: " + err.Error()
	case err != nil:
		// A database failure: the provider retries later.
		slog.ErrorContext(ctx, "payment callback failed", "provider", name, "order", cb.OrderNo, "err", err)
		return http.StatusInternalServerError, "fail: try again"
	}
	if out == OutcomeLate {
		slog.WarnContext(ctx, "payment for a closed order: recorded, nothing credited", "provider", name, "order", cb.OrderNo)
	}
	return http.StatusOK, pr.Ack()
}

// sandbox is the enabled sandbox provider, or nil.
func (h *Handler) sandbox() *Sandbox {
	sb, _ := h.s.Pay.provider(SandboxName).(*Sandbox)
	return sb
}

// SandboxPage is GET /pay/sandbox/{orderNo}: the sandbox's hosted pay page
// (server HTML, no script: two plain forms).
func (h *Handler) SandboxPage(w http.ResponseWriter, r *http.Request) {
	sb := h.sandbox()
	no := r.PathValue("orderNo")
	if sb == nil || !validOrderNo(no) {
		sandboxHTML(w, http.StatusNotFound, sandboxView{Message: "订单不存在"})
		return
	}
	// Without the order's key the page shows nothing of the order, whether
	// it exists or not.
	k := r.URL.Query().Get("k")
	if !sb.keyOK(no, k) {
		sandboxHTML(w, http.StatusForbidden, sandboxView{Message: "支付链接无效，请回到应用重新发起支付"})
		return
	}
	o, err := h.s.orderByNo(r, no)
	if err != nil {
		sandboxHTML(w, http.StatusNotFound, sandboxView{Message: "订单不存在"})
		return
	}
	v := sandboxView{Order: &o, Yuan: yuan(o.Amount), Token: k, Result: resultURL(no)}
	switch {
	case o.Status == OrderPending && h.s.now().Before(o.ExpiresAt):
		v.Payable = true
		v.Expires = o.ExpiresAt.In(days.Zone).Format("15:04:05")
	case o.Status == OrderPending, o.Status == OrderExpired:
		v.Message = "订单已过期"
	case o.Status == OrderPaid:
		v.Message = "订单已支付"
	case o.Status == OrderCancelled:
		v.Message = "订单已取消"
	case o.Status == OrderRefunded:
		v.Message = "订单已退款"
	}
	sandboxHTML(w, http.StatusOK, v)
}

// SandboxAction is POST /pay/sandbox/{orderNo} (form: action=pay|cancel,
// t=the order's key, as in its pay URL). Without the key it is refused and
// changes nothing. It sends the provider's signed callback through the
// same verify-and-settle path as POST /api/pay/callback/sandbox (a direct
// call, not a loopback HTTP request, so it needs no knowledge of this
// server's own address), then sends the browser to the result page.
func (h *Handler) SandboxAction(w http.ResponseWriter, r *http.Request) {
	sb := h.sandbox()
	no := r.PathValue("orderNo")
	if sb == nil || !validOrderNo(no) {
		sandboxHTML(w, http.StatusNotFound, sandboxView{Message: "订单不存在"})
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
	if err := r.ParseForm(); err != nil {
		sandboxHTML(w, http.StatusBadRequest, sandboxView{Message: "请求无效"})
		return
	}
	action := r.PostForm.Get("action")
	tok := r.PostForm.Get("t")
	if !sb.keyOK(no, tok) {
		sandboxHTML(w, http.StatusForbidden, sandboxView{Message: "支付链接无效，请回到应用重新发起支付"})
		return
	}
	if action != "pay" && action != "cancel" {
		sandboxHTML(w, http.StatusBadRequest, sandboxView{Message: "请求无效，请返回重新打开支付页"})
		return
	}
	o, err := h.s.orderByNo(r, no)
	if err != nil {
		sandboxHTML(w, http.StatusNotFound, sandboxView{Message: "订单不存在"})
		return
	}
	status := OrderPaid
	if action == "cancel" {
		status = OrderCancelled
	}
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	form := sb.CallbackForm(o, status, "SBX"+strings.ToUpper(hex.EncodeToString(rnd[:])), h.s.now().Unix())
	cbReq, err := http.NewRequestWithContext(r.Context(), http.MethodPost, "/api/pay/callback/"+SandboxName, strings.NewReader(form.Encode()))
	if err != nil {
		sandboxHTML(w, http.StatusInternalServerError, sandboxView{Message: "支付失败，请重试"})
		return
	}
	cbReq.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if code, _ := h.callback(cbReq, SandboxName); code >= 500 {
		sandboxHTML(w, http.StatusServiceUnavailable, sandboxView{Message: "支付失败，请重试"})
		return
	}
	http.Redirect(w, r, resultURL(no), http.StatusSeeOther)
}

func resultURL(no string) string { return "/mine/usercoinchongzhi?orderNo=" + url.QueryEscape(no) }

// orderByNo reads order no (any user's: the hosted page checks the order's
// key before it asks).
func (s *Service) orderByNo(r *http.Request, no string) (Order, error) {
	o, err := scanOrder(s.db.QueryRow(r.Context(), `SELECT `+orderColumns+` FROM orders WHERE order_no = ?`, no))
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return Order{}, ErrNoOrder
	}
	return o, err
}

type sandboxView struct {
	Order   *Order
	Yuan    string
	Token   string
	Result  string
	Payable bool
	Expires string
	Message string
}

var sandboxTmpl = template.Must(template.New("sandbox").Parse(`<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="color-scheme" content="light dark">
<title>沙箱支付</title>
<style>
:root{color-scheme:light dark;--bg:#f4f5f7;--card:#fff;--fg:#1d1d1f;--muted:#6b6b72;--accent:#d13438}
@media (prefers-color-scheme:dark){:root{--bg:#111113;--card:#1c1c1f;--fg:#ededf0;--muted:#a0a0a8}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;background:var(--bg);color:var(--fg);font:16px/1.5 -apple-system,"PingFang SC","Microsoft YaHei",sans-serif;
padding:calc(24px + env(safe-area-inset-top)) calc(16px + env(safe-area-inset-right)) calc(24px + env(safe-area-inset-bottom)) calc(16px + env(safe-area-inset-left))}
main{max-width:420px;margin:0 auto;background:var(--card);border-radius:16px;padding:24px 20px}
h1{font-size:18px;margin:0 0 4px}
.note{color:var(--muted);font-size:13px;margin:0 0 20px}
.amount{font-size:40px;font-weight:700;margin:8px 0}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 12px;margin:16px 0 24px;font-size:14px}
dt{color:var(--muted)}dd{margin:0;word-break:break-all}
button,a.btn{display:block;width:100%;min-height:48px;border:0;border-radius:24px;font-size:17px;font-weight:600;margin-top:12px;text-align:center;line-height:48px;text-decoration:none;cursor:pointer}
.pay{background:var(--accent);color:#fff}
.cancel{background:transparent;color:var(--muted);border:1px solid currentColor}
a.btn{background:var(--accent);color:#fff}
.msg{font-size:18px;font-weight:600;text-align:center;margin:24px 0}
</style></head>
<body><main>
<h1>沙箱支付</h1>
<p class="note">测试用支付页，不会产生真实扣款</p>
{{if .Order}}
<div class="amount">¥{{.Yuan}}</div>
<dl><dt>商品</dt><dd>{{.Order.Title}}</dd><dt>订单号</dt><dd>{{.Order.OrderNo}}</dd>{{if .Payable}}<dt>有效期至</dt><dd>{{.Expires}}</dd>{{end}}</dl>
{{end}}
{{if .Payable}}
<form method="post"><input type="hidden" name="t" value="{{.Token}}"><input type="hidden" name="action" value="pay"><button class="pay" type="submit">确认支付</button></form>
<form method="post"><input type="hidden" name="t" value="{{.Token}}"><input type="hidden" name="action" value="cancel"><button class="cancel" type="submit">取消</button></form>
{{else}}
<p class="msg" role="status">{{.Message}}</p>
{{if .Result}}<a class="btn" href="{{.Result}}">返回</a>{{else}}<a class="btn" href="/">返回首页</a>{{end}}
{{end}}
</main></body></html>
`))

func sandboxHTML(w http.ResponseWriter, status int, v sandboxView) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = sandboxTmpl.Execute(w, v)
}

// AdminCallbacks is GET /api/admin/orders/callbacks?orderNo=: the last 100
// provider callbacks and what came of them.
func (h *Handler) AdminCallbacks(w http.ResponseWriter, r *http.Request) error {
	no := httpx.Q(r).String("orderNo")
	if no != "" && !validOrderNo(no) {
		return httpx.Invalid("参数 orderNo 无效", "orderNo is P and up to 31 digits")
	}
	list, err := h.s.Callbacks(r.Context(), no)
	if err != nil {
		return err
	}
	return httpx.OK(w, list)
}

type adminOrderBody struct {
	OrderNo string `json:"orderNo"`
	Reason  string `json:"reason"`
}

func decodeAdminOrder(w http.ResponseWriter, r *http.Request) (adminOrderBody, error) {
	var b adminOrderBody
	if err := httpx.Decode(w, r, &b); err != nil {
		return b, err
	}
	if b.OrderNo == "" {
		return b, httpx.Invalid("缺少参数 orderNo", "orderNo is required")
	}
	if !validOrderNo(b.OrderNo) {
		return b, httpx.Invalid("参数 orderNo 无效", "orderNo is P and up to 31 digits")
	}
	b.Reason = strings.TrimSpace(b.Reason)
	if b.Reason == "" {
		return b, httpx.Invalid("缺少参数 reason", "reason is required")
	}
	if utf8.RuneCountInString(b.Reason) > 200 {
		return b, httpx.Invalid("参数 reason 过长", "reason is at most 200 characters")
	}
	return b, nil
}

func (h *Handler) orderAudit(r *http.Request, action, reason string) func(ctx context.Context, tx *db.Tx, before, after Order) error {
	return func(ctx context.Context, tx *db.Tx, before, after Order) error {
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: audit.ActorFrom(r), Action: action, TargetType: "order", TargetID: before.OrderNo,
			Before: map[string]any{"status": before.Status},
			After:  map[string]any{"status": after.Status, "reason": reason, "uid": after.UserID, "amount": after.Amount}}, h.s.now())
	}
}

// AdminOrderPaid is POST /api/admin/orders/paid {orderNo, reason}.
func (h *Handler) AdminOrderPaid(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeAdminOrder(w, r)
	if err != nil {
		return err
	}
	p, _ := httpx.PrincipalFrom(r.Context())
	o, _, err := h.s.MarkPaid(r.Context(), b.OrderNo, p.UID, h.orderAudit(r, "order.paid", b.Reason))
	if err != nil {
		return payErrs.Map(err)
	}
	return httpx.OK(w, o)
}

// AdminOrderRefund is POST /api/admin/orders/refund {orderNo, reason}.
func (h *Handler) AdminOrderRefund(w http.ResponseWriter, r *http.Request) error {
	b, err := decodeAdminOrder(w, r)
	if err != nil {
		return err
	}
	p, _ := httpx.PrincipalFrom(r.Context())
	o, _, err := h.s.Refund(r.Context(), b.OrderNo, b.Reason, p.UID, h.orderAudit(r, "order.refund", b.Reason))
	if err != nil {
		return payErrs.Map(err)
	}
	return httpx.OK(w, o)
}

// AdminCurrencys is GET /api/admin/currencys: every coin package, inactive
// ones too.
func (h *Handler) AdminCurrencys(w http.ResponseWriter, r *http.Request) error {
	ps, err := h.s.Packages(r.Context(), 1, true)
	if err != nil {
		return err
	}
	return httpx.OK(w, ps)
}

// Bounds of a coin package.
const (
	maxPackageCoins = 100_000_000
	maxPackagePrice = 100_000_000 // cents: ¥1,000,000
)

// AdminSaveCurrency is POST /api/admin/currencys {id (absent: create),
// name, coins, bonus, price, originalPrice, label, sort, active}.
func (h *Handler) AdminSaveCurrency(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		ID            *int64 `json:"id"`
		Name          string `json:"name"`
		Coins         int64  `json:"coins"`
		Bonus         int64  `json:"bonus"`
		Price         int64  `json:"price"`
		OriginalPrice int64  `json:"originalPrice"`
		Label         string `json:"label"`
		Sort          int64  `json:"sort"`
		Active        *bool  `json:"active"`
	}
	if err := httpx.Decode(w, r, &b); err != nil {
		return err
	}
	b.Name, b.Label = strings.TrimSpace(b.Name), strings.TrimSpace(b.Label)
	bad := func(field, why string) error { return httpx.Invalid("参数 "+field+" 无效", field+" "+why) }
	switch {
	case b.ID != nil && (*b.ID < 1 || *b.ID > httpx.MaxID):
		return bad("id", "must be a positive integer")
	case b.Name == "" || utf8.RuneCountInString(b.Name) > 40:
		return bad("name", "must be 1-40 characters")
	case b.Coins < 1 || b.Coins > maxPackageCoins:
		return bad("coins", fmt.Sprintf("must be 1..%d", maxPackageCoins))
	case b.Bonus < 0 || b.Bonus > maxPackageCoins:
		return bad("bonus", fmt.Sprintf("must be 0..%d", maxPackageCoins))
	case b.Price < 1 || b.Price > maxPackagePrice:
		return bad("price", fmt.Sprintf("must be 1..%d cents", maxPackagePrice))
	case b.OriginalPrice < 0 || b.OriginalPrice > maxPackagePrice:
		return bad("originalPrice", fmt.Sprintf("must be 0..%d cents", maxPackagePrice))
	case utf8.RuneCountInString(b.Label) > 10:
		return bad("label", "must be at most 10 characters")
	case b.Sort < -1_000_000 || b.Sort > 1_000_000:
		return bad("sort", "must be within ±1000000")
	}
	p := CoinPackage{Name: b.Name, Coins: b.Coins, Bonus: b.Bonus, Price: b.Price, OriginalPrice: b.OriginalPrice, Label: b.Label, Sort: int(b.Sort), Active: true}
	if b.ID != nil {
		p.ID = *b.ID
	}
	if b.Active != nil {
		p.Active = *b.Active
	}
	var saved CoinPackage
	err := h.s.db.Tx(r.Context(), func(ctx context.Context, tx *db.Tx) error {
		before, after, err := h.s.SavePackage(ctx, tx, p)
		if err != nil {
			return err
		}
		saved = after
		action := "currency.update"
		var prev any = before
		if b.ID == nil {
			action, prev = "currency.create", nil
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: audit.ActorFrom(r), Action: action, TargetType: "coin_package",
			TargetID: fmt.Sprint(after.ID), Before: prev, After: after}, h.s.now())
	})
	if err != nil {
		return payErrs.Map(err)
	}
	return httpx.OK(w, saved)
}
