package media

import (
	"net/http"

	"prima/internal/platform/httpx"
)

// How media's errors answer (docs/architecture.md, "How errors answer").

// uploadErrs answers POST /api/app/vid/uploadStatic. ErrImageTooBig is
// an ErrBadImage, so it comes first.
var uploadErrs = httpx.ErrorMap{
	{Err: ErrEmpty, Status: http.StatusBadRequest, Tip: "文件是空的", Msg: "the file has no bytes"},
	{Err: ErrUnsupported, Status: http.StatusUnsupportedMediaType, Tip: "不支持的文件类型，请上传图片（JPEG/PNG/GIF/WebP）或视频（MP4/MOV/WebM）",
		Msg: "the file's bytes are not JPEG, PNG, GIF, WebP, MP4/MOV or WebM/Matroska"},
	{Err: ErrTooLarge, Status: http.StatusRequestEntityTooLarge, Tip: "文件太大（图片不超过 10MB，视频不超过 500MB）"},
	{Err: ErrImageTooBig, Status: http.StatusUnprocessableEntity, Tip: "图片尺寸过大（单边不超过 12000 像素，总计不超过 5000 万像素）"},
	{Err: ErrBadImage, Status: http.StatusUnprocessableEntity, Tip: "图片已损坏或无法识别"},
	{Err: ErrBadVideo, Status: http.StatusUnprocessableEntity, Tip: "视频无法识别：需要包含画面且时长大于 0"},
}
