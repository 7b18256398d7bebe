package catalog

import (
	"net/http"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// videoErrs is how a video call's errors answer (docs/architecture.md,
// "How errors answer"): a missing or unpublished video is 404.
var videoErrs = httpx.ErrorMap{
	{Err: db.ErrNotFound, Status: http.StatusNotFound, Tip: "视频不存在", Msg: "no such video"},
}
