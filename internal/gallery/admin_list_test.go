package gallery_test

import (
	"fmt"
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/gallery"
)

// The operator's list: drafts too, newest first, by keyset; filters by
// state and title; bad parameters are 422.
func TestAdminList(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		f := newFixture(t, s, 1)
		var made []int64
		for i, title := range []string{"海边 A", "山景", "海边 B"} {
			made = append(made, f.create(t, fmt.Sprintf(`{"title":%q,"subModuleID":%d,"published":%v,"images":%s}`, title, f.sub, i != 1, ids(f.pics))))
		}
		list := func(q string) gallery.AdminPage {
			t.Helper()
			res := apitest.Scenario{URL: "/api/admin/galleries" + q, Token: f.op, ExpectedStatus: 200}.Run(t, f.h)
			return apitest.Data[gallery.AdminPage](t, res)
		}
		p := list("?limit=2")
		if len(p.List) != 2 || p.List[0].ID != made[2] || p.List[1].ID != made[1] || p.NextCursor == nil || p.List[1].Published || p.List[0].Cover == "" {
			t.Fatalf("first page %+v", p)
		}
		p = list("?limit=2&cursor=" + *p.NextCursor)
		if len(p.List) != 1 || p.List[0].ID != made[0] || p.NextCursor != nil {
			t.Fatalf("second page %+v", p)
		}
		if p = list("?published=0"); len(p.List) != 1 || p.List[0].ID != made[1] {
			t.Fatalf("drafts %+v", p)
		}
		if p = list("?published=1&title=海边"); len(p.List) != 2 {
			t.Fatalf("published 海边 %+v", p)
		}
		if p = list("?title=%25"); len(p.List) != 0 {
			t.Fatalf("%% matched as a wildcard: %+v", p)
		}
		for _, q := range []string{"?cursor=x", "?cursor=0", "?published=2", "?limit=0", "?limit=101", "?title=%00"} {
			apitest.Scenario{Name: q, URL: "/api/admin/galleries" + q, Token: f.op, ExpectedStatus: 422}.Run(t, f.h)
		}
		apitest.Scenario{Name: "a user", URL: "/api/admin/galleries", Token: f.vip, ExpectedStatus: 401}.Run(t, f.h)
	})
}
