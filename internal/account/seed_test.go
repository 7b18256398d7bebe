package account

import (
	"context"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func TestSeedDemoUsers(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, c := newTestService(t, d)
		ctx := context.Background()
		created, err := SeedDemoUsers(ctx, s)
		if err != nil || created != len(DemoUsers) {
			t.Fatalf("first seed: created %d, %v; want %d", created, err, len(DemoUsers))
		}
		levels := map[int]bool{}
		for _, du := range DemoUsers {
			l, err := s.PasswordLogin(ctx, PasswordLoginInput{Account: du.Account, Password: du.Password, IP: "10.0.0.1"})
			if err != nil {
				t.Fatalf("log in as %s: %v", du.Account, err)
			}
			info := s.Info(l.User)
			if info.Name != du.Name || info.VipLevel != du.VipLevel || info.IsGuest {
				t.Fatalf("%s: %+v", du.Account, info)
			}
			if du.VipLevel > 0 && !info.VipExpireDate.Equal(c.now().AddDate(1, 0, 0)) {
				t.Fatalf("%s: VIP until %v, want a year from now", du.Account, info.VipExpireDate)
			}
			levels[du.VipLevel] = true
		}
		if DemoUsers[0].Account != "demo" || DemoUsers[0].Password != "demo123" {
			t.Fatalf("the first demo user is %s/%s; the documented one is demo/demo123", DemoUsers[0].Account, DemoUsers[0].Password)
		}
		if !levels[0] || !levels[1] || !levels[2] {
			t.Fatalf("demo users cover VIP levels %v, want a plain user, a VIP and a super VIP", levels)
		}

		// A demo account someone changed is left as it is.
		if _, err := d.Exec(ctx, `UPDATE users SET name = 'renamed', vip_expire_at = 0 WHERE account = 'vipdemo'`); err != nil {
			t.Fatal(err)
		}
		c.add(48 * time.Hour)
		created, err = SeedDemoUsers(ctx, s)
		if err != nil || created != 0 {
			t.Fatalf("second seed: created %d, %v; want 0", created, err)
		}
		if n := count(t, d, "users"); n != len(DemoUsers) {
			t.Fatalf("%d users after seeding twice", n)
		}
		u, _ := userByAccount(ctx, d, "vipdemo")
		if u.Name != "renamed" || u.VipExpireAt != 0 {
			t.Fatalf("reseeding overwrote vipdemo: %+v", u)
		}
	})
}
