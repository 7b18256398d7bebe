package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/redisx/redistest"
)

// Two `prima serve` processes on one PostgreSQL database and one Redis: a
// direct message sent through node 1 reaches the recipient's WebSocket on
// node 2, and the reply sent through node 2 reaches the sender on node 1.
func TestTwoServeProcessesDeliverMessages(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "prima")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	raw := make([]byte, 6)
	_, _ = rand.Read(raw)
	shared := []string{
		"-database-url", dbtest.URL(t, db.Postgres),
		"-redis-url", redistest.URL(),
		"-redis-prefix", "prima_test_" + hex.EncodeToString(raw) + ":",
	}
	one := startNode(t, exe, "one", shared...)
	two := startNode(t, exe, "two", shared...)

	signUp := func(n *node, dev, account string) login {
		var g, reg login
		_ = json.Unmarshal(n.call(t, "POST", "/api/app/mine/login", `{"devID":"`+dev+`","sysType":"h5"}`, ""), &g)
		_ = json.Unmarshal(n.call(t, "POST", "/api/app/mine/register", `{"account":"`+account+`","passWord":"pass123"}`, g.Token), &reg)
		if reg.Token == "" || reg.User.UID == 0 {
			t.Fatalf("sign up %s: %+v", account, reg)
		}
		return reg
	}
	alice := signUp(one, "TwoNodesChat00011763700000000", "chat_alice")
	bob := signUp(two, "TwoNodesChat00021763700000000", "chat_bob")
	aliceOnOne := one.dial(t, alice.Token)
	bobOnTwo := two.dial(t, bob.Token)

	var sent struct {
		ID int64 `json:"id"`
	}
	_ = json.Unmarshal(one.call(t, "POST", "/api/app/message/send",
		fmt.Sprintf(`{"uid":%d,"kind":"text","text":"across nodes","clientId":"x-1"}`, bob.User.UID), alice.Token), &sent)
	want := fmt.Sprintf(`{"from":%d,"id":%d,"to":%d}`, alice.User.UID, sent.ID, bob.User.UID)
	if ev := read(t, bobOnTwo); ev.Type != "message.new" || string(ev.Data) != want {
		t.Fatalf("bob on node two got %s %s, want message.new %s", ev.Type, ev.Data, want)
	}
	// Alice's own connection hears her send too (her other devices).
	if ev := read(t, aliceOnOne); ev.Type != "message.new" || string(ev.Data) != want {
		t.Fatalf("alice on node one got %s %s", ev.Type, ev.Data)
	}
	// Bob reads and replies through node two; alice hears both on node one.
	two.call(t, "POST", "/api/app/message/read", fmt.Sprintf(`{"uid":%d,"upTo":%d}`, alice.User.UID, sent.ID), bob.Token)
	if ev := read(t, aliceOnOne); ev.Type != "message.read" {
		t.Fatalf("alice on node one got %s %s, want message.read", ev.Type, ev.Data)
	}
	two.call(t, "POST", "/api/app/message/send",
		fmt.Sprintf(`{"uid":%d,"kind":"text","text":"back to you","clientId":"y-1"}`, alice.User.UID), bob.Token)
	if ev := read(t, aliceOnOne); ev.Type != "message.new" {
		t.Fatalf("alice on node one got %s %s, want the reply", ev.Type, ev.Data)
	}
	var hist struct {
		List []struct {
			Text string `json:"text"`
			Read bool   `json:"read"`
		} `json:"list"`
	}
	_ = json.Unmarshal(one.call(t, "GET", fmt.Sprintf("/api/app/message/list?uid=%d", bob.User.UID), "", alice.Token), &hist)
	if len(hist.List) != 2 || hist.List[0].Text != "back to you" || hist.List[1].Text != "across nodes" || !hist.List[1].Read {
		t.Fatalf("alice's history on node one: %+v", hist.List)
	}
}
