package search

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// fx inserts source rows straight into the tables (the domains are not
// imported here) and touches them as the domains' hooks do.
type fx struct {
	t *testing.T
	d *db.DB
}

func (f fx) exec(q string, args ...any) int64 {
	f.t.Helper()
	var id int64
	err := f.d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		if strings.Contains(q, "RETURNING") {
			return tx.QueryRow(ctx, q, args...).Scan(&id)
		}
		_, err := tx.Exec(ctx, q, args...)
		return err
	})
	if err != nil {
		f.t.Fatalf("%s: %v", q, err)
	}
	return id
}

func (f fx) touch(kind string, id int64) {
	f.t.Helper()
	err := f.d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		return Touch(ctx, tx, kind, id)
	})
	if err != nil {
		f.t.Fatalf("touch %s %d: %v", kind, id, err)
	}
}

func (f fx) module(name string, typ int, pid int64) int64 {
	return f.exec(`INSERT INTO modules (pid, name, module_type, created_at) VALUES (?, ?, ?, 1) RETURNING id`, pid, name, typ)
}

// video adds a published video under (mod, sub) created at `at` and indexes it.
func (f fx) video(title string, mod, sub int64, at, plays int64) int64 {
	id := f.exec(`INSERT INTO videos (title, module_id, sub_module_id, play_count, published, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?) RETURNING id`,
		title, mod, sub, plays, at, at)
	f.touch(KindVideo, id)
	return id
}

func (f fx) post(title, body, state string, at int64) int64 {
	id := f.exec(`INSERT INTO posts (author_id, kind, title, body, state, published_at, created_at, updated_at) VALUES (1, 'picture', ?, ?, ?, ?, ?, ?) RETURNING id`,
		title, body, state, at, at, at)
	f.touch(KindPost, id)
	return id
}

func search(t *testing.T, d *db.DB, in Query) ([]Hit, int) {
	t.Helper()
	hits, total, err := Search(context.Background(), d, in)
	if err != nil {
		t.Fatalf("search %+v: %v", in, err)
	}
	return hits, total
}

func titles(h []Hit) []string {
	out := []string{}
	for _, x := range h {
		out = append(out, x.Title)
	}
	return out
}

func q(text string) Query { return Query{Text: text, VipLevel: -1, Limit: 50} }

func setup(t *testing.T, d *db.DB) (fx, int64, int64, int64, int64) {
	f := fx{t, d}
	home := f.module("首页", 0, 0)
	sub := f.module("推荐", 0, home)
	short := f.module("短视频", 4, 0)
	ssub := f.module("热门", 4, short)
	return f, home, sub, short, ssub
}

func TestTokens(t *testing.T) {
	cases := map[string][]string{
		"北京":           {"北", "北京", "京"},
		"猫":            {"猫"},
		"iPhone 15教程":  {"iphone", "15", "教", "教程", "程"},
		"ＩＰＨＯＮＥ":       {"iphone"},
		"Hello, World": {"hello", "world"},
		"":             nil,
		"  \x00 ":      nil,
	}
	for in, want := range cases {
		if got := Tokens(in); !reflect.DeepEqual(got, want) {
			t.Errorf("Tokens(%q) = %q, want %q", in, got, want)
		}
	}
	qc := map[string][]string{
		"猫":         {"猫"},
		"北京大学":      {"北京", "京大", "大学"},
		"iPhone 教程": {"iphone", "教程"},
		`"NEAR"*`:   {"near"},
	}
	for in, want := range qc {
		if got := queryTokens(in); !reflect.DeepEqual(got, want) {
			t.Errorf("queryTokens(%q) = %q, want %q", in, got, want)
		}
	}
	if Normalize("ＡＢＣ１２３") != "abc123" {
		t.Errorf("full width: %q", Normalize("ＡＢＣ１２３"))
	}
}

func TestMarks(t *testing.T) {
	if got := marks("我爱北京天安门", queryTokens("北京")); !reflect.DeepEqual(got, [][2]int{{2, 4}}) {
		t.Errorf("marks = %v", got)
	}
	if got := marks("iPhone 15 教程：上手", queryTokens("iphone 教程")); !reflect.DeepEqual(got, [][2]int{{0, 6}, {10, 12}}) {
		t.Errorf("marks = %v", got)
	}
	if got := marks("abc", nil); got == nil || len(got) != 0 {
		t.Errorf("no terms: %v", got)
	}
}

func TestSearchFindsAndRanks(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f, home, sub, short, ssub := setup(t, d)
		f.video("北京一日游", home, sub, 100, 5)
		f.video("我的猫咪日常", home, sub, 200, 50)
		f.video("猫", home, sub, 150, 1)
		f.video("北京大学开放日", home, sub, 300, 0)
		f.video("iPhone 15 上手教程", home, sub, 400, 0)
		f.video("南京东路", short, ssub, 500, 0) // a short
		f.post("", "北京的猫\n第二行", "published", 600)
		f.post("被删的北京帖子", "", "removed", 700)

		hits, total := search(t, d, q("北京"))
		if total != 3 {
			t.Fatalf("北京: total %d, hits %q", total, titles(hits))
		}
		for _, h := range hits {
			if h.Title == "被删的北京帖子" {
				t.Fatal("removed post found")
			}
		}
		// One character.
		hits, _ = search(t, d, q("猫"))
		if got := titles(hits); len(got) != 3 || got[0] != "猫" {
			t.Errorf("猫 ranks the exact title first: %q", got)
		}
		// Four characters: bigrams ANDed.
		hits, _ = search(t, d, q("北京大学"))
		if got := titles(hits); !reflect.DeepEqual(got, []string{"北京大学开放日"}) {
			t.Errorf("北京大学: %q", got)
		}
		if !reflect.DeepEqual(hits[0].Marks, [][2]int{{0, 4}}) {
			t.Errorf("marks %v", hits[0].Marks)
		}
		// Mixed, case and width folded.
		for _, s := range []string{"iPhone 教程", "IPHONE", "ｉｐｈｏｎｅ　教程"} {
			hits, _ = search(t, d, q(s))
			if got := titles(hits); !reflect.DeepEqual(got, []string{"iPhone 15 上手教程"}) {
				t.Errorf("%q: %q", s, got)
			}
		}
		// Kind filter: the short video is a short, not a video.
		in := q("京")
		in.Kind = KindShort
		hits, _ = search(t, d, in)
		if got := titles(hits); !reflect.DeepEqual(got, []string{"南京东路"}) || hits[0].Kind != KindShort {
			t.Errorf("short: %q", got)
		}
		in.Kind = KindPost
		hits, _ = search(t, d, in)
		if got := titles(hits); !reflect.DeepEqual(got, []string{"北京的猫"}) {
			t.Errorf("post (first line as title): %q", got)
		}
		in = q("京")
		in.ModuleID = ssub
		hits, _ = search(t, d, in)
		if got := titles(hits); !reflect.DeepEqual(got, []string{"南京东路"}) {
			t.Errorf("module filter: %q", got)
		}
		// Sorts. Over every kind, newest first is within each kind, videos
		// first (the API always names one kind).
		in = q("北京")
		in.Sort = SortNew
		hits, _ = search(t, d, in)
		if got := titles(hits); !reflect.DeepEqual(got, []string{"北京大学开放日", "北京一日游", "北京的猫"}) {
			t.Errorf("new: %q", got)
		}
		in = q("日")
		in.Sort = SortPlays
		hits, _ = search(t, d, in)
		if got := titles(hits); len(got) < 2 || got[0] != "我的猫咪日常" {
			t.Errorf("plays: %q", got)
		}
		// Paging.
		in = q("北京")
		in.Sort, in.Limit, in.Offset = SortNew, 2, 2
		hits, total = search(t, d, in)
		if got := titles(hits); total != 3 || !reflect.DeepEqual(got, []string{"北京的猫"}) {
			t.Errorf("page 2: %d %q", total, got)
		}
	})
}

func TestBadInputNeverErrorsAtTheEngine(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f, home, sub, _, _ := setup(t, d)
		f.video(`标题 "quoted" NEAR(a b) title:x OR AND NOT * ^`, home, sub, 100, 0)
		bad := []string{`"`, `""`, `"北京`, `NEAR(北 京)`, `北*`, `*`, `a OR b`, `a AND b`, `NOT a`, `title:x`, `facets:kvideo`,
			`{title}:北`, `'; DROP TABLE search_docs; --`, `' OR 1=1 --`, `\`, `'`, `!!!`, `(((`, `a:*`, `-a`, `^a`,
			"北\x00京", "\x01\x02猫\x7f", "a\u2028b", "\xff\xfe猫", `'x':*AB & 'y'`, `x | y`, `!x`, `x <-> y`}
		for _, s := range bad {
			if _, _, err := Search(context.Background(), d, q(s)); err != nil {
				t.Errorf("%q: %v", s, err)
			}
			if _, err := Suggest(context.Background(), d, s, 8); err != nil {
				t.Errorf("suggest %q: %v", s, err)
			}
		}
		for _, s := range []string{"quoted", "near", "title", "or"} {
			if _, total := search(t, d, q(s)); total != 1 {
				t.Errorf("%q is plain text: total %d", s, total)
			}
		}
		for s, want := range map[string]error{"": ErrEmptyQuery, "   ": ErrEmptyQuery, "\x00\t\n": ErrEmptyQuery,
			strings.Repeat("猫", 1000): ErrQueryTooLong, strings.Repeat("a", 101): ErrQueryTooLong} {
			if _, _, err := Search(context.Background(), d, q(s)); !errors.Is(err, want) {
				t.Errorf("%.10q: %v, want %v", s, err, want)
			}
		}
		if _, _, err := Search(context.Background(), d, Query{Text: "猫", Kind: "videos"}); !errors.Is(err, ErrBadKind) {
			t.Errorf("kind: %v", err)
		}
		if _, _, err := Search(context.Background(), d, Query{Text: "猫", Sort: "hot"}); !errors.Is(err, ErrBadSort) {
			t.Errorf("sort: %v", err)
		}
		if _, total := search(t, d, Query{Text: "标题", VipLevel: -1, Offset: -5, Limit: 1 << 30}); total != 1 {
			t.Errorf("negative offset / huge limit: %d", total)
		}
	})
}

func TestTouchFollowsVisibility(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f, home, sub, short, ssub := setup(t, d)
		count := func(s, kind string) int {
			in := q(s)
			in.Kind = kind
			_, n := search(t, d, in)
			return n
		}
		v := f.video("熊猫宝宝", home, sub, 100, 0)
		if count("熊猫", KindVideo) != 1 {
			t.Fatal("published video not found")
		}
		f.exec(`UPDATE videos SET published = 0 WHERE id = ?`, v)
		f.touch(KindVideo, v)
		if count("熊猫", "") != 0 {
			t.Fatal("unpublished video found")
		}
		f.exec(`UPDATE videos SET published = 1, title = '小熊猫', module_id = ?, sub_module_id = ? WHERE id = ?`, short, ssub, v)
		f.touch(KindVideo, v)
		if count("熊猫", KindVideo) != 0 || count("小熊猫", KindShort) != 1 {
			t.Fatal("moved to a short module: kind follows")
		}
		f.exec(`DELETE FROM videos WHERE id = ?`, v)
		f.touch(KindShort, v)
		if count("熊猫", "") != 0 {
			t.Fatal("deleted video found")
		}
		p := f.post("猫咪", "", "pending", 100)
		if count("猫咪", "") != 0 {
			t.Fatal("pending post found")
		}
		f.exec(`UPDATE posts SET state = 'published' WHERE id = ?`, p)
		f.touch(KindPost, p)
		if count("猫咪", KindPost) != 1 {
			t.Fatal("published post not found")
		}
		for _, st := range []string{"removed", "deleted", "rejected"} {
			f.exec(`UPDATE posts SET state = ? WHERE id = ?`, st, p)
			f.touch(KindPost, p)
			if count("猫咪", "") != 0 {
				t.Fatalf("%s post found", st)
			}
		}
		tp := f.exec(`INSERT INTO topics (name, status, created_at) VALUES ('旅行日记', 1, 5) RETURNING id`)
		f.touch(KindTopic, tp)
		if count("旅行", KindTopic) != 1 {
			t.Fatal("topic not found")
		}
		f.exec(`UPDATE topics SET status = 0 WHERE id = ?`, tp)
		f.touch(KindTopic, tp)
		if count("旅行", "") != 0 {
			t.Fatal("hidden topic found")
		}
		guest := f.exec(`INSERT INTO users (name, created_at, updated_at) VALUES ('游客张三', 1, 1) RETURNING id`)
		f.touch(KindUser, guest)
		if count("张三", "") != 0 {
			t.Fatal("guest found")
		}
		f.exec(`UPDATE users SET account = 'zhang3' WHERE id = ?`, guest)
		f.touch(KindUser, guest)
		if count("张三", KindUser) != 1 {
			t.Fatal("registered user not found")
		}
		g := f.exec(`INSERT INTO galleries (title, module_id, sub_module_id, published, created_at, updated_at) VALUES ('海边写真', ?, ?, 0, 1, 1) RETURNING id`, home, sub)
		f.touch(KindGallery, g)
		if count("海边", "") != 0 {
			t.Fatal("draft gallery found")
		}
		f.exec(`UPDATE galleries SET published = 1 WHERE id = ?`, g)
		f.touch(KindGallery, g)
		if count("海边", KindGallery) != 1 {
			t.Fatal("gallery not found")
		}
		err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error { return Touch(ctx, tx, "nope", 1) })
		if !errors.Is(err, ErrBadKind) {
			t.Fatalf("bad kind: %v", err)
		}
	})
}
