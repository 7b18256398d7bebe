package catalog

// The operator's queue of video reports (GET /api/admin/videos/reports,
// POST /api/admin/videos/reports/resolve; issue 20 §5, moderation). Users
// report a video once each (interact_store.go); operators handle the
// reports of one video together: dismiss them (the video stays as it is)
// or unpublish the video. Either way every open report of the video
// becomes resolved with the action taken, in one transaction with the
// audit row "video.report.resolve" (and "video.unpublish" when the video
// was published), so two operators handling the same video at once cannot
// both act: the second finds no open report and gets 409.

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// Report states and handlings.
const (
	ReportOpen     = "open"
	ReportResolved = "resolved"

	ReportDismiss   = "dismiss"
	ReportUnpublish = "unpublish"
)

// MaxReportPage bounds a page of the queue.
const MaxReportPage = 50

// VideoReports is one video's reports in the queue: how many are in the
// state asked, by reason code, and the latest one's time; Resolution is
// the action of the latest handling (resolved only).
type VideoReports struct {
	VideoID    int64            `json:"videoId"`
	Title      string           `json:"title"`
	Published  bool             `json:"published"`
	Count      int64            `json:"count"`
	Reasons    map[string]int64 `json:"reasons"`
	LastAt     int64            `json:"lastAt"`
	Resolution string           `json:"resolution,omitempty"`
	ResolvedAt int64            `json:"resolvedAt,omitempty"`
}

// VideoReportPage is a page of the queue, videos by id, newest first;
// nextCursor continues it (null on the last page).
type VideoReportPage struct {
	List       []VideoReports `json:"list"`
	NextCursor *string        `json:"nextCursor"`
}

var errBadReportCursor = errors.New("catalog: malformed report cursor")

// AdminVideoReports lists the videos with reports in state (open or
// resolved), newest video first, size per page, after cursor (the last
// video id of the previous page, "" for the first). Keyset on the index
// (state, video_id): no count, no offset.
func (s *Service) AdminVideoReports(ctx context.Context, state, cursor string, size int) (VideoReportPage, error) {
	out := VideoReportPage{List: []VideoReports{}}
	after := int64(httpx.MaxID) + 1
	if cursor != "" {
		n, err := strconv.ParseInt(cursor, 10, 64)
		if err != nil || n < 1 || n > httpx.MaxID {
			return out, errBadReportCursor
		}
		after = n
	}
	type agg struct {
		id, count, last, resolved int64
		resolution                string
	}
	rows, err := db.All(ctx, s.db, func(sc db.Scanner) (agg, error) {
		var a agg
		err := sc.Scan(&a.id, &a.count, &a.last, &a.resolved)
		return a, err
	}, `SELECT video_id, COUNT(*), MAX(created_at), MAX(resolved_at) FROM video_reports WHERE state = ? AND video_id < ?
		GROUP BY video_id ORDER BY video_id DESC LIMIT ?`, state, after, size+1)
	if err != nil {
		return out, err
	}
	if len(rows) > size {
		rows = rows[:size]
		c := strconv.FormatInt(rows[size-1].id, 10)
		out.NextCursor = &c
	}
	if len(rows) == 0 {
		return out, nil
	}
	ids := make([]any, len(rows))
	for i, r := range rows {
		ids[i] = r.id
	}
	in := `(` + db.Placeholders(len(ids)) + `)`
	type video struct {
		id        int64
		title     string
		published bool
	}
	vs, err := db.All(ctx, s.db, func(sc db.Scanner) (video, error) {
		var (
			v   video
			pub int
		)
		err := sc.Scan(&v.id, &v.title, &pub)
		v.published = pub == 1
		return v, err
	}, `SELECT id, title, published FROM videos WHERE id IN `+in, ids...)
	if err != nil {
		return out, err
	}
	videos := make(map[int64]video, len(vs))
	for _, v := range vs {
		videos[v.id] = v
	}
	type group struct {
		id, n         int64
		reason, resol string
	}
	groups, err := db.All(ctx, s.db, func(sc db.Scanner) (group, error) {
		var g group
		err := sc.Scan(&g.id, &g.reason, &g.resol, &g.n)
		return g, err
	}, `SELECT video_id, reason, resolution, COUNT(*) FROM video_reports WHERE state = ? AND video_id IN `+in+`
		GROUP BY video_id, reason, resolution ORDER BY video_id, MAX(resolved_at)`, append([]any{state}, ids...)...)
	if err != nil {
		return out, err
	}
	reasons := map[int64]map[string]int64{}
	resolution := map[int64]string{}
	for _, g := range groups {
		if reasons[g.id] == nil {
			reasons[g.id] = map[string]int64{}
		}
		reasons[g.id][g.reason] += g.n
		if g.resol != "" {
			resolution[g.id] = g.resol
		}
	}
	for _, r := range rows {
		v := videos[r.id]
		item := VideoReports{VideoID: r.id, Title: v.title, Published: v.published, Count: r.count, Reasons: reasons[r.id], LastAt: r.last}
		if item.Reasons == nil {
			item.Reasons = map[string]int64{}
		}
		if state == ReportResolved {
			item.Resolution, item.ResolvedAt = resolution[r.id], r.resolved
		}
		out.List = append(out.List, item)
	}
	return out, nil
}

// ReportsResolved answers a handling: how many reports it closed and
// whether the video is published now.
type ReportsResolved struct {
	VideoID   int64  `json:"videoId"`
	Action    string `json:"action"`
	Resolved  int64  `json:"resolved"`
	Published bool   `json:"published"`
}

// ResolveVideoReports handles the open reports of video id with action
// (dismiss or unpublish). A video with no open report is 409 (handled
// already); no such video is 404.
func (s *Service) ResolveVideoReports(ctx context.Context, actor audit.Actor, id int64, action string) (ReportsResolved, error) {
	out := ReportsResolved{VideoID: id, Action: action}
	if action != ReportDismiss && action != ReportUnpublish {
		return out, invalid("处理方式无效", "action must be dismiss or unpublish, got "+httpx.Echo(action))
	}
	now := s.now()
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var pub int
		err := tx.QueryRow(ctx, `SELECT published FROM videos WHERE id = ?`+tx.ForUpdate(), id).Scan(&pub)
		if errors.Is(db.NotFound(err), db.ErrNotFound) {
			return detailed(ErrNoVideo, "视频不存在", "no video "+strconv.FormatInt(id, 10))
		}
		if err != nil {
			return err
		}
		res, err := tx.Exec(ctx, `UPDATE video_reports SET state = ?, resolution = ?, resolved_at = ? WHERE video_id = ? AND state = ?`,
			ReportResolved, action, now.Unix(), id, ReportOpen)
		if err != nil {
			return err
		}
		if out.Resolved, err = res.RowsAffected(); err != nil {
			return err
		}
		if out.Resolved == 0 {
			return detailed(ErrInUse, "该视频的举报已处理", "video "+strconv.FormatInt(id, 10)+" has no open report")
		}
		out.Published = pub == 1
		target := strconv.FormatInt(id, 10)
		if action == ReportUnpublish && out.Published {
			if _, err := tx.Exec(ctx, "UPDATE videos SET published = 0, updated_at = ? WHERE id = ?", now.Unix(), id); err != nil {
				return err
			}
			if err := searchTouchVideo(ctx, tx, id); err != nil {
				return err
			}
			tx.AfterCommit(s.Invalidate)
			out.Published = false
			if err := audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "video.unpublish", TargetType: "video", TargetID: target,
				Before: map[string]bool{"published": true}, After: map[string]any{"published": false, "reason": "reports"}}, now); err != nil {
				return err
			}
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "video.report.resolve", TargetType: "video", TargetID: target,
			Before: map[string]any{"open": out.Resolved, "published": pub == 1},
			After:  map[string]any{"action": action, "resolved": out.Resolved, "published": out.Published}}, now)
	})
	return out, err
}

// AdminVideoReports answers GET /api/admin/videos/reports?status=open|resolved&cursor=&size=.
func (h *Handler) AdminVideoReports(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	state := q.String("status")
	size := q.Int("size", 20, 1, MaxReportPage)
	cursor := q.String("cursor")
	if err := q.Err(); err != nil {
		return err
	}
	if state == "" {
		state = ReportOpen
	}
	if state != ReportOpen && state != ReportResolved {
		return httpx.Invalid("状态无效", "status must be open or resolved, got "+httpx.Echo(state))
	}
	page, err := h.s.AdminVideoReports(r.Context(), state, cursor, int(size))
	if errors.Is(err, errBadReportCursor) {
		return httpx.Invalid("分页参数无效", "cursor is not one this server handed out")
	}
	if err != nil {
		return err
	}
	return httpx.OK(w, page)
}

// AdminResolveVideoReports answers POST /api/admin/videos/reports/resolve {id, action}.
func (h *Handler) AdminResolveVideoReports(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		ID     *int64 `json:"id"`
		Action string `json:"action"`
	}
	if err := httpx.Decode(w, r, &b); err != nil {
		return err
	}
	id, err := httpx.BodyID(b.ID)
	if err != nil {
		return err
	}
	out, err := h.s.ResolveVideoReports(r.Context(), audit.ActorFrom(r), id, b.Action)
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, out)
}
