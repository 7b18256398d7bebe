package support

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/media"
	"prima/internal/platform/audit"
	"prima/internal/platform/blob"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// fixture is a service on a fresh database with two users and their
// pictures: alice owns a ready picture, a failed one and a video; bob owns
// one ready picture.
type fixture struct {
	s                                  *Service
	d                                  *db.DB
	alice, bob                         int64
	aPic, aPic2, aFailed, aVideo, bPic int64
	op                                 audit.Actor
}

func newFixture(t *testing.T, d *db.DB) *fixture {
	t.Helper()
	ctx := context.Background()
	signer, err := blob.NewSigner("0123456789abcdef0123456789abcdef")
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{s: NewService(d, signer, nil, nil, media.AssetOn), d: d}
	f.s.now = func() time.Time { return time.Unix(1_800_000_000, 0) }
	user := func(name string) int64 {
		var id int64
		if err := d.QueryRow(ctx, `INSERT INTO users (name, created_at, updated_at) VALUES (?, 1, 1) RETURNING id`, name).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	asset := func(owner int64, kind, state string) int64 {
		var id int64
		if err := d.QueryRow(ctx, `INSERT INTO media_assets (owner_uid, kind, state, source_key, display_key, thumb_key, width, height, created_at, updated_at)
			VALUES (?, ?, ?, 'src', 'uploads/d.jpg', 'uploads/t.jpg', 800, 600, 1, 1) RETURNING id`, owner, kind, state).Scan(&id); err != nil {
			t.Fatal(err)
		}
		return id
	}
	f.alice, f.bob = user("alice"), user("bob")
	f.aPic, f.aPic2, f.aFailed, f.aVideo = asset(f.alice, "image", "ready"), asset(f.alice, "image", "ready"), asset(f.alice, "image", "failed"), asset(f.alice, "video", "ready")
	f.bPic = asset(f.bob, "image", "ready")
	f.op = audit.Actor{UID: user("ops"), IP: "127.0.0.1"}
	return f
}

func status(err error) int {
	var he *httpx.Error
	if errors.As(errs.Map(err), &he) {
		return he.Status
	}
	return 0
}

func count(t *testing.T, d *db.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := d.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestFeedbackRules(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		ctx := context.Background()
		cases := []struct {
			name string
			in   FeedbackInput
			want int
		}{
			{"too short", FeedbackInput{Content: " 短短 "}, 422},
			{"blank", FeedbackInput{Content: "   \n  "}, 422},
			{"too long", FeedbackInput{Content: strings.Repeat("长", MaxFeedback+1)}, 422},
			{"too many images", FeedbackInput{Content: "图片太多了吧", Images: []int64{f.aPic, f.aPic2, f.aPic, f.aPic2, f.aPic}}, 422},
			{"duplicate image", FeedbackInput{Content: "同一张图两次", Images: []int64{f.aPic, f.aPic}}, 422},
			{"another user's picture", FeedbackInput{Content: "用别人的图片", Images: []int64{f.bPic}}, 422},
			{"unknown picture", FeedbackInput{Content: "不存在的图片", Images: []int64{999999}}, 422},
			{"negative id", FeedbackInput{Content: "负数的图片", Images: []int64{-1}}, 422},
			{"a failed upload", FeedbackInput{Content: "失败的图片", Images: []int64{f.aFailed}}, 422},
			{"a video", FeedbackInput{Content: "视频不是图片", Images: []int64{f.aVideo}}, 422},
			{"contact on two lines", FeedbackInput{Content: "联系方式换行", Contact: "a\nb"}, 422},
			{"contact too long", FeedbackInput{Content: "联系方式太长", Contact: strings.Repeat("x", MaxContact+1)}, 422},
		}
		for _, c := range cases {
			if _, err := f.s.SendFeedback(ctx, f.alice, c.in); status(err) != c.want {
				t.Errorf("%s: %v, want %d", c.name, err, c.want)
			}
		}
		if n := count(t, d, `SELECT COUNT(*) FROM feedback`); n != 0 {
			t.Fatalf("refused feedback stored %d rows", n)
		}
		// Exactly the bounds pass, pictures keep their order.
		id, err := f.s.SendFeedback(ctx, f.alice, FeedbackInput{Content: "  五个字正好  ", Images: []int64{f.aPic2, f.aPic}, Contact: " tg@alice "})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.s.SendFeedback(ctx, f.alice, FeedbackInput{Content: strings.Repeat("满", MaxFeedback)}); err != nil {
			t.Fatal(err)
		}
		p, err := f.s.MyFeedback(ctx, f.alice, 1, 20)
		if err != nil {
			t.Fatal(err)
		}
		if p.Total != 2 || len(p.List) != 2 || p.List[1].ID != id {
			t.Fatalf("my feedback = %+v", p)
		}
		got := p.List[1]
		if got.Content != "五个字正好" || got.Contact != "tg@alice" || got.Status != FeedbackOpen || len(got.Images) != 2 ||
			got.Images[0].ID != f.aPic2 || got.Images[1].ID != f.aPic || !strings.Contains(got.Images[0].Thumb, "/media/s/") || got.UserID != 0 {
			t.Fatalf("feedback = %+v", got)
		}
		// Bob sees none of it.
		if p, _ := f.s.MyFeedback(ctx, f.bob, 1, 20); p.Total != 0 || len(p.List) != 0 {
			t.Fatalf("bob sees %+v", p)
		}
	})
}

func TestFeedbackRateLimit(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		f.s.Limiter = ratelimit.NewMemory()
		ctx := context.Background()
		for i := 0; i < FeedbackRate.N; i++ {
			if _, err := f.s.SendFeedback(ctx, f.alice, FeedbackInput{Content: "反馈内容足够长"}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := f.s.SendFeedback(ctx, f.alice, FeedbackInput{Content: "反馈内容足够长"}); status(err) != http.StatusTooManyRequests {
			t.Fatalf("over the rate: %v", err)
		}
		if _, err := f.s.SendFeedback(ctx, f.bob, FeedbackInput{Content: "别人不受影响"}); err != nil {
			t.Fatalf("bob limited by alice: %v", err)
		}
		if n := count(t, d, `SELECT COUNT(*) FROM feedback`); n != FeedbackRate.N+1 {
			t.Fatalf("%d rows", n)
		}
	})
}

func TestReplyWritesNoticeAndAudit(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		ctx := context.Background()
		id, err := f.s.SendFeedback(ctx, f.alice, FeedbackInput{Content: "视频加载很慢", Images: []int64{f.aPic}})
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"", "   ", strings.Repeat("回", MaxReply+1)} {
			if _, err := f.s.ReplyFeedback(ctx, f.op, id, bad); status(err) != 422 {
				t.Errorf("reply %q: %v", bad, err)
			}
		}
		if _, err := f.s.ReplyFeedback(ctx, f.op, 424242, "没有这条"); status(err) != 404 {
			t.Errorf("unknown id: %v", err)
		}
		if n := count(t, d, `SELECT COUNT(*) FROM notices`) + count(t, d, `SELECT COUNT(*) FROM audit_log`); n != 0 {
			t.Fatalf("refused replies wrote %d notices/audit rows", n)
		}
		got, err := f.s.ReplyFeedback(ctx, f.op, id, "已切换到更快的线路，请重试")
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != FeedbackAnswer || len(got.Replies) != 1 || got.Replies[0].Body != "已切换到更快的线路，请重试" || got.UserID != f.alice || len(got.Images) != 1 {
			t.Fatalf("replied = %+v", got)
		}
		var uid int64
		var kind, category, ref, body string
		if err := d.QueryRow(ctx, `SELECT user_id, kind, category, ref, body FROM notices`).Scan(&uid, &kind, &category, &ref, &body); err != nil {
			t.Fatal(err)
		}
		if uid != f.alice || kind != "feedback_reply" || category != "system" || ref != fmt.Sprint(id) || !strings.Contains(body, "更快") {
			t.Fatalf("notice %d %s %s %s %s", uid, kind, category, ref, body)
		}
		if n := count(t, d, `SELECT COUNT(*) FROM audit_log WHERE action = 'feedback.reply' AND actor_uid = ?`, f.op.UID); n != 1 {
			t.Fatalf("%d audit rows", n)
		}
		// A second reply is kept beside the first.
		if got, err = f.s.ReplyFeedback(ctx, f.op, id, "补充：已修复"); err != nil || len(got.Replies) != 2 {
			t.Fatalf("second reply: %+v %v", got, err)
		}
		p, _ := f.s.MyFeedback(ctx, f.alice, 1, 20)
		if len(p.List) != 1 || len(p.List[0].Replies) != 2 || p.List[0].Status != FeedbackAnswer {
			t.Fatalf("alice sees %+v", p)
		}
		if p, _ := f.s.AdminFeedback(ctx, 0, FeedbackOpen, 0, 20); len(p.List) != 0 {
			t.Fatalf("open = %+v", p)
		}
		if p, _ := f.s.AdminFeedback(ctx, f.alice, FeedbackAnswer, 0, 20); len(p.List) != 1 || p.List[0].UserID != f.alice {
			t.Fatalf("replied = %+v", p)
		}
	})
}

func TestSettledStateMachine(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		ctx := context.Background()
		good := SettledInput{Name: "阿狸工作室", Contact: "tg@ali", Intro: "专注原创短视频三年，每周更新。", Category: "shortvideo"}
		if st, err := f.s.MySettled(ctx, f.alice); err != nil || st.State != StateNone || st.Application != nil || len(st.Categories) == 0 {
			t.Fatalf("fresh = %+v %v", st, err)
		}
		for name, in := range map[string]SettledInput{
			"short name":    {Name: "阿", Contact: good.Contact, Intro: good.Intro, Category: good.Category},
			"short intro":   {Name: good.Name, Contact: good.Contact, Intro: "太短", Category: good.Category},
			"bad category":  {Name: good.Name, Contact: good.Contact, Intro: good.Intro, Category: "porn"},
			"no contact":    {Name: good.Name, Intro: good.Intro, Category: good.Category},
			"name newlines": {Name: "阿狸\n工作室", Contact: good.Contact, Intro: good.Intro, Category: good.Category},
		} {
			if _, err := f.s.Apply(ctx, f.alice, in); status(err) != 422 {
				t.Errorf("%s: %v", name, err)
			}
		}
		st, err := f.s.Apply(ctx, f.alice, good)
		if err != nil || st.State != StatePending || st.Application == nil || st.Application.Name != good.Name {
			t.Fatalf("apply = %+v %v", st, err)
		}
		if _, err := f.s.Apply(ctx, f.alice, good); status(err) != 409 {
			t.Fatalf("while pending: %v", err)
		}
		id := st.Application.ID
		if _, _, err := f.s.Decide(ctx, f.op, id, false, ""); status(err) != 422 {
			t.Fatalf("reject without reason: %v", err)
		}
		a, changed, err := f.s.Decide(ctx, f.op, id, false, "简介过于简单")
		if err != nil || !changed || a.Status != StateRejected || a.Reason != "简介过于简单" {
			t.Fatalf("reject = %+v %v %v", a, changed, err)
		}
		// Deciding again changes nothing and writes nothing.
		if a, changed, err := f.s.Decide(ctx, f.op, id, true, ""); err != nil || changed || a.Status != StateRejected {
			t.Fatalf("approve after reject = %+v %v %v", a, changed, err)
		}
		if _, _, err := f.s.Decide(ctx, f.op, 777777, true, ""); status(err) != 404 {
			t.Fatalf("unknown: %v", err)
		}
		if st, _ := f.s.MySettled(ctx, f.alice); st.State != StateRejected || st.Application.Reason != "简介过于简单" {
			t.Fatalf("after reject = %+v", st)
		}
		// Reapplying after a rejection is allowed; approval ends it.
		st, err = f.s.Apply(ctx, f.alice, good)
		if err != nil || st.State != StatePending || st.Application.ID == id {
			t.Fatalf("reapply = %+v %v", st, err)
		}
		if _, changed, err := f.s.Decide(ctx, f.op, st.Application.ID, true, ""); err != nil || !changed {
			t.Fatal(err)
		}
		if _, err := f.s.Apply(ctx, f.alice, good); status(err) != 409 {
			t.Fatalf("after approval: %v", err)
		}
		if n := count(t, d, `SELECT COUNT(*) FROM notices WHERE user_id = ? AND kind = 'settled' AND category = 'system'`, f.alice); n != 2 {
			t.Fatalf("%d settled notices, want 2", n)
		}
		if n := count(t, d, `SELECT COUNT(*) FROM audit_log WHERE action IN ('settled.approve', 'settled.reject')`); n != 2 {
			t.Fatalf("%d audit rows, want 2", n)
		}
		if p, _ := f.s.AdminApplications(ctx, StateRejected, 0, 20); len(p.List) != 1 || p.List[0].UserID != f.alice {
			t.Fatalf("rejected list = %+v", p)
		}
	})
}

func TestParallelApplicationsMakeOnePending(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newFixture(t, d)
		ctx := context.Background()
		in := SettledInput{Name: "并发测试", Contact: "13800000000", Intro: "同时提交八次，只能有一条待审核。", Category: "video"}
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = f.s.Apply(ctx, f.bob, in)
			}()
		}
		wg.Wait()
		ok := 0
		for _, err := range errs {
			switch {
			case err == nil:
				ok++
			case status(err) != 409:
				t.Errorf("unexpected %v", err)
			}
		}
		if ok != 1 {
			t.Fatalf("%d accepted, want 1", ok)
		}
		if n := count(t, d, `SELECT COUNT(*) FROM creator_applications WHERE user_id = ? AND status = 'pending'`, f.bob); n != 1 {
			t.Fatalf("%d pending rows", n)
		}
	})
}

// Input checks keep their words through the table: the field and the
// bound in the tip, 422.
func TestInputErrorsAnswerWithTheirWords(t *testing.T) {
	_, err := CheckFeedback(FeedbackInput{Content: "短"})
	e, ok := errs.Map(err).(*httpx.Error)
	if !ok || e.Status != http.StatusUnprocessableEntity || e.Tip != "反馈内容至少 5 个字" || e.Msg != "反馈内容 is at least 5 characters" || !errors.Is(err, ErrInput) {
		t.Errorf("short feedback: %+v", errs.Map(err))
	}
	e, ok = errs.Map(CheckAppStatus("x")).(*httpx.Error)
	if !ok || e.Status != http.StatusUnprocessableEntity || e.Tip != "参数 status 无效" || e.Msg != "status must be pending, approved or rejected" {
		t.Errorf("bad status: %+v", e)
	}
	e, ok = errs.Map(fmt.Errorf("tx: %w", ErrNotYourPicture)).(*httpx.Error)
	if !ok || e.Status != http.StatusUnprocessableEntity || e.Tip != "图片不存在或不是你上传的" {
		t.Errorf("another's picture: %+v", e)
	}
}
