package wallet

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"prima/internal/membership"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func noAudit(context.Context, *db.Tx, Order, Order) error { return nil }

// paidCardOrder makes uid an order for card and marks it paid (as an
// operator would for a missed callback).
func paidCardOrder(t *testing.T, s *Service, uid, card int64, key string) Order {
	t.Helper()
	ctx := context.Background()
	o, _, err := s.Topay(ctx, uid, TopayInput{ProductType: ProductVIP, ProductID: card, PayType: SandboxName}, key)
	if err != nil {
		t.Fatal(err)
	}
	if o, _, err = s.MarkPaid(ctx, o.OrderNo, 1, noAudit); err != nil {
		t.Fatal(err)
	}
	return o
}

func orderStatus(t *testing.T, d *db.DB, no string) string {
	t.Helper()
	var st string
	if err := d.QueryRow(context.Background(), `SELECT status FROM orders WHERE order_no = ?`, no).Scan(&st); err != nil {
		t.Fatal(err)
	}
	return st
}

// A refund takes back what a VIP order gave, days and coupons, or is
// refused: once one of the card's coupons bought a video, taking back the
// days and the rest would leave the video bought, so nothing changes.
func TestRefundOfAVIPOrderWhoseCouponBoughtSomething(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		s.Pay.Providers = []Provider{NewSandbox("test secret", "")}
		sh := newShop(t, d, 3)
		uid := newUserAt(t, d, "svip", now.Add(-72*time.Hour))
		card := newProduct(t, d, membership.Product{Level: 2, Days: 30, Price: 5800, Coupons: 2})

		o := paidCardOrder(t, s, uid, card.ID, "order-key-1")
		if _, err := s.BuyVideo(ctx, uid, sh.gold[0], true, "buy-with-coupon-1"); err != nil {
			t.Fatal(err)
		}
		_, svip := tiersOf(t, d, uid)
		if _, _, err := s.Refund(ctx, o.OrderNo, "误购", 1, noAudit); !errors.Is(err, ErrRefundCouponUsed) {
			t.Fatalf("refund after a coupon bought a video: %v", err)
		}
		if st := orderStatus(t, d, o.OrderNo); st != OrderPaid {
			t.Fatalf("the refused refund left the order %s", st)
		}
		if _, svip2 := tiersOf(t, d, uid); svip2 != svip {
			t.Fatalf("the refused refund moved super VIP from %d to %d", svip, svip2)
		}
		if n := count(t, d, `SELECT COUNT(*) FROM user_coupons WHERE user_id = ? AND used_at = 0 AND expires_at > ?`, uid, now.Unix()); n != 1 {
			t.Fatalf("the refused refund left %d unused coupons, want 1", n)
		}
		if ok, err := s.HasBought(ctx, uid, sh.gold[0]); err != nil || !ok {
			t.Fatalf("the video bought with the coupon: %v %v", ok, err)
		}

		// Another card whose coupons are unused: refunded, days and coupons back.
		o2 := paidCardOrder(t, s, uid, card.ID, "order-key-2")
		if _, _, err := s.Refund(ctx, o2.OrderNo, "误购", 1, noAudit); err != nil {
			t.Fatalf("refund with the coupons unused: %v", err)
		}
		if st := orderStatus(t, d, o2.OrderNo); st != OrderRefunded {
			t.Fatalf("order %s", st)
		}
		if _, svip2 := tiersOf(t, d, uid); svip2 != svip {
			t.Fatalf("super VIP %d after refunding the second card, want %d", svip2, svip)
		}
		if n := count(t, d, `SELECT COUNT(*) FROM user_coupons WHERE source = ? AND used_at = 0`, "order:"+o2.OrderNo); n != 0 {
			t.Fatalf("%d of the refunded card's coupons still usable", n)
		}
		// The first card's last coupon still buys; the refunded card's do not.
		if _, err := s.BuyVideo(ctx, uid, sh.gold[1], true, "buy-with-coupon-2"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.BuyVideo(ctx, uid, sh.gold[2], true, "buy-with-coupon-3"); err == nil {
			t.Fatal("a coupon of the refunded card bought a video")
		}
		groups, err := s.CouponGroups(ctx, uid)
		if err != nil || groups[1].Coupons[0].Count != 2 || groups[2].Coupons[0].Count != 2 {
			t.Fatalf("backpack: %+v %v", groups, err)
		}
		mustCheck(t, d)
	})
}

// A refund and purchases with the card's coupons at once: either the
// refund goes through and no coupon of the card bought anything, or it is
// refused because one did.
func TestRefundRacesCouponPurchases(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := testService(d)
		s.Pay.Providers = []Provider{NewSandbox("test secret", "")}
		for round := range 4 {
			sh := newShop(t, d, 4)
			uid := newUserAt(t, d, fmt.Sprintf("race%d", round), now.Add(-72*time.Hour))
			card := newProduct(t, d, membership.Product{Level: 2, Days: 30, Price: 5800, Coupons: 2})
			o := paidCardOrder(t, s, uid, card.ID, fmt.Sprintf("race-order-%d", round))
			var wg sync.WaitGroup
			var refundErr error
			bought := make([]error, 4)
			for i := range 5 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if i == 2 {
						_, _, refundErr = s.Refund(ctx, o.OrderNo, "race", 1, noAudit)
						return
					}
					j := i
					if i > 2 {
						j-- // i == 2 is the refund
					}
					_, bought[j] = s.BuyVideo(ctx, uid, sh.gold[j], true, fmt.Sprintf("race-buy-%d-%d", round, j))
				}()
			}
			wg.Wait()
			used := count(t, d, `SELECT COUNT(*) FROM user_coupons WHERE source = ? AND used_at > 0`, "order:"+o.OrderNo)
			switch {
			case refundErr == nil && used != 0:
				t.Fatalf("round %d: refunded, yet %d of its coupons bought videos", round, used)
			case refundErr != nil && !errors.Is(refundErr, ErrRefundCouponUsed):
				t.Fatalf("round %d: refund: %v", round, refundErr)
			case refundErr != nil && used == 0:
				t.Fatalf("round %d: refused with no coupon used", round)
			}
			ok := 0
			for _, err := range bought {
				if err == nil {
					ok++
				}
			}
			if ok != used {
				t.Fatalf("round %d: %d purchases, %d coupons used", round, ok, used)
			}
		}
		mustCheck(t, d)
	})
}
