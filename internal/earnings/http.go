package earnings

import (
	"net/http"

	"prima/internal/account"
	"prima/internal/platform/audit"
	"prima/internal/platform/httpx"
)

// Handler serves the earnings calls (docs/api.md, *Earnings*).
type Handler struct{ s *Service }

// NewHandler builds the handlers over s.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

// Promoter is GET /api/app/mine/promoter.
func (h *Handler) Promoter(w http.ResponseWriter, r *http.Request) error {
	p, err := h.s.Promoter(r.Context(), httpx.UserID(r.Context()))
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, p)
}

// Apply is POST /api/app/mine/promoter/apply {channel, contact, intro}.
func (h *Handler) Apply(w http.ResponseWriter, r *http.Request) error {
	var in PromoterInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	p, err := h.s.Apply(r.Context(), httpx.UserID(r.Context()), in)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, p)
}

// AdminConfig is GET /api/admin/commission/config.
func (h *Handler) AdminConfig(w http.ResponseWriter, r *http.Request) error {
	c, err := h.s.Config(r.Context())
	if err != nil {
		return err
	}
	return httpx.OK(w, c)
}

// AdminSetConfig is POST /api/admin/commission/config {levels,
// promoterLevels, settleDays, creatorShareBps, inviteReward}: every field,
// since the answer is the whole of the settings.
func (h *Handler) AdminSetConfig(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Levels          *[]int64 `json:"levels"`
		PromoterLevels  *[]int64 `json:"promoterLevels"`
		SettleDays      *int     `json:"settleDays"`
		CreatorShareBps *int64   `json:"creatorShareBps"`
		InviteReward    *string  `json:"inviteReward"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	for _, f := range []struct {
		name    string
		missing bool
	}{{"levels", in.Levels == nil}, {"promoterLevels", in.PromoterLevels == nil}, {"settleDays", in.SettleDays == nil},
		{"creatorShareBps", in.CreatorShareBps == nil}, {"inviteReward", in.InviteReward == nil}} {
		if f.missing {
			return httpx.Invalid("缺少参数 "+f.name, f.name+" is required")
		}
	}
	c, err := h.s.SetConfig(r.Context(), audit.ActorFrom(r), Config{Levels: *in.Levels, PromoterLevels: *in.PromoterLevels,
		SettleDays: *in.SettleDays, CreatorShareBps: *in.CreatorShareBps, InviteReward: *in.InviteReward})
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, c)
}

// AdminPromoters is GET /api/admin/promoters?state&pageNumber&pageSize.
func (h *Handler) AdminPromoters(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	state := q.String("state")
	num, size := httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	p, err := h.s.AdminApplications(r.Context(), state, num, size)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, p)
}

// AdminDecide is POST /api/admin/promoters/decide {id, approve, reason}.
func (h *Handler) AdminDecide(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		ID      *int64 `json:"id"`
		Approve *bool  `json:"approve"`
		Reason  string `json:"reason"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	id, err := httpx.BodyID(in.ID)
	if err != nil {
		return err
	}
	if in.Approve == nil {
		return httpx.Invalid("缺少参数 approve", "approve is required")
	}
	a, changed, err := h.s.Decide(r.Context(), audit.ActorFrom(r), id, *in.Approve, in.Reason)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]any{"application": a, "changed": changed})
}

// Commissions is GET /api/app/mine/commissions?state&pageNumber&pageSize.
func (h *Handler) Commissions(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	state := q.String("state")
	num, size := httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	p, err := h.s.Commissions(r.Context(), httpx.UserID(r.Context()), state, num, size)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, p)
}

// CreatorEarnings is GET /api/app/mine/creator/earnings?pageNumber&pageSize.
func (h *Handler) CreatorEarnings(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	num, size := httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	p, err := h.s.CreatorEarnings(r.Context(), httpx.UserID(r.Context()), num, size)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, p)
}

// Visit is POST /api/app/userinvite/visit {code} (any session, guests
// too): {counted}.
func (h *Handler) Visit(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Code string `json:"code"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	dev := ""
	if sess := account.CurrentSession(r.Context()); sess != nil {
		dev = sess.DevID
	}
	counted, err := h.s.Visit(r.Context(), httpx.UserID(r.Context()), dev, in.Code)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]bool{"counted": counted})
}

// Stats is GET /api/app/mine/promoter/stats?period=day|week|month.
func (h *Handler) Stats(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	period := q.String("period")
	if err := q.Err(); err != nil {
		return err
	}
	st, err := h.s.Stats(r.Context(), httpx.UserID(r.Context()), period)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, st)
}

// IncomeSummary is GET /api/app/mine/income/summary?month=YYYY-MM.
func (h *Handler) IncomeSummary(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	month := q.String("month")
	if err := q.Err(); err != nil {
		return err
	}
	sum, err := h.s.IncomeSummary(r.Context(), httpx.UserID(r.Context()), month)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, sum)
}
