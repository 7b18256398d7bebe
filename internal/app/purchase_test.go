package app_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/platform/db"
	"prima/internal/wallet"
)

// credit gives uid coins as a paid top-up would.
func credit(t *testing.T, s *apptest.Server, uid, coins int64, key string) {
	t.Helper()
	err := s.App.DB.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		_, err := s.App.Wallet.Ledger.Post(ctx, tx, wallet.Transfer{Kind: "topup", Key: key, UserID: uid, Legs: []wallet.Leg{
			{Account: wallet.System(wallet.SysPayments), Amount: -coins * 10}, {Account: wallet.System(wallet.SysSales), Amount: coins * 10},
			{Account: wallet.System(wallet.SysCoinsSold), Amount: -coins}, {Account: wallet.UserCoins(uid), Amount: coins},
		}}, time.Now())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Buying a gold video over HTTP: bad input is refused with nothing moved,
// the purchase opens the video at once for the buyer only, lists in
// mine/buyVid, and coupons granted by an operator show in the backpack and
// the user info and pay for a video.
func TestBuyGoldVideoHTTP(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		h := s.Handler
		f := newVideoFixture(t, s)
		alice := apitest.GuestLogin(t, h, apitest.DevID(1))
		bob := apitest.GuestLogin(t, h, apitest.DevID(2))
		aliceID := uidOf(t, s, alice)
		credit(t, s, aliceID, 100, "topup:alice")
		buy := func(name, token, body string, status int, tip string, content ...string) apitest.Scenario {
			return apitest.Scenario{Name: name, Method: "POST", URL: "/api/app/vid/buy", Token: token, Body: body,
				ExpectedStatus: status, ExpectedTip: tip, ExpectedContent: content}
		}
		info := func(name, token string, id int64, reason string) apitest.Scenario {
			return apitest.Scenario{Name: name, URL: fmt.Sprintf("/api/app/vid/info?id=%d", id), Token: token, ExpectedStatus: 200,
				ExpectedContent: []string{`"reason":"` + reason + `"`}}
		}
		apitest.Run(t, h,
			buy("no token", "", fmt.Sprintf(`{"id":%d,"idempotencyKey":"k-000001"}`, f.gold), 401, ""),
			buy("no key", alice, fmt.Sprintf(`{"id":%d}`, f.gold), 422, "缺少参数 idempotencyKey"),
			buy("short key", alice, fmt.Sprintf(`{"id":%d,"idempotencyKey":"k"}`, f.gold), 422, "idempotencyKey"),
			buy("key with NUL", alice, fmt.Sprintf(`{"id":%d,"idempotencyKey":"k-00000\u0000"}`, f.gold), 422, ""),
			buy("id as string", alice, `{"id":"1","idempotencyKey":"k-000001"}`, 400, ""),
			buy("fractional id", alice, `{"id":1.5,"idempotencyKey":"k-000001"}`, 400, ""),
			buy("negative id", alice, `{"id":-1,"idempotencyKey":"k-000001"}`, 422, "参数 id 无效"),
			buy("huge id", alice, `{"id":99999999999999999999,"idempotencyKey":"k-000001"}`, 400, ""),
			buy("free video", alice, fmt.Sprintf(`{"id":%d,"idempotencyKey":"k-000002"}`, f.free), 422, "该视频无需购买"),
			buy("draft", alice, fmt.Sprintf(`{"id":%d,"idempotencyKey":"k-000003"}`, f.draft), 404, ""),
			buy("bob has no coins", bob, fmt.Sprintf(`{"id":%d,"idempotencyKey":"k-000004"}`, f.gold), 409, "金币余额不足"),
			info("locked before", alice, f.gold, "need_coins"),
			buy("alice buys", alice, fmt.Sprintf(`{"id":%d,"idempotencyKey":"k-000005"}`, f.gold), 200, "",
				`"price":25`, `"paidWith":"coins"`, `"coins":75`, fmt.Sprintf(`"video":{"id":%d`, f.gold)),
			buy("retry", alice, fmt.Sprintf(`{"id":%d,"idempotencyKey":"k-000005"}`, f.gold), 200, "", `"coins":75`),
			buy("again", alice, fmt.Sprintf(`{"id":%d,"idempotencyKey":"k-000006"}`, f.gold), 409, "已购买该视频"),
			info("opens at once", alice, f.gold, "bought"),
			info("not for bob", bob, f.gold, "need_coins"),
			apitest.Scenario{Name: "buyVid", URL: "/api/app/mine/buyVid", Token: alice, ExpectedStatus: 200,
				ExpectedContent: []string{`"total":1`, fmt.Sprintf(`"videoID":%d`, f.gold)}},
			apitest.Scenario{Name: "bob's buyVid", URL: "/api/app/mine/buyVid", Token: bob, ExpectedStatus: 200, ExpectedContent: []string{`"total":0`, `"list":[]`}},
			apitest.Scenario{Name: "buyVid bad page", URL: "/api/app/mine/buyVid?pageSize=0", Token: alice, ExpectedStatus: 422},
			apitest.Scenario{Name: "no delete", Method: "DELETE", URL: "/api/app/mine/buyVid", Token: alice, ExpectedStatus: 405},
		)
		// Header key form works.
		apitest.Scenario{Name: "header key", Method: "POST", URL: "/api/app/gallery/buy", Token: alice, Body: `{"id":1}`,
			Headers: map[string]string{"Idempotency-Key": "hdr-000001"}, ExpectedStatus: 404}.Run(t, h)

		// Coupons: an operator grants, the backpack and the info show them,
		// one pays for a video with no coin moved.
		op := operatorToken(t, s)
		grant := func(name, token, body string, status int) apitest.Scenario {
			return apitest.Scenario{Name: name, Method: "POST", URL: "/api/admin/coupons/grant", Token: token, Body: body, ExpectedStatus: status}
		}
		bobID := uidOf(t, s, bob)
		apitest.Run(t, h,
			grant("not an operator", bob, fmt.Sprintf(`{"uid":%d,"count":1,"days":7,"reason":"x","idempotencyKey":"g-000001"}`, bobID), 401), // a phone-app token opens nothing under /api/admin
			grant("count 0", op, fmt.Sprintf(`{"uid":%d,"count":0,"days":7,"reason":"x","idempotencyKey":"g-000001"}`, bobID), 422),
			grant("count 101", op, fmt.Sprintf(`{"uid":%d,"count":101,"days":7,"reason":"x","idempotencyKey":"g-000001"}`, bobID), 422),
			grant("fractional days", op, fmt.Sprintf(`{"uid":%d,"count":1,"days":1.5,"reason":"x","idempotencyKey":"g-000001"}`, bobID), 400),
			grant("no reason", op, fmt.Sprintf(`{"uid":%d,"count":1,"days":7,"reason":" ","idempotencyKey":"g-000001"}`, bobID), 422),
			grant("unknown user", op, `{"uid":999999,"count":1,"days":7,"reason":"x","idempotencyKey":"g-000002"}`, 404),
			grant("grants", op, fmt.Sprintf(`{"uid":%d,"count":1,"days":7,"reason":"活动","idempotencyKey":"g-000003"}`, bobID), 200),
			grant("replay", op, fmt.Sprintf(`{"uid":%d,"count":1,"days":7,"reason":"活动","idempotencyKey":"g-000003"}`, bobID), 200),
			apitest.Scenario{Name: "backpack", URL: "/api/app/backpack", Token: bob, ExpectedStatus: 200,
				ExpectedContent: []string{`{"position":"unused","coupons":[{"id":1,"name":"金币视频券","count":1,`, `{"position":"used","coupons":[]}`}},
			apitest.Scenario{Name: "info coupons", URL: "/api/app/mine/info", Token: bob, ExpectedStatus: 200,
				ExpectedContent: []string{`"newGoldVideoCoupon":[{"position":"unused","coupons":[{"id":1,`}},
			buy("bob with a coupon", bob, fmt.Sprintf(`{"id":%d,"useCoupon":true,"idempotencyKey":"c-000001"}`, f.gold), 200, "",
				`"price":0`, `"paidWith":"coupon"`, `"coins":0`),
			info("bob's coupon opened it", bob, f.gold, "bought"),
			apitest.Scenario{Name: "backpack after", URL: "/api/app/backpack", Token: bob, ExpectedStatus: 200,
				ExpectedContent: []string{`{"position":"unused","coupons":[]}`, `{"position":"used","coupons":[{"id":1,`}},
		)
		if n := auditRows(t, s, "coupon.grant"); n != 1 {
			t.Fatalf("%d coupon.grant audit rows, want 1", n)
		}
		if err := wallet.Check(context.Background(), s.App.DB); err != nil {
			t.Fatal(err)
		}
	})
}

// A gold gallery bought over HTTP opens at once for the buyer only.
func TestBuyGoldGalleryHTTP(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		h := s.Handler
		f := newVideoFixture(t, s)
		var gal int64
		ctx := context.Background()
		err := s.App.DB.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			var mod, sub int64
			if err := tx.QueryRow(ctx, `SELECT module_id, sub_module_id FROM videos WHERE id = ?`, f.gold).Scan(&mod, &sub); err != nil {
				return err
			}
			at := time.Now().Unix()
			return tx.QueryRow(ctx, `INSERT INTO galleries (title, module_id, sub_module_id, vip_level, coins, image_count, published, created_at, updated_at)
				VALUES ('图集', ?, ?, 0, 30, 0, 1, ?, ?) RETURNING id`, mod, sub, at, at).Scan(&gal)
		})
		if err != nil {
			t.Fatal(err)
		}
		alice := apitest.GuestLogin(t, h, apitest.DevID(1))
		bob := apitest.GuestLogin(t, h, apitest.DevID(2))
		credit(t, s, uidOf(t, s, alice), 40, "topup:alice")
		info := func(name, token, reason string) apitest.Scenario {
			return apitest.Scenario{Name: name, URL: fmt.Sprintf("/api/app/gallery/info?id=%d", gal), Token: token, ExpectedStatus: 200,
				ExpectedContent: []string{`"reason":"` + reason + `"`}}
		}
		buy := func(name, token, body string, status int, content ...string) apitest.Scenario {
			return apitest.Scenario{Name: name, Method: "POST", URL: "/api/app/gallery/buy", Token: token, Body: body, ExpectedStatus: status, ExpectedContent: content}
		}
		apitest.Run(t, h,
			info("locked", alice, "need_coins"),
			buy("with a coupon", alice, fmt.Sprintf(`{"id":%d,"useCoupon":true,"idempotencyKey":"g-000001"}`, gal), 422, "金币视频券仅限购买视频"),
			buy("a video id is not a gallery", alice, `{"id":999999,"idempotencyKey":"g-000002"}`, 404),
			buy("buys", alice, fmt.Sprintf(`{"id":%d,"idempotencyKey":"g-000003"}`, gal), 200, `"price":30`, fmt.Sprintf(`"galleryID":%d`, gal), `"coins":10`),
			buy("again", alice, fmt.Sprintf(`{"id":%d,"idempotencyKey":"g-000004"}`, gal), 409, "已购买该图集"),
			info("open", alice, "bought"),
			info("not for bob", bob, "need_coins"),
		)
		if err := wallet.Check(ctx, s.App.DB); err != nil {
			t.Fatal(err)
		}
	})
}
