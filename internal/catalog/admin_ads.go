package catalog

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"

	"prima/internal/platform/audit"
	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// The operator's ads and banners (GET/POST /api/admin/ads, POST
// /api/admin/ads/delete) with their click counts: ads.clicks is the running
// total, ad_clicks the clicks per Asia/Shanghai day (migration 0060).

// AdPositions are the slots an ad may fill. The phone app shows
// "home_banner" (home's carousel); "splash" and "popup" are in the remote
// configuration for clients that show them.
var AdPositions = []string{"home_banner", "splash", "popup"}

func isAdPosition(p string) bool {
	for _, a := range AdPositions {
		if a == p {
			return true
		}
	}
	return false
}

// AdClicks are an ad's clicks today, in the last 7 days (today included)
// and ever.
type AdClicks struct {
	Today int64 `json:"today"`
	Days7 int64 `json:"days7"`
	Total int64 `json:"total"`
}

// AdminAd is an ad as the console sees it.
type AdminAd struct {
	ID        int64    `json:"id"`
	Title     string   `json:"title"`
	Image     string   `json:"image"`
	Link      string   `json:"link"`
	Position  string   `json:"position"`
	Sort      int64    `json:"sort"`
	StartsAt  int64    `json:"startsAt"`
	EndsAt    int64    `json:"endsAt"`
	State     string   `json:"state"`
	Clicks    AdClicks `json:"clicks"`
	CreatedAt int64    `json:"createdAt"`
}

// AdInput is POST /api/admin/ads: every field (an update replaces them all).
// PictureID, when set, names an uploaded ready picture (POST
// /api/admin/media/upload) published as the ad's image at a public
// immutable URL (publishPicture); Image is then ignored.
type AdInput struct {
	ID        *int64 `json:"id"`
	Title     string `json:"title"`
	Image     string `json:"image"`
	PictureID *int64 `json:"pictureId"`
	Link      string `json:"link"`
	Position  string `json:"position"`
	Sort      int64  `json:"sort"`
	StartsAt  int64  `json:"startsAt"`
	EndsAt    int64  `json:"endsAt"`
}

func (in AdInput) check() (AdInput, error) {
	var err error
	in.Title = strings.TrimSpace(in.Title)
	if len([]rune(in.Title)) > MaxBannerTitle {
		return in, invalid("广告标题不能超过 100 个字", "title too long")
	}
	in.Position = strings.TrimSpace(in.Position)
	if !isAdPosition(in.Position) {
		return in, invalid("广告位置应为 home_banner（首页轮播）、splash（启动页）或 popup（弹窗）", "position must be one of "+strings.Join(AdPositions, ", "))
	}
	if in.PictureID != nil {
		if err := checkPictureID(*in.PictureID); err != nil {
			return in, err
		}
		in.Image = ""
	} else if in.Image, err = CheckImage("image", "广告图片", in.Image); err != nil {
		return in, err
	}
	if in.Link, err = CheckLink(in.Link); err != nil {
		return in, err
	}
	if err := checkSort(in.Sort); err != nil {
		return in, err
	}
	return in, checkWindow(in.StartsAt, in.EndsAt)
}

func (a AdminAd) fields() map[string]any {
	return map[string]any{"title": a.Title, "image": a.Image, "link": a.Link, "position": a.Position, "sort": a.Sort, "startsAt": a.StartsAt, "endsAt": a.EndsAt}
}

const adCols = "id, title, image, link, position, sort, starts_at, ends_at, clicks, created_at"

func (s *Service) scanAd(r db.Scanner) (AdminAd, error) {
	var a AdminAd
	err := r.Scan(&a.ID, &a.Title, &a.Image, &a.Link, &a.Position, &a.Sort, &a.StartsAt, &a.EndsAt, &a.Clicks.Total, &a.CreatedAt)
	a.State = windowState(a.StartsAt, a.EndsAt, s.now().Unix())
	return a, err
}

// fillClicks reads today's and the last 7 days' clicks of ads in one query.
func (s *Service) fillClicks(ctx context.Context, q db.Querier, ads []AdminAd) error {
	if len(ads) == 0 {
		return nil
	}
	now := s.now()
	today, from := days.Of(now), days.Of(now.AddDate(0, 0, -6))
	args := []any{today, from}
	marks := make([]string, len(ads))
	at := map[int64]int{}
	for i, a := range ads {
		marks[i] = "?"
		args = append(args, a.ID)
		at[a.ID] = i
	}
	rows, err := q.Query(ctx, `SELECT ad_id, COALESCE(SUM(CASE WHEN day = ? THEN clicks ELSE 0 END), 0), COALESCE(SUM(clicks), 0)
		FROM ad_clicks WHERE day >= ? AND ad_id IN (`+strings.Join(marks, ", ")+`) GROUP BY ad_id`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id, t, w int64
		if err := rows.Scan(&id, &t, &w); err != nil {
			return err
		}
		ads[at[id]].Clicks.Today, ads[at[id]].Clicks.Days7 = t, w
	}
	return rows.Err()
}

// AdminAds is one page of the ads (every state), newest first, of one
// position or all (position "").
func (s *Service) AdminAds(ctx context.Context, position string, before int64, limit int) (KeysetPage[AdminAd], error) {
	if position != "" && !isAdPosition(position) {
		return KeysetPage[AdminAd]{}, invalid("广告位置参数错误", "position must be one of "+strings.Join(AdPositions, ", "))
	}
	if before == 0 {
		before = math.MaxInt64
	}
	var w db.Where
	w.And("id < ?", before)
	if position != "" {
		w.And("position = ?", position)
	}
	rows, err := db.All(ctx, s.db, s.scanAd, "SELECT "+adCols+" FROM ads"+w.Clause()+" ORDER BY id DESC LIMIT ?", append(w.Args(), limit+1)...)
	if err != nil {
		return KeysetPage[AdminAd]{}, err
	}
	page := keysetPage(rows, limit, func(a AdminAd) int64 { return a.ID })
	return page, s.fillClicks(ctx, s.db, page.List)
}

func (s *Service) lockAd(ctx context.Context, tx *db.Tx, id int64) (AdminAd, error) {
	a, err := s.scanAd(tx.QueryRow(ctx, "SELECT "+adCols+" FROM ads WHERE id = ?"+tx.ForUpdate(), id))
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return a, ErrNoAd
	}
	return a, err
}

// SaveAd creates (no id) or replaces ad in.ID with its audit row
// ("ad.create" / "ad.update"; an update that changes nothing writes none).
// Its clicks stay with it.
func (s *Service) SaveAd(ctx context.Context, actor audit.Actor, in AdInput) (AdminAd, error) {
	in, err := in.check()
	if err != nil {
		return AdminAd{}, err
	}
	if in.PictureID != nil {
		var undo func()
		if in.Image, undo, err = s.publishPicture(ctx, *in.PictureID); err != nil {
			return AdminAd{}, err
		}
		defer func() { // a refused save leaves no published file behind
			if err != nil {
				undo()
			}
		}()
	}
	var out AdminAd
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		tx.AfterCommit(s.Invalidate) // the public pages show it (pagecache)
		now := s.now()
		if in.ID == nil {
			id, err := InsertAd(ctx, tx, Ad{Title: in.Title, Image: in.Image, Link: in.Link, Position: in.Position}, int(in.Sort), in.StartsAt, in.EndsAt, now.Unix())
			if err != nil {
				return err
			}
			if out, err = s.lockAd(ctx, tx, id); err != nil {
				return err
			}
			return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "ad.create", TargetType: "ad",
				TargetID: strconv.FormatInt(id, 10), After: out.fields()}, now)
		}
		before, err := s.lockAd(ctx, tx, *in.ID)
		if err != nil {
			return err
		}
		out = before
		out.Title, out.Image, out.Link, out.Position, out.Sort, out.StartsAt, out.EndsAt = in.Title, in.Image, in.Link, in.Position, in.Sort, in.StartsAt, in.EndsAt
		out.State = windowState(out.StartsAt, out.EndsAt, now.Unix())
		b, a := changed(before.fields(), out.fields())
		if len(a) == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, "UPDATE ads SET title = ?, image = ?, link = ?, position = ?, sort = ?, starts_at = ?, ends_at = ? WHERE id = ?",
			out.Title, out.Image, out.Link, out.Position, out.Sort, out.StartsAt, out.EndsAt, out.ID); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "ad.update", TargetType: "ad",
			TargetID: strconv.FormatInt(out.ID, 10), Before: b, After: a}, now)
	})
	if err == nil && out.ID != 0 {
		one := []AdminAd{out}
		if err := s.fillClicks(ctx, s.db, one); err == nil {
			out = one[0]
		}
	}
	return out, err
}

// DeleteAd removes ad id and its daily click rows, audited "ad.delete"
// (before: its fields and total clicks).
func (s *Service) DeleteAd(ctx context.Context, actor audit.Actor, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		tx.AfterCommit(s.Invalidate) // the public pages show it (pagecache)
		a, err := s.lockAd(ctx, tx, id)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM ad_clicks WHERE ad_id = ?", id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM ads WHERE id = ?", id); err != nil {
			return err
		}
		before := a.fields()
		before["clicks"] = a.Clicks.Total
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "ad.delete", TargetType: "ad",
			TargetID: strconv.FormatInt(id, 10), Before: before}, s.now())
	})
}

// countAdClickDay adds one click to ad id's total and to today's count, in
// one transaction; db.ErrNotFound for an unknown ad.
func (s *Service) countAdClickDay(ctx context.Context, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := countAdClick(ctx, tx, id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO ad_clicks (ad_id, day, clicks) VALUES (?, ?, 1)
			ON CONFLICT (ad_id, day) DO UPDATE SET clicks = ad_clicks.clicks + 1`, id, days.Of(s.now()))
		return err
	})
}

// Handlers.

// AdminAds answers GET /api/admin/ads?position&cursor&limit.
func (h *Handler) AdminAds(w http.ResponseWriter, r *http.Request) error {
	before, limit, err := listParams(r)
	if err != nil {
		return err
	}
	q := httpx.Q(r)
	position := q.String("position")
	if err := q.Err(); err != nil {
		return err
	}
	page, err := h.s.AdminAds(r.Context(), position, before, limit)
	if err != nil {
		return bannerErrs.Map(err)
	}
	return httpx.OK(w, page)
}

// AdminSaveAd answers POST /api/admin/ads.
func (h *Handler) AdminSaveAd(w http.ResponseWriter, r *http.Request) error {
	var in AdInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if in.ID != nil {
		if _, err := httpx.BodyID(in.ID); err != nil {
			return err
		}
	}
	a, err := h.s.SaveAd(r.Context(), audit.ActorFrom(r), in)
	if err != nil {
		return bannerErrs.Map(err)
	}
	return httpx.OK(w, a)
}

// AdminDeleteAd answers POST /api/admin/ads/delete {id}.
func (h *Handler) AdminDeleteAd(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.DecodeID(w, r)
	if err != nil {
		return err
	}
	if err := h.s.DeleteAd(r.Context(), audit.ActorFrom(r), id); err != nil {
		return bannerErrs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"id": id})
}
