package community

// Topics as users see them: the list (hot or new), one topic's page, and
// following topics. A hidden topic (status 0) is missing to users: its page
// answers 404, it leaves every list and its posts leave the topic list.

import (
	"context"
	"database/sql"
	"errors"
	"strconv"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// Topic sorts of GET /api/app/community/topics.
const (
	TopicSortHot = "hot" // most posts published in RecentWindow, then sort, then id
	TopicSortNew = "new" // newest topic first
)

// ErrNoTopic: the topic does not exist or is hidden (404).
var ErrNoTopic = errors.New("community: no such topic")

// Topic is a topic as lists and its page show it.
type Topic struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Cover       string `json:"cover"`
	PostCount   int64  `json:"postCount"`   // published posts
	FollowCount int64  `json:"followCount"` // users following it
	Followed    bool   `json:"followed"`    // the caller follows it
}

const topicColumns = `t.id, t.name, t.description, t.cover`

func scanTopic(sc db.Scanner) (Topic, error) {
	var t Topic
	err := sc.Scan(&t.ID, &t.Name, &t.Description, &t.Cover)
	return t, err
}

// topicRow reads shown topic id (ErrNoTopic when missing or hidden).
func (s *Service) topicRow(ctx context.Context, id int64) (Topic, error) {
	t, err := scanTopic(s.db.QueryRow(ctx, `SELECT `+topicColumns+` FROM topics t WHERE t.id = ? AND t.status = 1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Topic{}, ErrNoTopic
	}
	return t, err
}

// topicCounts fills the counts and the viewer's follows of ts.
func topicCounts(ctx context.Context, q db.Querier, viewer int64, ts []Topic) error {
	if len(ts) == 0 {
		return nil
	}
	ids := make([]int64, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	in := db.Placeholders(len(ids))
	posts, err := db.All(ctx, q, scanPair[int64], `SELECT topic_id, COUNT(*) FROM posts WHERE state = 'published' AND topic_id IN (`+in+`) GROUP BY topic_id`, idArgs(ids)...)
	if err != nil {
		return err
	}
	fans, err := db.All(ctx, q, scanPair[int64], `SELECT topic_id, COUNT(*) FROM topic_follows WHERE topic_id IN (`+in+`) GROUP BY topic_id`, idArgs(ids)...)
	if err != nil {
		return err
	}
	mine := map[int64]bool{}
	if viewer != 0 {
		list, err := db.All(ctx, q, scanPair[int64], `SELECT topic_id, topic_id FROM topic_follows WHERE user_id = ? AND topic_id IN (`+in+`)`, append([]any{viewer}, idArgs(ids)...)...)
		if err != nil {
			return err
		}
		for _, p := range list {
			mine[p.a] = true
		}
	}
	pc, fc := map[int64]int64{}, map[int64]int64{}
	for _, p := range posts {
		pc[p.a] = p.b
	}
	for _, p := range fans {
		fc[p.a] = p.b
	}
	for i := range ts {
		ts[i].PostCount, ts[i].FollowCount, ts[i].Followed = pc[ts[i].ID], fc[ts[i].ID], mine[ts[i].ID]
	}
	return nil
}

// Topics is a page of the shown topics in sort order.
func (s *Service) Topics(ctx context.Context, viewer int64, sort string, pageNumber, pageSize int) (httpx.Page[Topic], error) {
	page := httpx.Page[Topic]{List: []Topic{}, PageNumber: pageNumber, PageSize: pageSize}
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM topics WHERE status = 1`).Scan(&page.Total); err != nil {
		return page, err
	}
	offset := (pageNumber - 1) * pageSize
	var (
		list []Topic
		err  error
	)
	if sort == TopicSortNew {
		list, err = db.All(ctx, s.db, scanTopic, `SELECT `+topicColumns+` FROM topics t WHERE t.status = 1
			ORDER BY t.created_at DESC, t.id DESC LIMIT ? OFFSET ?`, pageSize, offset)
	} else {
		cut := s.now().Add(-RecentWindow).Unix()
		list, err = db.All(ctx, s.db, scanTopic, `SELECT `+topicColumns+` FROM topics t
			LEFT JOIN (SELECT topic_id, COUNT(*) AS n FROM posts WHERE state = 'published' AND published_at >= ? AND topic_id <> 0 GROUP BY topic_id) h
			ON h.topic_id = t.id
			WHERE t.status = 1 ORDER BY COALESCE(h.n, 0) DESC, t.sort, t.id LIMIT ? OFFSET ?`, cut, pageSize, offset)
	}
	if err != nil {
		return page, err
	}
	if err := topicCounts(ctx, s.db, viewer, list); err != nil {
		return page, err
	}
	if list != nil {
		page.List = list
	}
	page.HasMore = offset+len(list) < page.Total
	return page, nil
}

// TopicInfo is shown topic id with its counts.
func (s *Service) TopicInfo(ctx context.Context, viewer, id int64) (Topic, error) {
	t, err := s.topicRow(ctx, id)
	if err != nil {
		return Topic{}, err
	}
	ts := []Topic{t}
	err = topicCounts(ctx, s.db, viewer, ts)
	return ts[0], err
}

// TopicFollowResult answers POST /api/app/community/topic/follow.
type TopicFollowResult struct {
	Followed    bool  `json:"followed"`
	FollowCount int64 `json:"followCount"`
}

// FollowTopic makes uid follow (on) or stop following (!on) shown topic id.
// Idempotent: a repeated or parallel follow is one row. Registered users
// only (ErrGuest).
func (s *Service) FollowTopic(ctx context.Context, uid, id int64, on bool) (TopicFollowResult, error) {
	if s.Limiter != nil {
		if err := ratelimit.Enforce(ctx, s.Limiter, "topicfollow:uid:"+strconv.FormatInt(uid, 10), FollowRate.N, FollowRate.Per, ratelimit.FailOpen); err != nil {
			return TopicFollowResult{}, err
		}
	}
	out := TopicFollowResult{Followed: on}
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		me, err := s.userCard(ctx, tx, uid)
		if err != nil {
			return err
		}
		if me.guest {
			return ErrGuest
		}
		var shown int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM topics WHERE id = ? AND status = 1`, id).Scan(&shown); err != nil {
			return err
		}
		if shown == 0 {
			return ErrNoTopic
		}
		if on {
			_, err = tx.Exec(ctx, `INSERT INTO topic_follows (user_id, topic_id, created_at) VALUES (?, ?, ?)
				ON CONFLICT (user_id, topic_id) DO NOTHING`, uid, id, s.now().Unix())
		} else {
			_, err = tx.Exec(ctx, `DELETE FROM topic_follows WHERE user_id = ? AND topic_id = ?`, uid, id)
		}
		if err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT COUNT(*) FROM topic_follows WHERE topic_id = ?`, id).Scan(&out.FollowCount)
	})
	if err != nil {
		return TopicFollowResult{}, err
	}
	return out, nil
}

// FollowedTopics is a page of the shown topics uid follows, newest follow
// first.
func (s *Service) FollowedTopics(ctx context.Context, uid int64, pageNumber, pageSize int) (httpx.Page[Topic], error) {
	page := httpx.Page[Topic]{List: []Topic{}, PageNumber: pageNumber, PageSize: pageSize}
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM topic_follows f JOIN topics t ON t.id = f.topic_id
		WHERE f.user_id = ? AND t.status = 1`, uid).Scan(&page.Total); err != nil {
		return page, err
	}
	offset := (pageNumber - 1) * pageSize
	list, err := db.All(ctx, s.db, scanTopic, `SELECT `+topicColumns+` FROM topic_follows f JOIN topics t ON t.id = f.topic_id
		WHERE f.user_id = ? AND t.status = 1 ORDER BY f.created_at DESC, f.topic_id DESC LIMIT ? OFFSET ?`, uid, pageSize, offset)
	if err != nil {
		return page, err
	}
	if err := topicCounts(ctx, s.db, uid, list); err != nil {
		return page, err
	}
	if list != nil {
		page.List = list
	}
	page.HasMore = offset+len(list) < page.Total
	return page, nil
}
