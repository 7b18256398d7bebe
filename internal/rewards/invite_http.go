package rewards

import (
	"net/http"

	"prima/internal/platform/audit"
	"prima/internal/platform/httpx"
)

// InviteHandler serves the invitation calls (docs/api.md, *Invitations*).
type InviteHandler struct{ s *Invites }

// NewInviteHandler builds the handlers over s.
func NewInviteHandler(s *Invites) *InviteHandler { return &InviteHandler{s: s} }

// Info is POST /api/app/userinvite/info (empty body).
func (h *InviteHandler) Info(w http.ResponseWriter, r *http.Request) error {
	info, err := h.s.Info(r.Context(), httpx.UserID(r.Context()))
	if err != nil {
		return err
	}
	return httpx.OK(w, info)
}

// Bind is POST /api/app/mine/inviteBind {code}.
func (h *InviteHandler) Bind(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Code string `json:"code"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	p, err := h.s.Bind(r.Context(), httpx.UserID(r.Context()), in.Code)
	if err != nil {
		return inviteErrs.Map(err)
	}
	return httpx.OK(w, map[string]any{"inviter": p})
}

// UserList is POST /api/app/userinvite/userlist {pageNumber, pageSize}.
func (h *InviteHandler) UserList(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		PageNumber *int64 `json:"pageNumber"`
		PageSize   *int64 `json:"pageSize"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	num, size, err := bodyPage(in.PageNumber, in.PageSize, 20)
	if err != nil {
		return err
	}
	p, err := h.s.Invitees(r.Context(), httpx.UserID(r.Context()), num, size)
	if err != nil {
		return err
	}
	return httpx.OK(w, p)
}

// bodyPage checks a page asked for in a JSON body, with the lists' bounds.
func bodyPage(num, size *int64, def int) (int, int, error) {
	n, sz := int64(1), int64(def)
	if size != nil {
		sz = *size
	}
	if sz < 1 || sz > httpx.MaxPageSize {
		return 0, 0, httpx.Invalid("参数 pageSize 无效", "pageSize outside 1..max")
	}
	if num != nil {
		n = *num
	}
	if n < 1 || n > int64(httpx.MaxPage(int(sz))) {
		return 0, 0, httpx.Invalid("参数 pageNumber 无效", "pageNumber outside 1..max")
	}
	return int(n), int(sz), nil
}

// AdminConfig is GET /api/admin/rewards/invite.
func (h *InviteHandler) AdminConfig(w http.ResponseWriter, r *http.Request) error {
	c, err := h.s.Config(r.Context())
	if err != nil {
		return err
	}
	return httpx.OK(w, c)
}

// AdminSetConfig is POST /api/admin/rewards/invite {rewardCoins, windowDays, dailyCap, rules}.
func (h *InviteHandler) AdminSetConfig(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		RewardCoins int64  `json:"rewardCoins"`
		WindowDays  int    `json:"windowDays"`
		DailyCap    int    `json:"dailyCap"`
		Rules       string `json:"rules" text:"multiline"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	c, err := h.s.SetConfig(r.Context(), audit.ActorFrom(r), InviteConfig{in.RewardCoins, in.WindowDays, in.DailyCap, in.Rules})
	if err != nil {
		return inviteErrs.Map(err)
	}
	return httpx.OK(w, c)
}

// AdminInvites is GET /api/admin/invites?uid&pageNumber&pageSize.
func (h *InviteHandler) AdminInvites(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	uid := q.Required("uid", 1, httpx.MaxID)
	num, size := httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	a, err := h.s.Admin(r.Context(), uid, num, size)
	if err != nil {
		return err
	}
	return httpx.OK(w, a)
}

// AdminInvitations is GET /api/admin/invites/list?inviter&cursor&pageSize:
// every invitation newest first (or one inviter's), by keyset.
func (h *InviteHandler) AdminInvitations(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	inviter := q.Int("inviter", 0, 0, httpx.MaxID)
	keys, size := httpx.KeyParams(q, 2, 20)
	if err := q.Err(); err != nil {
		return err
	}
	p, err := h.s.Invitations(r.Context(), inviter, keys, size)
	if err != nil {
		return err
	}
	return httpx.OK(w, p)
}
