package community

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/ratelimit"
)

// publishAssetRow writes a media asset row (the upload pipeline has its own
// tests); kind image|video, state processing|ready|failed.
func publishAssetRow(t *testing.T, d *db.DB, owner int64, kind, state string) int64 {
	t.Helper()
	var id int64
	err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		return tx.QueryRow(ctx, `INSERT INTO media_assets (owner_uid, kind, state, source_key, created_at, updated_at)
			VALUES (?, ?, ?, 'src', 1, 1) RETURNING id`, owner, kind, state).Scan(&id)
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func publishCounts(t *testing.T, d *db.DB) string {
	return fmt.Sprint(scalar(t, d, `SELECT COUNT(*) FROM posts`), scalar(t, d, `SELECT COUNT(*) FROM post_pictures`))
}

func wantPublishBad(t *testing.T, err error, what string) {
	t.Helper()
	var bad *PostInputError
	if !errors.As(err, &bad) {
		t.Errorf("%s: %v, want a 422 input error", what, err)
	}
}

func TestCreatePostRules(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, c := newTest(t, d)
		alice, bob := user(t, d, "alice", true), user(t, d, "bobby", true)
		guest := user(t, d, "游客XYZ", false)
		p1, p2 := publishAssetRow(t, d, alice, "image", "ready"), publishAssetRow(t, d, alice, "image", "ready")
		busy := publishAssetRow(t, d, alice, "image", "processing")
		vid := publishAssetRow(t, d, alice, "video", "processing")
		failed := publishAssetRow(t, d, alice, "video", "failed")
		bobPic := publishAssetRow(t, d, bob, "image", "ready")
		if _, err := d.Exec(ctx, `INSERT INTO topics (name, created_at) VALUES ('猫', 1), ('藏', 1)`); err != nil {
			t.Fatal(err)
		}
		d.Exec(ctx, `UPDATE topics SET status = 0 WHERE name = '藏'`)
		topic := scalar(t, d, `SELECT id FROM topics WHERE name = '猫'`)
		hidden := scalar(t, d, `SELECT id FROM topics WHERE name = '藏'`)
		if _, err := d.Exec(ctx, `INSERT INTO modules (id, pid, name, module_type, created_at) VALUES (501, 0, '社区', 1, 1), (502, 501, '自拍', 1, 1), (503, 0, '视频', 0, 1), (504, 503, '电影', 0, 1)`); err != nil {
			t.Fatal(err)
		}

		// A picture post, published at once (review off), pictures in order.
		got, err := s.CreatePost(ctx, alice, PostInput{Kind: KindPicture, Title: "  周末  ", Text: " 第一行\r\n第二行\t好 ", Pictures: []int64{p2, p1},
			TopicID: topic, ModuleID: 502, VipLevel: 1, Coins: 30})
		if err != nil || got.State != StatePublished || got.ID == 0 {
			t.Fatalf("create: %+v %v", got, err)
		}
		r, _ := loadPost(ctx, d, got.ID)
		if r.author != alice || r.title != "周末" || r.body != "第一行\n第二行\t好" || r.topic != topic || r.module != 502 ||
			r.vipLevel != 1 || r.coins != 30 || r.published != c.now().Unix() || r.created != c.now().Unix() {
			t.Fatalf("row %+v", r)
		}
		pics, _ := pictureIDs(ctx, d, []int64{got.ID})
		if fmt.Sprint(pics[got.ID]) != fmt.Sprint([]int64{p2, p1}) {
			t.Fatalf("pictures %v", pics[got.ID])
		}

		// A video post with a video still processing; an article.
		if v, err := s.CreatePost(ctx, alice, PostInput{Kind: KindVideo, Text: "看", VideoAssetID: vid}); err != nil || v.State != StatePublished {
			t.Fatalf("video: %+v %v", v, err)
		}
		a, err := s.CreatePost(ctx, alice, PostInput{Kind: KindArticle, Title: "长文", HTML: fmt.Sprintf(`<h2>标题</h2><p onclick="x()">你好<script>alert(1)</script></p><img src="https://evil/x.png" data-asset="%d" onerror="x()">`, p1)})
		if err != nil {
			t.Fatal(err)
		}
		r, _ = loadPost(ctx, d, a.ID)
		if want := fmt.Sprintf(`<h2>标题</h2><p>你好</p><img data-asset="%d">`, p1); r.body != want {
			t.Fatalf("article body %q, want %q", r.body, want)
		}
		if n := scalar(t, d, `SELECT COUNT(*) FROM post_pictures WHERE post_id = ?`, a.ID); n != 0 {
			t.Fatalf("an article wrote %d post_pictures", n)
		}

		// Refusals: each changes nothing.
		before := publishCounts(t, d)
		ten := []int64{p1, p2, 3, 4, 5, 6, 7, 8, 9, 10}
		for name, in := range map[string]PostInput{
			"no kind":             {Text: "x", Pictures: []int64{p1}},
			"odd kind":            {Kind: "poll", Text: "x"},
			"no pictures":         {Kind: KindPicture, Text: "x"},
			"ten pictures":        {Kind: KindPicture, Pictures: ten},
			"duplicate picture":   {Kind: KindPicture, Pictures: []int64{p1, p1}},
			"negative picture":    {Kind: KindPicture, Pictures: []int64{-1}},
			"huge picture":        {Kind: KindPicture, Pictures: []int64{1 << 60}},
			"video as picture":    {Kind: KindPicture, Pictures: []int64{vid}},
			"picture not ready":   {Kind: KindPicture, Pictures: []int64{busy}},
			"long text":           {Kind: KindPicture, Pictures: []int64{p1}, Text: strings.Repeat("字", PostTextMax+1)},
			"long title":          {Kind: KindPicture, Pictures: []int64{p1}, Title: strings.Repeat("字", PostTitleMax+1)},
			"NUL in text":         {Kind: KindPicture, Pictures: []int64{p1}, Text: "a\x00b"},
			"bell in title":       {Kind: KindPicture, Pictures: []int64{p1}, Title: "a\x07b"},
			"newline in title":    {Kind: KindPicture, Pictures: []int64{p1}, Title: "a\nb"},
			"vip 3":               {Kind: KindPicture, Pictures: []int64{p1}, VipLevel: 3},
			"vip -1":              {Kind: KindPicture, Pictures: []int64{p1}, VipLevel: -1},
			"coins -1":            {Kind: KindPicture, Pictures: []int64{p1}, Coins: -1},
			"coins huge":          {Kind: KindPicture, Pictures: []int64{p1}, Coins: PostMaxCoins + 1},
			"topic -1":            {Kind: KindPicture, Pictures: []int64{p1}, TopicID: -1},
			"pictures on video":   {Kind: KindVideo, VideoAssetID: vid, Pictures: []int64{p1}},
			"no video":            {Kind: KindVideo, Text: "x"},
			"picture as video":    {Kind: KindVideo, VideoAssetID: p1},
			"failed video":        {Kind: KindVideo, VideoAssetID: failed},
			"video on picture":    {Kind: KindPicture, Pictures: []int64{p1}, VideoAssetID: vid},
			"html on picture":     {Kind: KindPicture, Pictures: []int64{p1}, HTML: "<p>x</p>"},
			"article no title":    {Kind: KindArticle, HTML: "<p>正文</p>"},
			"article short title": {Kind: KindArticle, Title: "短", HTML: "<p>正文</p>"},
			"article empty":       {Kind: KindArticle, Title: "标题", HTML: "<p> </p><script>x</script><img src=x>"},
			"article long":        {Kind: KindArticle, Title: "标题", HTML: "<p>" + strings.Repeat("字", ArticleTextMax+1) + "</p>"},
			"article with text":   {Kind: KindArticle, Title: "标题", HTML: "<p>x</p>", Text: "y"},
			"article NUL":         {Kind: KindArticle, Title: "标题", HTML: "<p>a\x00</p>"},
			"long clientID":       {Kind: KindPicture, Pictures: []int64{p1}, ClientID: strings.Repeat("c", 65)},
		} {
			_, err := s.CreatePost(ctx, alice, in)
			wantPublishBad(t, err, name)
		}
		if _, err := s.CreatePost(ctx, bob, PostInput{Kind: KindPicture, Pictures: []int64{p1}}); !errors.Is(err, ErrPublishAsset) {
			t.Errorf("another user's picture: %v", err)
		}
		if _, err := s.CreatePost(ctx, alice, PostInput{Kind: KindPicture, Pictures: []int64{p1, bobPic}}); !errors.Is(err, ErrPublishAsset) {
			t.Errorf("bob's picture among mine: %v", err)
		}
		if _, err := s.CreatePost(ctx, alice, PostInput{Kind: KindArticle, Title: "标题", HTML: fmt.Sprintf(`<p>x</p><img data-asset="%d">`, bobPic)}); !errors.Is(err, ErrPublishAsset) {
			t.Errorf("bob's picture in an article: %v", err)
		}
		if _, err := s.CreatePost(ctx, alice, PostInput{Kind: KindPicture, Pictures: []int64{987654}}); !errors.Is(err, ErrPublishAsset) {
			t.Errorf("missing picture: %v", err)
		}
		if _, err := s.CreatePost(ctx, bob, PostInput{Kind: KindVideo, VideoAssetID: vid}); !errors.Is(err, ErrPublishAsset) {
			t.Errorf("another user's video: %v", err)
		}
		for _, tid := range []int64{hidden, 987654} {
			if _, err := s.CreatePost(ctx, alice, PostInput{Kind: KindPicture, Pictures: []int64{p1}, TopicID: tid}); !errors.Is(err, ErrPublishTopic) {
				t.Errorf("topic %d: %v", tid, err)
			}
		}
		for _, mid := range []int64{501, 503, 504, 987654} {
			if _, err := s.CreatePost(ctx, alice, PostInput{Kind: KindPicture, Pictures: []int64{p1}, ModuleID: mid}); !errors.Is(err, ErrPublishModule) {
				t.Errorf("module %d: %v", mid, err)
			}
		}
		if _, err := s.CreatePost(ctx, guest, PostInput{Kind: KindArticle, Title: "标题", HTML: "<p>x</p>"}); !errors.Is(err, ErrGuestPublish) {
			t.Errorf("guest: %v", err)
		}
		if _, err := s.CreatePost(ctx, 987654, PostInput{Kind: KindArticle, Title: "标题", HTML: "<p>x</p>"}); !errors.Is(err, ErrNoUser) {
			t.Errorf("nobody: %v", err)
		}
		until := c.now().Add(time.Hour).Unix()
		d.Exec(ctx, `INSERT INTO community_mutes (user_id, muted_until, created_at) VALUES (?, ?, 1)`, bob, until)
		var m *MutedError
		if _, err := s.CreatePost(ctx, bob, PostInput{Kind: KindPicture, Pictures: []int64{bobPic}}); !errors.As(err, &m) || m.Until.Unix() != until {
			t.Errorf("muted: %v", err)
		}
		if after := publishCounts(t, d); after != before {
			t.Fatalf("refusals wrote rows: %s -> %s", before, after)
		}
		// The mute ends; an empty picture text is fine.
		c.add(time.Hour)
		if _, err := s.CreatePost(ctx, bob, PostInput{Kind: KindPicture, Pictures: []int64{bobPic}}); err != nil {
			t.Fatalf("after the mute: %v", err)
		}

		// Review on: pending, not published.
		d.Exec(ctx, `UPDATE community_settings SET review = 1, rules = '友善发言'`)
		pend, err := s.CreatePost(ctx, alice, PostInput{Kind: KindPicture, Pictures: []int64{p1}})
		if err != nil || pend.State != StatePending {
			t.Fatalf("review on: %+v %v", pend, err)
		}
		if r, _ = loadPost(ctx, d, pend.ID); r.published != 0 || r.state != StatePending {
			t.Fatalf("pending row %+v", r)
		}
		rules, err := s.PublishRules(ctx)
		if err != nil || rules.Rules != "友善发言" || !rules.Review || rules.Limits != (PublishLimits{50, 2000, 20000, 9}) {
			t.Fatalf("rules %+v %v", rules, err)
		}
	})
}

// A retried publish with the same clientID answers the first post and
// writes nothing; another body under the same clientID is refused.
func TestCreatePostClientID(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTest(t, d)
		alice, bob := user(t, d, "alice", true), user(t, d, "bobby", true)
		p1 := publishAssetRow(t, d, alice, "image", "ready")
		b1 := publishAssetRow(t, d, bob, "image", "ready")
		in := PostInput{Kind: KindPicture, Text: "一", Pictures: []int64{p1}, ClientID: "c-1"}
		first, err := s.CreatePost(ctx, alice, in)
		if err != nil {
			t.Fatal(err)
		}
		again, err := s.CreatePost(ctx, alice, in)
		if err != nil || again != first {
			t.Fatalf("retry: %+v %v, want %+v", again, err, first)
		}
		other := in
		other.Text = "二"
		if _, err := s.CreatePost(ctx, alice, other); !errors.Is(err, ErrClientIDReused) {
			t.Fatalf("another body: %v", err)
		}
		// Another author may use the same clientID.
		bin := PostInput{Kind: KindPicture, Pictures: []int64{b1}, ClientID: "c-1"}
		if b, err := s.CreatePost(ctx, bob, bin); err != nil || b.ID == first.ID {
			t.Fatalf("bob: %+v %v", b, err)
		}
		if n := scalar(t, d, `SELECT COUNT(*) FROM posts`); n != 2 {
			t.Fatalf("%d posts", n)
		}

		// Parallel retries: one post, every answer its id.
		in.ClientID = "c-par"
		var wg sync.WaitGroup
		ids := make(chan int64, 12)
		for i := 0; i < 12; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := s.CreatePost(ctx, alice, in)
				if err != nil {
					t.Error(err)
					return
				}
				ids <- c.ID
			}()
		}
		wg.Wait()
		close(ids)
		seen := map[int64]bool{}
		for id := range ids {
			seen[id] = true
		}
		if len(seen) != 1 || scalar(t, d, `SELECT COUNT(*) FROM posts WHERE client_id = 'c-par'`) != 1 ||
			scalar(t, d, `SELECT COUNT(*) FROM post_pictures pp JOIN posts p ON p.id = pp.post_id WHERE p.client_id = 'c-par'`) != 1 {
			t.Fatalf("parallel retries made %d ids", len(seen))
		}
	})
}

func TestCreatePostRateLimited(t *testing.T) {
	d := dbtest.Open(t, db.SQLite)
	s, c := newTest(t, d)
	s.Limiter = ratelimit.NewMemoryClock(c.now)
	u := user(t, d, "alice", true)
	p := publishAssetRow(t, d, u, "image", "ready")
	for i := 0; i < PublishRate.N; i++ {
		if _, err := s.CreatePost(context.Background(), u, PostInput{Kind: KindPicture, Pictures: []int64{p}, ClientID: fmt.Sprint(i)}); err != nil {
			t.Fatal(err)
		}
	}
	var le *ratelimit.LimitedError
	if _, err := s.CreatePost(context.Background(), u, PostInput{Kind: KindPicture, Pictures: []int64{p}}); !errors.As(err, &le) {
		t.Fatalf("past the limit: %v", err)
	}
	// A retry of an earlier post still answers (it writes nothing).
	if _, err := s.CreatePost(context.Background(), u, PostInput{Kind: KindPicture, Pictures: []int64{p}, ClientID: "3"}); err != nil {
		t.Fatalf("retry past the limit: %v", err)
	}
	c.add(PublishRate.Per)
	if _, err := s.CreatePost(context.Background(), u, PostInput{Kind: KindPicture, Pictures: []int64{p}}); err != nil {
		t.Fatalf("after the window: %v", err)
	}
}

// The sanitiser's XSS corpus: nothing executable survives.
func TestSanitizeArticle(t *testing.T) {
	corpus := []string{
		`<script>alert(1)</script>`,
		`<SCRIPT SRC=//evil/x.js></SCRIPT>`,
		`<img src=x onerror=alert(1)>`,
		`<img src="javascript:alert(1)">`,
		`<a href="javascript:alert(1)">x</a>`,
		`<a href="JaVaScRiPt:alert(1)">x</a>`,
		`<a href="jav&#x09;ascript:alert(1)">x</a>`,
		`<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>`,
		`<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>`,
		`<a href="vbscript:msgbox(1)">x</a>`,
		`<svg onload=alert(1)>`,
		`<svg><script>alert(1)</script></svg>`,
		`<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>`,
		`<p style="background:url(javascript:alert(1))">x</p>`,
		`<iframe src="https://evil"></iframe>`,
		`<object data="x"></object><embed src="x">`,
		`<p><b>open <i>nested <script>alert(1)</b></i>`,
		`<<script>script>alert(1)<</script>/script>`,
		`<scr<script>ipt>alert(1)</scr</script>ipt>`,
		`&lt;script&gt;alert(1)&lt;/script&gt;`,
		`<p onmouseover="alert(1)">x</p>`,
		`<form action="https://evil"><input name=x><button>x</button></form>`,
		`<meta http-equiv="refresh" content="0;url=https://evil">`,
		`<base href="https://evil/">`,
		`<link rel=stylesheet href=https://evil>`,
		`<style>*{display:none}</style>`,
		`<img data-asset="1" src="https://evil" onload="alert(1)">`,
		`<img data-asset="1 onerror=alert(1)">`,
		`<img data-asset="javascript:alert(1)">`,
		`<!--<script>alert(1)</script>-->`,
		`<a href="https://ok.example/" onclick="alert(1)" style="x">ok</a>`,
		`<h1>big</h1><div onclick=x>div</div><table><tr><td>t</td></tr></table>`,
		"<a href=\"java\x00script:alert(1)\">x</a>",
	}
	bad := []string{"<script", "onerror", "onload", "onclick", "onmouseover", "javascript:", "data:", "vbscript:", "<svg", "<iframe",
		"style=", "<object", "<embed", "<form", "<input", "<meta", "<base", "<link", "<style", "src=", "<math", "<!--", "<h1", "<div", "<table"}
	for _, in := range corpus {
		out, _ := sanitizeArticle(in)
		low := strings.ToLower(out)
		for _, b := range bad {
			if strings.Contains(low, b) {
				t.Errorf("sanitize(%q) = %q holds %q", in, out, b)
			}
		}
	}
	// What is allowed stays, links get their guards, pictures are reduced
	// to data-asset, each once, in order.
	out, ids := sanitizeArticle(`<h2>H</h2><h3>h</h3><p><b>b</b><strong>s</strong><i>i</i><em>e</em><u>u</u><s>x</s><br></p>` +
		`<blockquote>q</blockquote><ul><li>1</li></ul><ol><li>2</li></ol><a href="https://example.com/a?b=1&c=2">l</a>` +
		`<img data-asset="7"><img data-asset="3" src="x"><img data-asset="7"><img alt="none">`)
	for _, want := range []string{"<h2>H</h2>", "<h3>h</h3>", "<b>b</b>", "<strong>s</strong>", "<i>i</i>", "<em>e</em>", "<u>u</u>",
		"<s>x</s>", "<br>", "<blockquote>q</blockquote>", "<ul><li>1</li></ul>", "<ol><li>2</li></ol>",
		`<img data-asset="7"><img data-asset="3">`} {
		if !strings.Contains(out, want) {
			t.Errorf("sanitized %q lacks %q", out, want)
		}
	}
	if !strings.Contains(out, `href="https://example.com/a?b=1&amp;c=2"`) || !strings.Contains(out, "nofollow") ||
		!strings.Contains(out, "noopener") || !strings.Contains(out, `target="_blank"`) {
		t.Errorf("link guards missing: %q", out)
	}
	if fmt.Sprint(ids) != "[7 3]" || strings.Count(out, "<img") != 2 {
		t.Errorf("pictures %v in %q", ids, out)
	}
	if got := ArticleAssets(out); fmt.Sprint(got) != "[7 3]" {
		t.Errorf("ArticleAssets %v", got)
	}
	signed := ReplaceArticleAssets(out, func(id int64) string {
		if id == 3 {
			return ""
		}
		return fmt.Sprintf(`<img src="/s/%d">`, id)
	})
	if !strings.Contains(signed, `<img src="/s/7">`) || strings.Contains(signed, "data-asset") {
		t.Errorf("replaced %q", signed)
	}
}
