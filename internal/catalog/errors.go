package catalog

import (
	"errors"
	"net/http"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// How the catalog's errors answer (docs/architecture.md, "How errors
// answer").

var (
	// ErrInput: operator input that breaks a rule (422); the error's
	// Detail names the rule.
	ErrInput = errors.New("catalog: invalid input")
	// ErrNoModule, ErrNoTag, ErrNoVideo: the named module (or sub-module),
	// tag or video does not exist (404); the error's Detail names it.
	ErrNoModule = errors.New("catalog: no such module")
	ErrNoTag    = errors.New("catalog: no such tag")
	ErrNoVideo  = errors.New("catalog: no such video")
	// ErrInUse: the thing is in a state that forbids the action (409): a
	// module with sub-modules or videos, a published video, a row another
	// table still points at.
	ErrInUse = errors.New("catalog: in use")
	// ErrTagTaken: another tag has the name (409).
	ErrTagTaken = errors.New("catalog: tag name taken")
	// ErrNoCustomerService: the install's CUST key holds no link (404).
	ErrNoCustomerService = errors.New("catalog: no customer service link")
)

// detailed is sentinel in the words of this instance (which module, which
// field, which bound).
var detailed = httpx.Refuse

// invalid is input that breaks a rule: tip for the operator, msg for
// developers.
func invalid(tip, msg string) error { return detailed(ErrInput, tip, msg) }

// videoErrs is how a video call's errors answer: a missing or unpublished
// video is 404.
var videoErrs = httpx.ErrorMap{
	{Err: db.ErrNotFound, Status: http.StatusNotFound, Tip: "视频不存在", Msg: "no such video"},
}

// adminErrs answers the operator's calls: modules, tags, videos, the
// preview rule and the source lists.
var adminErrs = httpx.ErrorMap{
	{Err: ErrInput, Status: http.StatusUnprocessableEntity},
	{Err: ErrNoModule, Status: http.StatusNotFound},
	{Err: ErrNoTag, Status: http.StatusNotFound},
	{Err: ErrNoVideo, Status: http.StatusNotFound},
	{Err: ErrCoverNotFound, Status: http.StatusNotFound},
	{Err: ErrNoUpload, Status: http.StatusNotFound},
	{Err: ErrInUse, Status: http.StatusConflict},
	{Err: ErrTagTaken, Status: http.StatusConflict, Tip: "标签名称已存在", Msg: "a tag with this name exists"},
}

// customerServiceErrs answers GET /api/app/im/whiteSign.
var customerServiceErrs = httpx.ErrorMap{
	{Err: ErrNoCustomerService, Status: http.StatusNotFound, Tip: "客服暂未开通，请稍后再试或在「意见反馈」留言", Msg: "no CUST entry with a url is configured"},
}

// appClickErrs answers POST /api/app/apps/click: another key's entry or an
// unknown id.
var appClickErrs = httpx.ErrorMap{
	{Err: db.ErrNotFound, Status: http.StatusNotFound, Tip: "应用不存在", Msg: "no APPS entry with this id"},
}
