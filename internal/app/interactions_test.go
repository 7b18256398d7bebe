package app_test

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/catalog"
	"prima/internal/platform/db"
)

// videoFixture is a module with a sub-module of four published videos
// (free, VIP, super VIP, gold) and a draft.
type videoFixture struct {
	free, vip, svip, gold, draft int64
}

func newVideoFixture(t *testing.T, s *apptest.Server) videoFixture {
	t.Helper()
	ctx := context.Background()
	now := time.Now().Unix()
	var f videoFixture
	err := s.App.DB.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		mod, err := catalog.InsertModule(ctx, tx, 0, "首页", 0, 1, now)
		if err != nil {
			return err
		}
		sub, err := catalog.InsertModule(ctx, tx, mod, "推荐", 0, 1, now)
		if err != nil {
			return err
		}
		tag, err := catalog.InsertTag(ctx, tx, "高清", 1, now)
		if err != nil {
			return err
		}
		for i, v := range []struct {
			id        *int64
			level     int
			coins     int64
			published bool
		}{{&f.free, 0, 0, true}, {&f.vip, 1, 0, true}, {&f.svip, 2, 0, true}, {&f.gold, 0, 25, true}, {&f.draft, 0, 0, false}} {
			*v.id, err = catalog.InsertVideo(ctx, tx, catalog.NewVideo{Title: fmt.Sprintf("v%d", i), Cover: "/media/covers/x.jpg", Duration: 60,
				ModuleID: mod, SubModuleID: sub, VipLevel: v.level, Coins: v.coins, Published: v.published, CreatedAt: now - int64(i)})
			if err != nil {
				return err
			}
			if err := catalog.TagVideo(ctx, tx, *v.id, tag); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// uidOf is the user id of a token, through the info call.
func uidOf(t *testing.T, s *apptest.Server, token string) int64 {
	t.Helper()
	res := apitest.Scenario{URL: "/api/app/mine/info", Token: token, ExpectedStatus: 200}.Run(t, s.Handler)
	return apitest.Data[struct {
		UID int64 `json:"uid"`
	}](t, res).UID
}

type detailData struct {
	ID        int64    `json:"id"`
	Title     string   `json:"title"`
	Tags      []string `json:"tags"`
	PlayCount int64    `json:"playCount"`
	LikeCount int64    `json:"likeCount"`
	IsLike    bool     `json:"isLike"`
	IsCollect bool     `json:"isCollect"`
	Access    struct {
		Allowed bool   `json:"allowed"`
		Reason  string `json:"reason"`
	} `json:"access"`
	Paywall *struct {
		Reason       string `json:"reason"`
		NeedVipLevel int    `json:"needVipLevel"`
		Coins        int64  `json:"coins"`
		Tip          string `json:"tip"`
	} `json:"paywall"`
	Playback *struct{} `json:"playback"`
	Related  []struct {
		ID int64 `json:"id"`
	} `json:"related"`
}

func TestVideoDetailAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		f := newVideoFixture(t, s)
		h := s.Handler
		token := apitest.GuestLogin(t, h, apitest.DevID(1))
		info := func(id int64) string { return "/api/app/vid/info?id=" + strconv.FormatInt(id, 10) }
		apitest.Run(t, h,
			apitest.Scenario{Name: "no id", URL: "/api/app/vid/info", ExpectedStatus: 422, ExpectedTip: "缺少参数 id"},
			apitest.Scenario{Name: "id 0", URL: "/api/app/vid/info?id=0", ExpectedStatus: 422},
			apitest.Scenario{Name: "negative id", URL: "/api/app/vid/info?id=-3", ExpectedStatus: 422},
			apitest.Scenario{Name: "huge id", URL: "/api/app/vid/info?id=99999999999999999999", ExpectedStatus: 422},
			apitest.Scenario{Name: "not a number", URL: "/api/app/vid/info?id=abc", ExpectedStatus: 422, ExpectedTip: "必须是整数"},
			apitest.Scenario{Name: "unknown id", URL: "/api/app/vid/info?id=987654", ExpectedStatus: 404, ExpectedTip: "视频不存在"},
			apitest.Scenario{Name: "draft", URL: info(f.draft), ExpectedStatus: 404, ExpectedTip: "视频不存在"},
			apitest.Scenario{Name: "free, anonymous", URL: info(f.free), ExpectedStatus: 200, ExpectedContent: []string{`"playback":null`, `"paywall":null`},
				Check: func(t *testing.T, res *apitest.Response) {
					d := apitest.Data[detailData](t, res)
					if d.ID != f.free || !d.Access.Allowed || d.Access.Reason != "free" || !slices.Equal(d.Tags, []string{"高清"}) {
						t.Fatalf("%+v", d)
					}
					if len(d.Related) != 3 { // the other published videos, never itself or the draft
						t.Fatalf("related %+v", d.Related)
					}
					for _, r := range d.Related {
						if r.ID == f.free || r.ID == f.draft {
							t.Fatalf("related holds %d", r.ID)
						}
					}
				}},
			apitest.Scenario{Name: "vip, anonymous", URL: info(f.vip), ExpectedStatus: 200, Check: func(t *testing.T, res *apitest.Response) {
				if d := apitest.Data[detailData](t, res); d.Paywall == nil || d.Paywall.Reason != "login" || d.Paywall.NeedVipLevel != 1 || d.Paywall.Tip == "" {
					t.Fatalf("%+v", d.Paywall)
				}
			}},
			apitest.Scenario{Name: "vip, guest", URL: info(f.vip), Token: token, ExpectedStatus: 200, Check: func(t *testing.T, res *apitest.Response) {
				if d := apitest.Data[detailData](t, res); d.Paywall == nil || d.Paywall.Reason != "need_vip" || d.Paywall.Tip != "开通VIP会员即可观看完整视频" {
					t.Fatalf("%+v", d.Paywall)
				}
			}},
			apitest.Scenario{Name: "gold, guest", URL: info(f.gold), Token: token, ExpectedStatus: 200, ExpectedContent: []string{`"reason":"need_coins"`, `"coins":25`, "支付25金币即可观看完整视频"}},
		)
		// The same user as a super VIP (set as the wallet will set it)
		// watches both member levels, and still not the gold video.
		uid := uidOf(t, s, token)
		if _, err := s.App.DB.Exec(context.Background(), "UPDATE users SET svip_expire_at = ? WHERE id = ?", time.Now().Add(time.Hour).Unix(), uid); err != nil {
			t.Fatal(err)
		}
		apitest.Run(t, h,
			apitest.Scenario{Name: "vip, super VIP", URL: info(f.vip), Token: token, ExpectedStatus: 200, ExpectedContent: []string{`"reason":"svip"`, `"paywall":null`}},
			apitest.Scenario{Name: "svip, super VIP", URL: info(f.svip), Token: token, ExpectedStatus: 200, ExpectedContent: []string{`"reason":"svip"`, `"paywall":null`}},
			apitest.Scenario{Name: "gold, super VIP", URL: info(f.gold), Token: token, ExpectedStatus: 200, ExpectedContent: []string{`"reason":"need_coins"`}},
		)
	})
}

func TestVideoInteractionsAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		f := newVideoFixture(t, s)
		h := s.Handler
		alice := apitest.GuestLogin(t, h, apitest.DevID(1))
		bob := apitest.GuestLogin(t, h, apitest.DevID(2))
		body := func(format string, args ...any) string { return fmt.Sprintf(format, args...) }
		likeCount := func() int {
			return countRows(t, s, "SELECT like_count FROM videos WHERE id = ?", f.free)
		}
		apitest.Run(t, h,
			// Who may call.
			apitest.Scenario{Name: "like without token", Method: post, URL: "/api/app/vid/like", Body: body(`{"id":%d,"isLike":true}`, f.free), ExpectedStatus: 401},
			apitest.Scenario{Name: "collect without token", Method: post, URL: "/api/app/vid/collect", Body: body(`{"id":%d,"isCollect":true}`, f.free), ExpectedStatus: 401},
			apitest.Scenario{Name: "report without token", Method: post, URL: "/api/app/vid/report", Body: body(`{"id":%d,"reason":"other"}`, f.free), ExpectedStatus: 401},
			apitest.Scenario{Name: "likes without token", URL: "/api/app/mine/like/infoList", ExpectedStatus: 401},
			apitest.Scenario{Name: "history without token", URL: "/api/app/mine/history", ExpectedStatus: 401},
			// Bad bodies.
			apitest.Scenario{Name: "id a string", Method: post, URL: "/api/app/vid/like", Token: alice, Body: `{"id":"x","isLike":true}`, ExpectedStatus: 400},
			apitest.Scenario{Name: "id a fraction", Method: post, URL: "/api/app/vid/like", Token: alice, Body: `{"id":1.5,"isLike":true}`, ExpectedStatus: 400},
			apitest.Scenario{Name: "id past int64", Method: post, URL: "/api/app/vid/like", Token: alice, Body: `{"id":99999999999999999999,"isLike":true}`, ExpectedStatus: 400},
			apitest.Scenario{Name: "id past the bound", Method: post, URL: "/api/app/vid/like", Token: alice, Body: `{"id":9007199254740992,"isLike":true}`, ExpectedStatus: 422},
			apitest.Scenario{Name: "id 0", Method: post, URL: "/api/app/vid/like", Token: alice, Body: `{"id":0,"isLike":true}`, ExpectedStatus: 422},
			apitest.Scenario{Name: "id negative", Method: post, URL: "/api/app/vid/collect", Token: alice, Body: `{"id":-1,"isCollect":true}`, ExpectedStatus: 422},
			apitest.Scenario{Name: "no id", Method: post, URL: "/api/app/vid/play", Body: `{}`, ExpectedStatus: 422, ExpectedTip: "缺少参数 id"},
			apitest.Scenario{Name: "no isLike", Method: post, URL: "/api/app/vid/like", Token: alice, Body: body(`{"id":%d}`, f.free), ExpectedStatus: 422, ExpectedTip: "isLike"},
			apitest.Scenario{Name: "isLike a string", Method: post, URL: "/api/app/vid/like", Token: alice, Body: body(`{"id":%d,"isLike":"yes"}`, f.free), ExpectedStatus: 400},
			apitest.Scenario{Name: "not JSON", Method: post, URL: "/api/app/vid/like", Token: alice, Body: `id=1`, ExpectedStatus: 400},
			// Unknown and unpublished videos.
			apitest.Scenario{Name: "like unknown", Method: post, URL: "/api/app/vid/like", Token: alice, Body: `{"id":987654,"isLike":true}`, ExpectedStatus: 404, ExpectedTip: "视频不存在"},
			apitest.Scenario{Name: "like draft", Method: post, URL: "/api/app/vid/like", Token: alice, Body: body(`{"id":%d,"isLike":true}`, f.draft), ExpectedStatus: 404},
			apitest.Scenario{Name: "collect draft", Method: post, URL: "/api/app/vid/collect", Token: alice, Body: body(`{"id":%d,"isCollect":true}`, f.draft), ExpectedStatus: 404},
			apitest.Scenario{Name: "play draft", Method: post, URL: "/api/app/vid/play", Token: alice, Body: body(`{"id":%d}`, f.draft), ExpectedStatus: 404},
			apitest.Scenario{Name: "report draft", Method: post, URL: "/api/app/vid/report", Token: alice, Body: body(`{"id":%d,"reason":"other"}`, f.draft), ExpectedStatus: 404},
			// Reports.
			apitest.Scenario{Name: "report without reason", Method: post, URL: "/api/app/vid/report", Token: alice, Body: body(`{"id":%d}`, f.free), ExpectedStatus: 422},
			apitest.Scenario{Name: "report unknown reason", Method: post, URL: "/api/app/vid/report", Token: alice, Body: body(`{"id":%d,"reason":"meh"}`, f.free), ExpectedStatus: 422, ExpectedTip: "举报原因无效"},
			apitest.Scenario{Name: "report NUL reason", Method: post, URL: "/api/app/vid/report", Token: alice, Body: body(`{"id":%d,"reason":"other\u0000"}`, f.free), ExpectedStatus: 422, ExpectedTip: "reason"},
		)
		for _, table := range []string{"video_likes", "video_collects", "video_history", "video_reports"} {
			if n := countRows(t, s, "SELECT COUNT(*) FROM "+table); n != 0 {
				t.Fatalf("refused calls left %d rows in %s", n, table)
			}
		}
		start := likeCount()
		like := func(tok string, on bool) apitest.Scenario {
			return apitest.Scenario{Name: fmt.Sprintf("like %v", on), Method: post, URL: "/api/app/vid/like", Token: tok, Body: body(`{"id":%d,"isLike":%v}`, f.free, on), ExpectedStatus: 200}
		}
		apitest.Run(t, h, like(alice, true), like(alice, true))
		if n := likeCount(); n != start+1 {
			t.Fatalf("a double like moved the count to %d from %d", n, start)
		}
		apitest.Run(t, h,
			like(bob, true),
			apitest.Scenario{Name: "alice sees her like", URL: fmt.Sprintf("/api/app/vid/info?id=%d", f.free), Token: alice, ExpectedStatus: 200, ExpectedContent: []string{`"isLike":true`, fmt.Sprintf(`"likeCount":%d`, start+2)}},
			like(bob, false), like(bob, false),
			apitest.Scenario{Name: "bob's like gone", URL: fmt.Sprintf("/api/app/vid/info?id=%d", f.free), Token: bob, ExpectedStatus: 200, ExpectedContent: []string{`"isLike":false`, fmt.Sprintf(`"likeCount":%d`, start+1)}},
			apitest.Scenario{Name: "collect", Method: post, URL: "/api/app/vid/collect", Token: alice, Body: body(`{"id":%d,"isCollect":true}`, f.vip), ExpectedStatus: 200, ExpectedContent: []string{`"isCollect":true`}},
			apitest.Scenario{Name: "collect again", Method: post, URL: "/api/app/vid/collect", Token: alice, Body: body(`{"id":%d,"isCollect":true}`, f.vip), ExpectedStatus: 200},
			apitest.Scenario{Name: "play anonymous", Method: post, URL: "/api/app/vid/play", Body: body(`{"id":%d}`, f.gold), ExpectedStatus: 200, ExpectedContent: []string{`"playCount":1`}},
			apitest.Scenario{Name: "play alice", Method: post, URL: "/api/app/vid/play", Token: alice, Body: body(`{"id":%d}`, f.gold), ExpectedStatus: 200, ExpectedContent: []string{`"playCount":2`}},
			apitest.Scenario{Name: "play alice again", Method: post, URL: "/api/app/vid/play", Token: alice, Body: body(`{"id":%d}`, f.svip), ExpectedStatus: 200},
			apitest.Scenario{Name: "report", Method: post, URL: "/api/app/vid/report", Token: alice, Body: body(`{"id":%d,"reason":"broken"}`, f.free), ExpectedStatus: 200, ExpectedContent: []string{`"isNew":true`}},
			apitest.Scenario{Name: "report again", Method: post, URL: "/api/app/vid/report", Token: alice, Body: body(`{"id":%d,"reason":"other"}`, f.free), ExpectedStatus: 200, ExpectedContent: []string{`"isNew":false`}},
			apitest.Scenario{Name: "report reasons", URL: "/api/app/vid/report/reasons", ExpectedStatus: 200, ExpectedContent: []string{`"code":"broken"`, "无法播放"}},
			apitest.Scenario{Name: "alice's reportVid", URL: "/api/app/mine/info", Token: alice, ExpectedStatus: 200, ExpectedContent: []string{fmt.Sprintf(`"reportVid":[%d]`, f.free)}},
			apitest.Scenario{Name: "bob's reportVid", URL: "/api/app/mine/info", Token: bob, ExpectedStatus: 200, ExpectedContent: []string{`"reportVid":[]`}},
		)
		type page struct {
			List []struct {
				ID int64 `json:"id"`
			} `json:"list"`
			Total   int  `json:"total"`
			HasMore bool `json:"hasMore"`
		}
		list := func(name, url, tok string, want ...int64) apitest.Scenario {
			return apitest.Scenario{Name: name, URL: url, Token: tok, ExpectedStatus: 200, Check: func(t *testing.T, res *apitest.Response) {
				p := apitest.Data[page](t, res)
				got := []int64{}
				for _, v := range p.List {
					got = append(got, v.ID)
				}
				if !slices.Equal(got, want) || p.Total != len(want) {
					t.Fatalf("%s: %v (total %d), want %v", url, got, p.Total, want)
				}
			}}
		}
		apitest.Run(t, h,
			list("alice's likes", "/api/app/mine/like/infoList?pageNumber=1&pageSize=10", alice, f.free),
			list("bob's likes", "/api/app/mine/like/infoList", bob),
			list("alice's favourites", "/api/app/mine/collect/infoList", alice, f.vip),
			list("alice's collection", "/api/app/mine/collection", alice, f.vip),
			list("bob's favourites", "/api/app/mine/collect/infoList", bob),
			// Both plays fell in the same second (times are whole seconds);
			// a tie lists the higher video id first. The service tests
			// check the order of plays with a moving clock.
			list("alice's history", "/api/app/mine/history", alice, max(f.svip, f.gold), min(f.svip, f.gold)),
			list("bob's history", "/api/app/mine/history", bob),
			apitest.Scenario{Name: "pageSize 0", URL: "/api/app/mine/like/infoList?pageSize=0", Token: alice, ExpectedStatus: 422, ExpectedTip: "pageSize"},
			apitest.Scenario{Name: "pageSize 51", URL: "/api/app/mine/history?pageSize=51", Token: alice, ExpectedStatus: 422},
			apitest.Scenario{Name: "pageNumber 0", URL: "/api/app/mine/collect/infoList?pageNumber=0", Token: alice, ExpectedStatus: 422},
			apitest.Scenario{Name: "pageNumber text", URL: "/api/app/mine/collection?pageNumber=x", Token: alice, ExpectedStatus: 422},
		)
	})
}

// Parallel double clicks through the whole stack: one row, the count up by one.
func TestLikeDoubleClickAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		f := newVideoFixture(t, s)
		token := apitest.GuestLogin(t, s.Handler, apitest.DevID(1))
		var wg sync.WaitGroup
		codes := make([]int, 12)
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res := apitest.Scenario{Method: post, URL: "/api/app/vid/like", Token: token, Body: fmt.Sprintf(`{"id":%d,"isLike":true}`, f.free)}.Send(t, s.Handler)
				codes[i] = res.Code
			}()
		}
		wg.Wait()
		for _, c := range codes {
			if c != 200 {
				t.Fatalf("statuses %v", codes)
			}
		}
		if n := countRows(t, s, "SELECT COUNT(*) FROM video_likes"); n != 1 {
			t.Fatalf("%d rows", n)
		}
		if n := countRows(t, s, "SELECT like_count FROM videos WHERE id = ?", f.free); n != 1 {
			t.Fatalf("like_count %d", n)
		}
	})
}
