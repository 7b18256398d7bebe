package pagecache

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cluster carries Invalidate to every node through Redis pub/sub.
//
// A node that invalidates publishes a fresh id on the channel; PUBLISH
// answers how many nodes are subscribed, each of which drops its pages and
// pushes an acknowledgement onto the id's list. The writer waits for all of
// them (up to AckWait) before its request goes on, so when an operator's
// save returns, no node that was listening still serves the old page. A node
// whose subscription broke drops everything when it is restored, since it
// may have missed an invalidation; until then its entries still age out
// after the TTL.
type Cluster struct {
	c       *Cache
	rdb     redis.UniversalClient
	channel string
	ps      *redis.PubSub
	log     *slog.Logger
	done    chan struct{}
	// unconfirmed counts invalidations whose acknowledgements did not all
	// come within AckWait.
	unconfirmed atomic.Uint64
}

// AckWait bounds how long an invalidation waits for the other nodes.
const AckWait = 2 * time.Second

// ackTTL keeps an acknowledgement list no longer than anyone waits for it.
const ackTTL = 30 * time.Second

// Join subscribes c to the invalidations of every node sharing rdb under
// prefix, and makes c's Invalidate publish its own. It returns once Redis
// has confirmed the subscription.
func Join(ctx context.Context, c *Cache, rdb redis.UniversalClient, prefix string, log *slog.Logger) (*Cluster, error) {
	if log == nil {
		log = slog.Default()
	}
	k := &Cluster{c: c, rdb: rdb, channel: prefix + "pagecache", log: log, done: make(chan struct{})}
	k.ps = rdb.Subscribe(ctx, k.channel)
	if _, err := k.ps.Receive(ctx); err != nil {
		k.ps.Close()
		return nil, fmt.Errorf("pagecache: subscribe: %w", err)
	}
	msgs := k.ps.ChannelWithSubscriptions(redis.WithChannelSize(256), redis.WithChannelHealthCheckInterval(15*time.Second))
	go k.receive(msgs)
	pub := k.publish
	c.onInvalidate.Store(&pub)
	return k, nil
}

func (k *Cluster) receive(msgs <-chan any) {
	defer close(k.done)
	for m := range msgs {
		switch m := m.(type) {
		case *redis.Message:
			k.c.drop()
			ctx, cancel := context.WithTimeout(context.Background(), AckWait)
			key := k.channel + ":ack:" + m.Payload
			_, err := k.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.RPush(ctx, key, 1)
				p.Expire(ctx, key, ackTTL)
				return nil
			})
			cancel()
			if err != nil {
				k.log.Warn("page cache: acknowledging an invalidation failed", "err", err)
			}
		case *redis.Subscription:
			// The first confirmation came through Receive in Join; one
			// here is a new connection, after which anything published
			// meanwhile is lost.
			if m.Kind == "subscribe" {
				k.log.Info("page cache: redis subscription restored, dropping every page")
				k.c.drop()
			}
		}
	}
}

// publish tells every node (this one included, which has already dropped
// its pages) and waits for their acknowledgements.
func (k *Cluster) publish(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), AckWait)
	defer cancel()
	var b [12]byte
	_, _ = rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	n, err := k.rdb.Publish(ctx, k.channel, id).Result()
	if err != nil {
		k.log.Warn("page cache: publishing an invalidation failed; other nodes keep their pages until the TTL", "err", err)
		return
	}
	key := k.channel + ":ack:" + id
	defer k.rdb.Del(context.WithoutCancel(ctx), key)
	end, _ := ctx.Deadline()
	for got := int64(0); got < n; got++ {
		left := time.Until(end)
		err := context.DeadlineExceeded
		if left > 0 {
			_, err = k.rdb.BLPop(ctx, left, key).Result()
		}
		if err != nil {
			// redis.Nil: BLPOP's own timeout.
			k.unconfirmed.Add(1)
			k.log.Warn("page cache: not every node acknowledged an invalidation in time", "subscribed", n, "acknowledged", got, "err", err)
			return
		}
	}
}

// Close stops listening; c's Invalidate is local again.
func (k *Cluster) Close() error {
	k.c.onInvalidate.Store(nil)
	err := k.ps.Close()
	<-k.done
	return err
}
