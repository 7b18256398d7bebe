package wallet

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// MaxAdjust bounds one operator adjustment (coins or cents): a typo of
// extra zeros is refused, not posted.
const MaxAdjust = 100_000_000

// AdminEntry is one entry of a user's coins, income or points as an
// operator sees it.
type AdminEntry struct {
	ID         int64     `json:"id"`
	Account    string    `json:"account"` // coins, income or points
	Type       string    `json:"type"`
	Amount     int64     `json:"amount"`
	Balance    int64     `json:"balance"`
	Ref        string    `json:"ref"`
	Memo       string    `json:"memo"`
	OperatorID int64     `json:"operatorID"`
	CreatedAt  time.Time `json:"createdAt"`
}

// Points is the third account of a user's wallet view: points, whose
// ledger (point_entries) and balance belong to rewards. The wallet asks
// through this interface (the app wires rewards' Welfare in); nil leaves
// points out.
const Points = "points"

// PointsBook is rewards' points ledger as the console's wallet view and
// adjustments use it.
type PointsBook interface {
	// Points is uid's points balance.
	Points(ctx context.Context, uid int64) (int64, error)
	// PointEntries is up to limit of uid's points entries, newest first by
	// (created_at, id), each after the position (at, id) of that order: at
	// 0 is the first page.
	PointEntries(ctx context.Context, uid, at, id int64, limit int) ([]AdminEntry, error)
	// AdjustPoints moves uid's points by delta in tx (kind "adjust", key
	// unique, memo the reason) and returns the balance after; a debit
	// below zero fails with an error PointsShort reports.
	AdjustPoints(ctx context.Context, tx *db.Tx, uid, delta int64, key, memo string, now time.Time) (int64, error)
	// PointsShort reports err is "not enough points".
	PointsShort(err error) bool
}

// AdminWallet is GET /api/admin/wallet: balances and one keyset page of
// entries.
type AdminWallet struct {
	Wallet     Summary      `json:"wallet"`
	Points     int64        `json:"points"`
	Entries    []AdminEntry `json:"entries"`
	HasMore    bool         `json:"hasMore"`
	NextCursor *string      `json:"nextCursor"`
}

// Entry streams of the merged order: at one second, ledger entries come
// before points entries.
const (
	srcPoints = 0
	srcLedger = 1
)

// AdminWallet is uid's balances and a page of their entries, newest first
// by (createdAt, source, id), of one account ("" every account: coins,
// income and points merged). cursor is the page's start (nil the first;
// three keys: createdAt, source, id).
func (s *Service) AdminWallet(ctx context.Context, uid int64, account string, cursor []int64, size int) (AdminWallet, error) {
	if _, err := readCaller(ctx, s.db, uid); err != nil {
		return AdminWallet{}, err
	}
	sum, err := s.Summary(ctx, uid)
	if err != nil {
		return AdminWallet{}, err
	}
	out := AdminWallet{Wallet: sum, Entries: []AdminEntry{}}
	if s.Points != nil {
		if out.Points, err = s.Points.Points(ctx, uid); err != nil {
			return AdminWallet{}, err
		}
	}
	type row struct {
		e   AdminEntry
		src int64
	}
	var rows []row
	if account != Points {
		var w db.Where
		w.And("a.user_id = ?", uid)
		if account != "" {
			w.And("a.kind = ?", account)
		}
		if len(cursor) == 3 {
			if cursor[1] == srcLedger {
				w.And("(e.created_at < ? OR (e.created_at = ? AND e.id < ?))", cursor[0], cursor[0], cursor[2])
			} else {
				w.And("e.created_at < ?", cursor[0])
			}
		}
		ledger, err := db.All(ctx, s.db, func(sc db.Scanner) (row, error) {
			var (
				r  row
				at int64
			)
			e := &r.e
			err := sc.Scan(&e.ID, &e.Account, &e.Type, &e.Amount, &e.Balance, &e.Ref, &e.Memo, &e.OperatorID, &at)
			e.CreatedAt, r.src = time.Unix(at, 0).UTC(), srcLedger
			return r, err
		}, `SELECT e.id, a.kind, t.kind, e.amount, e.balance_after, t.ref, t.memo, t.operator_id, e.created_at
			FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_txns t ON t.id = e.txn_id`+w.Clause()+`
			ORDER BY e.created_at DESC, e.id DESC LIMIT ?`, append(w.Args(), size+1)...)
		if err != nil {
			return AdminWallet{}, err
		}
		rows = ledger
	}
	if s.Points != nil && (account == "" || account == Points) {
		var at, id int64
		if len(cursor) == 3 {
			at, id = cursor[0], cursor[2]
			if cursor[1] == srcLedger {
				// Every points entry of that second is still to come.
				at, id = cursor[0]+1, 0
			}
		}
		points, err := s.Points.PointEntries(ctx, uid, at, id, size+1)
		if err != nil {
			return AdminWallet{}, err
		}
		for _, e := range points {
			rows = append(rows, row{e: e, src: srcPoints})
		}
	}
	slices.SortFunc(rows, func(a, b row) int {
		if c := b.e.CreatedAt.Compare(a.e.CreatedAt); c != 0 {
			return c
		}
		if a.src != b.src {
			return int(b.src - a.src)
		}
		return int(b.e.ID - a.e.ID)
	})
	page := httpx.NewKeyPage(rows, size, func(r row) []int64 { return []int64{r.e.CreatedAt.Unix(), r.src, r.e.ID} })
	for _, r := range page.List {
		out.Entries = append(out.Entries, r.e)
	}
	out.HasMore, out.NextCursor = page.HasMore, page.NextCursor
	return out, nil
}

// Adjustment is an operator's change of one balance.
type Adjustment struct {
	UID     int64  `json:"uid"`
	Account string `json:"account"` // Coins, Income or Points
	Amount  int64  `json:"amount"`  // signed, non-zero
	Reason  string `json:"reason"`
}

// Adjusted is what an adjustment stored under its key.
type Adjusted struct {
	TxnID   int64 `json:"txnID"`
	Balance int64 `json:"balance"`
}

// Adjust posts an operator's adjustment, once per (operator, key): one
// movement "adjust" between the user's account and the adjustment system
// account of its currency, with the operator id and the reason as memo,
// and the audit row in the same transaction. A debit below zero fails with
// an *InsufficientError and changes nothing.
func (s *Service) Adjust(ctx context.Context, actor audit.Actor, a Adjustment, key string) (Adjusted, bool, error) {
	now := s.now()
	acct, sys := UserCoins(a.UID), System(SysCoinsAdjust)
	if a.Account == Income {
		acct, sys = UserIncome(a.UID), System(SysCentsAdjust)
	}
	var (
		out    Adjusted
		replay bool
	)
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := readCaller(ctx, tx, a.UID); err != nil {
			return err
		}
		var err error
		out, replay, err = Once(ctx, tx, actor.UID, "admin.adjust", key, a, now, func() (Adjusted, error) {
			if a.Account == Points {
				return s.adjustPoints(ctx, tx, actor, a, key, now)
			}
			before, err := balance(ctx, tx, acct)
			if err != nil {
				return Adjusted{}, err
			}
			p, err := s.Ledger.Post(ctx, tx, Transfer{Kind: "adjust", Key: fmt.Sprintf("adjust:%d:%s", actor.UID, key), UserID: a.UID,
				Memo: a.Reason, OperatorID: actor.UID, Legs: []Leg{{acct, a.Amount}, {sys, -a.Amount}}}, now)
			if err != nil {
				return Adjusted{}, err
			}
			after := p.Balances[acct]
			if err := audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "wallet.adjust", TargetType: "user",
				TargetID: strconv.FormatInt(a.UID, 10),
				Before:   map[string]any{"account": a.Account, "balance": before},
				After:    map[string]any{"account": a.Account, "balance": after, "amount": a.Amount, "reason": a.Reason, "txnID": p.TxnID},
			}, now); err != nil {
				return Adjusted{}, err
			}
			return Adjusted{TxnID: p.TxnID, Balance: after}, nil
		})
		if err == nil && !replay {
			s.notify(tx, a.UID, "adjust")
		}
		return err
	})
	return out, replay, err
}

// adjustPoints is Adjust of the points account, through rewards' ledger
// (the points entry's ref is the reason), audited like the others.
func (s *Service) adjustPoints(ctx context.Context, tx *db.Tx, actor audit.Actor, a Adjustment, key string, now time.Time) (Adjusted, error) {
	if s.Points == nil {
		return Adjusted{}, invalid("参数 account 无效", "points are not available here")
	}
	after, err := s.Points.AdjustPoints(ctx, tx, a.UID, a.Amount, fmt.Sprintf("adjust:%d:%s", actor.UID, key), a.Reason, now)
	if s.Points.PointsShort(err) {
		return Adjusted{}, httpx.Refuse(ErrInsufficientPoints, "积分余额不足", "points would go below zero")
	}
	if err != nil {
		return Adjusted{}, err
	}
	// The balance before is the one after less the move (the book reads
	// through its own handle, not this transaction).
	if err := audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "wallet.adjust", TargetType: "user",
		TargetID: strconv.FormatInt(a.UID, 10),
		Before:   map[string]any{"account": a.Account, "balance": after - a.Amount},
		After:    map[string]any{"account": a.Account, "balance": after, "amount": a.Amount, "reason": a.Reason},
	}, now); err != nil {
		return Adjusted{}, err
	}
	return Adjusted{Balance: after}, nil
}

// ErrInsufficientPoints: a points adjustment would take the balance below
// zero (409).
var ErrInsufficientPoints = errors.New("not enough points")

// AdminWallet is GET /api/admin/wallet?uid=&account=&cursor=&pageSize=.
func (h *Handler) AdminWallet(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	uid := q.Required("uid", 1, httpx.MaxID)
	account := q.String("account")
	cursor, size := httpx.KeyParams(q, 3, 50)
	if err := q.Err(); err != nil {
		return err
	}
	switch account {
	case "", Coins, Income, Points:
	default:
		return httpx.Invalid("参数 account 无效", `account must be "coins", "income" or "points"`)
	}
	if len(cursor) == 3 && cursor[1] != srcLedger && cursor[1] != srcPoints {
		return httpx.Invalid("参数 cursor 无效，请从第一页重新加载", "cursor is not one this list gave")
	}
	out, err := h.s.AdminWallet(r.Context(), uid, account, cursor, size)
	if err != nil {
		return adminWalletErrs.Map(err)
	}
	return httpx.OK(w, out)
}

// AdminAdjust is POST /api/admin/wallet/adjust {uid, account, amount,
// reason, idempotencyKey} -> {wallet}.
func (h *Handler) AdminAdjust(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		UID            *int64 `json:"uid"`
		Account        string `json:"account"`
		Amount         *int64 `json:"amount"`
		Reason         string `json:"reason"`
		IdempotencyKey string `json:"idempotencyKey"`
	}
	if err := httpx.Decode(w, r, &body); err != nil {
		return err
	}
	if body.UID == nil {
		return httpx.Invalid("缺少参数 uid", "uid is required")
	}
	if *body.UID < 1 || *body.UID > httpx.MaxID {
		return httpx.Invalid("参数 uid 无效", "uid must be a positive integer")
	}
	if body.Account != Coins && body.Account != Income && (body.Account != Points || h.s.Points == nil) {
		return httpx.Invalid("参数 account 无效", `account must be "coins", "income" or "points"`)
	}
	if body.Amount == nil {
		return httpx.Invalid("缺少参数 amount", "amount is required")
	}
	if *body.Amount == 0 || *body.Amount > MaxAdjust || *body.Amount < -MaxAdjust {
		return httpx.Invalid("参数 amount 无效", fmt.Sprintf("amount must be non-zero and within ±%d", MaxAdjust))
	}
	reason := strings.TrimSpace(body.Reason)
	if reason == "" {
		return httpx.Invalid("缺少参数 reason", "reason is required")
	}
	if utf8.RuneCountInString(reason) > 200 {
		return httpx.Invalid("参数 reason 过长", "reason takes at most 200 characters")
	}
	key, err := KeyFrom(r, body.IdempotencyKey)
	if err != nil {
		return err
	}
	a := Adjustment{UID: *body.UID, Account: body.Account, Amount: *body.Amount, Reason: reason}
	actor := audit.ActorFrom(r)
	if err := h.s.limit(r.Context(), "adjust", actor.UID, LimitAdjust, time.Minute); err != nil {
		return limitErrs.Map(err)
	}
	if _, _, err := h.s.Adjust(r.Context(), actor, a, key); err != nil {
		return adminWalletErrs.Map(err)
	}
	sum, err := h.s.Summary(r.Context(), a.UID)
	if err != nil {
		return err
	}
	out := map[string]any{"wallet": sum}
	if h.s.Points != nil {
		if out["points"], err = h.s.Points.Points(r.Context(), a.UID); err != nil {
			return err
		}
	}
	return httpx.OK(w, out)
}
