package catalog

import (
	"context"
	"database/sql"
	"errors"
	"strconv"

	"prima/internal/account"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// A video plays the upload its media_id names (0: none), and that upload's
// owner, when a user and not an operator, is the video's uploader. Uploads
// are media's (media_assets) and users account's: the catalog reads them
// through Uploads and People, which the app wires to internal/media and
// account.Cards (docs/architecture.md, *The rules*).

// Upload is what the catalog reads of an upload.
type Upload struct {
	ID    int64
	Owner int64 // the uid that uploaded it
	Video bool  // a video, not a picture
	// State is media's: "processing", "ready" or "failed".
	State string
	// What the probe measured (0 until known).
	DurationMS    int64
	Width, Height int
}

// Upload states the catalog asks about.
const (
	UploadReady  = "ready"
	UploadFailed = "failed"
)

// Uploads reads users' uploads (internal/media implements it).
type Uploads interface {
	// UploadOf is upload id, read on q; db.ErrNotFound when there is none.
	UploadOf(ctx context.Context, q db.Querier, id int64) (Upload, error)
	// UploadsOf lists the ids of owner's uploads, only the ready ones
	// when ready is set.
	UploadsOf(ctx context.Context, owner int64, ready bool) ([]int64, error)
}

// noUploads is the Uploads of a catalog without the media pipeline: nobody
// has uploaded anything.
type noUploads struct{}

func (noUploads) UploadOf(context.Context, db.Querier, int64) (Upload, error) {
	return Upload{}, db.ErrNotFound
}
func (noUploads) UploadsOf(context.Context, int64, bool) ([]int64, error) { return nil, nil }

// People reads the users among uids as cards on q, by uid, in one query
// (account.Cards implements it); a uid with no user is absent.
type People func(ctx context.Context, q db.Querier, uids []int64) (map[int64]account.Card, error)

// noPeople is the People of a catalog without the accounts: nobody.
func noPeople(context.Context, db.Querier, []int64) (map[int64]account.Card, error) {
	return map[int64]account.Card{}, nil
}

// ErrNoUpload: the upload named does not exist (404); the error's Detail
// names it.
var ErrNoUpload = errors.New("catalog: no such upload")

// MediaOf is the upload video id plays (0: none), read on q; db.ErrNotFound
// when there is no such video. The media pipeline reads it to hand out the
// video's playback (media.VideoMedia).
func MediaOf(ctx context.Context, q db.Querier, id int64) (int64, error) {
	var media int64
	err := q.QueryRow(ctx, `SELECT media_id FROM videos WHERE id = ?`, id).Scan(&media)
	return media, db.NotFound(err)
}

// uploaderCard is the card of the user whose upload media is, read on q;
// ok is false for no upload (media 0 or missing), a missing user, or an
// operator's upload (the platform's own catalogue).
func (s *Service) uploaderCard(ctx context.Context, q db.Querier, media int64) (c account.Card, ok bool, err error) {
	if media == 0 {
		return c, false, nil
	}
	up, err := s.Uploads.UploadOf(ctx, q, media)
	if errors.Is(err, db.ErrNotFound) {
		return c, false, nil
	}
	if err != nil {
		return c, false, err
	}
	cards, err := s.People(ctx, q, []int64{up.Owner})
	if err != nil {
		return c, false, err
	}
	c, ok = cards[up.Owner]
	return c, ok && c.Role == httpx.RoleUser, nil
}

// isUser reports whether uid is a user's (not an operator's, not missing).
func (s *Service) isUser(ctx context.Context, uid int64) (bool, error) {
	cards, err := s.People(ctx, s.db, []int64{uid})
	c, ok := cards[uid]
	return ok && c.Role == httpx.RoleUser, err
}

// inChunk bounds the ids of one IN list: a user's uploads are few, but
// not bounded, and both engines cap a statement's parameters.
var inChunk = 1000

// chunks cuts ids into IN lists of at most inChunk.
func chunks(ids []int64) [][]any {
	var out [][]any
	for len(ids) > 0 {
		n := min(len(ids), inChunk)
		args := make([]any, n)
		for i, id := range ids[:n] {
			args[i] = id
		}
		out = append(out, args)
		ids = ids[n:]
	}
	return out
}

// LikesReceived implements community.LikesReceived: the likes other users
// gave to videos whose media uid uploaded. Videos an operator made from
// their own uploads count for the operator; a user's likes of their own
// videos do not count.
func (s *Service) LikesReceived(ctx context.Context, uid int64) (int64, error) {
	ids, err := s.Uploads.UploadsOf(ctx, uid, false)
	if err != nil {
		return 0, err
	}
	var total int64
	for _, in := range chunks(ids) {
		var n int64
		if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM video_likes l JOIN videos v ON v.id = l.video_id
			WHERE v.media_id IN (`+db.Placeholders(len(in))+`) AND l.user_id <> ?`, append(in, uid)...).Scan(&n); err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// AttachMedia sets videos.media_id of video to upload asset (0 detaches),
// audited as "video.media", and takes the video's duration, width and
// height from the upload's probe when it has one. A processing upload may
// be attached: playback starts when it is ready; a picture or a failed
// upload is refused (ErrInput). Setting the current value changes nothing
// and records nothing. ErrNoVideo and ErrNoUpload name the missing id.
func (s *Service) AttachMedia(ctx context.Context, actor audit.Actor, video, asset int64) error {
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var current int64
		err := tx.QueryRow(ctx, `SELECT media_id FROM videos WHERE id = ?`+tx.ForUpdate(), video).Scan(&current)
		if errors.Is(err, sql.ErrNoRows) {
			return detailed(ErrNoVideo, "视频不存在", "no video "+strconv.FormatInt(video, 10))
		}
		if err != nil {
			return err
		}
		var up Upload
		if asset != 0 {
			up, err = s.Uploads.UploadOf(ctx, tx, asset)
			switch {
			case errors.Is(err, db.ErrNotFound):
				return detailed(ErrNoUpload, "文件不存在", "no asset "+strconv.FormatInt(asset, 10))
			case err != nil:
				return err
			case !up.Video:
				return invalid("只能关联视频文件", "the asset is a picture")
			case up.State == UploadFailed:
				return invalid("该视频转码失败，不能关联", "the asset failed; upload it again")
			}
		}
		if current == asset {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE videos SET media_id = ? WHERE id = ?`, asset, video); err != nil {
			return err
		}
		after := map[string]int64{"mediaId": asset}
		if up.DurationMS > 0 {
			// The probe measured the upload: the video's duration and size
			// are the media's from now on (seconds, rounded).
			after["duration"], after["width"], after["height"] = (up.DurationMS+500)/1000, int64(up.Width), int64(up.Height)
			if _, err := tx.Exec(ctx, `UPDATE videos SET duration = ?, width = ?, height = ? WHERE id = ?`,
				after["duration"], up.Width, up.Height, video); err != nil {
				return err
			}
		}
		tx.AfterCommit(s.Invalidate)
		return audit.Record(ctx, tx, audit.Entry{Actor: actor, Action: "video.media", TargetType: "video",
			TargetID: strconv.FormatInt(video, 10), Before: map[string]int64{"mediaId": current}, After: after})
	})
}
