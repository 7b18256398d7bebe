package community

import (
	"context"
	"errors"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// insertPostRow writes a post straight into the table (the publish call
// has its own tests); it returns the id.
func insertPostRow(t *testing.T, d *db.DB, author int64, kind, state, title, body string, vip int, coins int64) int64 {
	t.Helper()
	var id int64
	err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		return tx.QueryRow(ctx, `INSERT INTO posts (author_id, kind, title, body, vip_level, coins, state, created_at, published_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, 100, 100, 100) RETURNING id`, author, kind, title, body, vip, coins, state).Scan(&id)
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// The one visibility rule: published posts are everyone's, pending and
// rejected ones their author's only, removed and deleted ones nobody's.
func TestPostVisibility(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		author, other := user(t, d, "author", true), user(t, d, "other", true)
		for state, want := range map[string][3]bool{ // anonymous, other, author
			StatePublished: {true, true, true},
			StatePending:   {false, false, true},
			StateRejected:  {false, false, true},
			StateRemoved:   {false, false, false},
			StateDeleted:   {false, false, false},
		} {
			id := insertPostRow(t, d, author, KindPicture, state, "t", "b", 0, 0)
			r, err := loadPost(ctx, d, id)
			if err != nil {
				t.Fatal(err)
			}
			for i, viewer := range []int64{0, other, author} {
				if got := r.visible(viewer); got != want[i] {
					t.Errorf("%s post, viewer %d: visible %v, want %v", state, viewer, got, want[i])
				}
			}
		}
		if _, err := loadPost(ctx, d, 987654); !errors.Is(err, ErrNoPost) {
			t.Fatalf("missing post: %v, want ErrNoPost", err)
		}
	})
}

// Cards name the author and topic, say whether the viewer liked the post,
// and show State only to the author; an article's summary is its text.
func TestPostCards(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTest(t, d)
		author, other := user(t, d, "author", true), user(t, d, "other", true)
		id := insertPostRow(t, d, author, KindArticle, StatePublished, "标题", "<p>你好 &amp; <b>世界</b></p>", 0, 0)
		if _, err := d.Exec(ctx, `INSERT INTO topics (name, created_at) VALUES ('猫', 1)`); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Exec(ctx, `UPDATE posts SET topic_id = (SELECT id FROM topics WHERE name = '猫') WHERE id = ?`, id); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Exec(ctx, `INSERT INTO post_likes (user_id, post_id, created_at) VALUES (?, ?, 1)`, other, id); err != nil {
			t.Fatal(err)
		}
		r, err := loadPost(ctx, d, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			viewer    int64
			liked     bool
			showState bool
		}{{0, false, false}, {other, true, false}, {author, false, true}} {
			ps, err := s.cards(ctx, tc.viewer, []postRow{r}, false)
			if err != nil {
				t.Fatal(err)
			}
			p := ps[0]
			if p.Author.UID != author || p.Author.Name != "author" || p.Topic == nil || p.Topic.Name != "猫" {
				t.Fatalf("card %+v: author or topic wrong", p)
			}
			if p.Summary != "你好 & 世界" {
				t.Fatalf("summary %q", p.Summary)
			}
			if p.Liked != tc.liked || (p.State != "") != tc.showState {
				t.Fatalf("viewer %d: liked %v state %q", tc.viewer, p.Liked, p.State)
			}
		}
	})
}

// A mute holds until its instant; the settings row exists from the start
// with review off.
func TestMutesAndSettings(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, c := newTest(t, d)
		u := user(t, d, "u", true)
		if err := checkMuted(ctx, d, u, c.now()); err != nil {
			t.Fatalf("unmuted user: %v", err)
		}
		until := c.now().Add(time.Hour).Unix()
		if _, err := d.Exec(ctx, `INSERT INTO community_mutes (user_id, muted_until, created_at) VALUES (?, ?, 1)`, u, until); err != nil {
			t.Fatal(err)
		}
		var m *MutedError
		if err := checkMuted(ctx, d, u, c.now()); !errors.As(err, &m) || m.Until.Unix() != until {
			t.Fatalf("muted user: %v", err)
		}
		c.add(time.Hour)
		if err := checkMuted(ctx, d, u, c.now()); err != nil {
			t.Fatalf("at the mute's end: %v", err)
		}
		st, err := loadSettings(ctx, s.db)
		if err != nil || st.Review || st.Rules != "" {
			t.Fatalf("settings %+v, %v", st, err)
		}
	})
}

// An article's card text: inline tags join their words, blocks separate
// them, entities read as characters.
func TestPlainText(t *testing.T) {
	for in, want := range map[string]string{
		"<p>开头<b>粗体</b>结尾</p><ul><li>一</li><li>二</li></ul>": "开头粗体结尾 一 二",
		"<h2>标题</h2><p>a &lt;b&gt; &amp; c</p>":             "标题 a <b> & c",
		"<p>行一<br/>行二</p><blockquote>引用</blockquote>":       "行一 行二 引用",
	} {
		if got := plainText(in); got != want {
			t.Errorf("plainText(%q) = %q, want %q", in, got, want)
		}
	}
}
