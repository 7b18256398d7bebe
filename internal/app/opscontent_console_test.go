package app_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http/httptest"
	"strings"
	"testing"

	"prima/internal/app/apptest"
	"prima/internal/platform/httpx"
)

// The console's content calls (issue 20): the keyset video list and its
// filters, the drag order of modules, bulk actions and the console's
// upload.

type videoPage struct {
	List       []adminVideo `json:"list"`
	HasMore    bool         `json:"hasMore"`
	NextCursor *string      `json:"nextCursor"`
	Total      *int         `json:"total"`
}

func TestOperatorVideoListKeyset(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := newOps(t, s)
		f := newContent(t, o)
		mk := func(sub int64, extra string) int64 {
			return decode[adminVideo](t, o.call(t, o.op, "POST", "/api/admin/videos", fmt.Sprintf(`{"title":"v","subModuleID":%d%s}`, sub, extra), 200)).ID
		}
		free := mk(f.sub, ``)
		vip := mk(f.sub, `,"vipLevel":1`)
		svip := mk(f.sub, `,"vipLevel":2,"published":true`)
		gold10 := mk(f.sub, `,"coins":10`)
		gold50 := mk(f.sub2, `,"coins":50,"vipLevel":1`)
		short := mk(f.sub2, ``)
		list := func(q string) videoPage {
			return decode[videoPage](t, o.call(t, o.op, "GET", "/api/admin/videos?"+q, "", 200))
		}
		ids := func(p videoPage) []int64 {
			out := []int64{}
			for _, v := range p.List {
				out = append(out, v.ID)
			}
			return out
		}
		same := func(what string, got []int64, want ...int64) {
			t.Helper()
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s: %v, want %v", what, got, want)
			}
		}

		// The keyset walk: pages of 4 then 2, no total, nextCursor null at the end.
		p1 := list("pageSize=4")
		same("page 1", ids(p1), short, gold50, gold10, svip)
		if !p1.HasMore || p1.NextCursor == nil || p1.Total != nil {
			t.Fatalf("page 1: %+v", p1)
		}
		p2 := list("pageSize=4&cursor=" + *p1.NextCursor)
		same("page 2", ids(p2), vip, free)
		if p2.HasMore || p2.NextCursor != nil {
			t.Fatalf("page 2: %+v", p2)
		}
		// A full last page says so too (no empty page after it).
		if p := list("pageSize=6"); p.HasMore || p.NextCursor != nil || len(p.List) != 6 {
			t.Fatalf("exact page: %+v", p)
		}

		same("free", ids(list("access=free")), short, free)
		same("vip", ids(list("access=vip")), vip)
		same("svip", ids(list("access=svip")), svip)
		same("gold", ids(list("access=gold")), gold50, gold10)
		same("coins 20..100", ids(list("coinsMin=20&coinsMax=100")), gold50)
		same("coins <= 10", ids(list("coinsMax=10")), short, gold10, svip, vip, free)
		same("shorts", ids(list("moduleType=4")), short, gold50)
		same("home", ids(list("moduleType=0")), gold10, svip, vip, free)
		same("images", ids(list("moduleType=3")))
		same("shorts, gold", ids(list("moduleType=4&access=gold")), gold50)
		same("shorts by module", ids(list(fmt.Sprintf("moduleType=4&moduleID=%d", f.mod2))), short, gold50)
		same("type and sub-module disagree", ids(list(fmt.Sprintf("moduleType=4&subModuleID=%d", f.sub))))
		same("published", ids(list("published=1")), svip)
		same("drafts, 2 a page", ids(list("published=0&pageSize=2")), short, gold50)
		d2 := list("published=0&pageSize=2")
		same("drafts, page 2", ids(list("published=0&pageSize=2&cursor="+*d2.NextCursor)), gold10, vip)
		// moduleType walks each module of the type and merges them in id order.
		more := decode[adminModule](t, o.call(t, o.op, "POST", "/api/admin/modules", `{"name":"短视频2","moduleType":4}`, 200))
		moreSub := decode[adminModule](t, o.call(t, o.op, "POST", "/api/admin/modules", fmt.Sprintf(`{"name":"新","pid":%d}`, more.ID), 200))
		other := mk(moreSub.ID, ``)
		newest := mk(f.sub2, ``)
		s1 := list("moduleType=4&pageSize=2")
		same("shorts merged, page 1", ids(s1), newest, other)
		s2 := list("moduleType=4&pageSize=2&cursor=" + *s1.NextCursor)
		same("shorts merged, page 2", ids(s2), short, gold50)
		if s2.NextCursor != nil {
			t.Fatalf("shorts page 2 says more: %+v", s2)
		}

		// The old numbered page still answers, with its total.
		old := list("pageSize=2&pageNumber=2")
		if old.Total == nil || *old.Total != 8 || len(old.List) != 2 || old.List[0].ID != short {
			t.Fatalf("numbered: %+v", old)
		}

		for _, c := range []struct{ q, tip string }{
			{"cursor=abc", "cursor"},
			{"cursor=v", "cursor"},
			{"cursor=v-1", "cursor"},
			{"cursor=v0", "cursor"},
			{"cursor=%00", "控制字符"},
			{"access=gold2", "access"},
			{"coinsMin=-1", "coinsMin"},
			{"coinsMax=1000001", "coinsMax"},
			{"coinsMin=10&coinsMax=5", "最低价格"},
			{"moduleType=5", "moduleType"},
			{"moduleType=x", "moduleType"},
		} {
			o.call(t, o.op, "GET", "/api/admin/videos?"+c.q, "", 422, c.tip)
		}
	})
}

func TestOperatorModuleOrder(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := newOps(t, s)
		f := newContent(t, o)
		mk := func(name string) int64 {
			return decode[adminModule](t, o.call(t, o.op, "POST", "/api/admin/modules", fmt.Sprintf(`{"name":%q,"pid":%d}`, name, f.mod), 200)).ID
		}
		a, b := mk("a"), mk("b")
		subs := func() []int64 {
			var out []int64
			for _, m := range decode[[]adminModule](t, o.call(t, o.op, "GET", "/api/admin/modules", "", 200)) {
				if m.ID == f.mod {
					for _, s := range m.SubModules {
						out = append(out, s.ID)
					}
				}
			}
			return out
		}
		audits := func() int { return o.count(t, "SELECT COUNT(*) FROM audit_log WHERE action = 'module.order'") }
		if fmt.Sprint(subs()) != fmt.Sprint([]int64{f.sub, a, b}) {
			t.Fatalf("before: %v", subs())
		}
		got := decode[[]adminModule](t, o.call(t, o.op, "POST", "/api/admin/modules/order", fmt.Sprintf(`{"pid":%d,"ids":[%d,%d,%d]}`, f.mod, b, f.sub, a), 200))
		if len(got) != 3 || got[0].ID != b || got[0].Sort != 0 || got[2].ID != a || got[2].Sort != 2 {
			t.Fatalf("answer: %+v", got)
		}
		if fmt.Sprint(subs()) != fmt.Sprint([]int64{b, f.sub, a}) || audits() != 1 {
			t.Fatalf("after: %v, %d rows", subs(), audits())
		}
		var before, after string
		if err := s.App.DB.QueryRow(t.Context(), "SELECT CAST(before AS TEXT), CAST(after AS TEXT) FROM audit_log WHERE action = 'module.order'").Scan(&before, &after); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(before, fmt.Sprintf("[%d,%d,%d]", f.sub, a, b)) || !strings.Contains(after, fmt.Sprintf("[%d,%d,%d]", b, f.sub, a)) {
			t.Fatalf("audit: %s -> %s", before, after)
		}
		// The same order again: nothing changes, no row.
		o.call(t, o.op, "POST", "/api/admin/modules/order", fmt.Sprintf(`{"pid":%d,"ids":[%d,%d,%d]}`, f.mod, b, f.sub, a), 200)
		if audits() != 1 {
			t.Fatal("a no-op was audited")
		}
		// The public list follows.
		clist := string(o.call(t, "", "GET", fmt.Sprintf("/api/app/modules/clist?pid=%d", f.mod), "", 200))
		if strings.Index(clist, `"b"`) > strings.Index(clist, `"a"`) {
			t.Fatalf("public order: %s", clist)
		}
		// Top level: every top-level module.
		tops := decode[[]adminModule](t, o.call(t, o.op, "GET", "/api/admin/modules", "", 200))
		var order []string
		for i := len(tops) - 1; i >= 0; i-- {
			order = append(order, fmt.Sprint(tops[i].ID))
		}
		top := decode[[]adminModule](t, o.call(t, o.op, "POST", "/api/admin/modules/order", `{"pid":0,"ids":[`+strings.Join(order, ",")+`]}`, 200))
		if fmt.Sprint(top[0].ID) != order[0] || len(top[0].SubModules) != 0 {
			t.Fatalf("top order: %+v", top)
		}

		// Refusals change nothing.
		n := audits()
		for _, c := range []struct {
			body   string
			status int
			tip    string
		}{
			{fmt.Sprintf(`{"pid":%d,"ids":[%d,%d]}`, f.mod, b, f.sub), 422, fmt.Sprintf("缺少栏目 %d", a)},
			{fmt.Sprintf(`{"pid":%d,"ids":[%d,%d,%d,%d]}`, f.mod, b, f.sub, a, f.sub2), 422, fmt.Sprintf("栏目 %d 不在这一级", f.sub2)},
			{fmt.Sprintf(`{"pid":%d,"ids":[%d,%d,%d,%d]}`, f.mod, b, f.sub, a, a), 422, "重复"},
			{fmt.Sprintf(`{"pid":%d,"ids":[]}`, f.mod), 422, "新顺序"},
			{fmt.Sprintf(`{"pid":%d}`, f.mod), 422, "新顺序"},
			{`{"ids":[1]}`, 422, "pid"},
			{`{"pid":-1,"ids":[1]}`, 422, "pid"},
			{fmt.Sprintf(`{"pid":%d,"ids":[0]}`, f.mod), 422, "ids"},
			{`{"pid":999999,"ids":[1]}`, 404, "栏目不存在"},
			{fmt.Sprintf(`{"pid":%d,"ids":[1]}`, f.sub), 422, "子栏目下没有"},
			{fmt.Sprintf(`{"pid":%d,"ids":["1"]}`, f.mod), 400, ""},
		} {
			o.call(t, o.op, "POST", "/api/admin/modules/order", c.body, c.status, c.tip)
		}
		mod := s.Operator(t, "ops_mod", httpx.RoleModerator).Token
		o.call(t, mod, "POST", "/api/admin/modules/order", fmt.Sprintf(`{"pid":%d,"ids":[%d,%d,%d]}`, f.mod, a, b, f.sub), 403)
		if audits() != n || fmt.Sprint(subs()) != fmt.Sprint([]int64{b, f.sub, a}) {
			t.Fatalf("a refusal changed something: %v, %d rows", subs(), audits()-n)
		}
	})
}

func TestOperatorBulkVideos(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := newOps(t, s)
		f := newContent(t, o)
		mk := func(extra string) int64 {
			return decode[adminVideo](t, o.call(t, o.op, "POST", "/api/admin/videos", fmt.Sprintf(`{"title":"v","subModuleID":%d%s}`, f.sub, extra), 200)).ID
		}
		v1, v2, v3 := mk(``), mk(`,"published":true`), mk(fmt.Sprintf(`,"tagIds":[%d]`, f.tag1))
		bulk := func(body string) (int, []int64) {
			r := decode[struct {
				Changed int     `json:"changed"`
				IDs     []int64 `json:"ids"`
			}](t, o.call(t, o.op, "POST", "/api/admin/videos/bulk", body, 200))
			return r.Changed, r.IDs
		}
		rows := func(action string) int {
			return o.count(t, "SELECT COUNT(*) FROM audit_log WHERE action = ?", action)
		}
		state := func() string {
			var out []string
			for _, id := range []int64{v1, v2, v3} {
				v := decode[adminVideo](t, o.call(t, o.op, "GET", fmt.Sprintf("/api/admin/videos/info?id=%d", id), "", 200))
				var tags []int64
				for _, tg := range v.Tags {
					tags = append(tags, tg.ID)
				}
				out = append(out, fmt.Sprint(v.Published, v.SubModuleID, v.ModuleID, tags))
			}
			return strings.Join(out, "; ")
		}

		// Publish: v2 is published already, so two change, two rows.
		if n, ids := bulk(fmt.Sprintf(`{"ids":[%d,%d,%d],"action":"publish"}`, v3, v1, v2)); n != 2 || fmt.Sprint(ids) != fmt.Sprint([]int64{v1, v3}) {
			t.Fatalf("publish: %d %v", n, ids)
		}
		if rows("video.publish") != 2 {
			t.Fatalf("publish rows: %d", rows("video.publish"))
		}
		if n := o.count(t, "SELECT COUNT(*) FROM audit_log WHERE action = 'video.publish' AND target_id = ?", fmt.Sprint(v2)); n != 0 {
			t.Fatalf("an unchanged video was audited")
		}
		// The public app sees them at once.
		o.call(t, "", "GET", fmt.Sprintf("/api/app/vid/info?id=%d", v1), "", 200)
		if n, _ := bulk(fmt.Sprintf(`{"ids":[%d,%d],"action":"publish"}`, v1, v2)); n != 0 {
			t.Fatal("publishing published videos changed something")
		}
		if n, _ := bulk(fmt.Sprintf(`{"ids":[%d],"action":"unpublish"}`, v1)); n != 1 || rows("video.unpublish") != 1 {
			t.Fatalf("unpublish: %d, %d rows", n, rows("video.unpublish"))
		}
		o.call(t, "", "GET", fmt.Sprintf("/api/app/vid/info?id=%d", v1), "", 404)

		// Move to the short-video sub-module: the module follows.
		updates := rows("video.update")
		if n, _ := bulk(fmt.Sprintf(`{"ids":[%d,%d],"action":"move","subModuleID":%d}`, v1, v2, f.sub2)); n != 2 || rows("video.update") != updates+2 {
			t.Fatalf("move: %d", n)
		}
		if v := decode[adminVideo](t, o.call(t, o.op, "GET", fmt.Sprintf("/api/admin/videos/info?id=%d", v1), "", 200)); v.SubModuleID != f.sub2 || v.ModuleID != f.mod2 {
			t.Fatalf("moved: %+v", v)
		}
		// Tag: v3 has tag1 already; tag adds tag2 to all three.
		if n, _ := bulk(fmt.Sprintf(`{"ids":[%d,%d,%d],"action":"tag","tagIds":[%d,%d]}`, v1, v2, v3, f.tag1, f.tag2)); n != 3 {
			t.Fatalf("tag: %d", n)
		}
		if n, _ := bulk(fmt.Sprintf(`{"ids":[%d,%d],"action":"untag","tagIds":[%d]}`, v1, v3, f.tag1)); n != 2 {
			t.Fatalf("untag: %d", n)
		}
		if n, _ := bulk(fmt.Sprintf(`{"ids":[%d],"action":"untag","tagIds":[%d]}`, v1, f.tag1)); n != 0 {
			t.Fatalf("untag again: %d", n)
		}
		want := fmt.Sprintf("false %d %d [%d]; true %d %d [%d %d]; true %d %d [%d]", f.sub2, f.mod2, f.tag2, f.sub2, f.mod2, f.tag1, f.tag2, f.sub, f.mod, f.tag2)
		if got := state(); got != want {
			t.Fatalf("state: %s, want %s", got, want)
		}

		// Refusals: nothing changes, no row.
		mod := s.Operator(t, "ops_mod", httpx.RoleModerator).Token
		audits := o.count(t, "SELECT COUNT(*) FROM audit_log")
		many := make([]string, 201)
		for i := range many {
			many[i] = fmt.Sprint(i + 1)
		}
		for _, c := range []struct {
			body   string
			status int
			tip    string
		}{
			{fmt.Sprintf(`{"ids":[%d,999999],"action":"publish"}`, v1), 404, "视频不存在"},
			{fmt.Sprintf(`{"ids":[%d,%d],"action":"publish"}`, v1, v1), 422, "重复"},
			{`{"ids":[],"action":"publish"}`, 422, "1 到 200"},
			{`{"ids":[` + strings.Join(many, ",") + `],"action":"publish"}`, 422, "1 到 200"},
			{`{"ids":[0],"action":"publish"}`, 422, "ids"},
			{fmt.Sprintf(`{"ids":[%d],"action":"delete"}`, v1), 422, "操作应为"},
			{fmt.Sprintf(`{"ids":[%d],"action":"move"}`, v1), 422, "子栏目"},
			{fmt.Sprintf(`{"ids":[%d],"action":"move","subModuleID":%d}`, v1, f.mod), 422, "请选择子栏目"},
			{fmt.Sprintf(`{"ids":[%d],"action":"move","subModuleID":%d}`, v1, f.imgSub), 422, "图片栏目"},
			{fmt.Sprintf(`{"ids":[%d],"action":"move","subModuleID":888888}`, v1), 404, "888888"},
			{fmt.Sprintf(`{"ids":[%d,999999],"action":"move","subModuleID":%d}`, v1, f.sub), 404, "视频不存在"},
			{fmt.Sprintf(`{"ids":[%d],"action":"tag"}`, v1), 422, "标签"},
			{fmt.Sprintf(`{"ids":[%d],"action":"tag","tagIds":[777777]}`, v1), 404, "标签 777777 不存在"},
			{fmt.Sprintf(`{"ids":[%d],"action":"tag","tagIds":[%d,%d]}`, v1, f.tag1, f.tag1), 422, "重复"},
			{fmt.Sprintf(`{"ids":[%d,999999],"action":"tag","tagIds":[%d]}`, v1, f.tag1), 404, "视频不存在"},
			{`{"ids":"1","action":"publish"}`, 400, ""},
		} {
			o.call(t, o.op, "POST", "/api/admin/videos/bulk", c.body, c.status, c.tip)
		}
		o.call(t, mod, "POST", "/api/admin/videos/bulk", fmt.Sprintf(`{"ids":[%d],"action":"publish"}`, v1), 403)
		if got := state(); got != want {
			t.Fatalf("a refusal changed %s", got)
		}
		if n := o.count(t, "SELECT COUNT(*) FROM audit_log"); n != audits {
			t.Fatalf("refusals wrote %d audit rows", n-audits)
		}
	})
}

// The console uploads as the operator through /api/admin/media/upload (a
// console token opens no /api/app call), then attaches; the phone-app
// token of the same operator is refused there.
func TestOperatorConsoleUpload(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := newOps(t, s)
		send := func(token string) (int, json.RawMessage) {
			var body bytes.Buffer
			mw := multipart.NewWriter(&body)
			fw, _ := mw.CreateFormFile("file", "p.jpg")
			fw.Write(jpegBytes(t))
			mw.Close()
			r := httptest.NewRequest("POST", "/api/admin/media/upload", &body)
			r.Header.Set("Content-Type", mw.FormDataContentType())
			r.Header.Set("Authorization", "Bearer "+token)
			rec := httptest.NewRecorder()
			s.Handler.ServeHTTP(rec, r)
			var e struct {
				Data json.RawMessage `json:"data"`
			}
			json.Unmarshal(rec.Body.Bytes(), &e)
			return rec.Code, e.Data
		}
		code, data := send(o.op)
		if code != 200 {
			t.Fatalf("upload: %d %s", code, data)
		}
		a := decode[struct {
			ID    int64  `json:"id"`
			State string `json:"state"`
		}](t, data)
		if a.ID == 0 || a.State != "ready" {
			t.Fatalf("asset: %s", data)
		}
		if n := o.count(t, "SELECT COUNT(*) FROM media_assets WHERE id = ? AND owner_uid = ?", a.ID, o.opUID); n != 1 {
			t.Fatal("the asset is not the operator's")
		}
		// A picture becomes a cover.
		f := newContent(t, o)
		v := decode[adminVideo](t, o.call(t, o.op, "POST", "/api/admin/videos", fmt.Sprintf(`{"title":"c","subModuleID":%d,"coverId":%d}`, f.sub, a.ID), 200))
		if !strings.HasPrefix(v.Cover, "/media/covers/") {
			t.Fatalf("cover: %+v", v)
		}
		if code, _ := send(o.app); code != 401 {
			t.Fatalf("a phone-app token uploaded through the console: %d", code)
		}
		if code, _ := send(s.Operator(t, "ops_fin", httpx.RoleFinance).Token); code != 403 {
			t.Fatalf("finance uploaded: %d", code)
		}
		o.call(t, o.op, "POST", "/api/admin/media/upload", `{}`, 415)
	})
}
