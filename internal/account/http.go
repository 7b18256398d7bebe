package account

import (
	"cmp"
	"context"
	"errors"
	"math"
	"net/http"
	"strings"

	"prima/internal/platform/httpx"
)

// Handler serves the account API.
type Handler struct{ s *Service }

// NewHandler returns the account handlers over s.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

// Context keys are empty struct types of their own, so no other key can
// equal them (httpx does the same for its values).
type (
	sessionKey struct{} // *Session of a valid token
	authErrKey struct{} // error: why the token on this request was refused
)

const (
	tipLoginFirst = "请先登录"
	tipExpired    = "登录已失效，请重新登录"
)

// Authenticate resolves the bearer token, when there is one. A valid token
// puts its principal on the context (httpx.PrincipalFrom: uid and role) and
// its session beside it. A
// refused token leaves the request anonymous and remembers why, so Require
// can answer "login expired" rather than "please log in"; public routes
// never look, so a stale token cannot break them.
func (h *Handler) Authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, present := bearer(r)
		if !present {
			next.ServeHTTP(w, r)
			return
		}
		ctx := r.Context()
		sess, err := h.s.Authenticate(ctx, token)
		if err != nil {
			ctx = context.WithValue(ctx, authErrKey{}, err)
		} else {
			ctx = context.WithValue(ctx, sessionKey{}, &sess)
			ctx = httpx.WithPrincipal(ctx, httpx.Principal{UID: sess.UserID, Role: sess.Role})
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// RequireUser is the gate of the phone app's routes: every route is
// public or for a signed-in user (a guest too). The /api/admin routes have
// the console's own gate (internal/operator), which no phone-app token
// opens.
//
// RequireUser lets only requests with a valid token through.
func (h *Handler) RequireUser(next httpx.Handler) httpx.Handler {
	return func(w http.ResponseWriter, r *http.Request) error {
		if err := signedIn(r.Context()); err != nil {
			return err
		}
		return next(w, r)
	}
}

// Require is RequireUser, under the name routes used before roles existed.
func (h *Handler) Require(next httpx.Handler) httpx.Handler { return h.RequireUser(next) }

// signedIn is nil for a request with a valid token, else the error to answer.
func signedIn(ctx context.Context) error {
	if CurrentSession(ctx) != nil {
		return nil
	}
	if err, ok := ctx.Value(authErrKey{}).(error); ok {
		if errors.Is(err, ErrBanned) {
			return errs.Map(err) // 403, the tip names the ban's end
		}
		if errors.Is(err, ErrSessionInvalid) {
			return httpx.Unauthorized(tipExpired, err.Error())
		}
		// The database failed while checking the token: that is ours,
		// not the user's, and must not send them to the login page.
		return httpx.Internal(err)
	}
	return httpx.Unauthorized(tipLoginFirst, "no bearer token")
}

// CurrentSession is the session of the request's valid token, or nil.
func CurrentSession(ctx context.Context) *Session {
	s, _ := ctx.Value(sessionKey{}).(*Session)
	return s
}

// bearer returns the token of an Authorization header. present is false
// when there is no header or an empty credential, which counts as no token
// at all; any other scheme or value is a token that will be refused.
func bearer(r *http.Request) (token string, present bool) {
	v := strings.TrimSpace(r.Header.Get("Authorization"))
	if v == "" {
		return "", false
	}
	scheme, rest, _ := strings.Cut(v, " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return v, true
	}
	rest = strings.TrimSpace(rest)
	return rest, rest != ""
}

// clientDevID is the devID of the X-App-Client header
// (devID=<id>;ver=..;dev=..;h5=1) when it is well formed, else "".
func clientDevID(r *http.Request) string {
	for _, part := range strings.Split(r.Header.Get("X-App-Client"), ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		if k == "devID" && validDevID(v) {
			return v
		}
	}
	return ""
}

// clientDev is the dev of the X-App-Client header (ios, android or pc)
// when it is one of the sysTypes, else "".
func clientDev(r *http.Request) string {
	for _, part := range strings.Split(r.Header.Get("X-App-Client"), ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		if k == "dev" && checkSysType(v, true) == nil {
			return v
		}
	}
	return ""
}

type loginReply struct {
	Token string   `json:"token"`
	IsNew bool     `json:"isNew"`
	User  UserInfo `json:"user"`
}

type tokenReply struct {
	Token string   `json:"token"`
	User  UserInfo `json:"user"`
}

// GuestLogin is POST /api/app/mine/login {devID, sysType, cutInfos}. With
// qrCnt (and uid) it is the certificate login (certificate.go) instead.
func (h *Handler) GuestLogin(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		DevID    string `json:"devID"`
		SysType  string `json:"sysType"`
		CutInfos string `json:"cutInfos"`
		QrCnt    string `json:"qrCnt"`
		UID      int64  `json:"uid"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	if req.QrCnt != "" {
		res, err := h.s.CertificateLogin(r.Context(), CertLoginInput{DevID: req.DevID, SysType: req.SysType, CutInfos: req.CutInfos,
			QrCnt: req.QrCnt, UID: req.UID, IP: httpx.ClientIP(r), Device: DeviceLabel(r.UserAgent())})
		if err != nil {
			return errs.Map(err)
		}
		return httpx.OK(w, tokenReply{Token: res.Token, User: h.s.Info(res.User)})
	}
	res, err := h.s.GuestLogin(r.Context(), GuestLoginInput{DevID: req.DevID, SysType: req.SysType, CutInfos: req.CutInfos, IP: httpx.ClientIP(r)})
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, loginReply{Token: res.Token, IsNew: res.IsNew, User: h.s.Info(res.User)})
}

// PasswordLogin is POST /api/app/mine/login/h5 {account, passWord, sysType}.
func (h *Handler) PasswordLogin(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Account  string `json:"account"`
		Password string `json:"passWord"`
		SysType  string `json:"sysType"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	res, err := h.s.PasswordLogin(r.Context(), PasswordLoginInput{
		Account: req.Account, Password: req.Password, SysType: cmp.Or(req.SysType, clientDev(r)),
		IP: httpx.ClientIP(r), DevID: clientDevID(r), Device: DeviceLabel(r.UserAgent()),
	})
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, tokenReply{Token: res.Token, User: h.s.Info(res.User)})
}

// Register is POST /api/app/mine/register {account, passWord}. With a valid
// guest token the guest is upgraded in place.
func (h *Handler) Register(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Account  string `json:"account"`
		Password string `json:"passWord"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	ctx := r.Context()
	// A token that could not be checked because the database failed must
	// not quietly turn an upgrade into a brand-new user.
	if err, ok := ctx.Value(authErrKey{}).(error); ok {
		if !errors.Is(err, ErrSessionInvalid) {
			return httpx.Internal(err)
		}
		if errors.Is(err, ErrBanned) {
			return errs.Map(err)
		}
		// Nor must a refused one: the caller meant to upgrade the guest the
		// token names. The usual cause is a second tap whose request was
		// authenticated after the first one's upgrade revoked the token.
		token, _ := bearer(r)
		return errs.Map(h.s.RefusedRegistration(ctx, token))
	}
	res, err := h.s.Register(ctx, RegisterInput{
		Account: req.Account, Password: req.Password,
		IP: httpx.ClientIP(r), DevID: clientDevID(r), Current: CurrentSession(ctx),
		SysType: clientDev(r), Device: DeviceLabel(r.UserAgent()),
	})
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, tokenReply{Token: res.Token, User: h.s.Info(res.User)})
}

// Logout is POST /api/app/mine/logout; it revokes the token it came with.
func (h *Handler) Logout(w http.ResponseWriter, r *http.Request) error {
	sess := CurrentSession(r.Context())
	if sess == nil {
		return httpx.Unauthorized(tipLoginFirst, "no session")
	}
	if err := h.s.Logout(r.Context(), *sess); err != nil {
		return httpx.Internal(err)
	}
	return httpx.OK(w, nil)
}

// Info is GET /api/app/mine/info: the caller's UserInfo, or with ?uid=N the
// PublicProfile of user N.
func (h *Handler) Info(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	if r.URL.Query().Has("uid") {
		q := httpx.Q(r)
		uid := q.Required("uid", 1, math.MaxInt64)
		if err := q.Err(); err != nil {
			return err
		}
		p, err := h.s.ViewProfile(ctx, httpx.UserID(ctx), uid)
		if err != nil {
			return errs.Map(err)
		}
		return httpx.OK(w, p)
	}
	u, err := h.s.User(ctx, httpx.UserID(ctx))
	if err != nil {
		return errs.Map(err)
	}
	info := h.s.Info(u)
	if h.s.Coupons != nil {
		if info.NewGoldVideoCoupon, err = h.s.Coupons.CouponGroups(ctx, u.ID); err != nil {
			return err
		}
	}
	if h.s.Inbox != nil {
		if info.MsgHasNew, err = h.s.Inbox.HasNew(ctx, u.ID); err != nil {
			return err
		}
	}
	if h.s.Reports != nil {
		if info.ReportVid, err = h.s.Reports.ReportedVideos(ctx, u.ID); err != nil {
			return err
		}
		if info.ReportVid == nil {
			info.ReportVid = []int64{}
		}
	}
	return httpx.OK(w, info)
}

// UpdateInfo is POST /api/app/mine/info {name?, portrait?, gender?, bio?}:
// the caller edits their profile (profile.go) and gets their UserInfo back.
// portrait is the asset id of a picture the caller uploaded.
func (h *Handler) UpdateInfo(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Name     *string `json:"name"`
		Portrait *int64  `json:"portrait"`
		Gender   *int    `json:"gender"`
		Bio      *string `json:"bio"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	u, err := h.s.UpdateProfile(r.Context(), httpx.UserID(r.Context()), ProfileInput{Name: req.Name, Portrait: req.Portrait, Gender: req.Gender, Bio: req.Bio})
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, h.s.Info(u))
}
