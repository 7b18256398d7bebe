package app_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
)

// register signs up a new user (no guest first) and returns its token and uid.
func register(t *testing.T, s *apptest.Server, account string) (string, int64) {
	t.Helper()
	res := apitest.Scenario{Method: "POST", URL: "/api/app/mine/register", Body: `{"account":"` + account + `","passWord":"secret12"}`, ExpectedStatus: 200}.Run(t, s.Handler)
	d := apitest.Data[struct {
		Token string `json:"token"`
		User  struct {
			UID int64 `json:"uid"`
		} `json:"user"`
	}](t, res)
	return d.Token, d.User.UID
}

// TestProfileAndFollowAPI runs the people calls through the whole server:
// editing a profile with an uploaded portrait, following, counts, lists and
// the public profile, with the refusals that must change nothing.
func TestProfileAndFollowAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		alice, aUID := register(t, s, "alice_p")
		bob, bUID := register(t, s, "bobby_p")
		guestTok := apitest.GuestLogin(t, s.Handler, apitest.DevID(9))
		pic := upload(t, s, alice, "me.jpg", jpegBytes(t))
		o := &ops{s: s}

		// Bob cannot take Alice's picture; a missing asset answers alike.
		o.call(t, bob, "POST", "/api/app/mine/info", fmt.Sprintf(`{"portrait":%d}`, pic), 404, "头像图片不存在")
		o.call(t, bob, "POST", "/api/app/mine/info", `{"portrait":987654}`, 404)
		o.call(t, alice, "POST", "/api/app/mine/info", `{"name":"官方客服"}`, 422, "保留词")
		o.call(t, alice, "POST", "/api/app/mine/info", `{"name":"a\u0000b"}`, 422)
		o.call(t, alice, "POST", "/api/app/mine/info", `{"gender":7}`, 422)
		o.call(t, alice, "POST", "/api/app/mine/info", `{"gender":"1"}`, 400)
		o.call(t, alice, "POST", "/api/app/mine/info", `{}`, 422)
		o.call(t, "", "POST", "/api/app/mine/info", `{"bio":"x"}`, 401)

		info := decode[struct {
			Name     string `json:"name"`
			Portrait string `json:"portrait"`
			Gender   int    `json:"gender"`
			Bio      string `json:"bio"`
		}](t, o.call(t, alice, "POST", "/api/app/mine/info", fmt.Sprintf(`{"name":" 爱丽丝 ","portrait":%d,"gender":2,"bio":"拍照的人"}`, pic), 200))
		if info.Name != "爱丽丝" || info.Gender != 2 || info.Bio != "拍照的人" || !strings.HasPrefix(info.Portrait, "/media/covers/") {
			t.Fatalf("edited %+v", info)
		}
		// The portrait is public: anyone loads it without a signature.
		rec := httptest.NewRecorder()
		s.Handler.ServeHTTP(rec, httptest.NewRequest("GET", info.Portrait, nil))
		if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "image/") {
			t.Fatalf("portrait GET: %d %s", rec.Code, rec.Header().Get("Content-Type"))
		}

		// Follows: a guest may not, bad input is refused, nothing changes.
		o.call(t, guestTok, "POST", "/api/app/mine/follow", fmt.Sprintf(`{"followUID":%d,"isFollow":true}`, aUID), 403, "注册")
		o.call(t, bob, "POST", "/api/app/mine/follow", fmt.Sprintf(`{"followUID":%d,"isFollow":true}`, bUID), 422, "不能关注自己")
		o.call(t, bob, "POST", "/api/app/mine/follow", `{"followUID":987654,"isFollow":true}`, 404)
		o.call(t, bob, "POST", "/api/app/mine/follow", `{"followUID":-3,"isFollow":true}`, 422)
		o.call(t, bob, "POST", "/api/app/mine/follow", fmt.Sprintf(`{"followUID":%d}`, aUID), 422)
		o.call(t, bob, "POST", "/api/app/mine/follow", `{"isFollow":true}`, 422)
		o.call(t, "", "POST", "/api/app/mine/follow", fmt.Sprintf(`{"followUID":%d,"isFollow":true}`, aUID), 401)
		if n := o.count(t, `SELECT COUNT(*) FROM follows`); n != 0 {
			t.Fatalf("refused follows left %d rows", n)
		}

		type result struct {
			FollowUID int64 `json:"followUID"`
			IsFollow  bool  `json:"isFollow"`
			FansCount int64 `json:"fansCount"`
		}
		r := decode[result](t, o.call(t, bob, "POST", "/api/app/mine/follow", fmt.Sprintf(`{"followUID":%d,"isFollow":true}`, aUID), 200))
		if r != (result{aUID, true, 1}) {
			t.Fatalf("follow %+v", r)
		}
		if n := o.count(t, `SELECT COUNT(*) FROM notices WHERE user_id = ? AND kind = 'follow' AND actor_id = ?`, aUID, bUID); n != 1 {
			t.Fatalf("%d follow notices", n)
		}

		// Bob sees Alice's profile with isFollow; Alice sees Bob's without.
		type profile struct {
			Name     string `json:"name"`
			IsFollow bool   `json:"isFollow"`
			Bio      string `json:"bio"`
			Gender   int    `json:"gender"`
			Account  string `json:"account"`
		}
		p := decode[profile](t, o.call(t, bob, "GET", fmt.Sprintf("/api/app/mine/info?uid=%d", aUID), "", 200))
		if !p.IsFollow || p.Bio != "拍照的人" || p.Gender != 2 || p.Account != "" {
			t.Fatalf("alice as bob sees her %+v", p)
		}
		if p = decode[profile](t, o.call(t, alice, "GET", fmt.Sprintf("/api/app/mine/info?uid=%d", bUID), "", 200)); p.IsFollow {
			t.Fatal("alice follows bob?")
		}

		// Counts: the caller's own, anyone's by uid (anonymous too).
		type ext struct {
			UID         int64 `json:"uid"`
			FollowCount int64 `json:"followCount"`
			FansCount   int64 `json:"fansCount"`
			LikeCount   int64 `json:"likeCount"`
			PostCount   int64 `json:"postCount"`
		}
		if e := decode[ext](t, o.call(t, alice, "GET", "/api/app/mine/getUserExtension", "", 200)); e != (ext{aUID, 0, 1, 0, 0}) {
			t.Fatalf("alice's counts %+v", e)
		}
		if e := decode[ext](t, o.call(t, "", "GET", fmt.Sprintf("/api/app/mine/getUserExtension?uid=%d", bUID), "", 200)); e != (ext{bUID, 1, 0, 0, 0}) {
			t.Fatalf("bob's counts %+v", e)
		}
		// Likes received: likes by others on videos made from Alice's uploads.
		f := newVideoFixture(t, s)
		if _, err := s.App.DB.Exec(context.Background(), `UPDATE videos SET media_id = ? WHERE id IN (?, ?)`, pic, f.free, f.gold); err != nil {
			t.Fatal(err)
		}
		o.call(t, bob, "POST", "/api/app/vid/like", fmt.Sprintf(`{"id":%d,"isLike":true}`, f.free), 200)
		o.call(t, bob, "POST", "/api/app/vid/like", fmt.Sprintf(`{"id":%d,"isLike":true}`, f.gold), 200)
		o.call(t, bob, "POST", "/api/app/vid/like", fmt.Sprintf(`{"id":%d,"isLike":true}`, f.vip), 200)    // not hers
		o.call(t, alice, "POST", "/api/app/vid/like", fmt.Sprintf(`{"id":%d,"isLike":true}`, f.free), 200) // her own like
		if e := decode[ext](t, o.call(t, bob, "GET", fmt.Sprintf("/api/app/mine/getUserExtension?uid=%d", aUID), "", 200)); e.LikeCount != 2 {
			t.Fatalf("alice's likes received %+v, want 2", e)
		}
		// Each of Bob's likes of her videos is an interaction notice for
		// Alice (not her own like, not the video made from someone else's
		// upload); unliking and liking again within a day adds none.
		o.call(t, bob, "POST", "/api/app/vid/like", fmt.Sprintf(`{"id":%d,"isLike":false}`, f.free), 200)
		o.call(t, bob, "POST", "/api/app/vid/like", fmt.Sprintf(`{"id":%d,"isLike":true}`, f.free), 200)
		if n := o.count(t, `SELECT COUNT(*) FROM notices WHERE user_id = ? AND kind = 'like' AND category = 'interaction' AND actor_id = ?`, aUID, bUID); n != 2 {
			t.Fatalf("%d like notices for alice, want 2", n)
		}
		if n := o.count(t, `SELECT COUNT(*) FROM notices WHERE kind = 'like' AND actor_id = ?`, aUID); n != 0 {
			t.Fatalf("%d like notices from alice's own like", n)
		}
		o.call(t, "", "GET", "/api/app/mine/getUserExtension", "", 401)
		o.call(t, "", "GET", "/api/app/mine/getUserExtension?uid=987654", "", 404)
		o.call(t, "", "GET", "/api/app/mine/getUserExtension?uid=abc", "", 422)

		// Lists: Alice's fans hold Bob; Bob's follows hold Alice.
		type page struct {
			List []struct {
				UID      int64  `json:"uid"`
				Name     string `json:"name"`
				Portrait string `json:"portrait"`
				Bio      string `json:"bio"`
				IsFollow bool   `json:"isFollow"`
			} `json:"list"`
			Total   int    `json:"total"`
			HasMore bool   `json:"hasMore"`
			Cursor  string `json:"cursor"`
		}
		fans := decode[page](t, o.call(t, alice, "GET", "/api/app/follow/list?type=fans", "", 200))
		if fans.Total != 1 || len(fans.List) != 1 || fans.List[0].UID != bUID || fans.List[0].IsFollow {
			t.Fatalf("alice's fans %+v", fans)
		}
		fl := decode[page](t, o.call(t, guestTok, "GET", fmt.Sprintf("/api/app/follow/list?type=follow&uid=%d", bUID), "", 200))
		if fl.Total != 1 || fl.List[0].UID != aUID || fl.List[0].Name != "爱丽丝" || fl.List[0].Portrait != info.Portrait {
			t.Fatalf("bob's follows %+v", fl)
		}
		o.call(t, alice, "GET", "/api/app/follow/list?type=both", "", 422)
		o.call(t, alice, "GET", "/api/app/follow/list?cursor=zzz", "", 422)
		o.call(t, alice, "GET", "/api/app/follow/list?pageSize=100000", "", 422)

		// Unfollow: the count drops, the list empties, isFollow clears.
		if r = decode[result](t, o.call(t, bob, "POST", "/api/app/mine/follow", fmt.Sprintf(`{"followUID":%d,"isFollow":false}`, aUID), 200)); r != (result{aUID, false, 0}) {
			t.Fatalf("unfollow %+v", r)
		}
		if fans = decode[page](t, o.call(t, alice, "GET", "/api/app/follow/list?type=fans", "", 200)); fans.Total != 0 || len(fans.List) != 0 {
			t.Fatalf("fans after unfollow %+v", fans)
		}
	})
}

// A video the user uploaded is theirs but no picture: 422, and the
// portrait stays as it was.
func TestPortraitMustBeAPicture(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg is not installed")
	}
	clip := filepath.Join(t.TempDir(), "clip.mp4")
	if out, err := exec.Command("ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=160x90:rate=10",
		"-t", "1", "-pix_fmt", "yuv420p", clip).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v %s", err, out)
	}
	clipBytes, _ := os.ReadFile(clip)
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		tok, _ := register(t, s, "carol_p")
		o := &ops{s: s}
		video := upload(t, s, tok, "clip.mp4", clipBytes)
		o.call(t, tok, "POST", "/api/app/mine/info", fmt.Sprintf(`{"portrait":%d,"bio":"x"}`, video), 422, "头像必须是上传成功的图片")
		info := decode[struct {
			Portrait string `json:"portrait"`
			Bio      string `json:"bio"`
		}](t, o.call(t, tok, "GET", "/api/app/mine/info", "", 200))
		if info.Portrait != "" || info.Bio != "" {
			t.Fatalf("a refused edit changed the profile: %+v", info)
		}
	})
}
