package wallet

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// Per-user bounds of the VIP, exchange and adjustment calls (per minute).
// Far above what a person taps; they stop a script looping on a token.
const (
	LimitVIPBuy   = 20
	LimitExchange = 10
	LimitAdjust   = 60
)

// limit counts one call of what by uid against n per minute, failing
// closed: a limiter that cannot answer refuses the call (503), since an
// outage must not open an unlimited window on money calls.
func (s *Service) limit(ctx context.Context, w http.ResponseWriter, what string, uid int64, n int) error {
	if s.Limiter == nil {
		return nil
	}
	err := ratelimit.Enforce(ctx, s.Limiter, fmt.Sprintf("wallet:%s:%d", what, uid), n, time.Minute, ratelimit.FailClosed)
	var le *ratelimit.LimitedError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &le):
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int(math.Ceil(le.RetryAfter.Seconds())))))
		return httpx.TooMany("操作过于频繁，请稍后再试", err.Error())
	case errors.Is(err, ratelimit.ErrUnavailable):
		return &httpx.Error{Status: http.StatusServiceUnavailable, Tip: "服务繁忙，请稍后再试", Msg: "rate limiter unavailable", Err: err}
	}
	return err
}
