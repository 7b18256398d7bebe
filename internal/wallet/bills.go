package wallet

import (
	"context"
	"net/http"
	"strings"
	"time"

	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// billKind is one kind of movement a user's bill can show: its title
// (zh-CN; the app has its own per language) and the user accounts it may
// touch. Post refuses a movement that touches a user account its kind
// does not list here, so a new kind cannot reach a bill untitled and
// without a filter chip.
type billKind struct {
	kind   string
	title  string
	coins  bool // may move the user's coin account (the coin bill lists it)
	income bool // may move the user's income account (income records list it)
}

// billKinds in the order the filter chips show them.
var billKinds = []billKind{
	{kind: "topup", title: "金币充值", coins: true},
	{kind: "bonus", title: "充值赠送", coins: true},
	{kind: "checkin", title: "签到奖励", coins: true},
	{kind: "task", title: "任务奖励", coins: true},
	{kind: "prize", title: "积分兑换", coins: true},
	{kind: "invite", title: "邀请奖励", coins: true},
	{kind: "code", title: "兑换码奖励", coins: true},
	{kind: "buy_video", title: "购买视频", coins: true},
	{kind: "buy_gallery", title: "购买图集", coins: true},
	{kind: "buy_post", title: "购买帖子", coins: true},
	{kind: "buy_vip", title: "购买会员", coins: true},
	{kind: "commission", title: "推广佣金", income: true},
	{kind: "creator", title: "创作收益", income: true},
	{kind: "withdraw", title: "提现", income: true},
	{kind: "withdraw_return", title: "提现退回", income: true},
	{kind: "exchange", title: "收益兑换金币", coins: true, income: true},
	{kind: "refund", title: "订单退款", coins: true},
	{kind: "adjust", title: "系统调整", coins: true, income: true},
}

// Bill titles per movement kind (zh-CN), as the bill shows them, and the
// types each bill may be filtered by: all derived from billKinds.
var (
	billTitles      = map[string]string{}
	coinBillTypes   []string
	incomeBillTypes []string
)

func init() {
	for _, k := range billKinds {
		billTitles[k.kind] = k.title
		if k.coins {
			coinBillTypes = append(coinBillTypes, k.kind)
		}
		if k.income {
			incomeBillTypes = append(incomeBillTypes, k.kind)
		}
	}
}

// onBill reports whether a movement of kind may touch user account kind
// account (Coins or Income).
func onBill(kind, account string) bool {
	for _, k := range billKinds {
		if k.kind == kind {
			return (account == Coins && k.coins) || (account == Income && k.income)
		}
	}
	return false
}

// BillEntry is one entry of a user's coin or income account with the
// movement it belongs to.
type BillEntry struct {
	ID        int64     `json:"id"`
	Type      string    `json:"type"`
	Title     string    `json:"title"`
	Amount    int64     `json:"amount"`
	Balance   int64     `json:"balance"`
	Ref       string    `json:"ref"`
	CreatedAt time.Time `json:"createdAt"`
}

// BillPage is one page of a bill (the lists' page shape).
type BillPage = httpx.Page[BillEntry]

// BillQuery is a bill request, already checked by the handler.
type BillQuery struct {
	Account    string // Coins or Income
	Type       string // "" any
	Month      string // "" any, else YYYY-MM (Asia/Shanghai)
	PageNumber int
	PageSize   int
}

// monthRange is the [from, to) Unix range of month YYYY-MM in Shanghai.
func monthRange(m string) (int64, int64, bool) {
	t, err := time.ParseInLocation("2006-01", m, days.Zone)
	if err != nil || t.Year() < 2000 || t.Year() > 9999 {
		return 0, 0, false
	}
	return t.Unix(), t.AddDate(0, 1, 0).Unix(), true
}

// Bills lists one page of uid's entries on the account q names, newest first.
func (s *Service) Bills(ctx context.Context, uid int64, q BillQuery) (BillPage, error) {
	out := BillPage{List: []BillEntry{}, PageNumber: q.PageNumber, PageSize: q.PageSize}
	var w db.Where
	w.And(`a.user_id = ? AND a.kind = ?`, uid, q.Account)
	if q.Type != "" {
		w.And(`t.kind = ?`, q.Type)
	}
	if q.Month != "" {
		from, to, _ := monthRange(q.Month)
		w.And(`e.created_at >= ? AND e.created_at < ?`, from, to)
	}
	where := ` FROM ledger_entries e JOIN ledger_txns t ON t.id = e.txn_id JOIN ledger_accounts a ON a.id = e.account_id` + w.Clause()
	args := w.Args()
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*)`+where, args...).Scan(&out.Total); err != nil {
		return out, err
	}
	offset := (q.PageNumber - 1) * q.PageSize
	if offset >= out.Total {
		return out, nil
	}
	list, err := db.All(ctx, s.db, func(sc db.Scanner) (BillEntry, error) {
		var (
			b  BillEntry
			at int64
		)
		err := sc.Scan(&b.ID, &b.Type, &b.Amount, &b.Balance, &b.Ref, &at)
		b.CreatedAt = time.Unix(at, 0).UTC()
		b.Title = billTitles[b.Type]
		if b.Title == "" {
			b.Title = b.Type
		}
		return b, err
	}, `SELECT e.id, t.kind, e.amount, e.balance_after, t.ref, e.created_at`+where+` ORDER BY e.id DESC LIMIT ? OFFSET ?`,
		append(args, q.PageSize, offset)...)
	if err != nil {
		return out, err
	}
	out.List = list
	out.HasMore = offset+len(list) < out.Total
	return out, nil
}

// MonthRange is the [from, to) unix range of month YYYY-MM in
// Asia/Shanghai; ok false when m is not such a month.
func MonthRange(m string) (from, to int64, ok bool) { return monthRange(m) }

// IncomeByKind sums uid's income entries made in [from, to) per movement
// kind (signed cents: "commission" +, "withdraw" -, ...): the month totals
// of the income summary (earnings).
func IncomeByKind(ctx context.Context, q db.Querier, uid, from, to int64) (map[string]int64, error) {
	type sum struct {
		kind   string
		amount int64
	}
	rows, err := db.All(ctx, q, func(s db.Scanner) (sum, error) {
		var v sum
		return v, s.Scan(&v.kind, &v.amount)
	}, `SELECT t.kind, SUM(e.amount) FROM ledger_entries e JOIN ledger_txns t ON t.id = e.txn_id JOIN ledger_accounts a ON a.id = e.account_id
		WHERE a.user_id = ? AND a.kind = ? AND e.created_at >= ? AND e.created_at < ? GROUP BY t.kind`, uid, Income, from, to)
	out := make(map[string]int64, len(rows))
	for _, r := range rows {
		out[r.kind] = r.amount
	}
	return out, err
}

// billQuery reads type, month and the page of a bill request on account.
func billQuery(r *http.Request, account string, types []string) (BillQuery, error) {
	q := httpx.Q(r)
	bq := BillQuery{Account: account, Type: q.String("type"), Month: q.String("month")}
	bq.PageNumber, bq.PageSize = pageParams(q)
	if err := q.Err(); err != nil {
		return bq, err
	}
	if bq.Type != "" && !contains(types, bq.Type) {
		return bq, httpx.Invalid("参数 type 无效", "type must be one of "+strings.Join(types, ", "))
	}
	if bq.Month != "" {
		if _, _, ok := monthRange(bq.Month); !ok {
			return bq, httpx.Invalid("参数 month 无效", "month must be YYYY-MM")
		}
	}
	return bq, nil
}

// Zhangdan is GET /api/app/mine/zhangdan: the caller's coin bill.
func (h *Handler) Zhangdan(w http.ResponseWriter, r *http.Request) error {
	return h.bill(w, r, Coins, coinBillTypes)
}

// Incomes is GET /api/app/mine/iIncomes: the caller's income records.
func (h *Handler) Incomes(w http.ResponseWriter, r *http.Request) error {
	return h.bill(w, r, Income, incomeBillTypes)
}

func (h *Handler) bill(w http.ResponseWriter, r *http.Request, account string, types []string) error {
	bq, err := billQuery(r, account, types)
	if err != nil {
		return err
	}
	page, err := h.s.Bills(r.Context(), httpx.UserID(r.Context()), bq)
	if err != nil {
		return err
	}
	return httpx.OK(w, page)
}

// BonusGrant is one bonus movement of a user (GET /api/app/goldExtra/userList).
type BonusGrant struct {
	ID        int64     `json:"id"`
	Coins     int64     `json:"coins"`
	Reason    string    `json:"reason"`
	Ref       string    `json:"ref"`
	CreatedAt time.Time `json:"createdAt"`
}

// BonusPage is a page of bonus grants (the lists' page shape).
type BonusPage = httpx.Page[BonusGrant]

// Bonuses are the bonus coins credited to uid, newest first.
func (s *Service) Bonuses(ctx context.Context, uid int64, pageNumber, pageSize int) (BonusPage, error) {
	page := BonusPage{List: []BonusGrant{}, PageNumber: pageNumber, PageSize: pageSize}
	const from = ` FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_txns t ON t.id = e.txn_id
		WHERE a.user_id = ? AND a.kind = 'coins' AND t.kind = 'bonus' AND e.amount > 0`
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*)`+from, uid).Scan(&page.Total); err != nil {
		return page, err
	}
	list, err := db.All(ctx, s.db, func(sc db.Scanner) (BonusGrant, error) {
		var g BonusGrant
		var at int64
		err := sc.Scan(&g.ID, &g.Coins, &g.Reason, &g.Ref, &at)
		g.CreatedAt = time.Unix(at, 0).UTC()
		return g, err
	}, `SELECT t.id, e.amount, t.memo, t.ref, t.created_at`+from+` ORDER BY t.id DESC LIMIT ? OFFSET ?`, uid, pageSize, (pageNumber-1)*pageSize)
	if err != nil {
		return page, err
	}
	page.List = list
	page.HasMore = pageNumber*pageSize < page.Total
	return page, nil
}
