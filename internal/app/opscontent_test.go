package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"mime/multipart"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/admin"
	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/catalog"
	"prima/internal/platform/audit"
	"prima/internal/platform/httpx"
)

// ops is a test server with an operator and a plain user signed in. op
// is the operator's console token (an owner's); app is the same
// account's phone-app token, with which operators upload pictures and
// videos like anyone (POST /api/app/vid/uploadStatic), and which opens
// nothing under /api/admin.
type ops struct {
	s             *apptest.Server
	op, app, user string
	opUID         int64
}

func newOps(t *testing.T, s *apptest.Server) *ops {
	t.Helper()
	o := s.Operator(t, "ops_1", httpx.RoleOwner)
	res := apitest.Scenario{Method: "POST", URL: "/api/app/mine/login/h5", Body: `{"account":"ops_1","passWord":"secret12","sysType":"ios"}`, ExpectedStatus: 200}.Run(t, s.Handler)
	app := apitest.Data[struct {
		Token string `json:"token"`
	}](t, res).Token
	return &ops{s: s, op: o.Token, app: app, opUID: o.UID, user: apitest.GuestLogin(t, s.Handler, apitest.DevID(1))}
}

// call sends a request and checks its status; it returns the envelope's data.
func (o *ops) call(t *testing.T, token, method, url, body string, status int, tip ...string) json.RawMessage {
	t.Helper()
	sc := apitest.Scenario{Method: method, URL: url, Body: body, Token: token, ExpectedStatus: status}
	if len(tip) > 0 {
		sc.ExpectedTip = tip[0]
	}
	return sc.Run(t, o.s.Handler).Envelope.Data
}

func decode[T any](t *testing.T, raw json.RawMessage) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return v
}

func (o *ops) count(t *testing.T, query string, args ...any) int {
	t.Helper()
	var n int
	if err := o.s.App.DB.QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// upload posts a file to uploadStatic as token and returns the asset id.
func upload(t *testing.T, s *apptest.Server, token, name string, data []byte) int64 {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", name)
	fw.Write(data)
	mw.Close()
	r := httptest.NewRequest("POST", "/api/app/vid/uploadStatic", &body)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	r.Header.Set("Authorization", "Bearer "+token)
	rec := httptest.NewRecorder()
	s.Handler.ServeHTTP(rec, r)
	if rec.Code != 200 {
		t.Fatalf("upload %s: %d %s", name, rec.Code, rec.Body)
	}
	var e struct {
		Data struct {
			ID int64 `json:"id"`
		} `json:"data"`
	}
	json.Unmarshal(rec.Body.Bytes(), &e)
	return e.Data.ID
}

func jpegBytes(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 64, 36))
	for x := 0; x < 64; x++ {
		for y := 0; y < 36; y++ {
			img.Set(x, y, color.RGBA{uint8(x * 4), 80, 160, 255})
		}
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

type adminModule struct {
	ID             int64         `json:"id"`
	PID            int64         `json:"pid"`
	Name           string        `json:"name"`
	Type           int           `json:"moduleType"`
	Sort           int           `json:"sort"`
	VideoCount     int           `json:"videoCount"`
	PublishedCount int           `json:"publishedCount"`
	SubModules     []adminModule `json:"subModules"`
}

type adminVideo struct {
	ID          int64  `json:"id"`
	Title       string `json:"title"`
	Cover       string `json:"cover"`
	Duration    int    `json:"duration"`
	ModuleID    int64  `json:"moduleId"`
	SubModuleID int64  `json:"subModuleId"`
	VipLevel    int    `json:"vipLevel"`
	Coins       int64  `json:"coins"`
	Access      string `json:"access"`
	Published   bool   `json:"published"`
	MediaID     int64  `json:"mediaId"`
	Tags        []struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	} `json:"tags"`
}

func TestOperatorModules(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := newOps(t, s)
		top := decode[adminModule](t, o.call(t, o.op, "POST", "/api/admin/modules", `{"name":" 电影 ","moduleType":0,"sort":3}`, 200))
		if top.Name != "电影" || top.Type != 0 || top.Sort != 3 || top.PID != 0 {
			t.Fatalf("top: %+v", top)
		}
		dark := decode[adminModule](t, o.call(t, o.op, "POST", "/api/admin/modules", `{"name":"暗网","moduleType":2}`, 200))
		// A sub-module takes its parent's type; a different one is refused.
		sub := decode[adminModule](t, o.call(t, o.op, "POST", "/api/admin/modules", fmt.Sprintf(`{"name":"动作","pid":%d}`, dark.ID), 200))
		if sub.Type != 2 || sub.PID != dark.ID {
			t.Fatalf("sub: %+v", sub)
		}
		o.call(t, o.op, "POST", "/api/admin/modules", fmt.Sprintf(`{"name":"x","pid":%d,"moduleType":0}`, dark.ID), 422, "跟随上级")
		o.call(t, o.op, "POST", "/api/admin/modules", fmt.Sprintf(`{"name":"x","pid":%d}`, sub.ID), 422, "不能再建")
		o.call(t, o.op, "POST", "/api/admin/modules", `{"name":"x","pid":99999}`, 404, "栏目不存在")
		o.call(t, o.op, "POST", "/api/admin/modules", `{"name":"x"}`, 422, "栏目类型")
		o.call(t, o.op, "POST", "/api/admin/modules", `{"name":"x","moduleType":5}`, 422, "栏目类型")
		o.call(t, o.op, "POST", "/api/admin/modules", `{"name":"   ","moduleType":0}`, 422, "请输入栏目名称")
		o.call(t, o.op, "POST", "/api/admin/modules", `{"name":"a\u0000b","moduleType":0}`, 422, "控制字符")
		o.call(t, o.op, "POST", "/api/admin/modules", `{"name":"`+strings.Repeat("长", 21)+`","moduleType":0}`, 422, "不能超过")
		o.call(t, o.op, "POST", "/api/admin/modules", `{"name":"x","moduleType":0,"sort":99999999999}`, 422, "排序")
		o.call(t, o.op, "POST", "/api/admin/modules", `{"name":"x","moduleType":0,"sort":1e400}`, 400)
		o.call(t, o.op, "POST", "/api/admin/modules", `{"name":"x","pid":-1}`, 422)

		// Rename and reorder; a no-op writes no audit row.
		before := o.count(t, "SELECT COUNT(*) FROM audit_log")
		m := decode[adminModule](t, o.call(t, o.op, "POST", "/api/admin/modules/update", fmt.Sprintf(`{"id":%d,"name":"悬疑","sort":7}`, sub.ID), 200))
		if m.Name != "悬疑" || m.Sort != 7 {
			t.Fatalf("update: %+v", m)
		}
		o.call(t, o.op, "POST", "/api/admin/modules/update", fmt.Sprintf(`{"id":%d,"name":"悬疑"}`, sub.ID), 200)
		if n := o.count(t, "SELECT COUNT(*) FROM audit_log"); n != before+1 {
			t.Fatalf("audit rows %d, want %d", n, before+1)
		}
		o.call(t, o.op, "POST", "/api/admin/modules/update", `{"id":0}`, 422)
		o.call(t, o.op, "POST", "/api/admin/modules/update", `{"id":"1"}`, 400)
		o.call(t, o.op, "POST", "/api/admin/modules/update", `{"id":424242,"name":"x"}`, 404)
		// The public list sees the rename at once.
		if !strings.Contains(string(o.call(t, "", "GET", fmt.Sprintf("/api/app/modules/clist?pid=%d", dark.ID), "", 200)), "悬疑") {
			t.Fatal("the rename is not public")
		}

		// A module with a sub-module or a video is not deleted.
		o.call(t, o.op, "POST", "/api/admin/modules/delete", fmt.Sprintf(`{"id":%d}`, dark.ID), 409, "1 个子栏目")
		v := decode[adminVideo](t, o.call(t, o.op, "POST", "/api/admin/videos", fmt.Sprintf(`{"title":"t","subModuleId":%d}`, sub.ID), 200))
		o.call(t, o.op, "POST", "/api/admin/modules/delete", fmt.Sprintf(`{"id":%d}`, sub.ID), 409, "1 个视频")
		ms := decode[[]adminModule](t, o.call(t, o.op, "GET", "/api/admin/modules", "", 200))
		var found bool
		for _, m := range ms {
			if m.ID == dark.ID {
				found = m.VideoCount == 1 && m.PublishedCount == 0 && len(m.SubModules) == 1 && m.SubModules[0].VideoCount == 1
			}
		}
		if !found {
			t.Fatalf("list counts: %+v", ms)
		}
		o.call(t, o.op, "POST", "/api/admin/videos/delete", fmt.Sprintf(`{"id":%d}`, v.ID), 200)
		o.call(t, o.op, "POST", "/api/admin/modules/delete", fmt.Sprintf(`{"id":%d}`, sub.ID), 200)
		o.call(t, o.op, "POST", "/api/admin/modules/delete", fmt.Sprintf(`{"id":%d}`, dark.ID), 200)
		o.call(t, o.op, "POST", "/api/admin/modules/delete", fmt.Sprintf(`{"id":%d}`, dark.ID), 404)
		if n := o.count(t, "SELECT COUNT(*) FROM audit_log WHERE action = 'module.delete' AND target_id = ?", fmt.Sprint(dark.ID)); n != 1 {
			t.Fatalf("module.delete rows: %d", n)
		}
	})
}

func TestOperatorContentNeedsAnOperator(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := newOps(t, s)
		calls := [][2]string{{"GET", "/api/admin/modules"}, {"POST", "/api/admin/modules"}, {"POST", "/api/admin/modules/update"},
			{"POST", "/api/admin/modules/delete"}, {"GET", "/api/admin/videos"}, {"GET", "/api/admin/videos/info?id=1"},
			{"POST", "/api/admin/videos"}, {"POST", "/api/admin/videos/update"}, {"POST", "/api/admin/videos/tags"},
			{"POST", "/api/admin/videos/publish"}, {"POST", "/api/admin/videos/delete"}, {"GET", "/api/admin/tags"},
			{"POST", "/api/admin/tags"}, {"POST", "/api/admin/tags/update"}, {"POST", "/api/admin/tags/delete"}}
		for _, c := range calls {
			body := ""
			if c[0] == "POST" {
				body = `{"id":1,"name":"x","moduleType":0,"title":"x","subModuleId":1,"published":true,"tagIds":[]}`
			}
			o.call(t, "", c[0], c[1], body, 401, "请先登录")
			// A phone-app token opens nothing under /api/admin, the
			// operator's own neither.
			o.call(t, o.user, c[0], c[1], body, 401, "登录已过期")
			o.call(t, o.app, c[0], c[1], body, 401, "登录已过期")
		}
		if n := o.count(t, "SELECT COUNT(*) FROM modules"); n != 0 {
			t.Fatalf("refused calls made %d modules", n)
		}
	})
}

// fixture: a home module with a sub-module, a second module with its own,
// and two tags.
type contentFixture struct {
	mod, sub, mod2, sub2, imgSub, tag1, tag2 int64
}

func newContent(t *testing.T, o *ops) contentFixture {
	var f contentFixture
	mk := func(body string) int64 {
		return decode[adminModule](t, o.call(t, o.op, "POST", "/api/admin/modules", body, 200)).ID
	}
	f.mod = mk(`{"name":"首页","moduleType":0}`)
	f.sub = mk(fmt.Sprintf(`{"name":"推荐","pid":%d}`, f.mod))
	f.mod2 = mk(`{"name":"短视频","moduleType":4}`)
	f.sub2 = mk(fmt.Sprintf(`{"name":"热门","pid":%d}`, f.mod2))
	img := mk(`{"name":"图片","moduleType":3}`)
	f.imgSub = mk(fmt.Sprintf(`{"name":"写真","pid":%d}`, img))
	tag := func(body string) int64 {
		return decode[catalog.AdminTag](t, o.call(t, o.op, "POST", "/api/admin/tags", body, 200)).ID
	}
	f.tag1 = tag(`{"name":"高清","sort":1}`)
	f.tag2 = tag(`{"name":"独家","sort":2}`)
	return f
}

func TestOperatorVideos(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := newOps(t, s)
		f := newContent(t, o)
		pic := upload(t, s, o.app, "p.jpg", jpegBytes(t))

		// Bad input: each refused, nothing written.
		videos := func() int { return o.count(t, "SELECT COUNT(*) FROM videos") }
		covers := func() int {
			n := 0
			filepath.Walk(filepath.Join(s.App.Config.DataDir, "media", "covers"), func(p string, i os.FileInfo, err error) error {
				if err == nil && !i.IsDir() {
					n++
				}
				return nil
			})
			return n
		}
		for _, c := range []struct {
			body   string
			status int
			tip    string
		}{
			{`{"subModuleId":%[1]d}`, 422, "请输入标题"},
			{`{"title":"  ","subModuleId":%[1]d}`, 422, "请输入标题"},
			{`{"title":"a\u0000b","subModuleId":%[1]d}`, 422, "控制字符"},
			{`{"title":"` + strings.Repeat("字", 81) + `","subModuleId":%[1]d}`, 422, "80"},
			{`{"title":"t"}`, 422, "子栏目"},
			{`{"title":"t","subModuleId":0}`, 422, "subModuleId"},
			{`{"title":"t","subModuleId":777777}`, 404, "子栏目 777777 不存在"},
			{`{"title":"t","subModuleId":%[2]d}`, 422, "请选择子栏目"},
			{`{"title":"t","subModuleId":%[1]d,"moduleId":%[3]d}`, 422, "不属于"},
			{`{"title":"t","subModuleId":%[1]d,"moduleId":888888}`, 404, "栏目 888888 不存在"},
			{`{"title":"t","subModuleId":%[5]d}`, 422, "图片栏目"},
			{`{"title":"t","subModuleId":%[1]d,"vipLevel":3}`, 422, "会员等级"},
			{`{"title":"t","subModuleId":%[1]d,"coins":-1}`, 422, "金币"},
			{`{"title":"t","subModuleId":%[1]d,"coins":1000001}`, 422, "金币"},
			{`{"title":"t","subModuleId":%[1]d,"coins":99999999999999999999}`, 400, "coins"},
			{`{"title":"t","subModuleId":%[1]d,"tagIds":[%[4]d,999999]}`, 404, "标签 999999 不存在"},
			{`{"title":"t","subModuleId":%[1]d,"tagIds":[0]}`, 422, "tagIds"},
			{`{"title":"t","subModuleId":%[1]d,"coverId":999999}`, 404, "封面图片 999999 不存在"},
			{`{"title":"t","subModuleId":%[1]d,"coverId":%[6]d,"tagIds":[999999]}`, 404, "标签"},
			{`{"title":"t","subModuleId":%[1]d,"duration":86401}`, 422, "时长"},
			{`{"title":"t","subModuleId":%[1]d,"width":-1}`, 422, "width"},
		} {
			body := c.body
			if strings.Contains(body, "%[") {
				body = fmt.Sprintf(body, f.sub, f.mod, f.mod2, f.tag1, f.imgSub, pic)
			}
			o.call(t, o.op, "POST", "/api/admin/videos", body, c.status, c.tip)
		}
		if videos() != 0 || covers() != 0 || o.count(t, "SELECT COUNT(*) FROM audit_log WHERE action LIKE 'video.%'") != 0 {
			t.Fatalf("refused creates left %d videos, %d covers", videos(), covers())
		}

		// A gold draft with a cover and tags.
		v := decode[adminVideo](t, o.call(t, o.op, "POST", "/api/admin/videos", fmt.Sprintf(
			`{"title":" 新片 ","moduleId":%d,"subModuleId":%d,"tagIds":[%d,%d,%d],"coverId":%d,"coins":30,"duration":95}`,
			f.mod, f.sub, f.tag2, f.tag1, f.tag2, pic), 200))
		if v.Title != "新片" || v.Published || v.Coins != 30 || v.Access != "gold" || len(v.Tags) != 2 || v.Tags[0].Name != "高清" ||
			!strings.HasPrefix(v.Cover, "/media/covers/") || v.Duration != 95 {
			t.Fatalf("created: %+v", v)
		}
		// The cover is public and immutable.
		rec := httptest.NewRecorder()
		s.Handler.ServeHTTP(rec, httptest.NewRequest("GET", v.Cover, nil))
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/jpeg" || !strings.Contains(rec.Header().Get("Cache-Control"), "immutable") {
			t.Fatalf("cover: %d %v", rec.Code, rec.Header())
		}
		// A draft is invisible to users.
		pub := func() int {
			return decode[struct {
				Total int `json:"total"`
			}](t, o.call(t, "", "GET", fmt.Sprintf("/api/app/vid/moduleVideo?subModuleID=%d", f.sub), "", 200)).Total
		}
		if pub() != 0 {
			t.Fatal("a draft is listed")
		}
		o.call(t, "", "GET", fmt.Sprintf("/api/app/vid/info?id=%d", v.ID), "", 404)
		o.call(t, "", "GET", fmt.Sprintf("/api/app/vid/moduleSection?moduleID=%d", f.mod), "", 200)

		// Publishing shows it at once (the cached total is dropped).
		o.call(t, o.op, "POST", "/api/admin/videos/publish", fmt.Sprintf(`{"id":%d,"published":true}`, v.ID), 200)
		if pub() != 1 {
			t.Fatal("the published video is not listed")
		}
		info := o.call(t, "", "GET", fmt.Sprintf("/api/app/vid/info?id=%d", v.ID), "", 200)
		if !strings.Contains(string(info), `"coins":30`) || !strings.Contains(string(info), `"need_coins"`) && !strings.Contains(string(info), `"login"`) {
			t.Fatalf("info: %s", info)
		}
		o.call(t, o.op, "POST", "/api/admin/videos/publish", fmt.Sprintf(`{"id":%d}`, v.ID), 422, "published")
		o.call(t, o.op, "POST", "/api/admin/videos/publish", `{"id":999999,"published":true}`, 404)

		// Edit only what is given; a move takes the sub-module's module.
		oldCover := v.Cover
		pic2 := upload(t, s, o.app, "q.jpg", jpegBytes(t))
		v = decode[adminVideo](t, o.call(t, o.op, "POST", "/api/admin/videos/update", fmt.Sprintf(
			`{"id":%d,"subModuleId":%d,"vipLevel":2,"coins":0,"coverId":%d}`, v.ID, f.sub2, pic2), 200))
		if v.ModuleID != f.mod2 || v.SubModuleID != f.sub2 || v.Access != "svip" || v.Title != "新片" || len(v.Tags) != 2 || v.Cover == oldCover {
			t.Fatalf("updated: %+v", v)
		}
		if covers() != 1 {
			t.Fatalf("the replaced cover stayed: %d files", covers())
		}
		o.call(t, o.op, "POST", "/api/admin/videos/update", fmt.Sprintf(`{"id":%d,"moduleId":%d}`, v.ID, f.mod), 422, "不属于")
		o.call(t, o.op, "POST", "/api/admin/videos/update", fmt.Sprintf(`{"id":%d,"title":"x\u0007"}`, v.ID), 422, "控制字符")
		o.call(t, o.op, "POST", "/api/admin/videos/update", `{"id":999999,"title":"x"}`, 404, "视频不存在")
		o.call(t, o.op, "POST", "/api/admin/videos/update", fmt.Sprintf(`{"id":%d,"coverId":%d}`, v.ID, f.tag1+999999), 404, "封面")
		var row struct{ audits int }
		row.audits = o.count(t, "SELECT COUNT(*) FROM audit_log")
		v = decode[adminVideo](t, o.call(t, o.op, "POST", "/api/admin/videos/tags", fmt.Sprintf(`{"id":%d,"tagIds":[%d]}`, v.ID, f.tag2), 200))
		if len(v.Tags) != 1 || v.Tags[0].ID != f.tag2 {
			t.Fatalf("tags: %+v", v.Tags)
		}
		o.call(t, o.op, "POST", "/api/admin/videos/tags", fmt.Sprintf(`{"id":%d}`, v.ID), 422, "tagIds")
		if n := o.count(t, "SELECT COUNT(*) FROM audit_log"); n != row.audits+1 {
			t.Fatalf("audit rows after tags: %d", n-row.audits)
		}

		// The operators' list: drafts too, filters, paging.
		d2 := decode[adminVideo](t, o.call(t, o.op, "POST", "/api/admin/videos", fmt.Sprintf(`{"title":"草稿 100%%_x","subModuleId":%d}`, f.sub), 200))
		list := func(q string) []adminVideo {
			return decode[struct {
				List []adminVideo `json:"list"`
			}](t, o.call(t, o.op, "GET", "/api/admin/videos?"+q, "", 200)).List
		}
		if l := list(""); len(l) != 2 || l[0].ID != d2.ID {
			t.Fatalf("all: %+v", l)
		}
		if l := list("published=0"); len(l) != 1 || l[0].ID != d2.ID {
			t.Fatalf("drafts: %+v", l)
		}
		if l := list(fmt.Sprintf("moduleId=%d", f.mod2)); len(l) != 1 || l[0].ID != v.ID {
			t.Fatalf("by module: %+v", l)
		}
		if l := list(fmt.Sprintf("subModuleId=%d", f.sub)); len(l) != 1 || l[0].ID != d2.ID {
			t.Fatalf("by sub-module: %+v", l)
		}
		if l := list("title=100%25_"); len(l) != 1 || l[0].ID != d2.ID {
			t.Fatalf("by title: %+v", l)
		}
		if l := list("title=%25"); len(l) != 1 {
			t.Fatalf("a literal %%: %+v", l)
		}
		if l := list("pageSize=1&pageNumber=2"); len(l) != 1 || l[0].ID != v.ID {
			t.Fatalf("page 2: %+v", l)
		}
		o.call(t, o.op, "GET", "/api/admin/videos?published=2", "", 422, "published")
		o.call(t, o.op, "GET", "/api/admin/videos?pageSize=101", "", 422, "pageSize")
		o.call(t, o.op, "GET", "/api/admin/videos?title=%00", "", 422, "控制字符")
		o.call(t, o.op, "GET", "/api/admin/videos/info?id=0", "", 422)
		o.call(t, o.op, "GET", "/api/admin/videos/info?id=99999", "", 404)

		// Tags: rename (409 on a taken name), delete takes it off videos.
		o.call(t, o.op, "POST", "/api/admin/tags", `{"name":"高清"}`, 409, "已存在")
		o.call(t, o.op, "POST", "/api/admin/tags/update", fmt.Sprintf(`{"id":%d,"name":"高清"}`, f.tag2), 409, "已存在")
		o.call(t, o.op, "POST", "/api/admin/tags/update", fmt.Sprintf(`{"id":%d,"name":"独播","sort":9}`, f.tag2), 200)
		if !strings.Contains(string(o.call(t, "", "GET", fmt.Sprintf("/api/app/vid/info?id=%d", v.ID), "", 200)), "独播") {
			t.Fatal("the renamed tag is not shown")
		}
		del := o.call(t, o.op, "POST", "/api/admin/tags/delete", fmt.Sprintf(`{"id":%d}`, f.tag2), 200)
		if !strings.Contains(string(del), `"untaggedVideos":1`) || o.count(t, "SELECT COUNT(*) FROM video_tags WHERE tag_id = ?", f.tag2) != 0 {
			t.Fatalf("tag delete: %s", del)
		}
		o.call(t, o.op, "POST", "/api/admin/tags/delete", fmt.Sprintf(`{"id":%d}`, f.tag2), 404)

		// Delete: a published video must be unpublished first; then its
		// interactions go with it and its cover file after the commit.
		guest := o.user
		o.call(t, guest, "POST", "/api/app/vid/like", fmt.Sprintf(`{"id":%d,"isLike":true}`, v.ID), 200)
		o.call(t, guest, "POST", "/api/app/vid/collect", fmt.Sprintf(`{"id":%d,"isCollect":true}`, v.ID), 200)
		o.call(t, guest, "POST", "/api/app/vid/play", fmt.Sprintf(`{"id":%d}`, v.ID), 200)
		o.call(t, guest, "POST", "/api/app/vid/report", fmt.Sprintf(`{"id":%d,"reason":"other"}`, v.ID), 200)
		o.call(t, o.op, "POST", "/api/admin/videos/delete", fmt.Sprintf(`{"id":%d}`, v.ID), 409, "下架")
		o.call(t, o.op, "POST", "/api/admin/videos/publish", fmt.Sprintf(`{"id":%d,"published":false}`, v.ID), 200)
		o.call(t, o.op, "POST", "/api/admin/videos/delete", fmt.Sprintf(`{"id":%d}`, v.ID), 200)
		for _, tbl := range []string{"video_likes", "video_collects", "video_history", "video_reports", "video_tags"} {
			if n := o.count(t, "SELECT COUNT(*) FROM "+tbl+" WHERE video_id = ?", v.ID); n != 0 {
				t.Fatalf("%s kept %d rows", tbl, n)
			}
		}
		if covers() != 0 {
			t.Fatal("the deleted video's cover stayed")
		}
		o.call(t, o.op, "POST", "/api/admin/videos/delete", fmt.Sprintf(`{"id":%d}`, v.ID), 404)

		// Every change is in the audit log, by this operator.
		var page admin.AuditPage
		page = decode[admin.AuditPage](t, o.call(t, o.op, "GET", "/api/admin/audit?target=video:"+fmt.Sprint(v.ID)+"&limit=50", "", 200))
		var actions []string
		for _, r := range page.List {
			if r.Actor != o.opUID {
				t.Fatalf("actor %d", r.Actor)
			}
			actions = append(actions, r.Action)
		}
		want := "video.delete video.unpublish video.update video.update video.publish video.create"
		if strings.Join(actions, " ") != want {
			t.Fatalf("audit %q, want %q", strings.Join(actions, " "), want)
		}
	})
}

// Two operators publishing and unpublishing one video at once: the row
// lock orders them, the final state is the last one's, and the audit rows
// form one unbroken chain of real changes.
func TestOperatorPublishRace(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := newOps(t, s)
		f := newContent(t, o)
		v := decode[adminVideo](t, o.call(t, o.op, "POST", "/api/admin/videos", fmt.Sprintf(`{"title":"t","subModuleId":%d}`, f.sub), 200))
		var wg sync.WaitGroup
		for i := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res := apitest.Scenario{Method: "POST", URL: "/api/admin/videos/publish", Token: o.op,
					Body: fmt.Sprintf(`{"id":%d,"published":%v}`, v.ID, i%2 == 0)}.Send(t, s.Handler)
				if res.Code != 200 {
					t.Errorf("publish: %d %s", res.Code, res.Body)
				}
			}()
		}
		wg.Wait()
		rows, err := s.App.DB.Query(context.Background(), "SELECT before, after FROM audit_log WHERE target_type = 'video' AND action IN ('video.publish','video.unpublish') ORDER BY id")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		state := false
		for rows.Next() {
			var b, a string
			rows.Scan(&b, &a)
			if b != fmt.Sprintf(`{"published":%v}`, state) || a != fmt.Sprintf(`{"published":%v}`, !state) {
				t.Fatalf("broken chain at %s -> %s (state %v)", b, a, state)
			}
			state = !state
		}
		final := decode[adminVideo](t, o.call(t, o.op, "GET", fmt.Sprintf("/api/admin/videos/info?id=%d", v.ID), "", 200))
		if final.Published != state {
			t.Fatalf("final %v, audit says %v", final.Published, state)
		}
	})
}

// Deleting a sub-module while another operator creates a video in it: one
// of them wins, never both (the module row is locked by each).
func TestOperatorDeleteModuleRace(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := newOps(t, s)
		f := newContent(t, o)
		for i := range 6 {
			sub := decode[adminModule](t, o.call(t, o.op, "POST", "/api/admin/modules", fmt.Sprintf(`{"name":"s%d","pid":%d}`, i, f.mod), 200))
			var del, create *apitest.Response
			var wg sync.WaitGroup
			wg.Add(2)
			go func() {
				defer wg.Done()
				del = apitest.Scenario{Method: "POST", URL: "/api/admin/modules/delete", Token: o.op, Body: fmt.Sprintf(`{"id":%d}`, sub.ID)}.Send(t, s.Handler)
			}()
			go func() {
				defer wg.Done()
				create = apitest.Scenario{Method: "POST", URL: "/api/admin/videos", Token: o.op, Body: fmt.Sprintf(`{"title":"t","subModuleId":%d}`, sub.ID)}.Send(t, s.Handler)
			}()
			wg.Wait()
			switch {
			case del.Code == 200 && create.Code == 404:
			case del.Code == 409 && create.Code == 200:
			default:
				t.Fatalf("delete %d %s, create %d %s", del.Code, del.Body, create.Code, create.Body)
			}
		}
		if n := o.count(t, "SELECT COUNT(*) FROM videos v LEFT JOIN modules m ON m.id = v.sub_module_id WHERE m.id IS NULL"); n != 0 {
			t.Fatalf("%d videos in a deleted sub-module", n)
		}
	})
}

// The worked example of docs/operator-guide.md, step by step, so the guide
// cannot drift from the server: module, sub-module, a video upload
// transcoded by a worker, a priced video with a cover, the media attached,
// published, seen by users, and the audit log.
func TestOperatorGuide(t *testing.T) {
	if _, err := exec.LookPath("ffmpeg"); err != nil {
		t.Skip("ffmpeg is not installed")
	}
	clip := filepath.Join(t.TempDir(), "clip.mp4")
	if out, err := exec.Command("ffmpeg", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc=size=320x180:rate=25", "-f", "lavfi", "-i", "sine",
		"-t", "12", "-pix_fmt", "yuv420p", "-shortest", clip).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v %s", err, out)
	}
	clipBytes, _ := os.ReadFile(clip)
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		ctx, cancel := context.WithCancel(context.Background())
		if err := s.App.Jobs.Start(ctx); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cancel()
			stop, c := context.WithTimeout(context.Background(), 10*time.Second)
			defer c()
			s.App.Jobs.Stop(stop)
		})
		o := newOps(t, s) // prima admin create; the app token for uploads
		// The guide's scripts use an API key (prima admin key -account ops_1 -ttl 24h).
		key, _, err := s.App.Operators.IssueKey(ctx, audit.Actor{UID: audit.CLI}, o.opUID, 24*time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		mod := decode[adminModule](t, o.call(t, key, "POST", "/api/admin/modules", `{"name":"电影","moduleType":0,"sort":1}`, 200))
		sub := decode[adminModule](t, o.call(t, key, "POST", "/api/admin/modules", fmt.Sprintf(`{"name":"新片","pid":%d,"sort":1}`, mod.ID), 200))
		media := upload(t, s, o.app, "clip.mp4", clipBytes)
		deadline := time.Now().Add(60 * time.Second)
		for {
			st := decode[struct {
				State string `json:"state"`
			}](t, o.call(t, o.app, "GET", fmt.Sprintf("/api/app/vid/uploadStatic?id=%d", media), "", 200)).State
			if st == "ready" {
				break
			}
			if st == "failed" || time.Now().After(deadline) {
				t.Fatalf("transcode: %s", st)
			}
			time.Sleep(100 * time.Millisecond)
		}
		cover := upload(t, s, o.app, "cover.jpg", jpegBytes(t))
		// A video upload is no cover.
		o.call(t, key, "POST", "/api/admin/videos", fmt.Sprintf(`{"title":"x","subModuleId":%d,"coverId":%d}`, sub.ID, media), 422, "封面必须是")
		tag := decode[catalog.AdminTag](t, o.call(t, key, "POST", "/api/admin/tags", `{"name":"高清"}`, 200))
		v := decode[adminVideo](t, o.call(t, key, "POST", "/api/admin/videos", fmt.Sprintf(
			`{"title":"第一部影片","moduleId":%d,"subModuleId":%d,"tagIds":[%d],"coverId":%d,"coins":30}`, mod.ID, sub.ID, tag.ID, cover), 200))
		o.call(t, key, "POST", "/api/admin/videos/media", fmt.Sprintf(`{"videoId":%d,"mediaId":%d}`, v.ID, media), 200)
		v = decode[adminVideo](t, o.call(t, key, "POST", "/api/admin/videos/publish", fmt.Sprintf(`{"id":%d,"published":true}`, v.ID), 200))
		if !v.Published || v.MediaID != media || v.Duration != 12 {
			t.Fatalf("video: %+v", v)
		}
		list := string(o.call(t, "", "GET", fmt.Sprintf("/api/app/vid/moduleVideo?moduleID=%d", mod.ID), "", 200))
		if !strings.Contains(list, "第一部影片") || !strings.Contains(list, `"duration":12`) {
			t.Fatalf("moduleVideo: %s", list)
		}
		info := decode[struct {
			Coins   int64 `json:"coins"`
			Paywall *struct {
				Coins     int64
				PreviewMs int64 `json:"previewMs"`
			}
			Playback *struct {
				URL       string `json:"url"`
				Preview   bool   `json:"preview"`
				PreviewMs int64  `json:"previewMs"`
			} `json:"playback"`
		}](t, o.call(t, o.user, "GET", fmt.Sprintf("/api/app/vid/info?id=%d", v.ID), "", 200))
		// 12 s: a third is 4 s, two whole segments.
		if info.Coins != 30 || info.Paywall == nil || info.Paywall.Coins != 30 || info.Playback == nil || !info.Playback.Preview ||
			info.Playback.PreviewMs != 4000 || info.Paywall.PreviewMs != 4000 {
			t.Fatalf("info: %+v", info)
		}
		page := decode[admin.AuditPage](t, o.call(t, key, "GET", "/api/admin/audit?target=video", "", 200))
		var actions []string
		for _, r := range page.List {
			actions = append(actions, r.Action)
		}
		if strings.Join(actions, " ") != "video.publish video.media video.create" {
			t.Fatalf("audit: %v", actions)
		}
		// Every use of the key is in the log too.
		if n := o.count(t, `SELECT COUNT(*) FROM audit_log WHERE action = 'apikey.use' AND actor_uid = ?`, o.opUID); n != 8 {
			t.Fatalf("%d key uses audited, want 8", n)
		}
	})
}
