package media

import (
	"errors"
	"fmt"
	"testing"

	"prima/internal/platform/httpx"
)

// An upload's refusals answer with the status, tip and msg
// the handlers always gave them; anything else stays the logged 500.
func TestMediaErrsAnswer(t *testing.T) {
	tooLarge := fmt.Errorf("%w: over 10 bytes", ErrTooLarge)
	tooBig := fmt.Errorf("%w: 20000x20000", ErrImageTooBig)
	for _, c := range []struct {
		m        httpx.ErrorMap
		err      error
		status   int
		tip, msg string
	}{
		{uploadErrs, ErrEmpty, 400, "文件是空的", "the file has no bytes"},
		{uploadErrs, ErrUnsupported, 415, "不支持的文件类型，请上传图片（JPEG/PNG/GIF/WebP）或视频（MP4/MOV/WebM）", "the file's bytes are not JPEG, PNG, GIF, WebP, MP4/MOV or WebM/Matroska"},
		{uploadErrs, tooLarge, 413, "文件太大（图片不超过 10MB，视频不超过 500MB）", tooLarge.Error()},
		{uploadErrs, tooBig, 422, "图片尺寸过大（单边不超过 12000 像素，总计不超过 5000 万像素）", tooBig.Error()},
		{uploadErrs, ErrBadImage, 422, "图片已损坏或无法识别", ErrBadImage.Error()},
		{uploadErrs, ErrBadVideo, 422, "视频无法识别：需要包含画面且时长大于 0", ErrBadVideo.Error()},
	} {
		e, ok := c.m.Map(c.err).(*httpx.Error)
		if !ok || e.Status != c.status || e.Tip != c.tip || e.Msg != c.msg || !errors.Is(e, c.err) {
			t.Errorf("%v: %+v", c.err, c.m.Map(c.err))
		}
	}
	other := errors.New("disk full")
	if got := uploadErrs.Map(other); got != other {
		t.Errorf("an unknown error became %v", got)
	}
}
