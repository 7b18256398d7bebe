package pagecache

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"prima/internal/platform/redisx"
	"prima/internal/platform/redisx/redistest"
)

// node is one process's cache joined to the test Redis under prefix.
func node(t *testing.T, prefix string) *Cache {
	c, _ := joined(t, prefix, "")
	return c
}

// joined is node with its Cluster; name names its Redis connections.
func joined(t *testing.T, prefix, name string) (*Cache, *Cluster) {
	t.Helper()
	ctx := context.Background()
	opt, err := redis.ParseURL(redistest.URL())
	if err != nil {
		t.Fatal(err)
	}
	opt.ClientName = name
	rdb := redis.NewClient(opt)
	c := New(Options{})
	k, err := Join(ctx, c, rdb, prefix, nil)
	if err != nil {
		t.Fatalf("redis: %v", err)
	}
	t.Cleanup(func() {
		if n := k.unconfirmed.Load(); n > 0 {
			t.Errorf("%d invalidations were not acknowledged by every node in time", n)
		}
		k.Close()
		rdb.Close()
	})
	return c, k
}

func prefix(t *testing.T) string {
	return fmt.Sprintf("pctest:%s:%d:", t.Name(), time.Now().UnixNano())
}

// When Invalidate returns on one node, no other node serves the old page:
// each has dropped it and acknowledged before the writer goes on.
func TestAnInvalidationReachesEveryNodeBeforeItReturns(t *testing.T) {
	p := prefix(t)
	nodes := []*Cache{node(t, p), node(t, p), node(t, p)}
	other := node(t, prefix(t)) // another install on the same Redis
	var s source
	for round := int64(1); round <= 20; round++ {
		for _, c := range append(nodes, other) {
			serve(t, c, "k", s.fill, nil)
		}
		s.version.Store(round)
		nodes[round%3].Invalidate(context.Background())
		want := plain(t, page{List: []string{"a", "b"}, N: round})
		for i, c := range nodes {
			if got := body(t, serve(t, c, "k", s.fill, nil)); got != want {
				t.Fatalf("round %d: node %d still serves %q after node %d's invalidation returned", round, i, got, round%3)
			}
		}
		if got := body(t, serve(t, other, "k", s.fill, nil)); got == want {
			t.Fatalf("round %d: another prefix's cache was invalidated", round)
		}
	}
}

// A node that lost its subscription may have missed invalidations: when
// it is restored, everything it holds is dropped.
func TestARestoredSubscriptionDropsEverything(t *testing.T) {
	ctx := context.Background()
	name := fmt.Sprintf("pctest-%d", time.Now().UnixNano())
	c, _ := joined(t, prefix(t), name)
	var s source
	serve(t, c, "k", s.fill, nil)
	admin, err := redisx.Dial(ctx, redistest.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	// Kill this node's subscription connection (only it: other packages'
	// tests share the server): go-redis redials and subscribes again.
	list, err := admin.ClientList(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	killed := 0
	for _, line := range strings.Split(list, "\n") {
		if strings.Contains(line, " name="+name+" ") && strings.Contains(line, " sub=1 ") {
			id, _, _ := strings.Cut(strings.TrimPrefix(line, "id="), " ")
			if err := admin.Do(ctx, "CLIENT", "KILL", "ID", id).Err(); err != nil {
				t.Fatal(err)
			}
			killed++
		}
	}
	if killed != 1 {
		t.Fatalf("found %d subscription connections named %s in CLIENT LIST", killed, name)
	}
	s.version.Store(5)
	deadline := time.Now().Add(10 * time.Second)
	for body(t, serve(t, c, "k", s.fill, nil)) != plain(t, page{List: []string{"a", "b"}, N: 5}) {
		if time.Now().After(deadline) {
			t.Fatal("the page was not dropped when the subscription came back")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Many writers on several nodes at once: every Invalidate returns (no
// acknowledgement is lost or double counted into a timeout) and the end
// state is the last version everywhere.
func TestConcurrentInvalidations(t *testing.T) {
	p := prefix(t)
	nodes := []*Cache{node(t, p), node(t, p)}
	var s source
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				serve(t, nodes[i%2], "k", s.fill, nil)
				nodes[i%2].Invalidate(context.Background())
			}
		}()
	}
	wg.Wait()
	s.version.Store(99)
	nodes[0].Invalidate(context.Background())
	for i, c := range nodes {
		if got := body(t, serve(t, c, "k", s.fill, nil)); got != plain(t, page{List: []string{"a", "b"}, N: 99}) {
			t.Fatalf("node %d ends with %q", i, got)
		}
	}
}
