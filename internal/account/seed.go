package account

import (
	"context"
	"errors"
	"fmt"

	"prima/internal/platform/db"
)

// DemoUser is an account that SeedDemoUsers creates, listed so the operator
// guide and browser tests can name the same credentials.
type DemoUser struct {
	Account  string
	Password string
	Name     string
	VipLevel int // 0 plain, 1 VIP, 2 super VIP; VIP lasts a year from seeding
}

// DemoUsers are the demo install's accounts. Every password satisfies the
// registration rule, so they also work as examples of it.
var DemoUsers = []DemoUser{
	{Account: "demo", Password: "demo123", Name: "演示用户", VipLevel: 0},
	{Account: "vipdemo", Password: "vip123", Name: "VIP演示", VipLevel: 1},
	{Account: "svipdemo", Password: "svip123", Name: "超级VIP演示", VipLevel: 2},
}

// SeedDemoUsers creates the DemoUsers that do not exist yet and reports how
// many it created. An existing account is left exactly as it is (its
// password, VIP and anything its owner changed), so seeding twice is safe.
func SeedDemoUsers(ctx context.Context, s *Service) (created int, err error) {
	for _, d := range DemoUsers {
		if err := checkAccount(d.Account); err != nil {
			return created, fmt.Errorf("demo user %s: %w", d.Account, err)
		}
		if err := checkPassword(d.Password); err != nil {
			return created, fmt.Errorf("demo user %s: %w", d.Account, err)
		}
		if _, err := userByAccount(ctx, s.db, d.Account); err == nil {
			continue
		} else if !errors.Is(err, db.ErrNotFound) {
			return created, err
		}
		hash, err := hashPassword(ctx, d.Password)
		if err != nil {
			return created, err
		}
		now := s.now()
		u := User{Name: d.Name, Account: d.Account, PasswordHash: hash, CreatedAt: now.Unix(), UpdatedAt: now.Unix()}
		switch d.VipLevel {
		case 1:
			u.VipExpireAt = now.AddDate(1, 0, 0).Unix()
		case 2:
			u.SvipExpireAt = now.AddDate(1, 0, 0).Unix()
		}
		err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := insertUser(ctx, tx, &u)
			return err
		})
		switch {
		case db.IsUnique(err):
			// Another seed run created it meanwhile: also "already there".
		case err != nil:
			return created, fmt.Errorf("demo user %s: %w", d.Account, err)
		default:
			created++
		}
	}
	return created, nil
}
