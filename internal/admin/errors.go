package admin

import (
	"net/http"

	"prima/internal/account"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// errs is how the operator calls' errors answer (docs/architecture.md, "How
// errors answer").
var errs = httpx.ErrorMap{
	{Err: account.ErrInvalid, Status: http.StatusUnprocessableEntity},
	{Err: account.ErrBanOperator, Status: http.StatusConflict, Tip: "不能封禁运营人员，请先撤销其角色", Msg: "operators cannot be banned"},
	{Err: account.ErrNoSession, Status: http.StatusNotFound, Tip: "该会话不存在或已结束", Msg: "no such live session of this user"},
	{Err: db.ErrNotFound, Status: http.StatusNotFound, Tip: "用户不存在", Msg: "no such user"},
	{Err: account.ErrLastOperator, Status: http.StatusConflict, Tip: "不能撤销最后一位运营人员"},
	{Err: account.ErrGuestOperator, Status: http.StatusUnprocessableEntity, Tip: "游客账号不能设为运营人员，请先注册"},
}
