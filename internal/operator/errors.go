package operator

import (
	"errors"
	"net/http"

	"prima/internal/account"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

var (
	// ErrBadSignIn: wrong account, password or code, or not an operator;
	// one error for all of them, so the answer tells a guesser nothing
	// (401).
	ErrBadSignIn = errors.New("wrong account, password or code")
	// ErrTicketInvalid: an enrolment ticket that is unknown, expired, used
	// or out of tries, or whose operator enrolled meanwhile (401).
	ErrTicketInvalid = errors.New("enrolment ticket invalid")
	// ErrCodeWrong: a wrong code where the caller is known (enrolment,
	// step-up) (422).
	ErrCodeWrong = errors.New("wrong code")
	// ErrNoCredential: no bearer token on an /api/admin call (401).
	ErrNoCredential = errors.New("no console token or API key")
	// ErrSessionInvalid: a token that is no live console session or API
	// key: unknown (a phone-app token too), revoked, idle too long, past
	// its 12 hours, or of someone no longer an operator (401).
	ErrSessionInvalid = errors.New("console session invalid")
	// ErrForbidden: the caller's role does not open the route (403).
	ErrForbidden = errors.New("role does not open this route")
	// ErrStepUp: the route needs a code entered in the last 5 minutes (403
	// with data {stepUp: true}).
	ErrStepUp = errors.New("step-up needed")
	// ErrKeyRefused: an API key on a call only a console session may make
	// (403).
	ErrKeyRefused = errors.New("API keys cannot make this call")
	// ErrAddressRefused: the client address is outside PRIMA_ADMIN_ALLOW (403).
	ErrAddressRefused = errors.New("address not in the admin allowlist")
	// ErrTooMany: too many sign-in attempts or wrong codes (429).
	ErrTooMany = errors.New("too many attempts")
	// ErrLastOwner: the change would leave no owner (409).
	ErrLastOwner = errors.New("cannot remove the last owner")
	// ErrNoOperator: no operator with that uid (404).
	ErrNoOperator = errors.New("no such operator")
	// ErrAlreadyOperator: creating an operator from an account that is one (409).
	ErrAlreadyOperator = errors.New("already an operator")
	// ErrNoSession: no console session or API key with that id the caller
	// may see (404).
	ErrNoSession = errors.New("no such session")
	// ErrBadRole: a role that is no console role (422).
	ErrBadRole = errors.New("invalid role")
)

// Tips the console acts on (docs/api.md, *Operator console*).
const (
	tipBadSignIn  = "账号、密码或验证码错误"
	tipRelogin    = "请重新登录"
	tipExpired    = "登录已过期，请重新登录"
	tipLoginFirst = "请先登录"
	tipStepUp     = "请输入动态验证码以继续"
	tipForbidden  = "没有权限"
)

// errs is how the console's errors answer (docs/architecture.md, "How
// errors answer").
var errs = httpx.ErrorMap{
	{Err: ErrBadSignIn, Status: http.StatusUnauthorized, Tip: tipBadSignIn},
	{Err: ErrTicketInvalid, Status: http.StatusUnauthorized, Tip: tipRelogin},
	{Err: ErrCodeWrong, Status: http.StatusUnprocessableEntity, Tip: "验证码错误"},
	{Err: ErrNoCredential, Status: http.StatusUnauthorized, Tip: tipLoginFirst},
	{Err: ErrSessionInvalid, Status: http.StatusUnauthorized, Tip: tipExpired},
	{Err: ErrForbidden, Status: http.StatusForbidden, Tip: tipForbidden},
	{Err: ErrKeyRefused, Status: http.StatusForbidden, Tip: "API 密钥不能执行此操作，请在管理后台操作"},
	{Err: ErrAddressRefused, Status: http.StatusForbidden, Tip: "当前网络不允许访问管理后台"},
	{Err: ErrTooMany, Status: http.StatusTooManyRequests, Tip: "尝试次数过多，请稍后再试"},
	{Err: account.ErrRateLimited, Status: http.StatusTooManyRequests, Tip: "尝试次数过多，请稍后再试"},
	{Err: ratelimit.ErrUnavailable, Status: http.StatusServiceUnavailable, Tip: "服务繁忙，请稍后再试"},
	{Err: ErrLastOwner, Status: http.StatusConflict, Tip: "不能移除最后一位所有者"},
	{Err: ErrNoOperator, Status: http.StatusNotFound, Tip: "运营人员不存在"},
	{Err: ErrAlreadyOperator, Status: http.StatusConflict, Tip: "该账号已是运营人员"},
	{Err: ErrNoSession, Status: http.StatusNotFound, Tip: "会话不存在"},
	{Err: ErrKeyTTL, Status: http.StatusUnprocessableEntity, Tip: "有效期应在 1 分钟到 90 天之间"},
	{Err: ErrBadRole, Status: http.StatusUnprocessableEntity, Tip: "角色无效，应为 owner、content、moderator、finance、support 之一"},
	{Err: account.ErrGuestOperator, Status: http.StatusUnprocessableEntity, Tip: "游客账号不能设为运营人员，请先注册"},
	{Err: account.ErrPasswordNeeded, Status: http.StatusUnprocessableEntity, Tip: "请设置密码"},
	{Err: account.ErrInvalid, Status: http.StatusUnprocessableEntity},
	{Err: db.ErrNotFound, Status: http.StatusNotFound, Tip: "用户不存在", Msg: "no such user"},
}

// stepUpAnswer is the 403 a step-up route answers without a fresh code.
func stepUpAnswer(err error) *httpx.Error {
	return &httpx.Error{Status: http.StatusForbidden, Tip: tipStepUp, Msg: "a TOTP code entered in the last 5 minutes is needed; POST /api/admin/session/stepup",
		Err: err, Data: map[string]bool{"stepUp": true}}
}
