package gallery_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"prima/internal/account"
	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/catalog"
	"prima/internal/gallery"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// fixture is a server with an images module, a sub-module, a video
// sub-module (not for galleries), pictures uploaded by an operator and
// the tokens of the callers the tests need.
type fixture struct {
	s                *apptest.Server
	h                http.Handler
	op, guest, vip   string
	mod, sub, vidSub int64
	pics             []int64
	video            int64
}

func pictureFile(t *testing.T, dir string, i int) (string, int64) {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 64+i, 48))
	for y := range 48 {
		for x := range 64 + i {
			img.Set(x, y, color.RGBA{uint8(40 * i), uint8(x * 4), uint8(y * 5), 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, fmt.Sprintf("p%d.png", i))
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p, int64(b.Len())
}

func login(t *testing.T, s *apptest.Server, acct, pw string) (string, int64) {
	t.Helper()
	l, err := s.App.Account.PasswordLogin(context.Background(), account.PasswordLoginInput{Account: acct, Password: pw, IP: "10.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	return l.Token, l.User.ID
}

func newFixture(t *testing.T, s *apptest.Server, pictures int) *fixture {
	t.Helper()
	ctx := context.Background()
	f := &fixture{s: s, h: s.Handler}
	o := s.Operator(t, "ops_1", httpx.RoleOwner) // a console token
	f.op = o.Token
	opID := o.UID
	if _, err := account.SeedDemoUsers(ctx, s.App.Account); err != nil {
		t.Fatal(err)
	}
	f.vip, _ = login(t, s, "vipdemo", "vip123")
	f.guest = apitest.GuestLogin(t, f.h, apitest.DevID(1))
	err := s.App.DB.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		if f.mod, err = catalog.InsertModule(ctx, tx, 0, "图片", 3, 1, 1); err != nil {
			return err
		}
		if f.sub, err = catalog.InsertModule(ctx, tx, f.mod, "写真", 3, 1, 1); err != nil {
			return err
		}
		vm, err := catalog.InsertModule(ctx, tx, 0, "首页", 0, 2, 1)
		if err != nil {
			return err
		}
		if f.vidSub, err = catalog.InsertModule(ctx, tx, vm, "推荐", 0, 1, 1); err != nil {
			return err
		}
		f.video, err = catalog.InsertVideo(ctx, tx, catalog.NewVideo{Title: "v", ModuleID: vm, SubModuleID: f.vidSub, Published: true, CreatedAt: 1})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i := range pictures {
		p, n := pictureFile(t, dir, i)
		a, err := s.App.Uploads.Upload(ctx, opID, p, n)
		if err != nil {
			t.Fatal(err)
		}
		f.pics = append(f.pics, a.ID)
	}
	return f
}

func ids(xs []int64) string {
	b, _ := json.Marshal(xs)
	return string(b)
}

// create makes a gallery through the API and returns its id.
func (f *fixture) create(t *testing.T, body string) int64 {
	t.Helper()
	res := apitest.Scenario{Method: "POST", URL: "/api/admin/galleries", Token: f.op, Body: body, ExpectedStatus: 200}.Run(t, f.h)
	return apitest.Data[gallery.Gallery](t, res).ID
}

func (f *fixture) auditCount(t *testing.T, action string) int {
	t.Helper()
	var n int
	if err := f.s.App.DB.QueryRow(context.Background(), "SELECT COUNT(*) FROM audit_log WHERE action = ?", action).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func get(h http.Handler, url string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
	return rec
}

func TestOperatorCalls(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		f := newFixture(t, s, 3)
		good := fmt.Sprintf(`{"title":"海边","subModuleId":%d,"vipLevel":1,"images":%s}`, f.sub, ids(f.pics))
		apitest.Run(t, f.h,
			apitest.Scenario{Name: "no token", Method: "POST", URL: "/api/admin/galleries", Body: good, ExpectedStatus: 401},
			apitest.Scenario{Name: "a user", Method: "POST", URL: "/api/admin/galleries", Body: good, Token: f.vip, ExpectedStatus: 401},
			apitest.Scenario{Name: "no title", Method: "POST", URL: "/api/admin/galleries", Token: f.op, ExpectedStatus: 422,
				Body: fmt.Sprintf(`{"subModuleId":%d,"images":%s}`, f.sub, ids(f.pics))},
			apitest.Scenario{Name: "blank title", Method: "POST", URL: "/api/admin/galleries", Token: f.op, ExpectedStatus: 422,
				Body: fmt.Sprintf(`{"title":"  ","subModuleId":%d,"images":%s}`, f.sub, ids(f.pics))},
			apitest.Scenario{Name: "a video sub-module", Method: "POST", URL: "/api/admin/galleries", Token: f.op, ExpectedStatus: 422,
				Body: fmt.Sprintf(`{"title":"x","subModuleId":%d,"images":%s}`, f.vidSub, ids(f.pics)), ExpectedTip: "图片栏目"},
			apitest.Scenario{Name: "a top-level module", Method: "POST", URL: "/api/admin/galleries", Token: f.op, ExpectedStatus: 422,
				Body: fmt.Sprintf(`{"title":"x","subModuleId":%d,"images":%s}`, f.mod, ids(f.pics))},
			apitest.Scenario{Name: "no pictures", Method: "POST", URL: "/api/admin/galleries", Token: f.op, ExpectedStatus: 422,
				Body: fmt.Sprintf(`{"title":"x","subModuleId":%d,"images":[]}`, f.sub)},
			apitest.Scenario{Name: "a picture twice", Method: "POST", URL: "/api/admin/galleries", Token: f.op, ExpectedStatus: 422,
				Body: fmt.Sprintf(`{"title":"x","subModuleId":%d,"images":[%d,%d]}`, f.sub, f.pics[0], f.pics[0])},
			apitest.Scenario{Name: "an unknown asset", Method: "POST", URL: "/api/admin/galleries", Token: f.op, ExpectedStatus: 422,
				Body: fmt.Sprintf(`{"title":"x","subModuleId":%d,"images":[%d,999999]}`, f.sub, f.pics[0])},
			apitest.Scenario{Name: "vip level 3", Method: "POST", URL: "/api/admin/galleries", Token: f.op, ExpectedStatus: 422,
				Body: fmt.Sprintf(`{"title":"x","subModuleId":%d,"vipLevel":3,"images":%s}`, f.sub, ids(f.pics))},
			apitest.Scenario{Name: "negative coins", Method: "POST", URL: "/api/admin/galleries", Token: f.op, ExpectedStatus: 422,
				Body: fmt.Sprintf(`{"title":"x","subModuleId":%d,"coins":-1,"images":%s}`, f.sub, ids(f.pics))},
			apitest.Scenario{Name: "not JSON", Method: "POST", URL: "/api/admin/galleries", Token: f.op, Body: "title=x",
				Headers: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, ExpectedStatus: 415},
		)
		var n int
		if err := s.App.DB.QueryRow(context.Background(), "SELECT COUNT(*) FROM galleries").Scan(&n); err != nil || n != 0 {
			t.Fatalf("refused creates left %d galleries (%v)", n, err)
		}
		id := f.create(t, good)
		if f.auditCount(t, "gallery.create") != 1 {
			t.Fatal("create not audited")
		}
		info := fmt.Sprintf("/api/app/gallery/info?id=%d", id)
		apitest.Run(t, f.h,
			apitest.Scenario{Name: "a draft is not public", URL: info, Token: f.vip, ExpectedStatus: 404, ExpectedTip: "图集不存在"},
			apitest.Scenario{Name: "operators see drafts", URL: fmt.Sprintf("/api/admin/galleries/info?id=%d", id), Token: f.op, ExpectedStatus: 200,
				ExpectedContent: []string{`"published":false`, `"imageCount":3`}},
			apitest.Scenario{Name: "publish unknown", Method: "POST", URL: "/api/admin/galleries/publish", Token: f.op, Body: `{"id":424242,"published":true}`, ExpectedStatus: 404},
			apitest.Scenario{Name: "publish without flag", Method: "POST", URL: "/api/admin/galleries/publish", Token: f.op, Body: fmt.Sprintf(`{"id":%d}`, id), ExpectedStatus: 422},
			apitest.Scenario{Name: "publish bad id", Method: "POST", URL: "/api/admin/galleries/publish", Token: f.op, Body: `{"id":0,"published":true}`, ExpectedStatus: 422},
			apitest.Scenario{Name: "publish by a user", Method: "POST", URL: "/api/admin/galleries/publish", Token: f.guest, Body: fmt.Sprintf(`{"id":%d,"published":true}`, id), ExpectedStatus: 401},
			apitest.Scenario{Name: "publish", Method: "POST", URL: "/api/admin/galleries/publish", Token: f.op, Body: fmt.Sprintf(`{"id":%d,"published":true}`, id), ExpectedStatus: 200,
				ExpectedContent: []string{`"published":true`}},
			apitest.Scenario{Name: "published is public", URL: info, ExpectedStatus: 200},
			apitest.Scenario{Name: "update unknown", Method: "POST", URL: "/api/admin/galleries/update", Token: f.op, Body: `{"id":424242,"title":"y"}`, ExpectedStatus: 404},
			apitest.Scenario{Name: "update bad vip", Method: "POST", URL: "/api/admin/galleries/update", Token: f.op, Body: fmt.Sprintf(`{"id":%d,"vipLevel":-1}`, id), ExpectedStatus: 422},
			apitest.Scenario{Name: "update to a video sub-module", Method: "POST", URL: "/api/admin/galleries/update", Token: f.op,
				Body: fmt.Sprintf(`{"id":%d,"subModuleId":%d}`, id, f.vidSub), ExpectedStatus: 422},
			apitest.Scenario{Name: "update title and price", Method: "POST", URL: "/api/admin/galleries/update", Token: f.op,
				Body: fmt.Sprintf(`{"id":%d,"title":"山间","vipLevel":0,"coins":20}`, id), ExpectedStatus: 200,
				ExpectedContent: []string{`"title":"山间"`, `"coins":20`, `"vipLevel":0`}},
			apitest.Scenario{Name: "update to the same", Method: "POST", URL: "/api/admin/galleries/update", Token: f.op,
				Body: fmt.Sprintf(`{"id":%d,"title":"山间"}`, id), ExpectedStatus: 200},
			apitest.Scenario{Name: "images of unknown", Method: "POST", URL: "/api/admin/galleries/images", Token: f.op,
				Body: fmt.Sprintf(`{"id":424242,"images":%s}`, ids(f.pics)), ExpectedStatus: 404},
			apitest.Scenario{Name: "images empty", Method: "POST", URL: "/api/admin/galleries/images", Token: f.op,
				Body: fmt.Sprintf(`{"id":%d,"images":[]}`, id), ExpectedStatus: 422},
			apitest.Scenario{Name: "reorder", Method: "POST", URL: "/api/admin/galleries/images", Token: f.op,
				Body: fmt.Sprintf(`{"id":%d,"images":[%d,%d]}`, id, f.pics[2], f.pics[0]), ExpectedStatus: 200, ExpectedContent: []string{`"imageCount":2`}},
			apitest.Scenario{Name: "admin info unknown", URL: "/api/admin/galleries/info?id=424242", Token: f.op, ExpectedStatus: 404},
			apitest.Scenario{Name: "admin info bad id", URL: "/api/admin/galleries/info?id=x", Token: f.op, ExpectedStatus: 422},
			// A sub-module that holds a gallery cannot be deleted from under it.
			apitest.Scenario{Name: "delete the gallery's sub-module", Method: "POST", URL: "/api/admin/modules/delete", Token: f.op,
				Body: fmt.Sprintf(`{"id":%d}`, f.sub), ExpectedStatus: 409},
			apitest.Scenario{Name: "still there", URL: info, ExpectedStatus: 200},
		)
		for action, want := range map[string]int{"gallery.create": 1, "gallery.publish": 1, "gallery.update": 1, "gallery.images": 1} {
			if got := f.auditCount(t, action); got != want {
				t.Errorf("%s audited %d times, want %d", action, got, want)
			}
		}
		var order []int64
		rows, err := s.App.DB.Query(context.Background(), "SELECT asset_id FROM gallery_images WHERE gallery_id = ? ORDER BY position", id)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var a int64
			rows.Scan(&a)
			order = append(order, a)
		}
		rows.Close()
		if fmt.Sprint(order) != fmt.Sprint([]int64{f.pics[2], f.pics[0]}) {
			t.Fatalf("order %v", order)
		}
	})
}

type detail struct {
	gallery.Gallery
	IsCollect bool `json:"isCollect"`
	Access    struct {
		Allowed bool   `json:"allowed"`
		Reason  string `json:"reason"`
	} `json:"access"`
	Paywall *catalog.Paywall `json:"paywall"`
	Images  []gallery.Image  `json:"images"`
}

func TestDetailAndPaywall(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		f := newFixture(t, s, 5)
		id := f.create(t, fmt.Sprintf(`{"title":"会员图集","subModuleId":%d,"vipLevel":1,"published":true,"images":%s}`, f.sub, ids(f.pics)))
		info := fmt.Sprintf("/api/app/gallery/info?id=%d", id)
		// The keys of the pictures past the free ones must appear in no
		// answer to a caller without access.
		var lockedKeys []string
		for _, a := range f.pics[gallery.FreeImages:] {
			var thumb, display string
			if err := s.App.DB.QueryRow(context.Background(), "SELECT thumb_key, display_key FROM media_assets WHERE id = ?", a).Scan(&thumb, &display); err != nil {
				t.Fatal(err)
			}
			lockedKeys = append(lockedKeys, thumb, display, strings.TrimSuffix(thumb, "thumb.jpg"))
		}
		for _, c := range []struct{ name, token, reason string }{{"nobody", "", "login"}, {"guest", f.guest, "need_vip"}} {
			res := apitest.Scenario{Name: c.name, URL: info, Token: c.token, ExpectedStatus: 200, NotExpectedContent: lockedKeys}.Run(t, f.h)
			d := apitest.Data[detail](t, res)
			if d.Access.Allowed || d.Access.Reason != c.reason || d.Paywall == nil || d.Paywall.NeedVipLevel != 1 || d.Paywall.Tip == "" {
				t.Fatalf("%s: access %+v paywall %+v", c.name, d.Access, d.Paywall)
			}
			if len(d.Images) != 5 {
				t.Fatalf("%s: %d images", c.name, len(d.Images))
			}
			for i, im := range d.Images {
				free := i < gallery.FreeImages
				if im.Locked == free || (im.Thumb != "") != free || (im.Display != "") != free || im.Width == 0 || im.Placeholder == "" {
					t.Fatalf("%s: image %d %+v", c.name, i, im)
				}
			}
			// A free picture's URL opens it; the same token on a locked
			// picture's key opens nothing.
			if rec := get(f.h, d.Images[0].Display); rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "image/jpeg") {
				t.Fatalf("free display: %d %v", rec.Code, rec.Header())
			}
			tok := strings.Split(strings.TrimPrefix(d.Images[0].Display, "/media/s/"), "/")[0]
			if rec := get(f.h, "/media/s/"+tok+"/"+lockedKeys[1]); rec.Code != 403 {
				t.Fatalf("a free token opened a locked picture: %d", rec.Code)
			}
			if rec := get(f.h, "/media/"+lockedKeys[1]); rec.Code != 403 {
				t.Fatalf("unsigned picture: %d", rec.Code)
			}
			if d.Cover == "" || get(f.h, d.Cover).Code != 200 {
				t.Fatalf("cover %q", d.Cover)
			}
		}
		res := apitest.Scenario{Name: "vip", URL: info, Token: f.vip, ExpectedStatus: 200}.Run(t, f.h)
		d := apitest.Data[detail](t, res)
		if !d.Access.Allowed || d.Paywall != nil || len(d.Images) != 5 {
			t.Fatalf("vip: %+v", d)
		}
		for i, im := range d.Images {
			if im.Locked || im.Display == "" || im.Thumb == "" || im.Position != i || get(f.h, im.Thumb).Code != 200 {
				t.Fatalf("vip image %d: %+v", i, im)
			}
		}
		apitest.Run(t, f.h,
			apitest.Scenario{Name: "unknown id", URL: "/api/app/gallery/info?id=424242", ExpectedStatus: 404},
			apitest.Scenario{Name: "zero id", URL: "/api/app/gallery/info?id=0", ExpectedStatus: 422},
			apitest.Scenario{Name: "text id", URL: "/api/app/gallery/info?id=abc", ExpectedStatus: 422},
			apitest.Scenario{Name: "no id", URL: "/api/app/gallery/info", ExpectedStatus: 422},
		)
		// A gold gallery: signed in or not, the price is the paywall.
		apitest.Scenario{Method: "POST", URL: "/api/admin/galleries/update", Token: f.op, Body: fmt.Sprintf(`{"id":%d,"vipLevel":0,"coins":30}`, id), ExpectedStatus: 200}.Run(t, f.h)
		d = apitest.Data[detail](t, apitest.Scenario{URL: info, Token: f.vip, ExpectedStatus: 200, NotExpectedContent: lockedKeys}.Run(t, f.h))
		if d.Access.Reason != "need_coins" || d.Paywall == nil || d.Paywall.Coins != 30 {
			t.Fatalf("gold: %+v %+v", d.Access, d.Paywall)
		}
	})
}

func TestListsAndFavourites(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		f := newFixture(t, s, 2)
		var made []int64
		for i := range 5 {
			made = append(made, f.create(t, fmt.Sprintf(`{"title":"图集%d","subModuleId":%d,"vipLevel":%d,"published":%t,"images":%s}`,
				i, f.sub, i%3, i != 4, ids(f.pics))))
		}
		list := func(url string) httpx.Page[gallery.Gallery] {
			return apitest.Data[httpx.Page[gallery.Gallery]](t, apitest.Scenario{URL: url, ExpectedStatus: 200}.Run(t, f.h))
		}
		p := list(fmt.Sprintf("/api/app/gallery/list?subModuleID=%d&pageSize=3", f.sub))
		if p.Total != 4 || len(p.List) != 3 || !p.HasMore || p.List[0].ID != made[3] || p.List[0].Cover == "" || p.List[0].ImageCount != 2 {
			t.Fatalf("page 1: %+v", p)
		}
		p = list(fmt.Sprintf("/api/app/gallery/list?moduleID=%d&pageSize=3&pageNumber=2", f.mod))
		if p.Total != 4 || len(p.List) != 1 || p.HasMore || p.List[0].ID != made[0] {
			t.Fatalf("page 2: %+v", p)
		}
		p = list("/api/app/gallery/vip")
		if p.Total != 2 || p.List[0].ID != made[2] || p.List[1].ID != made[1] {
			t.Fatalf("vip: %+v", p)
		}
		apitest.Run(t, f.h,
			apitest.Scenario{Name: "no scope", URL: "/api/app/gallery/list", ExpectedStatus: 422},
			apitest.Scenario{Name: "page size 0", URL: fmt.Sprintf("/api/app/gallery/list?subModuleID=%d&pageSize=0", f.sub), ExpectedStatus: 422, ExpectedContent: []string{"pageSize"}},
			apitest.Scenario{Name: "page size 51", URL: fmt.Sprintf("/api/app/gallery/list?subModuleID=%d&pageSize=51", f.sub), ExpectedStatus: 422},
			apitest.Scenario{Name: "page 0", URL: fmt.Sprintf("/api/app/gallery/list?subModuleID=%d&pageNumber=0", f.sub), ExpectedStatus: 422},
			apitest.Scenario{Name: "unknown sub-module", URL: "/api/app/gallery/list?subModuleID=424242", ExpectedStatus: 404},
			apitest.Scenario{Name: "a video sub-module", URL: fmt.Sprintf("/api/app/gallery/list?subModuleID=%d", f.vidSub), ExpectedStatus: 404},
			apitest.Scenario{Name: "vip bad module", URL: "/api/app/gallery/vip?moduleID=x", ExpectedStatus: 422},
		)

		g := made[1]
		body := fmt.Sprintf(`{"id":%d,"isCollect":true}`, g)
		apitest.Run(t, f.h,
			apitest.Scenario{Name: "collect without token", Method: "POST", URL: "/api/app/gallery/collect", Body: body, ExpectedStatus: 401},
			apitest.Scenario{Name: "collect no flag", Method: "POST", URL: "/api/app/gallery/collect", Token: f.guest, Body: fmt.Sprintf(`{"id":%d}`, g), ExpectedStatus: 422},
			apitest.Scenario{Name: "collect bad id", Method: "POST", URL: "/api/app/gallery/collect", Token: f.guest, Body: `{"id":-1,"isCollect":true}`, ExpectedStatus: 422},
			apitest.Scenario{Name: "collect unknown", Method: "POST", URL: "/api/app/gallery/collect", Token: f.guest, Body: `{"id":424242,"isCollect":true}`, ExpectedStatus: 404},
			apitest.Scenario{Name: "collect a draft", Method: "POST", URL: "/api/app/gallery/collect", Token: f.guest, Body: fmt.Sprintf(`{"id":%d,"isCollect":true}`, made[4]), ExpectedStatus: 404},
			apitest.Scenario{Name: "collection bad type", URL: "/api/app/mine/collection?type=post", Token: f.guest, ExpectedStatus: 422},
			apitest.Scenario{Name: "collection needs a user", URL: "/api/app/mine/collection?type=gallery", ExpectedStatus: 401},
		)
		// Racing collects make one row.
		var wg sync.WaitGroup
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res := apitest.Scenario{Method: "POST", URL: "/api/app/gallery/collect", Token: f.guest, Body: body}.Send(t, f.h)
				if res.Code != 200 {
					t.Errorf("racing collect: %d %s", res.Code, res.Body)
				}
			}()
		}
		wg.Wait()
		var n int
		if err := s.App.DB.QueryRow(context.Background(), "SELECT COUNT(*) FROM gallery_collects").Scan(&n); err != nil || n != 1 {
			t.Fatalf("%d rows (%v)", n, err)
		}
		mine := apitest.Data[httpx.Page[gallery.MineGallery]](t, apitest.Scenario{URL: "/api/app/mine/collection?type=gallery", Token: f.guest, ExpectedStatus: 200}.Run(t, f.h))
		if mine.Total != 1 || mine.List[0].ID != g || mine.List[0].At.IsZero() {
			t.Fatalf("mine: %+v", mine)
		}
		if d := apitest.Data[detail](t, apitest.Scenario{URL: fmt.Sprintf("/api/app/gallery/info?id=%d", g), Token: f.guest, ExpectedStatus: 200}.Run(t, f.h)); !d.IsCollect {
			t.Fatal("detail does not say collected")
		}
		// Another user's favourites are theirs alone; videos stay the default list.
		apitest.Run(t, f.h,
			apitest.Scenario{Name: "vip has none", URL: "/api/app/mine/collection?type=gallery", Token: f.vip, ExpectedStatus: 200, ExpectedContent: []string{`"total":0`}},
			apitest.Scenario{Name: "videos by default", URL: "/api/app/mine/collection", Token: f.guest, ExpectedStatus: 200, ExpectedContent: []string{`"total":0`}},
			apitest.Scenario{Name: "uncollect", Method: "POST", URL: "/api/app/gallery/collect", Token: f.guest, Body: fmt.Sprintf(`{"id":%d,"isCollect":false}`, g), ExpectedStatus: 200},
			apitest.Scenario{Name: "uncollect again", Method: "POST", URL: "/api/app/gallery/collect", Token: f.guest, Body: fmt.Sprintf(`{"id":%d,"isCollect":false}`, g), ExpectedStatus: 200},
			apitest.Scenario{Name: "empty again", URL: "/api/app/mine/collection?type=gallery", Token: f.guest, ExpectedStatus: 200, ExpectedContent: []string{`"total":0`}},
		)
	})
}
