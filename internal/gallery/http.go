package gallery

import (
	"net/http"

	"prima/internal/platform/audit"
	"prima/internal/platform/httpx"
)

// Handler is the gallery calls.
type Handler struct {
	s *Service
	// videos answers mine/collection for videos (catalog's favourites list).
	videos httpx.Handler
}

// NewHandler wraps s; videoCollects is the handler of the video favourites,
// which mine/collection answers unless asked for galleries.
func NewHandler(s *Service, videoCollects httpx.Handler) *Handler {
	return &Handler{s: s, videos: videoCollects}
}

// List answers GET /api/app/gallery/list?moduleID|subModuleID&pageNumber&pageSize.
func (h *Handler) List(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	gq := Query{ModuleID: q.Int("moduleID", 0, 1, httpx.MaxID), SubModuleID: q.Int("subModuleID", 0, 1, httpx.MaxID)}
	gq.PageNumber, gq.PageSize = httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	if gq.ModuleID == 0 && gq.SubModuleID == 0 {
		return httpx.Invalid("缺少参数 moduleID 或 subModuleID", "moduleID or subModuleID is required")
	}
	page, err := h.s.List(r.Context(), gq)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, page)
}

// VIP answers GET /api/app/gallery/vip?moduleID&pageNumber&pageSize: the
// galleryVip page, galleries with vip_level > 0.
func (h *Handler) VIP(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	gq := Query{ModuleID: q.Int("moduleID", 0, 1, httpx.MaxID), VIP: true}
	gq.PageNumber, gq.PageSize = httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	page, err := h.s.List(r.Context(), gq)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, page)
}

// Info answers GET /api/app/gallery/info?id=: public, personal with a token.
func (h *Handler) Info(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	id := q.Required("id", 1, httpx.MaxID)
	if err := q.Err(); err != nil {
		return err
	}
	d, err := h.s.Detail(r.Context(), httpx.UserID(r.Context()), id)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, d)
}

// Collect answers POST /api/app/gallery/collect {id, isCollect}.
func (h *Handler) Collect(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		ID        *int64 `json:"id"`
		IsCollect *bool  `json:"isCollect"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	id, err := httpx.BodyID(in.ID)
	if err != nil {
		return err
	}
	if in.IsCollect == nil {
		return httpx.Invalid("缺少参数 isCollect", "isCollect (true or false) is required")
	}
	if err := h.s.Collect(r.Context(), httpx.UserID(r.Context()), id, *in.IsCollect); err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]any{"id": id, "isCollect": *in.IsCollect})
}

// Collection answers GET /api/app/mine/collection?type=&pageNumber&pageSize:
// type "video" (the default, the same list as mine/collect/infoList) or
// "gallery" (favourite galleries).
func (h *Handler) Collection(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	typ := q.String("type")
	switch typ {
	case "", "video":
		return h.videos(w, r)
	case "gallery":
	default:
		return httpx.Invalid("参数 type 无效", "type must be video or gallery")
	}
	num, size := httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	page, err := h.s.Collected(r.Context(), httpx.UserID(r.Context()), num, size)
	if err != nil {
		return err
	}
	return httpx.OK(w, page)
}

// adminBody is the JSON of the operators' calls; which fields a call
// takes is said at each.
type adminBody struct {
	ID          *int64  `json:"id"`
	Title       *string `json:"title"`
	SubModuleID *int64  `json:"subModuleID"`
	VipLevel    *int    `json:"vipLevel"`
	Coins       *int64  `json:"coins"`
	Published   *bool   `json:"published"`
	Images      []int64 `json:"images"`
}

func (b adminBody) id() (int64, error) {
	if b.ID == nil || *b.ID < 1 || *b.ID > httpx.MaxID {
		return 0, httpx.Invalid("请输入图集ID", "id must be a positive integer")
	}
	return *b.ID, nil
}

// AdminCreate answers POST /api/admin/galleries {title, subModuleID,
// vipLevel?, coins?, published?, images: [assetId...]}.
func (h *Handler) AdminCreate(w http.ResponseWriter, r *http.Request) error {
	var in adminBody
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	switch {
	case in.Title == nil:
		return httpx.Invalid("请输入标题", "title is required")
	case in.SubModuleID == nil || *in.SubModuleID < 1 || *in.SubModuleID > httpx.MaxID:
		return httpx.Invalid("请选择图片分类", "subModuleID must be a positive integer")
	case in.ID != nil:
		return httpx.Invalid("新建图集不能指定ID", "id is chosen by the server")
	}
	ng := NewGallery{Title: *in.Title, SubModuleID: *in.SubModuleID, Assets: in.Images}
	if in.VipLevel != nil {
		ng.VipLevel = *in.VipLevel
	}
	if in.Coins != nil {
		ng.Coins = *in.Coins
	}
	if in.Published != nil {
		ng.Published = *in.Published
	}
	id, err := h.s.Create(r.Context(), audit.ActorFrom(r), ng)
	if err != nil {
		return errs.Map(err)
	}
	g, err := h.s.adminGallery(r.Context(), id)
	if err != nil {
		return err
	}
	return httpx.OK(w, g)
}

// AdminUpdate answers POST /api/admin/galleries/update {id, title?,
// subModuleID?, vipLevel?, coins?, published?}.
func (h *Handler) AdminUpdate(w http.ResponseWriter, r *http.Request) error {
	var in adminBody
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	id, err := in.id()
	if err != nil {
		return err
	}
	if in.Images != nil {
		return httpx.Invalid("修改图片请使用 galleries/images", "images are set by POST /api/admin/galleries/images")
	}
	if in.SubModuleID != nil && (*in.SubModuleID < 1 || *in.SubModuleID > httpx.MaxID) {
		return httpx.Invalid("请选择图片分类", "subModuleID must be a positive integer")
	}
	g, err := h.s.Update(r.Context(), audit.ActorFrom(r), id, Edit{Title: in.Title, SubModuleID: in.SubModuleID,
		VipLevel: in.VipLevel, Coins: in.Coins, Published: in.Published})
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, g)
}

// AdminPublish answers POST /api/admin/galleries/publish {id, published}.
func (h *Handler) AdminPublish(w http.ResponseWriter, r *http.Request) error {
	var in adminBody
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	id, err := in.id()
	if err != nil {
		return err
	}
	if in.Published == nil {
		return httpx.Invalid("缺少参数 published", "published (true or false) is required")
	}
	g, err := h.s.Update(r.Context(), audit.ActorFrom(r), id, Edit{Published: in.Published})
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, g)
}

// AdminImages answers POST /api/admin/galleries/images {id, images}: the
// gallery's pictures replaced by images, in that order.
func (h *Handler) AdminImages(w http.ResponseWriter, r *http.Request) error {
	var in adminBody
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	id, err := in.id()
	if err != nil {
		return err
	}
	g, err := h.s.SetImages(r.Context(), audit.ActorFrom(r), id, in.Images)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, g)
}

// AdminInfo answers GET /api/admin/galleries/info?id=: every picture
// signed, published or not.
func (h *Handler) AdminInfo(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	id := q.Required("id", 1, httpx.MaxID)
	if err := q.Err(); err != nil {
		return err
	}
	d, err := h.s.AdminDetail(r.Context(), id)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, d)
}
