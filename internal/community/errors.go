package community

import (
	"errors"
	"net/http"
	"slices"
	"time"

	"prima/internal/catalog"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// How the community's errors answer (docs/architecture.md, "How errors
// answer"). A sentinel can read differently on different calls (a guest
// may not follow, may not comment): each group of calls has its table, and
// the groups share the tail that every call can meet.

var (
	// ErrMuted: the author is muted (403); the error is a *MutedError.
	ErrMuted = errors.New("community: muted")
	// ErrPostInput: a post breaks a publishing rule (422); the error is a
	// *PostInputError, whose Tip names the rule.
	ErrPostInput = errors.New("community: invalid post")
	// ErrReportReason: a report's reason is not one of the list (422).
	ErrReportReason = errors.New("community: reason must be one of spam, porn, abuse, illegal, other")

	// The operator's refusals (409): the thing is no longer in the state
	// the action decides from.
	ErrNotPending   = errors.New("community: post not pending")
	ErrPostGone     = errors.New("community: post removed or deleted")
	ErrNotPublished = errors.New("community: post not published")
	ErrCommentGone  = errors.New("community: comment removed")
	ErrReportDone   = errors.New("community: report resolved")
	// ErrNoReport: no such report (404).
	ErrNoReport = errors.New("community: no such report")
	// ErrModInput: an operator's input breaks a rule (422); the error's
	// Detail names the rule.
	ErrModInput = errors.New("community: invalid operator input")
	// ErrTopicTaken: another topic has the name, in any letter case (409).
	ErrTopicTaken = errors.New("community: topic name taken")
)

// modErr is sentinel with what the operator's developer tools show about
// this case (which post, in which state) as its text.
func modErr(sentinel error, msg string) error { return httpx.Refuse(sentinel, "", msg) }

// modInvalid is an operator's input that breaks a rule: tip for the
// operator, msg for developers.
func modInvalid(tip, msg string) error { return httpx.Refuse(ErrModInput, tip, msg) }

func (e *MutedError) Is(target error) bool { return target == ErrMuted }

// Detail names the end of the mute in China time, as the app shows it.
func (e *MutedError) Detail() (tip, msg string) {
	until := e.Until.In(time.FixedZone("CST", 8*3600)).Format("2006-01-02 15:04")
	return "你已被禁言至 " + until + "，暂时不能发布", "muted until " + e.Until.UTC().Format(time.RFC3339)
}

func (e *PostInputError) Is(target error) bool      { return target == ErrPostInput }
func (e *PostInputError) Detail() (tip, msg string) { return e.Tip, e.Msg }

// followErrs answers the follow calls and is the tail of every table.
var followErrs = httpx.ErrorMap{
	{Err: ErrNoUser, Status: http.StatusNotFound, Tip: "用户不存在", Msg: "no such user"},
	{Err: ErrSelf, Status: http.StatusUnprocessableEntity, Tip: "不能关注自己", Msg: "a user cannot follow themselves"},
	{Err: ErrGuest, Status: http.StatusForbidden, Tip: "注册登录后才能关注", Msg: "guests cannot follow: register first"},
	{Err: ErrBadCursor, Status: http.StatusUnprocessableEntity, Tip: "分页参数无效", Msg: "cursor is not one this server handed out"},
	{Err: ratelimit.ErrLimited, Status: http.StatusTooManyRequests, Tip: "操作过于频繁，请稍后再试", Msg: "too many follow calls"},
}

// feedErrs answers the feeds and topics.
var feedErrs = slices.Concat(httpx.ErrorMap{
	{Err: ErrNoTopic, Status: http.StatusNotFound, Tip: "话题不存在", Msg: "no such topic"},
	{Err: ErrNeedUser, Status: http.StatusUnauthorized, Tip: "登录后查看关注的动态", Msg: "the follow feed needs a token"},
	{Err: ErrGuest, Status: http.StatusForbidden, Tip: "注册登录后才能关注话题", Msg: "guests cannot follow topics: register first"},
}, followErrs)

// detailErrs answers a post's detail, likes and comments.
var detailErrs = slices.Concat(httpx.ErrorMap{
	{Err: ErrNoPost, Status: http.StatusNotFound, Tip: "帖子不存在或已删除", Msg: "no such post"},
	{Err: ErrNoComment, Status: http.StatusNotFound, Tip: "评论不存在或已删除", Msg: "no such comment"},
	{Err: ErrNotOpen, Status: http.StatusConflict, Tip: "帖子审核通过后才能点赞和评论", Msg: "the post is not published"},
	{Err: ErrGuest, Status: http.StatusForbidden, Tip: "注册登录后才能点赞和评论", Msg: "guests cannot like or comment: register first"},
	{Err: ErrTooDeep, Status: http.StatusUnprocessableEntity, Tip: "回复最多两层", Msg: "replies go two levels deep: parentID must be a first-level comment"},
	{Err: ErrNotParticipant, Status: http.StatusUnprocessableEntity, Tip: "只能回复这条评论下的用户", Msg: "replyToUID must be the parent comment's author or a replier under it (and needs a parentID)"},
	{Err: ErrCommentText, Status: http.StatusUnprocessableEntity, Tip: "评论内容需为1到500个字", Msg: "text must be 1 to 500 characters after trimming"},
	{Err: ErrCommentClient, Status: http.StatusUnprocessableEntity, Tip: "参数 clientID 过长", Msg: "clientID must be at most 64 characters"},
	{Err: ErrMuted, Status: http.StatusForbidden, Tip: "你已被禁言，解除前不能评论"},
	{Err: ratelimit.ErrLimited, Status: http.StatusTooManyRequests, Tip: "评论过于频繁，请稍后再试", Msg: "too many comments"},
}, followErrs)

// publishErrs answers publishing a post.
var publishErrs = slices.Concat(httpx.ErrorMap{
	{Err: ErrPostInput, Status: http.StatusUnprocessableEntity},
	{Err: ErrMuted, Status: http.StatusForbidden},
	{Err: ErrGuestPublish, Status: http.StatusForbidden, Tip: "注册登录后才能发布", Msg: "guests cannot publish: register first"},
	{Err: ErrClientIDReused, Status: http.StatusConflict, Tip: "这条内容已用同一编号发布过", Msg: "clientID already names another post of yours"},
	{Err: ErrPublishAsset, Status: http.StatusNotFound, Tip: "图片或视频不存在", Msg: "no such upload of yours"},
	{Err: ErrPublishTopic, Status: http.StatusNotFound, Tip: "话题不存在", Msg: "no such topic"},
	{Err: ErrPublishModule, Status: http.StatusNotFound, Tip: "分区不存在", Msg: "moduleID is not a community sub-module"},
	{Err: ratelimit.ErrLimited, Status: http.StatusTooManyRequests, Tip: "发布太频繁，请稍后再试", Msg: "at most 10 posts per 10 minutes"},
}, followErrs)

// reportErrs answers a user's report of a post or comment.
var reportErrs = httpx.ErrorMap{
	{Err: ErrReportReason, Status: http.StatusUnprocessableEntity, Tip: "请选择举报原因", Msg: "reason must be one of spam, porn, abuse, illegal, other"},
	{Err: ErrGuest, Status: http.StatusForbidden, Tip: "注册登录后才能举报", Msg: "guests cannot report: register first"},
	{Err: ErrNoPost, Status: http.StatusNotFound, Tip: "帖子不存在或已删除", Msg: "no such post"},
	{Err: ErrNoComment, Status: http.StatusNotFound, Tip: "评论不存在或已删除", Msg: "no such comment on this post"},
	{Err: ErrNoUser, Status: http.StatusUnauthorized, Tip: "请先登录", Msg: "the caller's user is gone"},
}

// modErrs answers the operator's community calls.
var modErrs = httpx.ErrorMap{
	{Err: ErrNoPost, Status: http.StatusNotFound, Tip: "帖子不存在"},
	{Err: ErrNotPending, Status: http.StatusConflict, Tip: "该帖子已审核或不在待审核状态"},
	{Err: ErrPostGone, Status: http.StatusConflict, Tip: "该帖子已被删除"},
	{Err: ErrNotPublished, Status: http.StatusConflict, Tip: "只有已发布的帖子可以置顶或加精"},
	{Err: ErrNoComment, Status: http.StatusNotFound, Tip: "评论不存在"},
	{Err: ErrCommentGone, Status: http.StatusConflict, Tip: "该评论已被删除"},
	{Err: ErrNoReport, Status: http.StatusNotFound, Tip: "举报不存在"},
	{Err: ErrReportDone, Status: http.StatusConflict, Tip: "该举报已处理"},
	{Err: ErrNoUser, Status: http.StatusNotFound, Tip: "用户不存在"},
	{Err: ErrModInput, Status: http.StatusUnprocessableEntity},
	{Err: ErrNoTopic, Status: http.StatusNotFound, Tip: "话题不存在"},
	{Err: ErrTopicTaken, Status: http.StatusConflict, Tip: "话题名称已存在", Msg: "a topic with this name exists"},
	{Err: catalog.ErrCoverNotFound, Status: http.StatusNotFound},
}
