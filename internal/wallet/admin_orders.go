package wallet

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"time"

	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// AdminOrderQuery is the console's order list (issue 21): every filter is
// optional; From and To are Asia/Shanghai days (YYYY-MM-DD, both
// included) of the order's creation. After is the order id the page starts
// after (0: the first page); newest first by id.
type AdminOrderQuery struct {
	UserID   int64
	Status   string
	OrderNo  string
	Provider string // a payType ("epay_alipay") or a gateway ("epay": each of its payTypes)
	From, To string
	After    int64
	PageSize int
}

// validProvider: a payType or gateway name as Name gives them.
var validProvider = regexp.MustCompile(`^[a-z][a-z0-9_]{0,31}$`)

// dayStart is the first second of the Asia/Shanghai day d (YYYY-MM-DD).
func dayStart(d string) (int64, bool) {
	t, err := time.ParseInLocation(time.DateOnly, d, days.Zone)
	if err != nil || t.Format(time.DateOnly) != d {
		return 0, false
	}
	return t.Unix(), true
}

type idScanner struct {
	s  db.Scanner
	id *int64
}

func (x idScanner) Scan(dest ...any) error { return x.s.Scan(append([]any{x.id}, dest...)...) }

type idOrder struct {
	id int64
	o  Order
}

// AdminOrderPage is one keyset page of every user's orders.
func (s *Service) AdminOrderPage(ctx context.Context, f AdminOrderQuery) (httpx.KeyPage[Order], error) {
	var w db.Where
	if f.UserID > 0 {
		w.And("user_id = ?", f.UserID)
	}
	if f.Status != "" {
		w.And("status = ?", f.Status)
	}
	if f.OrderNo != "" {
		w.And("order_no = ?", f.OrderNo)
	}
	if f.Provider != "" {
		// A gateway names each of its payTypes ("epay" is epay_alipay,
		// epay_wxpay): _ is a LIKE wildcard, so it is escaped.
		w.And(`(pay_type = ? OR pay_type LIKE ? ESCAPE '!')`, f.Provider, strings.ReplaceAll(f.Provider, "_", "!_")+"!_%")
	}
	if f.From != "" {
		from, _ := dayStart(f.From)
		w.And("created_at >= ?", from)
	}
	if f.To != "" {
		to, _ := dayStart(f.To)
		w.And("created_at < ?", to+86400)
	}
	if f.After > 0 {
		w.And("id < ?", f.After)
	}
	rows, err := db.All(ctx, s.db, func(sc db.Scanner) (idOrder, error) {
		var r idOrder
		o, err := scanOrder(idScanner{sc, &r.id})
		r.o = o
		return r, err
	}, `SELECT id, `+orderColumns+` FROM orders`+w.Clause()+` ORDER BY id DESC LIMIT ?`, append(w.Args(), f.PageSize+1)...)
	if err != nil {
		return httpx.KeyPage[Order]{}, err
	}
	page := httpx.NewKeyPage(rows, f.PageSize, func(r idOrder) []int64 { return []int64{r.id} })
	out := httpx.KeyPage[Order]{List: make([]Order, len(page.List)), PageSize: page.PageSize, HasMore: page.HasMore, NextCursor: page.NextCursor}
	for i, r := range page.List {
		out.List[i] = r.o
	}
	return out, nil
}

// AdminOrders is GET /api/admin/orders?status=&uid=&orderNo=&provider=&from=&to=&cursor=&pageSize=.
func (h *Handler) AdminOrders(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	f := AdminOrderQuery{Status: q.String("status"), OrderNo: q.String("orderNo"), Provider: q.String("provider"),
		From: q.String("from"), To: q.String("to")}
	f.UserID = q.Int("uid", 0, 1, httpx.MaxID)
	after, size := httpx.KeyParams(q, 1, 20)
	if err := q.Err(); err != nil {
		return err
	}
	if len(after) == 1 {
		f.After = after[0]
	}
	f.PageSize = size
	if f.Status != "" && !contains(orderStatuses, f.Status) {
		return httpx.Invalid("参数 status 无效", "status must be one of "+strings.Join(orderStatuses, ", "))
	}
	if f.OrderNo != "" && !validOrderNo(f.OrderNo) {
		return httpx.Invalid("参数 orderNo 无效", "orderNo is P and up to 31 digits")
	}
	if f.Provider != "" && !validProvider.MatchString(f.Provider) {
		return httpx.Invalid("参数 provider 无效", "provider is a payType or gateway name (a-z, 0-9, _)")
	}
	from, okFrom := dayStart(f.From)
	if f.From != "" && !okFrom {
		return httpx.Invalid("参数 from 无效", "from is a day YYYY-MM-DD")
	}
	to, okTo := dayStart(f.To)
	if f.To != "" && !okTo {
		return httpx.Invalid("参数 to 无效", "to is a day YYYY-MM-DD")
	}
	if okFrom && okTo && to < from {
		return httpx.Invalid("结束日期不能早于开始日期", "to is before from")
	}
	page, err := h.s.AdminOrderPage(r.Context(), f)
	if err != nil {
		return err
	}
	return httpx.OK(w, page)
}
