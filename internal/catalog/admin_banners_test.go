package catalog

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
)

// bannerMux mounts the operator's announcement, ad and pre-sale calls and
// the app's reads of them.
func bannerMux(s *Service) *httpx.APIMux {
	h := NewHandler(s)
	m := mux(h)
	for pattern, fn := range map[string]httpx.Handler{
		"GET /api/admin/announcements":         h.AdminAnnouncements,
		"POST /api/admin/announcements":        h.AdminSaveAnnouncement,
		"POST /api/admin/announcements/delete": h.AdminDeleteAnnouncement,
		"GET /api/admin/ads":                   h.AdminAds,
		"POST /api/admin/ads":                  h.AdminSaveAd,
		"POST /api/admin/ads/delete":           h.AdminDeleteAd,
		"GET /api/admin/presale":               h.AdminPreSales,
		"POST /api/admin/presale":              h.AdminSavePreSale,
		"POST /api/admin/presale/delete":       h.AdminDeletePreSale,
	} {
		m.Handle(pattern, fn)
	}
	return m
}

type caller func(method, url, body string) (int, json.RawMessage)

func newCaller(t *testing.T, m *httpx.APIMux) caller {
	return func(method, url, body string) (int, json.RawMessage) {
		t.Helper()
		rec := httptest.NewRecorder()
		m.ServeHTTP(rec, apitest.Scenario{Method: method, URL: url, Body: body}.Request())
		var env struct {
			Data json.RawMessage `json:"data"`
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &env)
		return rec.Code, env.Data
	}
}

// tableState is every row of a table and the audit log, to show a refusal
// changed nothing.
func tableState(t *testing.T, d *db.DB, table string) string {
	t.Helper()
	var n, a int
	var sum string
	if err := d.QueryRow(context.Background(), "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if err := d.QueryRow(context.Background(), "SELECT COUNT(*) FROM audit_log").Scan(&a); err != nil {
		t.Fatal(err)
	}
	rows, err := db.All(context.Background(), d, func(r db.Scanner) (string, error) {
		var s string
		err := r.Scan(&s)
		return s, err
	}, "SELECT url FROM presale_entries UNION ALL SELECT title || link FROM announcements UNION ALL SELECT title || image || link || position FROM ads")
	if err != nil {
		t.Fatal(err)
	}
	sum = strings.Join(rows, "|")
	return fmt.Sprintf("%d/%d/%s", n, a, sum)
}

func auditCount(t *testing.T, d *db.DB, action string) int {
	t.Helper()
	var n int
	if err := d.QueryRow(context.Background(), "SELECT COUNT(*) FROM audit_log WHERE action = ?", action).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestAdminAnnouncements(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		newFixture(t, d)
		s := newTestService(d, Options{})
		call := newCaller(t, bannerMux(s))
		// Every announcement, whatever its window, newest first, by keyset.
		code, raw := call("GET", "/api/admin/announcements?limit=2", "")
		page := decode[KeysetPage[AdminAnnouncement]](t, raw)
		if code != 200 || len(page.List) != 2 || page.NextCursor == nil || page.List[0].State != StateScheduled || page.List[1].State != StateEnded {
			t.Fatalf("first page %d %s", code, raw)
		}
		_, raw = call("GET", "/api/admin/announcements?limit=2&cursor="+*page.NextCursor, "")
		page = decode[KeysetPage[AdminAnnouncement]](t, raw)
		if len(page.List) != 1 || page.NextCursor != nil || page.List[0].State != StateShowing {
			t.Fatalf("second page %s", raw)
		}
		if code, _ := call("GET", "/api/admin/announcements?cursor=x", ""); code != 422 {
			t.Fatalf("bad cursor %d", code)
		}

		// Refusals change nothing.
		before := tableState(t, d, "announcements")
		now := testNow.Unix()
		for _, body := range []string{
			`{"title":"  "}`,
			`{"title":"` + strings.Repeat("长", 101) + `"}`,
			`{"title":"x","link":"javascript:alert(1)"}`,
			`{"title":"x","link":"//evil.example/x"}`,
			`{"title":"x","link":"data:text/html,x"}`,
			`{"title":"x","link":"https://a.example/ b"}`,
			`{"title":"x","startsAt":100,"endsAt":100}`,
			`{"title":"x","startsAt":-1}`,
			`{"title":"x","endsAt":99999999999}`,
			`{"title":"x","sort":-1}`,
			`{"title":"x\u0000"}`,
			`{"title":"x","content":"` + strings.Repeat("长", 2001) + `"}`,
			`{"id":0,"title":"x"}`,
			`{"id":424242,"title":"x"}`,
			`{"title":"x","sort":"1"}`,
		} {
			if code, _ := call("POST", "/api/admin/announcements", body); code < 400 || code > 404 && code != 422 {
				t.Errorf("%s: %d", body, code)
			}
		}
		if after := tableState(t, d, "announcements"); after != before {
			t.Fatalf("a refusal changed something: %s -> %s", before, after)
		}

		// Create: shown to the app at once; multi-line content kept.
		code, raw = call("POST", "/api/admin/announcements", fmt.Sprintf(`{"title":" 新公告 ","content":"第一行\n第二行","link":"prima://vipcenter","sort":0,"startsAt":%d}`, now-5))
		a := decode[AdminAnnouncement](t, raw)
		if code != 200 || a.ID == 0 || a.Title != "新公告" || a.State != StateShowing || a.Content != "第一行\n第二行" {
			t.Fatalf("create %d %s", code, raw)
		}
		_, raw = call("GET", "/api/app/modules/announce", "")
		if !strings.Contains(string(raw), "新公告") {
			t.Fatalf("the app does not show it: %s", raw)
		}
		if n := auditCount(t, d, "announcement.create"); n != 1 {
			t.Fatalf("create audit rows %d", n)
		}
		// The same fields again: nothing changes, no row.
		same := fmt.Sprintf(`{"id":%d,"title":"新公告","content":"第一行\n第二行","link":"prima://vipcenter","sort":0,"startsAt":%d}`, a.ID, now-5)
		if code, _ := call("POST", "/api/admin/announcements", same); code != 200 || auditCount(t, d, "announcement.update") != 0 {
			t.Fatalf("no-op update %d, rows %d", code, auditCount(t, d, "announcement.update"))
		}
		// Ending it hides it from the app; one row with the changed field only.
		code, raw = call("POST", "/api/admin/announcements", fmt.Sprintf(`{"id":%d,"title":"新公告","content":"第一行\n第二行","link":"prima://vipcenter","startsAt":%d,"endsAt":%d}`, a.ID, now-5, now))
		if a = decode[AdminAnnouncement](t, raw); code != 200 || a.State != StateEnded {
			t.Fatalf("end %d %s", code, raw)
		}
		var b, af string
		if err := d.QueryRow(context.Background(), "SELECT before, after FROM audit_log WHERE action = 'announcement.update'").Scan(&b, &af); err != nil || strings.ReplaceAll(b, " ", "") != `{"endsAt":0}` || strings.ReplaceAll(af, " ", "") != fmt.Sprintf(`{"endsAt":%d}`, now) {
			t.Fatalf("update audit %s -> %s %v", b, af, err)
		}
		if _, raw = call("GET", "/api/app/modules/announce", ""); strings.Contains(string(raw), "新公告") {
			t.Fatalf("an ended announcement still shows: %s", raw)
		}
		// Delete, then again: 404, one row.
		if code, _ := call("POST", "/api/admin/announcements/delete", fmt.Sprintf(`{"id":%d}`, a.ID)); code != 200 {
			t.Fatalf("delete %d", code)
		}
		if code, _ := call("POST", "/api/admin/announcements/delete", fmt.Sprintf(`{"id":%d}`, a.ID)); code != 404 {
			t.Fatalf("delete again %d", code)
		}
		if n := auditCount(t, d, "announcement.delete"); n != 1 {
			t.Fatalf("delete audit rows %d", n)
		}
	})
}

func TestAdminAdsAndClicks(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		newFixture(t, d)
		s := newTestService(d, Options{})
		call := newCaller(t, bannerMux(s))
		before := tableState(t, d, "ads")
		for _, body := range []string{
			`{"position":"home_banner"}`, // no image
			`{"position":"home_banner","image":"javascript:alert(1)"}`,
			`{"position":"home_banner","image":"/api/app/mine/info"}`,
			`{"position":"sidebar","image":"/media/ads/x.jpg"}`,
			`{"image":"/media/ads/x.jpg"}`,
			`{"position":"home_banner","image":"/media/ads/x.jpg","link":"javascript:void(0)"}`,
			`{"position":"home_banner","image":"/media/ads/x.jpg","startsAt":10,"endsAt":5}`,
			`{"position":"home_banner","image":"/media/ads/x.jpg","title":"a\u0007"}`,
			`{"id":424242,"position":"home_banner","image":"/media/ads/x.jpg"}`,
			`{"id":-1,"position":"home_banner","image":"/media/ads/x.jpg"}`,
		} {
			if code, _ := call("POST", "/api/admin/ads", body); code != 422 && code != 404 {
				t.Errorf("%s: %d", body, code)
			}
		}
		if after := tableState(t, d, "ads"); after != before {
			t.Fatalf("a refusal changed something: %s -> %s", before, after)
		}
		code, raw := call("POST", "/api/admin/ads", `{"title":"新横幅","position":"home_banner","image":"https://cdn.example/b.jpg","link":"/mine/vipcenter","sort":5}`)
		ad := decode[AdminAd](t, raw)
		if code != 200 || ad.ID == 0 || ad.State != StateShowing || ad.Clicks != (AdClicks{}) {
			t.Fatalf("create %d %s", code, raw)
		}
		_, raw = call("GET", "/api/app/vid/source", "")
		if !strings.Contains(string(raw), "https://cdn.example/b.jpg") {
			t.Fatalf("the app's configuration lacks it: %s", raw)
		}
		// Three clicks today, one tomorrow, then a week later.
		ctx := context.Background()
		for range 3 {
			if err := s.AdClick(ctx, ad.ID); err != nil {
				t.Fatal(err)
			}
		}
		s.now = func() time.Time { return testNow.Add(24 * time.Hour) }
		if err := s.AdClick(ctx, ad.ID); err != nil {
			t.Fatal(err)
		}
		clicks := func() AdClicks {
			t.Helper()
			_, raw := call("GET", "/api/admin/ads?position=home_banner", "")
			for _, a := range decode[KeysetPage[AdminAd]](t, raw).List {
				if a.Position != "home_banner" {
					t.Fatalf("position filter let %q through", a.Position)
				}
				if a.ID == ad.ID {
					return a.Clicks
				}
			}
			t.Fatalf("ad missing: %s", raw)
			return AdClicks{}
		}
		if c := clicks(); c != (AdClicks{Today: 1, Days7: 4, Total: 4}) {
			t.Fatalf("clicks %+v", c)
		}
		s.now = func() time.Time { return testNow.Add(8 * 24 * time.Hour) }
		if c := clicks(); c != (AdClicks{Today: 0, Days7: 0, Total: 4}) {
			t.Fatalf("clicks a week later %+v", c)
		}
		if code, _ := call("GET", "/api/admin/ads?position=nope", ""); code != 422 {
			t.Fatalf("bad position %d", code)
		}
		// Update keeps the clicks; a no-op writes no row.
		upd := fmt.Sprintf(`{"id":%d,"title":"改名","position":"home_banner","image":"https://cdn.example/b.jpg","link":"/mine/vipcenter","sort":5}`, ad.ID)
		code, raw = call("POST", "/api/admin/ads", upd)
		if ad2 := decode[AdminAd](t, raw); code != 200 || ad2.Title != "改名" || ad2.Clicks.Total != 4 {
			t.Fatalf("update %d %s", code, raw)
		}
		call("POST", "/api/admin/ads", upd)
		if n := auditCount(t, d, "ad.update"); n != 1 {
			t.Fatalf("update rows %d, want 1", n)
		}
		// Delete takes its daily rows with it.
		if code, _ := call("POST", "/api/admin/ads/delete", fmt.Sprintf(`{"id":%d}`, ad.ID)); code != 200 {
			t.Fatalf("delete %d", code)
		}
		var n int
		if err := d.QueryRow(ctx, "SELECT COUNT(*) FROM ad_clicks WHERE ad_id = ?", ad.ID).Scan(&n); err != nil || n != 0 {
			t.Fatalf("ad_clicks left %d %v", n, err)
		}
		if auditCount(t, d, "ad.create") != 1 || auditCount(t, d, "ad.delete") != 1 {
			t.Fatal("create/delete audit rows")
		}
		if code, _ := call("POST", "/api/admin/ads/delete", fmt.Sprintf(`{"id":%d}`, ad.ID)); code != 404 {
			t.Fatalf("delete again %d", code)
		}
	})
}

func TestAdminPreSale(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := newTestService(d, Options{})
		call := newCaller(t, bannerMux(s))
		before := tableState(t, d, "presale_entries")
		for _, body := range []string{
			`{"type":4,"status":1,"url":"/media/presale/a.jpg"}`,
			`{"type":1,"status":3,"url":"/media/presale/a.jpg"}`,
			`{"type":1,"status":1,"url":"data:image/png;base64,AAAA"}`,
			`{"type":1,"status":1}`,
			`{"id":9,"type":1,"status":1,"url":"/media/presale/a.jpg"}`,
		} {
			if code, _ := call("POST", "/api/admin/presale", body); code != 422 && code != 404 {
				t.Errorf("%s: %d", body, code)
			}
		}
		if after := tableState(t, d, "presale_entries"); after != before {
			t.Fatalf("a refusal changed something: %s -> %s", before, after)
		}
		code, raw := call("POST", "/api/admin/presale", `{"type":3,"status":1,"url":"/media/presale/pop.jpg"}`)
		p := decode[AdminPreSale](t, raw)
		if code != 200 || p.ID == 0 {
			t.Fatalf("create %d %s", code, raw)
		}
		_, raw = call("GET", "/api/app/vid/source", "")
		if !strings.Contains(string(raw), `"preSaleConfig":[{"type":3,"status":1,"url":"/media/presale/pop.jpg"}]`) {
			t.Fatalf("source: %s", raw)
		}
		// After the sale: status 2, one update row.
		if code, _ := call("POST", "/api/admin/presale", fmt.Sprintf(`{"id":%d,"type":3,"status":2,"url":"/media/presale/pop.jpg"}`, p.ID)); code != 200 {
			t.Fatalf("update %d", code)
		}
		call("POST", "/api/admin/presale", fmt.Sprintf(`{"id":%d,"type":3,"status":2,"url":"/media/presale/pop.jpg"}`, p.ID))
		_, raw = call("GET", "/api/admin/presale", "")
		if !strings.Contains(string(raw), `"status":2`) || auditCount(t, d, "presale.update") != 1 {
			t.Fatalf("list %s, rows %d", raw, auditCount(t, d, "presale.update"))
		}
		if code, _ := call("POST", "/api/admin/presale/delete", fmt.Sprintf(`{"id":%d}`, p.ID)); code != 200 || auditCount(t, d, "presale.delete") != 1 {
			t.Fatalf("delete %d", code)
		}
	})
}

func TestCheckLink(t *testing.T) {
	for _, ok := range []string{"", "https://a.example/x?y=1", "/mine/vipcenter", "prima://vipcenter", "share?type=2", "www.example.com", "postdetail/12"} {
		if _, err := CheckLink(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"javascript:alert(1)", "JavaScript:x", "data:text/html,x", "//evil.example", "mailto:a@b.c", "a b", "prima://a b", "/a\\b", strings.Repeat("a", 501)} {
		if _, err := CheckLink(bad); httpStatus(err) != 422 {
			t.Errorf("%q passed", bad)
		}
	}
}

// fakeCovers is a CoverStore over a few asset ids: 1 a ready picture, 2 a
// video, 3 a picture still processing; it remembers what it published and
// removed.
type fakeCovers struct {
	n         int
	published []string
	removed   []string
}

func (f *fakeCovers) PublishCover(_ context.Context, id int64) (string, error) {
	switch id {
	case 1:
		f.n++
		url := fmt.Sprintf("/media/covers/2026/12/pic%d.jpg", f.n)
		f.published = append(f.published, url)
		return url, nil
	case 2, 3:
		return "", ErrCoverNotImage
	}
	return "", ErrCoverNotFound
}

func (f *fakeCovers) RemoveCover(_ context.Context, url string) error {
	f.removed = append(f.removed, url)
	return nil
}

// TestAdminBannerPictureID: ads and pre-sale banners take an uploaded
// picture (pictureId) instead of a typed address; it is published at a
// public URL and stored as the picture. Refusals change nothing and leave
// no published file behind.
func TestAdminBannerPictureID(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := newTestService(d, Options{})
		covers := &fakeCovers{}
		s.Covers = covers
		call := newCaller(t, bannerMux(s))
		for _, tc := range []struct {
			path, table, body string
			want              int
		}{
			{"/api/admin/ads", "ads", `{"position":"home_banner","pictureId":404}`, 404},
			{"/api/admin/ads", "ads", `{"position":"home_banner","pictureId":2}`, 422},
			{"/api/admin/ads", "ads", `{"position":"home_banner","pictureId":3}`, 422},
			{"/api/admin/ads", "ads", `{"position":"home_banner","pictureId":0}`, 422},
			{"/api/admin/ads", "ads", `{"position":"home_banner","pictureId":-5}`, 422},
			{"/api/admin/ads", "ads", `{"position":"home_banner","pictureId":"1"}`, 400},
			{"/api/admin/ads", "ads", `{"position":"sidebar","pictureId":1}`, 422},
			{"/api/admin/ads", "ads", `{"id":424242,"position":"home_banner","pictureId":1}`, 404},
			{"/api/admin/presale", "presale_entries", `{"type":1,"status":1,"pictureId":404}`, 404},
			{"/api/admin/presale", "presale_entries", `{"type":1,"status":1,"pictureId":2}`, 422},
			{"/api/admin/presale", "presale_entries", `{"type":9,"status":1,"pictureId":1}`, 422},
			{"/api/admin/presale", "presale_entries", `{"id":9,"type":1,"status":1,"pictureId":1}`, 404},
		} {
			before := tableState(t, d, tc.table)
			if code, _ := call("POST", tc.path, tc.body); code != tc.want {
				t.Errorf("%s %s: %d, want %d", tc.path, tc.body, code, tc.want)
			}
			if after := tableState(t, d, tc.table); after != before {
				t.Errorf("%s changed something: %s -> %s", tc.body, before, after)
			}
		}
		// The one refusal that got past publishing (an unknown id) removed
		// the file it had published.
		if len(covers.published) != len(covers.removed) {
			t.Fatalf("published %v, removed %v", covers.published, covers.removed)
		}
		// pictureId wins over a typed image.
		code, raw := call("POST", "/api/admin/ads", `{"title":"上传的","position":"home_banner","image":"https://x.example/a.jpg","pictureId":1}`)
		ad := decode[AdminAd](t, raw)
		want := covers.published[len(covers.published)-1]
		if code != 200 || ad.Image != want {
			t.Fatalf("ad %d %s, want image %s", code, raw, want)
		}
		_, raw = call("GET", "/api/app/vid/source", "")
		if !strings.Contains(string(raw), want) {
			t.Fatalf("the app's configuration lacks %s: %s", want, raw)
		}
		// Replacing the picture of an existing ad: one update row.
		code, raw = call("POST", "/api/admin/ads", fmt.Sprintf(`{"id":%d,"title":"上传的","position":"home_banner","pictureId":1}`, ad.ID))
		if ad2 := decode[AdminAd](t, raw); code != 200 || ad2.Image == ad.Image || auditCount(t, d, "ad.update") != 1 {
			t.Fatalf("replace %d %s", code, raw)
		}
		code, raw = call("POST", "/api/admin/presale", `{"type":2,"status":1,"pictureId":1}`)
		p := decode[AdminPreSale](t, raw)
		want = covers.published[len(covers.published)-1]
		if code != 200 || p.URL != want || auditCount(t, d, "presale.create") != 1 {
			t.Fatalf("presale %d %s", code, raw)
		}
		_, raw = call("GET", "/api/app/vid/source", "")
		if !strings.Contains(string(raw), want) {
			t.Fatalf("the app's configuration lacks %s: %s", want, raw)
		}
	})
}
