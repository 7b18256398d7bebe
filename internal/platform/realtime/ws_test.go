package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"prima/internal/platform/httpx"
)

// fakeAuth is a session table the test can revoke from.
type fakeAuth struct {
	mu       sync.Mutex
	sessions map[string]Session
	fail     error // when set, every check fails with it (database down)
}

func (f *fakeAuth) check(ctx context.Context, token string) (Session, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return Session{}, f.fail
	}
	s, ok := f.sessions[token]
	if !ok {
		return Session{}, ErrUnauthorized
	}
	return s, nil
}

func (f *fakeAuth) revoke(token string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.sessions, token)
}

type wsEnv struct {
	broker Broker
	auth   *fakeAuth
	ws     *WS
	srv    *httptest.Server
	url    string
}

func newWSEnv(t *testing.T, broker Broker, opt WSOptions) *wsEnv {
	t.Helper()
	auth := &fakeAuth{sessions: map[string]Session{
		"tok-alice":  {UserID: 1, ID: "alice-sid-00001"},
		"tok-alice2": {UserID: 1, ID: "alice-sid-00002"},
		"tok-bob":    {UserID: 2, ID: "bob-sid-0000001"},
	}}
	opt.Log = quiet
	ws := NewWS(broker, auth.check, opt)
	srv := httptest.NewServer(httpx.Handler(ws.Serve))
	t.Cleanup(srv.Close)
	return &wsEnv{broker: broker, auth: auth, ws: ws, srv: srv, url: "ws" + strings.TrimPrefix(srv.URL, "http")}
}

func dial(ctx context.Context, url, token string, mod func(*websocket.DialOptions)) (*websocket.Conn, *http.Response, error) {
	opt := &websocket.DialOptions{}
	if token != "" {
		opt.Subprotocols = []string{Protocol, bearerProtocol + token}
	}
	if mod != nil {
		mod(opt)
	}
	return websocket.Dial(ctx, url, opt)
}

func mustDial(t *testing.T, e *wsEnv, token string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, resp, err := dial(ctx, e.url, token, nil)
	if err != nil {
		t.Fatalf("dial with %s: %v (%v)", token, err, resp)
	}
	if got := c.Subprotocol(); got != Protocol {
		t.Fatalf("subprotocol %q, want %q echoed and never the token", got, Protocol)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

func readEvent(t *testing.T, c *websocket.Conn) Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	typ, raw, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if typ != websocket.MessageText {
		t.Fatalf("message type %v", typ)
	}
	var ev Event
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatalf("event %s: %v", raw, err)
	}
	return ev
}

// closeStatus reads until the connection ends and returns its close code.
func closeStatus(t *testing.T, c *websocket.Conn) websocket.StatusCode {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		if _, _, err := c.Read(ctx); err != nil {
			if ctx.Err() != nil {
				t.Fatal("connection still open after 10s")
			}
			return websocket.CloseStatus(err)
		}
	}
}

// waitOpen waits until uid holds n connections on the endpoint.
func waitOpen(t *testing.T, ws *WS, uid int64, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for ws.Open(uid) != n {
		if time.Now().After(deadline) {
			t.Fatalf("user %d holds %d connections, want %d", uid, ws.Open(uid), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The endpoint on both brokers: what a connection receives and when it is
// closed.
func TestWSDeliversUserEvents(t *testing.T) {
	brokers(t, func(t *testing.T, mk func(int) Broker) {
		e := newWSEnv(t, mk(0), WSOptions{})
		ctx := context.Background()
		alice := mustDial(t, e, "tok-alice")
		bob := mustDial(t, e, "tok-bob")
		// Non-browser clients may use the Authorization header instead.
		alice2, _, err := dial(ctx, e.url, "", func(o *websocket.DialOptions) {
			o.HTTPHeader = http.Header{"Authorization": {"Bearer tok-alice2"}}
		})
		if err != nil {
			t.Fatal(err)
		}
		defer alice2.CloseNow()

		sent := mustEvent(t, "profile.changed", map[string]int64{"uid": 1})
		if err := e.broker.Publish(ctx, UserTopic(1), sent); err != nil {
			t.Fatal(err)
		}
		for _, c := range []*websocket.Conn{alice, alice2} {
			got := readEvent(t, c)
			if got.Type != "profile.changed" || string(got.Data) != `{"uid":1}` || !got.At.Equal(sent.At) {
				t.Fatalf("got %+v", got)
			}
		}
		_ = e.broker.Publish(ctx, UserTopic(2), mustEvent(t, "for.bob", nil))
		if got := readEvent(t, bob); got.Type != "for.bob" {
			t.Fatalf("bob got %+v (alice's event leaked?)", got)
		}
	})
}

// Every refusal is an envelope before any upgrade.
func TestWSRefusals(t *testing.T) {
	e := newWSEnv(t, NewMemory(0), WSOptions{OriginHosts: []string{"m.example.com"},
		AllowOrigin: func(_ context.Context, o string) bool { return o == "https://line2.example.com" }})
	for _, c := range []struct {
		name   string
		token  string
		mod    func(*websocket.DialOptions)
		status int
	}{
		{"no token", "", nil, 401},
		{"unknown token", "tok-nobody", nil, 401},
		{"bearer without the protocol", "", func(o *websocket.DialOptions) { o.Subprotocols = []string{"bearer.tok-alice"} }, 400},
		{"basic auth", "", func(o *websocket.DialOptions) {
			o.HTTPHeader = http.Header{"Authorization": {"Basic dG9rLWFsaWNl"}}
		}, 401},
		{"foreign origin", "tok-alice", func(o *websocket.DialOptions) {
			o.HTTPHeader = http.Header{"Origin": {"https://evil.example"}}
		}, 403},
		{"a line's host on another scheme", "tok-alice", func(o *websocket.DialOptions) {
			o.HTTPHeader = http.Header{"Origin": {"http://line2.example.com"}}
		}, 403},
		{"unparsable origin", "tok-alice", func(o *websocket.DialOptions) {
			o.HTTPHeader = http.Header{"Origin": {"::nope"}}
		}, 403},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			conn, resp, err := dial(ctx, e.url, c.token, c.mod)
			if err == nil {
				conn.CloseNow()
				t.Fatal("upgraded")
			}
			if resp == nil || resp.StatusCode != c.status {
				t.Fatalf("response %v, want %d", resp, c.status)
			}
			var env httpx.Envelope
			if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || env.Code != c.status || env.Tip == "" {
				t.Fatalf("envelope %+v, %v", env, err)
			}
		})
	}
	waitOpen(t, e.ws, 1, 0)

	t.Run("not a websocket request", func(t *testing.T) {
		resp, err := http.Get(e.srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var env httpx.Envelope
		_ = json.NewDecoder(resp.Body).Decode(&env)
		if resp.StatusCode != http.StatusUpgradeRequired || env.Code != http.StatusUpgradeRequired {
			t.Fatalf("%d %+v", resp.StatusCode, env)
		}
	})
	t.Run("same or configured origin", func(t *testing.T) {
		host := strings.TrimPrefix(e.srv.URL, "http://")
		for _, origin := range []string{"http://" + host, "https://m.example.com", "https://M.EXAMPLE.com", "https://Line2.example.com"} {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			c, _, err := dial(ctx, e.url, "tok-alice", func(o *websocket.DialOptions) {
				o.HTTPHeader = http.Header{"Origin": {origin}}
			})
			cancel()
			if err != nil {
				t.Fatalf("origin %s: %v", origin, err)
			}
			c.CloseNow()
		}
	})
	t.Run("database down", func(t *testing.T) {
		e.auth.mu.Lock()
		e.auth.fail = errors.New("db down")
		e.auth.mu.Unlock()
		defer func() { e.auth.mu.Lock(); e.auth.fail = nil; e.auth.mu.Unlock() }()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, resp, err := dial(ctx, e.url, "tok-alice", nil)
		if err == nil || resp == nil || resp.StatusCode != 500 {
			t.Fatalf("want 500, got %v %v", resp, err)
		}
	})
}

func TestWSPerUserCap(t *testing.T) {
	e := newWSEnv(t, NewMemory(0), WSOptions{MaxPerUser: 2})
	a := mustDial(t, e, "tok-alice")
	mustDial(t, e, "tok-alice2")
	mustDial(t, e, "tok-bob") // another user is not counted against alice
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, resp, err := dial(ctx, e.url, "tok-alice", nil)
	if err == nil || resp == nil || resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("third connection: %v %v", resp, err)
	}
	a.Close(websocket.StatusNormalClosure, "")
	waitOpen(t, e.ws, 1, 1)
	mustDial(t, e, "tok-alice")
}

// A session revoked while connected is noticed at the next ping even when
// no event says so (the event went to another node, or it simply expired).
func TestWSRecheckClosesRevokedSession(t *testing.T) {
	e := newWSEnv(t, NewMemory(0), WSOptions{PingEvery: 50 * time.Millisecond})
	c := mustDial(t, e, "tok-alice")
	other := mustDial(t, e, "tok-alice2")
	// Database trouble during a re-check keeps the connection.
	e.auth.mu.Lock()
	e.auth.fail = errors.New("db down")
	e.auth.mu.Unlock()
	time.Sleep(200 * time.Millisecond)
	e.auth.mu.Lock()
	e.auth.fail = nil
	e.auth.mu.Unlock()
	waitOpen(t, e.ws, 1, 2)

	e.auth.revoke("tok-alice")
	if got := closeStatus(t, c); got != CloseSessionInvalid {
		t.Fatalf("close status %v, want %v", got, CloseSessionInvalid)
	}
	waitOpen(t, e.ws, 1, 1)
	_ = e.broker.Publish(context.Background(), UserTopic(1), mustEvent(t, "still.here", nil))
	if got := readEvent(t, other); got.Type != "still.here" {
		t.Fatalf("got %+v", got)
	}
	// And a revoked token cannot come back.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, resp, err := dial(ctx, e.url, "tok-alice", nil); err == nil || resp.StatusCode != 401 {
		t.Fatalf("revoked token: %v %v", resp, err)
	}
}

// session.revoked naming this connection's session closes it at once,
// after delivering the event; the user's other sessions get the event and
// stay.
func TestWSSessionRevokedEvent(t *testing.T) {
	e := newWSEnv(t, NewMemory(0), WSOptions{})
	c := mustDial(t, e, "tok-alice")
	other := mustDial(t, e, "tok-alice2")
	ev := mustEvent(t, SessionRevokedType, map[string]string{"sid": "alice-sid-00001"})
	_ = e.broker.Publish(context.Background(), UserTopic(1), ev)
	if got := readEvent(t, c); got.Type != SessionRevokedType {
		t.Fatalf("got %+v", got)
	}
	if got := closeStatus(t, c); got != CloseSessionInvalid {
		t.Fatalf("close status %v", got)
	}
	if got := readEvent(t, other); got.Type != SessionRevokedType {
		t.Fatalf("other got %+v", got)
	}
	_ = e.broker.Publish(context.Background(), UserTopic(1), mustEvent(t, "after", nil))
	if got := readEvent(t, other); got.Type != "after" {
		t.Fatalf("other got %+v", got)
	}
	// Signed out everywhere: every connection of the user closes, and no
	// other user's.
	bob := mustDial(t, e, "tok-bob")
	_ = e.broker.Publish(context.Background(), UserTopic(1), mustEvent(t, SessionRevokedType, map[string]bool{"all": true}))
	readEvent(t, other)
	if got := closeStatus(t, other); got != CloseSessionInvalid {
		t.Fatalf("close status %v", got)
	}
	_ = e.broker.Publish(context.Background(), UserTopic(2), mustEvent(t, "still.bob", nil))
	if got := readEvent(t, bob); got.Type != "still.bob" {
		t.Fatalf("bob got %+v", got)
	}
}

// A client that never reads cannot hold up publishers or the user's other
// connections: it falls behind, is dropped, and its connection closed.
func TestWSSlowConsumer(t *testing.T) {
	brokers(t, func(t *testing.T, mk func(int) Broker) {
		e := newWSEnv(t, mk(8), WSOptions{WriteTimeout: 300 * time.Millisecond})
		ctx := context.Background()
		slow := mustDial(t, e, "tok-alice")
		fast := mustDial(t, e, "tok-alice2")
		fast.SetReadLimit(1 << 20)
		slow.SetReadLimit(1 << 20)
		big := strings.Repeat("x", 64<<10)
		const n = 300 // ~19 MB: more than any socket buffers hold
		start := time.Now()
		for i := range n {
			pstart := time.Now()
			if err := e.broker.Publish(ctx, UserTopic(1), mustEvent(t, "big", map[string]any{"i": i, "pad": big})); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(pstart); d > time.Second {
				t.Fatalf("publish %d took %v", i, d)
			}
			if got := readEvent(t, fast); got.Type != "big" {
				t.Fatalf("fast got %+v", got)
			}
		}
		t.Logf("%d events through in %v", n, time.Since(start))
		// The slow connection is gone on the server side...
		waitOpen(t, e.ws, 1, 1)
		// ...and its client, reading at last, finds the end of the stream.
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		got := 0
		for {
			_, _, err := slow.Read(rctx)
			if err != nil {
				if rctx.Err() != nil {
					t.Fatal("slow connection still open")
				}
				break
			}
			got++
		}
		if got >= n {
			t.Fatalf("slow client got all %d events", got)
		}
	})
}

func TestWSBrokerCloseSaysGoingAway(t *testing.T) {
	b := NewMemory(0)
	e := newWSEnv(t, b, WSOptions{})
	c := mustDial(t, e, "tok-alice")
	b.Close()
	if got := closeStatus(t, c); got != websocket.StatusGoingAway {
		t.Fatalf("close status %v", got)
	}
}

// Clients only listen; a data message from one ends its connection.
func TestWSClientMessagesRefused(t *testing.T) {
	e := newWSEnv(t, NewMemory(0), WSOptions{})
	c := mustDial(t, e, "tok-alice")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = c.Write(ctx, websocket.MessageText, []byte(`{"type":"hello"}`))
	if got := closeStatus(t, c); got != websocket.StatusPolicyViolation {
		t.Fatalf("close status %v", got)
	}
	waitOpen(t, e.ws, 1, 0)
}
