package app

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"prima/internal/platform/db"
	"prima/internal/platform/realtime"
)

// The realtime endpoint through the whole stack (middleware included, so
// the upgrade survives the gzip and logging wrappers): a guest's open
// connection hears its own upgrade, then that its guest session ended.
func TestRealtimeWiring(t *testing.T) {
	srv := httptest.NewServer(newTestApp(t, db.SQLite))
	defer srv.Close()
	h := srv.Config.Handler
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/app/ws"

	_, env := do(t, h, "POST", "/api/app/mine/login", `{"devID":"AbCdEfGhIjKlMnOp1763700000000","sysType":"ios"}`, "")
	var guest struct {
		Token string `json:"token"`
		User  struct {
			UID int64 `json:"uid"`
		} `json:"user"`
	}
	if err := json.Unmarshal(env.Data, &guest); err != nil || guest.Token == "" {
		t.Fatalf("guest login: %+v %v", env, err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// No token: a 401 envelope, no upgrade.
	if _, resp, err := websocket.Dial(ctx, wsURL, nil); err == nil || resp == nil || resp.StatusCode != 401 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("no token: %v %v", resp, err)
	}
	conn, _, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{
		Subprotocols:    []string{realtime.Protocol, "bearer." + guest.Token},
		HTTPHeader:      map[string][]string{"Accept-Encoding": {"gzip"}},
		CompressionMode: websocket.CompressionDisabled,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()

	rec, env := do(t, h, "POST", "/api/app/mine/register", `{"account":"wired_01","passWord":"pass123"}`, guest.Token)
	if rec.Code != 200 {
		t.Fatalf("register: %d %+v", rec.Code, env)
	}
	var got []realtime.Event
	for range 2 {
		_, raw, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("read after %d events: %v", len(got), err)
		}
		var ev realtime.Event
		_ = json.Unmarshal(raw, &ev)
		got = append(got, ev)
	}
	if got[0].Type != "profile.changed" || string(got[0].Data) != `{"uid":`+jsonInt(guest.User.UID)+`}` || got[1].Type != realtime.SessionRevokedType {
		t.Fatalf("events %+v", got)
	}
	_, _, err = conn.Read(ctx)
	if websocket.CloseStatus(err) != realtime.CloseSessionInvalid {
		t.Fatalf("after the guest session ended: %v", err)
	}
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }
