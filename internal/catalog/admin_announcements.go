package catalog

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// The operator's announcements (GET/POST /api/admin/announcements, POST
// /api/admin/announcements/delete), with the rules ads and pre-sale
// banners share: a showing window, a link the phone app can follow, a
// picture address (docs/api.md, *Operator content*).

// Bounds of announcements, ads and pre-sale banners.
const (
	MaxBannerTitle     = 100  // characters
	MaxAnnounceContent = 2000 // characters
	MaxLink            = 500  // characters
	MaxImage           = 500  // characters
	// MaxWindowTime bounds startsAt/endsAt (unix seconds): 2100-01-01.
	MaxWindowTime = 4102444800
	// AdminListLimit is the default page of these lists; MaxAdminListLimit the largest.
	AdminListLimit    = 50
	MaxAdminListLimit = 200
)

// The things these calls name that may not exist (404).
var (
	ErrNoAnnouncement = errors.New("catalog: no such announcement")
	ErrNoAd           = errors.New("catalog: no such ad")
	ErrNoPreSale      = errors.New("catalog: no such pre-sale banner")
)

// bannerErrs answers the announcement, ad and pre-sale calls.
var bannerErrs = append(httpx.ErrorMap{
	{Err: ErrNoAnnouncement, Status: http.StatusNotFound, Tip: "公告不存在", Msg: "no such announcement"},
	{Err: ErrNoAd, Status: http.StatusNotFound, Tip: "广告不存在", Msg: "no such ad"},
	{Err: ErrNoPreSale, Status: http.StatusNotFound, Tip: "预售横幅不存在", Msg: "no such pre-sale banner"},
}, adminErrs...)

// Window states, computed at read time from startsAt/endsAt.
const (
	StateScheduled = "scheduled" // starts later
	StateShowing   = "showing"
	StateEnded     = "ended"
)

func windowState(starts, ends, now int64) string {
	switch {
	case starts > now:
		return StateScheduled
	case ends != 0 && ends <= now:
		return StateEnded
	}
	return StateShowing
}

// checkWindow: both within 0..MaxWindowTime, and an end (0: none) after the start.
func checkWindow(starts, ends int64) error {
	if starts < 0 || starts > MaxWindowTime {
		return invalid("开始时间无效", "startsAt must be unix seconds in [0, 4102444800]")
	}
	if ends < 0 || ends > MaxWindowTime {
		return invalid("结束时间无效", "endsAt must be 0 (no end) or unix seconds up to 4102444800")
	}
	if ends != 0 && ends <= starts {
		return invalid("结束时间必须晚于开始时间", "endsAt must be after startsAt")
	}
	return nil
}

// namedTarget is a link the phone app maps to one of its pages
// (web/src/lib/links.ts): prima://vipcenter, vipcenter?x=1, www.example.com.
var namedTarget = regexp.MustCompile(`^(prima://)?[A-Za-z0-9][A-Za-z0-9._~\-/?=&%]*$`)

// CheckLink is a link an ad, banner or announcement may carry: empty (no
// link), an http(s) URL, an app path ("/mine/vipcenter") or a named target
// of the phone app; never another scheme (javascript:, data:), spaces or
// line breaks. It returns the link trimmed.
func CheckLink(link string) (string, error) {
	link = strings.TrimSpace(link)
	switch {
	case link == "":
		return "", nil
	case utf8.RuneCountInString(link) > MaxLink:
		return "", invalid(fmt.Sprintf("链接不能超过 %d 个字符", MaxLink), "link too long")
	case IsLink(link):
		return link, nil
	case strings.HasPrefix(strings.ToLower(link), "prima://") && namedTarget.MatchString("prima://"+link[len("prima://"):]):
		return link, nil
	case !hasOtherScheme(link) && !strings.HasPrefix(link, "/") && namedTarget.MatchString(link):
		return link, nil
	}
	return "", invalid("链接无效：请填写 http(s):// 地址、以 / 开头的应用内路径或 prima:// 页面名", "link must be an http(s) URL, an app path or a named target")
}

// CheckImage is a picture address: required, an http(s) URL or a /media/ path.
func CheckImage(field, label, u string) (string, error) {
	u = strings.TrimSpace(u)
	switch {
	case u == "":
		return "", invalid("请填写"+label, field+" is required")
	case utf8.RuneCountInString(u) > MaxImage || !isIcon(u):
		return "", invalid(label+"地址无效：请填写 http(s):// 地址或 /media/ 开头的路径", field+" must be an http(s) URL or a /media/ path")
	}
	return u, nil
}

// AdminAnnouncement is an announcement as the console sees it.
type AdminAnnouncement struct {
	ID        int64  `json:"id"`
	Title     string `json:"title"`
	Content   string `json:"content"`
	Link      string `json:"link"`
	Sort      int64  `json:"sort"`
	StartsAt  int64  `json:"startsAt"`
	EndsAt    int64  `json:"endsAt"`
	State     string `json:"state"`
	CreatedAt int64  `json:"createdAt"`
}

// AnnouncementInput is POST /api/admin/announcements: every field (an
// update replaces them all).
type AnnouncementInput struct {
	ID       *int64 `json:"id"`
	Title    string `json:"title"`
	Content  string `json:"content" text:"multiline"`
	Link     string `json:"link"`
	Sort     int64  `json:"sort"`
	StartsAt int64  `json:"startsAt"`
	EndsAt   int64  `json:"endsAt"`
}

func (in AnnouncementInput) check() (AnnouncementInput, error) {
	var err error
	if in.Title, err = cleanText("title", "公告标题", in.Title, MaxBannerTitle); err != nil {
		return in, err
	}
	in.Content = strings.TrimSpace(in.Content)
	if utf8.RuneCountInString(in.Content) > MaxAnnounceContent {
		return in, invalid(fmt.Sprintf("公告内容不能超过 %d 个字", MaxAnnounceContent), "content too long")
	}
	if in.Link, err = CheckLink(in.Link); err != nil {
		return in, err
	}
	if err := checkSort(in.Sort); err != nil {
		return in, err
	}
	return in, checkWindow(in.StartsAt, in.EndsAt)
}

// The audited fields of an announcement.
func (a AdminAnnouncement) fields() map[string]any {
	return map[string]any{"title": a.Title, "content": a.Content, "link": a.Link, "sort": a.Sort, "startsAt": a.StartsAt, "endsAt": a.EndsAt}
}

const announcementCols = "id, title, content, link, sort, starts_at, ends_at, created_at"

func (s *Service) scanAnnouncement(r db.Scanner) (AdminAnnouncement, error) {
	var a AdminAnnouncement
	err := r.Scan(&a.ID, &a.Title, &a.Content, &a.Link, &a.Sort, &a.StartsAt, &a.EndsAt, &a.CreatedAt)
	a.State = windowState(a.StartsAt, a.EndsAt, s.now().Unix())
	return a, err
}

// KeysetPage is a page of a console list, newest first; NextCursor (null
// on the last page) continues it.
type KeysetPage[T any] struct {
	List       []T     `json:"list"`
	NextCursor *string `json:"nextCursor"`
}

// keysetPage cuts rows (read with limit+1) to limit and sets the cursor to
// the last row's id.
func keysetPage[T any](rows []T, limit int, id func(T) int64) KeysetPage[T] {
	p := KeysetPage[T]{List: rows}
	if p.List == nil {
		p.List = []T{}
	}
	if len(rows) > limit {
		p.List = rows[:limit]
		next := strconv.FormatInt(id(rows[limit-1]), 10)
		p.NextCursor = &next
	}
	return p
}

// AdminAnnouncements is one page of every announcement (scheduled, showing
// and ended), newest first; before 0 starts at the newest.
func (s *Service) AdminAnnouncements(ctx context.Context, before int64, limit int) (KeysetPage[AdminAnnouncement], error) {
	if before == 0 {
		before = math.MaxInt64
	}
	rows, err := db.All(ctx, s.db, s.scanAnnouncement, "SELECT "+announcementCols+" FROM announcements WHERE id < ? ORDER BY id DESC LIMIT ?", before, limit+1)
	if err != nil {
		return KeysetPage[AdminAnnouncement]{}, err
	}
	return keysetPage(rows, limit, func(a AdminAnnouncement) int64 { return a.ID }), nil
}

func (s *Service) lockAnnouncement(ctx context.Context, tx *db.Tx, id int64) (AdminAnnouncement, error) {
	a, err := s.scanAnnouncement(tx.QueryRow(ctx, "SELECT "+announcementCols+" FROM announcements WHERE id = ?"+tx.ForUpdate(), id))
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return a, ErrNoAnnouncement
	}
	return a, err
}

// SaveAnnouncement creates (no id) or replaces announcement in.ID, in one
// transaction with its audit row ("announcement.create" / "announcement.update";
// an update that changes nothing writes none).
func (s *Service) SaveAnnouncement(ctx context.Context, actor audit.Actor, in AnnouncementInput) (AdminAnnouncement, error) {
	in, err := in.check()
	if err != nil {
		return AdminAnnouncement{}, err
	}
	var out AdminAnnouncement
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		tx.AfterCommit(s.Invalidate) // the public pages show it (pagecache)
		now := s.now()
		if in.ID == nil {
			id, err := InsertAnnouncement(ctx, tx, Announcement{Title: in.Title, Content: in.Content, Link: in.Link}, int(in.Sort), in.StartsAt, in.EndsAt, now.Unix())
			if err != nil {
				return err
			}
			if out, err = s.lockAnnouncement(ctx, tx, id); err != nil {
				return err
			}
			return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "announcement.create", TargetType: "announcement",
				TargetID: strconv.FormatInt(id, 10), After: out.fields()}, now)
		}
		before, err := s.lockAnnouncement(ctx, tx, *in.ID)
		if err != nil {
			return err
		}
		out = before
		out.Title, out.Content, out.Link, out.Sort, out.StartsAt, out.EndsAt = in.Title, in.Content, in.Link, in.Sort, in.StartsAt, in.EndsAt
		out.State = windowState(out.StartsAt, out.EndsAt, now.Unix())
		b, a := changed(before.fields(), out.fields())
		if len(a) == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, "UPDATE announcements SET title = ?, content = ?, link = ?, sort = ?, starts_at = ?, ends_at = ? WHERE id = ?",
			out.Title, out.Content, out.Link, out.Sort, out.StartsAt, out.EndsAt, out.ID); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "announcement.update", TargetType: "announcement",
			TargetID: strconv.FormatInt(out.ID, 10), Before: b, After: a}, now)
	})
	return out, err
}

// DeleteAnnouncement removes announcement id, audited "announcement.delete".
func (s *Service) DeleteAnnouncement(ctx context.Context, actor audit.Actor, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		tx.AfterCommit(s.Invalidate) // the public pages show it (pagecache)
		a, err := s.lockAnnouncement(ctx, tx, id)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM announcements WHERE id = ?", id); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "announcement.delete", TargetType: "announcement",
			TargetID: strconv.FormatInt(id, 10), Before: a.fields()}, s.now())
	})
}

// changed keeps the fields whose values differ, as before and after maps.
func changed(before, after map[string]any) (map[string]any, map[string]any) {
	b, a := map[string]any{}, map[string]any{}
	for k, v := range after {
		if before[k] != v {
			b[k], a[k] = before[k], v
		}
	}
	return b, a
}

// Handlers.

// listParams reads ?cursor (a previous page's nextCursor) and ?limit.
func listParams(r *http.Request) (before int64, limit int, err error) {
	q := httpx.Q(r)
	before = q.Int("cursor", 0, 1, math.MaxInt64)
	limit = int(q.Int("limit", AdminListLimit, 1, MaxAdminListLimit))
	return before, limit, q.Err()
}

// AdminAnnouncements answers GET /api/admin/announcements?cursor&limit.
func (h *Handler) AdminAnnouncements(w http.ResponseWriter, r *http.Request) error {
	before, limit, err := listParams(r)
	if err != nil {
		return err
	}
	page, err := h.s.AdminAnnouncements(r.Context(), before, limit)
	if err != nil {
		return err
	}
	return httpx.OK(w, page)
}

// AdminSaveAnnouncement answers POST /api/admin/announcements.
func (h *Handler) AdminSaveAnnouncement(w http.ResponseWriter, r *http.Request) error {
	var in AnnouncementInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if in.ID != nil {
		if _, err := httpx.BodyID(in.ID); err != nil {
			return err
		}
	}
	a, err := h.s.SaveAnnouncement(r.Context(), audit.ActorFrom(r), in)
	if err != nil {
		return bannerErrs.Map(err)
	}
	return httpx.OK(w, a)
}

// AdminDeleteAnnouncement answers POST /api/admin/announcements/delete {id}.
func (h *Handler) AdminDeleteAnnouncement(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.DecodeID(w, r)
	if err != nil {
		return err
	}
	if err := h.s.DeleteAnnouncement(r.Context(), audit.ActorFrom(r), id); err != nil {
		return bannerErrs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"id": id})
}

// checkPictureID bounds a pictureId (an uploaded picture's asset id).
func checkPictureID(id int64) error {
	if id < 1 || id > httpx.MaxID {
		return invalid("参数 pictureId 无效", "pictureId must be an uploaded picture's id")
	}
	return nil
}

// publishPicture copies uploaded picture id to a public immutable URL, as
// a video's cover is (publishCover), before the transaction; undo deletes
// it again when the save is refused. An unknown asset is 404
// (ErrCoverNotFound); a video, a file or a picture not yet ready is 422.
func (s *Service) publishPicture(ctx context.Context, id int64) (url string, undo func(), err error) {
	undo = func() {}
	url, err = s.Covers.PublishCover(ctx, id)
	switch {
	case errors.Is(err, ErrCoverNotFound):
		return "", undo, detailed(ErrCoverNotFound, fmt.Sprintf("图片 %d 不存在", id), "no picture "+strconv.FormatInt(id, 10))
	case errors.Is(err, ErrCoverNotImage):
		return "", undo, invalid("只能使用上传成功的图片（视频或处理中的文件不行）", "asset "+strconv.FormatInt(id, 10)+" is not a ready picture")
	case err != nil:
		return "", undo, err
	}
	return url, func() { s.removeCover(ctx, url) }, nil
}
