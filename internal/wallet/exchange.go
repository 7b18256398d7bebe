package wallet

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// ErrExchangeAmount: an exchange amount under the minimum, one that buys no
// coin, or one too large to compute (422).
var ErrExchangeAmount = errors.New("exchange amount out of bounds")

// Exchanged is the answer of an exchange (stored under its key).
type Exchanged struct {
	TxnID  int64 `json:"txnID"`
	Amount int64 `json:"amount"` // cents of income asked to exchange
	Taken  int64 `json:"taken"`  // cents taken: what the coins cost (<= Amount)
	Coins  int64 `json:"coins"`  // coins credited
}

// ExchangeCoins is how many coins amount cents of income buy at rate coins
// per 100 cents, rounded down; ok is false when amount is out of bounds.
func ExchangeCoins(amount, rate, min int64) (int64, bool) {
	if amount < min || amount <= 0 || rate <= 0 || amount > math.MaxInt64/rate {
		return 0, false
	}
	coins := amount * rate / 100
	return coins, coins > 0
}

// ExchangeCost is the cents that coins cost at rate: coins*100/rate
// rounded up, never more than the amount that bought them. An exchange
// takes only this, so the remainder of an amount that buys a fraction of
// a coin stays income instead of vanishing.
func ExchangeCost(coins, rate int64) int64 {
	return (coins*100 + rate - 1) / rate
}

// Exchange turns amount cents of uid's income into coins at the configured
// rate, once per key (registered accounts only). One movement "exchange":
// UserIncome -taken, SysIncomeExchange +taken, SysCoinsExchanged -coins,
// UserCoins +coins, where coins is what amount buys rounded down and taken
// what those coins cost (ExchangeCost).
func (s *Service) Exchange(ctx context.Context, uid, amount int64, key string) (Exchanged, bool, error) {
	now := s.now()
	st := s.Settings
	var (
		out    Exchanged
		replay bool
	)
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		c, err := readCaller(ctx, tx, uid)
		if err != nil {
			return err
		}
		if c.Guest {
			return ErrRegisteredOnly
		}
		out, replay, err = Once(ctx, tx, uid, "exchange", key, map[string]int64{"amount": amount}, now, func() (Exchanged, error) {
			coins, ok := ExchangeCoins(amount, st.ExchangeRate, st.ExchangeMin)
			if !ok {
				return Exchanged{}, ErrExchangeAmount
			}
			taken := ExchangeCost(coins, st.ExchangeRate)
			p, err := s.Ledger.Post(ctx, tx, Transfer{Kind: "exchange", Key: fmt.Sprintf("exchange:%d:%s", uid, key), UserID: uid,
				Memo: fmt.Sprintf("%d cents -> %d coins", taken, coins), Legs: []Leg{
					{UserIncome(uid), -taken}, {System(SysIncomeExchange), taken},
					{System(SysCoinsExchanged), -coins}, {UserCoins(uid), coins},
				}}, now)
			if err != nil {
				return Exchanged{}, err
			}
			return Exchanged{TxnID: p.TxnID, Amount: amount, Taken: taken, Coins: coins}, nil
		})
		if err == nil && !replay {
			s.notify(tx, uid, "exchange")
		}
		return err
	})
	return out, replay, err
}

// GoldExchange is POST /api/app/mine/goldExchange (and the spec's POST
// /mine/goldExchange) {amount, idempotencyKey} -> {coins, wallet}.
func (h *Handler) GoldExchange(w http.ResponseWriter, r *http.Request) error {
	var body struct {
		Amount         *int64 `json:"amount"`
		IdempotencyKey string `json:"idempotencyKey"`
	}
	if err := httpx.Decode(w, r, &body); err != nil {
		return err
	}
	if body.Amount == nil {
		return httpx.Invalid("缺少参数 amount", "amount is required")
	}
	if *body.Amount <= 0 {
		return httpx.Invalid("参数 amount 无效", "amount must be a positive number of cents")
	}
	key, err := KeyFrom(r, body.IdempotencyKey)
	if err != nil {
		return err
	}
	ctx := r.Context()
	uid := httpx.UserID(ctx)
	st := h.s.Settings
	if _, ok := ExchangeCoins(*body.Amount, st.ExchangeRate, st.ExchangeMin); !ok {
		return httpx.Invalid(fmt.Sprintf("参数 amount 无效：最少兑换 %d.%02d 元", st.ExchangeMin/100, st.ExchangeMin%100),
			fmt.Sprintf("amount must be at least %d cents and buy at least one coin", st.ExchangeMin))
	}
	if err := h.s.limit(ctx, "exchange", uid, LimitExchange, time.Minute); err != nil {
		return limitErrs.Map(err)
	}
	out, _, err := h.s.Exchange(ctx, uid, *body.Amount, key)
	if err != nil {
		if errors.Is(err, ErrExchangeAmount) {
			return httpx.Invalid("参数 amount 无效", err.Error())
		}
		return vipErrs.Map(err)
	}
	sum, err := h.s.Summary(ctx, uid)
	if err != nil {
		return err
	}
	return httpx.OK(w, map[string]any{"coins": out.Coins, "taken": out.Taken, "wallet": sum})
}
