package gallery

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// GET /api/admin/galleries: the operator's list of every gallery, drafts
// included, newest (highest id) first by keyset: no count and no offset,
// so every page costs what the first does.

// Bounds of the operator's list.
const (
	AdminListLimit    = 20
	MaxAdminListLimit = 100
	MaxTitleFilter    = 80
)

// AdminQuery selects the operator's list: Published -1 all, 0 drafts, 1
// published; Title a part of the title; Before the previous page's last id
// (0: the first page).
type AdminQuery struct {
	Published int
	Title     string
	Before    int64
	Limit     int
}

// AdminPage is a page of the operator's list; NextCursor (null on the last
// page) continues it.
type AdminPage struct {
	List       []Gallery `json:"list"`
	NextCursor *string   `json:"nextCursor"`
}

// AdminList is one page of galleries for the console, covers signed.
func (s *Service) AdminList(ctx context.Context, q AdminQuery) (AdminPage, error) {
	page := AdminPage{List: []Gallery{}}
	before := q.Before
	if before == 0 {
		before = math.MaxInt64
	}
	var w db.Where
	w.And("g.id < ?", before)
	if q.Published >= 0 {
		w.And("g.published = ?", q.Published)
	}
	if q.Title != "" {
		op := "LIKE" // ignores ASCII case on SQLite
		if s.db.Engine == db.Postgres {
			op = "ILIKE"
		}
		esc := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(q.Title)
		w.And("g.title "+op+` ? ESCAPE '\'`, "%"+esc+"%")
	}
	list, err := db.All(ctx, s.db, scanGallery, "SELECT "+galleryCols+galleryFrom+w.Clause()+" ORDER BY g.id DESC LIMIT ?", append(w.Args(), q.Limit+1)...)
	if err != nil {
		return page, err
	}
	if len(list) > q.Limit {
		next := strconv.FormatInt(list[q.Limit-1].ID, 10)
		page.NextCursor = &next
		list = list[:q.Limit]
	}
	if err := s.signCovers(ctx, list); err != nil {
		return page, err
	}
	page.List = list
	return page, nil
}

// AdminList answers GET /api/admin/galleries?cursor&published&title&limit.
func (h *Handler) AdminList(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	aq := AdminQuery{
		Before:    q.Int("cursor", 0, 1, math.MaxInt64),
		Limit:     int(q.Int("limit", AdminListLimit, 1, MaxAdminListLimit)),
		Published: int(q.Int("published", -1, 0, 1)),
		Title:     q.String("title"),
	}
	if err := q.Err(); err != nil {
		return err
	}
	if utf8.RuneCountInString(aq.Title) > MaxTitleFilter {
		return httpx.Invalid("标题关键词不能超过 80 个字", "title filter longer than 80 characters")
	}
	page, err := h.s.AdminList(r.Context(), aq)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, page)
}
