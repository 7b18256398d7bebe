package app_test

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/redisx/redistest"
)

// getPage answers a public GET on s with its status, ETag and body.
func getPage(t *testing.T, s *apptest.Server, url string, hdr ...string) (int, string, string) {
	t.Helper()
	r := httptest.NewRequest("GET", url, nil)
	r.Header.Set("X-App-Client", "h5")
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	s.Handler.ServeHTTP(w, r)
	return w.Code, w.Header().Get("ETag"), w.Body.String()
}

// titles are the video titles of a moduleVideo answer.
func titles(t *testing.T, body string) []string {
	t.Helper()
	var e struct {
		Data struct {
			List []struct {
				Title string `json:"title"`
			} `json:"list"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(body), &e); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	out := []string{}
	for _, v := range e.Data.List {
		out = append(out, v.Title)
	}
	return out
}

// Two nodes on one database and one Redis, each with its page cache warm:
// an operator's edit through one node is what the other serves the moment
// the edit's request returns, for videos, their publishing and
// announcements; unchanged pages answer 304 to their ETag; a signed-in
// request gets the same bytes as an anonymous one.
func TestPageCacheAcrossNodes(t *testing.T) {
	var raw [6]byte
	_, _ = rand.Read(raw[:])
	nodes := apptest.Cluster(t, db.Postgres, 2, "-redis-url", redistest.URL(), "-redis-prefix", "prima_test_pc_"+hex.EncodeToString(raw[:])+":")
	a, b := nodes[0], nodes[1]
	op := a.Operator(t, "pc_content", httpx.RoleContent)
	call := func(s *apptest.Server, url, body string) json.RawMessage {
		t.Helper()
		return apitest.Scenario{Method: "POST", URL: url, Body: body, Token: op.Token, ExpectedStatus: 200}.Run(t, s.Handler).Envelope.Data
	}
	id := func(raw json.RawMessage) int64 {
		t.Helper()
		var v struct {
			ID int64 `json:"id"`
		}
		if err := json.Unmarshal(raw, &v); err != nil || v.ID == 0 {
			t.Fatalf("no id in %s", raw)
		}
		return v.ID
	}
	top := id(call(a, "/api/admin/modules", `{"name":"缓存","moduleType":0}`))
	sub := id(call(a, "/api/admin/modules", fmt.Sprintf(`{"name":"缓存子栏目","pid":%d}`, top)))
	video := id(call(a, "/api/admin/videos", fmt.Sprintf(`{"title":"旧标题","subModuleID":%d,"duration":60,"published":true}`, sub)))
	list := fmt.Sprintf("/api/app/vid/moduleVideo?moduleID=%d&subModuleID=%d&pageNumber=1&pageSize=20&sortType=0", top, sub)

	etags := map[*apptest.Server]string{}
	for _, s := range nodes {
		code, etag, body := getPage(t, s, list)
		if code != 200 || strings.Join(titles(t, body), ",") != "旧标题" || etag == "" {
			t.Fatalf("first listing: %d %q %s", code, etag, body)
		}
		if code, again, _ := getPage(t, s, list); code != 200 || again != etag {
			t.Fatalf("the same page twice: %d, ETag %q then %q", code, etag, again)
		}
		if code, _, body := getPage(t, s, list, "If-None-Match", etag); code != http.StatusNotModified || body != "" {
			t.Fatalf("If-None-Match of the current ETag: %d %q, want 304 and no body", code, body)
		}
		etags[s] = etag
	}
	if etags[a] != etags[b] {
		t.Fatalf("the two nodes name the same page differently: %s and %s", etags[a], etags[b])
	}

	// The edit goes through a; b answers it at once.
	call(a, "/api/admin/videos/update", fmt.Sprintf(`{"id":%d,"title":"新标题"}`, video))
	code, etag, body := getPage(t, b, list, "If-None-Match", etags[b])
	if code != 200 || strings.Join(titles(t, body), ",") != "新标题" || etag == etags[b] {
		t.Fatalf("node b after the edit on a: %d %q %s", code, etag, body)
	}
	// Unpublished through b: a no longer lists it.
	call(b, "/api/admin/videos/publish", fmt.Sprintf(`{"id":%d,"published":false}`, video))
	if _, _, body := getPage(t, a, list); len(titles(t, body)) != 0 {
		t.Fatalf("node a still lists the unpublished video: %s", body)
	}

	// Announcements: filled on a, created through b, shown by a.
	if _, _, body := getPage(t, a, "/api/app/modules/announce"); strings.Contains(body, "缓存公告") {
		t.Fatal("announcement before it exists")
	}
	call(b, "/api/admin/announcements", `{"title":"缓存公告","content":"内容"}`)
	if _, _, body := getPage(t, a, "/api/app/modules/announce"); !strings.Contains(body, "缓存公告") {
		t.Fatalf("node a does not show the announcement made through b: %s", body)
	}

	// Module names: renamed through a, b's module list shows the new name.
	mods := "/api/app/modules/list?moduleType=0"
	if _, _, body := getPage(t, b, mods); !strings.Contains(body, "缓存子栏目") {
		t.Fatalf("module list: %s", body)
	}
	call(a, "/api/admin/modules/update", fmt.Sprintf(`{"id":%d,"name":"改名了"}`, sub))
	if _, _, body := getPage(t, b, mods); !strings.Contains(body, "改名了") || strings.Contains(body, "缓存子栏目") {
		t.Fatalf("node b's module list after the rename on a: %s", body)
	}

	// Nothing personal: a signed-in guest gets the anonymous bytes.
	guest := apitest.GuestLogin(t, a.Handler, apitest.DevID(7))
	_, _, anon := getPage(t, a, mods)
	if _, _, signed := getPage(t, a, mods, "Authorization", "Bearer "+guest); signed != anon {
		t.Fatalf("a signed-in request got other bytes:\n%s\n%s", signed, anon)
	}
}
