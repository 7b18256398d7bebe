package rewards

import (
	"net/http"

	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
	"prima/internal/wallet"
)

// How the rewards' errors answer (docs/architecture.md, "How errors answer").

// welfareErrs answers the welfare calls: points, check-in, tasks, prizes.
var welfareErrs = httpx.ErrorMap{
	{Err: ErrShortPoints, Status: http.StatusConflict, Tip: "积分不足"},
	{Err: ErrCheckedIn, Status: http.StatusConflict, Tip: "今日已签到"},
	{Err: ErrNoTask, Status: http.StatusNotFound, Tip: "任务不存在"},
	{Err: ErrTaskNotDone, Status: http.StatusConflict, Tip: "任务尚未完成"},
	{Err: ErrTaskClaimed, Status: http.StatusConflict, Tip: "奖励已领取"},
	{Err: ErrNoPrize, Status: http.StatusNotFound, Tip: "奖品不存在或已下架"},
	{Err: ErrOutOfStock, Status: http.StatusConflict, Tip: "奖品已兑完"},
	{Err: ErrStockMoved, Status: http.StatusConflict, Tip: "库存已被兑换改变，请刷新后再改"},
	{Err: ErrPrizeLimit, Status: http.StatusConflict, Tip: "已达兑换上限"},
	{Err: ErrExchangeBusy, Status: http.StatusConflict, Tip: "兑换处理中，请稍后查看"},
	{Err: wallet.ErrKeyReused, Status: http.StatusConflict, Tip: "请求编号已被使用"},
	{Err: ErrBadConfig, Status: http.StatusUnprocessableEntity, Tip: "配置无效"},
}

// codeErrs answers the redemption codes and their batches.
var codeErrs = httpx.ErrorMap{
	{Err: ErrCodeInvalid, Status: http.StatusNotFound, Tip: "兑换码无效", Msg: "no such code"},
	{Err: ErrCodeExpired, Status: http.StatusGone, Tip: "兑换码已过期", Msg: "code expired"},
	{Err: ErrCodeUsedUp, Status: http.StatusConflict, Tip: "兑换码已被使用", Msg: "code used up"},
	{Err: ErrCodeRedeemed, Status: http.StatusConflict, Tip: "你已兑换过该兑换码", Msg: "redeemed by this user before"},
	{Err: ratelimit.ErrLimited, Status: http.StatusTooManyRequests, Tip: "尝试次数过多，请稍后再试", Msg: "too many failed codes"},
	{Err: ErrCodeLimiterDown, Status: http.StatusServiceUnavailable, Tip: "兑换暂不可用，请稍后再试", Msg: "code limiter unavailable"},
	{Err: ErrBatchNotFound, Status: http.StatusNotFound, Tip: "批次不存在", Msg: "no such batch"},
	{Err: ErrBatchDisabled, Status: http.StatusConflict, Tip: "批次已停用", Msg: "batch already disabled"},
	{Err: ErrBadBatch, Status: http.StatusUnprocessableEntity, Tip: "批次参数无效"},
	{Err: wallet.ErrBadReward, Status: http.StatusUnprocessableEntity, Tip: "奖励设置无效"},
}

// inviteErrs answers the invitation calls and the invite settings.
var inviteErrs = httpx.ErrorMap{
	{Err: ErrUnknownCode, Status: http.StatusNotFound, Tip: "邀请码不存在", Msg: "no user has this invite code"},
	{Err: ErrSelfInvite, Status: http.StatusUnprocessableEntity, Tip: "不能填写自己的邀请码", Msg: "the code is the caller's own"},
	{Err: ErrBound, Status: http.StatusConflict, Tip: "你已绑定过邀请人", Msg: "the caller already has an inviter"},
	{Err: ErrCycle, Status: http.StatusUnprocessableEntity, Tip: "不能绑定你邀请的人", Msg: "the code's owner was invited by the caller, directly or not"},
	{Err: ErrWindow, Status: http.StatusForbidden, Tip: "已超过绑定邀请人的期限", Msg: "the caller's account is older than the bind window"},
	{Err: ErrBadCode, Status: http.StatusUnprocessableEntity, Tip: "邀请码格式不正确", Msg: "an invite code is 6 to 8 letters and digits"},
	{Err: ErrBadInviteConfig, Status: http.StatusUnprocessableEntity},
	{Err: ratelimit.ErrLimited, Status: http.StatusTooManyRequests, Tip: "尝试过于频繁，请稍后再试"},
}
