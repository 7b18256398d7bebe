package searchapi

import (
	"fmt"
	"net/http"
	"strings"

	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
	"prima/internal/search"
)

// errs is how search's errors answer (docs/architecture.md, "How errors
// answer"): bad input a clear 422, never a 5xx.
var errs = httpx.ErrorMap{
	{Err: search.ErrEmptyQuery, Status: http.StatusUnprocessableEntity, Tip: "请输入搜索内容", Msg: "q is empty or only whitespace and control characters"},
	{Err: search.ErrQueryTooLong, Status: http.StatusUnprocessableEntity, Tip: fmt.Sprintf("搜索内容不能超过%d个字", search.MaxQueryRunes), Msg: fmt.Sprintf("q is over %d characters", search.MaxQueryRunes)},
	{Err: search.ErrBadKind, Status: http.StatusUnprocessableEntity, Tip: "搜索类型无效", Msg: "kind must be one of " + strings.Join(search.Kinds, ", ")},
	{Err: search.ErrBadSort, Status: http.StatusUnprocessableEntity, Tip: "排序方式无效", Msg: "sort must be relevance, new or plays"},
	{Err: ratelimit.ErrLimited, Status: http.StatusTooManyRequests, Tip: "搜索太频繁，请稍后再试", Msg: "over the search rate"},
}
