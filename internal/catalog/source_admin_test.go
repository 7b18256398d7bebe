package catalog

import (
	"context"
	"errors"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
)

// httpStatus is the HTTP status the operator's table answers err with.
func httpStatus(err error) int {
	var he *httpx.Error
	if errors.As(adminErrs.Map(err), &he) {
		return he.Status
	}
	return 0
}

func id(n int64) *int64 { return &n }

func TestCheckSourceRefusesBadLists(t *testing.T) {
	many := make([]SourceInput, MaxSourceEntries+1)
	for i := range many {
		many[i] = SourceInput{Title: "群", URL: "https://t.example/g"}
	}
	for _, c := range []struct {
		name string
		key  string
		in   []SourceInput
	}{
		{"unknown key", "NOPE", nil},
		{"too many", "GROUP", many},
		{"group without title", "GROUP", []SourceInput{{URL: "https://t.example/g"}}},
		{"group without url", "GROUP", []SourceInput{{Title: "群"}}},
		{"javascript link", "GROUP", []SourceInput{{Title: "群", URL: "javascript:alert(1)"}}},
		{"scheme-relative link", "CUST", []SourceInput{{Title: "客服", URL: "//evil.example/x"}}},
		{"data link on another key", "LAND", []SourceInput{{Title: "落地", URL: "data:text/html,x"}}},
		{"link with a line break", "GROUP", []SourceInput{{Title: "群", URL: "https://a.example/\nx"}}},
		{"faq without answer", "FAQ", []SourceInput{{Title: "问题"}}},
		{"negative weight", "GROUP", []SourceInput{{Title: "群", URL: "/x", Weight: -1}}},
		{"huge weight", "GROUP", []SourceInput{{Title: "群", URL: "/x", Weight: 1 << 40}}},
		{"long title", "GROUP", []SourceInput{{Title: strings.Repeat("标", 101), URL: "/x"}}},
		{"icon on a group", "GROUP", []SourceInput{{Title: "群", URL: "/x", Icon: "https://i.example/a.png"}}},
		{"icon not a link", "APPS", []SourceInput{{Title: "应用", URL: "/x", Icon: "javascript:x"}}},
		{"icon an app path outside media", "APPS", []SourceInput{{Title: "应用", URL: "/x", Icon: "/api/app/mine/info"}}},
		{"duplicate id", "APPS", []SourceInput{{ID: id(1), Title: "a", URL: "/a"}, {ID: id(1), Title: "b", URL: "/b"}}},
		{"zero id", "APPS", []SourceInput{{ID: id(0), Title: "a", URL: "/a"}}},
	} {
		if _, err := CheckSource(c.key, c.in); httpStatus(err) != 422 {
			t.Errorf("%s: %v, want 422", c.name, err)
		}
	}
	// Plain values of other keys pass, a colon included.
	if _, err := CheckSource("PROXYRULE", []SourceInput{{Title: "规则", URL: "DOMAIN-SUFFIX,example.org:443"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := CheckSource("LAND", []SourceInput{{Title: "落地", URL: "JavaScript:alert(1)"}}); httpStatus(err) != 422 {
		t.Fatalf("upper-case javascript: %v", err)
	}
	// An FAQ answer may span lines; links of the app or http(s) pass.
	if _, err := CheckSource("FAQ", []SourceInput{{Title: "怎么开通VIP？", URL: "进入「我的」\n点击「开通VIP」"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := CheckSource("APPS", []SourceInput{{Title: "应用", URL: "https://apps.example/x", Icon: "/media/covers/a.jpg", Desc: "好用"}}); err != nil {
		t.Fatal(err)
	}
}

func TestSetSourceKeepsIDsAndAudits(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := newTestService(d, Options{})
		ctx := context.Background()
		op := audit.Actor{UID: 1, IP: "127.0.0.1"}
		out, err := s.SetSource(ctx, op, "APPS", []SourceInput{
			{Title: "甲", URL: "https://a.example", Icon: "https://a.example/i.png", Desc: "第一个"},
			{Title: "乙", URL: "/mine/vipcenter"},
		})
		if err != nil || len(out) != 2 || out[0].Title != "甲" || out[0].Icon == "" || out[0].Desc != "第一个" || out[0].ID == 0 {
			t.Fatalf("set = %+v %v", out, err)
		}
		a, b := out[0].ID, out[1].ID
		if err := s.AppClick(ctx, a); err != nil {
			t.Fatal(err)
		}
		// Reorder, keep a (edited), drop b, add one.
		out, err = s.SetSource(ctx, op, "APPS", []SourceInput{{Title: "丙", URL: "/c"}, {ID: &a, Title: "甲2", URL: "https://a.example"}})
		if err != nil || len(out) != 2 || out[0].Title != "丙" || out[1].ID != a || out[1].Title != "甲2" {
			t.Fatalf("replace = %+v %v", out, err)
		}
		// b is gone; its id cannot be used again, nor another key's id.
		if _, err := s.SetSource(ctx, op, "APPS", []SourceInput{{ID: &b, Title: "乙", URL: "/b"}}); httpStatus(err) != 422 {
			t.Fatalf("deleted id: %v", err)
		}
		g, err := s.SetSource(ctx, op, "GROUP", []SourceInput{{Title: "群", URL: "https://t.example/g"}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.SetSource(ctx, op, "APPS", []SourceInput{{ID: &g[0].ID, Title: "偷", URL: "/x"}}); httpStatus(err) != 422 {
			t.Fatalf("another key's id: %v", err)
		}
		var n int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE action = 'source.set'`).Scan(&n); err != nil || n != 3 {
			t.Fatalf("%d audit rows, want 3 (refused calls write none)", n)
		}
		// The public configuration shows the lists.
		src, err := s.Source(ctx, "http://x.test")
		if err != nil {
			t.Fatal(err)
		}
		if apps := src["APPS"].([]SourceEntry); len(apps) != 2 || apps[1].ID != a {
			t.Fatalf("APPS = %+v", apps)
		}
		// The click on a, made before the edit, still counts to a.
		clicks, err := s.AdminAppClicks(ctx, 7)
		if err != nil || len(clicks) != 1 || clicks[0].ID != a || clicks[0].Title != "甲2" || clicks[0].Clicks != 1 {
			t.Fatalf("clicks = %+v %v", clicks, err)
		}
	})
}

func TestAppClicksAndCustomerService(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := newTestService(d, Options{})
		ctx := context.Background()
		m := httpx.NewAPIMux()
		h := NewHandler(s)
		m.Handle("POST /api/app/apps/click", httpx.Handler(h.AppClick))
		m.Handle("GET /api/app/im/whiteSign", httpx.Handler(h.CustomerService))
		do := func(method, url, body string) int {
			rec := httptest.NewRecorder()
			m.ServeHTTP(rec, apitest.Scenario{Method: method, URL: url, Body: body}.Request())
			return rec.Code
		}
		// No CUST entry with a link: a clear 404, not an empty link.
		if got := do("GET", "/api/app/im/whiteSign", ""); got != 404 {
			t.Fatalf("whiteSign with nothing configured = %d", got)
		}
		op := audit.Actor{UID: 1}
		if _, err := s.SetSource(ctx, op, "CUST", []SourceInput{{Title: "在线客服", URL: "https://chat.example/s/1"}}); err != nil {
			t.Fatal(err)
		}
		rec := httptest.NewRecorder()
		m.ServeHTTP(rec, apitest.Scenario{URL: "/api/app/im/whiteSign"}.Request())
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"url":"https://chat.example/s/1"`) {
			t.Fatalf("whiteSign = %d %s", rec.Code, rec.Body)
		}
		apps, _ := s.SetSource(ctx, op, "APPS", []SourceInput{{Title: "甲", URL: "/a"}})
		grp, _ := s.SetSource(ctx, op, "GROUP", []SourceInput{{Title: "群", URL: "/g"}})
		for _, c := range []struct {
			body string
			want int
		}{
			{`{}`, 422}, {`{"id":0}`, 422}, {`{"id":-3}`, 422}, {`{"id":"1"}`, 400}, {`{"id":9007199254740993}`, 422},
			{`{"id":424242}`, 404},
			{`{"id":` + strconv.FormatInt(grp[0].ID, 10) + `}`, 404}, // not an app
			{`{"id":` + strconv.FormatInt(apps[0].ID, 10) + `}`, 200},
			{`{"id":` + strconv.FormatInt(apps[0].ID, 10) + `}`, 200},
		} {
			if got := do("POST", "/api/app/apps/click", c.body); got != c.want {
				t.Errorf("click %s = %d, want %d", c.body, got, c.want)
			}
		}
		// The next day counts apart.
		s.now = func() time.Time { return testNow.Add(24 * time.Hour) }
		if err := s.AppClick(ctx, apps[0].ID); err != nil {
			t.Fatal(err)
		}
		clicks, err := s.AdminAppClicks(ctx, 7)
		if err != nil || len(clicks) != 2 || clicks[0].Clicks != 1 || clicks[1].Clicks != 2 || clicks[0].Day <= clicks[1].Day {
			t.Fatalf("clicks = %+v %v", clicks, err)
		}
		if one, _ := s.AdminAppClicks(ctx, 1); len(one) != 1 {
			t.Fatalf("today only = %+v", one)
		}
	})
}
