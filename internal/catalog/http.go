package catalog

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// Handler is the catalog's HTTP surface; every route is public. The
// answers that are the same for everyone and change by writes (modules,
// listings, sections, tags, announcements, the remote configuration) come
// through the Service's page cache, keyed by every parameter they read.
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
	return h.s.Pages.Serve(w, r, "modules/list?"+strconv.FormatInt(mt, 10), func(ctx context.Context) (any, error) {
		return h.s.Modules(ctx, int(mt))
	})
}

// ChildModules answers GET /api/app/modules/clist?pid=.
func (h *Handler) ChildModules(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	pid := q.Required("pid", 1, httpx.MaxID)
	if err := q.Err(); err != nil {
		return err
	}
	return h.s.Pages.Serve(w, r, "modules/clist?"+strconv.FormatInt(pid, 10), func(ctx context.Context) (any, error) {
		subs, err := h.s.ChildModules(ctx, pid)
		return subs, notFound(err)
	})
}

// Announcements answers GET /api/app/modules/announce.
func (h *Handler) Announcements(w http.ResponseWriter, r *http.Request) error {
	return h.s.Pages.Serve(w, r, "modules/announce", func(ctx context.Context) (any, error) {
		return h.s.Announcements(ctx)
	})
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
	key := fmt.Sprintf("vid/moduleVideo?%d,%d,%d,%d,%d,%d,%d", vq.ModuleID, vq.SubModuleID, vq.Sort, vq.PlayTime, vq.News, vq.PageNumber, vq.PageSize)
	return h.s.Pages.Serve(w, r, key, func(ctx context.Context) (any, error) {
		page, err := h.s.ModuleVideos(ctx, vq)
		return page, notFound(err)
	})
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
	key := fmt.Sprintf("vid/moduleSection?%d,%d,%d,%d", moduleID, num, size, pSize)
	return h.s.Pages.Serve(w, r, key, func(ctx context.Context) (any, error) {
		page, err := h.s.ModuleSections(ctx, moduleID, num, size, int(pSize))
		return page, notFound(err)
	})
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
	// The gate names the public origin, which is the request's own unless
	// PRIMA_PUBLIC_URL sets it: the origin is part of the key.
	origin := h.s.publicOrigin(requestOrigin(r))
	return h.s.Pages.Serve(w, r, "vid/source?"+origin, func(ctx context.Context) (any, error) {
		return h.s.Source(ctx, origin)
	})
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
	return h.s.Pages.Serve(w, r, "tag/conf/list", func(ctx context.Context) (any, error) {
		return h.s.Tags(ctx)
	})
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
