package community

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
	"prima/internal/platform/realtime"
)

// modStatus is the HTTP status an error answers (200 for nil).
func modStatus(err error) int {
	if err == nil {
		return 200
	}
	var he *httpx.Error
	if errors.As(modErrs.Map(err), &he) {
		return he.Status
	}
	return 500
}

func modNotices(t *testing.T, d *db.DB, uid int64, kind string) int64 {
	return scalar(t, d, `SELECT COUNT(*) FROM notices WHERE user_id = ? AND kind = ? AND category = 'system'`, uid, kind)
}

func modAudits(t *testing.T, d *db.DB, action string) int64 {
	return scalar(t, d, `SELECT COUNT(*) FROM audit_log WHERE action = ?`, action)
}

func postState(t *testing.T, d *db.DB, id int64) (state, reason string) {
	t.Helper()
	if err := d.QueryRow(context.Background(), `SELECT state, reason FROM posts WHERE id = ?`, id).Scan(&state, &reason); err != nil {
		t.Fatal(err)
	}
	return state, reason
}

// Review: approve publishes (published_at now) with a notice, reject needs
// a reason and tells it; deciding twice, or deciding a post that is not
// pending, is 409 and changes nothing.
func TestReviewPosts(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, c := newTest(t, d)
		op := audit.Actor{UID: user(t, d, "operator", true)}
		author := user(t, d, "author", true)
		a := insertPostRow(t, d, author, KindPicture, StatePending, "", "第一篇帖子的正文", 0, 0)
		b := insertPostRow(t, d, author, KindArticle, StatePending, "第二篇", "<p>x</p>", 0, 0)
		pub := insertPostRow(t, d, author, KindPicture, StatePublished, "", "已发布", 0, 0)

		p, err := s.ReviewPost(ctx, op, a, true, "")
		if err != nil || p.State != StatePublished || p.PublishedAt != c.now().Unix() {
			t.Fatalf("approve: %+v %v", p, err)
		}
		if _, err := s.ReviewPost(ctx, op, a, false, "too late"); modStatus(err) != 409 {
			t.Fatalf("reject after approve: %v", err)
		}
		if _, err := s.ReviewPost(ctx, op, a, true, ""); modStatus(err) != 409 {
			t.Fatalf("approve twice: %v", err)
		}
		if st, _ := postState(t, d, a); st != StatePublished {
			t.Fatalf("state %s after a second decision", st)
		}
		if _, err := s.ReviewPost(ctx, op, b, false, "   "); modStatus(err) != 422 {
			t.Fatalf("reject without a reason: %v", err)
		}
		if _, err := s.ReviewPost(ctx, op, b, false, strings.Repeat("长", ModReasonMax+1)); modStatus(err) != 422 {
			t.Fatalf("reject with a long reason: %v", err)
		}
		if st, _ := postState(t, d, b); st != StatePending {
			t.Fatalf("refused reject left %s", st)
		}
		if p, err = s.ReviewPost(ctx, op, b, false, " 含有广告 "); err != nil || p.State != StateRejected || p.Reason != "含有广告" {
			t.Fatalf("reject: %+v %v", p, err)
		}
		if _, err := s.ReviewPost(ctx, op, pub, true, ""); modStatus(err) != 409 {
			t.Fatalf("review of a published post: %v", err)
		}
		if _, err := s.ReviewPost(ctx, op, 987654, true, ""); modStatus(err) != 404 {
			t.Fatalf("review of nothing: %v", err)
		}
		if n := modNotices(t, d, author, "post_review"); n != 2 {
			t.Fatalf("%d review notices, want 2", n)
		}
		var body, ref string
		if err := d.QueryRow(ctx, `SELECT body, ref FROM notices WHERE user_id = ? AND title = '你的帖子未通过审核'`, author).Scan(&body, &ref); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(body, "含有广告") || !strings.Contains(body, "第二篇") || ref != fmt.Sprint(b) {
			t.Fatalf("reject notice %q ref %q", body, ref)
		}
		if modAudits(t, d, "post.approve") != 1 || modAudits(t, d, "post.reject") != 1 {
			t.Fatal("audit rows")
		}
		// The operator's list shows state and reason; pending is the queue.
		insertPostRow(t, d, author, KindPicture, StatePending, "", "待审", 0, 0)
		page, err := s.AdminPosts(ctx, op.UID, AdminPostQuery{State: StateRejected, PageSize: 20})
		if err != nil || len(page.List) != 1 || page.NextCursor != nil || page.List[0].ID != b || page.List[0].Reason != "含有广告" || page.List[0].Body != "<p>x</p>" {
			t.Fatalf("rejected list %+v %v", page, err)
		}
		page, _ = s.AdminPosts(ctx, op.UID, AdminPostQuery{UID: author, PageSize: 2})
		if len(page.List) != 2 || !page.HasMore || page.NextCursor == nil {
			t.Fatalf("author's list %+v", page)
		}
	})
}

// Parallel approvals and rejections of one pending post: exactly one
// wins, one notice, one audit row.
func TestReviewRace(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTest(t, d)
		op := audit.Actor{UID: user(t, d, "operator", true)}
		author := user(t, d, "author", true)
		id := insertPostRow(t, d, author, KindPicture, StatePending, "", "race", 0, 0)
		var wg sync.WaitGroup
		codes := make([]int, 12)
		for i := range codes {
			wg.Go(func() {
				_, err := s.ReviewPost(ctx, op, id, i%2 == 0, "no")
				codes[i] = modStatus(err)
			})
		}
		wg.Wait()
		ok := 0
		for _, c := range codes {
			switch c {
			case 200:
				ok++
			case 409:
			default:
				t.Fatalf("codes %v", codes)
			}
		}
		if ok != 1 {
			t.Fatalf("%d decisions won (%v)", ok, codes)
		}
		if n := modNotices(t, d, author, "post_review"); n != 1 {
			t.Fatalf("%d notices", n)
		}
		if n := modAudits(t, d, "post.approve") + modAudits(t, d, "post.reject"); n != 1 {
			t.Fatalf("%d audit rows", n)
		}
	})
}

// Removing a post or a comment: a reason, a notice, the reports closed,
// the counters right; twice is 409.
func TestRemovePostAndComment(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTest(t, d)
		op := audit.Actor{UID: user(t, d, "operator", true)}
		author, other := user(t, d, "author", true), user(t, d, "other", true)
		id := insertPostRow(t, d, author, KindPicture, StatePublished, "", "post", 0, 0)
		// One top-level comment with a reply, and one more top-level: 3 comments.
		var c1, r1, c2 int64
		ins := func(parent, uid int64, replies int64) int64 {
			var cid int64
			if err := d.QueryRow(ctx, `INSERT INTO comments (post_id, parent_id, author_id, body, state, reply_count, created_at)
				VALUES (?, ?, ?, '评论内容', 'published', ?, 1) RETURNING id`, id, parent, uid, replies).Scan(&cid); err != nil {
				t.Fatal(err)
			}
			return cid
		}
		c1 = ins(0, other, 1)
		r1 = ins(c1, other, 0)
		c2 = ins(0, other, 0)
		d.Exec(ctx, `UPDATE posts SET comment_count = 3 WHERE id = ?`, id)
		d.Exec(ctx, `INSERT INTO post_reports (reporter_id, post_id, comment_id, reason, created_at) VALUES (?, ?, ?, 'abuse', 1)`, author, id, r1)

		if err := s.RemoveComment(ctx, op, r1, ""); modStatus(err) != 422 {
			t.Fatalf("remove without a reason: %v", err)
		}
		if err := s.RemoveComment(ctx, op, r1, "辱骂"); err != nil {
			t.Fatal(err)
		}
		if err := s.RemoveComment(ctx, op, r1, "辱骂"); modStatus(err) != 409 {
			t.Fatalf("remove twice: %v", err)
		}
		if err := s.RemoveComment(ctx, op, 987654, "x"); modStatus(err) != 404 {
			t.Fatalf("remove nothing: %v", err)
		}
		if n := scalar(t, d, `SELECT comment_count FROM posts WHERE id = ?`, id); n != 2 {
			t.Fatalf("comment_count %d, want 2", n)
		}
		if n := scalar(t, d, `SELECT reply_count FROM comments WHERE id = ?`, c1); n != 0 {
			t.Fatalf("reply_count %d, want 0", n)
		}
		if n := scalar(t, d, `SELECT COUNT(*) FROM post_reports WHERE state = 'open'`); n != 0 {
			t.Fatalf("%d reports open after the removal", n)
		}
		if n := modNotices(t, d, other, "comment_removed"); n != 1 {
			t.Fatalf("%d comment notices", n)
		}
		// Counters never go below 0, whatever they held.
		d.Exec(ctx, `UPDATE posts SET comment_count = 0 WHERE id = ?`, id)
		if err := s.RemoveComment(ctx, op, c2, "spam"); err != nil {
			t.Fatal(err)
		}
		if n := scalar(t, d, `SELECT comment_count FROM posts WHERE id = ?`, id); n != 0 {
			t.Fatalf("comment_count %d, want 0", n)
		}
		cs, err := s.AdminComments(ctx, id, 0, 20)
		if err != nil || len(cs.List) != 3 || cs.List[0].ID != c2 || cs.List[0].State != "removed" || cs.List[0].Text != "评论内容" || cs.List[0].Author.Name != "other" {
			t.Fatalf("comments %+v %v", cs, err)
		}

		p, err := s.RemovePost(ctx, op, id, "违规内容")
		if err != nil || p.State != StateRemoved || p.Reason != "违规内容" {
			t.Fatalf("remove post: %+v %v", p, err)
		}
		if _, err := s.RemovePost(ctx, op, id, "again"); modStatus(err) != 409 {
			t.Fatalf("remove twice: %v", err)
		}
		del := insertPostRow(t, d, author, KindPicture, StateDeleted, "", "deleted", 0, 0)
		if _, err := s.RemovePost(ctx, op, del, "x"); modStatus(err) != 409 {
			t.Fatalf("remove a deleted post: %v", err)
		}
		if n := modNotices(t, d, author, "post_removed"); n != 1 || modAudits(t, d, "post.remove") != 1 || modAudits(t, d, "comment.remove") != 2 {
			t.Fatalf("%d notices or audit rows wrong", n)
		}
	})
}

// Pin and feature: published posts only, idempotent, audited once per change.
func TestPinAndFeature(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, c := newTest(t, d)
		op := audit.Actor{UID: user(t, d, "operator", true)}
		author := user(t, d, "author", true)
		id := insertPostRow(t, d, author, KindPicture, StatePublished, "", "p", 0, 0)
		pending := insertPostRow(t, d, author, KindPicture, StatePending, "", "p", 0, 0)
		for i := 0; i < 2; i++ {
			p, err := s.PinPost(ctx, op, id, true)
			if err != nil || !p.Pinned {
				t.Fatalf("pin: %+v %v", p, err)
			}
			if p, err = s.FeaturePost(ctx, op, id, true); err != nil || !p.Featured {
				t.Fatalf("feature: %+v %v", p, err)
			}
		}
		if n := scalar(t, d, `SELECT pinned_at FROM posts WHERE id = ?`, id); n != c.now().Unix() {
			t.Fatalf("pinned_at %d", n)
		}
		if modAudits(t, d, "post.pin") != 1 || modAudits(t, d, "post.feature") != 1 {
			t.Fatal("a repeated pin or feature was audited")
		}
		if p, err := s.PinPost(ctx, op, id, false); err != nil || p.Pinned {
			t.Fatalf("unpin: %+v %v", p, err)
		}
		if _, err := s.PinPost(ctx, op, pending, true); modStatus(err) != 409 {
			t.Fatalf("pin a pending post: %v", err)
		}
		if _, err := s.FeaturePost(ctx, op, 987654, true); modStatus(err) != 404 {
			t.Fatalf("feature nothing: %v", err)
		}
	})
}

// Reports: registered users only, on what they may see, one per target;
// the queue shows text and reporter; resolving closes the target's reports.
func TestReports(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTest(t, d)
		op := audit.Actor{UID: user(t, d, "operator", true)}
		author, r1, r2 := user(t, d, "author", true), user(t, d, "reporter1", true), user(t, d, "reporter2", true)
		guest := user(t, d, "游客", false)
		id := insertPostRow(t, d, author, KindPicture, StatePublished, "", "举报我吧", 0, 0)
		hidden := insertPostRow(t, d, author, KindPicture, StatePending, "", "pending", 0, 0)
		otherPost := insertPostRow(t, d, author, KindPicture, StatePublished, "", "other", 0, 0)
		var cid int64
		d.QueryRow(ctx, `INSERT INTO comments (post_id, author_id, body, state, created_at) VALUES (?, ?, '坏评论', 'published', 1) RETURNING id`, id, r2).Scan(&cid)

		for _, c := range []struct {
			name string
			uid  int64
			in   ReportInput
			want int
		}{
			{"guest", guest, ReportInput{PostID: id, Reason: "spam"}, 403},
			{"bad reason", r1, ReportInput{PostID: id, Reason: "boring"}, 422},
			{"hidden post", r1, ReportInput{PostID: hidden, Reason: "spam"}, 404},
			{"missing post", r1, ReportInput{PostID: 987654, Reason: "spam"}, 404},
			{"comment of another post", r1, ReportInput{PostID: otherPost, CommentID: cid, Reason: "spam"}, 404},
			{"missing comment", r1, ReportInput{PostID: id, CommentID: 987654, Reason: "spam"}, 404},
		} {
			if _, err := s.Report(ctx, c.uid, c.in); modStatus(reportErrs.Map(err)) != c.want {
				t.Errorf("%s: %v, want %d", c.name, err, c.want)
			}
		}
		if n := scalar(t, d, `SELECT COUNT(*) FROM post_reports`); n != 0 {
			t.Fatalf("refused reports wrote %d rows", n)
		}
		for i := 0; i < 3; i++ {
			added, err := s.Report(ctx, r1, ReportInput{PostID: id, Reason: "spam"})
			if err != nil || added != (i == 0) {
				t.Fatalf("report %d: %v %v", i, added, err)
			}
		}
		s.Report(ctx, r2, ReportInput{PostID: id, Reason: "porn"})
		s.Report(ctx, r1, ReportInput{PostID: id, CommentID: cid, Reason: "abuse"})
		// The author may see their pending post, so may report it (harmless).
		if _, err := s.Report(ctx, author, ReportInput{PostID: hidden, Reason: "other"}); err != nil {
			t.Fatal(err)
		}
		page, err := s.AdminReports(ctx, "open", 0, 20)
		if err != nil || len(page.List) != 4 {
			t.Fatalf("queue %+v %v", page, err)
		}
		first := page.List[0]
		if first.Reporter.UID != r1 || first.Text != "举报我吧" || first.TargetAuthor.UID != author || first.OpenReports != 2 || first.Reason != "spam" {
			t.Fatalf("first report %+v", first)
		}
		cr := page.List[2]
		if cr.CommentID != cid || cr.Text != "坏评论" || cr.TargetAuthor.UID != r2 || cr.OpenReports != 1 {
			t.Fatalf("comment report %+v", cr)
		}
		n, err := s.ResolveReport(ctx, op, first.ID)
		if err != nil || n != 2 {
			t.Fatalf("resolve: %d %v", n, err)
		}
		if _, err := s.ResolveReport(ctx, op, first.ID); modStatus(err) != 409 {
			t.Fatalf("resolve twice: %v", err)
		} else if e := modErrs.Map(err).(*httpx.Error); e.Tip != "该举报已处理" || e.Msg != fmt.Sprintf("report %d is resolved", first.ID) {
			// The operator's tools show which report, as before the table.
			t.Fatalf("resolve twice: %q %q", e.Tip, e.Msg)
		}
		if _, err := s.ResolveReport(ctx, op, page.List[1].ID); modStatus(err) != 409 {
			t.Fatalf("resolve a report closed with its target: %v", err)
		}
		if _, err := s.ResolveReport(ctx, op, 987654); modStatus(err) != 404 {
			t.Fatalf("resolve nothing: %v", err)
		}
		if page, _ = s.AdminReports(ctx, "open", 0, 20); len(page.List) != 2 {
			t.Fatalf("%d open after resolving", len(page.List))
		}
		if page, _ = s.AdminReports(ctx, "resolved", 0, 20); len(page.List) != 2 || modAudits(t, d, "report.resolve") != 1 {
			t.Fatalf("%d resolved", len(page.List))
		}
	})
}

// Mutes: the muted user is refused by checkMuted until the mute ends or
// is lifted; each change tells them; bad input changes nothing.
func TestMuteUser(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, c := newTest(t, d)
		op := audit.Actor{UID: user(t, d, "operator", true)}
		u := user(t, d, "noisy", true)
		for _, bad := range []struct {
			uid, minutes int64
			reason       string
			want         int
		}{{u, -1, "x", 422}, {u, MaxMuteMinute + 1, "x", 422}, {u, 60, " ", 422}, {987654, 60, "x", 404}} {
			if _, err := s.MuteUser(ctx, op, bad.uid, bad.minutes, bad.reason); modStatus(err) != bad.want {
				t.Errorf("mute %+v: %v", bad, err)
			}
		}
		// Lifting a mute nobody has changes nothing.
		if _, err := s.MuteUser(ctx, op, u, 0, ""); err != nil {
			t.Fatal(err)
		}
		if scalar(t, d, `SELECT COUNT(*) FROM community_mutes`)+scalar(t, d, `SELECT COUNT(*) FROM notices`)+scalar(t, d, `SELECT COUNT(*) FROM audit_log`) != 0 {
			t.Fatal("refused mutes wrote rows")
		}
		m, err := s.MuteUser(ctx, op, u, 60, "刷屏")
		if err != nil || m.MutedUntil != c.now().Add(time.Hour).Unix() {
			t.Fatalf("mute: %+v %v", m, err)
		}
		var me *MutedError
		if err := checkMuted(ctx, d, u, c.now()); !errors.As(err, &me) {
			t.Fatalf("muted user passes: %v", err)
		}
		// A second mute replaces the first.
		if m, _ = s.MuteUser(ctx, op, u, 10, "刷屏"); m.MutedUntil != c.now().Add(10*time.Minute).Unix() {
			t.Fatalf("re-mute %+v", m)
		}
		if _, err := s.MuteUser(ctx, op, u, 0, ""); err != nil {
			t.Fatal(err)
		}
		if err := checkMuted(ctx, d, u, c.now()); err != nil {
			t.Fatalf("unmuted user refused: %v", err)
		}
		if n := modNotices(t, d, u, "muted"); n != 3 {
			t.Fatalf("%d mute notices, want 3", n)
		}
		if modAudits(t, d, "user.mute") != 2 || modAudits(t, d, "user.unmute") != 1 {
			t.Fatal("mute audit rows")
		}
	})
}

func TestSettings(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, c := newTest(t, d)
		op := audit.Actor{UID: user(t, d, "operator", true)}
		on, rules := true, "  友善交流\n禁止广告  "
		if _, err := s.SaveSettings(ctx, op, nil, nil); modStatus(err) != 422 {
			t.Fatalf("empty save: %v", err)
		}
		long := strings.Repeat("规", RulesMax+1)
		if _, err := s.SaveSettings(ctx, op, &on, &long); modStatus(err) != 422 {
			t.Fatalf("long rules: %v", err)
		}
		st, err := s.SaveSettings(ctx, op, &on, &rules)
		if err != nil || !st.Review || st.Rules != "友善交流\n禁止广告" || st.UpdatedAt != c.now().Unix() {
			t.Fatalf("save: %+v %v", st, err)
		}
		s.SaveSettings(ctx, op, &on, nil)
		if st, _ = s.AdminSettings(ctx); !st.Review || st.Rules == "" || modAudits(t, d, "community.settings") != 1 {
			t.Fatalf("settings %+v", st)
		}
	})
}

// Topics: names 2-20 characters and unique; hidden topics leave users'
// cards.
func TestTopicAdmin(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTest(t, d)
		op := audit.Actor{UID: user(t, d, "operator", true)}
		str := func(s string) *string { return &s }
		num := func(n int64) *int64 { return &n }
		for _, bad := range []TopicInput{{}, {Name: str("猫")}, {Name: str(strings.Repeat("猫", 21))}, {Name: str("#猫咪")},
			{Name: str("猫咪"), Sort: num(-1)}, {Name: str("猫咪"), Status: num(2)}, {Name: str("猫咪"), Description: str(strings.Repeat("x", 201))}} {
			if _, err := s.CreateTopic(ctx, op, bad); modStatus(err) != 422 {
				t.Errorf("create %+v: %v", bad, err)
			}
		}
		// Without the media pipeline a cover cannot be published.
		if _, err := s.CreateTopic(ctx, op, TopicInput{Name: str("猫咪"), CoverID: num(5)}); modStatus(err) != 422 {
			t.Errorf("cover without media: %v", err)
		}
		tp, err := s.CreateTopic(ctx, op, TopicInput{Name: str(" 猫咪 "), Description: str("喵"), Sort: num(5)})
		if err != nil || tp.Name != "猫咪" || tp.Status != 1 || tp.Sort != 5 {
			t.Fatalf("create: %+v %v", tp, err)
		}
		if _, err := s.CreateTopic(ctx, op, TopicInput{Name: str("猫咪")}); modStatus(err) != 409 {
			t.Fatalf("duplicate: %v", err)
		}
		cats, err := s.CreateTopic(ctx, op, TopicInput{Name: str("Cats")})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateTopic(ctx, op, TopicInput{Name: str("cats")}); modStatus(err) != 409 {
			t.Fatalf("a name in another case: %v", err)
		}
		if _, err := s.UpdateTopic(ctx, op, cats.ID, TopicInput{Name: str("CATS")}); err != nil {
			t.Fatalf("renaming a topic to its own name in capitals: %v", err)
		}
		dog, _ := s.CreateTopic(ctx, op, TopicInput{Name: str("狗狗")})
		if _, err := s.UpdateTopic(ctx, op, dog.ID, TopicInput{Name: str("猫咪")}); modStatus(err) != 409 {
			t.Fatalf("rename onto another: %v", err)
		}
		if _, err := s.UpdateTopic(ctx, op, 987654, TopicInput{Sort: num(1)}); modStatus(err) != 404 {
			t.Fatalf("update nothing: %v", err)
		}
		author := user(t, d, "author", true)
		pid := insertPostRow(t, d, author, KindPicture, StatePublished, "", "p", 0, 0)
		d.Exec(ctx, `UPDATE posts SET topic_id = ? WHERE id = ?`, tp.ID, pid)
		r, _ := loadPost(ctx, d, pid)
		if cards, _ := s.cards(ctx, 0, []postRow{r}, false); cards[0].Topic == nil {
			t.Fatal("a shown topic is missing from the card")
		}
		if tp, err = s.UpdateTopic(ctx, op, tp.ID, TopicInput{Status: num(0), Description: str("")}); err != nil || tp.Status != 0 || tp.PostCount != 1 {
			t.Fatalf("hide: %+v %v", tp, err)
		}
		if cards, _ := s.cards(ctx, 0, []postRow{r}, false); cards[0].Topic != nil {
			t.Fatal("a hidden topic shows on a card")
		}
		s.UpdateTopic(ctx, op, tp.ID, TopicInput{Status: num(0)})
		if modAudits(t, d, "topic.update") != 2 || modAudits(t, d, "topic.create") != 3 {
			t.Fatal("topic audit rows")
		}
		page, err := s.AdminTopics(ctx, 1, 20)
		if err != nil || page.Total != 3 || page.List[0].ID != tp.ID {
			t.Fatalf("topics %+v %v", page, err)
		}
	})
}

// Parallel removals of one comment (and parallel resolves of one report):
// one wins, the counters drop once, one notice, one audit row.
func TestRemoveCommentRace(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTest(t, d)
		op := audit.Actor{UID: user(t, d, "operator", true)}
		author, other := user(t, d, "author", true), user(t, d, "other", true)
		id := insertPostRow(t, d, author, KindPicture, StatePublished, "", "post", 0, 0)
		var parent, reply int64
		d.QueryRow(ctx, `INSERT INTO comments (post_id, author_id, body, state, reply_count, created_at) VALUES (?, ?, 'top', 'published', 1, 1) RETURNING id`, id, other).Scan(&parent)
		d.QueryRow(ctx, `INSERT INTO comments (post_id, parent_id, author_id, body, state, created_at) VALUES (?, ?, ?, 'reply', 'published', 1) RETURNING id`, id, parent, other).Scan(&reply)
		d.Exec(ctx, `UPDATE posts SET comment_count = 2 WHERE id = ?`, id)
		var rep int64
		d.QueryRow(ctx, `INSERT INTO post_reports (reporter_id, post_id, reason, created_at) VALUES (?, ?, 'spam', 1) RETURNING id`, other, id).Scan(&rep)

		var wg sync.WaitGroup
		codes := make([]int, 10)
		resolves := make([]int, 10)
		for i := range codes {
			wg.Go(func() { codes[i] = modStatus(s.RemoveComment(ctx, op, reply, "spam")) })
			wg.Go(func() {
				_, err := s.ResolveReport(ctx, op, rep)
				resolves[i] = modStatus(err)
			})
		}
		wg.Wait()
		for name, cs := range map[string][]int{"remove": codes, "resolve": resolves} {
			ok := 0
			for _, c := range cs {
				if c == 200 {
					ok++
				} else if c != 409 {
					t.Fatalf("%s codes %v", name, cs)
				}
			}
			if ok != 1 {
				t.Fatalf("%s: %d won (%v)", name, ok, cs)
			}
		}
		if n := scalar(t, d, `SELECT comment_count FROM posts WHERE id = ?`, id); n != 1 {
			t.Fatalf("comment_count %d, want 1", n)
		}
		if n := scalar(t, d, `SELECT reply_count FROM comments WHERE id = ?`, parent); n != 0 {
			t.Fatalf("reply_count %d, want 0", n)
		}
		if modNotices(t, d, other, "comment_removed") != 1 || modAudits(t, d, "comment.remove") != 1 || modAudits(t, d, "report.resolve") != 1 {
			t.Fatal("notices or audit rows repeated")
		}
	})
}

// modEvents records published events.
type modEvents struct {
	mu  sync.Mutex
	got []string
}

func (m *modEvents) Publish(_ context.Context, topic string, ev realtime.Event) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.got = append(m.got, topic+" "+ev.Type+" "+string(ev.Data))
	return nil
}

// A decision tells the author's open apps after the commit: post.changed
// with the new state, and notice.new for the notice; a refused one tells
// nobody.
func TestModerationEvents(t *testing.T) {
	d := dbtest.Open(t, db.SQLite)
	ctx := context.Background()
	s, _ := newTest(t, d)
	ev := &modEvents{}
	s.Events = ev
	op := audit.Actor{UID: user(t, d, "operator", true)}
	author := user(t, d, "author", true)
	id := insertPostRow(t, d, author, KindPicture, StatePending, "", "p", 0, 0)
	if _, err := s.ReviewPost(ctx, op, id, false, ""); modStatus(err) != 422 {
		t.Fatal(err)
	}
	if len(ev.got) != 0 {
		t.Fatalf("a refused review published %v", ev.got)
	}
	if _, err := s.ReviewPost(ctx, op, id, true, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := s.RemovePost(ctx, op, id, "违规"); err != nil {
		t.Fatal(err)
	}
	topic := fmt.Sprintf("user:%d ", author)
	want := []string{
		topic + `notice.new {"category":"system","kind":"post_review"}`,
		topic + fmt.Sprintf(`post.changed {"id":%d,"state":"published"}`, id),
		topic + `notice.new {"category":"system","kind":"post_removed"}`,
		topic + fmt.Sprintf(`post.changed {"id":%d,"state":"removed"}`, id),
	}
	if fmt.Sprint(ev.got) != fmt.Sprint(want) {
		t.Fatalf("events\n%v\nwant\n%v", ev.got, want)
	}
}
