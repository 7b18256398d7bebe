package catalog

import (
	"context"
	"fmt"
	"testing"
	"time"

	"prima/internal/account"
	"prima/internal/membership"
	"prima/internal/platform/db"
)

// testNow is the clock of the fixtures: newsType's "last 7 days" is measured
// from it.
var testNow = time.Date(2026, 11, 21, 5, 0, 0, 0, time.UTC)

// fixture is a small named catalogue:
//
//	首页 (type 0, sort 1): 推荐 (sort 1, 45 published videos + 1 draft), 最新 (sort 2, 5 videos), 空 (sort 3, none)
//	社区 (type 1, sort 2): 热帖 (sort 1, 2 videos)
//	短视频 (type 4, sort 0): 竖屏 (sort 1, 0 videos)
//
// Videos of 推荐 have distinct play and like counts in orders that differ
// from their creation order, and durations spread over the playTimeType bands.
type fixture struct {
	home, community, short int64 // top-level modules
	rec, latest, empty     int64 // sub-modules of home
	hot, vertical          int64 // sub-modules of community and short
	recVideos              []int64
	draft                  int64
	tags                   []int64 // 剧情, 高清, 独家
}

// Durations of 推荐's videos cycle through these: two of each band.
var fixtureDurations = []int{30, 299, 300, 1199, 1200, 7200}

func newFixture(t *testing.T, d *db.DB) *fixture {
	t.Helper()
	ctx := context.Background()
	now := testNow.Unix()
	f := &fixture{}
	err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		mod := func(pid int64, name string, typ, sort int) int64 {
			if err != nil {
				return 0
			}
			var id int64
			id, err = InsertModule(ctx, tx, pid, name, typ, sort, now)
			return id
		}
		f.home = mod(0, "首页", 0, 1)
		f.community = mod(0, "社区", 1, 2)
		f.short = mod(0, "短视频", 4, 0)
		f.latest = mod(f.home, "最新", 0, 2)
		f.rec = mod(f.home, "推荐", 0, 1)
		f.empty = mod(f.home, "空", 0, 3)
		f.hot = mod(f.community, "热帖", 1, 1)
		f.vertical = mod(f.short, "竖屏", 4, 1)
		if err != nil {
			return err
		}
		for i, name := range []string{"剧情", "高清", "独家"} {
			id, err := InsertTag(ctx, tx, name, 3-i, now) // sort reverses insertion order
			if err != nil {
				return err
			}
			f.tags = append(f.tags, id)
		}
		video := func(title string, module, sub int64, i int, published bool) (int64, error) {
			return InsertVideo(ctx, tx, NewVideo{
				Title:       title,
				Cover:       fmt.Sprintf("/media/covers/%s.jpg", title),
				Duration:    fixtureDurations[i%len(fixtureDurations)],
				PlayCount:   int64((i * 37) % 101), // a permutation of 0..100 restricted to i < 101
				LikeCount:   int64((i * 53) % 97),
				ModuleID:    module,
				SubModuleID: sub,
				VipLevel:    i % 3,
				Coins:       int64(i % 2 * 10),
				Width:       480,
				Height:      270,
				Published:   published,
				// One video a day going back, so the last 7 days hold 7 videos
				// (i = 0..6, the newest at testNow - 1h).
				CreatedAt: now - int64(i)*86400 - 3600,
			})
		}
		for i := range 45 {
			id, err := video(fmt.Sprintf("rec-%02d", i), f.home, f.rec, i, true)
			if err != nil {
				return err
			}
			f.recVideos = append(f.recVideos, id)
			for j, tag := range f.tags {
				if i%(j+2) == 0 {
					if err := TagVideo(ctx, tx, id, tag); err != nil {
						return err
					}
				}
			}
		}
		if f.draft, err = video("draft", f.home, f.rec, 0, false); err != nil {
			return err
		}
		for i := range 5 {
			if _, err := video(fmt.Sprintf("latest-%d", i), f.home, f.latest, i, true); err != nil {
				return err
			}
		}
		for i := range 2 {
			if _, err := video(fmt.Sprintf("hot-%d", i), f.community, f.hot, i, true); err != nil {
				return err
			}
		}
		if _, err := InsertAnnouncement(ctx, tx, Announcement{Title: "现在", Content: "正在显示", Link: "/home"}, 1, now-100, 0, now); err != nil {
			return err
		}
		if _, err := InsertAnnouncement(ctx, tx, Announcement{Title: "过期", Content: "已结束"}, 0, now-1000, now-10, now); err != nil {
			return err
		}
		if _, err := InsertAnnouncement(ctx, tx, Announcement{Title: "将来", Content: "未开始"}, 0, now+1000, 0, now); err != nil {
			return err
		}
		if _, err := InsertAd(ctx, tx, Ad{Title: "横幅", Image: "/media/ads/1.jpg", Link: "/mine/vipcenter", Position: "home_banner"}, 0, 0, 0, now); err != nil {
			return err
		}
		if _, err := InsertAd(ctx, tx, Ad{Title: "过期广告", Image: "/media/ads/2.jpg", Link: "/home", Position: "popup"}, 0, 0, now-1, now); err != nil {
			return err
		}
		for i, e := range []SourceEntry{{Title: "精品", URL: "", Weight: 0}} {
			if err := InsertSourceEntry(ctx, tx, "APPNAME", e, i); err != nil {
				return err
			}
		}
		if err := InsertSourceEntry(ctx, tx, "IOSVERSION", SourceEntry{Title: "1.1.3", Weight: 1}, 0); err != nil {
			return err
		}
		if err := InsertSourceEntry(ctx, tx, "VID", SourceEntry{Title: "b", URL: "/b", Weight: 2}, 2); err != nil {
			return err
		}
		if err := InsertSourceEntry(ctx, tx, "VID", SourceEntry{Title: "a", URL: "/a", Weight: 1}, 1); err != nil {
			return err
		}
		return InsertPreSale(ctx, tx, PreSale{Type: 3, Status: 1, URL: "/media/presale/popup.jpg"}, 0)
	})
	if err != nil {
		t.Fatalf("fixture: %v", err)
	}
	return f
}

// newTestService is a Service over d whose clock reads testNow, deciding
// access by the users' tiers as the app wires it (account's columns).
func newTestService(d *db.DB, opts Options) *Service {
	s := NewService(d, opts)
	s.now = func() time.Time { return testNow }
	s.Access = membership.NewService(d, account.Tiers, membership.NoPurchases{})
	s.Uploads, s.People = uploadsTable{d}, account.Cards
	return s
}

// uploadsTable reads media_assets as the media pipeline's Uploads does
// (catalog's tests cannot import internal/media, which imports catalog).
type uploadsTable struct{ d *db.DB }

func (u uploadsTable) UploadOf(ctx context.Context, q db.Querier, id int64) (Upload, error) {
	var (
		up   Upload
		kind string
	)
	err := q.QueryRow(ctx, `SELECT id, owner_uid, kind, state, duration_ms, width, height FROM media_assets WHERE id = ?`, id).
		Scan(&up.ID, &up.Owner, &kind, &up.State, &up.DurationMS, &up.Width, &up.Height)
	up.Video = kind == "video"
	return up, db.NotFound(err)
}

func (u uploadsTable) UploadsOf(ctx context.Context, owner int64, ready bool) ([]int64, error) {
	cond := ""
	if ready {
		cond = " AND state = 'ready'"
	}
	return db.All(ctx, u.d, func(s db.Scanner) (int64, error) {
		var id int64
		err := s.Scan(&id)
		return id, err
	}, `SELECT id FROM media_assets WHERE owner_uid = ?`+cond, owner)
}
