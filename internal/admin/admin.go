// Package admin is the operator's API under /api/admin/...: the users
// calls and the audit log. Every route is mounted behind the console's
// gate (internal/operator, with the roles the route names), and every
// action writes the audit log in its own transaction through
// prima/internal/platform/audit.
//
// Admin reaches the domains it operates on; no domain imports admin. A
// domain that adds an operator call of its own puts the action (with its
// audit.Record) in its service and mounts the handler under /api/admin in
// internal/app/routes.go with op(access, pattern, handler)
// (docs/architecture.md).
package admin

import (
	"context"
	"math"
	"net/http"
	"time"

	"prima/internal/account"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// Users is what the operator API needs of the account service.
type Users interface {
	User(ctx context.Context, uid int64) (account.User, error)
	UserByAccount(ctx context.Context, name string) (account.User, error)
	LiveSessions(ctx context.Context, uid int64) (int, error)
	RevokeSessions(ctx context.Context, actor audit.Actor, uid int64) (int64, error)
	// The people section (people.go).
	SearchUsers(ctx context.Context, text string, before int64, limit int) ([]account.User, int64, error)
	UserSessions(ctx context.Context, uid int64) ([]account.SessionInfo, error)
	UserDevices(ctx context.Context, uid int64) ([]account.DeviceInfo, error)
	RevokeUserSession(ctx context.Context, actor audit.Actor, uid int64, id string) error
	BanOf(ctx context.Context, uid int64) (account.Ban, error)
	BanUser(ctx context.Context, actor audit.Actor, uid, minutes int64, forever bool, reason string) (account.Ban, error)
}

// Handler serves /api/admin/...
type Handler struct {
	users Users
	db    db.Querier // reads the audit log
	// People are the other domains a user's page reads (people.go); a nil
	// one leaves its part of the page null.
	People People
}

// NewHandler returns the operator API over users, reading the audit log from q.
func NewHandler(users Users, q db.Querier) *Handler { return &Handler{users: users, db: q} }

// UserView is a user as an operator sees it: no password hash, but the
// account, role and how many devices are signed in.
type UserView struct {
	UID          int64      `json:"uid"`
	Name         string     `json:"name"`
	Account      *string    `json:"account"`
	IsGuest      bool       `json:"isGuest"`
	Mobile       string     `json:"mobile"` // masked: 138****0000, "" when none
	Banned       bool       `json:"banned"`
	Role         httpx.Role `json:"role"`
	LiveSessions int        `json:"liveSessions"`
	VipLevel     int        `json:"vipLevel"`
	CreatedAt    time.Time  `json:"createdAt"`
}

func (h *Handler) view(ctx context.Context, u account.User) (UserView, error) {
	n, err := h.users.LiveSessions(ctx, u.ID)
	if err != nil {
		return UserView{}, err
	}
	ban, err := h.users.BanOf(ctx, u.ID)
	if err != nil {
		return UserView{}, err
	}
	v := UserView{UID: u.ID, Name: u.Name, IsGuest: u.IsGuest(), Mobile: account.MaskMobile(u.Mobile), Banned: ban.BannedUntil > 0,
		Role: u.Role, LiveSessions: n, VipLevel: u.VipLevelAt(time.Now()), CreatedAt: time.Unix(u.CreatedAt, 0).UTC()}
	if !u.IsGuest() {
		v.Account = &u.Account
	}
	return v, nil
}

// User is GET /api/admin/users?account=NAME or ?uid=N: one user.
func (h *Handler) User(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	q := httpx.Q(r)
	name := q.String("account")
	var (
		u   account.User
		err error
	)
	switch {
	case name != "" && r.URL.Query().Has("uid"):
		return httpx.Invalid("请只填写账号或用户ID之一", "give account or uid, not both")
	case name != "":
		u, err = h.users.UserByAccount(ctx, name)
	case r.URL.Query().Has("uid"):
		uid := q.Required("uid", 1, math.MaxInt64)
		if err := q.Err(); err != nil {
			return err
		}
		u, err = h.users.User(ctx, uid)
	default:
		return httpx.Invalid("请输入账号或用户ID", "account or uid is required")
	}
	if err != nil {
		return errs.Map(err)
	}
	v, err := h.view(ctx, u)
	if err != nil {
		return httpx.Internal(err)
	}
	return httpx.OK(w, v)
}

// RevokeSessions is POST /api/admin/users/sessions/revoke {uid,
// sessionId?}: sign the user out on every device, or with sessionId (an id
// of the user page's sessions) on that one.
func (h *Handler) RevokeSessions(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		UID       int64   `json:"uid"`
		SessionID *string `json:"sessionId"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	if req.UID < 1 {
		return httpx.Invalid("请输入用户ID", "uid must be a positive integer")
	}
	if req.SessionID != nil {
		return h.revokeOne(w, r, req.UID, *req.SessionID)
	}
	n, err := h.users.RevokeSessions(r.Context(), audit.ActorFrom(r), req.UID)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"uid": req.UID, "revoked": n})
}

// NotFound answers an /api/admin path no route matched; it is mounted
// behind the console's gate so that only operators learn which calls exist.
func NotFound(w http.ResponseWriter, r *http.Request) error {
	return httpx.NotFound("请求地址不存在", "no route for "+r.Method+" "+r.URL.Path)
}
