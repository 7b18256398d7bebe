package catalog

import (
	"errors"
	"net/http"
	"strings"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// Handler is the catalog's HTTP surface; every route is public.
type Handler struct {
	s *Service
}

// NewHandler wraps s.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

var errModuleNotFound = httpx.NotFound("栏目不存在", "no such module")

// notFound maps a missing module to 404 and passes anything else on.
func notFound(err error) error {
	switch {
	case errors.Is(err, db.ErrNotFound):
		return errModuleNotFound
	case errors.Is(err, ErrMismatch):
		return httpx.NotFound("栏目不存在", "subModuleID does not belong to moduleID")
	}
	return err
}

// Domains answers GET /api/app/ping/domain/h5.
func (h *Handler) Domains(w http.ResponseWriter, r *http.Request) error {
	d, err := h.s.Domains(r.Context(), requestOrigin(r))
	if err != nil {
		return err
	}
	return httpx.OK(w, d)
}

// Modules answers GET /api/app/modules/list?moduleType=.
func (h *Handler) Modules(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	mt := q.Int("moduleType", -1, 0, 4)
	if err := q.Err(); err != nil {
		return err
	}
	ms, err := h.s.Modules(r.Context(), int(mt))
	if err != nil {
		return err
	}
	return httpx.OK(w, ms)
}

// ChildModules answers GET /api/app/modules/clist?pid=.
func (h *Handler) ChildModules(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	pid := q.Required("pid", 1, httpx.MaxID)
	if err := q.Err(); err != nil {
		return err
	}
	subs, err := h.s.ChildModules(r.Context(), pid)
	if err != nil {
		return notFound(err)
	}
	return httpx.OK(w, subs)
}

// Announcements answers GET /api/app/modules/announce.
func (h *Handler) Announcements(w http.ResponseWriter, r *http.Request) error {
	as, err := h.s.Announcements(r.Context())
	if err != nil {
		return err
	}
	return httpx.OK(w, as)
}

// ModuleVideos answers GET /api/app/vid/moduleVideo.
func (h *Handler) ModuleVideos(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	vq := VideoQuery{
		ModuleID:    q.Int("moduleID", 0, 1, httpx.MaxID),
		SubModuleID: q.Int("subModuleID", 0, 1, httpx.MaxID),
		Sort:        int(q.Int("sortType", SortNewest, SortNewest, SortLiked)),
		PlayTime:    int(q.Int("playTimeType", PlayTimeAny, PlayTimeAny, PlayTimeLong)),
		News:        int(q.Int("newsType", 0, 0, 1)),
	}
	vq.PageNumber, vq.PageSize = httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	if vq.ModuleID == 0 && vq.SubModuleID == 0 {
		return httpx.Invalid("缺少参数 moduleID 或 subModuleID", "moduleID or subModuleID is required")
	}
	page, err := h.s.ModuleVideos(r.Context(), vq)
	if err != nil {
		return notFound(err)
	}
	return httpx.OK(w, page)
}

// ModuleSections answers GET /api/app/vid/moduleSection.
func (h *Handler) ModuleSections(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	moduleID := q.Required("moduleID", 1, httpx.MaxID)
	num, size := httpx.PageParams(q, 10)
	pSize := q.Int("pSize", 3, 1, MaxSectionSize)
	if err := q.Err(); err != nil {
		return err
	}
	page, err := h.s.ModuleSections(r.Context(), moduleID, num, size, int(pSize))
	if err != nil {
		return notFound(err)
	}
	return httpx.OK(w, page)
}

// SectionChange answers GET /api/app/vid/moduleSection/change.
func (h *Handler) SectionChange(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	sub := q.Required("subModuleID", 1, httpx.MaxID)
	size := q.Int("pageSize", 5, 1, MaxPageSize)
	if err := q.Err(); err != nil {
		return err
	}
	vs, err := h.s.SectionChange(r.Context(), sub, int(size))
	if err != nil {
		return notFound(err)
	}
	return httpx.OK(w, map[string]any{"list": vs})
}

// Source answers GET /api/app/vid/source.
func (h *Handler) Source(w http.ResponseWriter, r *http.Request) error {
	src, err := h.s.Source(r.Context(), requestOrigin(r))
	if err != nil {
		return err
	}
	return httpx.OK(w, src)
}

// AdClick answers POST /api/app/ads/click {id}. The client ignores its
// failures, but a wrong id still gets a clear answer.
func (h *Handler) AdClick(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		ID *int64 `json:"id"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if in.ID == nil || *in.ID < 1 || *in.ID > httpx.MaxID {
		return httpx.Invalid("缺少参数 id", "id must be a positive ad id")
	}
	if err := h.s.AdClick(r.Context(), *in.ID); err != nil {
		if errors.Is(err, db.ErrNotFound) {
			return httpx.NotFound("广告不存在", "no such ad")
		}
		return err
	}
	return httpx.OK(w, nil)
}

// Tags answers GET /api/app/tag/conf/list.
func (h *Handler) Tags(w http.ResponseWriter, r *http.Request) error {
	ts, err := h.s.Tags(r.Context())
	if err != nil {
		return err
	}
	return httpx.OK(w, ts)
}

// requestOrigin is scheme://host of the request as the client addressed it.
// Behind a TLS-terminating proxy the scheme comes from X-Forwarded-Proto,
// believed only from a trusted proxy (PRIMA_TRUSTED_PROXIES), the same rule
// as httpx.ClientIP.
func requestOrigin(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	if p := strings.ToLower(strings.TrimSpace(r.Header.Get("X-Forwarded-Proto"))); (p == "https" || p == "http") && httpx.FromTrustedProxy(r) {
		scheme = p
	}
	return scheme + "://" + r.Host
}
