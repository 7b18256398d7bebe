package wallet

import (
	"context"
	"fmt"
	"net/http"
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

// AdminEntry is one ledger entry of a user as an operator sees it.
type AdminEntry struct {
	ID         int64     `json:"id"`
	Account    string    `json:"account"` // coins or income
	Type       string    `json:"type"`
	Amount     int64     `json:"amount"`
	Balance    int64     `json:"balance"`
	Ref        string    `json:"ref"`
	Memo       string    `json:"memo"`
	OperatorID int64     `json:"operatorID"`
	CreatedAt  time.Time `json:"createdAt"`
}

// AdminWallet is GET /api/admin/wallet.
type AdminWallet struct {
	Wallet  Summary      `json:"wallet"`
	Entries []AdminEntry `json:"entries"`
}

// AdminWallet is uid's balances and their last 50 entries (both accounts).
func (s *Service) AdminWallet(ctx context.Context, uid int64) (AdminWallet, error) {
	if _, err := readCaller(ctx, s.db, uid); err != nil {
		return AdminWallet{}, err
	}
	sum, err := s.Summary(ctx, uid)
	if err != nil {
		return AdminWallet{}, err
	}
	entries, err := db.All(ctx, s.db, func(sc db.Scanner) (AdminEntry, error) {
		var (
			e  AdminEntry
			at int64
		)
		err := sc.Scan(&e.ID, &e.Account, &e.Type, &e.Amount, &e.Balance, &e.Ref, &e.Memo, &e.OperatorID, &at)
		e.CreatedAt = time.Unix(at, 0).UTC()
		return e, err
	}, `SELECT e.id, a.kind, t.kind, e.amount, e.balance_after, t.ref, t.memo, t.operator_id, e.created_at
		FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_txns t ON t.id = e.txn_id
		WHERE a.user_id = ? ORDER BY e.id DESC LIMIT 50`, uid)
	if err != nil {
		return AdminWallet{}, err
	}
	return AdminWallet{Wallet: sum, Entries: entries}, nil
}

// Adjustment is an operator's change of one balance.
type Adjustment struct {
	UID     int64  `json:"uid"`
	Account string `json:"account"` // Coins or Income
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

// AdminWallet is GET /api/admin/wallet?uid=.
func (h *Handler) AdminWallet(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	uid := q.Required("uid", 1, httpx.MaxID)
	if err := q.Err(); err != nil {
		return err
	}
	out, err := h.s.AdminWallet(r.Context(), uid)
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
	if body.Account != Coins && body.Account != Income {
		return httpx.Invalid("参数 account 无效", `account must be "coins" or "income"`)
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
	return httpx.OK(w, map[string]any{"wallet": sum})
}
