package support

import (
	"errors"
	"net/http"

	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// How support's errors answer (docs/architecture.md, "How errors answer").

var (
	// ErrNoFeedback: no such feedback (404).
	ErrNoFeedback = errors.New("support: no such feedback")
	// ErrNoApplication: no such creator application (404).
	ErrNoApplication = errors.New("support: no such application")
	// ErrPending: the user's application is still under review (409).
	ErrPending = errors.New("support: an application is pending")
	// ErrApproved: the user is a creator already (409).
	ErrApproved = errors.New("support: already approved")
	// ErrNotYourPicture: a feedback picture is not a ready picture the
	// caller uploaded (422); ids reveal nothing.
	ErrNotYourPicture = errors.New("support: not the caller's picture")
	// ErrInput: input that breaks a rule (422); the error's Detail names
	// the field and the rule.
	ErrInput = errors.New("support: invalid input")
)

// invalid is input that breaks a rule: tip for the user, msg for
// developers.
func invalid(tip, msg string) error { return httpx.Refuse(ErrInput, tip, msg) }

var errs = httpx.ErrorMap{
	{Err: ErrNoFeedback, Status: http.StatusNotFound, Tip: "反馈不存在", Msg: "no such feedback"},
	{Err: ErrNoApplication, Status: http.StatusNotFound, Tip: "申请不存在", Msg: "no such application"},
	{Err: ErrPending, Status: http.StatusConflict, Tip: "你的入驻申请正在审核中，请耐心等待", Msg: "an application is pending"},
	{Err: ErrApproved, Status: http.StatusConflict, Tip: "你已入驻成功，无需重复申请", Msg: "already approved"},
	{Err: ErrNotYourPicture, Status: http.StatusUnprocessableEntity, Tip: "图片不存在或不是你上传的", Msg: "an image is not a ready picture the caller uploaded"},
	{Err: ErrInput, Status: http.StatusUnprocessableEntity},
	{Err: ratelimit.ErrLimited, Status: http.StatusTooManyRequests, Tip: "提交过于频繁，请稍后再试"},
}
