package community

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"

	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// CreatePost is POST /api/app/community/post (a user; guests 403).
func (h *Handler) CreatePost(w http.ResponseWriter, r *http.Request) error {
	var in PostInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	c, err := h.s.CreatePost(r.Context(), httpx.UserID(r.Context()), in)
	if err != nil {
		return publishToHTTP(w, err)
	}
	return httpx.OK(w, c)
}

// PublishRules is GET /api/app/community/rules (public).
func (h *Handler) PublishRules(w http.ResponseWriter, r *http.Request) error {
	v, err := h.s.PublishRules(r.Context())
	if err != nil {
		return err
	}
	return httpx.OK(w, v)
}

// publishToHTTP maps the publishing errors, then the shared ones.
func publishToHTTP(w http.ResponseWriter, err error) error {
	var (
		bad   *PostInputError
		muted *MutedError
		le    *ratelimit.LimitedError
	)
	switch {
	case errors.As(err, &bad):
		return httpx.Invalid(bad.Tip, bad.Msg)
	case errors.As(err, &muted):
		until := muted.Until.In(time.FixedZone("CST", 8*3600)).Format("2006-01-02 15:04")
		return httpx.Forbidden("你已被禁言至 "+until+"，暂时不能发布", "muted until "+muted.Until.UTC().Format(time.RFC3339))
	case errors.Is(err, ErrGuestPublish):
		return httpx.Forbidden("注册登录后才能发布", "guests cannot publish: register first")
	case errors.Is(err, ErrClientIDReused):
		return httpx.Conflict("这条内容已用同一编号发布过", "clientID already names another post of yours")
	case errors.Is(err, ErrPublishAsset):
		return httpx.NotFound("图片或视频不存在", "no such upload of yours")
	case errors.Is(err, ErrPublishTopic):
		return httpx.NotFound("话题不存在", "no such topic")
	case errors.Is(err, ErrPublishModule):
		return httpx.NotFound("分区不存在", "moduleID is not a community sub-module")
	case errors.As(err, &le):
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(le.RetryAfter.Seconds())))))
		return httpx.TooMany("发布太频繁，请稍后再试", "at most 10 posts per 10 minutes")
	}
	return toHTTP(w, err)
}
