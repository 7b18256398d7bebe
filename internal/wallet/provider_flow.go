package wallet

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"prima/internal/platform/db"
)

// The wallet's side of talking to providers: asking for a pay URL after
// the order committed, waiting for it on a replayed topay, a provider's
// refund, and the question the expiry job asks before it closes an order.
// None of it calls a provider inside a transaction
// (docs/architecture.md, *Payments and providers*).

// providerTimeout bounds one call to a provider (its HTTP client may give
// up sooner); a replayed topay waits for the first one about as long.
const providerTimeout = 20 * time.Second

var (
	// errPayStart: a replayed topay found its order closed before it had a
	// pay URL: the provider failed the first request (502).
	errPayStart = errors.New("the provider failed this order")
	// errOrderBusy: a replayed topay found its order still waiting for the
	// provider after providerTimeout (409).
	errOrderBusy = errors.New("the order is still being registered with its provider")
	// errQuery: the provider could not be asked about an order before its
	// expiry (the job retries).
	errQuery = errors.New("provider query failed")
)

// startPayment asks pr for o's pay URL (no transaction open) and stores it;
// if pr fails, o is closed (abandonOrder) and the error says whether the
// provider was unreachable (ErrProviderDown) or refused (ErrProviderRefused).
func (s *Service) startPayment(ctx context.Context, pr Provider, o Order, uid int64, key string) (Order, error) {
	// The payer leaving does not stop it: the order must end with a URL or
	// closed, not half made.
	ctx = context.WithoutCancel(ctx)
	pctx, cancel := context.WithTimeout(ctx, providerTimeout)
	pay, err := pr.Create(pctx, o)
	cancel()
	if err == nil && pay.URL == "" {
		err = fmt.Errorf("%w: no pay URL in the answer", ErrProviderRefused)
	}
	if err != nil {
		switch {
		case errors.Is(err, ErrProviderDown), errors.Is(err, ErrProviderRefused):
		case errors.Is(err, context.DeadlineExceeded):
			err = fmt.Errorf("%w: %w", ErrProviderDown, err)
		default:
			err = fmt.Errorf("%w: %w", ErrProviderRefused, err)
		}
		slog.WarnContext(ctx, "payment provider failed an order; closed unpaid", "provider", pr.Name(), "order", o.OrderNo, "err", err)
		if cerr := s.abandonOrder(ctx, pr, o, uid, key, err); cerr != nil {
			return Order{}, cerr
		}
		return Order{}, err
	}
	var stored bool
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE orders SET pay_url = ?, pay_ref = ? WHERE order_no = ? AND status = 'pending' AND pay_url = ''`,
			pay.URL, pay.Ref, o.OrderNo)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		stored = n == 1
		return err
	})
	if err != nil {
		return Order{}, err
	}
	if !stored { // closed meanwhile (an operator): answer it as it is
		return s.orderNamed(ctx, o.OrderNo)
	}
	o.PayURL, o.PayRef = pay.URL, pay.Ref
	return o, nil
}

// abandonOrder closes o after its provider failed: cancelled, its new-user
// claim given back, its idempotency key forgotten (the client's retry with
// the same key makes a new order) and the failure recorded for operators.
func (s *Service) abandonOrder(ctx context.Context, pr Provider, o Order, uid int64, key string, cause error) error {
	now := s.now()
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := setStatus(ctx, tx, o.OrderNo, OrderPending, OrderCancelled, now); err != nil && !errors.Is(err, ErrOrderState) {
			return err
		}
		if err := releaseNewUser(ctx, tx, o.OrderNo); err != nil {
			return err
		}
		if err := forgetKey(ctx, tx, uid, "topay", key); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO payment_callbacks (provider, order_no, outcome, detail, created_at) VALUES (?, ?, ?, ?, ?)`,
			GatewayOf(pr), o.OrderNo, "create_failed", clipText(cause.Error(), 500), now.Unix())
		return err
	})
}

// awaitPayURL answers a replayed topay: order no as it is now. While the
// first request is still waiting on the provider (pending, no URL yet) it
// waits for it; an order closed without ever getting a URL is the
// provider's failure, answered as such.
func (s *Service) awaitPayURL(ctx context.Context, no string) (Order, error) {
	deadline := time.Now().Add(providerTimeout + 2*time.Second)
	for {
		var status, url string
		err := s.db.QueryRow(ctx, `SELECT status, pay_url FROM orders WHERE order_no = ?`, no).Scan(&status, &url)
		if errors.Is(db.NotFound(err), db.ErrNotFound) {
			return Order{}, ErrNoOrder
		}
		if err != nil {
			return Order{}, err
		}
		switch {
		case url != "":
			return s.orderNamed(ctx, no)
		case status != OrderPending:
			return Order{}, errPayStart
		case time.Now().After(deadline):
			return Order{}, errOrderBusy
		}
		select {
		case <-ctx.Done():
			return Order{}, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// orderNamed reads order no outside a transaction.
func (s *Service) orderNamed(ctx context.Context, no string) (Order, error) {
	o, err := scanOrder(s.db.QueryRow(ctx, `SELECT `+orderColumns+` FROM orders WHERE order_no = ?`, no))
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return Order{}, ErrNoOrder
	}
	return o, err
}

// orderOfTrade is the order of gateway whose payment has the provider's
// trade number tradeNo (a refund notice names nothing else).
func (s *Service) orderOfTrade(ctx context.Context, gateway, tradeNo string) (string, error) {
	if tradeNo == "" {
		return "", ErrNoOrder
	}
	rows, err := db.All(ctx, s.db, func(sc db.Scanner) ([2]string, error) {
		var r [2]string
		return r, sc.Scan(&r[0], &r[1])
	}, `SELECT order_no, pay_type FROM orders WHERE trade_no = ? ORDER BY id`, tradeNo)
	if err != nil {
		return "", err
	}
	for _, r := range rows {
		if ofGateway(gateway, r[1]) {
			return r[0], nil
		}
	}
	return "", ErrNoOrder
}

// providerRefund applies a verified refund notice of gateway: the provider
// gave the whole payment back, so the order is refunded through the
// operator's own path (Refund: the ledger's "refund" movement, keyed by the
// order, so a replay or a racing duplicate moves nothing). Its outcome is
// recorded in the refund's transaction; a refund the wallet cannot make
// (the coins spent, a coupon used) is recorded as refund_refused for an
// operator to settle with the user, and acknowledged: resending it would
// not change the answer.
func (s *Service) providerRefund(ctx context.Context, gateway string, cb Callback) (Outcome, error) {
	no := cb.OrderNo
	if no == "" {
		var err error
		if no, err = s.orderOfTrade(ctx, gateway, cb.TradeNo); err != nil {
			return "", err
		}
	}
	o, err := s.orderNamed(ctx, no)
	if err != nil {
		return "", err
	}
	switch {
	case !ofGateway(gateway, o.PayType):
		return "", fmt.Errorf("%w: order %s is paid through %s, not %s", ErrCallback, o.OrderNo, o.PayType, gateway)
	case cb.Currency != o.currency:
		return "", fmt.Errorf("%w: currency %q, order in %s", ErrCallback, cb.Currency, o.currency)
	case cb.Amount != o.Amount:
		return "", fmt.Errorf("%w: refund of %d, order of %d", ErrCallback, cb.Amount, o.Amount)
	}
	detail := callbackDetail(cb)
	record := func(ctx context.Context, tx *db.Tx, before, after Order) error {
		_, err := tx.Exec(ctx, `INSERT INTO payment_callbacks (provider, order_no, outcome, detail, created_at) VALUES (?, ?, ?, ?, ?)`,
			gateway, no, "refunded", detail, s.now().Unix())
		return err
	}
	_, replay, err := s.Refund(ctx, no, "支付渠道退款", 0, record)
	switch {
	case err == nil && replay:
		s.recordCallback(ctx, gateway, no, string(OutcomeReplay), detail)
		return OutcomeReplay, nil
	case err == nil:
		return "refunded", nil
	case errors.Is(err, ErrOrderState):
		// Never credited (pending, expired, cancelled): nothing to take back.
		s.recordCallback(ctx, gateway, no, string(OutcomeIgnored), detail+", order "+o.Status)
		return OutcomeIgnored, nil
	case errors.Is(err, ErrRefundSpent), errors.Is(err, ErrRefundCouponUsed):
		s.recordCallback(ctx, gateway, no, "refund_refused", detail+", "+err.Error())
		slog.WarnContext(ctx, "provider refunded an order the wallet cannot take back; an operator must settle it", "provider", gateway, "order", no, "err", err)
		return "refund_refused", nil
	}
	return "", err
}

// queryAttempts is how many times the expiry job asks a provider that does
// not answer before it closes the order without its word (a payment that
// lands later is recorded as late for an operator).
const queryAttempts = 6

// askProvider runs before the expiry job closes order no: when the order is
// still pending past its expiry and its provider can be asked (Querier),
// a payment whose notice was lost is credited now; otherwise a provider
// that keeps payments open (Closer) closes its side. It fails (errQuery)
// when the provider cannot be asked or closed, so the job retries.
func (s *Service) askProvider(ctx context.Context, no string) error {
	o, err := s.orderNamed(ctx, no)
	if errors.Is(err, ErrNoOrder) {
		return nil
	}
	if err != nil {
		return err
	}
	if o.Status != OrderPending || s.now().Before(o.ExpiresAt) {
		return nil
	}
	pr := s.Pay.provider(o.PayType)
	if pr == nil {
		return nil
	}
	gateway := GatewayOf(pr)
	if q, ok := pr.(Querier); ok {
		pctx, cancel := context.WithTimeout(ctx, providerTimeout)
		cb, err := q.Query(pctx, o)
		cancel()
		if err != nil {
			return fmt.Errorf("%w: %s: %w", errQuery, pr.Name(), err)
		}
		if cb.Status == OrderPaid {
			cb.queried = true
			cb.Note = strings.TrimSpace("order query " + cb.Note)
			if cb.OrderNo != o.OrderNo {
				s.recordCallback(ctx, gateway, o.OrderNo, "refused", fmt.Sprintf("order query answered for order %q", clipText(cb.OrderNo, 64)))
			} else {
				_, _, err := s.settle(ctx, gateway, cb)
				switch {
				case errors.Is(err, ErrCallback):
					s.recordCallback(ctx, gateway, o.OrderNo, "refused", "order query: "+err.Error())
				case err != nil:
					return err
				default:
					return nil
				}
			}
		}
	}
	if c, ok := pr.(Closer); ok {
		pctx, cancel := context.WithTimeout(ctx, providerTimeout)
		err := c.Close(pctx, o)
		cancel()
		if err != nil {
			return fmt.Errorf("%w: closing at %s: %w", errQuery, pr.Name(), err)
		}
	}
	return nil
}

// forgetKey drops an idempotency record written in tx's transaction's
// past (Once), so the key's next request runs afresh.
func forgetKey(ctx context.Context, tx *db.Tx, uid int64, scope, key string) error {
	_, err := tx.Exec(ctx, `DELETE FROM idempotency_keys WHERE user_id = ? AND scope = ? AND idem_key = ?`, uid, scope, key)
	return err
}

// callbackDetail is what payment_callbacks keeps of a verified notice.
func callbackDetail(cb Callback) string {
	d := fmt.Sprintf("status %s, tradeNo %s, amount %d", cb.Status, clipText(cb.TradeNo, 64), cb.Amount)
	if cb.Note != "" {
		d += ", " + clipText(cb.Note, 200)
	}
	return d
}
