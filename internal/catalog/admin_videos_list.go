package catalog

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// AdminVideoQuery filters the operators' video list; zero fields do not filter.
type AdminVideoQuery struct {
	ModuleID, SubModuleID int64
	// ModuleType 0..4 keeps the videos of modules of that type (4: short
	// videos); -1 any.
	ModuleType int
	Published  int    // -1 any, 0 drafts, 1 published
	Access     string // "" any, free | vip | svip | gold
	// CoinsMin, CoinsMax bound the price (inclusive); -1 does not bound.
	CoinsMin, CoinsMax int64
	Title              string
	PageSize           int
	// Keyset: After > 0 lists the videos older (smaller id) than After.
	// PageNumber > 0 asks for the old numbered page (COUNT of the first
	// Window rows and OFFSET) instead; the console uses the keyset.
	After      int64
	PageNumber int
}

// AdminVideoPage is one page of the operators' video list. NextCursor
// names where the next page starts (nil on the last page); Total and
// PageNumber are filled only for a numbered page.
type AdminVideoPage struct {
	List       []AdminVideo `json:"list"`
	PageSize   int          `json:"pageSize"`
	HasMore    bool         `json:"hasMore"`
	NextCursor *string      `json:"nextCursor"`
	Total      *int         `json:"total,omitempty"`
	PageNumber int          `json:"pageNumber,omitempty"`
}

// VideoCursor is the opaque cursor of the page after the video id: "v"
// and the id in base 36. ParseVideoCursor reads it back (false: not a
// cursor).
func VideoCursor(id int64) string { return "v" + strconv.FormatInt(id, 36) }

func ParseVideoCursor(c string) (int64, bool) {
	if len(c) < 2 || len(c) > 14 || c[0] != 'v' {
		return 0, false
	}
	id, err := strconv.ParseInt(c[1:], 36, 64)
	if err != nil || id < 1 || id > httpx.MaxID || VideoCursor(id) != c {
		return 0, false
	}
	return id, true
}

// maxTypeModules bounds the per-module walk of a moduleType filter; a
// type with more top-level modules is filtered row by row instead.
const maxTypeModules = 32

// AdminVideos lists videos newest first (by id), drafts included, a page
// at a time: by keyset (q.After) without counting, or by page number for
// old callers. A module or sub-module filter walks the (module_id, id) or
// (sub_module_id, id) index (migration 0058); a moduleType walks that
// index once per top-level module of the type and merges the walks; the
// other filters are checked on the rows of the walk.
func (s *Service) AdminVideos(ctx context.Context, q AdminVideoQuery) (AdminVideoPage, error) {
	page := AdminVideoPage{List: []AdminVideo{}, PageSize: q.PageSize}
	var w db.Where
	if q.SubModuleID > 0 {
		w.And("sub_module_id = ?", q.SubModuleID)
	}
	// The published filter is written as a literal: a partial index on
	// published is usable only when the engine sees the value.
	if q.Published == 0 || q.Published == 1 {
		w.And("published = " + strconv.Itoa(q.Published))
	}
	switch q.Access {
	case "free":
		w.And("vip_level = 0 AND coins = 0")
	case "vip":
		w.And("vip_level = 1 AND coins = 0")
	case "svip":
		w.And("vip_level = 2 AND coins = 0")
	case "gold":
		w.And("coins > 0")
	}
	if q.CoinsMin >= 0 {
		w.And("coins >= ?", q.CoinsMin)
	}
	if q.CoinsMax >= 0 {
		w.And("coins <= ?", q.CoinsMax)
	}
	if q.Title != "" {
		// LIKE ignores ASCII case on SQLite; ILIKE ignores case on PostgreSQL.
		op := "LIKE"
		if s.db.Engine == db.Postgres {
			op = "ILIKE"
		}
		esc := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(q.Title)
		w.And("title "+op+` ? ESCAPE '\'`, "%"+esc+"%")
	}
	// The module walks: one per module named, the merged result in id order.
	var mods []int64
	switch {
	case q.ModuleID > 0:
		mods = []int64{q.ModuleID}
	case q.ModuleType >= 0 && q.SubModuleID == 0:
		ids, err := db.All(ctx, s.db, func(r db.Scanner) (int64, error) {
			var id int64
			return id, r.Scan(&id)
		}, "SELECT id FROM modules WHERE pid = 0 AND module_type = ? ORDER BY id", q.ModuleType)
		if err != nil {
			return page, err
		}
		if len(ids) == 0 {
			return page, nil
		}
		if len(ids) > maxTypeModules {
			w.And("module_id IN (SELECT id FROM modules WHERE pid = 0 AND module_type = ?)", q.ModuleType)
		} else {
			mods = ids
		}
	}
	if q.ModuleType >= 0 && q.SubModuleID > 0 {
		w.And("module_id IN (SELECT id FROM modules WHERE pid = 0 AND module_type = ?)", q.ModuleType)
	}

	if q.PageNumber > 0 {
		return s.adminVideosNumbered(ctx, q, w, mods, page)
	}
	var vs []AdminVideo
	walk := func(extra string, extraArgs ...any) error {
		ww := w
		if extra != "" {
			ww.And(extra, extraArgs...)
		}
		if q.After > 0 {
			ww.And("id < ?", q.After)
		}
		got, err := db.All(ctx, s.db, scanAdminVideo, "SELECT "+adminVideoCols+" FROM videos"+ww.Clause()+" ORDER BY id DESC LIMIT ?",
			append(ww.Args(), q.PageSize+1)...)
		vs = append(vs, got...)
		return err
	}
	if len(mods) == 0 {
		if err := walk(""); err != nil {
			return page, err
		}
	}
	for _, m := range mods {
		if err := walk("module_id = ?", m); err != nil {
			return page, err
		}
	}
	slices.SortFunc(vs, func(a, b AdminVideo) int { return int(b.ID - a.ID) })
	if len(vs) > q.PageSize {
		vs, page.HasMore = vs[:q.PageSize], true
		c := VideoCursor(vs[len(vs)-1].ID)
		page.NextCursor = &c
	}
	if err := adminTags(ctx, s.db, vs); err != nil {
		return page, err
	}
	page.List = vs
	return page, nil
}

// adminVideosNumbered is the old numbered page: the first Window matches
// counted, then OFFSET. Kept for callers that send pageNumber.
func (s *Service) adminVideosNumbered(ctx context.Context, q AdminVideoQuery, w db.Where, mods []int64, page AdminVideoPage) (AdminVideoPage, error) {
	if len(mods) > 0 {
		w.And("module_id IN ("+db.Placeholders(len(mods))+")", int64sAny(mods)...)
	}
	where, args := w.Clause(), w.Args()
	var total int
	if err := s.db.QueryRow(ctx, "SELECT COUNT(*) FROM (SELECT 1 FROM videos"+where+" LIMIT ?) c", append(args, Window)...).Scan(&total); err != nil {
		return page, err
	}
	page.Total, page.PageNumber = &total, q.PageNumber
	offset := (q.PageNumber - 1) * q.PageSize
	vs, err := db.All(ctx, s.db, scanAdminVideo, "SELECT "+adminVideoCols+" FROM videos"+where+" ORDER BY id DESC LIMIT ? OFFSET ?",
		append(args, q.PageSize+1, offset)...)
	if err != nil {
		return page, err
	}
	if len(vs) > q.PageSize {
		vs, page.HasMore = vs[:q.PageSize], true
		c := VideoCursor(vs[len(vs)-1].ID)
		page.NextCursor = &c
	}
	if err := adminTags(ctx, s.db, vs); err != nil {
		return page, err
	}
	page.List = vs
	return page, nil
}

func int64sAny(ids []int64) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}
