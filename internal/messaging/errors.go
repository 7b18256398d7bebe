package messaging

import (
	"net/http"

	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// errs is how the message centre's errors answer (docs/architecture.md,
// "How errors answer").
var errs = httpx.ErrorMap{
	{Err: ratelimit.ErrLimited, Status: http.StatusTooManyRequests, Tip: "发送过于频繁，请稍后再试"},
	{Err: ErrMuted, Status: http.StatusForbidden},
	{Err: ErrGuest, Status: http.StatusForbidden, Tip: "注册账号后才能使用私信"},
	{Err: ErrPeerGuest, Status: http.StatusForbidden, Tip: "对方暂时无法接收私信"},
	{Err: ErrNoPeer, Status: http.StatusNotFound, Tip: "用户不存在"},
	{Err: ErrSelf, Status: http.StatusUnprocessableEntity, Tip: "不能给自己发私信"},
	{Err: ErrBlockedBy, Status: http.StatusForbidden, Tip: "对方已将你屏蔽"},
	{Err: ErrBlocking, Status: http.StatusForbidden, Tip: "你已屏蔽对方，解除屏蔽后才能发送"},
	{Err: ErrEmpty, Status: http.StatusUnprocessableEntity, Tip: "消息不能为空"},
	{Err: ErrTooLong, Status: http.StatusRequestEntityTooLarge, Tip: "消息太长了，最多 1000 字"},
	{Err: ErrKind, Status: http.StatusUnprocessableEntity, Tip: "不支持的消息类型"},
	{Err: ErrClientID, Status: http.StatusUnprocessableEntity, Tip: "消息编号无效"},
	{Err: ErrClientReuse, Status: http.StatusConflict, Tip: "消息编号已被使用"},
	{Err: ErrNoPicture, Status: http.StatusNotFound, Tip: "图片不存在或尚未处理完成"},
	{Err: ErrReason, Status: http.StatusUnprocessableEntity, Tip: "请填写举报原因（最多 200 字）"},
	{Err: ErrCategory, Status: http.StatusUnprocessableEntity, Tip: "通知类别无效"},
}
