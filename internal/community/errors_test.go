package community

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"prima/internal/catalog"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// Every group's limit answers 429 with its own tip and says when to come
// back: the limit's wait reaches WriteError through the table.
func TestLimitsSayWhenToComeBack(t *testing.T) {
	for _, c := range []struct {
		name string
		m    httpx.ErrorMap
		tip  string
	}{
		{"follow", followErrs, "操作过于频繁，请稍后再试"},
		{"feed", feedErrs, "操作过于频繁，请稍后再试"},
		{"detail", detailErrs, "评论过于频繁，请稍后再试"},
		{"publish", publishErrs, "发布太频繁，请稍后再试"},
	} {
		w := httptest.NewRecorder()
		err := fmt.Errorf("x: %w", &ratelimit.LimitedError{Key: "k", RetryAfter: 2500 * time.Millisecond})
		httpx.WriteError(w, httptest.NewRequest("POST", "/api/x", nil), c.m.Map(err))
		var env httpx.Envelope
		_ = json.Unmarshal(w.Body.Bytes(), &env)
		if w.Code != 429 || env.Tip != c.tip || w.Header().Get("Retry-After") != "3" {
			t.Errorf("%s: %d %q, Retry-After %q", c.name, w.Code, env.Tip, w.Header().Get("Retry-After"))
		}
	}
}

// A mute reads as the call it stops: a comment names no date, a post does
// (in China time); both tell the developer the end in UTC.
func TestMutedAnswers(t *testing.T) {
	m := &MutedError{Until: time.Date(2026, 5, 1, 16, 30, 0, 0, time.UTC)}
	e := detailErrs.Map(m).(*httpx.Error)
	if e.Status != 403 || e.Tip != "你已被禁言，解除前不能评论" || e.Msg != "muted until 2026-05-01T16:30:00Z" {
		t.Errorf("comment: %+v", e)
	}
	e = publishErrs.Map(m).(*httpx.Error)
	if e.Status != 403 || e.Tip != "你已被禁言至 2026-05-02 00:30，暂时不能发布" || e.Msg != "muted until 2026-05-01T16:30:00Z" {
		t.Errorf("post: %+v", e)
	}
}

// An operator's bad input and a missing cover answer 422 and 404 with the
// words of the case; a missing topic and a taken name with the table's.
func TestModErrsAnswerOperatorInput(t *testing.T) {
	for _, c := range []struct {
		err      error
		status   int
		tip, msg string
	}{
		{modInvalid("请填写原因", "reason is required"), 422, "请填写原因", "reason is required"},
		{httpx.Refuse(catalog.ErrCoverNotFound, "封面图片 5 不存在", "no picture 5"), 404, "封面图片 5 不存在", "no picture 5"},
		{modErr(ErrNoTopic, "no topic 4"), 404, "话题不存在", "no topic 4"},
		{ErrTopicTaken, 409, "话题名称已存在", "a topic with this name exists"},
		{modErr(ErrReportDone, "report 2 is resolved"), 409, "该举报已处理", "report 2 is resolved"},
	} {
		e, ok := modErrs.Map(fmt.Errorf("tx: %w", c.err)).(*httpx.Error)
		if !ok || e.Status != c.status || e.Tip != c.tip || e.Msg != c.msg {
			t.Errorf("%v: %+v", c.err, e)
		}
	}
}

// A post card spells its module id as the spec and every catalogue list do.
func TestPostSpellsModuleID(t *testing.T) {
	b, err := json.Marshal(Post{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"moduleID":`) {
		t.Errorf("Post JSON %s lacks moduleID", b)
	}
}
