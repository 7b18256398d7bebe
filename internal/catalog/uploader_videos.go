package catalog

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"slices"

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
	if ok, err := s.isUser(ctx, uid); err != nil || !ok {
		if err == nil {
			err = ErrNoUser
		}
		return page, err
	}
	// From the user's ready uploads (media's, by owner) to the videos that
	// play them (videos_media): two index ranges, whatever the catalogue's
	// size. Most users' uploads are one IN list; more are read a list at a
	// time and merged.
	ids, err := s.Uploads.UploadsOf(ctx, uid, true)
	if err != nil {
		return page, err
	}
	lists := chunks(ids)
	const where = ` FROM videos v WHERE v.published = 1 AND v.media_id IN (`
	for _, in := range lists {
		var n int
		if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM (SELECT 1`+where+db.Placeholders(len(in))+`) LIMIT ?) c`,
			append(in, Window)...).Scan(&n); err != nil {
			return page, err
		}
		page.Total = min(page.Total+n, Window)
	}
	offset := (pageNumber - 1) * pageSize
	if offset >= page.Total {
		return page, nil
	}
	vs := []Video{}
	for _, in := range lists {
		// One list: the page itself. Several: each list's first
		// offset+pageSize, merged below.
		limit, skip := pageSize, offset
		if len(lists) > 1 {
			limit, skip = offset+pageSize, 0
		}
		part, err := db.All(ctx, s.db, scanVideo, `SELECT `+videoCols+where+db.Placeholders(len(in))+`)
			ORDER BY v.created_at DESC, v.id DESC LIMIT ? OFFSET ?`, append(in, limit, skip)...)
		if err != nil {
			return page, err
		}
		vs = append(vs, part...)
	}
	if len(lists) > 1 {
		slices.SortFunc(vs, func(a, b Video) int {
			if c := b.CreatedAt.Compare(a.CreatedAt); c != 0 {
				return c
			}
			return cmp.Compare(b.ID, a.ID)
		})
		vs = vs[min(offset, len(vs)):min(offset+pageSize, len(vs))]
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
