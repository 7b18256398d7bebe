package account

import (
	"errors"
	"net/http"
	"slices"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// How the account's errors answer (docs/architecture.md, "How errors answer").

// ErrInvalid: input that breaks a rule (422); the error is a
// *ValidationError, whose Tip names the rule.
var ErrInvalid = errors.New("account: invalid input")

func (e *ValidationError) Is(target error) bool      { return target == ErrInvalid }
func (e *ValidationError) Detail() (tip, msg string) { return e.Tip, e.Msg }

// RetryIn lets httpx.WriteError say when to come back (Retry-After).
func (e *RateLimitError) RetryIn() time.Duration { return e.RetryAfter }

// Detail is the code's own tip (wrong, expired, used up).
func (e *CodeError) Detail() (tip, msg string) { return e.Tip, e.Error() }

var errs = httpx.ErrorMap{
	{Err: ErrPortraitNotFound, Status: http.StatusNotFound, Tip: "头像图片不存在", Msg: "no such picture of yours"},
	{Err: ErrPortraitNotImage, Status: http.StatusUnprocessableEntity, Tip: "头像必须是上传成功的图片", Msg: "the asset is not a ready picture"},
	{Err: ErrInvalid, Status: http.StatusUnprocessableEntity},
	{Err: ErrRateLimited, Status: http.StatusTooManyRequests, Tip: "操作过于频繁，请稍后再试"},
	{Err: ErrGuestRegistered, Status: http.StatusConflict, Tip: "该游客已注册，请直接登录", Msg: "the guest of this token has already registered"},
	{Err: ErrDuplicateAccount, Status: http.StatusConflict, Tip: "账号已被注册", Msg: "account already registered"},
	{Err: ErrBadCredentials, Status: http.StatusUnauthorized, Tip: "账号或密码错误", Msg: "wrong account or password"},
	{Err: ErrCertificateInvalid, Status: http.StatusUnauthorized, Tip: tipCertInvalid},
	{Err: ErrCertificateOperator, Status: http.StatusForbidden, Tip: "运营账号不支持账号凭证，请使用密码登录"},
	// Before ErrSessionInvalid, which a *BannedError matches too.
	{Err: ErrBanned, Status: http.StatusForbidden},
	{Err: ErrBanOperator, Status: http.StatusConflict, Tip: "不能封禁运营人员，请先撤销其角色", Msg: "operators cannot be banned"},
	{Err: ErrSessionInvalid, Status: http.StatusUnauthorized, Tip: tipExpired},
	{Err: db.ErrNotFound, Status: http.StatusNotFound, Tip: "用户不存在", Msg: "no such user"},
	// The phone, password and devices calls.
	{Err: ErrCodeInvalid, Status: http.StatusUnprocessableEntity},
	{Err: ErrMobileTaken, Status: http.StatusConflict, Tip: "该手机号已绑定其他账号", Msg: "mobile is bound to another user"},
	{Err: ErrMobileSame, Status: http.StatusConflict, Tip: "已绑定该手机号", Msg: "mobile is already bound to this user"},
	{Err: ErrNotYours, Status: http.StatusForbidden, Tip: "无权操作", Msg: "uid is not the caller's"},
	{Err: ErrNotRegistered, Status: http.StatusForbidden, Tip: "请先注册账号", Msg: "a guest has no account and password"},
	{Err: ErrUnavailable, Status: http.StatusServiceUnavailable, Tip: "服务繁忙，请稍后再试", Msg: "limiter unavailable"},
}

// passwordErrs answers a wrong fresh password as such (401, which the
// client's passwordCheck option shows without ending the session).
var passwordErrs = slices.Concat(httpx.ErrorMap{
	{Err: ErrBadCredentials, Status: http.StatusUnauthorized, Tip: "密码错误", Msg: "wrong password"},
}, errs)
