package wallet

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"prima/internal/account"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// The withdrawal review of the console (issue 21): the queue paged by
// keyset, each user's risk signals, the owner's two-person threshold and
// bulk approval. Decide (withdraw.go) applies the two-person rule.

// MaxTwoPersonAbove bounds the threshold (cents): a typo of extra zeros
// is refused rather than turning the rule off in practice.
const MaxTwoPersonAbove = 100_000_000_00

// WithdrawSettings is GET/POST /api/admin/withdrawals/settings.
type WithdrawSettings struct {
	// TwoPersonAbove: a withdrawal of more cents than this needs two
	// different operators' approvals; 0 turns the rule off.
	TwoPersonAbove int64     `json:"twoPersonAbove"`
	UpdatedBy      int64     `json:"updatedBy"`
	UpdatedAt      time.Time `json:"updatedAt"`
}

func twoPersonAbove(ctx context.Context, q db.Querier) (int64, error) {
	var above int64
	err := q.QueryRow(ctx, `SELECT two_person_above FROM withdraw_settings WHERE id = 1`).Scan(&above)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return above, err
}

// WithdrawSettings reads the two-person threshold.
func (s *Service) WithdrawSettings(ctx context.Context) (WithdrawSettings, error) {
	var (
		out WithdrawSettings
		at  int64
	)
	err := s.db.QueryRow(ctx, `SELECT two_person_above, updated_by, updated_at FROM withdraw_settings WHERE id = 1`).
		Scan(&out.TwoPersonAbove, &out.UpdatedBy, &at)
	if errors.Is(err, sql.ErrNoRows) {
		err = nil
	}
	out.UpdatedAt = time.Unix(at, 0).UTC()
	return out, err
}

// SetWithdrawSettings sets the two-person threshold, audited
// "withdraw.settings" (before and after) in the same transaction.
func (s *Service) SetWithdrawSettings(ctx context.Context, actor audit.Actor, above int64) (WithdrawSettings, error) {
	if above < 0 || above > MaxTwoPersonAbove {
		return WithdrawSettings{}, invalid("参数 twoPersonAbove 无效", fmt.Sprintf("twoPersonAbove must be 0..%d cents", int64(MaxTwoPersonAbove)))
	}
	now := s.now()
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		before, err := twoPersonAbove(ctx, tx)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO withdraw_settings (id, two_person_above, updated_by, updated_at) VALUES (1, ?, ?, ?)
			ON CONFLICT (id) DO UPDATE SET two_person_above = excluded.two_person_above, updated_by = excluded.updated_by,
			updated_at = excluded.updated_at`, above, actor.UID, now.Unix()); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "withdraw.settings", TargetType: "withdraw_settings", TargetID: "1",
			Before: map[string]int64{"twoPersonAbove": before}, After: map[string]int64{"twoPersonAbove": above}}, now)
	})
	if err != nil {
		return WithdrawSettings{}, err
	}
	return s.WithdrawSettings(ctx)
}

// WithdrawalQuery is the console's withdrawal list: one status ("" any)
// and one user (0 any). The pending queue is oldest first (who waited
// longest is paid first), every other list newest first; After is the id
// the page starts after (0: the first page).
type WithdrawalQuery struct {
	UserID   int64
	Status   string
	After    int64
	PageSize int
}

// AdminWithdrawalPage is a keyset page of the console's withdrawal list.
func (s *Service) AdminWithdrawalPage(ctx context.Context, f WithdrawalQuery) (httpx.KeyPage[AdminWithdrawal], error) {
	var w db.Where
	if f.UserID > 0 {
		w.And("user_id = ?", f.UserID)
	}
	if f.Status != "" {
		w.And("status = ?", f.Status)
	}
	order := "id DESC"
	if f.Status == StatusPending {
		order = "id ASC"
		if f.After > 0 {
			w.And("id > ?", f.After)
		}
	} else if f.After > 0 {
		w.And("id < ?", f.After)
	}
	rows, err := db.All(ctx, s.db, scanWithdrawal, `SELECT `+withdrawalColumns+` FROM withdrawals`+w.Clause()+
		` ORDER BY `+order+` LIMIT ?`, append(w.Args(), f.PageSize+1)...)
	if err != nil {
		return httpx.KeyPage[AdminWithdrawal]{}, err
	}
	page := httpx.NewKeyPage(rows, f.PageSize, func(r withdrawalRow) []int64 { return []int64{r.ID} })
	out := httpx.KeyPage[AdminWithdrawal]{List: make([]AdminWithdrawal, len(page.List)), PageSize: page.PageSize,
		HasMore: page.HasMore, NextCursor: page.NextCursor}
	for i, r := range page.List {
		out.List[i] = r.admin()
	}
	return out, s.nameOperators(ctx, out.List)
}

// nameOperators fills the operators' names of list (account's users rows,
// read through account.Cards) in one query.
func (s *Service) nameOperators(ctx context.Context, list []AdminWithdrawal) error {
	var ids []int64
	for _, w := range list {
		for _, id := range []int64{w.OperatorID, w.FirstApproverID} {
			if id > 0 {
				ids = append(ids, id)
			}
		}
	}
	cards, err := account.Cards(ctx, s.db, ids)
	if err != nil {
		return err
	}
	for i := range list {
		list[i].OperatorName = cards[list[i].OperatorID].Name
		list[i].FirstApproverName = cards[list[i].FirstApproverID].Name
	}
	return nil
}

// Tally is a count and a sum of cents.
type Tally struct {
	Count int64 `json:"count"`
	Cents int64 `json:"cents"`
}

// IncomeSource is the cents that reached a user's income by one kind of
// movement (commission, creator, adjust, withdraw_return, ...).
type IncomeSource struct {
	Kind  string `json:"kind"`
	Cents int64  `json:"cents"`
	Count int64  `json:"count"`
}

// WithdrawRisk is GET /api/admin/withdrawals/risk?orderNo=: what the
// reviewer weighs before paying a withdrawal out.
type WithdrawRisk struct {
	OrderNo        string    `json:"orderNo"`
	UserID         int64     `json:"uid"`
	RegisteredAt   time.Time `json:"registeredAt"` // the account's creation
	Registered     bool      `json:"registered"`   // has an account name (not a guest)
	AccountAgeDays int64     `json:"accountAgeDays"`
	// Top-ups: the user's orders paid with money in the last 7 and 30 days.
	TopUps7d  Tally `json:"topUps7d"`
	TopUps30d Tally `json:"topUps30d"`
	// IncomeSources: every credit to the income account, by movement kind,
	// largest first.
	IncomeSources []IncomeSource `json:"incomeSources"`
	// The user's earlier withdrawals, this one left out.
	Paid     Tally `json:"paid"`
	Rejected Tally `json:"rejected"`
	Pending  Tally `json:"pending"`
	// PayoutAccountAgeDays: how long the account paid to has been on file.
	PayoutAccountAgeDays int64 `json:"payoutAccountAgeDays"`
	// SharedPayoutUsers: other users who withdrew to the same number.
	SharedPayoutUsers int64 `json:"sharedPayoutUsers"`
}

// WithdrawRisk gathers the risk signals of the withdrawal orderNo's user.
func (s *Service) WithdrawRisk(ctx context.Context, orderNo string) (WithdrawRisk, error) {
	orderNo = strings.TrimSpace(orderNo)
	if orderNo == "" {
		return WithdrawRisk{}, invalid("缺少参数 orderNo", "orderNo is required")
	}
	if len(orderNo) > 64 {
		return WithdrawRisk{}, ErrNoWithdrawal
	}
	w, err := scanWithdrawal(s.db.QueryRow(ctx, `SELECT `+withdrawalColumns+` FROM withdrawals WHERE order_no = ?`, orderNo))
	if errors.Is(err, sql.ErrNoRows) {
		return WithdrawRisk{}, ErrNoWithdrawal
	}
	if err != nil {
		return WithdrawRisk{}, err
	}
	now := s.now()
	out := WithdrawRisk{OrderNo: w.OrderNo, UserID: w.UserID, IncomeSources: []IncomeSource{}}
	created, registered, err := account.Joined(ctx, s.db, w.UserID)
	if err != nil && !errors.Is(err, db.ErrNotFound) {
		return out, err
	}
	out.RegisteredAt, out.Registered = time.Unix(created, 0).UTC(), registered
	out.AccountAgeDays = max(0, (now.Unix()-created)/86400)
	if w.Payout.CreatedAt > 0 {
		out.PayoutAccountAgeDays = max(0, (now.Unix()-w.Payout.CreatedAt)/86400)
	}
	for _, t := range []struct {
		days int64
		into *Tally
	}{{7, &out.TopUps7d}, {30, &out.TopUps30d}} {
		if err := s.db.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(amount), 0) FROM orders
			WHERE user_id = ? AND status = 'paid' AND paid_at >= ?`, w.UserID, now.Unix()-t.days*86400).
			Scan(&t.into.Count, &t.into.Cents); err != nil {
			return out, err
		}
	}
	out.IncomeSources, err = db.All(ctx, s.db, func(sc db.Scanner) (IncomeSource, error) {
		var src IncomeSource
		err := sc.Scan(&src.Kind, &src.Cents, &src.Count)
		return src, err
	}, `SELECT t.kind, SUM(e.amount), COUNT(*) FROM ledger_entries e
		JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_txns t ON t.id = e.txn_id
		WHERE a.user_id = ? AND a.kind = ? AND e.amount > 0
		GROUP BY t.kind ORDER BY SUM(e.amount) DESC, t.kind`, w.UserID, Income)
	if err != nil {
		return out, err
	}
	if out.IncomeSources == nil {
		out.IncomeSources = []IncomeSource{}
	}
	rows, err := db.All(ctx, s.db, func(sc db.Scanner) (struct {
		status string
		t      Tally
	}, error) {
		var r struct {
			status string
			t      Tally
		}
		err := sc.Scan(&r.status, &r.t.Count, &r.t.Cents)
		return r, err
	}, `SELECT status, COUNT(*), COALESCE(SUM(amount), 0) FROM withdrawals WHERE user_id = ? AND id <> ? GROUP BY status`, w.UserID, w.ID)
	if err != nil {
		return out, err
	}
	for _, r := range rows {
		switch r.status {
		case StatusPaid:
			out.Paid = r.t
		case StatusRejected:
			out.Rejected = r.t
		case StatusPending:
			out.Pending = r.t
		}
	}
	if err := s.db.QueryRow(ctx, `SELECT COUNT(DISTINCT user_id) FROM withdrawals WHERE number = ? AND user_id <> ?`,
		w.Payout.Number, w.UserID).Scan(&out.SharedPayoutUsers); err != nil {
		return out, err
	}
	return out, nil
}

// MaxBulkApprove bounds one bulk approval.
const MaxBulkApprove = 100

// BulkItem is one withdrawal's outcome in a bulk approval.
type BulkItem struct {
	OrderNo        string `json:"orderNo"`
	Changed        bool   `json:"changed"`
	AwaitingSecond bool   `json:"awaitingSecond"`
	Status         string `json:"status"` // as it now is ("" when it failed)
	Error          string `json:"error"`  // the refusal's message ("" when none)
}

// BulkApprove approves each of orderNos in turn, each in its own
// transaction under the same rules as one approval (two-person included):
// one refusal (a 4xx) does not stop the others; any other error does.
func (s *Service) BulkApprove(ctx context.Context, actor audit.Actor, orderNos []string) ([]BulkItem, error) {
	if len(orderNos) == 0 {
		return nil, invalid("缺少参数 orderNos", "orderNos is required")
	}
	if len(orderNos) > MaxBulkApprove {
		return nil, invalid(fmt.Sprintf("一次最多批准%d笔", MaxBulkApprove), fmt.Sprintf("at most %d orderNos", MaxBulkApprove))
	}
	seen := map[string]bool{}
	out := make([]BulkItem, 0, len(orderNos))
	for _, no := range orderNos {
		no = strings.TrimSpace(no)
		if seen[no] {
			continue
		}
		seen[no] = true
		w, changed, err := s.Decide(ctx, actor, no, true, "")
		item := BulkItem{OrderNo: no, Changed: changed}
		if err != nil {
			e, ok := errors.AsType[*httpx.Error](withdrawErrs.Map(err))
			if !ok || e.Status >= 500 {
				return out, err
			}
			item.Error = e.Tip
		} else {
			item.Status, item.AwaitingSecond = w.Status, w.AwaitingSecond
		}
		out = append(out, item)
	}
	return out, nil
}
