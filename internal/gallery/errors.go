package gallery

import (
	"net/http"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// errs is how the gallery's errors answer (docs/architecture.md, "How
// errors answer").
var errs = httpx.ErrorMap{
	{Err: ErrNotFound, Status: http.StatusNotFound, Tip: "图集不存在", Msg: "no such gallery"},
	{Err: db.ErrNotFound, Status: http.StatusNotFound, Tip: "栏目不存在", Msg: "no such images module or sub-module"},
	{Err: ErrBadModule, Status: http.StatusUnprocessableEntity, Tip: "请选择图片栏目下的分类", Msg: "subModuleID must be a sub-module of an images module (type 3)"},
	{Err: ErrBadAsset, Status: http.StatusUnprocessableEntity, Tip: "图片不存在或尚未处理完成"},
	{Err: ErrDuplicate, Status: http.StatusUnprocessableEntity, Tip: "同一张图片不能重复添加"},
	{Err: ErrImageCount, Status: http.StatusUnprocessableEntity, Tip: "图集需要 1 到 200 张图片"},
	{Err: ErrInvalidEdit, Status: http.StatusUnprocessableEntity, Tip: "参数无效"},
}
