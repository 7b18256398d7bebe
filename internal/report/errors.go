package report

import (
	"net/http"

	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// Detail names the refused field for the user.
func (e *Invalid) Detail() (tip, msg string) { return "上报内容无效：" + e.Field, e.Error() }

// errs is how a report's errors answer (docs/architecture.md, "How errors answer").
var errs = httpx.ErrorMap{
	{Err: ErrInvalid, Status: http.StatusUnprocessableEntity},
	{Err: ratelimit.ErrLimited, Status: http.StatusTooManyRequests, Tip: "操作过于频繁，请稍后再试"},
}
