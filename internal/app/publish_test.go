package app_test

import (
	"fmt"
	"strings"
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
)

// TestPublishAPI runs publishing through the whole server: real uploads,
// the refusals (anonymous 401, guest 403, bad input 422, another user's
// upload 404, a reused clientID 409), a retry, and the rules.
func TestPublishAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		alice, _ := register(t, s, "alice_pub")
		bob, _ := register(t, s, "bobby_pub")
		guest := apitest.GuestLogin(t, s.Handler, apitest.DevID(7))
		o := &ops{s: s}
		p1 := upload(t, s, alice, "a.jpg", jpegBytes(t))
		p2 := upload(t, s, alice, "b.jpg", jpegBytes(t))
		bobPic := upload(t, s, bob, "c.jpg", jpegBytes(t))

		rules := decode[struct {
			Rules  string `json:"rules"`
			Review bool   `json:"review"`
			Limits struct {
				TitleMax, TextMax, ArticleMax, Pictures int
			} `json:"limits"`
		}](t, o.call(t, "", "GET", "/api/app/community/rules", "", 200))
		if rules.Review || rules.Limits.TitleMax != 50 || rules.Limits.TextMax != 2000 || rules.Limits.ArticleMax != 20000 || rules.Limits.Pictures != 9 {
			t.Fatalf("rules %+v", rules)
		}

		body := fmt.Sprintf(`{"kind":"picture","text":"你好","pictures":[%d,%d],"clientID":"k1"}`, p2, p1)
		o.call(t, "", "POST", "/api/app/community/post", body, 401)
		o.call(t, guest, "POST", "/api/app/community/post", body, 403, "注册")
		o.call(t, alice, "POST", "/api/app/community/post", `{"kind":"picture","text":"x","pictures":[]}`, 422, "至少")
		o.call(t, alice, "POST", "/api/app/community/post", `{"kind":"picture","pictures":[1,2,3,4,5,6,7,8,9,10]}`, 422, "9")
		o.call(t, alice, "POST", "/api/app/community/post", fmt.Sprintf(`{"kind":"picture","text":"a\u0000b","pictures":[%d]}`, p1), 422)
		o.call(t, alice, "POST", "/api/app/community/post", fmt.Sprintf(`{"kind":"picture","pictures":[%d]}`, bobPic), 404)
		o.call(t, alice, "POST", "/api/app/community/post", fmt.Sprintf(`{"kind":"picture","pictures":[%d],"topicID":99999}`, p1), 404)
		o.call(t, alice, "POST", "/api/app/community/post", fmt.Sprintf(`{"kind":"picture","pictures":[%d],"coins":-5}`, p1), 422)
		o.call(t, alice, "POST", "/api/app/community/post", `{"kind":"picture","pictures":"1"}`, 400)
		if n := o.count(t, `SELECT COUNT(*) FROM posts`); n != 0 {
			t.Fatalf("refusals wrote %d posts", n)
		}

		type created struct {
			ID    int64  `json:"id"`
			State string `json:"state"`
		}
		c := decode[created](t, o.call(t, alice, "POST", "/api/app/community/post", body, 200))
		if c.ID == 0 || c.State != "published" {
			t.Fatalf("created %+v", c)
		}
		if again := decode[created](t, o.call(t, alice, "POST", "/api/app/community/post", body, 200)); again != c {
			t.Fatalf("retry %+v, want %+v", again, c)
		}
		o.call(t, alice, "POST", "/api/app/community/post", strings.Replace(body, "你好", "变了", 1), 409)
		if n := o.count(t, `SELECT COUNT(*) FROM posts`); n != 1 {
			t.Fatalf("%d posts after a retry", n)
		}

		art := decode[created](t, o.call(t, alice, "POST", "/api/app/community/post",
			fmt.Sprintf(`{"kind":"article","title":"长文标题","html":"<h2>一</h2><p><b>粗</b><script>alert(1)</script></p><ul><li>甲</li></ul><img data-asset=\"%d\" src=\"javascript:x\">"}`, p1), 200))
		var stored string
		if err := s.App.DB.QueryRow(t.Context(), `SELECT body FROM posts WHERE id = ?`, art.ID).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf(`<h2>一</h2><p><b>粗</b></p><ul><li>甲</li></ul><img data-asset="%d">`, p1); stored != want {
			t.Fatalf("stored %q, want %q", stored, want)
		}
		// An operator mute answers 403 with its end in the tip.
		o.call(t, bob, "POST", "/api/app/community/post", fmt.Sprintf(`{"kind":"picture","pictures":[%d]}`, bobPic), 200)
		if _, err := s.App.DB.Exec(t.Context(), `INSERT INTO community_mutes (user_id, muted_until, created_at)
			SELECT id, 4102444800, 1 FROM users WHERE account = 'bobby_pub'`); err != nil {
			t.Fatal(err)
		}
		o.call(t, bob, "POST", "/api/app/community/post", fmt.Sprintf(`{"kind":"picture","pictures":[%d]}`, bobPic), 403, "禁言至 2100-01-01")
	})
}
