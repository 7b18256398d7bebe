package rewards

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// The invite refusals answer with the status, tip and msg they always
// had, wrapped or not, and stay their sentinels.
func TestInviteErrsAnswer(t *testing.T) {
	limited := &ratelimit.LimitedError{Key: "invite:bind:1", RetryAfter: time.Minute}
	for _, c := range []struct {
		err      error
		status   int
		tip, msg string
	}{
		{ErrUnknownCode, 404, "邀请码不存在", "no user has this invite code"},
		{ErrSelfInvite, 422, "不能填写自己的邀请码", "the code is the caller's own"},
		{ErrBound, 409, "你已绑定过邀请人", "the caller already has an inviter"},
		{ErrCycle, 422, "不能绑定你邀请的人", "the code's owner was invited by the caller, directly or not"},
		{ErrWindow, 403, "已超过绑定邀请人的期限", "the caller's account is older than the bind window"},
		{ErrBadCode, 422, "邀请码格式不正确", "an invite code is 6 to 8 letters and digits"},
		{CheckInviteConfig(InviteConfig{RewardCoins: -1, WindowDays: 7, DailyCap: 5}), 422, "奖励金币不能为负", "rewardCoins < 0"},
		{CheckInviteConfig(InviteConfig{WindowDays: 366, DailyCap: 5}), 422, "绑定期限为 1 到 365 天", "windowDays outside 1..365"},
		{limited, 429, "尝试过于频繁，请稍后再试", limited.Error()},
	} {
		for _, err := range []error{c.err, fmt.Errorf("tx: %w", c.err)} {
			e, ok := inviteErrs.Map(err).(*httpx.Error)
			if !ok || e.Status != c.status || e.Tip != c.tip || (e.Msg != c.msg && e.Msg != "tx: "+c.msg) || !errors.Is(e, c.err) {
				t.Errorf("%v: %+v", err, inviteErrs.Map(err))
			}
		}
	}
	if err := CheckInviteConfig(InviteConfig{RewardCoins: 10, WindowDays: 7, DailyCap: 5}); err != nil {
		t.Errorf("a valid config: %v", err)
	}
}
