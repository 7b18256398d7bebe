package community

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
)

// feedPost inserts a post and sets the columns the lists order by.
func feedPost(t *testing.T, d *db.DB, author int64, state string, published, likes, comments int64, set string, args ...any) int64 {
	t.Helper()
	id := insertPostRow(t, d, author, KindPicture, state, "", "正文", 0, 0)
	q := `UPDATE posts SET published_at = ?, created_at = ?, like_count = ?, comment_count = ?`
	if set != "" {
		q += ", " + set
	}
	a := append([]any{published, published, likes, comments}, args...)
	if _, err := d.Exec(context.Background(), q+` WHERE id = ?`, append(a, id)...); err != nil {
		t.Fatal(err)
	}
	return id
}

func topicID(t *testing.T, d *db.DB, name string, status int) int64 {
	t.Helper()
	var id int64
	err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		return tx.QueryRow(ctx, `INSERT INTO topics (name, status, created_at) VALUES (?, ?, 1) RETURNING id`, name, status).Scan(&id)
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func feedIDs(t *testing.T, s *Service, q FeedQuery) []int64 {
	t.Helper()
	if q.PageNumber == 0 {
		q.PageNumber, q.PageSize = 1, 50
	}
	page, err := s.Posts(context.Background(), q)
	if err != nil {
		t.Fatalf("%+v: %v", q, err)
	}
	ids := []int64{}
	for _, p := range page.List {
		ids = append(ids, p.ID)
		if p.State != "" && p.State != StatePublished && p.Author.UID != q.Viewer {
			t.Errorf("%+v: post %d in state %s shown to %d", q, p.ID, p.State, q.Viewer)
		}
	}
	return ids
}

func wantIDs(t *testing.T, what string, got []int64, want ...int64) {
	t.Helper()
	if want == nil {
		want = []int64{}
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: %v, want %v", what, got, want)
	}
}

// Every source and sort lists published posts only, in its order; pinned
// posts lead sub-module and topic lists; the author alone sees their
// pending and rejected posts, with state and reason.
func TestFeedSourcesAndSorts(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, c := newTest(t, d)
		now := c.now().Unix()
		day := int64(24 * 3600)
		a, b, viewer := user(t, d, "alice", true), user(t, d, "bobby", true), user(t, d, "viewer", true)
		cats, hidden := topicID(t, d, "猫", 1), topicID(t, d, "隐藏", 0)

		p1 := feedPost(t, d, a, StatePublished, now-5*day, 1, 0, "module_id = 7, topic_id = ?", cats)
		p2 := feedPost(t, d, a, StatePublished, now-4*day, 10, 0, "module_id = 7")
		p3 := feedPost(t, d, b, StatePublished, now-3*day, 0, 3, "module_id = 7, topic_id = ?, pinned_at = 5", cats)
		p4 := feedPost(t, d, b, StatePublished, now-40*day, 50, 50, "featured = 1, topic_id = ?", hidden)
		p5 := feedPost(t, d, b, StatePublished, now-60*day, 100, 0, "")
		// Never shown to others: every state but published.
		pend := feedPost(t, d, a, StatePending, now, 0, 0, "module_id = 7, topic_id = ?", cats)
		rej := feedPost(t, d, a, StateRejected, now-1, 0, 0, "module_id = 7, reason = '广告'")
		if _, err := d.Exec(ctx, `UPDATE posts SET published_at = 0 WHERE id IN (?, ?)`, pend, rej); err != nil {
			t.Fatal(err)
		}
		feedPost(t, d, a, StateRemoved, now-day, 99, 99, "module_id = 7, topic_id = ?", cats)
		feedPost(t, d, a, StateDeleted, now-day, 99, 99, "module_id = 7, topic_id = ?", cats)

		for _, v := range []int64{0, viewer, b} {
			wantIDs(t, "new", feedIDs(t, s, FeedQuery{Viewer: v, Feed: FeedNew}), p3, p2, p1, p4, p5)
			wantIDs(t, "no source", feedIDs(t, s, FeedQuery{Viewer: v}), p3, p2, p1, p4, p5)
			// hot: like + 2*comment: p4 150, p5 100, p2 10, p3 6, p1 1.
			wantIDs(t, "hot", feedIDs(t, s, FeedQuery{Viewer: v, Feed: FeedNew, Sort: SortHot}), p4, p5, p2, p3, p1)
			// recommend: featured p4; then the last 30 days by hot (p2, p3,
			// p1); then older by newest (p5).
			wantIDs(t, "recommend", feedIDs(t, s, FeedQuery{Viewer: v, Feed: FeedRecommend}), p4, p2, p3, p1, p5)
			wantIDs(t, "module new", feedIDs(t, s, FeedQuery{Viewer: v, ModuleID: 7}), p3, p2, p1)
			wantIDs(t, "module hot", feedIDs(t, s, FeedQuery{Viewer: v, ModuleID: 7, Sort: SortHot}), p3, p2, p1)
			wantIDs(t, "topic", feedIDs(t, s, FeedQuery{Viewer: v, TopicID: cats}), p3, p1)
			wantIDs(t, "other module", feedIDs(t, s, FeedQuery{Viewer: v, ModuleID: 8}))
		}
		// Unpinned, p3 falls back to its place.
		if _, err := d.Exec(ctx, `UPDATE posts SET pinned_at = 0 WHERE id = ?`, p3); err != nil {
			t.Fatal(err)
		}
		wantIDs(t, "module hot unpinned", feedIDs(t, s, FeedQuery{ModuleID: 7, Sort: SortHot}), p2, p3, p1)
		if _, err := d.Exec(ctx, `UPDATE posts SET pinned_at = 9 WHERE id = ?`, p1); err != nil {
			t.Fatal(err)
		}
		wantIDs(t, "topic pinned p1", feedIDs(t, s, FeedQuery{TopicID: cats}), p1, p3)

		// A hidden topic: its list is 404.
		if _, err := s.Posts(ctx, FeedQuery{TopicID: hidden, PageNumber: 1, PageSize: 20}); !errors.Is(err, ErrNoTopic) {
			t.Errorf("hidden topic list: %v", err)
		}
		if _, err := s.Posts(ctx, FeedQuery{TopicID: 424242, PageNumber: 1, PageSize: 20}); !errors.Is(err, ErrNoTopic) {
			t.Errorf("missing topic list: %v", err)
		}

		// A user's posts: others see published ones; the author also the
		// pending and rejected ones, newest first, with state and reason.
		wantIDs(t, "alice by others", feedIDs(t, s, FeedQuery{Viewer: viewer, UID: a}), p2, p1)
		wantIDs(t, "alice anonymous", feedIDs(t, s, FeedQuery{UID: a}), p2, p1)
		wantIDs(t, "alice by alice", feedIDs(t, s, FeedQuery{Viewer: a, UID: a}), pend, rej, p2, p1)
		own, err := s.Posts(ctx, FeedQuery{Viewer: a, UID: a, PageNumber: 1, PageSize: 20})
		if err != nil {
			t.Fatal(err)
		}
		if own.List[0].State != StatePending || own.List[1].State != StateRejected || own.List[1].Reason != "广告" || own.List[2].State != StatePublished {
			t.Errorf("own states: %+v", own.List[:3])
		}
		others, _ := s.Posts(ctx, FeedQuery{Viewer: viewer, UID: a, PageNumber: 1, PageSize: 20})
		for _, p := range others.List {
			if p.State != "" || p.Reason != "" {
				t.Errorf("state shown to another user: %+v", p)
			}
		}
		if _, err := s.Posts(ctx, FeedQuery{UID: 987654, PageNumber: 1, PageSize: 20}); !errors.Is(err, ErrNoUser) {
			t.Errorf("missing user: %v", err)
		}

		// The follow feed: a token, and only followed users' posts.
		if _, err := s.Posts(ctx, FeedQuery{Feed: FeedFollow, PageNumber: 1, PageSize: 20}); !errors.Is(err, ErrNeedUser) {
			t.Errorf("anonymous follow feed: %v", err)
		}
		wantIDs(t, "follow none", feedIDs(t, s, FeedQuery{Viewer: viewer, Feed: FeedFollow}))
		if _, err := s.Follow(ctx, viewer, a, true); err != nil {
			t.Fatal(err)
		}
		wantIDs(t, "follow alice", feedIDs(t, s, FeedQuery{Viewer: viewer, Feed: FeedFollow}), p2, p1)

		// Pages: total, hasMore, and the second page continues the first.
		p, err := s.Posts(ctx, FeedQuery{Feed: FeedNew, PageNumber: 1, PageSize: 2})
		if err != nil || p.Total != 5 || !p.HasMore || len(p.List) != 2 {
			t.Fatalf("page 1: %+v %v", p, err)
		}
		wantIDs(t, "page 3", feedIDs(t, s, FeedQuery{Feed: FeedNew, PageNumber: 3, PageSize: 2}), p5)
		p, _ = s.Posts(ctx, FeedQuery{Feed: FeedNew, PageNumber: 3, PageSize: 2})
		if p.HasMore {
			t.Error("last page says hasMore")
		}

		// postCount counts published posts only.
		ext, err := s.Extension(ctx, a)
		if err != nil || ext.PostCount != 2 {
			t.Errorf("alice's postCount %d (%v), want 2", ext.PostCount, err)
		}
	})
}

// call runs handler fn on a request as uid (0 anonymous) and returns the
// status and the envelope's data.
func call(t *testing.T, fn httpx.Handler, method, target, body string, uid int64) (int, json.RawMessage) {
	t.Helper()
	var req *http.Request
	if body == "" {
		req = httptest.NewRequest(method, target, nil)
	} else {
		req = httptest.NewRequest(method, target, stringsReader(body))
		req.Header.Set("Content-Type", "application/json")
	}
	if uid != 0 {
		req = req.WithContext(httpx.WithUserID(req.Context(), uid))
	}
	w := httptest.NewRecorder()
	fn.ServeHTTP(w, req)
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(w.Body.Bytes(), &env)
	return w.Code, env.Data
}

// Bad parameters are 422 (or 401/404) and answer nothing else.
func TestFeedHTTPParams(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, _ := newTest(t, d)
		h := NewHandler(s)
		a := user(t, d, "alice", true)
		feedPost(t, d, a, StatePublished, 10, 0, 0, "")
		hidden := topicID(t, d, "隐藏", 0)
		for _, tc := range []struct {
			url  string
			uid  int64
			want int
		}{
			{"/p", 0, 200},
			{"/p?feed=recommend&sort=hot", 0, 200},
			{"/p?feed=new&moduleID=3", 0, 422},
			{"/p?topicID=1&uid=1", 0, 422},
			{"/p?feed=popular", 0, 422},
			{"/p?sort=random", 0, 422},
			{"/p?moduleID=-1", 0, 422},
			{"/p?topicID=0", 0, 422},
			{"/p?uid=abc", 0, 422},
			{"/p?uid=99999999999999999999", 0, 422},
			{"/p?pageSize=51", 0, 422},
			{"/p?pageNumber=0", 0, 422},
			{"/p?pageNumber=100000", 0, 422},
			{"/p?feed=%00new", 0, 422},
			{"/p?feed=follow", 0, 401},
			{"/p?feed=follow", a, 200},
			{fmt.Sprintf("/p?topicID=%d", hidden), 0, 404},
			{"/p?uid=987654", 0, 404},
		} {
			if code, _ := call(t, h.FeedPosts, "GET", tc.url, "", tc.uid); code != tc.want {
				t.Errorf("%s: %d, want %d", tc.url, code, tc.want)
			}
		}
		for _, tc := range []struct {
			url  string
			want int
		}{
			{"/t?sort=hot", 200}, {"/t?sort=new", 200}, {"/t?sort=x", 422}, {"/t?pageSize=0", 422},
		} {
			if code, _ := call(t, h.Topics, "GET", tc.url, "", 0); code != tc.want {
				t.Errorf("%s: %d, want %d", tc.url, code, tc.want)
			}
		}
		for _, tc := range []struct {
			url  string
			want int
		}{
			{fmt.Sprintf("/t?id=%d", hidden), 404}, {"/t?id=424242", 404}, {"/t?id=-3", 422}, {"/t", 422},
		} {
			if code, _ := call(t, h.Topic, "GET", tc.url, "", 0); code != tc.want {
				t.Errorf("%s: %d, want %d", tc.url, code, tc.want)
			}
		}
	})
}

// Topics: hot and new lists of shown topics with counts; follow is
// idempotent, registered users only, refuses hidden topics; the followed
// list is newest first.
func TestTopics(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, c := newTest(t, d)
		h := NewHandler(s)
		now := c.now().Unix()
		a, b := user(t, d, "alice", true), user(t, d, "bobby", true)
		g := user(t, d, "游客XYZ", false)
		quiet, busy, hidden := topicID(t, d, "安静", 1), topicID(t, d, "热闹", 1), topicID(t, d, "隐藏", 0)
		for range 3 {
			feedPost(t, d, a, StatePublished, now-3600, 0, 0, "topic_id = ?", busy)
		}
		feedPost(t, d, a, StatePublished, now-40*24*3600, 0, 0, "topic_id = ?", quiet) // old: not hot
		feedPost(t, d, a, StatePending, now, 0, 0, "topic_id = ?", quiet)              // not counted
		feedPost(t, d, a, StatePublished, now, 0, 0, "topic_id = ?", hidden)

		page, err := s.Topics(ctx, a, TopicSortHot, 1, 20)
		if err != nil || page.Total != 2 || len(page.List) != 2 || page.List[0].ID != busy || page.List[1].ID != quiet {
			t.Fatalf("hot topics: %+v %v", page, err)
		}
		if page.List[0].PostCount != 3 || page.List[1].PostCount != 1 {
			t.Errorf("post counts %+v", page.List)
		}
		page, _ = s.Topics(ctx, 0, TopicSortNew, 1, 1)
		if page.Total != 2 || !page.HasMore || len(page.List) != 1 {
			t.Errorf("new topics page 1: %+v", page)
		}

		for _, tc := range []struct {
			uid  int64
			body string
			want int
		}{
			{g, fmt.Sprintf(`{"id":%d,"isFollow":true}`, busy), 403},
			{a, fmt.Sprintf(`{"id":%d,"isFollow":true}`, hidden), 404},
			{a, `{"id":424242,"isFollow":true}`, 404},
			{a, `{"id":-1,"isFollow":true}`, 422},
			{a, fmt.Sprintf(`{"id":%d}`, busy), 422},
		} {
			if code, _ := call(t, h.FollowTopic, "POST", "/f", tc.body, tc.uid); code != tc.want {
				t.Errorf("follow %s as %d: %d, want %d", tc.body, tc.uid, code, tc.want)
			}
		}
		if n := scalar(t, d, `SELECT COUNT(*) FROM topic_follows`); n != 0 {
			t.Fatalf("refused follows wrote %d rows", n)
		}
		for range 2 {
			res, err := s.FollowTopic(ctx, a, quiet, true)
			if err != nil || res != (TopicFollowResult{Followed: true, FollowCount: 1}) {
				t.Fatalf("follow quiet: %+v %v", res, err)
			}
		}
		c.add(time.Second)
		if _, err := s.FollowTopic(ctx, a, busy, true); err != nil {
			t.Fatal(err)
		}
		if _, err := s.FollowTopic(ctx, b, busy, true); err != nil {
			t.Fatal(err)
		}
		info, err := s.TopicInfo(ctx, a, busy)
		if err != nil || !info.Followed || info.FollowCount != 2 || info.PostCount != 3 || info.Name != "热闹" {
			t.Errorf("topic info: %+v %v", info, err)
		}
		if info, _ := s.TopicInfo(ctx, 0, busy); info.Followed {
			t.Error("anonymous sees followed")
		}
		if _, err := s.TopicInfo(ctx, 0, hidden); !errors.Is(err, ErrNoTopic) {
			t.Errorf("hidden topic: %v", err)
		}
		fl, err := s.FollowedTopics(ctx, a, 1, 20)
		if err != nil || fl.Total != 2 || fl.List[0].ID != busy || fl.List[1].ID != quiet || !fl.List[0].Followed {
			t.Fatalf("followed: %+v %v", fl, err)
		}
		// A topic hidden later leaves the followed list.
		if _, err := d.Exec(ctx, `UPDATE topics SET status = 0 WHERE id = ?`, quiet); err != nil {
			t.Fatal(err)
		}
		if fl, _ = s.FollowedTopics(ctx, a, 1, 20); fl.Total != 1 || len(fl.List) != 1 {
			t.Errorf("followed after hiding: %+v", fl)
		}
		for range 2 {
			res, err := s.FollowTopic(ctx, a, busy, false)
			if err != nil || res != (TopicFollowResult{Followed: false, FollowCount: 1}) {
				t.Fatalf("unfollow: %+v %v", res, err)
			}
		}
	})
}

// Parallel follows of one topic by one user are one row; the count says 1.
func TestTopicFollowParallel(t *testing.T) {
	d := dbtest.Open(t, db.Postgres)
	ctx := context.Background()
	s, _ := newTest(t, d)
	a := user(t, d, "alice", true)
	tp := topicID(t, d, "并发", 1)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := s.FollowTopic(ctx, a, tp, true)
			if err == nil && res.FollowCount != 1 {
				err = fmt.Errorf("followCount %d", res.FollowCount)
			}
			if err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := scalar(t, d, `SELECT COUNT(*) FROM topic_follows WHERE topic_id = ?`, tp); n != 1 {
		t.Fatalf("%d follow rows, want 1", n)
	}
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }
