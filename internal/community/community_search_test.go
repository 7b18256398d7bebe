package community

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"prima/internal/account"
	"prima/internal/media"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/search"
)

// hookFound is the ids search finds for text among kind's hits.
func hookFound(t *testing.T, d *db.DB, kind, text string) []int64 {
	t.Helper()
	hits, _, err := search.Search(context.Background(), d, search.Query{Text: text, Kind: kind, VipLevel: -1, Sort: "relevance", Limit: 100})
	if err != nil {
		t.Fatalf("search %s %q: %v", kind, text, err)
	}
	var ids []int64
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	return ids
}

func hookWant(t *testing.T, d *db.DB, kind, text string, id int64, want bool, when string) {
	t.Helper()
	if got := hookFound(t, d, kind, text); slices.Contains(got, id) != want {
		t.Errorf("%s: search %s %q found %v; want %d found: %v", when, kind, text, got, id, want)
	}
}

// hookDocs is the index's rows, for comparing with a fresh Reindex.
func hookDocs(t *testing.T, d *db.DB) string {
	t.Helper()
	rows, err := search.Dump(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(rows, "\n")
}

func hookAgrees(t *testing.T, d *db.DB) {
	t.Helper()
	kept := hookDocs(t, d)
	if _, err := search.Reindex(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	if fresh := hookDocs(t, d); fresh != kept {
		t.Errorf("the index drifted from the tables:\nkept:\n%s\nrebuilt:\n%s", kept, fresh)
	}
}

// TestPostSearchFollowsWrites: a post is found exactly while it is
// published, through every way a post changes state.
func TestPostSearchFollowsWrites(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTest(t, d)
		op := audit.Actor{UID: user(t, d, "operator", true)}
		alice := user(t, d, "alice", true)
		pic := publishAssetRow(t, d, alice, "image", "ready")
		if _, err := search.Reindex(ctx, d); err != nil { // the users above were inserted directly
			t.Fatal(err)
		}
		post := func(title, text string) Created {
			t.Helper()
			c, err := s.CreatePost(ctx, alice, PostInput{Kind: KindPicture, Title: title, Text: text, Pictures: []int64{pic}})
			if err != nil {
				t.Fatal(err)
			}
			return c
		}

		// Review off: published at once and found, by title and by text.
		a := post("猫咪日常", "今天带它去了北京")
		hookWant(t, d, search.KindPost, "猫咪", a.ID, true, "published")
		hookWant(t, d, search.KindPost, "猫", a.ID, true, "published, one character")
		hookWant(t, d, search.KindPost, "北京", a.ID, true, "published, by its text")
		// The author deletes it: gone.
		if err := s.DeletePost(ctx, alice, a.ID); err != nil {
			t.Fatal(err)
		}
		hookWant(t, d, search.KindPost, "猫咪", a.ID, false, "deleted by its author")

		// Review on: pending is not found; approved is; removed is not.
		on, off := true, false
		if _, err := s.SaveSettings(ctx, op, &on, nil); err != nil {
			t.Fatal(err)
		}
		b := post("狗狗散步", "")
		if b.State != StatePending {
			t.Fatalf("review on: %+v", b)
		}
		hookWant(t, d, search.KindPost, "狗狗", b.ID, false, "pending")
		if _, err := s.ReviewPost(ctx, op, b.ID, true, ""); err != nil {
			t.Fatal(err)
		}
		hookWant(t, d, search.KindPost, "狗狗", b.ID, true, "approved")
		if _, err := s.RemovePost(ctx, op, b.ID, "违规"); err != nil {
			t.Fatal(err)
		}
		hookWant(t, d, search.KindPost, "狗狗", b.ID, false, "removed by an operator")

		c := post("兔子吃草", "")
		if _, err := s.ReviewPost(ctx, op, c.ID, false, "不清晰"); err != nil {
			t.Fatal(err)
		}
		hookWant(t, d, search.KindPost, "兔子", c.ID, false, "rejected")
		// A refused action (approving a rejected post) changes nothing.
		if _, err := s.ReviewPost(ctx, op, c.ID, true, ""); modStatus(err) != 409 {
			t.Fatalf("approve a rejected post: %v", err)
		}
		hookWant(t, d, search.KindPost, "兔子", c.ID, false, "a refused approval")

		// A pending post removed before review never shows.
		e := post("仓鼠跑轮", "")
		if _, err := s.RemovePost(ctx, op, e.ID, "违规"); err != nil {
			t.Fatal(err)
		}
		hookWant(t, d, search.KindPost, "仓鼠", e.ID, false, "removed while pending")
		if _, err := s.SaveSettings(ctx, op, &off, nil); err != nil {
			t.Fatal(err)
		}
		hookAgrees(t, d)
	})
}

// TestPostSearchParallel: a retried publish racing itself makes one post
// and one doc; two operators removing at once leave none (PostgreSQL runs
// them truly in parallel).
func TestPostSearchParallel(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTest(t, d)
		op := audit.Actor{UID: user(t, d, "operator", true)}
		alice := user(t, d, "alice", true)
		pic := publishAssetRow(t, d, alice, "image", "ready")
		if _, err := search.Reindex(ctx, d); err != nil {
			t.Fatal(err)
		}
		const n = 6
		var wg sync.WaitGroup
		ids := make([]int64, n)
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := s.CreatePost(ctx, alice, PostInput{Kind: KindPicture, Title: "熊猫吃竹子", Pictures: []int64{pic}, ClientID: "retry-1"})
				ids[i], errs[i] = c.ID, err
			}()
		}
		wg.Wait()
		for i := range n {
			if errs[i] != nil || ids[i] != ids[0] {
				t.Fatalf("parallel retries: ids %v errs %v", ids, errs)
			}
		}
		if got := hookFound(t, d, search.KindPost, "熊猫"); !slices.Equal(got, []int64{ids[0]}) {
			t.Errorf("parallel retries: found %v, want [%d]", got, ids[0])
		}
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = s.RemovePost(ctx, op, ids[0], "违规")
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			if err == nil {
				ok++
			} else if modStatus(err) != 409 {
				t.Errorf("parallel remove: %v", err)
			}
		}
		if ok != 1 {
			t.Errorf("parallel remove: %d succeeded", ok)
		}
		hookWant(t, d, search.KindPost, "熊猫", ids[0], false, "removed in parallel")
		hookAgrees(t, d)
	})
}

// TestTopicSearchFollowsWrites: a topic is found while it is shown, by its
// current name.
func TestTopicSearchFollowsWrites(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTest(t, d)
		op := audit.Actor{UID: user(t, d, "operator", true)}
		if _, err := search.Reindex(ctx, d); err != nil {
			t.Fatal(err)
		}
		str := func(v string) *string { return &v }
		i64 := func(v int64) *int64 { return &v }

		tp, err := s.CreateTopic(ctx, op, TopicInput{Name: str("旅行摄影"), Description: str("走遍西藏")})
		if err != nil {
			t.Fatal(err)
		}
		hookWant(t, d, search.KindTopic, "旅行", tp.ID, true, "created")
		hookWant(t, d, search.KindTopic, "摄", tp.ID, true, "created, one character")
		if _, err := s.UpdateTopic(ctx, op, tp.ID, TopicInput{Name: str("城市漫步")}); err != nil {
			t.Fatal(err)
		}
		hookWant(t, d, search.KindTopic, "漫步", tp.ID, true, "renamed, new name")
		hookWant(t, d, search.KindTopic, "旅行", tp.ID, false, "renamed, old name")
		if _, err := s.UpdateTopic(ctx, op, tp.ID, TopicInput{Status: i64(0)}); err != nil {
			t.Fatal(err)
		}
		hookWant(t, d, search.KindTopic, "漫步", tp.ID, false, "hidden")
		if _, err := s.UpdateTopic(ctx, op, tp.ID, TopicInput{Status: i64(1)}); err != nil {
			t.Fatal(err)
		}
		hookWant(t, d, search.KindTopic, "漫步", tp.ID, true, "shown again")

		hidden, err := s.CreateTopic(ctx, op, TopicInput{Name: str("秘密花园"), Status: i64(0)})
		if err != nil {
			t.Fatal(err)
		}
		hookWant(t, d, search.KindTopic, "花园", hidden.ID, false, "created hidden")
		// A refused write (a name another topic holds) changes nothing.
		if _, err := s.UpdateTopic(ctx, op, hidden.ID, TopicInput{Name: str("城市漫步"), Status: i64(1)}); err == nil {
			t.Fatal("took another topic's name")
		}
		hookWant(t, d, search.KindTopic, "花园", hidden.ID, false, "a refused update")
		hookAgrees(t, d)
	})
}

// BenchmarkPostSearchCost sets what the index adds to publishing a post
// beside the whole call: CreatePost (its Touch included), a transaction
// holding only that Touch, and a transaction writing one row (the floor
// of any write: the commit).
//
//	go test ./internal/community -run '^$' -bench PostSearchCost
func BenchmarkPostSearchCost(b *testing.B) {
	for _, e := range []db.Engine{db.SQLite, db.Postgres} {
		b.Run(string(e), func(b *testing.B) {
			ctx := context.Background()
			d := dbtest.Open(b, e)
			s := NewService(d)
			s.Assets, s.People = media.AssetOn, account.Cards
			var uid, pic int64
			err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				if err := tx.QueryRow(ctx, `INSERT INTO users (name, account, created_at, updated_at) VALUES ('bench', 'bench', 1, 1) RETURNING id`).Scan(&uid); err != nil {
					return err
				}
				return tx.QueryRow(ctx, `INSERT INTO media_assets (owner_uid, kind, state, source_key, created_at, updated_at)
					VALUES (?, 'image', 'ready', 'src', 1, 1) RETURNING id`, uid).Scan(&pic)
			})
			if err != nil {
				b.Fatal(err)
			}
			var last int64
			b.Run("create", func(b *testing.B) {
				for b.Loop() {
					c, err := s.CreatePost(ctx, uid, PostInput{Kind: KindPicture, Title: "北京的猫咪 iPhone 教程", Text: "今天天气很好，带猫去公园散步。", Pictures: []int64{pic}})
					if err != nil {
						b.Fatal(err)
					}
					last = c.ID
				}
			})
			b.Run("touch", func(b *testing.B) {
				for b.Loop() {
					if err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error { return search.Touch(ctx, tx, search.KindPost, last) }); err != nil {
						b.Fatal(err)
					}
				}
			})
			// The floor of any write: a transaction writing one row and committing.
			b.Run("one-write-tx", func(b *testing.B) {
				for b.Loop() {
					if err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
						_, err := tx.Exec(ctx, `UPDATE posts SET updated_at = updated_at + 1 WHERE id = ?`, last)
						return err
					}); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
