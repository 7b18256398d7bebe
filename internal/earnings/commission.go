package earnings

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/wallet"
)

// Commission: when an invited user pays an order with money, the inviter
// chain above them earns a share of it, level 1 (the inviter) up to the
// configured number of levels. The order's transaction writes one row per
// (order, level) (the table's UNIQUE: racing notifies pay once) and its
// ledger movement into the pending account; settlement moves it into the
// earner's income, a refund reverses it.

// The ledger movements of commission are of kinds "commission_pending",
// "commission_reversed" and "commission_debt", between system accounts
// only, so no bill shows them; "commission" credits the earner's income and
// is on the income bill.

// OrderPaid makes the commission of a paid order (wallet.Earnings), in the
// payment's transaction tx. Levels climb the payer's inviter chain; a
// level's earner is skipped when they are the payer or were met below (a
// cycle, which binding refuses but a corrupted table could hold) or when
// they share a device with the payer (one phone's second account is not a
// customer). Rates are the earner's tier's; an amount that rounds to zero
// makes no row. With settleDays 0 each row settles at once.
func (s *Service) OrderPaid(ctx context.Context, tx *db.Tx, o wallet.PaidOrder) error {
	inviter, err := s.invites.InviterOf(ctx, tx, o.UserID)
	if err != nil || inviter == 0 {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO invitee_orders (order_no, user_id, inviter_id, amount, paid_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (order_no) DO NOTHING`, o.OrderNo, o.UserID, inviter, o.Amount, o.At.Unix()); err != nil {
		return err
	}
	cfg, err := loadConfig(ctx, tx, false)
	if err != nil {
		return err
	}
	seen := map[int64]bool{o.UserID: true}
	earner := inviter
	for level := 1; level <= len(cfg.Levels) && earner != 0 && !seen[earner]; level++ {
		seen[earner] = true
		if err := s.commission(ctx, tx, cfg, o, level, earner); err != nil {
			return err
		}
		if earner, err = s.invites.InviterOf(ctx, tx, earner); err != nil {
			return err
		}
	}
	return nil
}

// commission makes level's row of order o for earner, and its movement.
func (s *Service) commission(ctx context.Context, tx *db.Tx, cfg Config, o wallet.PaidOrder, level int, earner int64) error {
	shared, err := s.people.SharesDevice(ctx, tx, earner, o.UserID)
	if err != nil || shared {
		return err
	}
	promoter, err := isPromoter(ctx, tx, earner)
	if err != nil {
		return err
	}
	bps := cfg.rates(promoter)[level-1]
	amount := o.Amount * bps / 10000
	if amount <= 0 {
		return nil
	}
	at := o.At.Unix()
	settleAt := o.At.AddDate(0, 0, cfg.SettleDays).Unix()
	var id int64
	err = tx.QueryRow(ctx, `INSERT INTO commissions (order_no, level, user_id, payer_id, order_cents, rate_bps, amount, settle_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (order_no, level) DO NOTHING RETURNING id`,
		o.OrderNo, level, earner, o.UserID, o.Amount, bps, amount, settleAt, at).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil // made by the first notify that reached here
	}
	if err != nil {
		return err
	}
	if _, err := s.ledger.Post(ctx, tx, wallet.Transfer{Kind: "commission_pending", Key: rowKey("commission:", "new", id), UserID: earner,
		Ref: o.OrderNo, Memo: fmt.Sprintf("%d级推广佣金（待结算）", level), Legs: []wallet.Leg{
			{Account: wallet.System(wallet.SysIncomePaid), Amount: -amount},
			{Account: wallet.System(SysCommissionPending), Amount: amount},
		}}, o.At); err != nil {
		return err
	}
	if cfg.SettleDays == 0 {
		_, err = s.settleCommission(ctx, tx, id, o.At)
	}
	return err
}

// settleCommission moves pending commission id into its earner's income
// in tx, paying their debt first: the conditional update makes a row
// settle once, and never once reversed. It reports whether it settled.
func (s *Service) settleCommission(ctx context.Context, tx *db.Tx, id int64, now time.Time) (bool, error) {
	var (
		uid, amount int64
		orderNo     string
		level       int
	)
	err := tx.QueryRow(ctx, `UPDATE commissions SET state = 'settled', settled_at = ? WHERE id = ? AND state = 'pending'
		RETURNING user_id, amount, order_no, level`, now.Unix(), id).Scan(&uid, &amount, &orderNo, &level)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	paid, err := payDebt(ctx, tx, uid, amount, now)
	if err != nil {
		return false, err
	}
	legs := []wallet.Leg{{Account: wallet.System(SysCommissionPending), Amount: -amount}}
	if paid > 0 {
		legs = append(legs, wallet.Leg{Account: wallet.System(SysEarningDebt), Amount: paid})
	}
	if amount > paid {
		legs = append(legs, wallet.Leg{Account: wallet.UserIncome(uid), Amount: amount - paid})
		s.notify(tx, uid, "commission")
	}
	memo := fmt.Sprintf("%d级推广佣金", level)
	if paid > 0 {
		memo += fmt.Sprintf("（抵扣欠款 ¥%d.%02d）", paid/100, paid%100)
	}
	_, err = s.ledger.Post(ctx, tx, wallet.Transfer{Kind: "commission", Key: rowKey("commission:", "settle", id), UserID: uid,
		Ref: orderNo, Memo: memo, Legs: legs}, now)
	return err == nil, err
}

// payDebt takes up to amount off uid's debt in tx and returns what it took.
func payDebt(ctx context.Context, tx *db.Tx, uid, amount int64, now time.Time) (int64, error) {
	var debt int64
	err := tx.QueryRow(ctx, `SELECT cents FROM earning_debts WHERE user_id = ?`+tx.ForUpdate(), uid).Scan(&debt)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && debt == 0) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	pay := min(debt, amount)
	res, err := tx.Exec(ctx, `UPDATE earning_debts SET cents = cents - ?, updated_at = ? WHERE user_id = ? AND cents >= ?`, pay, now.Unix(), uid, pay)
	if err != nil {
		return 0, err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return 0, fmt.Errorf("earning debt of %d changed under its lock: %v", uid, err)
	}
	return pay, nil
}

// OrderRefunded reverses the commission of a refunded order
// (wallet.Earnings), in the refund's transaction tx: a pending row goes
// back to where it came from; a settled one stays in the earner's income
// (it may be withdrawn already) and becomes a debt that their later
// commission pays off first. One statement decides each row's fate, so a
// settlement racing the refund is either before it (a debt) or after it
// (it finds the row reversed and moves nothing): reversed exactly once.
func (s *Service) OrderRefunded(ctx context.Context, tx *db.Tx, o wallet.PaidOrder) error {
	if _, err := tx.Exec(ctx, `UPDATE invitee_orders SET refunded_at = ? WHERE order_no = ? AND refunded_at = 0`, o.At.Unix(), o.OrderNo); err != nil {
		return err
	}
	type reversal struct{ id, uid, amount, debt int64 }
	rows, err := db.All(ctx, tx, func(r db.Scanner) (reversal, error) {
		var v reversal
		return v, r.Scan(&v.id, &v.uid, &v.amount, &v.debt)
	}, `UPDATE commissions SET state = 'reversed', reversed_at = ?, debt = CASE WHEN state = 'settled' THEN amount ELSE 0 END
		WHERE order_no = ? AND state <> 'reversed' RETURNING id, user_id, amount, debt`, o.At.Unix(), o.OrderNo)
	if err != nil {
		return err
	}
	for _, r := range rows {
		t := wallet.Transfer{Kind: "commission_reversed", Key: rowKey("commission:", "reverse", r.id), UserID: r.uid, Ref: o.OrderNo,
			Memo: "订单退款，待结算佣金撤销", Legs: []wallet.Leg{
				{Account: wallet.System(SysCommissionPending), Amount: -r.amount},
				{Account: wallet.System(wallet.SysIncomePaid), Amount: r.amount},
			}}
		if r.debt > 0 {
			t = wallet.Transfer{Kind: "commission_debt", Key: rowKey("commission:", "debt", r.id), UserID: r.uid, Ref: o.OrderNo,
				Memo: "订单退款，已结算佣金计入欠款", Legs: []wallet.Leg{
					{Account: wallet.System(SysEarningDebt), Amount: -r.debt},
					{Account: wallet.System(wallet.SysIncomePaid), Amount: r.debt},
				}}
			if _, err := tx.Exec(ctx, `INSERT INTO earning_debts (user_id, cents, updated_at) VALUES (?, ?, ?)
				ON CONFLICT (user_id) DO UPDATE SET cents = earning_debts.cents + excluded.cents, updated_at = excluded.updated_at`,
				r.uid, r.debt, o.At.Unix()); err != nil {
				return err
			}
		}
		if _, err := s.ledger.Post(ctx, tx, t, o.At); err != nil {
			return err
		}
	}
	return nil
}

// Commission is one row of GET /api/app/mine/commissions, as its earner
// sees it: the order number and the payer's name masked.
type Commission struct {
	ID          int64     `json:"id"`
	OrderNo     string    `json:"orderNo"`
	Invitee     string    `json:"invitee"`
	Level       int       `json:"level"`
	OrderCents  int64     `json:"orderCents"`
	RateBps     int64     `json:"rateBps"`
	AmountCents int64     `json:"amountCents"`
	State       string    `json:"state"`
	SettleAt    time.Time `json:"settleAt"`
	CreatedAt   time.Time `json:"createdAt"`

	payer int64
}

// CheckState validates a state filter ("" = all).
func CheckState(st string) error {
	switch st {
	case "", StatePending, StateSettled, StateReversed:
		return nil
	}
	return invalid("参数 state 无效", "state must be pending, settled or reversed")
}

// Commissions is one page of uid's commission, newest first, of one state
// ("" any). Guests: ErrGuest.
func (s *Service) Commissions(ctx context.Context, uid int64, state string, num, size int) (httpx.Page[Commission], error) {
	if err := CheckState(state); err != nil {
		return httpx.Page[Commission]{}, err
	}
	if err := s.registered(ctx, s.db, uid); err != nil {
		return httpx.Page[Commission]{}, err
	}
	var w db.Where
	w.And(`user_id = ?`, uid)
	if state != "" {
		w.And(`state = ?`, state)
	}
	var total int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM commissions`+w.Clause(), w.Args()...).Scan(&total); err != nil {
		return httpx.Page[Commission]{}, err
	}
	list, err := db.All(ctx, s.db, func(r db.Scanner) (Commission, error) {
		var (
			c                 Commission
			settle, createdAt int64
		)
		err := r.Scan(&c.ID, &c.OrderNo, &c.payer, &c.Level, &c.OrderCents, &c.RateBps, &c.AmountCents, &c.State, &settle, &createdAt)
		c.OrderNo = MaskOrderNo(c.OrderNo)
		c.SettleAt, c.CreatedAt = time.Unix(settle, 0).UTC(), time.Unix(createdAt, 0).UTC()
		return c, err
	}, `SELECT id, order_no, payer_id, level, order_cents, rate_bps, amount, state, settle_at, created_at FROM commissions`+w.Clause()+
		` ORDER BY id DESC LIMIT ? OFFSET ?`, append(w.Args(), size, (num-1)*size)...)
	if err != nil {
		return httpx.Page[Commission]{}, err
	}
	payers := make([]int64, len(list))
	for i, c := range list {
		payers[i] = c.payer
	}
	people, err := s.people.People(ctx, payers)
	if err != nil {
		return httpx.Page[Commission]{}, err
	}
	for i := range list {
		list[i].Invitee = MaskName(people[list[i].payer].Name)
	}
	return httpx.NewPage(list, total, num, size), nil
}
