package community

// Feeds: the lists of posts (GET /api/app/community/posts). Every list
// reads published posts only, except a user's own list, which adds their
// pending and rejected posts with state and reason. Each source walks one
// index (0023's posts_state, 0025's posts_module_pin, posts_topic_pin,
// posts_hot, posts_author_pub; the caller's own list posts_author); the
// recommend order depends on the clock and sorts the published posts,
// bounded by httpx.PageWindow like every list.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// Feed sources of GET /api/app/community/posts?feed=.
const (
	FeedRecommend = "recommend" // featured first, then hot of the last 30 days, then newest
	FeedNew       = "new"       // newest published first
	FeedFollow    = "follow"    // posts of the users the caller follows
)

// Sorts of a feed.
const (
	SortNew = "new" // published_at desc, id desc
	SortHot = "hot" // like_count + 2*comment_count desc, then new
)

// RecentWindow is how far back "hot" looks for the recommend feed and for
// hot topics.
const RecentWindow = 30 * 24 * time.Hour

// ErrNeedUser: the follow feed needs a signed-in caller (401).
var ErrNeedUser = errors.New("community: sign in to see this feed")

// FeedQuery is one list of posts. Exactly one of Feed, ModuleID, TopicID,
// UID names the source (the handler checks it).
type FeedQuery struct {
	Viewer     int64 // 0: anonymous
	Feed       string
	ModuleID   int64
	TopicID    int64
	UID        int64
	Sort       string
	PageNumber int
	PageSize   int
}

// feedHot is the hot score exactly as 0025's posts_hot index writes it.
const feedHot = `(p.like_count + 2 * p.comment_count)`

// Posts is one page of a feed.
func (s *Service) Posts(ctx context.Context, q FeedQuery) (httpx.Page[Post], error) {
	page := httpx.Page[Post]{List: []Post{}, PageNumber: q.PageNumber, PageSize: q.PageSize}
	if q.Sort == "" {
		q.Sort = SortNew
	}
	plan, err := s.feedPlan(ctx, q)
	if err != nil {
		return page, err
	}
	total, err := feedCount(ctx, s, plan)
	if err != nil {
		return page, err
	}
	offset := (q.PageNumber - 1) * q.PageSize
	limit := min(q.PageSize, httpx.PageWindow-offset)
	page.Total = total
	if limit <= 0 {
		return page, nil
	}
	rows, err := feedRows(ctx, s, plan, offset, limit+1)
	if err != nil {
		return page, err
	}
	more := len(rows) > limit
	if more {
		rows = rows[:limit]
	}
	// The SQL already keeps to published posts (and the caller's own); the
	// one visibility rule checks every row once more.
	shown := rows[:0]
	for _, r := range rows {
		if r.visible(q.Viewer) {
			shown = append(shown, r)
		}
	}
	list, err := s.cards(ctx, q.Viewer, shown, plan.own)
	if err != nil {
		return page, err
	}
	page.List = list
	page.HasMore = more && offset+len(rows) < httpx.PageWindow
	page.Total = max(total, offset+len(rows)+db.BoolInt(page.HasMore))
	return page, nil
}

// feedSQL is a list's WHERE clause and ORDER BY with their arguments, and
// whether the list is the caller's own (states shown).
type feedSQL struct {
	where     string
	args      []any
	order     string
	orderArgs []any
	own       bool
}

// feedPlan is the SQL of q.
func (s *Service) feedPlan(ctx context.Context, q FeedQuery) (feedSQL, error) {
	newest := `p.published_at DESC, p.id DESC`
	sorted := func(lead string) string {
		if q.Sort == SortHot {
			return lead + feedHot + ` DESC, ` + newest
		}
		return lead + newest
	}
	switch {
	case q.ModuleID != 0:
		return feedSQL{where: `p.module_id = ? AND p.state = 'published'`, args: []any{q.ModuleID}, order: sorted(`p.pinned_at DESC, `)}, nil
	case q.TopicID != 0:
		if _, err := s.topicRow(ctx, q.TopicID); err != nil {
			return feedSQL{}, err
		}
		return feedSQL{where: `p.topic_id = ? AND p.state = 'published'`, args: []any{q.TopicID}, order: sorted(`p.pinned_at DESC, `)}, nil
	case q.UID != 0:
		if _, err := s.userCard(ctx, s.db, q.UID); err != nil {
			return feedSQL{}, err
		}
		if q.Viewer == q.UID {
			// The author's own list: pending and rejected posts have no
			// published_at yet, so it runs on created_at.
			order := `p.created_at DESC, p.id DESC`
			if q.Sort == SortHot {
				order = feedHot + ` DESC, ` + order
			}
			return feedSQL{where: `p.author_id = ? AND p.state IN ('pending', 'published', 'rejected')`, args: []any{q.UID}, order: order, own: true}, nil
		}
		return feedSQL{where: `p.author_id = ? AND p.state = 'published'`, args: []any{q.UID}, order: sorted(``)}, nil
	}
	switch q.Feed {
	case FeedFollow:
		if q.Viewer == 0 {
			return feedSQL{}, ErrNeedUser
		}
		return feedSQL{where: `p.state = 'published' AND p.author_id IN (SELECT f.followee_id FROM follows f WHERE f.follower_id = ?)`,
			args: []any{q.Viewer}, order: sorted(``)}, nil
	case FeedRecommend:
		cut := s.now().Add(-RecentWindow).Unix()
		recent := `CASE WHEN p.featured = 0 AND p.published_at >= ?`
		return feedSQL{where: `p.state = 'published'`,
			order:     `p.featured DESC, ` + recent + ` THEN 1 ELSE 0 END DESC, ` + recent + ` THEN ` + feedHot + ` ELSE 0 END DESC, ` + newest,
			orderArgs: []any{cut, cut}}, nil
	case FeedNew, "":
		return feedSQL{where: `p.state = 'published'`, order: sorted(``)}, nil
	}
	return feedSQL{}, fmt.Errorf("community: feed %q", q.Feed)
}

// feedCount is how many posts the list holds, capped at PageWindow.
func feedCount(ctx context.Context, s *Service, f feedSQL) (int, error) {
	var n int
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM posts p WHERE `+f.where+` LIMIT ?) c`,
		append(append([]any{}, f.args...), httpx.PageWindow)...).Scan(&n)
	return n, err
}

func feedRows(ctx context.Context, s *Service, f feedSQL, offset, limit int) ([]postRow, error) {
	args := append(append(append([]any{}, f.args...), f.orderArgs...), limit, offset)
	return db.All(ctx, s.db, scanPost, `SELECT `+postColumns+` FROM posts p WHERE `+f.where+` ORDER BY `+f.order+` LIMIT ? OFFSET ?`, args...)
}

// postCount is how many published posts uid has (getUserExtension).
func postCount(ctx context.Context, s *Service, uid int64) (int64, error) {
	var n int64
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM posts p WHERE p.author_id = ? AND p.state = 'published'`, uid).Scan(&n)
	return n, err
}
