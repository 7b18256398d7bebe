package catalog

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"prima/internal/membership"
	"prima/internal/messaging"
	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// Video detail and users' interactions with videos: likes, favourites,
// plays and browse history, reports, and the lists under "mine".

// Limits of the interactions.
const (
	// HistoryLimit is how many videos a user's browse history keeps; older
	// rows are dropped as new plays arrive.
	HistoryLimit = 500
	// RelatedSize is how many related videos a detail carries.
	RelatedSize = 8
	// reportedLimit bounds reportVid in the user info.
	reportedLimit = 1000
)

// ReportReasons are the codes a report may give, with what the client
// shows for them.
var ReportReasons = map[string]string{
	"illegal":   "违法违规",
	"vulgar":    "色情低俗",
	"violence":  "血腥暴力",
	"copyright": "侵权盗版",
	"broken":    "无法播放",
	"other":     "其他问题",
}

// ErrBadReason is a report reason outside ReportReasons.
var ErrBadReason = errors.New("catalog: unknown report reason")

// Entitlements decides whether a user may watch a video (membership.Service
// implements it).
type Entitlements interface {
	Check(ctx context.Context, uid int64, v membership.Video) (membership.Access, error)
}

// Playback is where a client plays a video: a signed, expiring HLS URL.
type Playback struct {
	URL       string    `json:"url"`       // the HLS playlist
	Preview   bool      `json:"preview"`   // true: only the preview, the full video is behind the paywall
	PreviewMs int64     `json:"previewMs"` // the preview's length; 0 for the full video
	ExpiresAt time.Time `json:"expiresAt"` // when URL stops working
}

// PlaybackSource hands out playback URLs; internal/media implements it.
// access is the caller's decision for v: when it is not allowed, an
// implementation must return the preview only, never the full rendition,
// and a preview that stops before the end (PreviewRule). nil, nil means v
// has nothing this caller may play: no media, or too short for a preview.
type PlaybackSource interface {
	Playback(ctx context.Context, v Video, access membership.Access) (*Playback, error)
}

// NoMedia is the PlaybackSource of a Prima without the media pipeline: no
// video row has media attached yet, so none has a playback URL, and the
// detail says so with "playback": null rather than an invented address.
type NoMedia struct{}

// Playback is nil: there is no media to play.
func (NoMedia) Playback(context.Context, Video, membership.Access) (*Playback, error) {
	return nil, nil
}

// Paywall is what a client shows over the preview of a video the caller
// may not watch: why, what unlocks it, and a line to show.
type Paywall struct {
	Reason       string `json:"reason"`
	NeedVipLevel int    `json:"needVipLevel"`
	Coins        int64  `json:"coins"`
	Tip          string `json:"tip"`
}

// VideoPaywall is a video's paywall: a paywall and how long the preview
// plays before it; PreviewMs 0 is no preview (too short, or no media),
// the paywall shows at once.
type VideoPaywall struct {
	Paywall
	PreviewMs int64 `json:"previewMs"`
}

// VideoDetail is GET /api/app/vid/info's answer.
type VideoDetail struct {
	Video
	IsLike    bool              `json:"isLike"`
	IsCollect bool              `json:"isCollect"`
	Access    membership.Access `json:"access"`
	Paywall   *VideoPaywall     `json:"paywall"`  // null when allowed
	Playback  *Playback         `json:"playback"` // null when the video has no media
	Uploader  *Uploader         `json:"uploader"` // null for the platform's own catalogue
	Related   []Video           `json:"related"`
}

// Uploader is the user whose upload a video plays (its media's owner, a
// user, not an operator), as the short feed shows them with a follow
// button; isFollow says whether the caller follows them.
type Uploader struct {
	UID      int64  `json:"uid"`
	Name     string `json:"name"`
	Portrait string `json:"portrait"`
	IsFollow bool   `json:"isFollow"`
}

// uploaderOf is video id's uploader as viewer (0: nobody signed in) sees
// them, or nil.
func (s *Service) uploaderOf(ctx context.Context, viewer, id int64) (*Uploader, error) {
	media, err := MediaOf(ctx, s.db, id)
	if errors.Is(err, db.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	c, ok, err := s.uploaderCard(ctx, s.db, media)
	if err != nil || !ok {
		return nil, err
	}
	u := Uploader{UID: c.UID, Name: c.Name, Portrait: c.Portrait}
	if viewer != 0 && viewer != u.UID && s.Follows != nil {
		if u.IsFollow, err = s.Follows.IsFollowing(ctx, viewer, u.UID); err != nil {
			return nil, err
		}
	}
	return &u, nil
}

func memberVideo(v Video) membership.Video {
	return membership.Video{ID: v.ID, VipLevel: v.VipLevel, Coins: v.Coins}
}

// Detail is video id as user uid (0: nobody signed in) sees it;
// db.ErrNotFound for an unknown or unpublished id.
func (s *Service) Detail(ctx context.Context, uid, id int64) (VideoDetail, error) {
	v, err := videoByID(ctx, s.db, id)
	if err != nil {
		return VideoDetail{}, err
	}
	d := VideoDetail{Video: v}
	if d.Access, err = s.Access.Check(ctx, uid, memberVideo(v)); err != nil {
		return d, err
	}
	if !d.Access.Allowed {
		d.Paywall = &VideoPaywall{Paywall: Paywall{Reason: d.Access.Reason, NeedVipLevel: d.Access.Unlock.VipLevel, Coins: d.Access.Unlock.Coins, Tip: d.Access.Tip()}}
	}
	if uid != 0 {
		if d.IsLike, err = hasMark(ctx, s.db, likeList, uid, id); err != nil {
			return d, err
		}
		if d.IsCollect, err = hasMark(ctx, s.db, collectList, uid, id); err != nil {
			return d, err
		}
	}
	if d.Related, err = relatedVideos(ctx, s.db, v, RelatedSize); err != nil {
		return d, err
	}
	all := append([]Video{d.Video}, d.Related...)
	if err := attachTags(ctx, s.db, all); err != nil {
		return d, err
	}
	d.Video, d.Related = all[0], all[1:]
	if d.Playback, err = s.Media.Playback(ctx, d.Video, d.Access); err != nil {
		return d, err
	}
	if d.Paywall != nil && d.Playback != nil {
		d.Paywall.PreviewMs = d.Playback.PreviewMs
	}
	if d.Uploader, err = s.uploaderOf(ctx, uid, id); err != nil {
		return d, err
	}
	return d, nil
}

// LikeState is a video's like state after a like or unlike.
type LikeState struct {
	IsLike    bool  `json:"isLike"`
	LikeCount int64 `json:"likeCount"`
}

// Like sets whether uid likes video id. Repeating it changes nothing; the
// row and the video's like_count move together in one transaction, and
// only when the row really changed, so the count stays equal to the rows
// added through here however the requests race.
func (s *Service) Like(ctx context.Context, uid, id int64, on bool) (LikeState, error) {
	st := LikeState{IsLike: on}
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := checkPublished(ctx, tx, id); err != nil {
			return err
		}
		var changed bool
		var err error
		if on {
			changed, err = addMark(ctx, tx, likeList, uid, id, s.now().Unix())
		} else {
			changed, err = removeMark(ctx, tx, likeList, uid, id)
		}
		if err != nil {
			return err
		}
		if !changed {
			st.LikeCount, err = likeCount(ctx, tx, id)
			return err
		}
		delta := 1
		if !on {
			delta = -1
		}
		if st.LikeCount, err = addLikes(ctx, tx, id, delta); err != nil || !on {
			return err
		}
		return s.noticeLike(ctx, tx, uid, id)
	})
	return st, err
}

// likeNoticeEvery is how often one user's likes of one video may tell its
// uploader: liking, unliking and liking again is one notice a day.
const likeNoticeEvery = 24 * time.Hour

// noticeLike tells the user who uploaded video id's media that uid liked
// it, in the like's transaction. Videos without media, made from an
// operator's upload (the platform's own catalogue), or liked by their own
// uploader tell nobody.
func (s *Service) noticeLike(ctx context.Context, tx *db.Tx, uid, id int64) error {
	var (
		media int64
		title string
	)
	err := tx.QueryRow(ctx, `SELECT media_id, title FROM videos WHERE id = ?`, id).Scan(&media, &title)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	c, ok, err := s.uploaderCard(ctx, tx, media)
	if err != nil || !ok || c.UID == uid {
		return err
	}
	return messaging.NotifyOnce(ctx, tx, s.Events, messaging.Notice{UserID: c.UID, Category: messaging.CategoryInteraction, Kind: "like",
		ActorID: uid, Title: "赞了你的视频", Body: title, Ref: strconv.FormatInt(id, 10)}, likeNoticeEvery, s.now())
}

// Collect sets whether uid has video id among their favourites; repeating
// it changes nothing.
func (s *Service) Collect(ctx context.Context, uid, id int64, on bool) error {
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := checkPublished(ctx, tx, id); err != nil {
			return err
		}
		var err error
		if on {
			_, err = addMark(ctx, tx, collectList, uid, id, s.now().Unix())
		} else {
			_, err = removeMark(ctx, tx, collectList, uid, id)
		}
		return err
	})
}

// Play counts one play of video id and, for a signed-in uid, records it in
// their browse history (trimmed to s.historyLimit) in the same
// transaction. It returns the new play count.
func (s *Service) Play(ctx context.Context, uid, id int64) (int64, error) {
	var n int64
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		if n, err = countPlay(ctx, tx, id); err != nil {
			return err
		}
		if err := countPlayDay(ctx, tx, days.Of(s.now()), id); err != nil {
			return err
		}
		if uid == 0 {
			return nil
		}
		return touchHistory(ctx, tx, uid, id, s.now().Unix(), s.historyLimit)
	})
	return n, err
}

// Report stores uid's report of video id with a reason code from
// ReportReasons. A user reports a video once: a repeat is accepted and
// changes nothing (the first reason stays); added says whether this call
// stored the report.
func (s *Service) Report(ctx context.Context, uid, id int64, reason string) (added bool, err error) {
	if _, ok := ReportReasons[reason]; !ok {
		return false, ErrBadReason
	}
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := checkPublished(ctx, tx, id); err != nil {
			return err
		}
		added, err = insertReport(ctx, tx, uid, id, reason, s.now().Unix())
		return err
	})
	return added, err
}

// ReportedVideos lists the ids of the videos uid reported (the user info's
// reportVid), newest first, at most 1000. Account calls it through its own
// small interface.
func (s *Service) ReportedVideos(ctx context.Context, uid int64) ([]int64, error) {
	return reportedVideos(ctx, s.db, uid, reportedLimit)
}

// Lists under "mine".
const (
	MineLikes   = iota // GET /api/app/mine/like/infoList
	MineCollect        // GET /api/app/mine/collect/infoList and /api/app/mine/collection
	MineHistory        // GET /api/app/mine/history
)

var mineLists = [...]mineList{MineLikes: likeList, MineCollect: collectList, MineHistory: historyList}

type mineKey struct {
	list                 int
	uid                  int64
	pageSize, pageNumber int
}

// Mine lists one page of uid's likes, favourites or history, newest first.
// Like the module listings, a page that follows one this node just served
// is read by keyset from that page's last row, so scrolling on while rows
// are added or removed neither repeats nor skips a video; any other page
// is read by offset, within Window.
func (s *Service) Mine(ctx context.Context, list int, uid int64, pageNumber, pageSize int) (httpx.Page[MineVideo], error) {
	page := httpx.Page[MineVideo]{List: []MineVideo{}, PageNumber: pageNumber, PageSize: pageSize}
	l := mineLists[list]
	total, err := countMine(ctx, s.db, l, uid, Window)
	if err != nil {
		return page, err
	}
	page.Total = total
	offset := (pageNumber - 1) * pageSize
	limit := min(pageSize, Window-offset)
	if limit <= 0 {
		return page, nil
	}
	key := mineKey{list, uid, pageSize, pageNumber}
	var c *cursor
	if at, ok := s.mineAnchors.get(key); ok {
		c = &at
	}
	vs, err := listMine(ctx, s.db, l, uid, c, offset, limit+1)
	if err != nil {
		return page, err
	}
	page.HasMore = len(vs) > limit && offset+limit < Window
	if len(vs) > limit {
		vs = vs[:limit]
	}
	if page.HasMore {
		last := vs[len(vs)-1]
		next := key
		next.pageNumber++
		s.mineAnchors.put(next, cursor{Val: last.At.Unix(), ID: last.ID})
	}
	plain := make([]Video, len(vs))
	for i := range vs {
		plain[i] = vs[i].Video
	}
	if err := attachTags(ctx, s.db, plain); err != nil {
		return page, err
	}
	for i := range vs {
		vs[i].Video = plain[i]
	}
	page.List = vs
	return page, nil
}
