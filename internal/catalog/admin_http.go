package catalog

import (
	"math"
	"net/http"

	"prima/internal/platform/audit"
	"prima/internal/platform/httpx"
)

// The operator content calls, mounted under /api/admin behind the
// console's gate (the content role) in internal/app/routes.go (docs/api.md,
// "Operator content").

// AdminModules answers GET /api/admin/modules.
func (h *Handler) AdminModules(w http.ResponseWriter, r *http.Request) error {
	ms, err := h.s.AdminModules(r.Context())
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, ms)
}

// AdminCreateModule answers POST /api/admin/modules {name, moduleType, sort, pid}.
func (h *Handler) AdminCreateModule(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		PID        *int64 `json:"pid"`
		Name       string `json:"name"`
		ModuleType *int64 `json:"moduleType"`
		Sort       *int64 `json:"sort"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	mi := ModuleInput{Name: in.Name, Type: in.ModuleType}
	if in.PID != nil {
		if *in.PID < 0 || *in.PID > httpx.MaxID {
			return httpx.Invalid("参数 pid 无效", "pid must be 0 (a top-level module) or a module id")
		}
		mi.PID = *in.PID
	}
	if in.Sort != nil {
		mi.Sort = *in.Sort
	}
	m, err := h.s.CreateModule(r.Context(), audit.ActorFrom(r), mi)
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, m)
}

// AdminUpdateModule answers POST /api/admin/modules/update {id, name?, sort?}.
func (h *Handler) AdminUpdateModule(w http.ResponseWriter, r *http.Request) error {
	id, change, err := decodeChange(w, r)
	if err != nil {
		return err
	}
	m, err := h.s.UpdateModule(r.Context(), audit.ActorFrom(r), id, change)
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, m)
}

// AdminDeleteModule answers POST /api/admin/modules/delete {id}.
func (h *Handler) AdminDeleteModule(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.DecodeID(w, r)
	if err != nil {
		return err
	}
	if err := h.s.DeleteModule(r.Context(), audit.ActorFrom(r), id); err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"id": id})
}

// decodeChange reads {id, name?, sort?}: a rename or reorder of a module or a tag.
func decodeChange(w http.ResponseWriter, r *http.Request) (int64, ModuleChange, error) {
	var in struct {
		ID   *int64  `json:"id"`
		Name *string `json:"name"`
		Sort *int64  `json:"sort"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return 0, ModuleChange{}, err
	}
	id, err := httpx.BodyID(in.ID)
	return id, ModuleChange{Name: in.Name, Sort: in.Sort}, err
}

// AdminTags answers GET /api/admin/tags.
func (h *Handler) AdminTags(w http.ResponseWriter, r *http.Request) error {
	ts, err := h.s.AdminTags(r.Context())
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, ts)
}

// AdminCreateTag answers POST /api/admin/tags {name, sort}.
func (h *Handler) AdminCreateTag(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Name string `json:"name"`
		Sort int64  `json:"sort"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	t, err := h.s.CreateTag(r.Context(), audit.ActorFrom(r), in.Name, in.Sort)
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, t)
}

// AdminUpdateTag answers POST /api/admin/tags/update {id, name?, sort?}.
func (h *Handler) AdminUpdateTag(w http.ResponseWriter, r *http.Request) error {
	id, change, err := decodeChange(w, r)
	if err != nil {
		return err
	}
	t, err := h.s.UpdateTag(r.Context(), audit.ActorFrom(r), id, change)
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, t)
}

// AdminDeleteTag answers POST /api/admin/tags/delete {id}.
func (h *Handler) AdminDeleteTag(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.DecodeID(w, r)
	if err != nil {
		return err
	}
	n, err := h.s.DeleteTag(r.Context(), audit.ActorFrom(r), id)
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"id": id, "untaggedVideos": n})
}

// Operator listings page deeper than users' (100 a page).
const adminMaxPageSize = 100

// AdminVideos answers GET /api/admin/videos?moduleID&subModuleID&moduleType&published&access&coinsMin&coinsMax&title&cursor&pageSize
// (and the old pageNumber): a keyset page unless pageNumber is given
// without a cursor.
func (h *Handler) AdminVideos(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	size := int(q.Int("pageSize", 20, 1, adminMaxPageSize))
	vq := AdminVideoQuery{
		ModuleID:    q.Int("moduleID", 0, 1, httpx.MaxID),
		SubModuleID: q.Int("subModuleID", 0, 1, httpx.MaxID),
		ModuleType:  int(q.Int("moduleType", -1, 0, 4)),
		Published:   int(q.Int("published", -1, 0, 1)),
		Access:      q.String("access"),
		CoinsMin:    q.Int("coinsMin", -1, 0, MaxCoins),
		CoinsMax:    q.Int("coinsMax", -1, 0, MaxCoins),
		Title:       q.String("title"),
		PageSize:    size,
	}
	cursor := q.String("cursor")
	_, hasCursor := r.URL.Query()["cursor"]
	if !hasCursor {
		vq.PageNumber = int(q.Int("pageNumber", 0, 1, int64((Window+size-1)/size)))
	}
	if err := q.Err(); err != nil {
		return err
	}
	switch vq.Access {
	case "", "free", "vip", "svip", "gold":
	default:
		return httpx.Invalid("参数 access 应为 free、vip、svip 或 gold", "access must be free, vip, svip or gold")
	}
	if vq.CoinsMin >= 0 && vq.CoinsMax >= 0 && vq.CoinsMin > vq.CoinsMax {
		return httpx.Invalid("最低价格不能高于最高价格", "coinsMin is greater than coinsMax")
	}
	if cursor != "" {
		after, ok := ParseVideoCursor(cursor)
		if !ok {
			return httpx.Invalid("参数 cursor 无效，请从第一页重新加载", "cursor is not one this list gave")
		}
		vq.After = after
	}
	if len([]rune(vq.Title)) > MaxTitle {
		return httpx.Invalid("标题关键词过长", "title is longer than 80 characters")
	}
	page, err := h.s.AdminVideos(r.Context(), vq)
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, page)
}

// AdminVideoInfo answers GET /api/admin/videos/info?id=N: one video, draft or not.
func (h *Handler) AdminVideoInfo(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	id := q.Required("id", 1, httpx.MaxID)
	if err := q.Err(); err != nil {
		return err
	}
	v, err := h.s.AdminVideo(r.Context(), id)
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, v)
}

// videoBody is the JSON of a video create or update; absent fields are nil.
type videoBody struct {
	ID          *int64   `json:"id"`
	Title       *string  `json:"title"`
	ModuleID    *int64   `json:"moduleID"`
	SubModuleID *int64   `json:"subModuleID"`
	TagIDs      *[]int64 `json:"tagIds"`
	CoverID     *int64   `json:"coverId"`
	VipLevel    *int64   `json:"vipLevel"`
	Coins       *int64   `json:"coins"`
	Duration    *int64   `json:"duration"`
	Width       *int64   `json:"width"`
	Height      *int64   `json:"height"`
	Published   *bool    `json:"published"`
}

func (b videoBody) input() VideoInput {
	return VideoInput{Title: b.Title, ModuleID: b.ModuleID, SubModuleID: b.SubModuleID, TagIDs: b.TagIDs, CoverID: b.CoverID,
		VipLevel: b.VipLevel, Coins: b.Coins, Duration: b.Duration, Width: b.Width, Height: b.Height, Published: b.Published}
}

// AdminCreateVideo answers POST /api/admin/videos.
func (h *Handler) AdminCreateVideo(w http.ResponseWriter, r *http.Request) error {
	var b videoBody
	if err := httpx.Decode(w, r, &b); err != nil {
		return err
	}
	v, err := h.s.CreateVideo(r.Context(), audit.ActorFrom(r), b.input())
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, v)
}

// AdminUpdateVideo answers POST /api/admin/videos/update {id, ...fields to change}.
func (h *Handler) AdminUpdateVideo(w http.ResponseWriter, r *http.Request) error {
	var b videoBody
	if err := httpx.Decode(w, r, &b); err != nil {
		return err
	}
	id, err := httpx.BodyID(b.ID)
	if err != nil {
		return err
	}
	v, err := h.s.UpdateVideo(r.Context(), audit.ActorFrom(r), id, b.input())
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, v)
}

// AdminVideoTags answers POST /api/admin/videos/tags {id, tagIds}.
func (h *Handler) AdminVideoTags(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		ID     *int64   `json:"id"`
		TagIDs *[]int64 `json:"tagIds"`
	}
	if err := httpx.Decode(w, r, &b); err != nil {
		return err
	}
	id, err := httpx.BodyID(b.ID)
	if err != nil {
		return err
	}
	if b.TagIDs == nil {
		return httpx.Invalid("缺少参数 tagIds", "tagIds (a list, [] clears) is required")
	}
	v, err := h.s.UpdateVideo(r.Context(), audit.ActorFrom(r), id, VideoInput{TagIDs: b.TagIDs})
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, v)
}

// AdminPublishVideo answers POST /api/admin/videos/publish {id, published}.
func (h *Handler) AdminPublishVideo(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		ID        *int64 `json:"id"`
		Published *bool  `json:"published"`
	}
	if err := httpx.Decode(w, r, &b); err != nil {
		return err
	}
	id, err := httpx.BodyID(b.ID)
	if err != nil {
		return err
	}
	if b.Published == nil {
		return httpx.Invalid("缺少参数 published", "published (true or false) is required")
	}
	v, err := h.s.SetPublished(r.Context(), audit.ActorFrom(r), id, *b.Published)
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, v)
}

// AdminDeleteVideo answers POST /api/admin/videos/delete {id}.
func (h *Handler) AdminDeleteVideo(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.DecodeID(w, r)
	if err != nil {
		return err
	}
	if err := h.s.DeleteVideo(r.Context(), audit.ActorFrom(r), id); err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"id": id})
}

// AdminAttachMedia answers POST /api/admin/videos/media {videoId, mediaId}:
// the upload a video plays (0 detaches).
func (h *Handler) AdminAttachMedia(w http.ResponseWriter, r *http.Request) error {
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
	if err := h.s.AttachMedia(r.Context(), audit.ActorFrom(r), *in.VideoID, *in.MediaID); err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"videoId": *in.VideoID, "mediaId": *in.MediaID})
}

// AdminOrderModules answers POST /api/admin/modules/order {pid, ids}: the
// children of pid (0: the top-level modules) in the order of ids.
func (h *Handler) AdminOrderModules(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		PID *int64  `json:"pid"`
		IDs []int64 `json:"ids"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if in.PID == nil || *in.PID < 0 || *in.PID > httpx.MaxID {
		return httpx.Invalid("参数 pid 无效（0 表示顶级栏目）", "pid must be 0 (the top-level modules) or a module id")
	}
	for _, id := range in.IDs {
		if id < 1 || id > httpx.MaxID {
			return httpx.Invalid("参数 ids 无效", "ids must hold module ids")
		}
	}
	ms, err := h.s.OrderModules(r.Context(), audit.ActorFrom(r), *in.PID, in.IDs)
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, ms)
}

// AdminBulkVideos answers POST /api/admin/videos/bulk {ids, action,
// subModuleID?, tagIds?} -> {changed, ids}.
func (h *Handler) AdminBulkVideos(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		IDs         []int64 `json:"ids"`
		Action      string  `json:"action"`
		SubModuleID *int64  `json:"subModuleID"`
		TagIDs      []int64 `json:"tagIds"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	b := BulkInput{IDs: in.IDs, Action: in.Action, TagIDs: in.TagIDs}
	if in.SubModuleID != nil {
		b.SubModuleID = *in.SubModuleID
	}
	res, err := h.s.BulkVideos(r.Context(), audit.ActorFrom(r), b)
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, res)
}
