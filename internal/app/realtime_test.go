package app_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/platform/db"
	"prima/internal/platform/realtime"
	"prima/internal/platform/redisx/redistest"
)

// The realtime endpoint through the whole stack (middleware included, so
// the upgrade survives the wrappers around the ResponseWriter), with the
// in-process broker and with Redis: a guest's open connection hears its
// own upgrade, then that its guest session ended.
func TestRealtimeWiring(t *testing.T) {
	raw := make([]byte, 6)
	_, _ = rand.Read(raw)
	t.Run("memory", func(t *testing.T) { realtimeJourney(t, apptest.New(t, db.SQLite)) })
	t.Run("redis", func(t *testing.T) {
		s := apptest.New(t, db.Postgres, "-redis-url", redistest.URL(), "-redis-prefix", "prima_test_"+hex.EncodeToString(raw)+":")
		if _, ok := s.App.Events.(*realtime.Redis); !ok {
			t.Fatalf("with PRIMA_REDIS_URL the broker is %T", s.App.Events)
		}
		realtimeJourney(t, s)
	})
}

func realtimeJourney(t *testing.T, s *apptest.Server) {
	srv := httptest.NewServer(s.Handler)
	defer srv.Close()
	wsURL := "ws" + strings.TrimPrefix(srv.URL, "http") + "/api/app/ws"
	call := func(path, body, token string) json.RawMessage {
		t.Helper()
		req, _ := http.NewRequest("POST", srv.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var env struct {
			Code int             `json:"code"`
			Data json.RawMessage `json:"data"`
		}
		if json.Unmarshal(b, &env) != nil || env.Code != 200 {
			t.Fatalf("POST %s: %d %s", path, resp.StatusCode, b)
		}
		return env.Data
	}
	var guest struct {
		Token string `json:"token"`
		User  struct {
			UID int64 `json:"uid"`
		} `json:"user"`
	}
	_ = json.Unmarshal(call("/api/app/mine/login", `{"devID":"`+apitest.DevID(1)+`","sysType":"ios"}`, ""), &guest)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// No token: a 401 envelope, no upgrade.
	if _, resp, err := websocket.Dial(ctx, wsURL, nil); err == nil || resp == nil || resp.StatusCode != 401 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("no token: %v %v", resp, err)
	}
	conn, _, err := websocket.Dial(ctx, wsURL, &websocket.DialOptions{
		Subprotocols: []string{realtime.Protocol, "bearer." + guest.Token},
		// Gzip must leave the upgrade alone.
		HTTPHeader: http.Header{"Accept-Encoding": {"gzip"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()

	call("/api/app/mine/register", `{"account":"wired_01","passWord":"pass123"}`, guest.Token)
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
	if got[0].Type != "profile.changed" || string(got[0].Data) != fmt.Sprintf(`{"uid":%d}`, guest.User.UID) || got[1].Type != realtime.SessionRevokedType {
		t.Fatalf("events %+v", got)
	}
	_, _, err = conn.Read(ctx)
	if websocket.CloseStatus(err) != realtime.CloseSessionInvalid {
		t.Fatalf("after the guest session ended: %v", err)
	}
}
