package wallet

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"prima/internal/membership"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// How the wallet's errors answer (docs/architecture.md, "How errors answer").

// Detail says which balance is short: coins, or the withdrawable income.
func (e *InsufficientError) Detail() (tip, msg string) {
	if e.Account.Kind == Income {
		return "可提现余额不足", "insufficient balance"
	}
	return "金币余额不足", "insufficient balance"
}

// RetryIn lets httpx.WriteError say when to come back (Retry-After).
func (e *RetryError) RetryIn() time.Duration { return e.After }

// ErrInvalidInput: input a wallet service checks and refuses (422); the
// refusal names the field.
var ErrInvalidInput = errors.New("invalid input")

// invalid is ErrInvalidInput in the words of the field it refuses.
func invalid(tip, msg string) error { return httpx.Refuse(ErrInvalidInput, tip, msg) }

// limitErrs answers the per-user limits of money calls (Service.limit):
// the limit's own text is the msg, its RetryIn the Retry-After.
var limitErrs = httpx.ErrorMap{
	{Err: ratelimit.ErrLimited, Status: http.StatusTooManyRequests, Tip: "操作过于频繁，请稍后再试"},
	{Err: ratelimit.ErrUnavailable, Status: http.StatusServiceUnavailable, Tip: "服务繁忙，请稍后再试", Msg: "limiter unavailable"},
}

// errs answers what any money movement can meet, and is the tail of the
// top-up and VIP tables.
var errs = httpx.ErrorMap{
	{Err: ErrInsufficient, Status: http.StatusConflict},
	{Err: ErrKeyReused, Status: http.StatusConflict, Tip: "请求重复，请刷新后重试"},
}

// newUserErrs: the new-user card is once an account and a device.
var newUserErrs = httpx.ErrorMap{
	{Err: ErrNewUserPending, Status: http.StatusConflict, Tip: "你有一笔新人专享订单待支付，请完成支付或取消后再试"},
	{Err: ErrNewUserUsed, Status: http.StatusConflict, Tip: "新人专享每个账号和每台设备仅限一次，你已使用过"},
}

// payErrs answers top-ups, orders and refunds.
var payErrs = slices.Concat(httpx.ErrorMap{
	{Err: ErrNoOrder, Status: http.StatusNotFound, Tip: "订单不存在", Msg: "no such order"},
	{Err: ErrNoPackage, Status: http.StatusNotFound, Tip: "充值套餐不存在", Msg: "no such coin package"},
	{Err: membership.ErrNoProduct, Status: http.StatusNotFound, Tip: "会员卡不存在", Msg: "no such VIP product"},
	{Err: errNoPayType, Status: http.StatusUnprocessableEntity, Tip: "参数 payType 无效", Msg: "unknown or disabled pay type"},
	{Err: ErrProviderOff, Status: http.StatusUnprocessableEntity, Tip: "该支付方式暂停使用，请选择其他支付方式", Msg: "the operator switched this pay type off"},
	{Err: errSandboxOff, Status: http.StatusUnprocessableEntity, Tip: "沙箱支付未开启，请选择其他支付方式", Msg: "the sandbox pay type is off on this server (PRIMA_PAY_SANDBOX)"},
	{Err: errBadProductType, Status: http.StatusUnprocessableEntity, Tip: "参数 productType 无效", Msg: `productType must be "coins" or "vip"`},
	{Err: ErrNewUserOnly, Status: http.StatusForbidden, Tip: "新人专享已过期", Msg: "new-user card: the account is older than 24 hours"},
}, newUserErrs, httpx.ErrorMap{
	{Err: ErrTooManyOrders, Status: http.StatusTooManyRequests, Tip: "未支付订单过多，请稍后再试", Msg: "too many unpaid orders"},
	{Err: ErrProviderDown, Status: http.StatusServiceUnavailable, Tip: "支付渠道暂时无法连接，未扣款，请稍后重试或换一种支付方式", Msg: "the payment provider could not be reached; the order was closed unpaid"},
	{Err: ErrProviderRefused, Status: http.StatusBadGateway, Tip: "支付渠道下单失败，未扣款，请稍后重试或换一种支付方式", Msg: "the payment provider refused the order; the order was closed unpaid"},
	{Err: errPayStart, Status: http.StatusBadGateway, Tip: "支付渠道下单失败，未扣款，请稍后重试或换一种支付方式", Msg: "the payment provider failed this order; it was closed unpaid"},
	{Err: errOrderBusy, Status: http.StatusConflict, Tip: "订单正在创建，请稍后再试", Msg: "the order is still being registered with its provider"},
	{Err: ErrRefundSpent, Status: http.StatusConflict, Tip: "用户已花费该订单的金币，无法退款", Msg: "the order's coins were spent"},
	{Err: ErrRefundCouponUsed, Status: http.StatusConflict, Tip: "该订单赠送的观影券已被使用，无法退款", Msg: "a coupon of the order's VIP card already bought something"},
	{Err: ErrOrderState, Status: http.StatusConflict, Tip: "订单状态不允许此操作"},
	{Err: ratelimit.ErrUnavailable, Status: http.StatusServiceUnavailable, Tip: "服务繁忙，请稍后再试", Msg: "limiter unavailable"},
	{Err: ratelimit.ErrLimited, Status: http.StatusTooManyRequests, Tip: "操作过于频繁，请稍后再试"},
}, errs)

// vipErrs answers buying a VIP card with coins.
var vipErrs = slices.Concat(httpx.ErrorMap{
	{Err: membership.ErrNoProduct, Status: http.StatusNotFound, Tip: "会员卡不存在"},
	{Err: ErrNotForCoins, Status: http.StatusUnprocessableEntity, Tip: "该会员卡不支持金币购买"},
	{Err: ErrNewUserOver, Status: http.StatusForbidden, Tip: "新人专享已过期"},
}, newUserErrs, httpx.ErrorMap{
	{Err: ErrRegisteredOnly, Status: http.StatusForbidden, Tip: "请先注册账号"},
}, errs)

// purchaseErrs answers buying a video, a gallery or a post: the item's
// words come with the error (itemError's Detail).
var purchaseErrs = slices.Concat(httpx.ErrorMap{
	{Err: ErrCouponVideosOnly, Status: http.StatusUnprocessableEntity},
	{Err: ErrNoItem, Status: http.StatusNotFound},
	{Err: ErrOwnItem, Status: http.StatusUnprocessableEntity},
	{Err: ErrNotGold, Status: http.StatusUnprocessableEntity},
	{Err: ErrAlreadyBought, Status: http.StatusConflict},
	{Err: ErrNoCoupon, Status: http.StatusConflict, Tip: "没有可用的金币视频券", Msg: "no unused gold-video coupon"},
	{Err: ErrGuestBuy, Status: http.StatusForbidden, Tip: "注册登录后才能购买帖子", Msg: "guests cannot buy posts: register first"},
	{Err: ratelimit.ErrUnavailable, Status: http.StatusServiceUnavailable, Tip: "服务繁忙，请稍后再试", Msg: "rate limiter unavailable"},
	{Err: ratelimit.ErrLimited, Status: http.StatusTooManyRequests, Tip: "操作过于频繁，请稍后再试", Msg: "too many purchases"},
}, errs)

// couponGrantErrs answers an operator's grant of coupons.
var couponGrantErrs = slices.Concat(httpx.ErrorMap{
	{Err: ErrNoUser, Status: http.StatusNotFound, Tip: "用户不存在", Msg: "no such user"},
}, errs)

// MapWithdrawErr answers an error of the withdrawal calls (Withdraw,
// Decide, CheckStatus, payout accounts) as their handlers do, for callers
// outside HTTP: the operator's command line prints its msg.
func MapWithdrawErr(err error) error { return withdrawErrs.Map(err) }

// adminWalletErrs answers an operator's look at a wallet and adjustment.
var adminWalletErrs = slices.Concat(httpx.ErrorMap{
	{Err: db.ErrNotFound, Status: http.StatusNotFound, Tip: "用户不存在", Msg: "no such user"},
	{Err: ErrInsufficientPoints, Status: http.StatusConflict, Tip: "积分余额不足", Msg: "points would go below zero"},
}, errs)

// vipAdminErrs answers an operator saving a VIP card.
var vipAdminErrs = httpx.ErrorMap{
	{Err: membership.ErrNoProduct, Status: http.StatusNotFound, Tip: "会员卡不存在"},
}

// passwordErrs answers the withdrawal password check.
var passwordErrs = httpx.ErrorMap{
	{Err: ErrGuest, Status: http.StatusForbidden, Tip: "请先注册账号", Msg: "a registered account is needed"},
	{Err: ErrWrongPassword, Status: http.StatusUnauthorized, Tip: "密码错误", Msg: "wrong password"},
	{Err: ErrTooManyTries, Status: http.StatusTooManyRequests, Tip: "密码错误次数过多，请稍后再试"},
}

// withdrawErrs answers withdrawals (the user's and the operator's) and
// payout accounts.
var withdrawErrs = slices.Concat(httpx.ErrorMap{
	{Err: ErrInvalidInput, Status: http.StatusUnprocessableEntity},
	{Err: ErrDailyLimit, Status: http.StatusConflict},
	{Err: ErrNoWithdrawal, Status: http.StatusNotFound, Tip: "提现订单不存在", Msg: "no such withdrawal"},
	{Err: ErrSameApprover, Status: http.StatusConflict, Tip: "需要另一位运营人员复核批准", Msg: "a different operator must give the second approval"},
	{Err: ErrNoAccount, Status: http.StatusNotFound, Tip: "账户不存在", Msg: "no such payout account"},
	{Err: ErrPayoutExists, Status: http.StatusConflict, Tip: "该账户已添加", Msg: "this account is already added"},
	{Err: ErrPayoutMax, Status: http.StatusConflict, Tip: fmt.Sprintf("每种账户最多添加%d个", MaxPayoutAccounts), Msg: "at most 5 accounts of each type"},
	{Err: ErrPayoutBusy, Status: http.StatusConflict, Tip: "该账户有处理中的提现，暂不能删除", Msg: "a pending withdrawal pays to this account"},
}, limitErrs, passwordErrs, errs)
