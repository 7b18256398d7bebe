package catalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
)

func TestUserVideosListsOnlyTheirPublishedPlayableVideos(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		s := newTestService(d, Options{})
		up, other, empty := newUser(t, d, 0, 0), newUser(t, d, 0, 0), newUser(t, d, 0, 0)
		asset := func(owner int64, state string) int64 {
			t.Helper()
			var id int64
			if err := d.QueryRow(ctx, `INSERT INTO media_assets (owner_uid, kind, state, source_key, created_at, updated_at) VALUES (?, 'video', ?, 'src/x', 1, 1) RETURNING id`, owner, state).Scan(&id); err != nil {
				t.Fatal(err)
			}
			return id
		}
		play := func(vid, media int64, published int, created int64) {
			t.Helper()
			if _, err := d.Exec(ctx, `UPDATE videos SET media_id = ?, published = ?, created_at = ? WHERE id = ?`, media, published, created, vid); err != nil {
				t.Fatal(err)
			}
		}
		v := f.recVideos
		play(v[0], asset(up, "ready"), 1, 100)      // listed
		play(v[1], asset(up, "ready"), 1, 200)      // listed, newer
		play(v[2], asset(up, "ready"), 0, 300)      // a draft: not listed
		play(v[3], asset(up, "processing"), 1, 400) // not playable yet: not listed
		play(v[4], asset(other, "ready"), 1, 500)   // someone else's
		asset(up, "ready")                          // an upload no video plays
		page, err := s.UserVideos(ctx, up, 1, 1)
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != 2 || !page.HasMore || len(page.List) != 1 || page.List[0].ID != v[1] {
			t.Fatalf("page 1: %+v", page)
		}
		page, err = s.UserVideos(ctx, up, 2, 1)
		if err != nil || page.HasMore || !slices.Equal(videoIDs(page.List), []int64{v[0]}) {
			t.Fatalf("page 2: %+v %v", page, err)
		}
		if page, err := s.UserVideos(ctx, empty, 1, 18); err != nil || page.Total != 0 || page.List == nil {
			t.Fatalf("no videos: %+v %v", page, err)
		}
		if _, err := s.UserVideos(ctx, 1<<40, 1, 18); !errors.Is(err, ErrNoUser) {
			t.Fatalf("missing user: %v", err)
		}
		m := httpx.NewAPIMux()
		m.Handle("GET /api/app/user/videos", httpx.Handler(NewHandler(s).UserVideos))
		run(t, m, []scenario{
			{name: "public page", path: fmt.Sprintf("/api/app/user/videos?uid=%d&pageSize=18", up), wantStatus: 200,
				check: checkPage(2, 2, false, func(t *testing.T, p httpx.Page[Video]) {
					if !slices.Equal(videoIDs(p.List), []int64{v[1], v[0]}) {
						t.Fatalf("ids %v", videoIDs(p.List))
					}
				})},
			{name: "none", path: fmt.Sprintf("/api/app/user/videos?uid=%d", empty), wantStatus: 200, check: checkPage(0, 0, false)},
			{name: "no uid", path: "/api/app/user/videos", wantStatus: 422, wantTip: "缺少参数 uid"},
			{name: "bad uid", path: "/api/app/user/videos?uid=-3", wantStatus: 422},
			{name: "huge page", path: fmt.Sprintf("/api/app/user/videos?uid=%d&pageSize=51", up), wantStatus: 422},
			{name: "missing user", path: "/api/app/user/videos?uid=99999999", wantStatus: 404, wantTip: "用户不存在"},
		})
		if _, err := d.Exec(ctx, `UPDATE users SET role = 'operator' WHERE id = ?`, up); err != nil {
			t.Fatal(err)
		}
		if _, err := s.UserVideos(ctx, up, 1, 18); !errors.Is(err, ErrNoUser) {
			t.Fatalf("an operator's uploads are the platform's: %v", err)
		}
	})
}

// A user whose uploads fill several IN lists pages and counts likes
// exactly as one whose uploads fit one: the lists' pages are merged newest
// first, their counts added.
func TestUploadsAcrossINLists(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		s := newTestService(d, Options{})
		up, fan1, fan2 := newUser(t, d, 0, 0), newUser(t, d, 0, 0), newUser(t, d, 0, 0)
		v := f.recVideos
		for i, created := range []int64{300, 100, 500, 200, 400} {
			var asset int64
			if err := d.QueryRow(ctx, `INSERT INTO media_assets (owner_uid, kind, state, source_key, created_at, updated_at) VALUES (?, 'video', 'ready', 'src/x', 1, 1) RETURNING id`, up).Scan(&asset); err != nil {
				t.Fatal(err)
			}
			if _, err := d.Exec(ctx, `UPDATE videos SET media_id = ?, published = 1, created_at = ? WHERE id = ?`, asset, created, v[i]); err != nil {
				t.Fatal(err)
			}
		}
		for _, l := range [][2]int64{{fan1, v[0]}, {fan2, v[0]}, {fan1, v[4]}, {up, v[2]}} { // the uploader's own like does not count
			if _, err := d.Exec(ctx, `INSERT INTO video_likes (user_id, video_id, created_at) VALUES (?, ?, 1)`, l[0], l[1]); err != nil {
				t.Fatal(err)
			}
		}
		defer func(n int) { inChunk = n }(inChunk)
		for _, n := range []int{1000, 2, 1} {
			inChunk = n
			var got [][]int64
			for num := 1; num <= 3; num++ {
				page, err := s.UserVideos(ctx, up, num, 2)
				if err != nil || page.Total != 5 || page.HasMore != (num < 3) {
					t.Fatalf("lists of %d, page %d: %+v %v", n, num, page, err)
				}
				got = append(got, videoIDs(page.List))
			}
			if want := [][]int64{{v[2], v[4]}, {v[0], v[3]}, {v[1]}}; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("lists of %d: pages %v, want %v", n, got, want)
			}
			if likes, err := s.LikesReceived(ctx, up); err != nil || likes != 3 {
				t.Fatalf("lists of %d: %d likes received, %v; want 3", n, likes, err)
			}
		}
	})
}
