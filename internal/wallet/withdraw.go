package wallet

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"prima/internal/messaging"
	"prima/internal/platform/audit"
	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
	"prima/internal/platform/realtime"
)

// Withdrawals (docs/architecture.md, *Withdrawals*): a user turns income
// into money paid to one of their payout accounts. The whole amount leaves
// the income account at once into the holding account (sys:cent:
// withdraw_held), so it can be neither spent nor withdrawn twice; an
// operator then pays it (held -> payouts + fees) or rejects it (held ->
// back to income). Each decision is a conditional state change, so
// deciding twice moves nothing.

// Withdrawal states.
const (
	StatusPending  = "pending"
	StatusPaid     = "paid"
	StatusRejected = "rejected"
)

// Withdrawal is one withdrawal as its user sees it.
type Withdrawal struct {
	OrderNo   string        `json:"orderNo"`
	Amount    int64         `json:"amount"` // cents
	Fee       int64         `json:"fee"`
	Net       int64         `json:"net"` // amount - fee: what is paid out
	Status    string        `json:"status"`
	Reason    string        `json:"reason"`
	Account   PayoutAccount `json:"account"`
	CreatedAt time.Time     `json:"createdAt"`
	DecidedAt *time.Time    `json:"decidedAt"`
}

// AdminWithdrawal is a withdrawal as an operator sees it: the user, and
// the payout account unmasked (the operator pays to it).
type AdminWithdrawal struct {
	Withdrawal
	UserID     int64 `json:"uid"`
	OperatorID int64 `json:"operatorID"`
	// FirstApproverID is the operator whose approval of a withdrawal above
	// the two-person threshold waits for a second operator (0: none yet);
	// AwaitingSecond is that wait (pending with a first approval).
	FirstApproverID int64      `json:"firstApproverID"`
	FirstApprovedAt *time.Time `json:"firstApprovedAt"`
	AwaitingSecond  bool       `json:"awaitingSecond"`
	// The operators' names (console lists; "" when unknown or none).
	OperatorName      string `json:"operatorName"`
	FirstApproverName string `json:"firstApproverName"`
}

// WithdrawalPage is one page of withdrawals (the lists' page shape).
type WithdrawalPage[T any] = httpx.Page[T]

type withdrawalRow struct {
	ID, UserID, Amount, Fee, AccountID int64
	OrderNo                            string
	Payout                             payoutRow
	Status, Reason                     string
	OperatorID, CreatedAt, DecidedAt   int64
	FirstApproverID, FirstApprovedAt   int64
}

const withdrawalColumns = `id, order_no, user_id, amount, fee, account_id, act_type, bank_name, holder, number, network,
	status, reason, operator_id, created_at, decided_at, first_approver_id, first_approved_at,
	COALESCE((SELECT p.created_at FROM payout_accounts p WHERE p.id = withdrawals.account_id), 0)`

func scanWithdrawal(s db.Scanner) (withdrawalRow, error) {
	var w withdrawalRow
	p := &w.Payout
	err := s.Scan(&w.ID, &w.OrderNo, &w.UserID, &w.Amount, &w.Fee, &w.AccountID, &p.ActType, &p.BankName, &p.Holder, &p.Number,
		&p.Network, &w.Status, &w.Reason, &w.OperatorID, &w.CreatedAt, &w.DecidedAt, &w.FirstApproverID, &w.FirstApprovedAt, &p.CreatedAt)
	p.ID, p.UserID = w.AccountID, w.UserID
	return w, err
}

func (w withdrawalRow) view(full bool) Withdrawal {
	out := Withdrawal{OrderNo: w.OrderNo, Amount: w.Amount, Fee: w.Fee, Net: w.Amount - w.Fee, Status: w.Status,
		Reason: w.Reason, Account: w.Payout.view(full), CreatedAt: time.Unix(w.CreatedAt, 0).UTC()}
	if w.DecidedAt > 0 {
		t := time.Unix(w.DecidedAt, 0).UTC()
		out.DecidedAt = &t
	}
	return out
}

func (w withdrawalRow) admin() AdminWithdrawal {
	a := AdminWithdrawal{Withdrawal: w.view(true), UserID: w.UserID, OperatorID: w.OperatorID, FirstApproverID: w.FirstApproverID,
		AwaitingSecond: w.Status == StatusPending && w.FirstApproverID != 0}
	if w.FirstApprovedAt > 0 {
		t := time.Unix(w.FirstApprovedAt, 0).UTC()
		a.FirstApprovedAt = &t
	}
	return a
}

// Fee is amount's withdrawal fee at percent, rounded up to a whole cent.
func Fee(amount, percent int64) int64 {
	if percent <= 0 {
		return 0
	}
	if percent >= 100 {
		return amount
	}
	return (amount*percent + 99) / 100
}

// WithdrawInput is POST /api/app/withdraw.
type WithdrawInput struct {
	Amount         *int64 `json:"amount"`
	AccountID      *int64 `json:"accountID"`
	PassWord       string `json:"passWord"`
	IdempotencyKey string `json:"idempotencyKey"`
}

// Limits on the calls that add payout accounts and withdraw, per user.
// They fail closed: with the limiter down nobody withdraws.
var (
	WithdrawRate = struct {
		N   int
		Per time.Duration
	}{20, time.Hour}
	PayoutAddRate = WithdrawRate
)

// limit counts one attempt of uid at what; nil Limiter (tests that do not
// care) limits nothing. Its refusals are ratelimit's (limitErrs).
func (s *Service) limit(ctx context.Context, what string, uid int64, n int, per time.Duration) error {
	if s.Limiter == nil {
		return nil
	}
	return ratelimit.Enforce(ctx, s.Limiter, fmt.Sprintf("wallet:%s:%d", what, uid), n, per, ratelimit.FailClosed)
}

// checkPassword is the fresh password check of payout calls.
func (s *Service) checkPassword(ctx context.Context, uid int64, password, ip string) error {
	if s.Passwords == nil {
		return errors.New("wallet: no password checker configured")
	}
	if password == "" {
		// A guest has no password to give: say so rather than "enter it".
		if err := s.Passwords.VerifyPassword(ctx, uid, "", ip); errors.Is(err, ErrGuest) {
			return err
		}
		return invalid("请输入密码", "passWord is required")
	}
	return s.Passwords.VerifyPassword(ctx, uid, password, ip)
}

// AddPayout is the whole of POST /api/app/mine/txnact/bank/add for uid:
// registered only, throttled, the password checked afresh.
func (s *Service) AddPayout(ctx context.Context, uid int64, ip string, in PayoutInput) (PayoutAccount, error) {
	if _, err := validatePayout(in); err != nil {
		return PayoutAccount{}, err
	}
	if err := s.limit(ctx, "payout", uid, PayoutAddRate.N, PayoutAddRate.Per); err != nil {
		return PayoutAccount{}, err
	}
	if err := s.checkPassword(ctx, uid, in.PassWord, ip); err != nil {
		return PayoutAccount{}, err
	}
	return s.AddPayoutAccount(ctx, uid, in)
}

// Withdraw is POST /api/app/withdraw for uid: in's amount from income to a
// pending withdrawal to in's account, once per idempotency key.
func (s *Service) Withdraw(ctx context.Context, uid int64, ip, key string, in WithdrawInput) (Withdrawal, error) {
	st := s.Settings
	if in.Amount == nil {
		return Withdrawal{}, invalid("缺少参数 amount", "amount is required")
	}
	amount := *in.Amount
	if amount <= 0 {
		return Withdrawal{}, invalid("参数 amount 无效", "amount must be a positive number of cents")
	}
	if amount < st.WithdrawMin {
		return Withdrawal{}, invalid(fmt.Sprintf("单笔最低提现 ¥%s", yuan(st.WithdrawMin)), fmt.Sprintf("amount is below withdrawMin %d", st.WithdrawMin))
	}
	if amount > st.WithdrawMax {
		return Withdrawal{}, invalid(fmt.Sprintf("单笔最多提现 ¥%s", yuan(st.WithdrawMax)), fmt.Sprintf("amount is above withdrawMax %d", st.WithdrawMax))
	}
	accountID, err := httpx.BodyID(in.AccountID)
	if err != nil {
		return Withdrawal{}, invalid(strings.Replace(err.(*httpx.Error).Tip, "id", "accountID", 1), "accountID must be a positive id")
	}
	if err := s.limit(ctx, "withdraw", uid, WithdrawRate.N, WithdrawRate.Per); err != nil {
		return Withdrawal{}, err
	}
	if err := s.checkPassword(ctx, uid, in.PassWord, ip); err != nil {
		return Withdrawal{}, err
	}
	now := s.now()
	var (
		out    Withdrawal
		replay bool
	)
	req := map[string]int64{"amount": amount, "accountID": accountID}
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		out, replay, err = Once(ctx, tx, uid, "withdraw", key, req, now, func() (Withdrawal, error) {
			return s.withdraw(ctx, tx, uid, amount, accountID, now)
		})
		if err == nil && !replay {
			s.withdrawChanged(tx, uid, out.OrderNo, out.Status)
		}
		return err
	})
	return out, err
}

func (s *Service) withdraw(ctx context.Context, tx *db.Tx, uid, amount, accountID int64, now time.Time) (Withdrawal, error) {
	st := s.Settings
	// Every withdrawal of the user queues here, so the daily limits read
	// below cannot be passed by two requests at once.
	if err := lockUserRow(ctx, tx, uid); err != nil {
		return Withdrawal{}, err
	}
	acct, err := scanPayout(tx.QueryRow(ctx, `SELECT `+payoutColumns+` FROM payout_accounts
		WHERE id = ? AND user_id = ? AND deleted_at = 0`, accountID, uid))
	if errors.Is(err, sql.ErrNoRows) {
		return Withdrawal{}, ErrNoAccount
	}
	if err != nil {
		return Withdrawal{}, err
	}
	day := days.Of(now)
	var count, sum int64
	if err := tx.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(amount), 0) FROM withdrawals
		WHERE user_id = ? AND day = ? AND status <> 'rejected'`, uid, day).Scan(&count, &sum); err != nil {
		return Withdrawal{}, err
	}
	if count >= int64(st.WithdrawDailyCount) {
		return Withdrawal{}, httpx.Refuse(ErrDailyLimit, fmt.Sprintf("每天最多提现%d次", st.WithdrawDailyCount), "daily withdrawal count reached")
	}
	if sum+amount > st.WithdrawDailyMax {
		return Withdrawal{}, httpx.Refuse(ErrDailyLimit, fmt.Sprintf("今日还可提现 ¥%s", yuan(max(0, st.WithdrawDailyMax-sum))), "daily withdrawal amount exceeded")
	}
	pct, err := s.FeePercent(ctx, tx, uid)
	if err != nil {
		return Withdrawal{}, err
	}
	no, err := newOrderNo("W", now)
	if err != nil {
		return Withdrawal{}, err
	}
	w := withdrawalRow{OrderNo: no, UserID: uid, Amount: amount, Fee: Fee(amount, pct), AccountID: acct.ID,
		Payout: acct, Status: StatusPending, CreatedAt: now.Unix()}
	if _, err := s.Ledger.Post(ctx, tx, Transfer{Kind: "withdraw", Key: "withdraw:" + w.OrderNo, UserID: uid, Ref: w.OrderNo,
		Memo: "提现申请", Legs: []Leg{{UserIncome(uid), -amount}, {System(SysWithdrawHeld), amount}}}, now); err != nil {
		return Withdrawal{}, err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO withdrawals (order_no, user_id, amount, fee, account_id, act_type, bank_name, holder, number, network,
		status, day, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
		w.OrderNo, uid, amount, w.Fee, acct.ID, acct.ActType, acct.BankName, acct.Holder, acct.Number, acct.Network, day, w.CreatedAt); err != nil {
		return Withdrawal{}, err
	}
	return w.view(false), nil
}

// yuan formats cents as yuan: 12345 -> "123.45".
func yuan(c int64) string { return fmt.Sprintf("%d.%02d", c/100, c%100) }

// Withdrawals is one page of uid's withdrawals, newest first; status ""
// is every state.
func (s *Service) Withdrawals(ctx context.Context, uid int64, status string, pageNumber, pageSize int) (WithdrawalPage[Withdrawal], error) {
	rows, total, err := s.listWithdrawals(ctx, uid, status, pageNumber, pageSize)
	if err != nil {
		return WithdrawalPage[Withdrawal]{}, err
	}
	p := WithdrawalPage[Withdrawal]{List: make([]Withdrawal, len(rows)), Total: total, PageNumber: pageNumber, PageSize: pageSize,
		HasMore: pageNumber*pageSize < total}
	for i, r := range rows {
		p.List[i] = r.view(false)
	}
	return p, nil
}

// AdminWithdrawals is one page of every user's withdrawals (uid 0) or one
// user's, newest first, unmasked.
func (s *Service) AdminWithdrawals(ctx context.Context, uid int64, status string, pageNumber, pageSize int) (WithdrawalPage[AdminWithdrawal], error) {
	rows, total, err := s.listWithdrawals(ctx, uid, status, pageNumber, pageSize)
	if err != nil {
		return WithdrawalPage[AdminWithdrawal]{}, err
	}
	p := WithdrawalPage[AdminWithdrawal]{List: make([]AdminWithdrawal, len(rows)), Total: total, PageNumber: pageNumber,
		PageSize: pageSize, HasMore: pageNumber*pageSize < total}
	for i, r := range rows {
		p.List[i] = r.admin()
	}
	return p, nil
}

func (s *Service) listWithdrawals(ctx context.Context, uid int64, status string, pageNumber, pageSize int) ([]withdrawalRow, int, error) {
	var w db.Where
	if uid > 0 {
		w.And("user_id = ?", uid)
	}
	if status != "" {
		w.And("status = ?", status)
	}
	where, args := w.Clause(), w.Args()
	var total int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM withdrawals`+where, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	rows, err := db.All(ctx, s.db, scanWithdrawal, `SELECT `+withdrawalColumns+` FROM withdrawals`+where+
		` ORDER BY id DESC LIMIT ? OFFSET ?`, append(args, pageSize, (pageNumber-1)*pageSize)...)
	return rows, total, err
}

// CheckStatus validates a status filter ("" = all).
func CheckStatus(s string) error {
	switch s {
	case "", StatusPending, StatusPaid, StatusRejected:
		return nil
	}
	return invalid("参数 status 无效", "status must be pending, paid or rejected")
}

// CheckReason validates a rejection reason: 1 to 200 characters, no
// control characters.
func CheckReason(r string) error {
	if strings.TrimSpace(r) == "" {
		return invalid("请填写拒绝原因", "reason is required")
	}
	if !utf8.ValidString(r) || utf8.RuneCountInString(r) > 200 {
		return invalid("拒绝原因最多200个字", "reason is at most 200 characters")
	}
	for _, c := range r {
		if unicode.IsControl(c) || c == 0xfffd {
			return invalid("拒绝原因包含无效字符", "reason holds control characters")
		}
	}
	return nil
}

// Decide pays (approve) or rejects (with reason) the pending withdrawal
// orderNo on behalf of actor. A withdrawal decided before is not touched:
// Decide answers it as it is with changed false. The state change, the
// ledger movement, the audit entry and the user's notice are one
// transaction.
//
// Two-person approval: when the owner's threshold (withdraw_settings) is
// set and the amount is above it, the first approval only records its
// operator (first_approver_id, by a conditional update) and answers the
// withdrawal still pending with AwaitingSecond and changed false; the same
// operator approving again fails with ErrSameApprover; a different
// operator's approval pays it, the paying update naming the first approver
// it read. Rejecting works at any point.
func (s *Service) Decide(ctx context.Context, actor audit.Actor, orderNo string, approve bool, reason string) (AdminWithdrawal, bool, error) {
	orderNo = strings.TrimSpace(orderNo)
	if orderNo == "" {
		return AdminWithdrawal{}, false, invalid("缺少参数 orderNo", "orderNo is required")
	}
	if len(orderNo) > 64 {
		return AdminWithdrawal{}, false, ErrNoWithdrawal
	}
	if approve {
		reason = ""
	} else {
		reason = strings.TrimSpace(reason)
		if err := CheckReason(reason); err != nil {
			return AdminWithdrawal{}, false, err
		}
	}
	now := s.now()
	var (
		w       withdrawalRow
		changed bool
	)
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		changed = false
		read := func() error {
			var err error
			w, err = scanWithdrawal(tx.QueryRow(ctx, `SELECT `+withdrawalColumns+` FROM withdrawals WHERE order_no = ?`, orderNo))
			if errors.Is(err, sql.ErrNoRows) {
				return ErrNoWithdrawal
			}
			return err
		}
		if !approve {
			n, err := execN(ctx, tx, `UPDATE withdrawals SET status = 'rejected', reason = ?, operator_id = ?, decided_at = ?
				WHERE order_no = ? AND status = 'pending'`, reason, actor.UID, now.Unix(), orderNo)
			if err != nil {
				return err
			}
			if err := read(); err != nil || n == 0 {
				return err
			}
			changed = true
			return s.settleDecision(ctx, tx, actor, w, false, reason, now)
		}
		above, err := twoPersonAbove(ctx, tx)
		if err != nil {
			return err
		}
		// At most three rounds: a lost race re-reads the row once it has
		// moved (first approval recorded, or decided) and goes on from there.
		for range 3 {
			if err := read(); err != nil {
				return err
			}
			if w.Status != StatusPending {
				return nil
			}
			if above <= 0 || w.Amount <= above {
				n, err := execN(ctx, tx, `UPDATE withdrawals SET status = 'paid', reason = '', operator_id = ?, decided_at = ?
					WHERE order_no = ? AND status = 'pending'`, actor.UID, now.Unix(), orderNo)
				if err != nil || n == 0 {
					if err == nil {
						continue
					}
					return err
				}
				if err := read(); err != nil {
					return err
				}
				changed = true
				return s.settleDecision(ctx, tx, actor, w, true, "", now)
			}
			switch w.FirstApproverID {
			case 0:
				n, err := execN(ctx, tx, `UPDATE withdrawals SET first_approver_id = ?, first_approved_at = ?
					WHERE order_no = ? AND status = 'pending' AND first_approver_id = 0`, actor.UID, now.Unix(), orderNo)
				if err != nil {
					return err
				}
				if n == 0 {
					continue
				}
				if err := read(); err != nil {
					return err
				}
				return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "withdraw.approve_first", TargetType: "withdrawal",
					TargetID: w.OrderNo, Before: map[string]any{"status": StatusPending, "firstApproverID": 0},
					After: map[string]any{"status": StatusPending, "firstApproverID": actor.UID, "uid": w.UserID, "amount": w.Amount,
						"twoPersonAbove": above}}, now)
			case actor.UID:
				return ErrSameApprover
			default:
				n, err := execN(ctx, tx, `UPDATE withdrawals SET status = 'paid', reason = '', operator_id = ?, decided_at = ?
					WHERE order_no = ? AND status = 'pending' AND first_approver_id = ? AND first_approver_id <> ?`,
					actor.UID, now.Unix(), orderNo, w.FirstApproverID, actor.UID)
				if err != nil {
					return err
				}
				if n == 0 {
					continue
				}
				if err := read(); err != nil {
					return err
				}
				changed = true
				return s.settleDecision(ctx, tx, actor, w, true, "", now)
			}
		}
		return fmt.Errorf("wallet: withdrawal %s kept moving under approval", orderNo)
	})
	if err != nil {
		return AdminWithdrawal{}, false, err
	}
	return w.admin(), changed, nil
}

func execN(ctx context.Context, tx *db.Tx, q string, args ...any) (int64, error) {
	res, err := tx.Exec(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// settleDecision is what follows a decided withdrawal in its transaction:
// the ledger movement, the audit entry, the user's notice and the apps'
// events.
func (s *Service) settleDecision(ctx context.Context, tx *db.Tx, actor audit.Actor, w withdrawalRow, approve bool, reason string, now time.Time) error {
	held := System(SysWithdrawHeld)
	t := Transfer{UserID: w.UserID, Ref: w.OrderNo, OperatorID: actor.UID}
	var title, body string
	status, action := StatusPaid, "withdraw.approve"
	after := map[string]any{"uid": w.UserID, "amount": w.Amount, "fee": w.Fee}
	if approve {
		t.Kind, t.Key, t.Memo = "withdraw_paid", "withdraw_paid:"+w.OrderNo, "提现已打款"
		t.Legs = []Leg{{held, -w.Amount}}
		if net := w.Amount - w.Fee; net > 0 {
			t.Legs = append(t.Legs, Leg{System(SysPayouts), net})
		}
		if w.Fee > 0 {
			t.Legs = append(t.Legs, Leg{System(SysWithdrawFees), w.Fee})
		}
		title = "提现已打款"
		body = fmt.Sprintf("您的提现 ¥%s（手续费 ¥%s）已打款至尾号 %s 的账户，请注意查收。", yuan(w.Amount-w.Fee), yuan(w.Fee), tail(w.Payout.Number))
		after["approverID"] = actor.UID
		if w.FirstApproverID != 0 {
			after["firstApproverID"] = w.FirstApproverID
		}
	} else {
		status, action = StatusRejected, "withdraw.reject"
		t.Kind, t.Key, t.Memo = "withdraw_return", "withdraw_return:"+w.OrderNo, reason
		t.Legs = []Leg{{held, -w.Amount}, {UserIncome(w.UserID), w.Amount}}
		title = "提现未通过"
		body = fmt.Sprintf("您的提现 ¥%s 未通过审核，金额已退回收益余额。原因：%s", yuan(w.Amount), reason)
	}
	after["status"], after["reason"] = status, reason
	if _, err := s.Ledger.Post(ctx, tx, t, now); err != nil {
		return err
	}
	if err := audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: action, TargetType: "withdrawal", TargetID: w.OrderNo,
		Before: map[string]string{"status": StatusPending}, After: after}, now); err != nil {
		return err
	}
	if err := messaging.Notify(ctx, tx, s.Events, messaging.Notice{UserID: w.UserID, Category: messaging.CategorySystem,
		Kind: "withdraw", Title: title, Body: body, Ref: w.OrderNo}, now); err != nil {
		return err
	}
	s.withdrawChanged(tx, w.UserID, w.OrderNo, status)
	return nil
}

// Refusals of withdrawals and payout accounts (withdrawErrs answers them).
var (
	// ErrNoWithdrawal: no withdrawal with that number (404).
	ErrNoWithdrawal = errors.New("no such withdrawal")
	// ErrSameApprover: the operator who gave a withdrawal its first
	// approval approved it again; a different operator must (409).
	ErrSameApprover = errors.New("a second operator must approve this withdrawal")
	// ErrDailyLimit: the day's count or amount of withdrawals is reached
	// (409); a *refusal says which and what is left.
	ErrDailyLimit = errors.New("daily withdrawal limit reached")
)

func tail(n string) string {
	if len(n) < 4 {
		return n
	}
	return n[len(n)-4:]
}

// withdrawChanged tells uid's open apps once tx commits: withdraw.changed
// {orderNo, status}, and wallet.changed since income or frozen income moved.
func (s *Service) withdrawChanged(tx *db.Tx, uid int64, orderNo, status string) {
	tx.AfterCommit(func() {
		realtime.Notify(context.Background(), s.Events, realtime.UserTopic(uid), "withdraw.changed",
			map[string]string{"orderNo": orderNo, "status": status})
	})
	s.notify(tx, uid, "withdraw")
}
