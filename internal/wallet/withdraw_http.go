package wallet

import (
	"net/http"

	"prima/internal/platform/audit"
	"prima/internal/platform/httpx"
)

// pageParams reads the page as every list does (httpx.PageParams), 20 by default.
func pageParams(q *httpx.Query) (int, int) { return httpx.PageParams(q, 20) }

// PayoutAccounts is GET /api/app/mine/txnact/bank/get?actType=1|2.
func (h *Handler) PayoutAccounts(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	t := q.Required("actType", ActBank, ActUSDT)
	if err := q.Err(); err != nil {
		return err
	}
	list, err := h.s.PayoutAccounts(r.Context(), httpx.UserID(r.Context()), int(t))
	if err != nil {
		return err
	}
	return httpx.OK(w, list)
}

// AddPayoutAccount is POST /api/app/mine/txnact/bank/add.
func (h *Handler) AddPayoutAccount(w http.ResponseWriter, r *http.Request) error {
	var in PayoutInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	a, err := h.s.AddPayout(r.Context(), httpx.UserID(r.Context()), httpx.ClientIP(r), in)
	if err != nil {
		return withdrawErrs.Map(err)
	}
	return httpx.OK(w, a)
}

// DeletePayoutAccount is DELETE /api/app/mine/txnact/del?id=.
func (h *Handler) DeletePayoutAccount(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	id := q.Required("id", 1, httpx.MaxID)
	if err := q.Err(); err != nil {
		return err
	}
	if err := h.s.DeletePayoutAccount(r.Context(), httpx.UserID(r.Context()), id); err != nil {
		return withdrawErrs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"id": id})
}

// Withdraw is POST /api/app/withdraw.
func (h *Handler) Withdraw(w http.ResponseWriter, r *http.Request) error {
	var in WithdrawInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	key, err := KeyFrom(r, in.IdempotencyKey)
	if err != nil {
		return err
	}
	out, err := h.s.Withdraw(r.Context(), httpx.UserID(r.Context()), httpx.ClientIP(r), key, in)
	if err != nil {
		return withdrawErrs.Map(err)
	}
	return httpx.OK(w, out)
}

// WithdrawOrders is GET /api/app/withdraw/order?status=&pageNumber&pageSize.
func (h *Handler) WithdrawOrders(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	status := q.String("status")
	num, size := pageParams(q)
	if err := q.Err(); err != nil {
		return err
	}
	if err := CheckStatus(status); err != nil {
		return withdrawErrs.Map(err)
	}
	p, err := h.s.Withdrawals(r.Context(), httpx.UserID(r.Context()), status, num, size)
	if err != nil {
		return err
	}
	return httpx.OK(w, p)
}

// AdminWithdrawals is GET /api/admin/withdrawals?status=&uid=&cursor=&pageSize=:
// a keyset page (the pending queue oldest first, other lists newest first).
func (h *Handler) AdminWithdrawals(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	status := q.String("status")
	uid := q.Int("uid", 0, 1, httpx.MaxID)
	after, size := httpx.KeyParams(q, 1, 20)
	if err := q.Err(); err != nil {
		return err
	}
	if err := CheckStatus(status); err != nil {
		return withdrawErrs.Map(err)
	}
	f := WithdrawalQuery{UserID: uid, Status: status, PageSize: size}
	if len(after) == 1 {
		f.After = after[0]
	}
	p, err := h.s.AdminWithdrawalPage(r.Context(), f)
	if err != nil {
		return err
	}
	return httpx.OK(w, p)
}

// AdminWithdrawRisk is GET /api/admin/withdrawals/risk?orderNo=.
func (h *Handler) AdminWithdrawRisk(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	no := q.String("orderNo")
	if err := q.Err(); err != nil {
		return err
	}
	out, err := h.s.WithdrawRisk(r.Context(), no)
	if err != nil {
		return withdrawErrs.Map(err)
	}
	return httpx.OK(w, out)
}

// AdminWithdrawSettings is GET /api/admin/withdrawals/settings.
func (h *Handler) AdminWithdrawSettings(w http.ResponseWriter, r *http.Request) error {
	out, err := h.s.WithdrawSettings(r.Context())
	if err != nil {
		return err
	}
	return httpx.OK(w, out)
}

// AdminSetWithdrawSettings is POST /api/admin/withdrawals/settings
// {twoPersonAbove} (owner, step-up).
func (h *Handler) AdminSetWithdrawSettings(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		TwoPersonAbove *int64 `json:"twoPersonAbove"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if in.TwoPersonAbove == nil {
		return httpx.Invalid("缺少参数 twoPersonAbove", "twoPersonAbove is required")
	}
	out, err := h.s.SetWithdrawSettings(r.Context(), audit.ActorFrom(r), *in.TwoPersonAbove)
	if err != nil {
		return withdrawErrs.Map(err)
	}
	return httpx.OK(w, out)
}

// Decision is the answer of approve and reject: the withdrawal as it now
// is, and whether this call changed it (false: decided before, or a first
// approval that waits for a second operator: awaitingSecond).
type Decision struct {
	Withdrawal     AdminWithdrawal `json:"withdrawal"`
	Changed        bool            `json:"changed"`
	AwaitingSecond bool            `json:"awaitingSecond"`
}

type decideInput struct {
	OrderNo  string   `json:"orderNo"`
	OrderNos []string `json:"orderNos"`
	Reason   string   `json:"reason"`
}

// AdminApprove is POST /api/admin/withdrawals/approve {orderNo} -> Decision,
// or {orderNos: [...]} (bulk, 1..100) -> {results: [BulkItem]}.
func (h *Handler) AdminApprove(w http.ResponseWriter, r *http.Request) error {
	var in decideInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if in.OrderNos != nil {
		if in.OrderNo != "" {
			return httpx.Invalid("orderNo 与 orderNos 只能选一个", "send either orderNo or orderNos")
		}
		out, err := h.s.BulkApprove(r.Context(), audit.ActorFrom(r), in.OrderNos)
		if err != nil {
			return withdrawErrs.Map(err)
		}
		return httpx.OK(w, map[string]any{"results": out})
	}
	return h.decided(w, r, in, true)
}

// AdminReject is POST /api/admin/withdrawals/reject {orderNo, reason}.
func (h *Handler) AdminReject(w http.ResponseWriter, r *http.Request) error {
	var in decideInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	return h.decided(w, r, in, false)
}

func (h *Handler) decided(w http.ResponseWriter, r *http.Request, in decideInput, approve bool) error {
	out, changed, err := h.s.Decide(r.Context(), audit.ActorFrom(r), in.OrderNo, approve, in.Reason)
	if err != nil {
		return withdrawErrs.Map(err)
	}
	named := []AdminWithdrawal{out}
	if err := h.s.nameOperators(r.Context(), named); err != nil {
		return err
	}
	out = named[0]
	return httpx.OK(w, Decision{Withdrawal: out, Changed: changed, AwaitingSecond: out.AwaitingSecond})
}
