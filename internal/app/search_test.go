package app_test

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/platform/db"
	"prima/internal/search"
	"prima/internal/searchapi"
)

// searchFixture is one item of each kind that anyone may see, and beside
// each one that nobody but its owner (or nobody at all) may: all titled
// with 北京, so one query finds every one the rules let through.
type searchFixture struct {
	video, draftVideo, short, gallery, draftGallery int64
	post, pendingPost, removedPost, rejectedPost    int64
	topic, hiddenTopic, user, guest                 int64
	iphone, longModule                              int64
	postAuthorToken                                 string
}

// searchInsert runs one INSERT and returns the id it made.
func searchInsert(t *testing.T, d *db.DB, query string, args ...any) int64 {
	t.Helper()
	var id int64
	if err := d.QueryRow(context.Background(), query+" RETURNING id", args...).Scan(&id); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return id
}

func newSearchFixture(t *testing.T, s *apptest.Server) searchFixture {
	t.Helper()
	d := s.App.DB
	var f searchFixture
	mod := func(pid int64, name string, typ int) int64 {
		return searchInsert(t, d, `INSERT INTO modules (pid, name, module_type, sort, created_at) VALUES (?, ?, ?, 0, 1)`, pid, name, typ)
	}
	long := mod(0, "长视频", 0)
	f.longModule = long
	longSub := mod(long, "推荐", 0)
	short := mod(0, "短视频", 4)
	shortSub := mod(short, "热门", 4)
	pics := mod(0, "图集", 3)
	picsSub := mod(pics, "风景", 3)
	video := func(title string, module, sub int64, published, plays int) int64 {
		return searchInsert(t, d, `INSERT INTO videos (title, module_id, sub_module_id, published, play_count, duration, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, 60, 100, 100)`, title, module, sub, published, plays)
	}
	f.video = video("北京的猫咪日记", long, longSub, 1, 10)
	f.draftVideo = video("北京草稿视频", long, longSub, 0, 99)
	f.short = video("北京街头猫", short, shortSub, 1, 5)
	f.iphone = video("iPhone 教程：夜景拍照", long, longSub, 1, 3)
	gallery := func(title string, published int) int64 {
		return searchInsert(t, d, `INSERT INTO galleries (title, module_id, sub_module_id, published, created_at, updated_at) VALUES (?, ?, ?, ?, 100, 100)`,
			title, pics, picsSub, published)
	}
	f.gallery = gallery("北京风景图集", 1)
	f.draftGallery = gallery("北京未发布图集", 0)

	var author int64
	f.postAuthorToken, author = register(t, s, "beijing_author")
	if _, err := d.Exec(context.Background(), `UPDATE users SET name = '北京作者' WHERE id = ?`, author); err != nil {
		t.Fatal(err)
	}
	f.user = author
	f.guest = searchInsert(t, d, `INSERT INTO users (name, created_at, updated_at) VALUES ('北京游客', 1, 1)`)
	f.topic = searchInsert(t, d, `INSERT INTO topics (name, status, created_at) VALUES ('北京话题', 1, 1)`)
	f.hiddenTopic = searchInsert(t, d, `INSERT INTO topics (name, status, created_at) VALUES ('北京隐藏话题', 0, 1)`)
	post := func(body, state string) int64 {
		pub := 0
		if state == "published" {
			pub = 100
		}
		return searchInsert(t, d, `INSERT INTO posts (author_id, kind, topic_id, body, state, created_at, published_at, updated_at)
			VALUES (?, 'picture', ?, ?, ?, 100, ?, 100)`, author, f.topic, body, state, pub)
	}
	f.post = post("北京的猫在晒太阳", "published")
	f.pendingPost = post("北京待审核的帖子", "pending")
	f.removedPost = post("北京被删除的帖子", "removed")
	f.rejectedPost = post("北京被驳回的帖子", "rejected")
	if _, err := search.Reindex(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	return f
}

type searchResult struct {
	Kind  string   `json:"kind"`
	ID    int64    `json:"id"`
	Title string   `json:"title"`
	Marks [][2]int `json:"marks"`
	Video *struct {
		ID    int64  `json:"id"`
		Title string `json:"title"`
	} `json:"video"`
	Gallery *struct {
		ID int64 `json:"id"`
	} `json:"gallery"`
	Post *struct {
		ID    int64  `json:"id"`
		State string `json:"state"`
	} `json:"post"`
	Topic *struct {
		ID int64 `json:"id"`
	} `json:"topic"`
	User *struct {
		UID int64 `json:"uid"`
	} `json:"user"`
}

type searchPage struct {
	List       []searchResult `json:"list"`
	Total      int            `json:"total"`
	PageNumber int            `json:"pageNumber"`
	PageSize   int            `json:"pageSize"`
	HasMore    bool           `json:"hasMore"`
}

func resultIDs(rs []searchResult) []int64 {
	out := []int64{}
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func searchURL(q, kind string, extra ...string) string {
	u := "/api/app/search?q=" + url.QueryEscape(q) + "&kind=" + kind
	for _, e := range extra {
		u += "&" + e
	}
	return u
}

// TestSearchAPI runs the search calls through the whole server on both
// engines: every kind finds what anyone may see and nothing else (a draft
// video or gallery, a pending, rejected or removed post, a hidden topic, a
// guest), not even the author of a pending post, nor in suggestions; the
// cards are the domains' own; an item hidden behind the index's back is
// dropped by the hydration; overview, suggest, hot and pins.
func TestSearchAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		f := newSearchFixture(t, s)
		o := newOps(t, s)
		want := map[string][]int64{
			search.KindVideo: {f.video}, search.KindShort: {f.short}, search.KindGallery: {f.gallery},
			search.KindPost: {f.post}, search.KindTopic: {f.topic}, search.KindUser: {f.user},
		}
		hidden := []string{"草稿", "未发布", "待审核", "被删除", "被驳回", "隐藏", "游客"}
		for _, tok := range []string{"", f.postAuthorToken} {
			for _, kind := range search.Kinds {
				raw := o.call(t, tok, "GET", searchURL("北京", kind), "", 200)
				p := decode[searchPage](t, raw)
				if !slices.Equal(resultIDs(p.List), want[kind]) || p.Total != len(want[kind]) || p.HasMore {
					t.Fatalf("%s: %+v, want ids %v", kind, p, want[kind])
				}
				for _, h := range hidden {
					if strings.Contains(string(raw), h) {
						t.Fatalf("%s shows %q: %s", kind, h, raw)
					}
				}
				r := p.List[0]
				if r.Kind != kind || len(r.Marks) == 0 {
					t.Fatalf("%s: result %+v", kind, r)
				}
				// The marks are rune ranges of the title over the query.
				rs := []rune(r.Title)
				if m := r.Marks[0]; m[0] < 0 || m[1] > len(rs) || string(rs[m[0]:m[1]]) != "北京" {
					t.Fatalf("%s: marks %v of %q", kind, r.Marks, r.Title)
				}
				switch kind {
				case search.KindVideo, search.KindShort:
					if r.Video == nil || r.Video.ID != r.ID {
						t.Fatalf("%s: no video card %s", kind, raw)
					}
				case search.KindGallery:
					if r.Gallery == nil || r.Gallery.ID != r.ID {
						t.Fatalf("no gallery card %s", raw)
					}
				case search.KindPost:
					if r.Post == nil || r.Post.ID != r.ID || r.Post.State != "" && tok == "" {
						t.Fatalf("post card %s", raw)
					}
				case search.KindTopic:
					if r.Topic == nil || r.Topic.ID != r.ID {
						t.Fatalf("no topic card %s", raw)
					}
				case search.KindUser:
					if r.User == nil || r.User.UID != r.ID {
						t.Fatalf("no user card %s", raw)
					}
				}
			}
		}

		// A one-character query and a phrase find the same items.
		if p := decode[searchPage](t, o.call(t, "", "GET", searchURL("猫", search.KindVideo), "", 200)); !slices.Equal(resultIDs(p.List), []int64{f.video}) {
			t.Fatalf("猫: %+v", p)
		}
		if p := decode[searchPage](t, o.call(t, "", "GET", searchURL("猫咪日记", search.KindVideo), "", 200)); !slices.Equal(resultIDs(p.List), []int64{f.video}) {
			t.Fatalf("猫咪日记: %+v", p)
		}
		// Mixed Chinese and Latin, any case and width.
		for _, q := range []string{"iPhone 教程", "iphone", "ＩＰＨＯＮＥ　教程", "教程"} {
			if p := decode[searchPage](t, o.call(t, "", "GET", searchURL(q, search.KindVideo), "", 200)); !slices.Equal(resultIDs(p.List), []int64{f.iphone}) {
				t.Fatalf("%q: %+v", q, p)
			}
		}
		// Filters: a module with nothing in it, an access level.
		if p := decode[searchPage](t, o.call(t, "", "GET", searchURL("北京", search.KindVideo, "moduleID=424242"), "", 200)); len(p.List) != 0 {
			t.Fatalf("moduleID filter %+v", p)
		}
		if p := decode[searchPage](t, o.call(t, "", "GET", searchURL("北京", search.KindVideo, fmt.Sprintf("moduleID=%d", f.longModule), "vipLevel=0"), "", 200)); !slices.Equal(resultIDs(p.List), []int64{f.video}) {
			t.Fatalf("moduleID and vipLevel 0 %+v", p)
		}
		if p := decode[searchPage](t, o.call(t, "", "GET", searchURL("北京", search.KindVideo, "vipLevel=2"), "", 200)); len(p.List) != 0 {
			t.Fatalf("vipLevel filter %+v", p)
		}
		o.call(t, "", "GET", searchURL("北京", search.KindVideo, "sort=new"), "", 200)
		o.call(t, "", "GET", searchURL("北京", search.KindVideo, "sort=plays"), "", 200)

		// The overview: every kind in order, four at most each.
		ov := decode[struct {
			Q        string `json:"q"`
			Sections []struct {
				Kind  string         `json:"kind"`
				Total int            `json:"total"`
				List  []searchResult `json:"list"`
			} `json:"sections"`
		}](t, o.call(t, "", "GET", "/api/app/search/overview?q="+url.QueryEscape(" 北京 "), "", 200))
		if ov.Q != "北京" || len(ov.Sections) != len(search.Kinds) {
			t.Fatalf("overview %+v", ov)
		}
		for i, sec := range ov.Sections {
			if sec.Kind != search.Kinds[i] || !slices.Equal(resultIDs(sec.List), want[sec.Kind]) || sec.Total != 1 {
				t.Fatalf("overview section %d: %+v", i, sec)
			}
		}
		// A query with nothing found has no sections.
		if ov := decode[struct {
			Sections []any `json:"sections"`
		}](t, o.call(t, "", "GET", "/api/app/search/overview?q=zzzqqq", "", 200)); len(ov.Sections) != 0 {
			t.Fatalf("empty overview %+v", ov)
		}

		// Suggestions never name what nobody may see.
		sug := o.call(t, "", "GET", "/api/app/search/suggest?q="+url.QueryEscape("北"), "", 200)
		for _, h := range hidden {
			if strings.Contains(string(sug), h) {
				t.Fatalf("suggest shows %q: %s", h, sug)
			}
		}
		if l := decode[struct {
			List []string `json:"list"`
		}](t, sug).List; len(l) == 0 || len(l) > 8 {
			t.Fatalf("suggest %s", sug)
		}

		// Behind the index's back (a write that forgot its hook), a post is
		// removed and a video unpublished: the cards drop them anyway.
		if _, err := s.App.DB.Exec(t.Context(), `UPDATE posts SET state = 'removed' WHERE id = ?`, f.post); err != nil {
			t.Fatal(err)
		}
		if _, err := s.App.DB.Exec(t.Context(), `UPDATE videos SET published = 0 WHERE id = ?`, f.video); err != nil {
			t.Fatal(err)
		}
		for _, kind := range []string{search.KindPost, search.KindVideo} {
			if p := decode[searchPage](t, o.call(t, f.postAuthorToken, "GET", searchURL("北京", kind), "", 200)); len(p.List) != 0 {
				t.Fatalf("%s after a hidden change: %+v", kind, p)
			}
		}

		// Pins: operators only, audited, first in the hot words.
		o.call(t, "", "GET", "/api/admin/search/pins", "", 401)
		o.call(t, o.user, "GET", "/api/admin/search/pins", "", 401)
		o.call(t, o.user, "POST", "/api/admin/search/pins", `{"words":["猫"]}`, 401)
		o.call(t, o.op, "POST", "/api/admin/search/pins", `{}`, 422, "缺少参数 words")
		o.call(t, o.op, "POST", "/api/admin/search/pins", `{"words":[" "]}`, 422, "热词不能为空")
		o.call(t, o.op, "POST", "/api/admin/search/pins", `{"words":["猫","猫"]}`, 422, "重复")
		o.call(t, o.op, "POST", "/api/admin/search/pins", `{"words":["`+strings.Repeat("长", 21)+`"]}`, 422)
		o.call(t, o.op, "POST", "/api/admin/search/pins", `{"words":["a\u0000b"]}`, 422)
		o.call(t, o.op, "POST", "/api/admin/search/pins", `{"words":["1","2","3","4","5","6","7","8","9","10","11"]}`, 422)
		o.call(t, o.op, "POST", "/api/admin/search/pins", `{"words":["猫","!!!"]}`, 422, "热词需含有文字或数字")
		o.call(t, o.op, "POST", "/api/admin/search/pins", `{"words":"猫"}`, 400)
		if n := auditRows(t, s, "search.pins"); n != 0 {
			t.Fatalf("refused pins audited %d times", n)
		}
		if got := decode[struct {
			Words []string `json:"words"`
		}](t, o.call(t, o.op, "POST", "/api/admin/search/pins", `{"words":[" 北京美食 ","猫"]}`, 200)); !slices.Equal(got.Words, []string{"北京美食", "猫"}) {
			t.Fatalf("set pins answered %+v", got)
		}
		if n := auditRows(t, s, "search.pins"); n != 1 {
			t.Fatalf("pins audited %d times", n)
		}
		pins := decode[struct {
			Words []string `json:"words"`
		}](t, o.call(t, o.op, "GET", "/api/admin/search/pins", "", 200))
		if !slices.Equal(pins.Words, []string{"北京美食", "猫"}) {
			t.Fatalf("pins %+v", pins)
		}
		hot := decode[struct {
			List []search.HotWord `json:"list"`
		}](t, o.call(t, "", "GET", "/api/app/search/hot", "", 200))
		if len(hot.List) < 2 || hot.List[0].Word != "北京美食" || !hot.List[0].Pinned || hot.List[1].Word != "猫" || !hot.List[1].Pinned {
			t.Fatalf("hot %+v", hot)
		}
		// The pins editor shows the hot list the phone gets.
		if admin := decode[struct {
			Hot []search.HotWord `json:"hot"`
		}](t, o.call(t, o.op, "GET", "/api/admin/search/pins", "", 200)); !slices.Equal(admin.Hot, hot.List) {
			t.Fatalf("the console's hot list %+v, the phone's %+v", admin.Hot, hot.List)
		}
		o.call(t, o.op, "POST", "/api/admin/search/pins", `{"words":[]}`, 200)
		if pins := decode[struct {
			Words []string `json:"words"`
		}](t, o.call(t, o.op, "GET", "/api/admin/search/pins", "", 200)); len(pins.Words) != 0 {
			t.Fatalf("cleared pins %+v", pins)
		}
	})
}

// TestSearchRecordsOncePerClient: a refresh loop counts once a minute per
// client and word, page 2 does not count, a query that finds nothing does
// not count, and another client counts again.
func TestSearchRecordsOncePerClient(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		newSearchFixture(t, s)
		o := &ops{s: s}
		a := apitest.GuestLogin(t, s.Handler, apitest.DevID(21))
		b := apitest.GuestLogin(t, s.Handler, apitest.DevID(22))
		for range 5 {
			o.call(t, a, "GET", searchURL("北京", search.KindVideo), "", 200)
			o.call(t, a, "GET", "/api/app/search/overview?q="+url.QueryEscape("北京"), "", 200)
			o.call(t, a, "GET", searchURL("北京", search.KindVideo, "pageNumber=2"), "", 200)
			o.call(t, a, "GET", "/api/app/search/overview?q=zzzqqq", "", 200)
		}
		count := func(word string) int64 {
			hot, err := search.Hot(t.Context(), s.App.DB, time.Now(), 10)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range hot {
				if h.Word == word {
					return h.Count
				}
			}
			return 0
		}
		if n := count("北京"); n != 1 {
			t.Fatalf("one client's loop counted %d times", n)
		}
		if n := count("zzzqqq"); n != 0 {
			t.Fatalf("a query that found nothing counted %d times", n)
		}
		o.call(t, b, "GET", "/api/app/search/overview?q="+url.QueryEscape("北京"), "", 200)
		if n := count("北京"); n != 2 {
			t.Fatalf("two clients counted %d times", n)
		}
	})
}

// TestSearchBadInput sends the bad-input corpus through the whole server:
// each answer is a 422 with a tip or a 200 (an empty result or the text
// searched as plain words), never a 5xx, and nothing is recorded or
// changed by a refused one.
func TestSearchBadInput(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		newSearchFixture(t, s)
		o := &ops{s: s}
		tok := apitest.GuestLogin(t, s.Handler, apitest.DevID(31))
		long := strings.Repeat("北", 1000)
		refused := []struct{ q, tip string }{
			{"", "请输入搜索内容"}, {"   ", "请输入搜索内容"}, {"\x00", "请输入搜索内容"}, {"\t\r\n\x1b\x7f", "请输入搜索内容"},
			{"\u3000", "请输入搜索内容"}, {long, "不能超过"}, {strings.Repeat("a", 101), "不能超过"},
		}
		for _, c := range refused {
			for _, path := range []string{searchURL(c.q, search.KindPost), "/api/app/search/overview?q=" + url.QueryEscape(c.q)} {
				o.call(t, tok, "GET", path, "", 422, c.tip)
			}
		}
		// Bytes that are not UTF-8 are dropped; a broken escape drops q.
		o.call(t, tok, "GET", "/api/app/search?kind=post&q=%FF%FE", "", 422, "请输入搜索内容")
		o.call(t, tok, "GET", "/api/app/search?kind=post&q=%zz", "", 422, "请输入搜索内容")
		o.call(t, tok, "GET", "/api/app/search?kind=post&q=%E5%8C%97%ED%A0%80%FF", "", 200)
		o.call(t, tok, "GET", "/api/app/search/overview?q=%C0%80", "", 422, "请输入搜索内容")
		// Suggest answers an empty prefix with an empty list (the box was
		// cleared while it typed) and a long one like the others.
		if l := decode[struct {
			List []string `json:"list"`
		}](t, o.call(t, tok, "GET", "/api/app/search/suggest?q=%20", "", 200)); len(l.List) != 0 {
			t.Fatalf("empty suggest %+v", l)
		}
		o.call(t, tok, "GET", "/api/app/search/suggest?q="+url.QueryEscape(long), "", 422, "不能超过")
		// Exactly the limit is fine.
		o.call(t, tok, "GET", searchURL(strings.Repeat("北", search.MaxQueryRunes), search.KindPost), "", 200)

		// Query syntax of either engine is plain text: 200, never a 5xx.
		plain := []string{`"`, `'`, `""`, `"北京`, `NEAR(a b)`, `NEAR(北京 猫, 2)`, `*`, `北*`, `a OR b`, `北京 OR 1=1`, `title:x`, `title:北京`,
			`'; DROP TABLE users; --`, `%`, `_`, `\`, `北京 AND NOT 猫`, `^北京`, `-猫`, `(`, `)`, `{}`, `北京:*`, `!北京`, `北京 & 猫 | 狗`,
			"北京\x00猫", "北\u202e京", "<script>alert(1)</script>", "😀", "ｉＰｈｏｎｅ　教程", "a\x1bb"}
		for _, q := range plain {
			for _, path := range []string{searchURL(q, search.KindPost), searchURL(q, search.KindUser), "/api/app/search/overview?q=" + url.QueryEscape(q), "/api/app/search/suggest?q=" + url.QueryEscape(q)} {
				res := apitest.Scenario{URL: path, Token: tok}.Send(t, s.Handler)
				if res.Code != 200 {
					t.Fatalf("%s: %d %s", path, res.Code, res.Body)
				}
			}
		}
		// The control characters are stripped: 北京\x00猫 searches 北京猫.
		var users int
		if err := s.App.DB.QueryRow(t.Context(), `SELECT COUNT(*) FROM users`).Scan(&users); err != nil || users == 0 {
			t.Fatalf("users table after the corpus: %d %v", users, err)
		}

		// Unknown kinds and sorts, bad numbers.
		for _, c := range []struct{ path, tip string }{
			{"/api/app/search?q=a", "搜索类型无效"},
			{"/api/app/search?q=a&kind=videos", "搜索类型无效"},
			{"/api/app/search?q=a&kind=VIDEO", "搜索类型无效"},
			{"/api/app/search?q=a&kind=post&sort=hot", "排序方式无效"},
			{"/api/app/search?q=a&kind=post&sort=1%3BDROP", "排序方式无效"},
			{"/api/app/search?q=a&kind=post&pageNumber=-1", "pageNumber"},
			{"/api/app/search?q=a&kind=post&pageNumber=0", "pageNumber"},
			{"/api/app/search?q=a&kind=post&pageNumber=99999999999999999999", "pageNumber"},
			{"/api/app/search?q=a&kind=post&pageNumber=100000", "pageNumber"},
			{"/api/app/search?q=a&kind=post&pageSize=0", "pageSize"},
			{"/api/app/search?q=a&kind=post&pageSize=51", "pageSize"},
			{"/api/app/search?q=a&kind=post&pageSize=abc", "pageSize"},
			{"/api/app/search?q=a&kind=post&moduleID=-5", "moduleID"},
			{"/api/app/search?q=a&kind=post&vipLevel=3", "vipLevel"},
			{"/api/app/search?q=a&kind=post&vipLevel=-2", "vipLevel"},
		} {
			o.call(t, tok, "GET", c.path, "", 422, c.tip)
		}
		// The deepest page is empty, not an error.
		if p := decode[searchPage](t, o.call(t, tok, "GET", "/api/app/search?q=北京&kind=post&pageNumber=200&pageSize=50", "", 200)); len(p.List) != 0 || p.HasMore {
			t.Fatalf("deep page %+v", p)
		}
		hot, err := search.Hot(t.Context(), s.App.DB, time.Now(), 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hot {
			if strings.ContainsAny(h.Word, "\x00\x1b") || h.Word == "" || len([]rune(h.Word)) > search.MaxQueryRunes {
				t.Fatalf("hot word %q recorded", h.Word)
			}
		}
	})
}

// TestSearchRecordsInParallel: on both engines, twenty parallel searches
// of one client count once, and twenty clients searching at once count
// twenty (the upsert of the day's counter loses none).
func TestSearchRecordsInParallel(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		newSearchFixture(t, s)
		tok := apitest.GuestLogin(t, s.Handler, apitest.DevID(41))
		run := func(n int, sc func(i int) apitest.Scenario) {
			var wg sync.WaitGroup
			codes := make([]int, n)
			for i := range n {
				wg.Add(1)
				go func() {
					defer wg.Done()
					codes[i] = sc(i).Send(t, s.Handler).Code
				}()
			}
			wg.Wait()
			for i, c := range codes {
				if c != 200 {
					t.Fatalf("request %d: %d", i, c)
				}
			}
		}
		count := func(word string) int64 {
			hot, err := search.Hot(t.Context(), s.App.DB, time.Now(), 10)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range hot {
				if h.Word == word {
					return h.Count
				}
			}
			return 0
		}
		run(20, func(int) apitest.Scenario {
			return apitest.Scenario{URL: "/api/app/search/overview?q=" + url.QueryEscape("猫"), Token: tok}
		})
		if n := count("猫"); n != 1 {
			t.Fatalf("one client in parallel counted %d", n)
		}
		run(20, func(i int) apitest.Scenario {
			return apitest.Scenario{URL: searchURL("北京", search.KindPost), RemoteAddr: fmt.Sprintf("198.51.100.%d:1234", i+1)}
		})
		if n := count("北京"); n != 20 {
			t.Fatalf("twenty clients counted %d", n)
		}
	})
}

// TestSearchRate: one client's search calls past searchapi.Rate answer 429
// with Retry-After and the tip; another client is not affected.
func TestSearchRate(t *testing.T) {
	saved := searchapi.Rate
	searchapi.Rate.N = 5
	t.Cleanup(func() { searchapi.Rate = saved })
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := &ops{s: s}
		a := apitest.GuestLogin(t, s.Handler, apitest.DevID(51))
		b := apitest.GuestLogin(t, s.Handler, apitest.DevID(52))
		paths := []string{searchURL("猫", search.KindPost), "/api/app/search/overview?q=a", "/api/app/search/suggest?q=a", "/api/app/search/hot", "/api/app/search/hot"}
		for _, p := range paths {
			o.call(t, a, "GET", p, "", 200)
		}
		res := apitest.Scenario{URL: "/api/app/search/hot", Token: a, ExpectedStatus: 429, ExpectedTip: "搜索太频繁"}.Run(t, s.Handler)
		if res.Header().Get("Retry-After") == "" {
			t.Fatal("429 without Retry-After")
		}
		o.call(t, b, "GET", "/api/app/search/hot", "", 200)
	})
}

// TestSearchPinsInParallel: operators saving pins at the same moment each
// get a 200 (one list wins whole, never a mix or a 5xx), on both engines.
func TestSearchPinsInParallel(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := newOps(t, s)
		lists := []string{`{"words":["猫","狗"]}`, `{"words":["狗","猫"]}`, `{"words":["猫"]}`, `{"words":["北京","猫","狗"]}`}
		var wg sync.WaitGroup
		codes := make([]int, 16)
		for i := range codes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				codes[i] = apitest.Scenario{Method: "POST", URL: "/api/admin/search/pins", Body: lists[i%len(lists)], Token: o.op}.Send(t, s.Handler).Code
			}()
		}
		wg.Wait()
		for i, c := range codes {
			if c != 200 {
				t.Fatalf("save %d: %d", i, c)
			}
		}
		got := decode[struct {
			Words []string `json:"words"`
		}](t, o.call(t, o.op, "GET", "/api/admin/search/pins", "", 200))
		ok := false
		for _, l := range lists {
			if fmt.Sprintf(`{"words":["%s"]}`, strings.Join(got.Words, `","`)) == l {
				ok = true
			}
		}
		if !ok {
			t.Fatalf("pins after the race %v are none of the lists saved", got.Words)
		}
		if n := auditRows(t, s, "search.pins"); n != len(codes) {
			t.Fatalf("%d saves audited %d times", len(codes), n)
		}
	})
}
