package wallet

import (
	"context"
	"time"

	"prima/internal/platform/db"
)

// Earnings hears, inside the money transaction, of what earns someone
// money: an order paid with money and its refund (promoter commission up
// the payer's inviter chain), and a coin sale of an item a user owns
// (creator earnings). earnings.Service implements it, wired in
// internal/app; nil pays nobody. Its error fails the transaction, so a
// payment and the earnings it makes commit together or not at all.
type Earnings interface {
	OrderPaid(ctx context.Context, tx *db.Tx, o PaidOrder) error
	OrderRefunded(ctx context.Context, tx *db.Tx, o PaidOrder) error
	Sold(ctx context.Context, tx *db.Tx, s Sale) error
}

// PaidOrder is an order paid with money, as earnings hears of it.
type PaidOrder struct {
	OrderNo string
	UserID  int64 // who paid
	Amount  int64 // cents
	At      time.Time
}

// Sale is a coin purchase of an item, as earnings hears of it.
type Sale struct {
	Kind   string // "video", "gallery" or "post"
	ItemID int64
	Title  string
	Buyer  int64
	Owner  int64 // the user who made the item (never 0 or the buyer)
	Coins  int64 // what the buyer paid
	// ExchangeRate is how many coins ¥1 buys (Settings.ExchangeRate): the
	// coins' price, at which a share of them becomes income cents.
	ExchangeRate int64
	At           time.Time
}

// earnPaid tells Earnings that order o was paid (fulfil's hook).
func (s *Service) earnPaid(ctx context.Context, tx *db.Tx, o Order, now time.Time) error {
	if s.Earnings == nil {
		return nil
	}
	return s.Earnings.OrderPaid(ctx, tx, PaidOrder{OrderNo: o.OrderNo, UserID: o.UserID, Amount: o.Amount, At: now})
}

// earnRefunded tells Earnings that paid order o was refunded (Refund's hook).
func (s *Service) earnRefunded(ctx context.Context, tx *db.Tx, o Order, now time.Time) error {
	if s.Earnings == nil {
		return nil
	}
	return s.Earnings.OrderRefunded(ctx, tx, PaidOrder{OrderNo: o.OrderNo, UserID: o.UserID, Amount: o.Amount, At: now})
}

// earnSold tells Earnings of a coin sale of an item a user owns (sell's
// hook): not of the platform's own goods, nor of an owner buying their own.
func (s *Service) earnSold(ctx context.Context, tx *db.Tx, sale Sale) error {
	if s.Earnings == nil || sale.Owner <= 0 || sale.Owner == sale.Buyer {
		return nil
	}
	sale.ExchangeRate = s.Settings.ExchangeRate
	return s.Earnings.Sold(ctx, tx, sale)
}
