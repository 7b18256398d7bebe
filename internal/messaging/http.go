package messaging

import (
	"net/http"

	"prima/internal/platform/httpx"
)

// Handler serves the message centre's calls (docs/api.md, *Messages*).
type Handler struct{ s *Service }

// NewHandler returns the handlers of s.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

// pageParams reads pageNumber and pageSize (20 by default) as every list does.
func pageParams(q *httpx.Query) (int, int) { return httpx.PageParams(q, 20) }

// Notices is GET /api/app/mine/notices?category=system|interaction&pageNumber&pageSize.
func (h *Handler) Notices(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	category := q.String("category")
	num, size := pageParams(q)
	if err := q.Err(); err != nil {
		return err
	}
	p, err := h.s.Notices(r.Context(), httpx.UserID(r.Context()), category, num, size)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, p)
}

// readNoticesInput is POST /api/app/mine/notices/read.
type readNoticesInput struct {
	Category string  `json:"category"`
	IDs      []int64 `json:"ids"`
}

// maxReadIDs bounds the ids one read call names.
const maxReadIDs = 100

// ReadNotices is POST /api/app/mine/notices/read {category} or {ids}.
func (h *Handler) ReadNotices(w http.ResponseWriter, r *http.Request) error {
	var in readNoticesInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if len(in.IDs) > maxReadIDs {
		return httpx.Invalid("一次最多标记 100 条", "at most 100 ids")
	}
	for _, id := range in.IDs {
		if id <= 0 {
			return httpx.Invalid("通知编号无效", "ids must be positive")
		}
	}
	n, err := h.s.ReadNotices(r.Context(), httpx.UserID(r.Context()), in.Category, in.IDs)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]int{"marked": n})
}

// Unread is GET /api/app/mine/unread.
func (h *Handler) Unread(w http.ResponseWriter, r *http.Request) error {
	u, err := h.s.Unread(r.Context(), httpx.UserID(r.Context()))
	if err != nil {
		return err
	}
	return httpx.OK(w, u)
}

// Conversations is GET /api/app/mine/conversations?pageNumber&pageSize.
func (h *Handler) Conversations(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	num, size := pageParams(q)
	if err := q.Err(); err != nil {
		return err
	}
	p, err := h.s.Conversations(r.Context(), httpx.UserID(r.Context()), num, size)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, p)
}

// List is GET /api/app/message/list?uid=&before=&pageSize.
func (h *Handler) List(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	uid := q.Required("uid", 1, httpx.MaxID)
	before := q.Int("before", 0, 0, httpx.MaxID)
	size := q.Int("pageSize", 20, 1, MaxHistoryPage)
	if err := q.Err(); err != nil {
		return err
	}
	hist, err := h.s.History(r.Context(), httpx.UserID(r.Context()), uid, before, int(size))
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, hist)
}

// Send is POST /api/app/message/send.
func (h *Handler) Send(w http.ResponseWriter, r *http.Request) error {
	var in SendInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if in.UID <= 0 {
		return httpx.Invalid("请选择收信人", "uid must be positive")
	}
	m, err := h.s.Send(r.Context(), httpx.UserID(r.Context()), in)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, m)
}

// readInput is POST /api/app/message/read.
type readInput struct {
	UID  int64 `json:"uid"`
	UpTo int64 `json:"upTo"`
}

// Read is POST /api/app/message/read {uid, upTo}.
func (h *Handler) Read(w http.ResponseWriter, r *http.Request) error {
	var in readInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if in.UID <= 0 || in.UpTo < 0 {
		return httpx.Invalid("参数无效", "uid must be positive and upTo not negative")
	}
	res, err := h.s.Read(r.Context(), httpx.UserID(r.Context()), in.UID, in.UpTo)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, res)
}

// blockInput is POST /api/app/message/block.
type blockInput struct {
	UID   int64 `json:"uid"`
	Block *bool `json:"block"`
}

// Block is POST /api/app/message/block {uid, block}.
func (h *Handler) Block(w http.ResponseWriter, r *http.Request) error {
	var in blockInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if in.UID <= 0 || in.Block == nil {
		return httpx.Invalid("参数无效", "uid (positive) and block (true or false) are required")
	}
	if err := h.s.Block(r.Context(), httpx.UserID(r.Context()), in.UID, *in.Block); err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]any{"uid": in.UID, "blocked": *in.Block})
}

// BlockedList is GET /api/app/message/blocked?pageNumber&pageSize.
func (h *Handler) BlockedList(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	num, size := pageParams(q)
	if err := q.Err(); err != nil {
		return err
	}
	p, err := h.s.BlockedList(r.Context(), httpx.UserID(r.Context()), num, size)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, p)
}

// Report is POST /api/app/message/report {uid, reason}.
func (h *Handler) Report(w http.ResponseWriter, r *http.Request) error {
	var in ReportInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if in.UID <= 0 {
		return httpx.Invalid("参数无效", "uid must be positive")
	}
	id, err := h.s.Report(r.Context(), httpx.UserID(r.Context()), in)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"id": id})
}

// AdminReports is GET /api/admin/message/reports?uid=&status=&cursor&pageSize
// (keyset: cursor is the nextCursor of the page before).
func (h *Handler) AdminReports(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	uid := q.Int("uid", 0, 1, httpx.MaxID)
	state := q.String("status")
	after, size := httpx.KeyParams(q, 1, 20)
	if err := q.Err(); err != nil {
		return err
	}
	if state != "" && state != ReportOpen && state != ReportResolved {
		return httpx.Invalid("状态无效", "status must be open or resolved, got "+httpx.Echo(state))
	}
	var from int64
	if len(after) == 1 {
		from = after[0]
	}
	p, err := h.s.Reports(r.Context(), uid, state, from, size)
	if err != nil {
		return err
	}
	return httpx.OK(w, p)
}
