package membership

import (
	"context"
	"errors"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func TestTiersKeepTheirOwnExpiry(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	n := now.Unix()
	// A year of VIP with one day of super VIP bought on top: level 2 for the
	// day, then level 1 until the VIP year ends.
	u := User{VipExpireAt: n + 365*86400, SvipExpireAt: n + 86400}
	for _, c := range []struct {
		at     int64
		level  int
		expiry int64
	}{{n, 2, n + 86400}, {n + 86399, 2, n + 86400}, {n + 86400, 1, n + 365*86400}, {n + 365*86400, 0, n + 365*86400}} {
		at := time.Unix(c.at, 0)
		if l, e := ActiveVipLevel(u, at), ActiveExpiry(u, at); l != c.level || e != c.expiry {
			t.Errorf("at +%ds: level %d until %d, want %d until %d", c.at-n, l, e-n, c.level, c.expiry-n)
		}
	}
	if e := ActiveExpiry(User{}, now); e != 0 {
		t.Errorf("never VIP: expiry %d", e)
	}
}

func TestDecide(t *testing.T) {
	n := now.Unix()
	free := Video{ID: 1}
	vip := Video{ID: 2, VipLevel: LevelVIP}
	svip := Video{ID: 3, VipLevel: LevelSVIP}
	gold := Video{ID: 4, Coins: 30}
	goldVIP := Video{ID: 5, VipLevel: LevelVIP, Coins: 12} // a price makes it gold
	plain := &User{ID: 9}
	vip1 := &User{ID: 9, VipExpireAt: n + 1}
	vip2 := &User{ID: 9, SvipExpireAt: n + 86400}
	cases := []struct {
		name   string
		u      *User
		v      Video
		bought bool
		want   Access
	}{
		{"free video, nobody", nil, free, false, Access{Allowed: true, Reason: ReasonFree}},
		{"free video, user", plain, free, false, Access{Allowed: true, Reason: ReasonFree}},
		{"vip video, nobody", nil, vip, false, Access{Reason: ReasonLogin, Unlock: Unlock{VipLevel: 1}}},
		{"gold video, nobody", nil, gold, false, Access{Reason: ReasonLogin, Unlock: Unlock{Coins: 30}}},
		{"vip video, plain user", plain, vip, false, Access{Reason: ReasonNeedVIP, Unlock: Unlock{VipLevel: 1}}},
		{"svip video, plain user", plain, svip, false, Access{Reason: ReasonNeedSVIP, Unlock: Unlock{VipLevel: 2}}},
		{"vip video, vip 1 one second left", vip1, vip, false, Access{Allowed: true, Reason: ReasonVIP}},
		{"vip video, vip 1 expiring exactly now", &User{VipExpireAt: n}, vip, false, Access{Reason: ReasonNeedVIP, Unlock: Unlock{VipLevel: 1}}},
		{"vip video, vip 1 expired", &User{VipExpireAt: n - 1}, vip, false, Access{Reason: ReasonNeedVIP, Unlock: Unlock{VipLevel: 1}}},
		{"svip video, vip 1", vip1, svip, false, Access{Reason: ReasonNeedSVIP, Unlock: Unlock{VipLevel: 2}}},
		{"svip video, svip", vip2, svip, false, Access{Allowed: true, Reason: ReasonSVIP}},
		{"vip video, svip (level 2 opens level 1)", vip2, vip, false, Access{Allowed: true, Reason: ReasonSVIP}},
		{"svip video, svip expired", &User{SvipExpireAt: n}, svip, false, Access{Reason: ReasonNeedSVIP, Unlock: Unlock{VipLevel: 2}}},
		{"vip video, expired vip with video window", &User{VipExpireAt: n - 10, VideoFreeUntil: n + 10}, vip, false, Access{Allowed: true, Reason: ReasonFreeWindow}},
		{"svip video, video window", &User{VideoFreeUntil: n + 10}, svip, false, Access{Allowed: true, Reason: ReasonFreeWindow}},
		{"vip video, video window ending now", &User{VideoFreeUntil: n}, vip, false, Access{Reason: ReasonNeedVIP, Unlock: Unlock{VipLevel: 1}}},
		{"vip video, gold window does not open it", &User{GoldVideoFreeUntil: n + 10}, vip, false, Access{Reason: ReasonNeedVIP, Unlock: Unlock{VipLevel: 1}}},
		{"gold video, plain user", plain, gold, false, Access{Reason: ReasonNeedCoins, Unlock: Unlock{Coins: 30}}},
		{"gold video, svip does not open it", vip2, gold, false, Access{Reason: ReasonNeedCoins, Unlock: Unlock{Coins: 30}}},
		{"gold video, video window does not open it", &User{VideoFreeUntil: n + 10}, gold, false, Access{Reason: ReasonNeedCoins, Unlock: Unlock{Coins: 30}}},
		{"gold video, gold window", &User{GoldVideoFreeUntil: n + 1}, gold, false, Access{Allowed: true, Reason: ReasonFreeWindow}},
		{"gold video, gold window ending now", &User{GoldVideoFreeUntil: n}, gold, false, Access{Reason: ReasonNeedCoins, Unlock: Unlock{Coins: 30}}},
		{"gold video, bought", plain, gold, true, Access{Allowed: true, Reason: ReasonBought}},
		{"gold video with a vip level, vip user", vip1, goldVIP, false, Access{Reason: ReasonNeedCoins, Unlock: Unlock{Coins: 12}}},
		{"gold video with a vip level, bought", vip1, goldVIP, true, Access{Allowed: true, Reason: ReasonBought}},
		{"level above 2 counts as super VIP", vip1, Video{VipLevel: 3}, false, Access{Reason: ReasonNeedSVIP, Unlock: Unlock{VipLevel: 2}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Decide(c.u, c.v, now, c.bought); got != c.want {
				t.Fatalf("Decide = %+v, want %+v", got, c.want)
			}
		})
	}
}

func TestTip(t *testing.T) {
	for _, c := range []struct {
		a    Access
		want string
	}{
		{Access{Reason: ReasonNeedCoins, Unlock: Unlock{Coins: 30}}, "支付30金币即可观看完整视频"},
		{Access{Reason: ReasonNeedVIP}, "开通VIP会员即可观看完整视频"},
		{Access{Reason: ReasonNeedSVIP}, "开通超级VIP即可观看完整视频"},
		{Access{Reason: ReasonLogin}, "登录后即可观看"},
		{Access{Allowed: true, Reason: ReasonFree}, ""},
	} {
		if got := c.a.Tip(); got != c.want {
			t.Errorf("%s: tip %q, want %q", c.a.Reason, got, c.want)
		}
	}
}

// boughtOnly says yes to one (user, video) pair, and fails for video 666.
type boughtOnly struct{ uid, vid int64 }

func (b boughtOnly) HasBought(_ context.Context, uid, vid int64) (bool, error) {
	if vid == 666 {
		return false, errors.New("wallet down")
	}
	return uid == b.uid && vid == b.vid, nil
}

func TestServiceCheck(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		n := now.Unix()
		var plain, vip, windows int64
		for _, row := range []struct {
			id                         *int64
			level                      int
			expire, goldFree, freeFrom int64
		}{{&plain, 0, 0, 0, 0}, {&vip, 1, n + 60, 0, 0}, {&windows, 0, 0, n + 60, n + 60}} {
			err := d.QueryRow(ctx, `INSERT INTO users (vip_expire_at, gold_video_free_until, video_free_until, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
				row.expire, row.goldFree, row.freeFrom, n, n).Scan(row.id)
			if err != nil {
				t.Fatal(err)
			}
		}
		s := NewService(d, usersTiers, boughtOnly{uid: plain, vid: 40})
		s.now = func() time.Time { return now }
		check := func(uid int64, v Video, want string) {
			t.Helper()
			a, err := s.Check(ctx, uid, v)
			if err != nil {
				t.Fatal(err)
			}
			if a.Reason != want {
				t.Fatalf("uid %d video %+v: %+v, want %s", uid, v, a, want)
			}
		}
		check(0, Video{ID: 1}, ReasonFree)
		check(0, Video{ID: 2, VipLevel: 1}, ReasonLogin)
		check(plain, Video{ID: 2, VipLevel: 1}, ReasonNeedVIP)
		check(vip, Video{ID: 2, VipLevel: 1}, ReasonVIP)
		check(vip, Video{ID: 3, VipLevel: 2}, ReasonNeedSVIP)
		check(windows, Video{ID: 3, VipLevel: 2}, ReasonFreeWindow)
		check(windows, Video{ID: 41, Coins: 5}, ReasonFreeWindow)
		check(plain, Video{ID: 40, Coins: 5}, ReasonBought)
		check(plain, Video{ID: 41, Coins: 5}, ReasonNeedCoins)
		check(vip, Video{ID: 40, Coins: 5}, ReasonNeedCoins) // someone else's purchase
		check(plain+vip+windows+1000, Video{ID: 2, VipLevel: 1}, ReasonLogin)
		if _, err := s.Check(ctx, plain, Video{ID: 666, Coins: 5}); err == nil {
			t.Fatal("a failing purchase lookup must fail the check, not refuse or allow")
		}
		// The real default answers no for everyone.
		s.purchases = NoPurchases{}
		check(plain, Video{ID: 40, Coins: 5}, ReasonNeedCoins)
	})
}

// galleriesToo sells video 40 and gallery 7 to one user.
type galleriesToo struct{ boughtOnly }

func (g galleriesToo) HasBoughtGallery(_ context.Context, uid, id int64) (bool, error) {
	return uid == g.uid && id == 7, nil
}

// A gallery is decided by the videos' rule, but only its own purchase
// counts: a video bought with the same id opens no gallery.
func TestServiceCheckGallery(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		n := now.Unix()
		var plain, vip int64
		for _, row := range []struct {
			id     *int64
			level  int
			expire int64
		}{{&plain, 0, 0}, {&vip, 1, n + 60}} {
			err := d.QueryRow(ctx, `INSERT INTO users (vip_expire_at, created_at, updated_at) VALUES (?, ?, ?) RETURNING id`,
				row.expire, n, n).Scan(row.id)
			if err != nil {
				t.Fatal(err)
			}
		}
		s := NewService(d, usersTiers, boughtOnly{uid: plain, vid: 40})
		s.now = func() time.Time { return now }
		check := func(uid int64, g Video, want string) {
			t.Helper()
			a, err := s.CheckGallery(ctx, uid, g)
			if err != nil {
				t.Fatal(err)
			}
			if a.Reason != want {
				t.Fatalf("uid %d gallery %+v: %+v, want %s", uid, g, a, want)
			}
		}
		check(0, Video{ID: 1}, ReasonFree)
		check(0, Video{ID: 2, VipLevel: 1}, ReasonLogin)
		check(vip, Video{ID: 2, VipLevel: 1}, ReasonVIP)
		check(vip, Video{ID: 2, VipLevel: 2}, ReasonNeedSVIP)
		// Video 40 is bought; gallery 40 is not.
		check(plain, Video{ID: 40, Coins: 5}, ReasonNeedCoins)
		s.purchases = galleriesToo{boughtOnly{uid: plain, vid: 40}}
		check(plain, Video{ID: 7, Coins: 5}, ReasonBought)
		check(plain, Video{ID: 40, Coins: 5}, ReasonNeedCoins)
		check(vip, Video{ID: 7, Coins: 5}, ReasonNeedCoins)
		s.purchases = NoPurchases{}
		check(plain, Video{ID: 7, Coins: 5}, ReasonNeedCoins)
	})
}

// usersTiers reads the tier columns as account.Tiers does, which the app
// wires in (membership's tests cannot import account: it imports
// membership).
func usersTiers(ctx context.Context, q db.Querier, uid int64) (User, error) {
	u := User{ID: uid}
	err := q.QueryRow(ctx, `SELECT vip_expire_at, svip_expire_at, gold_video_free_until, video_free_until FROM users WHERE id = ?`, uid).
		Scan(&u.VipExpireAt, &u.SvipExpireAt, &u.GoldVideoFreeUntil, &u.VideoFreeUntil)
	return u, db.NotFound(err)
}
