package realtime

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"prima/internal/platform/redisx/redistest"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// testClient connects to the test Redis under a client name unique to the
// test, so a test can find and kill its own connections and nobody else's.
func testClient(t testing.TB, name string) *redis.Client {
	t.Helper()
	opt, err := redis.ParseURL(redistest.URL())
	if err != nil {
		t.Fatal(err)
	}
	opt.ClientName = name
	rdb := redis.NewClient(opt)
	if err := rdb.Ping(context.Background()).Err(); err != nil {
		t.Fatalf("Redis at %s is needed for these tests: %v", redistest.URL(), err)
	}
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

func randomName(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

// newRedisBroker gives the test a Redis broker on a channel prefix of its
// own, so parallel tests and other installs on the same Redis never meet.
func newRedisBroker(t testing.TB, buffer int) (*Redis, *redis.Client, string) {
	t.Helper()
	name := randomName("prima_test_")
	rdb := testClient(t, name)
	prefix := name + ":rt:"
	b := NewRedis(rdb, prefix, buffer, quiet)
	t.Cleanup(func() { b.Close() })
	return b, rdb, prefix
}

// brokers runs fn on every implementation, each made by mk with a buffer.
func brokers(t *testing.T, fn func(t *testing.T, mk func(buffer int) Broker)) {
	t.Run("memory", func(t *testing.T) {
		fn(t, func(buffer int) Broker {
			b := NewMemory(buffer)
			t.Cleanup(func() { b.Close() })
			return b
		})
	})
	t.Run("redis", func(t *testing.T) {
		fn(t, func(buffer int) Broker {
			b, _, _ := newRedisBroker(t, buffer)
			return b
		})
	})
}

func mustEvent(t testing.TB, typ string, data any) Event {
	t.Helper()
	ev, err := NewEvent(typ, data)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

// next waits for one event on s.
func next(t testing.TB, s *Subscription) Event {
	t.Helper()
	select {
	case ev := <-s.Events():
		return ev
	case <-s.Done():
		t.Fatalf("subscription to %s ended: %v", s.Topic(), s.Err())
	case <-time.After(5 * time.Second):
		t.Fatalf("no event on %s within 5s", s.Topic())
	}
	return Event{}
}

// none checks that s receives nothing for a moment.
func none(t testing.TB, s *Subscription) {
	t.Helper()
	select {
	case ev := <-s.Events():
		t.Fatalf("unexpected event on %s: %+v", s.Topic(), ev)
	case <-time.After(150 * time.Millisecond):
	}
}

func TestBrokerConformance(t *testing.T) {
	ctx := context.Background()
	brokers(t, func(t *testing.T, mk func(int) Broker) {
		t.Run("delivers to every subscriber of the topic only", func(t *testing.T) {
			b := mk(0)
			a1, err := b.Subscribe(ctx, UserTopic(1))
			if err != nil {
				t.Fatal(err)
			}
			a2, _ := b.Subscribe(ctx, UserTopic(1))
			other, _ := b.Subscribe(ctx, UserTopic(2))
			sent := mustEvent(t, "profile.changed", map[string]int64{"uid": 1})
			if err := b.Publish(ctx, UserTopic(1), sent); err != nil {
				t.Fatal(err)
			}
			for _, s := range []*Subscription{a1, a2} {
				got := next(t, s)
				if got.Type != sent.Type || string(got.Data) != `{"uid":1}` || !got.At.Equal(sent.At) {
					t.Fatalf("got %+v, sent %+v", got, sent)
				}
			}
			none(t, other)
		})

		t.Run("keeps order per topic", func(t *testing.T) {
			b := mk(0)
			s, _ := b.Subscribe(ctx, "user:7")
			for i := range 20 {
				if err := b.Publish(ctx, "user:7", mustEvent(t, "n", i)); err != nil {
					t.Fatal(err)
				}
			}
			for i := range 20 {
				if got := next(t, s); string(got.Data) != fmt.Sprint(i) {
					t.Fatalf("event %d: data %s", i, got.Data)
				}
			}
		})

		t.Run("a closed subscription receives nothing and others go on", func(t *testing.T) {
			b := mk(0)
			s1, _ := b.Subscribe(ctx, "user:3")
			s2, _ := b.Subscribe(ctx, "user:3")
			s1.Close()
			s1.Close() // twice is harmless
			<-s1.Done()
			if s1.Err() != nil {
				t.Fatalf("closed by its owner: Err = %v", s1.Err())
			}
			_ = b.Publish(ctx, "user:3", mustEvent(t, "x", nil))
			if got := next(t, s2); got.Type != "x" || string(got.Data) != "null" {
				t.Fatalf("got %+v", got)
			}
			none(t, s1)
		})

		t.Run("resubscribing after the last subscriber left works", func(t *testing.T) {
			b := mk(0)
			for range 3 {
				s, err := b.Subscribe(ctx, "user:9")
				if err != nil {
					t.Fatal(err)
				}
				_ = b.Publish(ctx, "user:9", mustEvent(t, "again", nil))
				next(t, s)
				s.Close()
			}
		})

		t.Run("publishing to a topic nobody hears succeeds", func(t *testing.T) {
			if err := mk(0).Publish(ctx, "user:404", mustEvent(t, "x", nil)); err != nil {
				t.Fatal(err)
			}
		})

		t.Run("a slow subscriber is dropped, never blocking the publisher", func(t *testing.T) {
			b := mk(4)
			slow, _ := b.Subscribe(ctx, "user:5")
			fast, _ := b.Subscribe(ctx, "user:5")
			const n = 50
			start := time.Now()
			var got []Event
			for i := range n {
				if err := b.Publish(ctx, "user:5", mustEvent(t, "tick", i)); err != nil {
					t.Fatal(err)
				}
				// The fast subscriber keeps up, one event at a time.
				got = append(got, next(t, fast))
			}
			if len(got) != n {
				t.Fatalf("fast subscriber got %d of %d", len(got), n)
			}
			select {
			case <-slow.Done():
			case <-time.After(5 * time.Second):
				t.Fatal("slow subscriber was not dropped")
			}
			if !errors.Is(slow.Err(), ErrSlowConsumer) {
				t.Fatalf("slow subscriber ended with %v", slow.Err())
			}
			// What it had buffered before falling behind is still readable.
			if len(slow.Events()) != 4 {
				t.Fatalf("slow subscriber buffered %d events, want 4", len(slow.Events()))
			}
			if d := time.Since(start); d > 4*time.Second {
				t.Fatalf("publishing took %v", d)
			}
		})

		t.Run("concurrent publishers and subscribers", func(t *testing.T) {
			b := mk(1000)
			subs := make([]*Subscription, 5)
			for i := range subs {
				subs[i], _ = b.Subscribe(ctx, "user:11")
			}
			var wg sync.WaitGroup
			for p := range 4 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range 50 {
						if err := b.Publish(ctx, "user:11", mustEvent(t, "c", p*100+i)); err != nil {
							t.Error(err)
						}
					}
				}()
			}
			wg.Wait()
			for _, s := range subs {
				seen := map[string]bool{}
				for range 200 {
					seen[string(next(t, s).Data)] = true
				}
				if len(seen) != 200 {
					t.Fatalf("subscriber saw %d distinct events, want 200", len(seen))
				}
			}
		})

		t.Run("close ends subscriptions and refuses new work", func(t *testing.T) {
			b := mk(0)
			s, _ := b.Subscribe(ctx, "user:1")
			if err := b.Close(); err != nil {
				t.Fatal(err)
			}
			select {
			case <-s.Done():
			case <-time.After(5 * time.Second):
				t.Fatal("subscription survived Close")
			}
			if !errors.Is(s.Err(), ErrClosed) {
				t.Fatalf("Err = %v", s.Err())
			}
			if _, err := b.Subscribe(ctx, "user:1"); !errors.Is(err, ErrClosed) {
				t.Fatalf("Subscribe after Close: %v", err)
			}
			if err := b.Publish(ctx, "user:1", mustEvent(t, "x", nil)); !errors.Is(err, ErrClosed) {
				t.Fatalf("Publish after Close: %v", err)
			}
			if err := b.Close(); err != nil {
				t.Fatalf("second Close: %v", err)
			}
		})

		t.Run("bad topics are refused", func(t *testing.T) {
			b := mk(0)
			if _, err := b.Subscribe(ctx, ""); err == nil {
				t.Fatal("empty topic subscribed")
			}
			if err := b.Publish(ctx, strings.Repeat("x", 200), mustEvent(t, "x", nil)); err == nil {
				t.Fatal("overlong topic published")
			}
		})
	})
}

func TestNewEvent(t *testing.T) {
	ev, err := NewEvent("profile.changed", map[string]int64{"uid": 3})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(ev)
	var back map[string]json.RawMessage
	_ = json.Unmarshal(raw, &back)
	if string(back["type"]) != `"profile.changed"` || string(back["data"]) != `{"uid":3}` || len(back["at"]) == 0 {
		t.Fatalf("wire form %s", raw)
	}
	for _, typ := range []string{"", strings.Repeat("a", MaxTypeLen+1)} {
		if _, err := NewEvent(typ, nil); err == nil {
			t.Fatalf("type %q accepted", typ)
		}
	}
	if _, err := NewEvent("x", func() {}); err == nil {
		t.Fatal("unencodable data accepted")
	}
}

// Notify never fails its caller: a nil publisher and a closed broker are
// both only logged.
func TestNotify(t *testing.T) {
	ctx := context.Background()
	Notify(ctx, nil, "user:1", "x", nil)
	b := NewMemory(0)
	s, _ := b.Subscribe(ctx, "user:1")
	Notify(ctx, b, "user:1", "x", map[string]int{"a": 1})
	if got := next(t, s); got.Type != "x" || string(got.Data) != `{"a":1}` {
		t.Fatalf("got %+v", got)
	}
	b.Close()
	Notify(ctx, b, "user:1", "x", nil)
}

// Two brokers on separate connections stand for two nodes: an event
// published on one reaches the other's subscriber.
func TestRedisAcrossBrokers(t *testing.T) {
	ctx := context.Background()
	a, _, prefix := newRedisBroker(t, 0)
	b := NewRedis(testClient(t, randomName("prima_test_")), prefix, 0, quiet)
	defer b.Close()
	s, err := a.Subscribe(ctx, UserTopic(42))
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Publish(ctx, UserTopic(42), mustEvent(t, "profile.changed", map[string]int64{"uid": 42})); err != nil {
		t.Fatal(err)
	}
	if got := next(t, s); got.Type != "profile.changed" {
		t.Fatalf("got %+v", got)
	}
	// A broker on another prefix (another install) hears nothing.
	c := NewRedis(testClient(t, randomName("prima_test_")), randomName("prima_test_")+":rt:", 0, quiet)
	defer c.Close()
	sc, _ := c.Subscribe(ctx, UserTopic(42))
	_ = b.Publish(ctx, UserTopic(42), mustEvent(t, "x", nil))
	next(t, s)
	none(t, sc)
}

// One subscription connection per process, whatever the number of topics
// and subscribers; the channel goes away with the last subscriber.
func TestRedisMultiplexesOneConnection(t *testing.T) {
	ctx := context.Background()
	b, rdb, prefix := newRedisBroker(t, 0)
	var subs []*Subscription
	for i := range 10 {
		for range 3 {
			s, err := b.Subscribe(ctx, UserTopic(int64(i)))
			if err != nil {
				t.Fatal(err)
			}
			subs = append(subs, s)
		}
	}
	clients := pubsubClients(t, rdb)
	if len(clients) != 1 || clients[0]["sub"] != "10" {
		t.Fatalf("pubsub connections: %v", clients)
	}
	n, err := rdb.PubSubNumSub(ctx, prefix+"user:3").Result()
	if err != nil || n[prefix+"user:3"] != 1 {
		t.Fatalf("numsub: %v %v", n, err)
	}
	for _, s := range subs {
		s.Close()
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		ch, _ := rdb.PubSubChannels(ctx, prefix+"*").Result()
		if len(ch) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("channels left subscribed: %v", ch)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// When Redis drops the subscription connection, the broker comes back on
// its own, tells its subscribers to resync, and delivers again.
func TestRedisReconnects(t *testing.T) {
	ctx := context.Background()
	b, rdb, _ := newRedisBroker(t, 0)
	s, err := b.Subscribe(ctx, UserTopic(8))
	if err != nil {
		t.Fatal(err)
	}
	clients := pubsubClients(t, rdb)
	if len(clients) != 1 {
		t.Fatalf("pubsub connections: %v", clients)
	}
	if err := rdb.ClientKillByFilter(ctx, "ID", clients[0]["id"]).Err(); err != nil {
		t.Fatal(err)
	}
	// The resync comes once the channel is subscribed again.
	deadline := time.After(30 * time.Second)
	for {
		select {
		case ev := <-s.Events():
			if ev.Type != ResyncType {
				t.Fatalf("before resync: %+v", ev)
			}
		case <-s.Done():
			t.Fatalf("subscription ended: %v", s.Err())
		case <-deadline:
			t.Fatal("no resync within 30s of the connection being killed")
		}
		break
	}
	if err := b.Publish(ctx, UserTopic(8), mustEvent(t, "after", nil)); err != nil {
		t.Fatal(err)
	}
	if got := next(t, s); got.Type != "after" {
		t.Fatalf("got %+v", got)
	}
	if after := pubsubClients(t, rdb); len(after) != 1 || after[0]["id"] == clients[0]["id"] {
		t.Fatalf("pubsub connections after reconnect: %v (before %v)", after, clients)
	}
}

// Garbage on a channel (another program, an older version) is dropped
// without hurting the subscription.
func TestRedisDropsUndecodable(t *testing.T) {
	ctx := context.Background()
	b, rdb, prefix := newRedisBroker(t, 0)
	s, _ := b.Subscribe(ctx, "user:1")
	rdb.Publish(ctx, prefix+"user:1", "not json")
	rdb.Publish(ctx, prefix+"user:1", `{"data":1}`)
	_ = b.Publish(ctx, "user:1", mustEvent(t, "good", nil))
	if got := next(t, s); got.Type != "good" {
		t.Fatalf("got %+v", got)
	}
}

// pubsubClients lists the pub/sub connections opened under rdb's client
// name, as CLIENT LIST fields.
func pubsubClients(t testing.TB, rdb *redis.Client) []map[string]string {
	t.Helper()
	list, err := rdb.ClientList(context.Background()).Result()
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]string
	for _, line := range strings.Split(strings.TrimSpace(list), "\n") {
		f := map[string]string{}
		for _, kv := range strings.Fields(line) {
			k, v, _ := strings.Cut(kv, "=")
			f[k] = v
		}
		if f["name"] == rdb.Options().ClientName && f["sub"] != "0" && f["sub"] != "" {
			out = append(out, f)
		}
	}
	return out
}
