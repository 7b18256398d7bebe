package support

import (
	"net/http"

	"prima/internal/platform/audit"
	"prima/internal/platform/httpx"
)

// Handler serves the support calls (docs/api.md, *Support and information*).
type Handler struct{ s *Service }

// NewHandler builds the handlers over s.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

// SendFeedback is POST /api/app/mine/feedback {content, images?, contact?}.
func (h *Handler) SendFeedback(w http.ResponseWriter, r *http.Request) error {
	var in FeedbackInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	id, err := h.s.SendFeedback(r.Context(), httpx.UserID(r.Context()), in)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"id": id})
}

// MyFeedback is GET /api/app/mine/feedback?pageNumber&pageSize.
func (h *Handler) MyFeedback(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	num, size := httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	p, err := h.s.MyFeedback(r.Context(), httpx.UserID(r.Context()), num, size)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, p)
}

// AdminFeedback is GET /api/admin/feedback?status&uid&cursor&pageSize
// (keyset: cursor is the nextCursor of the page before).
func (h *Handler) AdminFeedback(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	status := q.String("status")
	uid := q.Int("uid", 0, 1, httpx.MaxID)
	after, size := httpx.KeyParams(q, 1, 20)
	if err := q.Err(); err != nil {
		return err
	}
	if err := CheckFeedbackStatus(status); err != nil {
		return errs.Map(err)
	}
	p, err := h.s.AdminFeedback(r.Context(), uid, status, firstKey(after), size)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, p)
}

// AdminReply is POST /api/admin/feedback/reply {id, reply}.
func (h *Handler) AdminReply(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		ID    *int64 `json:"id"`
		Reply string `json:"reply" text:"multiline"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	id, err := httpx.BodyID(in.ID)
	if err != nil {
		return err
	}
	f, err := h.s.ReplyFeedback(r.Context(), audit.ActorFrom(r), id, in.Reply)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, f)
}

// MySettled is GET /api/app/mine/settled.
func (h *Handler) MySettled(w http.ResponseWriter, r *http.Request) error {
	out, err := h.s.MySettled(r.Context(), httpx.UserID(r.Context()))
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, out)
}

// Apply is POST /api/app/mine/settled {name, contact, intro, category}.
func (h *Handler) Apply(w http.ResponseWriter, r *http.Request) error {
	var in SettledInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	out, err := h.s.Apply(r.Context(), httpx.UserID(r.Context()), in)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, out)
}

// AdminApplications is GET /api/admin/settled?status&cursor&pageSize
// (keyset: cursor is the nextCursor of the page before).
func (h *Handler) AdminApplications(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	status := q.String("status")
	after, size := httpx.KeyParams(q, 1, 20)
	if err := q.Err(); err != nil {
		return err
	}
	if err := CheckAppStatus(status); err != nil {
		return errs.Map(err)
	}
	p, err := h.s.AdminApplications(r.Context(), status, firstKey(after), size)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, p)
}

// Decision is the answer of approve and reject: the application as it now
// is, and whether this call changed it (false: decided before).
type Decision struct {
	Application Application `json:"application"`
	Changed     bool        `json:"changed"`
}

// AdminApprove is POST /api/admin/settled/approve {id}.
func (h *Handler) AdminApprove(w http.ResponseWriter, r *http.Request) error {
	return h.decide(w, r, true)
}

// AdminReject is POST /api/admin/settled/reject {id, reason}.
func (h *Handler) AdminReject(w http.ResponseWriter, r *http.Request) error {
	return h.decide(w, r, false)
}

func (h *Handler) decide(w http.ResponseWriter, r *http.Request, approve bool) error {
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
	a, changed, err := h.s.Decide(r.Context(), audit.ActorFrom(r), id, approve, in.Reason)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, Decision{Application: a, Changed: changed})
}

// firstKey is a one-key cursor's key, 0 for none (the first page).
func firstKey(keys []int64) int64 {
	if len(keys) == 0 {
		return 0
	}
	return keys[0]
}
