package media

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"net/http"
	"strconv"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// Attach errors.
var (
	ErrNoVideo     = errors.New("media: no such video")
	ErrNotVideo    = errors.New("media: the asset is not a video")
	ErrAssetFailed = errors.New("media: the asset failed to transcode")
)

// Attach sets videos.media_id of video to asset (0 detaches), audited as
// "video.media", and takes the video's duration, width and height from the
// asset's probe when it has one. A processing asset may be attached: playback starts when
// it is ready. Setting the current value changes nothing and records nothing.
func (s *Service) Attach(ctx context.Context, actor audit.Actor, video, asset int64) error {
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var current int64
		err := tx.QueryRow(ctx, `SELECT media_id FROM videos WHERE id = ?`+tx.ForUpdate(), video).Scan(&current)
		if errors.Is(err, sql.ErrNoRows) {
			return httpx.Refuse(ErrNoVideo, "", "no video "+strconv.FormatInt(video, 10))
		}
		if err != nil {
			return err
		}
		var durationMS, width, height int64
		if asset != 0 {
			var kind, state string
			err := tx.QueryRow(ctx, `SELECT kind, state, duration_ms, width, height FROM media_assets WHERE id = ?`, asset).Scan(&kind, &state, &durationMS, &width, &height)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				return httpx.Refuse(ErrNotFound, "", "no asset "+strconv.FormatInt(asset, 10))
			case err != nil:
				return err
			case Kind(kind) != Video:
				return ErrNotVideo
			case State(state) == Failed:
				return ErrAssetFailed
			}
		}
		if current == asset {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE videos SET media_id = ? WHERE id = ?`, asset, video); err != nil {
			return err
		}
		after := map[string]int64{"mediaId": asset}
		if durationMS > 0 {
			// The probe measured the upload: the video's duration and size
			// are the media's from now on (seconds, rounded).
			after["duration"], after["width"], after["height"] = (durationMS+500)/1000, width, height
			if _, err := tx.Exec(ctx, `UPDATE videos SET duration = ?, width = ?, height = ? WHERE id = ?`,
				after["duration"], width, height, video); err != nil {
				return err
			}
		}
		if s.Changed != nil {
			tx.AfterCommit(s.Changed)
		}
		return audit.Record(ctx, tx, audit.Entry{Actor: actor, Action: "video.media", TargetType: "video",
			TargetID: strconv.FormatInt(video, 10), Before: map[string]int64{"mediaId": current}, After: after})
	})
}

// AdminAttach is POST /api/admin/videos/media {videoId, mediaId} (operators).
func (h *Handler) AdminAttach(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		VideoID *int64 `json:"videoId"`
		MediaID *int64 `json:"mediaId"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	switch {
	case in.VideoID == nil || *in.VideoID < 1 || *in.VideoID > math.MaxInt64/2:
		return httpx.Invalid("请输入视频ID", "videoId must be a positive integer")
	case in.MediaID == nil || *in.MediaID < 0:
		return httpx.Invalid("请输入文件ID（0 表示取消关联）", "mediaId must be an integer >= 0")
	}
	if err := h.s.Attach(r.Context(), audit.ActorFrom(r), *in.VideoID, *in.MediaID); err != nil {
		return attachErrs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"videoId": *in.VideoID, "mediaId": *in.MediaID})
}
