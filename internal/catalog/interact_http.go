package catalog

import (
	"errors"
	"net/http"

	"prima/internal/platform/httpx"
)

// VideoInfo answers GET /api/app/vid/info?id=N: public, and personal (like
// and favourite state, access) when the request carries a valid token.
func (h *Handler) VideoInfo(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	id := q.Required("id", 1, httpx.MaxID)
	if err := q.Err(); err != nil {
		return err
	}
	d, err := h.s.Detail(r.Context(), httpx.UserID(r.Context()), id)
	if err != nil {
		return videoErrs.Map(err)
	}
	return httpx.OK(w, d)
}

// Like answers POST /api/app/vid/like {id, isLike} for a signed-in user.
func (h *Handler) Like(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		ID     *int64 `json:"id"`
		IsLike *bool  `json:"isLike"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	id, err := httpx.BodyID(in.ID)
	if err != nil {
		return err
	}
	if in.IsLike == nil {
		return httpx.Invalid("缺少参数 isLike", "isLike (true or false) is required")
	}
	st, err := h.s.Like(r.Context(), httpx.UserID(r.Context()), id, *in.IsLike)
	if err != nil {
		return videoErrs.Map(err)
	}
	return httpx.OK(w, st)
}

// Collect answers POST /api/app/vid/collect {id, isCollect} for a
// signed-in user.
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
		return videoErrs.Map(err)
	}
	return httpx.OK(w, map[string]bool{"isCollect": *in.IsCollect})
}

// Play answers POST /api/app/vid/play {id}: public, and a signed-in
// caller's play also goes into their browse history.
func (h *Handler) Play(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.DecodeID(w, r)
	if err != nil {
		return err
	}
	n, err := h.s.Play(r.Context(), httpx.UserID(r.Context()), id)
	if err != nil {
		return videoErrs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"playCount": n})
}

// Report answers POST /api/app/vid/report {id, reason} for a signed-in
// user; reason is a code of ReportReasons.
func (h *Handler) Report(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		ID     *int64 `json:"id"`
		Reason string `json:"reason"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	id, err := httpx.BodyID(in.ID)
	if err != nil {
		return err
	}
	if in.Reason == "" {
		return httpx.Invalid("请选择举报原因", "reason is required")
	}
	added, err := h.s.Report(r.Context(), httpx.UserID(r.Context()), id, in.Reason)
	if errors.Is(err, ErrBadReason) {
		return httpx.Invalid("举报原因无效", "reason must be one of illegal, vulgar, violence, copyright, broken, other; got "+httpx.Echo(in.Reason))
	}
	if err != nil {
		return videoErrs.Map(err)
	}
	return httpx.OK(w, map[string]any{"id": id, "reported": true, "isNew": added})
}

// ReportReasonList answers GET /api/app/vid/report/reasons: the codes a
// report may give and their labels, in a fixed order.
func (h *Handler) ReportReasonList(w http.ResponseWriter, r *http.Request) error {
	type reason struct {
		Code  string `json:"code"`
		Label string `json:"label"`
	}
	out := make([]reason, 0, len(ReportReasons))
	for _, c := range reportReasonOrder {
		out = append(out, reason{c, ReportReasons[c]})
	}
	return httpx.OK(w, out)
}

var reportReasonOrder = []string{"illegal", "vulgar", "violence", "copyright", "broken", "other"}

// mine serves one of the caller's lists with pageNumber and pageSize
// (1..MaxPageSize).
func (h *Handler) mine(list int) func(w http.ResponseWriter, r *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		q := httpx.Q(r)
		num, size := httpx.PageParams(q, 20)
		if err := q.Err(); err != nil {
			return err
		}
		page, err := h.s.Mine(r.Context(), list, httpx.UserID(r.Context()), num, size)
		if err != nil {
			return err
		}
		return httpx.OK(w, page)
	}
}

// MineLikes answers GET /api/app/mine/like/infoList.
func (h *Handler) MineLikes(w http.ResponseWriter, r *http.Request) error {
	return h.mine(MineLikes)(w, r)
}

// MineCollects answers GET /api/app/mine/collect/infoList and, as the same
// list, GET /api/app/mine/collection (see docs/api.md).
func (h *Handler) MineCollects(w http.ResponseWriter, r *http.Request) error {
	return h.mine(MineCollect)(w, r)
}

// MineHistory answers GET /api/app/mine/history.
func (h *Handler) MineHistory(w http.ResponseWriter, r *http.Request) error {
	return h.mine(MineHistory)(w, r)
}
