package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/realtime"
	"prima/internal/platform/redisx/redistest"
)

// node is one `prima serve` process.
type node struct {
	base string // http://127.0.0.1:port
	cmd  *exec.Cmd
	log  *syncBuffer
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startNode runs the binary as `prima serve` and waits until it answers.
func startNode(t *testing.T, exe, name string, args ...string) *node {
	t.Helper()
	addr := freeAddr(t)
	n := &node{base: "http://" + addr, log: &syncBuffer{}}
	n.cmd = exec.Command(exe, append([]string{"serve", "-listen", addr, "-data-dir", filepath.Join(t.TempDir(), name), "-log-level", "warn"}, args...)...)
	n.cmd.Stdout, n.cmd.Stderr = n.log, n.log
	if err := n.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = n.cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = n.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = n.cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("%s output:\n%s", name, n.log)
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(n.base + "/api/app/ping/check")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return n
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not come up: %v\n%s", name, err, n.log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// call makes one API call and returns the envelope's data.
func (n *node) call(t *testing.T, method, path, body, token string) json.RawMessage {
	t.Helper()
	req, _ := http.NewRequest(method, n.base+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var env struct {
		Code int             `json:"code"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &env); err != nil || env.Code != 200 {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, raw)
	}
	return env.Data
}

func (n *node) dial(t *testing.T, token string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(n.base, "http")+"/api/app/ws", &websocket.DialOptions{
		Subprotocols: []string{realtime.Protocol, "bearer." + token},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

func read(t *testing.T, c *websocket.Conn) realtime.Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, raw, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	var ev realtime.Event
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatal(err)
	}
	return ev
}

type login struct {
	Token string `json:"token"`
	User  struct {
		UID int64 `json:"uid"`
	} `json:"user"`
}

// Two `prima serve` processes on one PostgreSQL database and one Redis: a
// user connected to one hears what a request to the other did, both ways.
func TestTwoServeProcessesShareEvents(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "prima")
	build := exec.Command("go", "build", "-o", exe, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	raw := make([]byte, 6)
	_, _ = rand.Read(raw)
	shared := []string{
		"-database-url", dbtest.URL(t, db.Postgres),
		"-redis-url", redistest.URL(),
		// Channels of their own: other tests on this Redis never interfere.
		"-redis-prefix", "prima_test_" + hex.EncodeToString(raw) + ":",
	}
	// One after the other: the first applies the migrations.
	a := startNode(t, exe, "a", shared...)
	b := startNode(t, exe, "b", shared...)

	// A guest signs in through B and opens its connection on A.
	var g login
	_ = json.Unmarshal(b.call(t, "POST", "/api/app/mine/login", `{"devID":"TwoNodesTest00011763700000000","sysType":"h5"}`, ""), &g)
	onA := a.dial(t, g.Token)

	// The guest registers through B: A's connection hears it.
	var reg login
	_ = json.Unmarshal(b.call(t, "POST", "/api/app/mine/register", `{"account":"twonodes","passWord":"pass123"}`, g.Token), &reg)
	if ev := read(t, onA); ev.Type != "profile.changed" || string(ev.Data) != fmt.Sprintf(`{"uid":%d}`, g.User.UID) {
		t.Fatalf("A got %s %s", ev.Type, ev.Data)
	}
	if ev := read(t, onA); ev.Type != realtime.SessionRevokedType {
		t.Fatalf("A got %s %s", ev.Type, ev.Data)
	}
	// That was the connection's own (guest) session: A closes it.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, _, err := onA.Read(ctx); websocket.CloseStatus(err) != realtime.CloseSessionInvalid {
		t.Fatalf("A's guest connection: %v", err)
	}

	// The other way round: the account is connected to both nodes, and a
	// second session of it logs out through A.
	onA = a.dial(t, reg.Token)
	onB := b.dial(t, reg.Token)
	var other login
	_ = json.Unmarshal(b.call(t, "POST", "/api/app/mine/login/h5", `{"account":"twonodes","passWord":"pass123"}`, ""), &other)
	a.call(t, "POST", "/api/app/mine/logout", `{}`, other.Token)
	for name, c := range map[string]*websocket.Conn{"A": onA, "B": onB} {
		if ev := read(t, c); ev.Type != realtime.SessionRevokedType {
			t.Fatalf("%s got %s %s", name, ev.Type, ev.Data)
		}
	}
	// Not their own session: both connections stay and keep hearing.
	b.call(t, "POST", "/api/app/mine/logout", `{}`, reg.Token)
	for name, c := range map[string]*websocket.Conn{"A": onA, "B": onB} {
		if ev := read(t, c); ev.Type != realtime.SessionRevokedType {
			t.Fatalf("%s got %s %s", name, ev.Type, ev.Data)
		}
		if _, _, err := c.Read(ctx); websocket.CloseStatus(err) != realtime.CloseSessionInvalid {
			t.Fatalf("%s after its own session was logged out: %v", name, err)
		}
	}
}
