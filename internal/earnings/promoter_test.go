package earnings_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"prima/internal/earnings"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

var opActor = audit.Actor{UID: audit.CLI}

// The settings: a new install's defaults, every bound refused with the
// field named and nothing changed, a change audited with before and after.
func TestConfig(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		c, err := e.s.Config(ctx)
		if err != nil {
			t.Fatal(err)
		}
		def := earnings.DefaultConfig
		if !equal(c.Levels, def.Levels) || !equal(c.PromoterLevels, def.PromoterLevels) || c.SettleDays != 7 || c.CreatorShareBps != 5000 || c.InviteReward != "off" {
			t.Fatalf("defaults %+v", c)
		}
		for _, bad := range []struct {
			field string
			c     earnings.Config
		}{
			{"levels", earnings.Config{Levels: nil, PromoterLevels: []int64{1}, InviteReward: "off"}},
			{"levels", earnings.Config{Levels: []int64{1, 1, 1, 1}, PromoterLevels: []int64{1, 1, 1, 1}, InviteReward: "off"}},
			{"levels", earnings.Config{Levels: []int64{5001}, PromoterLevels: []int64{1}, InviteReward: "off"}},
			{"levels", earnings.Config{Levels: []int64{-1}, PromoterLevels: []int64{1}, InviteReward: "off"}},
			{"promoterLevels", earnings.Config{Levels: []int64{1, 2}, PromoterLevels: []int64{1}, InviteReward: "off"}},
			{"promoterLevels", earnings.Config{Levels: []int64{1}, PromoterLevels: []int64{9999}, InviteReward: "off"}},
			{"settleDays", earnings.Config{Levels: []int64{1}, PromoterLevels: []int64{1}, SettleDays: 91, InviteReward: "off"}},
			{"settleDays", earnings.Config{Levels: []int64{1}, PromoterLevels: []int64{1}, SettleDays: -1, InviteReward: "off"}},
			{"creatorShareBps", earnings.Config{Levels: []int64{1}, PromoterLevels: []int64{1}, CreatorShareBps: 10001, InviteReward: "off"}},
			{"inviteReward", earnings.Config{Levels: []int64{1}, PromoterLevels: []int64{1}, InviteReward: "register"}},
			{"inviteReward", earnings.Config{Levels: []int64{1}, PromoterLevels: []int64{1}, InviteReward: "off\x00"}},
		} {
			_, err := e.s.SetConfig(ctx, opActor, bad.c)
			if status(err) != 422 || !strings.Contains(tip(err), bad.field) {
				t.Errorf("%+v: %d %q, want 422 naming %s", bad.c, status(err), tip(err), bad.field)
			}
		}
		if n := e.count(t, `SELECT COUNT(*) FROM audit_log WHERE action = 'commission.config'`); n != 0 {
			t.Fatalf("refusals wrote %d audit rows", n)
		}
		want := earnings.Config{Levels: []int64{1500, 0}, PromoterLevels: []int64{3000, 500}, SettleDays: 0, CreatorShareBps: 10000, InviteReward: "payment"}
		if _, err := e.s.SetConfig(ctx, opActor, want); err != nil {
			t.Fatal(err)
		}
		got, _ := e.s.Config(ctx)
		if !equal(got.Levels, want.Levels) || !equal(got.PromoterLevels, want.PromoterLevels) || got.SettleDays != 0 || got.CreatorShareBps != 10000 || got.InviteReward != "payment" {
			t.Fatalf("saved %+v", got)
		}
		if r, _ := e.s.InviteReward(ctx, d); r != "payment" {
			t.Fatalf("inviteReward %q", r)
		}
		var before, after string
		if err := d.QueryRow(ctx, `SELECT before, after FROM audit_log WHERE action = 'commission.config'`).Scan(&before, &after); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(before, `"settleDays":7`) || !strings.Contains(after, `"inviteReward":"payment"`) {
			t.Fatalf("audit %s -> %s", before, after)
		}
	})
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Applying and deciding: the page's state through none, pending, rejected
// (with the reason), pending again and approved; every refusal changes
// nothing; guests are refused; decisions are audited and noticed once.
func TestPromoterApplication(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		alice := e.user(t, "alice")
		p, err := e.s.Promoter(ctx, alice)
		if err != nil {
			t.Fatal(err)
		}
		if p.State != "none" || p.Tier != "member" || p.Application != nil || !equal(p.Rates, []int64{1000, 300, 100}) ||
			!equal(p.PromoterRates, []int64{2000, 500, 200}) || p.SettleDays != 7 || len(p.InviteCode) != 6 || p.Link != "https://prima.example/?ic="+p.InviteCode {
			t.Fatalf("fresh page %+v", p)
		}
		guest := e.guest(t)
		if _, err := e.s.Promoter(ctx, guest); status(err) != 403 || tip(err) != "请先注册账号" {
			t.Fatalf("guest page: %d %q", status(err), tip(err))
		}
		if _, err := e.s.Apply(ctx, guest, earnings.PromoterInput{Channel: "抖音", Contact: "tg@me"}); status(err) != 403 {
			t.Fatalf("guest apply: %v", err)
		}
		for _, bad := range []struct {
			in    earnings.PromoterInput
			field string
		}{
			{earnings.PromoterInput{Channel: "", Contact: "tg@me"}, "channel"},
			{earnings.PromoterInput{Channel: strings.Repeat("抖", 31), Contact: "tg@me"}, "channel"},
			{earnings.PromoterInput{Channel: "抖\n音", Contact: "tg@me"}, "channel"},
			{earnings.PromoterInput{Channel: "抖音\x00", Contact: "tg@me"}, "channel"},
			{earnings.PromoterInput{Channel: "抖音", Contact: "ab"}, "contact"},
			{earnings.PromoterInput{Channel: "抖音", Contact: strings.Repeat("a", 51)}, "contact"},
			{earnings.PromoterInput{Channel: "抖音", Contact: "tg@me", Intro: strings.Repeat("介", 501)}, "intro"},
			{earnings.PromoterInput{Channel: "抖音", Contact: "tg@me", Intro: "a\x07b"}, "intro"},
		} {
			if _, err := e.s.Apply(ctx, alice, bad.in); status(err) != 422 || !strings.Contains(tip(err), bad.field) {
				t.Errorf("%+v: %d %q, want 422 naming %s", bad.in, status(err), tip(err), bad.field)
			}
		}
		if n := e.count(t, `SELECT COUNT(*) FROM promoter_applications`); n != 0 {
			t.Fatalf("refusals stored %d applications", n)
		}
		p, err = e.s.Apply(ctx, alice, earnings.PromoterInput{Channel: " 抖音 ", Contact: "tg@alice", Intro: "粉丝三万\n每天更新"})
		if err != nil {
			t.Fatal(err)
		}
		if p.State != "pending" || p.Application == nil || p.Application.Channel != "抖音" || p.Application.DecidedAt != nil || p.Tier != "member" {
			t.Fatalf("pending page %+v", p)
		}
		if _, err := e.s.Apply(ctx, alice, earnings.PromoterInput{Channel: "快手", Contact: "tg@alice"}); status(err) != 409 || tip(err) != "你的推广员申请正在审核中" {
			t.Fatalf("second apply: %d %q", status(err), tip(err))
		}
		var id int64
		if err := d.QueryRow(ctx, `SELECT id FROM promoter_applications WHERE user_id = ?`, alice).Scan(&id); err != nil {
			t.Fatal(err)
		}
		if _, _, err := e.s.Decide(ctx, opActor, id, false, ""); status(err) != 422 {
			t.Fatalf("reject without reason: %v", err)
		}
		if _, _, err := e.s.Decide(ctx, opActor, id+100, true, ""); status(err) != 404 {
			t.Fatalf("unknown id: %v", err)
		}
		a, changed, err := e.s.Decide(ctx, opActor, id, false, "渠道信息不足")
		if err != nil || !changed || a.State != "rejected" || a.Account != "alice" {
			t.Fatalf("reject: %+v %v %v", a, changed, err)
		}
		if _, changed, err := e.s.Decide(ctx, opActor, id, true, ""); err != nil || changed {
			t.Fatalf("deciding again changed it: %v %v", changed, err)
		}
		p, _ = e.s.Promoter(ctx, alice)
		if p.State != "rejected" || p.Reason != "渠道信息不足" || p.Application.DecidedAt == nil {
			t.Fatalf("rejected page %+v", p)
		}
		if _, err := e.s.Apply(ctx, alice, earnings.PromoterInput{Channel: "快手", Contact: "tg@alice"}); err != nil {
			t.Fatalf("apply after a rejection: %v", err)
		}
		if err := d.QueryRow(ctx, `SELECT id FROM promoter_applications WHERE user_id = ? AND status = 'pending'`, alice).Scan(&id); err != nil {
			t.Fatal(err)
		}
		page, err := e.s.AdminApplications(ctx, "pending", 1, 20)
		if err != nil || page.Total != 1 || page.List[0].ID != id || page.List[0].Name != "alice" {
			t.Fatalf("queue %+v %v", page, err)
		}
		if _, err := e.s.AdminApplications(ctx, "bogus", 1, 20); status(err) != 422 {
			t.Fatalf("bad state: %v", err)
		}
		if _, _, err := e.s.Decide(ctx, opActor, id, true, ""); err != nil {
			t.Fatal(err)
		}
		p, _ = e.s.Promoter(ctx, alice)
		if p.State != "approved" || p.Tier != "promoter" || !equal(p.Rates, []int64{2000, 500, 200}) || p.Reason != "" {
			t.Fatalf("approved page %+v", p)
		}
		if _, err := e.s.Apply(ctx, alice, earnings.PromoterInput{Channel: "快手", Contact: "tg@alice"}); status(err) != 409 || tip(err) != "你已是推广员" {
			t.Fatalf("apply once approved: %d %q", status(err), tip(err))
		}
		if n := e.count(t, `SELECT COUNT(*) FROM audit_log WHERE action IN ('promoter.approve', 'promoter.reject')`); n != 2 {
			t.Fatalf("%d audit rows, want 2", n)
		}
		if n := e.count(t, `SELECT COUNT(*) FROM notices WHERE user_id = ? AND kind = 'promoter'`, alice); n != 2 {
			t.Fatalf("%d notices, want 2", n)
		}
	})
}

// Parallel: ten submissions at once make one pending application; ten
// operators deciding it at once (half approving) make one decision, one
// audit row and one notice.
func TestPromoterRaces(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		e := newEnv(t, d)
		bob := e.user(t, "bob")
		var wg sync.WaitGroup
		codes := make(chan int, 10)
		for range 10 {
			wg.Go(func() {
				_, err := e.s.Apply(ctx, bob, earnings.PromoterInput{Channel: "微信群", Contact: "wx_bob"})
				codes <- status(err)
			})
		}
		wg.Wait()
		close(codes)
		ok := 0
		for c := range codes {
			switch c {
			case 200:
				ok++
			case 409:
			default:
				t.Errorf("apply answered %d", c)
			}
		}
		if ok != 1 || e.count(t, `SELECT COUNT(*) FROM promoter_applications`) != 1 {
			t.Fatalf("%d applies succeeded, %d rows", ok, e.count(t, `SELECT COUNT(*) FROM promoter_applications`))
		}
		var id int64
		_ = d.QueryRow(ctx, `SELECT id FROM promoter_applications`).Scan(&id)
		changed := make(chan bool, 10)
		for i := range 10 {
			wg.Go(func() {
				_, c, err := e.s.Decide(ctx, audit.Actor{UID: int64(100 + i)}, id, i%2 == 0, "不合适")
				if err != nil {
					t.Error(err)
				}
				changed <- c
			})
		}
		wg.Wait()
		close(changed)
		n := 0
		for c := range changed {
			if c {
				n++
			}
		}
		if n != 1 || e.count(t, `SELECT COUNT(*) FROM audit_log WHERE action LIKE 'promoter.%'`) != 1 ||
			e.count(t, `SELECT COUNT(*) FROM notices WHERE kind = 'promoter'`) != 1 {
			t.Fatalf("%d decisions changed it", n)
		}
	})
}
