package admin

// The people section (docs/api.md, *Operator API → People*): the user
// search, a user's page, ending one session or all, bans. Mutes are the
// community's own call (community.ModHandler.AdminMute), mounted also as
// POST /api/admin/users/mute. Balances, orders, invitations and the mute
// are read through the small interfaces below, wired in internal/app.

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"time"

	"prima/internal/account"
	"prima/internal/community"
	"prima/internal/platform/audit"
	"prima/internal/platform/httpx"
	"prima/internal/rewards"
	"prima/internal/wallet"
)

// Balances reads a user's wallet (the wallet implements it).
type Balances interface {
	Summary(ctx context.Context, uid int64) (wallet.Summary, error)
	Orders(ctx context.Context, f wallet.OrderFilter) (wallet.OrderPage, error)
}

// Invites reads a user's invitations (rewards implements it).
type Invites interface {
	Admin(ctx context.Context, uid int64, pageNumber, pageSize int) (rewards.AdminInvites, error)
}

// Mutes reads a user's community mute (community implements it).
type Mutes interface {
	MuteOf(ctx context.Context, uid int64) (community.Mute, error)
}

// People are the other domains a user's page reads; app.routes sets them.
type People struct {
	Balances Balances
	Invites  Invites
	Mutes    Mutes
}

// searchPage is how many users one search page holds.
const searchPage = 20

// Search is GET /api/admin/users/search?q=&cursor=: users whose uid,
// account, phone or part of whose name is q, uid descending, 20 a page;
// nextCursor (an opaque string) is null on the last page.
func (h *Handler) Search(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	text := q.String("q")
	cursor := q.String("cursor")
	if err := q.Err(); err != nil {
		return err
	}
	if text == "" {
		return httpx.Invalid("请输入用户ID、账号、手机号或昵称", "q is required")
	}
	if n := len([]rune(text)); n > 64 {
		return httpx.Invalid("搜索内容不能超过 64 个字", "q is longer than 64 characters")
	}
	var before int64
	if cursor != "" {
		n, err := strconv.ParseInt(cursor, 10, 64)
		if err != nil || n < 1 {
			return httpx.Invalid("参数 cursor 无效", "cursor is not one this call gave")
		}
		before = n
	}
	users, next, err := h.users.SearchUsers(r.Context(), text, before, searchPage)
	if err != nil {
		return httpx.Internal(err)
	}
	out := struct {
		List       []UserView `json:"list"`
		NextCursor *string    `json:"nextCursor"`
	}{List: make([]UserView, 0, len(users))}
	for _, u := range users {
		v, err := h.view(r.Context(), u)
		if err != nil {
			return httpx.Internal(err)
		}
		out.List = append(out.List, v)
	}
	if next > 0 {
		c := strconv.FormatInt(next, 10)
		out.NextCursor = &c
	}
	return httpx.OK(w, out)
}

// VIP is a user's membership as an operator sees it.
type VIP struct {
	Level         int        `json:"level"`
	VipExpiresAt  *time.Time `json:"vipExpiresAt"`
	SvipExpiresAt *time.Time `json:"svipExpiresAt"`
}

// BalanceView is a user's wallet balances, read-only.
type BalanceView struct {
	Coins        int64 `json:"coins"`
	Income       int64 `json:"income"`       // cents
	IncomeFrozen int64 `json:"incomeFrozen"` // cents
}

// InviteView is a user's invitations: who invited them, how many they
// invited and the latest ten.
type InviteView struct {
	Code         string            `json:"code"`
	Inviter      *int64            `json:"inviter"`
	InvitedCount int               `json:"invitedCount"`
	Recent       []rewards.Invitee `json:"recent"`
}

// UserDetail is GET /api/admin/users/detail.
type UserDetail struct {
	User     UserView              `json:"user"`
	VIP      VIP                   `json:"vip"`
	Balances *BalanceView          `json:"balances"`
	Sessions []account.SessionInfo `json:"sessions"`
	Devices  []account.DeviceInfo  `json:"devices"`
	Invites  *InviteView           `json:"invites"`
	Orders   []wallet.Order        `json:"orders"`
	Ban      *account.Ban          `json:"ban"`
	Mute     *community.Mute       `json:"mute"`
}

func unixPtr(sec int64) *time.Time {
	if sec <= 0 {
		return nil
	}
	t := time.Unix(sec, 0).UTC()
	return &t
}

// Detail is GET /api/admin/users/detail?uid=N: one user's page.
func (h *Handler) Detail(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	q := httpx.Q(r)
	uid := q.Required("uid", 1, math.MaxInt64)
	if err := q.Err(); err != nil {
		return err
	}
	u, err := h.users.User(ctx, uid)
	if err != nil {
		return errs.Map(err)
	}
	d := UserDetail{Orders: []wallet.Order{}}
	if d.User, err = h.view(ctx, u); err != nil {
		return httpx.Internal(err)
	}
	d.VIP = VIP{Level: d.User.VipLevel, VipExpiresAt: unixPtr(u.VipExpireAt), SvipExpiresAt: unixPtr(u.SvipExpireAt)}
	if d.Sessions, err = h.users.UserSessions(ctx, uid); err != nil {
		return httpx.Internal(err)
	}
	if d.Devices, err = h.users.UserDevices(ctx, uid); err != nil {
		return httpx.Internal(err)
	}
	ban, err := h.users.BanOf(ctx, uid)
	if err != nil {
		return httpx.Internal(err)
	}
	if ban.BannedUntil > 0 {
		d.Ban = &ban
	}
	// Money is for the roles that read it elsewhere (GET /api/admin/wallet:
	// finance, support, owner); a moderator sees null.
	p, _ := httpx.PrincipalFrom(ctx)
	readsMoney := p.Role == httpx.RoleOwner || p.Role == httpx.RoleFinance || p.Role == httpx.RoleSupport
	if p := h.People.Balances; p != nil && readsMoney {
		sum, err := p.Summary(ctx, uid)
		if err != nil {
			return httpx.Internal(err)
		}
		d.Balances = &BalanceView{Coins: sum.Coins, Income: sum.Income, IncomeFrozen: sum.IncomeFrozen}
		page, err := p.Orders(ctx, wallet.OrderFilter{UserID: uid, PageNumber: 1, PageSize: 20})
		if err != nil {
			return httpx.Internal(err)
		}
		d.Orders = page.List
	}
	if p := h.People.Invites; p != nil {
		a, err := p.Admin(ctx, uid, 1, 10)
		if err != nil {
			return httpx.Internal(err)
		}
		d.Invites = &InviteView{Code: a.Code, Inviter: a.Inviter, InvitedCount: a.Invitees.Total, Recent: a.Invitees.List}
		if d.Invites.Recent == nil {
			d.Invites.Recent = []rewards.Invitee{}
		}
	}
	if p := h.People.Mutes; p != nil {
		m, err := p.MuteOf(ctx, uid)
		if err != nil {
			return httpx.Internal(err)
		}
		if m.MutedUntil > 0 {
			d.Mute = &m
		}
	}
	return httpx.OK(w, d)
}

// Ban is POST /api/admin/users/ban {uid, minutes, forever?, reason}: ban
// for minutes (1..account.MaxBanMinutes) or forever, ending every session;
// minutes 0 without forever lifts the ban. -> {uid, bannedUntil, forever,
// reason}.
func (h *Handler) Ban(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		UID     *int64 `json:"uid"`
		Minutes *int64 `json:"minutes"`
		Forever bool   `json:"forever"`
		Reason  string `json:"reason"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	uid, err := httpx.BodyIDOf("uid", in.UID)
	if err != nil {
		return err
	}
	var minutes int64
	switch {
	case in.Minutes != nil:
		minutes = *in.Minutes
		if in.Forever && minutes != 0 {
			return httpx.Invalid("永久封禁不需要填写时长", "give minutes or forever, not both")
		}
	case !in.Forever:
		return httpx.Invalid("缺少参数 minutes", "minutes is required (0 lifts the ban) unless forever")
	}
	b, err := h.users.BanUser(r.Context(), audit.ActorFrom(r), uid, minutes, in.Forever, in.Reason)
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, b)
}

// revokeOne ends one session of uid (POST /api/admin/users/sessions/revoke
// with sessionId).
func (h *Handler) revokeOne(w http.ResponseWriter, r *http.Request, uid int64, id string) error {
	if err := h.users.RevokeUserSession(r.Context(), audit.ActorFrom(r), uid, id); err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]any{"uid": uid, "revoked": 1, "sessionId": id})
}
