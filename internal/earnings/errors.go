package earnings

import (
	"errors"
	"net/http"

	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// How earnings' errors answer (docs/architecture.md, "How errors answer").

var (
	// ErrGuest: a guest asked for promoter or creator data (403).
	ErrGuest = errors.New("earnings: guests have no promoter or creator data")
	// ErrInput: a field out of range; the refusal names it (422).
	ErrInput = errors.New("earnings: invalid input")
	// ErrPending: the caller's promoter application is under review (409).
	ErrPending = errors.New("earnings: a promoter application is pending")
	// ErrApproved: the caller is a promoter already (409).
	ErrApproved = errors.New("earnings: already a promoter")
	// ErrNoApplication: no such promoter application (404).
	ErrNoApplication = errors.New("earnings: no such promoter application")
)

// invalid is ErrInput naming field in its words.
func invalid(tip, msg string) error { return httpx.Refuse(ErrInput, tip, msg) }

var errs = httpx.ErrorMap{
	{Err: ErrGuest, Status: http.StatusForbidden, Tip: "请先注册账号", Msg: "register first: guests have no promoter or creator data"},
	{Err: ErrInput, Status: http.StatusUnprocessableEntity},
	{Err: ErrPending, Status: http.StatusConflict, Tip: "你的推广员申请正在审核中", Msg: "a promoter application is pending"},
	{Err: ErrApproved, Status: http.StatusConflict, Tip: "你已是推广员", Msg: "already a promoter"},
	{Err: ErrNoApplication, Status: http.StatusNotFound, Tip: "申请不存在", Msg: "no such promoter application"},
	{Err: ratelimit.ErrLimited, Status: http.StatusTooManyRequests, Tip: "操作过于频繁，请稍后再试"},
	{Err: ratelimit.ErrUnavailable, Status: http.StatusServiceUnavailable, Tip: "服务繁忙，请稍后再试"},
}
