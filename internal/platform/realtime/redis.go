package realtime

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// ResyncType is the event a Redis broker delivers to a topic's subscribers
// after its subscription connection was re-established: events published
// while it was down are lost, so clients should refetch what they show.
const ResyncType = "realtime.resync"

// subscribeWait bounds how long Subscribe waits for Redis to confirm a new
// channel, whatever the caller's context allows.
const subscribeWait = 5 * time.Second

// Redis is a Broker whose events travel through Redis pub/sub, so a user
// connected to one node hears what a request to another node caused.
//
// Each process holds one subscription connection, multiplexing the channels
// of the topics it has local subscribers for: the first local subscriber of
// a topic subscribes its channel, the last one leaving unsubscribes it.
// Incoming messages fan out to local subscribers through the hub, exactly
// as in Memory. go-redis re-dials and re-subscribes the connection when
// Redis drops it; the broker then sends ResyncType to every topic.
//
// Pub/sub channels are global to a Redis server (not per numbered
// database), so prefix keeps installs and tests sharing one Redis apart.
type Redis struct {
	rdb    redis.UniversalClient
	prefix string
	hub    *hub
	ps     *redis.PubSub
	log    *slog.Logger
	loop   chan struct{} // closed when the receive loop has ended

	mu        sync.Mutex
	confirmed map[string]bool            // channels Redis has confirmed on the current connection
	pending   map[string][]chan struct{} // channels sent but not yet confirmed -> waiters
	closed    bool
}

// NewRedis returns a broker publishing on rdb under channels named
// prefix+topic. The caller owns rdb and closes it after the broker.
func NewRedis(rdb redis.UniversalClient, prefix string, buffer int, log *slog.Logger) *Redis {
	if log == nil {
		log = slog.Default()
	}
	r := &Redis{
		rdb:       rdb,
		prefix:    prefix,
		hub:       newHub(buffer),
		ps:        rdb.Subscribe(context.Background()),
		log:       log,
		loop:      make(chan struct{}),
		confirmed: make(map[string]bool),
		pending:   make(map[string][]chan struct{}),
	}
	r.hub.onEmpty = func(topic string) {
		// onEmpty runs under the hub's lock; talking to Redis there would
		// stall every delivery for as long as Redis takes to answer.
		go r.release(topic)
	}
	// A ping every 15 s notices a connection Redis has dropped and makes
	// go-redis reconnect and resubscribe; a message counts as a ping.
	msgs := r.ps.ChannelWithSubscriptions(redis.WithChannelSize(1024), redis.WithChannelHealthCheckInterval(15*time.Second))
	go r.receive(msgs)
	return r
}

// Publish implements Publisher.
func (r *Redis) Publish(ctx context.Context, topic string, ev Event) error {
	if err := checkTopic(topic); err != nil {
		return err
	}
	r.mu.Lock()
	closed := r.closed
	r.mu.Unlock()
	if closed {
		return ErrClosed
	}
	raw, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("realtime: %w", err)
	}
	if err := r.rdb.Publish(ctx, r.prefix+topic, raw).Err(); err != nil {
		return fmt.Errorf("realtime: publish: %w", err)
	}
	return nil
}

// Subscribe implements Broker. It returns once Redis has confirmed the
// topic's channel, so nothing published afterwards can be missed.
func (r *Redis) Subscribe(ctx context.Context, topic string) (*Subscription, error) {
	if err := checkTopic(topic); err != nil {
		return nil, err
	}
	s, _, err := r.hub.add(topic)
	if err != nil {
		return nil, err
	}
	ch := r.prefix + topic
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		s.Close()
		return nil, ErrClosed
	}
	if r.confirmed[ch] {
		r.mu.Unlock()
		return s, nil
	}
	wait := make(chan struct{})
	first := len(r.pending[ch]) == 0
	r.pending[ch] = append(r.pending[ch], wait)
	if first {
		// Sent under r.mu so that SUBSCRIBE and UNSUBSCRIBE of one channel
		// reach Redis in the order the broker decided them.
		if err := r.ps.Subscribe(ctx, ch); err != nil {
			delete(r.pending, ch)
			r.mu.Unlock()
			s.Close()
			return nil, fmt.Errorf("realtime: subscribe: %w", err)
		}
	}
	r.mu.Unlock()

	t := time.NewTimer(subscribeWait)
	defer t.Stop()
	select {
	case <-wait:
		return s, nil
	case <-ctx.Done():
		s.Close()
		return nil, ctx.Err()
	case <-t.C:
		s.Close()
		return nil, fmt.Errorf("realtime: redis did not confirm subscription to %s within %v", ch, subscribeWait)
	case <-r.loop:
		s.Close()
		return nil, ErrClosed
	}
}

// release unsubscribes topic's channel if it still has no local subscriber
// (one may have arrived since the last one left).
func (r *Redis) release(topic string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || r.hub.has(topic) {
		return
	}
	ch := r.prefix + topic
	ctx, cancel := context.WithTimeout(context.Background(), subscribeWait)
	defer cancel()
	// go-redis forgets the channel even when the command fails, so a
	// reconnect will not subscribe it again; Redis drops it with the
	// broken connection.
	if err := r.ps.Unsubscribe(ctx, ch); err != nil {
		r.log.Warn("realtime unsubscribe failed", "channel", ch, "err", err)
	}
	delete(r.confirmed, ch)
}

// receive fans incoming messages out to local subscribers until the
// subscription connection is closed.
func (r *Redis) receive(msgs <-chan any) {
	defer close(r.loop)
	for msg := range msgs {
		switch m := msg.(type) {
		case *redis.Message:
			topic, ok := strings.CutPrefix(m.Channel, r.prefix)
			if !ok {
				continue
			}
			var ev Event
			if err := json.Unmarshal([]byte(m.Payload), &ev); err != nil || ev.Type == "" {
				r.log.Warn("realtime: undecodable message dropped", "channel", m.Channel, "err", err)
				continue
			}
			r.hub.deliver(topic, ev)
		case *redis.Subscription:
			r.confirm(m)
		}
	}
}

// confirm records Redis's answer to SUBSCRIBE or UNSUBSCRIBE. A channel
// confirmed twice without an unsubscribe in between was re-subscribed on a
// new connection: its subscribers may have missed events.
func (r *Redis) confirm(m *redis.Subscription) {
	r.mu.Lock()
	var resync bool
	switch m.Kind {
	case "subscribe":
		resync = r.confirmed[m.Channel]
		r.confirmed[m.Channel] = true
		for _, w := range r.pending[m.Channel] {
			close(w)
		}
		delete(r.pending, m.Channel)
	case "unsubscribe":
		delete(r.confirmed, m.Channel)
	}
	r.mu.Unlock()
	if resync {
		topic := strings.TrimPrefix(m.Channel, r.prefix)
		r.log.Info("realtime: redis subscription restored", "channel", m.Channel)
		if ev, err := NewEvent(ResyncType, nil); err == nil {
			r.hub.deliver(topic, ev)
		}
	}
}

// Close implements Broker. It does not close the Redis client, which the
// rest of the process shares.
func (r *Redis) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	r.mu.Unlock()
	r.hub.close()
	err := r.ps.Close()
	<-r.loop
	return err
}
