package operator

import (
	"net/http"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/httpx"
)

type sessionReply struct {
	Token         string     `json:"token"`
	ExpiresAt     time.Time  `json:"expiresAt"`
	Role          httpx.Role `json:"role"`
	RecoveryCodes []string   `json:"recoveryCodes,omitempty"`
}

// SignIn is POST /api/admin/session {account, passWord, code}.
func (h *Handler) SignIn(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Account  string `json:"account"`
		Password string `json:"passWord"`
		Code     string `json:"code"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	out, enrol, err := h.s.SignIn(r.Context(), SignInInput{Account: req.Account, Password: req.Password, Code: req.Code,
		IP: httpx.ClientIP(r), UserAgent: r.UserAgent()})
	if err != nil {
		return errs.Map(err)
	}
	if enrol != nil {
		return &httpx.Error{Status: http.StatusPreconditionRequired, Tip: "请先绑定动态验证码",
			Msg:  "no TOTP yet: add the secret to an authenticator app, then POST /api/admin/session/enrol {ticket, code}",
			Data: map[string]any{"enrol": enrol}}
	}
	return httpx.OK(w, sessionReply{Token: out.Token, ExpiresAt: out.ExpiresAt, Role: out.Role})
}

// Enrol is POST /api/admin/session/enrol {ticket, code}.
func (h *Handler) Enrol(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Ticket string `json:"ticket"`
		Code   string `json:"code"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	out, err := h.s.Enrol(r.Context(), EnrolInput{Ticket: req.Ticket, Code: req.Code, IP: httpx.ClientIP(r), UserAgent: r.UserAgent()})
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, sessionReply{Token: out.Token, ExpiresAt: out.ExpiresAt, Role: out.Role, RecoveryCodes: out.RecoveryCodes})
}

// SignOut is DELETE /api/admin/session.
func (h *Handler) SignOut(w http.ResponseWriter, r *http.Request) error {
	c, _ := CallerFrom(r.Context())
	if err := h.s.SignOut(r.Context(), audit.ActorFrom(r), c); err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, struct{}{})
}

// Session is GET /api/admin/session: who is signed in and what the menu
// shows.
func (h *Handler) Session(w http.ResponseWriter, r *http.Request) error {
	c, _ := CallerFrom(r.Context())
	u, err := h.s.users.User(r.Context(), c.UID)
	if err != nil {
		return errs.Map(err)
	}
	var stepUp *time.Time
	if c.StepUpUntil > h.s.now().Unix() {
		t := time.Unix(c.StepUpUntil, 0).UTC()
		stepUp = &t
	}
	return httpx.OK(w, map[string]any{
		"account": u.Account, "name": u.Name, "role": c.Role,
		"expiresAt": time.Unix(c.ExpiresAt, 0).UTC(), "idleExpiresAt": time.Unix(c.IdleExpiresAt, 0).UTC(),
		"stepUpUntil": stepUp, "sections": Sections(c.Role),
	})
}

// StepUp is POST /api/admin/session/stepup {code}.
func (h *Handler) StepUp(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Code string `json:"code"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	c, _ := CallerFrom(r.Context())
	until, err := h.s.StepUp(r.Context(), audit.ActorFrom(r), c, req.Code)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]time.Time{"stepUpUntil": until})
}

// Sessions is GET /api/admin/sessions.
func (h *Handler) Sessions(w http.ResponseWriter, r *http.Request) error {
	c, _ := CallerFrom(r.Context())
	list, err := h.s.Sessions(r.Context(), c)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]any{"list": list})
}

// RevokeSession is POST /api/admin/sessions/revoke {id}.
func (h *Handler) RevokeSession(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		ID int64 `json:"id"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	if req.ID < 1 {
		return httpx.Invalid("请选择会话", "id must be a positive integer")
	}
	c, _ := CallerFrom(r.Context())
	ok, err := h.s.RevokeSession(r.Context(), audit.ActorFrom(r), c, req.ID)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]bool{"revoked": ok})
}

// Operators is GET /api/admin/operators.
func (h *Handler) Operators(w http.ResponseWriter, r *http.Request) error {
	list, err := h.s.Operators(r.Context())
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]any{"list": list})
}

// CreateOperator is POST /api/admin/operators {account, role}.
func (h *Handler) CreateOperator(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Account string `json:"account"`
		Role    string `json:"role"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	if req.Account == "" {
		return httpx.Invalid("请输入账号", "account is required")
	}
	role, err := ParseRole(req.Role)
	if err != nil {
		return errs.Map(err)
	}
	o, password, err := h.s.Create(r.Context(), audit.ActorFrom(r), req.Account, role)
	if err != nil {
		return errs.Map(err)
	}
	var pw *string
	if password != "" {
		pw = &password
	}
	return httpx.OK(w, map[string]any{"operator": o, "password": pw})
}

// SetOperatorRole is POST /api/admin/operators/role {uid, role}; role
// "user" takes the operator out of the console.
func (h *Handler) SetOperatorRole(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		UID  int64  `json:"uid"`
		Role string `json:"role"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	if req.UID < 1 {
		return httpx.Invalid("请输入用户ID", "uid must be a positive integer")
	}
	role := httpx.RoleUser
	if req.Role != string(httpx.RoleUser) {
		var err error
		if role, err = ParseRole(req.Role); err != nil {
			return errs.Map(err)
		}
	}
	o, err := h.s.SetRole(r.Context(), audit.ActorFrom(r), req.UID, role)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, o)
}

// ResetTOTP is POST /api/admin/operators/reset-totp {uid}.
func (h *Handler) ResetTOTP(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		UID int64 `json:"uid"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	if req.UID < 1 {
		return httpx.Invalid("请输入用户ID", "uid must be a positive integer")
	}
	if err := h.s.ResetTOTP(r.Context(), audit.ActorFrom(r), req.UID); err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"uid": req.UID})
}

// Keys is GET /api/admin/keys.
func (h *Handler) Keys(w http.ResponseWriter, r *http.Request) error {
	c, _ := CallerFrom(r.Context())
	list, err := h.s.Keys(r.Context(), c)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]any{"list": list})
}

// RevokeKey is POST /api/admin/keys/revoke {id}.
func (h *Handler) RevokeKey(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		ID int64 `json:"id"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	if req.ID < 1 {
		return httpx.Invalid("请选择密钥", "id must be a positive integer")
	}
	c, _ := CallerFrom(r.Context())
	ok, err := h.s.RevokeKey(r.Context(), audit.ActorFrom(r), c, req.ID)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]bool{"revoked": ok})
}
