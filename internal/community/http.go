package community

import (
	"math"
	"net/http"

	"prima/internal/platform/httpx"
)

// Handler serves the follow calls.
type Handler struct{ s *Service }

// NewHandler returns the handlers over s.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

// Follow is POST /api/app/mine/follow {followUID, isFollow}.
func (h *Handler) Follow(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		FollowUID *int64 `json:"followUID"`
		IsFollow  *bool  `json:"isFollow"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	if req.FollowUID == nil {
		return httpx.Invalid("缺少参数 followUID", "followUID is required")
	}
	uid := *req.FollowUID
	if uid < 1 || uid > httpx.MaxID {
		return httpx.Invalid("参数 followUID 无效", "followUID must be a positive integer up to 2^53-1")
	}
	if req.IsFollow == nil {
		return httpx.Invalid("缺少参数 isFollow", "isFollow is required: true to follow, false to unfollow")
	}
	res, err := h.s.Follow(r.Context(), httpx.UserID(r.Context()), uid, *req.IsFollow)
	if err != nil {
		return followErrs.Map(err)
	}
	return httpx.OK(w, res)
}

// Extension is GET /api/app/mine/getUserExtension[?uid=]: the caller's
// counts, or with uid anyone's (public).
func (h *Handler) Extension(w http.ResponseWriter, r *http.Request) error {
	uid, err := subject(r)
	if err != nil {
		return err
	}
	ext, err := h.s.Extension(r.Context(), uid)
	if err != nil {
		return followErrs.Map(err)
	}
	return httpx.OK(w, ext)
}

// List is GET /api/app/follow/list?type=follow|fans&uid=&pageNumber=&pageSize=&cursor=:
// the caller's lists, or with uid anyone's (public).
func (h *Handler) List(w http.ResponseWriter, r *http.Request) error {
	uid, err := subject(r)
	if err != nil {
		return err
	}
	q := httpx.Q(r)
	lq := ListQuery{Viewer: httpx.UserID(r.Context()), UID: uid, Kind: q.String("type"), Cursor: q.String("cursor")}
	lq.PageNumber, lq.PageSize = httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	switch lq.Kind {
	case "":
		lq.Kind = ListFollow
	case ListFollow, ListFans:
	default:
		return httpx.Invalid("列表类型无效", "type must be follow or fans, got "+httpx.Echo(lq.Kind))
	}
	page, err := h.s.List(r.Context(), lq)
	if err != nil {
		return followErrs.Map(err)
	}
	return httpx.OK(w, page)
}

// subject is ?uid= when given, else the caller; anonymous without uid is 401.
func subject(r *http.Request) (int64, error) {
	if r.URL.Query().Has("uid") {
		q := httpx.Q(r)
		uid := q.Required("uid", 1, math.MaxInt64)
		return uid, q.Err()
	}
	if uid := httpx.UserID(r.Context()); uid != 0 {
		return uid, nil
	}
	return 0, httpx.Unauthorized("请先登录", "a token or ?uid= is required")
}
