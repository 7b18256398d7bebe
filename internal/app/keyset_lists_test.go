package app_test

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"prima/internal/app/apptest"
)

// Issue 20 §1: the operators' lists of posts, comments, post reports,
// message reports, feedback and creator applications page by keyset. Each
// answers nextCursor (no total, no pageNumber) and refuses a cursor it did
// not give with 422; the review queue walks by cursor through every
// pending post once, oldest first.
func TestAdminListsByCursor(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		o := newOps(t, s)
		_, uid := register(t, s, "member_k")
		var want []int64
		for range 5 {
			want = append(want, modPost(t, s, uid, "pending", 0))
		}
		modPost(t, s, uid, "published", 0)
		for _, path := range []string{"/api/admin/community/posts", "/api/admin/community/comments", "/api/admin/community/reports",
			"/api/admin/message/reports", "/api/admin/feedback", "/api/admin/settled"} {
			out := string(o.call(t, o.op, "GET", path+"?pageSize=1", "", 200))
			if !strings.Contains(out, `"nextCursor":`) || strings.Contains(out, `"total"`) || strings.Contains(out, `"pageNumber"`) {
				t.Errorf("%s answers %s", path, out)
			}
			for _, bad := range []string{"bogus", "k", "k1.2.3", "v1", "k-1", "kA"} {
				o.call(t, o.op, "GET", path+"?cursor="+url.QueryEscape(bad), "", 422, "参数 cursor 无效，请从第一页重新加载")
			}
		}
		var got []int64
		cursor := ""
		for range 10 {
			page := decode[struct {
				List []struct {
					ID    int64  `json:"id"`
					State string `json:"state"`
				} `json:"list"`
				HasMore    bool    `json:"hasMore"`
				NextCursor *string `json:"nextCursor"`
			}](t, o.call(t, o.op, "GET", "/api/admin/community/posts?state=pending&pageSize=2&cursor="+url.QueryEscape(cursor), "", 200))
			for _, p := range page.List {
				if p.State != "pending" {
					t.Fatalf("post %d is %s in the queue", p.ID, p.State)
				}
				got = append(got, p.ID)
			}
			if page.NextCursor == nil {
				break
			}
			cursor = *page.NextCursor
		}
		if !slices.Equal(got, want) {
			t.Fatalf("the queue by cursor %v, want %v", got, want)
		}
	})
}
