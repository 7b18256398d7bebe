package rewards

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"prima/internal/account"
	"prima/internal/platform/db"
	"prima/internal/wallet"
)

// PrizeReward is what a prize grants, through the wallet.
type PrizeReward struct {
	Coins    int64 `json:"coins,omitempty"`
	VIPLevel int   `json:"vipLevel,omitempty"`
	VIPDays  int   `json:"vipDays,omitempty"`
	Coupons  int   `json:"coupons,omitempty"`
}

func (r PrizeReward) wallet() wallet.Reward {
	return wallet.Reward{Coins: r.Coins, VIPLevel: r.VIPLevel, VIPDays: r.VIPDays, Coupons: r.Coupons}
}

// Prize is one points prize.
type Prize struct {
	ID           int64       `json:"id"`
	Title        string      `json:"title"`
	Image        string      `json:"image,omitempty"`
	Cost         int64       `json:"cost"`
	Reward       PrizeReward `json:"reward"`
	Stock        *int64      `json:"stock"` // nil: unlimited
	PerUserLimit int64       `json:"perUserLimit"`
	Active       bool        `json:"active"`
	Sort         int64       `json:"sort"`
}

// Prizes is GET /api/app/active/point/prize.
type Prizes struct {
	Points int64   `json:"points"`
	List   []Prize `json:"list"`
}

const prizeCols = `id, title, image, cost, coins, vip_level, vip_days, coupons, stock, per_user_limit, active, sort`

func scanPrize(s db.Scanner) (Prize, error) {
	var p Prize
	var stock sql.NullInt64
	var active int
	err := s.Scan(&p.ID, &p.Title, &p.Image, &p.Cost, &p.Reward.Coins, &p.Reward.VIPLevel, &p.Reward.VIPDays, &p.Reward.Coupons, &stock, &p.PerUserLimit, &active, &p.Sort)
	if stock.Valid {
		p.Stock = &stock.Int64
	}
	p.Active = active == 1
	return p, err
}

// Prizes lists the active prizes and uid's points (uid 0: a visitor).
func (w *Welfare) Prizes(ctx context.Context, uid int64) (Prizes, error) {
	var out Prizes
	list, err := db.All(ctx, w.db, scanPrize, `SELECT `+prizeCols+` FROM point_prizes WHERE active = 1 ORDER BY sort, id`)
	if err != nil {
		return out, err
	}
	out.List = list
	if uid > 0 {
		out.Points, err = w.Points(ctx, uid)
	}
	return out, err
}

// ExchangeResult is what an exchange did.
type ExchangeResult struct {
	ExchangeID int64       `json:"exchangeId"`
	PrizeID    int64       `json:"prizeId"`
	Cost       int64       `json:"cost"`
	Reward     PrizeReward `json:"reward"`
	Points     int64       `json:"points"`
	Replayed   bool        `json:"replayed,omitempty"`
}

// Exchange spends uid's points on prize id and grants it, in one
// transaction. The points debit comes first: it is conditional (never
// below zero) and locks the user's row, so a parallel exchange by the same
// user waits and then sees this one's row when it counts the per-user
// limit. Stock is a conditional decrement. key makes a retry return the
// first exchange.
func (w *Welfare) Exchange(ctx context.Context, uid, id int64, key string) (ExchangeResult, error) {
	now := w.Now()
	res := ExchangeResult{PrizeID: id}
	err := w.tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var prev int64
		err := tx.QueryRow(ctx, `SELECT id, prize_id, cost FROM prize_exchanges WHERE user_id = ? AND request_key = ?`, uid, key).Scan(&res.ExchangeID, &prev, &res.Cost)
		if err == nil {
			if prev != id {
				return wallet.ErrKeyReused
			}
			res.Replayed = true
			p, err := scanPrize(tx.QueryRow(ctx, `SELECT `+prizeCols+` FROM point_prizes WHERE id = ?`, id))
			if err != nil {
				return err
			}
			res.Reward = p.Reward
			res.Points, err = account.Points(ctx, tx, uid)
			return err
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		p, err := scanPrize(tx.QueryRow(ctx, `SELECT `+prizeCols+` FROM point_prizes WHERE id = ? AND active = 1`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNoPrize
		}
		if err != nil {
			return err
		}
		res.Cost, res.Reward = p.Cost, p.Reward
		// Sold out or over the limit already: say so rather than "short
		// of points". These reads only pick the answer; the checks that
		// hold under concurrency come after the debit below.
		if p.Stock != nil && *p.Stock <= 0 {
			return ErrOutOfStock
		}
		if err := w.underLimit(ctx, tx, uid, p); err != nil {
			return err
		}
		pointsKey := "prize:" + strconv.FormatInt(uid, 10) + ":" + key
		if res.Points, err = w.AddPoints(ctx, tx, uid, -p.Cost, "prize", pointsKey, strconv.FormatInt(id, 10), now); err != nil {
			return err
		}
		if err := w.underLimit(ctx, tx, uid, p); err != nil {
			return err
		}
		r, err := tx.Exec(ctx, `UPDATE point_prizes SET stock = stock - 1 WHERE id = ? AND stock IS NOT NULL AND stock > 0`, id)
		if err != nil {
			return err
		}
		if n, _ := r.RowsAffected(); n == 0 && p.Stock != nil {
			return ErrOutOfStock
		}
		err = tx.QueryRow(ctx, `INSERT INTO prize_exchanges (user_id, prize_id, cost, request_key, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
			uid, id, p.Cost, key, now.Unix()).Scan(&res.ExchangeID)
		if db.IsUnique(err) {
			return ErrExchangeBusy // the same key in flight twice: the other one wins
		}
		if err != nil {
			return err
		}
		return w.Wallet.GrantReward(ctx, tx, uid, "prize", "prize:"+strconv.FormatInt(res.ExchangeID, 10), "积分兑换："+p.Title, p.Reward.wallet(), now)
	})
	return res, err
}

// underLimit fails with ErrPrizeLimit when uid has exchanged p as often as
// its per-user limit allows.
func (w *Welfare) underLimit(ctx context.Context, tx *db.Tx, uid int64, p Prize) error {
	if p.PerUserLimit <= 0 {
		return nil
	}
	var n int64
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM prize_exchanges WHERE prize_id = ? AND user_id = ?`, p.ID, uid).Scan(&n); err != nil {
		return err
	}
	if n >= p.PerUserLimit {
		return ErrPrizeLimit
	}
	return nil
}

// AdminPrizes lists every prize, inactive ones too.
func (w *Welfare) AdminPrizes(ctx context.Context) ([]Prize, error) {
	return db.All(ctx, w.db, scanPrize, `SELECT `+prizeCols+` FROM point_prizes ORDER BY sort, id`)
}

func checkPrize(p *Prize) error {
	p.Title = strings.TrimSpace(p.Title)
	switch {
	case p.Title == "" || utf8.RuneCountInString(p.Title) > 40:
		return fmt.Errorf("%w: title must be 1-40 characters", ErrBadConfig)
	case p.Cost < 1 || p.Cost > maxPoints:
		return fmt.Errorf("%w: cost must be 1-%d points", ErrBadConfig, maxPoints)
	case p.Stock != nil && (*p.Stock < 0 || *p.Stock > 1_000_000_000):
		return fmt.Errorf("%w: stock must be 0-1000000000 or null", ErrBadConfig)
	case p.PerUserLimit < 0 || p.PerUserLimit > 1000:
		return fmt.Errorf("%w: perUserLimit must be 0-1000 (0 unlimited)", ErrBadConfig)
	case len(p.Image) > 500 || (p.Image != "" && !strings.HasPrefix(p.Image, "/media/") && !strings.HasPrefix(p.Image, "https://")):
		return fmt.Errorf("%w: image must be a /media/ path or an https URL", ErrBadConfig)
	}
	if err := wallet.CheckReward(p.Reward.wallet()); err != nil {
		return fmt.Errorf("%w: %v", ErrBadConfig, err)
	}
	return nil
}

// StockSeen is the stock an operator's editor showed (Unlimited: none
// kept). Saving with it changes the prize only while the stock is still
// that: exchanges take stock while the editor is open, and a save that
// wrote back the number it had read would hand those units out again.
type StockSeen struct {
	Unlimited bool
	Stock     int64
}

// ErrStockMoved: the stock changed since the editor read it.
var ErrStockMoved = errors.New("rewards: prize stock changed since it was read")

// SavePrize creates (ID 0) or updates a prize inside tx; returns its id.
func (w *Welfare) SavePrize(ctx context.Context, tx *db.Tx, p Prize, now time.Time) (int64, error) {
	return w.SavePrizeSeen(ctx, tx, p, nil, now)
}

// SavePrizeSeen is SavePrize that updates only while the stock is still
// seen (nil: whatever it is); ErrStockMoved when it is not.
func (w *Welfare) SavePrizeSeen(ctx context.Context, tx *db.Tx, p Prize, seen *StockSeen, now time.Time) (int64, error) {
	if err := checkPrize(&p); err != nil {
		return 0, err
	}
	active := db.BoolInt(p.Active)
	if p.ID == 0 {
		var id int64
		err := tx.QueryRow(ctx, `INSERT INTO point_prizes (title, image, cost, coins, vip_level, vip_days, coupons, stock, per_user_limit, active, sort, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			p.Title, p.Image, p.Cost, p.Reward.Coins, p.Reward.VIPLevel, p.Reward.VIPDays, p.Reward.Coupons, p.Stock, p.PerUserLimit, active, p.Sort, now.Unix(), now.Unix()).Scan(&id)
		return id, err
	}
	where, args := "", []any{}
	switch {
	case seen != nil && seen.Unlimited:
		where = " AND stock IS NULL"
	case seen != nil:
		where, args = " AND stock = ?", append(args, seen.Stock)
	}
	r, err := tx.Exec(ctx, `UPDATE point_prizes SET title = ?, image = ?, cost = ?, coins = ?, vip_level = ?, vip_days = ?, coupons = ?, stock = ?, per_user_limit = ?, active = ?, sort = ?, updated_at = ?
		WHERE id = ?`+where, append([]any{p.Title, p.Image, p.Cost, p.Reward.Coins, p.Reward.VIPLevel, p.Reward.VIPDays, p.Reward.Coupons, p.Stock, p.PerUserLimit, active, p.Sort, now.Unix(), p.ID}, args...)...)
	if err != nil {
		return 0, err
	}
	if n, _ := r.RowsAffected(); n == 0 {
		if seen != nil {
			var one int
			if err := tx.QueryRow(ctx, `SELECT 1 FROM point_prizes WHERE id = ?`, p.ID).Scan(&one); err == nil {
				return 0, ErrStockMoved
			}
		}
		return 0, ErrNoPrize
	}
	return p.ID, nil
}
