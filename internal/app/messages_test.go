package app_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/platform/db"
	"prima/internal/platform/realtime"
)

// TestMessagesAPI drives the message centre through the HTTP API on both
// engines: who may call what, the bad input it refuses (blocked, empty,
// oversized, control characters), read state and msgHasNew.
func TestMessagesAPI(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		h := s.Handler
		o := newOps(t, s) // o.user is a guest
		alice, aliceID := registered(t, s, 21, "alice_m", "secret12")
		bob, bobID := registered(t, s, 22, "bob_m", "secret34")
		carol, _ := registered(t, s, 23, "carol_m", "secret56")
		send := func(uid int64, text, key string) string {
			return fmt.Sprintf(`{"uid":%d,"kind":"text","text":%q,"clientId":%q}`, uid, text, key)
		}
		msgCount := func() int { return countRows(t, s, `SELECT COUNT(*) FROM messages`) }

		apitest.Run(t, h,
			apitest.Scenario{Name: "no token", Method: "POST", URL: "/api/app/message/send", Body: send(bobID, "hi", "k0"), ExpectedStatus: 401},
			apitest.Scenario{Name: "guest sends", Method: "POST", URL: "/api/app/message/send", Token: o.user, Body: send(bobID, "hi", "k0"),
				ExpectedStatus: 403, ExpectedTip: "注册账号"},
			apitest.Scenario{Name: "guest lists conversations", URL: "/api/app/mine/conversations", Token: o.user, ExpectedStatus: 403},
			apitest.Scenario{Name: "guest reads notices", URL: "/api/app/mine/notices?category=system", Token: o.user, ExpectedStatus: 200,
				ExpectedContent: []string{`"list":[]`}},
			apitest.Scenario{Name: "empty", Method: "POST", URL: "/api/app/message/send", Token: alice, Body: send(bobID, "   ", "k1"),
				ExpectedStatus: 422, ExpectedTip: "消息不能为空"},
			apitest.Scenario{Name: "oversized", Method: "POST", URL: "/api/app/message/send", Token: alice, Body: send(bobID, strings.Repeat("长", 1001), "k1"),
				ExpectedStatus: 413, ExpectedTip: "1000"},
			apitest.Scenario{Name: "NUL", Method: "POST", URL: "/api/app/message/send", Token: alice,
				Body: fmt.Sprintf(`{"uid":%d,"kind":"text","text":"a\u0000b","clientId":"k1"}`, bobID), ExpectedStatus: 422, ExpectedTip: "text"},
			apitest.Scenario{Name: "escape char", Method: "POST", URL: "/api/app/message/send", Token: alice,
				Body: fmt.Sprintf(`{"uid":%d,"kind":"text","text":"a\u001bb","clientId":"k1"}`, bobID), ExpectedStatus: 422},
			apitest.Scenario{Name: "to self", Method: "POST", URL: "/api/app/message/send", Token: alice, Body: send(aliceID, "me", "k1"), ExpectedStatus: 422},
			apitest.Scenario{Name: "unknown uid", Method: "POST", URL: "/api/app/message/send", Token: alice, Body: send(99999, "hi", "k1"), ExpectedStatus: 404},
			apitest.Scenario{Name: "negative uid", Method: "POST", URL: "/api/app/message/send", Token: alice, Body: send(-5, "hi", "k1"), ExpectedStatus: 422},
			apitest.Scenario{Name: "huge uid", Method: "POST", URL: "/api/app/message/send", Token: alice,
				Body: `{"uid":1e30,"kind":"text","text":"x","clientId":"k1"}`, ExpectedStatus: 400},
			apitest.Scenario{Name: "another's picture", Method: "POST", URL: "/api/app/message/send", Token: alice,
				Body: fmt.Sprintf(`{"uid":%d,"kind":"image","assetId":1,"clientId":"k1"}`, bobID), ExpectedStatus: 404},
			apitest.Scenario{Name: "history of nobody", URL: "/api/app/message/list?uid=99999", Token: alice, ExpectedStatus: 404},
			apitest.Scenario{Name: "history with uid 0", URL: "/api/app/message/list?uid=0", Token: alice, ExpectedStatus: 422},
			apitest.Scenario{Name: "bad category", URL: "/api/app/mine/notices?category=x", Token: alice, ExpectedStatus: 422},
			apitest.Scenario{Name: "page too big", URL: "/api/app/mine/conversations?pageSize=1000", Token: alice, ExpectedStatus: 422},
			apitest.Scenario{Name: "page too deep", URL: "/api/app/mine/notices?category=system&pageSize=50&pageNumber=201", Token: alice, ExpectedStatus: 422,
				ExpectedTip: "pageNumber"},
			apitest.Scenario{Name: "block without a value", Method: "POST", URL: "/api/app/message/block", Token: bob,
				Body: fmt.Sprintf(`{"uid":%d}`, aliceID), ExpectedStatus: 422},
			apitest.Scenario{Name: "user reads reports", URL: "/api/admin/message/reports", Token: alice, ExpectedStatus: 401},
		)
		if n := msgCount(); n != 0 {
			t.Fatalf("%d messages stored by refused sends", n)
		}

		// A real exchange, with a retry of the same send.
		apitest.Run(t, h,
			apitest.Scenario{Name: "send", Method: "POST", URL: "/api/app/message/send", Token: alice, Body: send(bobID, "你好 bob", "first-1"),
				ExpectedStatus: 200, ExpectedContent: []string{`"fromMe":true`, `"clientId":"first-1"`}},
			apitest.Scenario{Name: "retry", Method: "POST", URL: "/api/app/message/send", Token: alice, Body: send(bobID, "你好 bob", "first-1"), ExpectedStatus: 200},
			apitest.Scenario{Name: "bob has news", URL: "/api/app/mine/info", Token: bob, ExpectedStatus: 200, ExpectedContent: []string{`"msgHasNew":true`}},
			apitest.Scenario{Name: "alice has none", URL: "/api/app/mine/info", Token: alice, ExpectedStatus: 200, ExpectedContent: []string{`"msgHasNew":false`}},
			apitest.Scenario{Name: "bob's unread", URL: "/api/app/mine/unread", Token: bob, ExpectedStatus: 200,
				ExpectedContent: []string{`"messages":1`, `"system":0`}},
			apitest.Scenario{Name: "bob's conversations", URL: "/api/app/mine/conversations", Token: bob, ExpectedStatus: 200,
				ExpectedContent: []string{`"name":"alice_m"`, `"unread":1`, `"text":"你好 bob"`, `"fromMe":false`}},
			apitest.Scenario{Name: "carol sees none of it", URL: fmt.Sprintf("/api/app/message/list?uid=%d", aliceID), Token: carol, ExpectedStatus: 200,
				ExpectedContent: []string{`"list":[]`}, NotExpectedContent: []string{"你好"}},
			apitest.Scenario{Name: "bob reads", Method: "POST", URL: "/api/app/message/read", Token: bob, Body: fmt.Sprintf(`{"uid":%d,"upTo":0}`, aliceID),
				ExpectedStatus: 200, ExpectedContent: []string{`"marked":1`, `"unread":0`}},
			apitest.Scenario{Name: "news cleared", URL: "/api/app/mine/info", Token: bob, ExpectedStatus: 200, ExpectedContent: []string{`"msgHasNew":false`}},
			apitest.Scenario{Name: "alice sees the receipt", URL: fmt.Sprintf("/api/app/message/list?uid=%d", bobID), Token: alice, ExpectedStatus: 200,
				ExpectedContent: []string{`"read":true`, `"name":"bob_m"`}},
			apitest.Scenario{Name: "bob blocks alice", Method: "POST", URL: "/api/app/message/block", Token: bob,
				Body: fmt.Sprintf(`{"uid":%d,"block":true}`, aliceID), ExpectedStatus: 200},
			apitest.Scenario{Name: "alice is refused", Method: "POST", URL: "/api/app/message/send", Token: alice, Body: send(bobID, "hello?", "second-1"),
				ExpectedStatus: 403, ExpectedTip: "对方已将你屏蔽"},
			apitest.Scenario{Name: "bob's blocked list", URL: "/api/app/message/blocked", Token: bob, ExpectedStatus: 200,
				ExpectedContent: []string{`"name":"alice_m"`}},
			apitest.Scenario{Name: "bob reports alice", Method: "POST", URL: "/api/app/message/report", Token: bob,
				Body: fmt.Sprintf(`{"uid":%d,"reason":"骚扰"}`, aliceID), ExpectedStatus: 200},
			apitest.Scenario{Name: "operator reads reports", URL: fmt.Sprintf("/api/admin/message/reports?uid=%d", aliceID), Token: o.op, ExpectedStatus: 200,
				ExpectedContent: []string{`"reason":"骚扰"`, `"text":"你好 bob"`}},
		)
		if n := msgCount(); n != 1 {
			t.Fatalf("%d messages, want 1 (a retry and a blocked send store nothing)", n)
		}
	})
}

// TestMessageReachesTheRecipientsSocket: a message sent over HTTP arrives
// on the recipient's WebSocket as message.new; a socket with a bad token
// is refused before any upgrade.
func TestMessageReachesTheRecipientsSocket(t *testing.T) {
	s := apptest.New(t, db.SQLite)
	srv := httptest.NewServer(s.Handler)
	defer srv.Close()
	_, aliceID := registered(t, s, 31, "alice_ws", "secret12")
	bob, bobID := registered(t, s, 32, "bob_ws", "secret34")
	aliceTok := apitest.Data[struct {
		Token string `json:"token"`
	}](t, apitest.Scenario{Method: "POST", URL: "/api/app/mine/login/h5", Body: `{"account":"alice_ws","passWord":"secret12","sysType":"ios"}`, ExpectedStatus: 200}.Run(t, s.Handler)).Token

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/app/ws"
	if _, resp, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{Subprotocols: []string{realtime.Protocol, "bearer.not-a-token"}}); err == nil || resp == nil || resp.StatusCode != 401 {
		t.Fatalf("bad token: %v %v", resp, err)
	}
	conn, _, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{Subprotocols: []string{realtime.Protocol, "bearer." + bob}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	res := apitest.Scenario{Method: "POST", URL: "/api/app/message/send", Token: aliceTok,
		Body: fmt.Sprintf(`{"uid":%d,"kind":"text","text":"live","clientId":"ws-1"}`, bobID), ExpectedStatus: 200}.Run(t, s.Handler)
	id := apitest.Data[struct {
		ID int64 `json:"id"`
	}](t, res).ID
	_, raw, err := conn.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(`"type":"message.new","data":{"from":%d,"id":%d,"to":%d}`, aliceID, id, bobID); !strings.Contains(string(raw), want) {
		t.Fatalf("bob's socket got %s, want %s", raw, want)
	}
}
