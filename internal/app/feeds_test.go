package app_test

import (
	"fmt"
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
)

// TestFeedsAPI runs the feeds through the whole server: a real upload and
// post, the public lists (signed pictures, never a pending post), the follow
// feed (401 without a token), the author's own list with states, topics and
// following them (anonymous 401, guest 403), and postCount.
func TestFeedsAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		alice, aliceID := register(t, s, "alice_feed")
		bob, _ := register(t, s, "bobby_feed")
		guest := apitest.GuestLogin(t, s.Handler, apitest.DevID(9))
		o := &ops{s: s}
		pic := upload(t, s, alice, "a.jpg", jpegBytes(t))
		type created struct {
			ID int64 `json:"id"`
		}
		pub := decode[created](t, o.call(t, alice, "POST", "/api/app/community/post", fmt.Sprintf(`{"kind":"picture","text":"公开","pictures":[%d]}`, pic), 200))
		held := decode[created](t, o.call(t, alice, "POST", "/api/app/community/post", fmt.Sprintf(`{"kind":"picture","text":"待审","pictures":[%d]}`, pic), 200))
		if _, err := s.App.DB.Exec(t.Context(), `UPDATE posts SET state = 'pending', published_at = 0 WHERE id = ?`, held.ID); err != nil {
			t.Fatal(err)
		}

		type card struct {
			ID       int64  `json:"id"`
			State    string `json:"state"`
			Pictures []struct {
				URL string `json:"url"`
			} `json:"pictures"`
		}
		type page struct {
			List  []card `json:"list"`
			Total int    `json:"total"`
		}
		ids := func(p page) []int64 {
			out := []int64{}
			for _, c := range p.List {
				out = append(out, c.ID)
			}
			return out
		}
		anon := decode[page](t, o.call(t, "", "GET", "/api/app/community/posts?feed=new", "", 200))
		if fmt.Sprint(ids(anon)) != fmt.Sprint([]int64{pub.ID}) || len(anon.List[0].Pictures) != 1 || anon.List[0].Pictures[0].URL == "" || anon.List[0].State != "" {
			t.Fatalf("anonymous feed %+v", anon)
		}
		o.call(t, "", "GET", "/api/app/community/posts?feed=follow", "", 401)
		o.call(t, "", "GET", "/api/app/community/posts?feed=new&uid=1", "", 422)
		if p := decode[page](t, o.call(t, bob, "GET", "/api/app/community/posts?feed=follow", "", 200)); len(p.List) != 0 {
			t.Fatalf("bob follows nobody: %+v", p)
		}
		o.call(t, bob, "POST", "/api/app/mine/follow", fmt.Sprintf(`{"followUID":%d,"isFollow":true}`, aliceID), 200)
		if p := decode[page](t, o.call(t, bob, "GET", "/api/app/community/posts?feed=follow", "", 200)); fmt.Sprint(ids(p)) != fmt.Sprint([]int64{pub.ID}) {
			t.Fatalf("bob's follow feed %+v", p)
		}
		own := decode[page](t, o.call(t, alice, "GET", fmt.Sprintf("/api/app/community/posts?uid=%d", aliceID), "", 200))
		if fmt.Sprint(ids(own)) != fmt.Sprint([]int64{held.ID, pub.ID}) || own.List[0].State != "pending" {
			t.Fatalf("alice's own list %+v", own)
		}
		if p := decode[page](t, o.call(t, bob, "GET", fmt.Sprintf("/api/app/community/posts?uid=%d", aliceID), "", 200)); fmt.Sprint(ids(p)) != fmt.Sprint([]int64{pub.ID}) {
			t.Fatalf("alice's list seen by bob %+v", p)
		}
		ext := decode[struct {
			PostCount int64 `json:"postCount"`
		}](t, o.call(t, "", "GET", fmt.Sprintf("/api/app/mine/getUserExtension?uid=%d", aliceID), "", 200))
		if ext.PostCount != 1 {
			t.Fatalf("postCount %d, want 1", ext.PostCount)
		}

		var topic int64
		if err := s.App.DB.QueryRow(t.Context(), `INSERT INTO topics (name, created_at) VALUES ('测试话题', 1) RETURNING id`).Scan(&topic); err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf(`{"id":%d,"isFollow":true}`, topic)
		o.call(t, "", "POST", "/api/app/community/topic/follow", body, 401)
		o.call(t, guest, "POST", "/api/app/community/topic/follow", body, 403, "注册")
		o.call(t, bob, "POST", "/api/app/community/topic/follow", `{"id":0,"isFollow":true}`, 422)
		res := decode[struct {
			Followed    bool  `json:"followed"`
			FollowCount int64 `json:"followCount"`
		}](t, o.call(t, bob, "POST", "/api/app/community/topic/follow", body, 200))
		if !res.Followed || res.FollowCount != 1 {
			t.Fatalf("follow %+v", res)
		}
		o.call(t, "", "GET", "/api/app/community/topic/followed", "", 401)
		fl := decode[struct {
			List []struct {
				ID       int64 `json:"id"`
				Followed bool  `json:"followed"`
			} `json:"list"`
		}](t, o.call(t, bob, "GET", "/api/app/community/topic/followed", "", 200))
		if len(fl.List) != 1 || fl.List[0].ID != topic || !fl.List[0].Followed {
			t.Fatalf("followed %+v", fl)
		}
		o.call(t, "", "GET", fmt.Sprintf("/api/app/community/topic?id=%d", topic), "", 200)
		o.call(t, "", "GET", "/api/app/community/topics?sort=hot", "", 200)
		o.call(t, "", "GET", "/api/app/community/topic?id=424242", "", 404, "话题不存在")
	})
}
