package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"prima/internal/platform/httpx"
)

// A refusal keeps its own words through the operator's table, wrapped or
// not, and stays its sentinel for a caller that asks.
func TestAdminErrsAnswerWithTheirWords(t *testing.T) {
	for _, c := range []struct {
		err      error
		sentinel error
		status   int
		tip, msg string
	}{
		{invalid("请输入标题", "title is required"), ErrInput, 422, "请输入标题", "title is required"},
		{detailed(ErrNoModule, "子栏目 7 不存在", "no sub-module 7"), ErrNoModule, 404, "子栏目 7 不存在", "no sub-module 7"},
		{detailed(ErrNoTag, "标签 9 不存在", "no tag 9"), ErrNoTag, 404, "标签 9 不存在", "no tag 9"},
		{detailed(ErrNoVideo, "视频不存在", "no video 3"), ErrNoVideo, 404, "视频不存在", "no video 3"},
		{detailed(ErrCoverNotFound, "封面图片 5 不存在", "no picture 5"), ErrCoverNotFound, 404, "封面图片 5 不存在", "no picture 5"},
		{detailed(ErrInUse, "请先下架视频再删除", "video 3 is published; unpublish it first"), ErrInUse, 409, "请先下架视频再删除", "video 3 is published; unpublish it first"},
		{ErrTagTaken, ErrTagTaken, 409, "标签名称已存在", "a tag with this name exists"},
		// AttachMedia's, as media's handler answered them before the catalog
		// took the attach over.
		{detailed(ErrNoUpload, "文件不存在", "no asset 9"), ErrNoUpload, 404, "文件不存在", "no asset 9"},
		{invalid("只能关联视频文件", "the asset is a picture"), ErrInput, 422, "只能关联视频文件", "the asset is a picture"},
		{invalid("该视频转码失败，不能关联", "the asset failed; upload it again"), ErrInput, 422, "该视频转码失败，不能关联", "the asset failed; upload it again"},
	} {
		for _, err := range []error{c.err, fmt.Errorf("tx: %w", c.err)} {
			if !errors.Is(err, c.sentinel) {
				t.Errorf("%v is not %v", err, c.sentinel)
			}
			e, ok := adminErrs.Map(err).(*httpx.Error)
			if !ok || e.Status != c.status || e.Tip != c.tip || e.Msg != c.msg || !errors.Is(e, c.sentinel) {
				t.Errorf("%v: %+v", err, adminErrs.Map(err))
			}
		}
	}
}

// The operator's video carries the spec's spelling of the module ids
// (moduleID, subModuleID, as every catalogue list does).
func TestAdminVideoSpellsModuleIDs(t *testing.T) {
	b, err := json.Marshal(AdminVideo{})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"moduleID":`, `"subModuleID":`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("AdminVideo JSON %s lacks %s", b, key)
		}
	}
}
