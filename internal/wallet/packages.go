package wallet

import (
	"context"
	"errors"

	"prima/internal/platform/db"
)

// CoinPackage is a top-up package (GET /api/app/mine/currencys).
type CoinPackage struct {
	ID            int64     `json:"id"`
	Type          int       `json:"type"`
	Name          string    `json:"name"`
	Coins         int64     `json:"coins"`
	Bonus         int64     `json:"bonus"`
	Price         int64     `json:"price"`
	OriginalPrice int64     `json:"originalPrice"`
	Label         string    `json:"label"`
	Sort          int       `json:"sort"`
	Active        bool      `json:"active"`
	PayTypes      []PayType `json:"payTypes"`
}

// PayType is an enabled provider as the client lists it.
type PayType struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// PayTypes are the configured providers the operator has not switched
// off (provider_admin.go), read on q.
func (s *Service) PayTypes(ctx context.Context, q db.Querier) ([]PayType, error) {
	off, err := switchedOff(ctx, q)
	if err != nil {
		return nil, err
	}
	out := []PayType{}
	for _, p := range s.Pay.Providers {
		if !off[p.Name()] {
			out = append(out, PayType{Code: p.Name(), Name: p.Title()})
		}
	}
	return out, nil
}

// Packages are the active coin packages of type typ in display order;
// all, inactive ones too, for an operator.
func (s *Service) Packages(ctx context.Context, typ int, all bool) ([]CoinPackage, error) {
	where := `WHERE type = ? AND active = 1`
	if all {
		where = `WHERE type = ?`
	}
	ps, err := db.All(ctx, s.db, scanPackage, `SELECT `+packageColumns+` FROM coin_packages `+where+` ORDER BY sort, price, id`, typ)
	if err != nil {
		return nil, err
	}
	pts, err := s.PayTypes(ctx, s.db)
	if err != nil {
		return nil, err
	}
	for i := range ps {
		ps[i].PayTypes = pts
	}
	return ps, nil
}

// SavePackage creates (p.ID 0) or updates a coin package in tx and returns
// it as stored.
func (s *Service) SavePackage(ctx context.Context, tx *db.Tx, p CoinPackage) (CoinPackage, CoinPackage, error) {
	now := s.now().Unix()
	active := db.BoolInt(p.Active)
	var before CoinPackage
	if p.ID == 0 {
		err := tx.QueryRow(ctx, `INSERT INTO coin_packages (type, name, coins, bonus, price, original_price, label, sort, active, created_at, updated_at)
			VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, p.Name, p.Coins, p.Bonus, p.Price, p.OriginalPrice, p.Label, p.Sort, active, now, now).Scan(&p.ID)
		if err != nil {
			return before, p, err
		}
	} else {
		var err error
		before, err = scanPackage(tx.QueryRow(ctx, `SELECT `+packageColumns+` FROM coin_packages WHERE id = ?`+tx.ForUpdate(), p.ID))
		if errors.Is(db.NotFound(err), db.ErrNotFound) {
			return before, p, ErrNoPackage
		}
		if err != nil {
			return before, p, err
		}
		if _, err := tx.Exec(ctx, `UPDATE coin_packages SET name = ?, coins = ?, bonus = ?, price = ?, original_price = ?, label = ?, sort = ?, active = ?, updated_at = ?
			WHERE id = ?`, p.Name, p.Coins, p.Bonus, p.Price, p.OriginalPrice, p.Label, p.Sort, active, now, p.ID); err != nil {
			return before, p, err
		}
	}
	p.Type = 1
	pts, err := s.PayTypes(ctx, tx)
	p.PayTypes = pts
	return before, p, err
}
