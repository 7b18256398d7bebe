package community

import (
	"net/http"
	"strings"

	"prima/internal/platform/httpx"
)

// FeedPosts is GET /api/app/community/posts?feed=&moduleID=&topicID=&uid=&sort=&pageNumber=&pageSize=.
// One source: feed (recommend|new|follow), moduleID, topicID or uid; none
// is feed=new. Public; the follow feed needs a token.
func (h *Handler) FeedPosts(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	fq := FeedQuery{Viewer: httpx.UserID(r.Context()), Feed: q.String("feed"), Sort: q.String("sort")}
	sources := 0
	has := func(name string) bool {
		if strings.TrimSpace(r.URL.Query().Get(name)) != "" {
			sources++
			return true
		}
		return false
	}
	has("feed")
	if has("moduleID") {
		fq.ModuleID = q.Required("moduleID", 1, httpx.MaxID)
	}
	if has("topicID") {
		fq.TopicID = q.Required("topicID", 1, httpx.MaxID)
	}
	if has("uid") {
		fq.UID = q.Required("uid", 1, httpx.MaxID)
	}
	fq.PageNumber, fq.PageSize = httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	if sources > 1 {
		return httpx.Invalid("只能选择一个列表", "give exactly one of feed, moduleID, topicID, uid")
	}
	switch fq.Feed {
	case "", FeedRecommend, FeedNew, FeedFollow:
	default:
		return httpx.Invalid("列表类型无效", "feed must be recommend, new or follow, got "+httpx.Echo(fq.Feed))
	}
	switch fq.Sort {
	case "", SortNew, SortHot:
	default:
		return httpx.Invalid("排序方式无效", "sort must be new or hot, got "+httpx.Echo(fq.Sort))
	}
	page, err := h.s.Posts(r.Context(), fq)
	if err != nil {
		return feedErrs.Map(err)
	}
	return httpx.OK(w, page)
}

// Topics is GET /api/app/community/topics?sort=hot|new&pageNumber=&pageSize= (public).
func (h *Handler) Topics(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	sort := q.String("sort")
	num, size := httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	switch sort {
	case "":
		sort = TopicSortHot
	case TopicSortHot, TopicSortNew:
	default:
		return httpx.Invalid("排序方式无效", "sort must be hot or new, got "+httpx.Echo(sort))
	}
	page, err := h.s.Topics(r.Context(), httpx.UserID(r.Context()), sort, num, size)
	if err != nil {
		return feedErrs.Map(err)
	}
	return httpx.OK(w, page)
}

// Topic is GET /api/app/community/topic?id= (public; 404 hidden or missing).
func (h *Handler) Topic(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	id := q.Required("id", 1, httpx.MaxID)
	if err := q.Err(); err != nil {
		return err
	}
	t, err := h.s.TopicInfo(r.Context(), httpx.UserID(r.Context()), id)
	if err != nil {
		return feedErrs.Map(err)
	}
	return httpx.OK(w, t)
}

// FollowTopic is POST /api/app/community/topic/follow {id, isFollow}
// (registered users).
func (h *Handler) FollowTopic(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		ID       *int64 `json:"id"`
		IsFollow *bool  `json:"isFollow"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	id, err := httpx.BodyID(req.ID)
	if err != nil {
		return err
	}
	if req.IsFollow == nil {
		return httpx.Invalid("缺少参数 isFollow", "isFollow is required: true to follow, false to unfollow")
	}
	res, err := h.s.FollowTopic(r.Context(), httpx.UserID(r.Context()), id, *req.IsFollow)
	if err != nil {
		return feedErrs.Map(err)
	}
	return httpx.OK(w, res)
}

// FollowedTopics is GET /api/app/community/topic/followed?pageNumber=&pageSize= (a user).
func (h *Handler) FollowedTopics(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	num, size := httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	page, err := h.s.FollowedTopics(r.Context(), httpx.UserID(r.Context()), num, size)
	if err != nil {
		return feedErrs.Map(err)
	}
	return httpx.OK(w, page)
}
