package catalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"prima/internal/membership"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// newUser inserts a user with a VIP level valid for validFor (0: none).
func newUser(t *testing.T, d *db.DB, level int, validFor time.Duration) int64 {
	t.Helper()
	var id int64
	now := time.Now()
	var exp [3]int64 // by tier; only level's is set
	if level > 0 {
		exp[level] = now.Add(validFor).Unix()
	}
	err := d.QueryRow(context.Background(), "INSERT INTO users (vip_expire_at, svip_expire_at, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id",
		exp[1], exp[2], now.Unix(), now.Unix()).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func count(t *testing.T, d *db.DB, q string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := d.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// tick makes s's clock advance one second per reading, so rows written one
// after another get distinct, increasing times.
func tick(s *Service) {
	var mu sync.Mutex
	at := testNow
	s.now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		at = at.Add(time.Second)
		return at
	}
}

func TestLikeIsIdempotent(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		s := newTestService(d, Options{})
		u := newUser(t, d, 0, 0)
		vid := f.recVideos[3]
		start := count(t, d, "SELECT like_count FROM videos WHERE id = ?", vid)
		for i := range 2 {
			st, err := s.Like(ctx, u, vid, true)
			if err != nil {
				t.Fatal(err)
			}
			if !st.IsLike || st.LikeCount != start+1 {
				t.Fatalf("like %d: %+v, want count %d", i, st, start+1)
			}
		}
		if n := count(t, d, "SELECT COUNT(*) FROM video_likes WHERE user_id = ? AND video_id = ?", u, vid); n != 1 {
			t.Fatalf("%d like rows after a double like", n)
		}
		for i := range 2 {
			st, err := s.Like(ctx, u, vid, false)
			if err != nil {
				t.Fatal(err)
			}
			if st.IsLike || st.LikeCount != start {
				t.Fatalf("unlike %d: %+v, want count %d", i, st, start)
			}
		}
		if n := count(t, d, "SELECT COUNT(*) FROM video_likes WHERE video_id = ?", vid); n != 0 {
			t.Fatalf("%d like rows after unlike", n)
		}
		// Collect is idempotent the same way.
		for range 2 {
			if err := s.Collect(ctx, u, vid, true); err != nil {
				t.Fatal(err)
			}
		}
		if n := count(t, d, "SELECT COUNT(*) FROM video_collects WHERE user_id = ?", u); n != 1 {
			t.Fatalf("%d collect rows", n)
		}
		for range 2 {
			if err := s.Collect(ctx, u, vid, false); err != nil {
				t.Fatal(err)
			}
		}
		if n := count(t, d, "SELECT COUNT(*) FROM video_collects WHERE user_id = ?", u); n != 0 {
			t.Fatalf("%d collect rows after uncollect", n)
		}
	})
}

func TestInteractionsRefuseMissingAndDraftVideos(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		s := newTestService(d, Options{})
		u := newUser(t, d, 0, 0)
		draftPlays := count(t, d, "SELECT play_count FROM videos WHERE id = ?", f.draft)
		for _, id := range []int64{f.draft, 999999} {
			if _, err := s.Like(ctx, u, id, true); !errors.Is(err, db.ErrNotFound) {
				t.Fatalf("like %d: %v", id, err)
			}
			if err := s.Collect(ctx, u, id, true); !errors.Is(err, db.ErrNotFound) {
				t.Fatalf("collect %d: %v", id, err)
			}
			if _, err := s.Play(ctx, u, id); !errors.Is(err, db.ErrNotFound) {
				t.Fatalf("play %d: %v", id, err)
			}
			if _, err := s.Report(ctx, u, id, "other"); !errors.Is(err, db.ErrNotFound) {
				t.Fatalf("report %d: %v", id, err)
			}
			if _, err := s.Detail(ctx, u, id); !errors.Is(err, db.ErrNotFound) {
				t.Fatalf("detail %d: %v", id, err)
			}
		}
		for _, table := range []string{"video_likes", "video_collects", "video_history", "video_reports"} {
			if n := count(t, d, "SELECT COUNT(*) FROM "+table); n != 0 {
				t.Fatalf("%s has %d rows", table, n)
			}
		}
		if n := count(t, d, "SELECT play_count FROM videos WHERE id = ?", f.draft); n != draftPlays {
			t.Fatalf("a draft's play count moved: %d -> %d", draftPlays, n)
		}
	})
}

// Many users like and unlike one video at once, and one user double-clicks
// like from many goroutines: the counter must end equal to its start plus
// the rows, and the double-click must leave one row.
func TestLikeRace(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		s := newTestService(d, Options{})
		vid := f.recVideos[7]
		start := count(t, d, "SELECT like_count FROM videos WHERE id = ?", vid)
		users := make([]int64, 8)
		for i := range users {
			users[i] = newUser(t, d, 0, 0)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 1000)
		for i, u := range users {
			for g := range 3 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for k := range 8 {
						// Users alternate; goroutines of a user disagree, so
						// likes and unlikes of the same pair interleave.
						on := (k+g+i)%2 == 0
						if _, err := s.Like(ctx, u, vid, on); err != nil {
							errs <- err
							return
						}
					}
				}()
			}
		}
		// The double click: 10 likes of one pair at once.
		clicker := newUser(t, d, 0, 0)
		for range 10 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := s.Like(ctx, clicker, vid, true); err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		rows := count(t, d, "SELECT COUNT(*) FROM video_likes WHERE video_id = ?", vid)
		got := count(t, d, "SELECT like_count FROM videos WHERE id = ?", vid)
		if got != start+rows {
			t.Fatalf("like_count %d, want %d + %d rows", got, start, rows)
		}
		if n := count(t, d, "SELECT COUNT(*) FROM video_likes WHERE user_id = ?", clicker); n != 1 {
			t.Fatalf("a double click made %d rows", n)
		}
	})
}

func TestPlayAndHistory(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		s := newTestService(d, Options{})
		tick(s)
		s.historyLimit = 3
		u, other := newUser(t, d, 0, 0), newUser(t, d, 0, 0)
		v := f.recVideos
		before := count(t, d, "SELECT play_count FROM videos WHERE id = ?", v[0])
		n, err := s.Play(ctx, 0, v[0]) // anonymous: counted, no history
		if err != nil || n != before+1 {
			t.Fatalf("anonymous play: %d, %v", n, err)
		}
		if c := count(t, d, "SELECT COUNT(*) FROM video_history"); c != 0 {
			t.Fatalf("anonymous play wrote %d history rows", c)
		}
		for _, id := range []int64{v[0], v[1], v[0], v[2]} {
			if _, err := s.Play(ctx, u, id); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Play(ctx, other, v[5]); err != nil {
			t.Fatal(err)
		}
		if c := count(t, d, "SELECT play_count FROM videos WHERE id = ?", v[0]); c != before+3 {
			t.Fatalf("play_count %d, want %d", c, before+3)
		}
		page, err := s.Mine(ctx, MineHistory, u, 1, 10)
		if err != nil {
			t.Fatal(err)
		}
		if got := mineIDs(page.List); !slices.Equal(got, []int64{v[2], v[0], v[1]}) {
			t.Fatalf("history %v, want %v (one row per video, newest play first)", got, []int64{v[2], v[0], v[1]})
		}
		// Past the limit the oldest row goes.
		if _, err := s.Play(ctx, u, v[3]); err != nil {
			t.Fatal(err)
		}
		page, _ = s.Mine(ctx, MineHistory, u, 1, 10)
		if got := mineIDs(page.List); !slices.Equal(got, []int64{v[3], v[2], v[0]}) {
			t.Fatalf("history after trim %v", got)
		}
		if c := count(t, d, "SELECT COUNT(*) FROM video_history WHERE user_id = ?", other); c != 1 {
			t.Fatalf("another user's history changed: %d rows", c)
		}
	})
}

func mineIDs(vs []MineVideo) []int64 {
	out := make([]int64, len(vs))
	for i, v := range vs {
		out[i] = v.ID
	}
	return out
}

func TestReports(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		s := newTestService(d, Options{})
		tick(s)
		u, other := newUser(t, d, 0, 0), newUser(t, d, 0, 0)
		if _, err := s.Report(ctx, u, f.recVideos[0], "spam!"); !errors.Is(err, ErrBadReason) {
			t.Fatalf("bad reason: %v", err)
		}
		added, err := s.Report(ctx, u, f.recVideos[0], "vulgar")
		if err != nil || !added {
			t.Fatalf("first report: %v %v", added, err)
		}
		added, err = s.Report(ctx, u, f.recVideos[0], "other")
		if err != nil || added {
			t.Fatalf("second report: %v %v", added, err)
		}
		if _, err := s.Report(ctx, u, f.recVideos[1], "broken"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Report(ctx, other, f.recVideos[2], "broken"); err != nil {
			t.Fatal(err)
		}
		var reason string
		if err := d.QueryRow(ctx, "SELECT reason FROM video_reports WHERE user_id = ? AND video_id = ?", u, f.recVideos[0]).Scan(&reason); err != nil || reason != "vulgar" {
			t.Fatalf("reason %q %v: the first report's reason stays", reason, err)
		}
		got, err := s.ReportedVideos(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, []int64{f.recVideos[1], f.recVideos[0]}) {
			t.Fatalf("reported %v", got)
		}
		none, err := s.ReportedVideos(ctx, newUser(t, d, 0, 0))
		if err != nil || none == nil || len(none) != 0 {
			t.Fatalf("a user without reports: %#v %v", none, err)
		}
	})
}

func TestMineLists(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		s := newTestService(d, Options{})
		tick(s)
		u, other := newUser(t, d, 0, 0), newUser(t, d, 0, 0)
		for _, id := range f.recVideos[:7] {
			if _, err := s.Like(ctx, u, id, true); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.Like(ctx, other, f.recVideos[10], true); err != nil {
			t.Fatal(err)
		}
		if err := s.Collect(ctx, other, f.recVideos[11], true); err != nil {
			t.Fatal(err)
		}
		p1, err := s.Mine(ctx, MineLikes, u, 1, 3)
		if err != nil {
			t.Fatal(err)
		}
		want := []int64{f.recVideos[6], f.recVideos[5], f.recVideos[4]}
		if !slices.Equal(mineIDs(p1.List), want) || p1.Total != 7 || !p1.HasMore {
			t.Fatalf("page 1 %v total %d more %v, want %v", mineIDs(p1.List), p1.Total, p1.HasMore, want)
		}
		if len(p1.List[0].Tags) == 0 && len(p1.List[1].Tags) == 0 && len(p1.List[2].Tags) == 0 {
			t.Fatal("no tags attached")
		}
		// A like arrives mid-scroll: page 2 continues after page 1's last
		// row instead of repeating it.
		if _, err := s.Like(ctx, u, f.recVideos[20], true); err != nil {
			t.Fatal(err)
		}
		p2, err := s.Mine(ctx, MineLikes, u, 2, 3)
		if err != nil {
			t.Fatal(err)
		}
		if got := mineIDs(p2.List); !slices.Equal(got, []int64{f.recVideos[3], f.recVideos[2], f.recVideos[1]}) {
			t.Fatalf("page 2 %v", got)
		}
		// Unpublishing hides a liked video from the list.
		if _, err := d.Exec(ctx, "UPDATE videos SET published = 0 WHERE id = ?", f.recVideos[20]); err != nil {
			t.Fatal(err)
		}
		all, err := s.Mine(ctx, MineLikes, u, 1, 50)
		if err != nil {
			t.Fatal(err)
		}
		if all.Total != 7 || len(all.List) != 7 || all.HasMore || slices.Contains(mineIDs(all.List), f.recVideos[20]) || slices.Contains(mineIDs(all.List), f.recVideos[10]) {
			t.Fatalf("all likes %v total %d", mineIDs(all.List), all.Total)
		}
		// Another user's favourites are not the caller's.
		col, err := s.Mine(ctx, MineCollect, u, 1, 10)
		if err != nil || len(col.List) != 0 || col.Total != 0 {
			t.Fatalf("collect list %v %v", mineIDs(col.List), err)
		}
		col, _ = s.Mine(ctx, MineCollect, other, 1, 10)
		if !slices.Equal(mineIDs(col.List), []int64{f.recVideos[11]}) {
			t.Fatalf("other's collect list %v", mineIDs(col.List))
		}
	})
}

// recordingMedia is a PlaybackSource that remembers what it was asked.
type recordingMedia struct {
	got  []membership.Access
	none bool // no playback: too short for a preview
}

func (m *recordingMedia) Playback(_ context.Context, v Video, a membership.Access) (*Playback, error) {
	m.got = append(m.got, a)
	if m.none {
		return nil, nil
	}
	p := &Playback{URL: fmt.Sprintf("/media/s/x/videos/%d/preview.m3u8", v.ID), Preview: !a.Allowed}
	if !a.Allowed {
		p.PreviewMs = 4000
	}
	return p, nil
}

func TestDetail(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		s := newTestService(d, Options{})
		u := newUser(t, d, 0, 0)
		vip := newUser(t, d, 1, time.Hour)
		// rec-00: level 0, no coins; rec-01: level 1, 10 coins (gold);
		// rec-04: level 1, no coins (VIP); rec-02: level 2 (super VIP).
		free, gold, vipVideo, svipVideo := f.recVideos[0], f.recVideos[1], f.recVideos[4], f.recVideos[2]

		d0, err := s.Detail(ctx, 0, free)
		if err != nil {
			t.Fatal(err)
		}
		if !d0.Access.Allowed || d0.Access.Reason != membership.ReasonFree || d0.Paywall != nil || d0.Playback != nil || d0.IsLike {
			t.Fatalf("free detail %+v", d0)
		}
		if d0.Title != "rec-00" || len(d0.Tags) != 3 {
			t.Fatalf("video fields %+v", d0.Video)
		}
		if len(d0.Related) == 0 || len(d0.Related) > RelatedSize {
			t.Fatalf("%d related", len(d0.Related))
		}
		for _, r := range d0.Related {
			if r.ID == free || r.ID == f.draft {
				t.Fatalf("related holds %d (itself or a draft)", r.ID)
			}
		}

		if _, err := s.Like(ctx, u, vipVideo, true); err != nil {
			t.Fatal(err)
		}
		if err := s.Collect(ctx, u, vipVideo, true); err != nil {
			t.Fatal(err)
		}
		dv, err := s.Detail(ctx, u, vipVideo)
		if err != nil {
			t.Fatal(err)
		}
		if dv.Access.Allowed || dv.Paywall == nil || dv.Paywall.Paywall != (Paywall{Reason: "need_vip", NeedVipLevel: 1, Tip: "开通VIP会员即可观看完整视频"}) {
			t.Fatalf("vip video for a plain user: %+v %+v", dv.Access, dv.Paywall)
		}
		if !dv.IsLike || !dv.IsCollect {
			t.Fatalf("like state %v %v", dv.IsLike, dv.IsCollect)
		}
		if dv, _ := s.Detail(ctx, vip, vipVideo); !dv.Access.Allowed || dv.Paywall != nil || dv.IsLike {
			t.Fatalf("vip video for a VIP (who liked nothing): %+v", dv)
		}
		if dv, _ := s.Detail(ctx, vip, svipVideo); dv.Paywall == nil || dv.Paywall.Reason != "need_svip" || dv.Paywall.NeedVipLevel != 2 {
			t.Fatalf("super VIP video for a VIP: %+v", dv.Paywall)
		}
		if dv, _ := s.Detail(ctx, vip, gold); dv.Paywall == nil || dv.Paywall.Paywall != (Paywall{Reason: "need_coins", Coins: 10, Tip: "支付10金币即可观看完整视频"}) {
			t.Fatalf("gold video: %+v", dv.Paywall)
		}
		if dv, _ := s.Detail(ctx, 0, vipVideo); dv.Paywall == nil || dv.Paywall.Reason != "login" {
			t.Fatalf("vip video for nobody: %+v", dv.Paywall)
		}

		// The media seam gets the decision, so it can hand out the preview only.
		m := &recordingMedia{}
		s.Media = m
		dg, err := s.Detail(ctx, u, gold)
		if err != nil {
			t.Fatal(err)
		}
		if dg.Playback == nil || !dg.Playback.Preview || len(m.got) != 1 || m.got[0].Allowed {
			t.Fatalf("playback %+v, asked %+v", dg.Playback, m.got)
		}
		// The paywall says how long the preview plays, or that there is none.
		if dg.Paywall == nil || dg.Paywall.PreviewMs != 4000 || dg.Playback.PreviewMs != 4000 {
			t.Fatalf("paywall %+v, playback %+v", dg.Paywall, dg.Playback)
		}
		m.none = true
		if dn, err := s.Detail(ctx, u, gold); err != nil || dn.Playback != nil || dn.Paywall == nil || dn.Paywall.PreviewMs != 0 {
			t.Fatalf("no preview: %+v %+v %v", dn.Paywall, dn.Playback, err)
		}
	})
}

// A small section fills its related videos with videos sharing a tag.
func TestRelatedFallsBackToTags(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		s := newTestService(d, Options{})
		var hot int64
		if err := d.QueryRow(ctx, "SELECT id FROM videos WHERE sub_module_id = ? ORDER BY id LIMIT 1", f.hot).Scan(&hot); err != nil {
			t.Fatal(err)
		}
		if err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error { return TagVideo(ctx, tx, hot, f.tags[2]) }); err != nil {
			t.Fatal(err)
		}
		dt, err := s.Detail(ctx, 0, hot)
		if err != nil {
			t.Fatal(err)
		}
		if len(dt.Related) != RelatedSize {
			t.Fatalf("%d related, want %d", len(dt.Related), RelatedSize)
		}
		if dt.Related[0].SubModuleID != f.hot || dt.Related[1].SubModuleID == f.hot {
			t.Fatalf("the section's one other video first, then tagged ones: %+v", dt.Related[:2])
		}
		for _, r := range dt.Related[1:] {
			if !slices.Contains(r.Tags, "独家") {
				t.Fatalf("related %d shares no tag: %v", r.ID, r.Tags)
			}
		}
	})
}

// Parallel plays of one user (several tabs, a fast swiper) all count, and
// the history keeps one row per video and never more than the limit.
func TestPlayRace(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		s := newTestService(d, Options{})
		s.historyLimit = 5
		u := newUser(t, d, 0, 0)
		before := count(t, d, "SELECT SUM(play_count) FROM videos")
		var wg sync.WaitGroup
		errs := make(chan error, 100)
		for g := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range 6 {
					if _, err := s.Play(ctx, u, f.recVideos[(g+k)%9]); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if n := count(t, d, "SELECT SUM(play_count) FROM videos"); n != before+36 {
			t.Fatalf("%d plays counted, want 36", n-before)
		}
		if n := count(t, d, "SELECT COUNT(*) FROM video_history WHERE user_id = ?", u); n != 5 {
			t.Fatalf("%d history rows, want the limit 5", n)
		}
	})
}

// The detail names the user whose upload a video plays, with whether the
// caller follows them; the platform's own catalogue (an operator's upload,
// or no media) names nobody.
func TestDetailNamesTheUploader(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		s := newTestService(d, Options{})
		s.Follows = followsTable{d} // the community's, which the app wires in
		uploader, viewer := newUser(t, d, 0, 0), newUser(t, d, 0, 0)
		if _, err := d.Exec(ctx, `UPDATE users SET name = '阿猫', portrait = '/media/p/1.jpg' WHERE id = ?`, uploader); err != nil {
			t.Fatal(err)
		}
		var asset int64
		if err := d.QueryRow(ctx, `INSERT INTO media_assets (owner_uid, kind, state, source_key, created_at, updated_at) VALUES (?, 'video', 'ready', 'src/1', 1, 1) RETURNING id`, uploader).Scan(&asset); err != nil {
			t.Fatal(err)
		}
		vid, bare := f.recVideos[0], f.recVideos[3]
		if _, err := d.Exec(ctx, `UPDATE videos SET media_id = ? WHERE id = ?`, asset, vid); err != nil {
			t.Fatal(err)
		}
		uploaderAs := func(caller, id int64) *Uploader {
			t.Helper()
			dt, err := s.Detail(ctx, caller, id)
			if err != nil {
				t.Fatal(err)
			}
			return dt.Uploader
		}
		want := Uploader{UID: uploader, Name: "阿猫", Portrait: "/media/p/1.jpg"}
		for _, caller := range []int64{0, viewer, uploader} {
			if got := uploaderAs(caller, vid); got == nil || *got != want {
				t.Fatalf("as %d: %+v", caller, got)
			}
		}
		if _, err := d.Exec(ctx, `INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, 1)`, viewer, uploader); err != nil {
			t.Fatal(err)
		}
		want.IsFollow = true
		if got := uploaderAs(viewer, vid); got == nil || *got != want {
			t.Fatalf("a follower sees %+v", got)
		}
		if got := uploaderAs(0, vid); got == nil || got.IsFollow {
			t.Fatalf("nobody signed in sees %+v", got)
		}
		if got := uploaderAs(viewer, bare); got != nil {
			t.Fatalf("a video without media has an uploader: %+v", got)
		}
		if _, err := d.Exec(ctx, `UPDATE users SET role = 'operator' WHERE id = ?`, uploader); err != nil {
			t.Fatal(err)
		}
		if got := uploaderAs(viewer, vid); got != nil {
			t.Fatalf("an operator's upload has an uploader: %+v", got)
		}
	})
}

// followsTable reads the follows table as the community service does.
type followsTable struct{ d *db.DB }

func (f followsTable) IsFollowing(ctx context.Context, follower, followee int64) (bool, error) {
	var n int
	err := f.d.QueryRow(ctx, `SELECT COUNT(*) FROM follows WHERE follower_id = ? AND followee_id = ?`, follower, followee).Scan(&n)
	return n > 0, err
}
