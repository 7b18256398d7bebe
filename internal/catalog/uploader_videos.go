package catalog

import (
	"context"
	"errors"
	"net/http"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// ErrNoUser: the uid names no user (operators and missing ids alike).
var ErrNoUser = errors.New("catalog: no such user")

// UserVideos is one page of the published videos whose media uid uploaded,
// newest first: what their page's 视频 tab lists. Only a published video
// whose media finished processing counts; drafts, unpublished videos and
// uploads no video plays stay out. ErrNoUser when uid is not a user's.
func (s *Service) UserVideos(ctx context.Context, uid int64, pageNumber, pageSize int) (httpx.Page[Video], error) {
	page := httpx.Page[Video]{List: []Video{}, PageNumber: pageNumber, PageSize: pageSize}
	var n int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM users WHERE id = ? AND role = 'user'`, uid).Scan(&n); err != nil {
		return page, err
	}
	if n == 0 {
		return page, ErrNoUser
	}
	// From the user's uploads (media_assets_owner) to the videos that play
	// them (videos_media): two index ranges, whatever the catalogue's size.
	from := ` FROM videos v JOIN media_assets m ON m.id = v.media_id
		WHERE m.owner_uid = ? AND m.state = 'ready' AND v.media_id > 0 AND v.published = 1`
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM (SELECT 1`+from+` LIMIT ?) c`, uid, Window).Scan(&page.Total); err != nil {
		return page, err
	}
	offset := (pageNumber - 1) * pageSize
	if offset >= page.Total {
		return page, nil
	}
	vs, err := db.All(ctx, s.db, scanVideo, `SELECT `+videoCols+from+` ORDER BY v.created_at DESC, v.id DESC LIMIT ? OFFSET ?`,
		uid, pageSize, offset)
	if err != nil {
		return page, err
	}
	if err := attachTags(ctx, s.db, vs); err != nil {
		return page, err
	}
	page.List = vs
	page.HasMore = offset+len(vs) < page.Total
	return page, nil
}

// UserVideos answers GET /api/app/user/videos?uid=&pageNumber=&pageSize=
// (public): a user's published videos.
func (h *Handler) UserVideos(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	uid := q.Required("uid", 1, httpx.MaxID)
	num, size := httpx.PageParams(q, 18)
	if err := q.Err(); err != nil {
		return err
	}
	page, err := h.s.UserVideos(r.Context(), uid, num, size)
	if errors.Is(err, ErrNoUser) {
		return httpx.NotFound("用户不存在", "no user with this uid")
	}
	if err != nil {
		return err
	}
	return httpx.OK(w, page)
}
