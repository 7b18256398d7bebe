package earnings

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/wallet"
)

// Creator earnings: a creator whose /mine/settled application was approved
// earns creatorShareBps of the coins a buyer pays for their post, video or
// gallery, turned into income cents at the coins' price. The purchase's
// transaction writes the row (one per purchase: UNIQUE (kind, item,
// buyer)) and its movement into the pending account ("creator_pending",
// system accounts only); settlement moves it into the creator's income
// ("creator", on the income bill). Coin purchases are not refunded, so no
// path reverses a creator earning today; the state exists for the day one
// does.

// Sold makes the creator earning of a coin sale (wallet.Earnings), in the
// purchase's transaction tx: nothing when the owner is not an approved
// creator, the share is 0 or the amount rounds to zero cents.
func (s *Service) Sold(ctx context.Context, tx *db.Tx, sale wallet.Sale) error {
	if sale.Owner <= 0 || sale.Owner == sale.Buyer || sale.Coins <= 0 {
		return nil
	}
	if sale.ExchangeRate <= 0 {
		return fmt.Errorf("earnings: sale of %s %d with exchange rate %d", sale.Kind, sale.ItemID, sale.ExchangeRate)
	}
	creator, err := s.creators(ctx, tx, sale.Owner)
	if err != nil || !creator {
		return err
	}
	cfg, err := loadConfig(ctx, tx, false)
	if err != nil {
		return err
	}
	amount := CreatorCents(sale.Coins, cfg.CreatorShareBps, sale.ExchangeRate)
	if amount <= 0 {
		return nil
	}
	at := sale.At.Unix()
	var id int64
	err = tx.QueryRow(ctx, `INSERT INTO creator_earnings (user_id, buyer_id, kind, item_id, title, coins, share_bps, amount, settle_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (kind, item_id, buyer_id) DO NOTHING RETURNING id`,
		sale.Owner, sale.Buyer, sale.Kind, sale.ItemID, sale.Title, sale.Coins, cfg.CreatorShareBps, amount,
		sale.At.AddDate(0, 0, cfg.SettleDays).Unix(), at).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	ref := sale.Kind + ":" + strconv.FormatInt(sale.ItemID, 10)
	if _, err := s.ledger.Post(ctx, tx, wallet.Transfer{Kind: "creator_pending", Key: rowKey("creator:", "new", id), UserID: sale.Owner,
		Ref: ref, Memo: "创作收益（待结算）：" + sale.Title, Legs: []wallet.Leg{
			{Account: wallet.System(wallet.SysIncomePaid), Amount: -amount},
			{Account: wallet.System(SysCreatorPending), Amount: amount},
		}}, sale.At); err != nil {
		return err
	}
	if cfg.SettleDays == 0 {
		_, err = s.settleCreator(ctx, tx, id, sale.At)
	}
	return err
}

// CreatorCents is what a sale of coins earns its creator at share (bps)
// when rate coins buy ¥1: floor(coins * share * 100 / (10000 * rate)).
func CreatorCents(coins, share, rate int64) int64 {
	if rate <= 0 {
		return 0
	}
	return coins * share * 100 / (10000 * rate)
}

// settleCreator moves pending creator earning id into its creator's
// income in tx, once (a conditional update); it reports whether it did.
func (s *Service) settleCreator(ctx context.Context, tx *db.Tx, id int64, now time.Time) (bool, error) {
	var (
		uid, amount, item int64
		kind, title       string
	)
	err := tx.QueryRow(ctx, `UPDATE creator_earnings SET state = 'settled', settled_at = ? WHERE id = ? AND state = 'pending'
		RETURNING user_id, amount, kind, item_id, title`, now.Unix(), id).Scan(&uid, &amount, &kind, &item, &title)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	_, err = s.ledger.Post(ctx, tx, wallet.Transfer{Kind: "creator", Key: rowKey("creator:", "settle", id), UserID: uid,
		Ref: kind + ":" + strconv.FormatInt(item, 10), Memo: "创作收益：" + title, Legs: []wallet.Leg{
			{Account: wallet.System(SysCreatorPending), Amount: -amount},
			{Account: wallet.UserIncome(uid), Amount: amount},
		}}, now)
	if err != nil {
		return false, err
	}
	s.notify(tx, uid, "creator")
	return true, nil
}

// CreatorEarning is one row of GET /api/app/mine/creator/earnings.
type CreatorEarning struct {
	ID          int64     `json:"id"`
	Kind        string    `json:"kind"`
	ItemID      int64     `json:"itemID"`
	Title       string    `json:"title"`
	Coins       int64     `json:"coins"`
	ShareBps    int64     `json:"shareBps"`
	AmountCents int64     `json:"amountCents"`
	State       string    `json:"state"`
	SettleAt    time.Time `json:"settleAt"`
	CreatedAt   time.Time `json:"createdAt"`
}

// CreatorSummary is the totals beside the list.
type CreatorSummary struct {
	// Approved: the caller's creator application is approved.
	Approved     bool  `json:"approved"`
	ShareBps     int64 `json:"shareBps"`
	PendingCents int64 `json:"pendingCents"`
	SettledCents int64 `json:"settledCents"`
	Items        int   `json:"items"`
}

// CreatorPage is a page of earnings with the caller's summary.
type CreatorPage struct {
	httpx.Page[CreatorEarning]
	Summary CreatorSummary `json:"summary"`
}

// CreatorEarnings is one page of uid's creator earnings, newest first, with
// their totals. Guests: ErrGuest.
func (s *Service) CreatorEarnings(ctx context.Context, uid int64, num, size int) (CreatorPage, error) {
	if err := s.registered(ctx, s.db, uid); err != nil {
		return CreatorPage{}, err
	}
	var out CreatorPage
	var err error
	if out.Summary.Approved, err = s.creators(ctx, s.db, uid); err != nil {
		return CreatorPage{}, err
	}
	cfg, err := loadConfig(ctx, s.db, false)
	if err != nil {
		return CreatorPage{}, err
	}
	out.Summary.ShareBps = cfg.CreatorShareBps
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN state = 'pending' THEN amount ELSE 0 END), 0),
		COALESCE(SUM(CASE WHEN state = 'settled' THEN amount ELSE 0 END), 0) FROM creator_earnings WHERE user_id = ?`, uid).
		Scan(&out.Summary.Items, &out.Summary.PendingCents, &out.Summary.SettledCents); err != nil {
		return CreatorPage{}, err
	}
	list, err := db.All(ctx, s.db, func(r db.Scanner) (CreatorEarning, error) {
		var (
			e                 CreatorEarning
			settle, createdAt int64
		)
		err := r.Scan(&e.ID, &e.Kind, &e.ItemID, &e.Title, &e.Coins, &e.ShareBps, &e.AmountCents, &e.State, &settle, &createdAt)
		e.SettleAt, e.CreatedAt = time.Unix(settle, 0).UTC(), time.Unix(createdAt, 0).UTC()
		return e, err
	}, `SELECT id, kind, item_id, title, coins, share_bps, amount, state, settle_at, created_at FROM creator_earnings WHERE user_id = ?
		ORDER BY id DESC LIMIT ? OFFSET ?`, uid, size, (num-1)*size)
	if err != nil {
		return CreatorPage{}, err
	}
	out.Page = httpx.NewPage(list, out.Summary.Items, num, size)
	return out, nil
}
