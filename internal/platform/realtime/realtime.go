// Package realtime delivers short events from the server to the signed-in
// user's open connections: "your profile changed", "one of your sessions was
// logged out", new messages, notices and wallet updates.
//
// A domain publishes an Event to a topic (UserTopic(uid) for "everything of
// this user"); every connection subscribed to that topic, on any node, gets
// it. Delivery is at most once: an event published while a connection is
// down, or that a slow connection cannot take, is gone. Clients therefore
// treat events as hints to refetch and refetch everything they show when
// they (re)connect; the database stays the only source of truth.
//
// Two Brokers implement this: Memory, for one process (the embedded
// default), and Redis, whose pub/sub carries events between the nodes of a
// scaled-out install. Both fan out to local subscribers through the same
// hub, which never lets one slow subscriber hold up a publisher.
package realtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"
)

// Event is what a subscriber receives, and the JSON a client reads:
// {"type":"profile.changed","data":{"uid":7},"at":"2026-11-22T22:00:00Z"}.
type Event struct {
	Type string          `json:"type"` // short dotted name, e.g. "profile.changed"
	Data json.RawMessage `json:"data"` // the event's payload; null when it has none
	At   time.Time       `json:"at"`   // when it was published, UTC
}

// MaxTypeLen bounds an event type; types are names, not payloads.
const MaxTypeLen = 64

// NewEvent builds an Event of type typ with data encoded as JSON.
func NewEvent(typ string, data any) (Event, error) {
	if typ == "" || len(typ) > MaxTypeLen {
		return Event{}, fmt.Errorf("realtime: event type %q must be 1-%d bytes", typ, MaxTypeLen)
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return Event{}, fmt.Errorf("realtime: %s data: %w", typ, err)
	}
	return Event{Type: typ, Data: raw, At: time.Now().UTC().Truncate(time.Millisecond)}, nil
}

// UserTopic is the topic of everything addressed to user uid.
func UserTopic(uid int64) string { return "user:" + strconv.FormatInt(uid, 10) }

// Publisher sends events. Domains depend on this alone.
type Publisher interface {
	// Publish delivers ev to the topic's current subscribers, at most once.
	// It returns once the event is handed on (to Redis, or to the local
	// subscribers' buffers); it never waits for a subscriber.
	Publish(ctx context.Context, topic string, ev Event) error
}

// Broker publishes events and subscribes connections to topics.
type Broker interface {
	Publisher
	// Subscribe starts delivering the topic's events to a new Subscription.
	// When it returns, every later Publish on any node reaches it.
	Subscribe(ctx context.Context, topic string) (*Subscription, error)
	// Close ends every subscription with ErrClosed and releases resources.
	Close() error
}

var (
	// ErrSlowConsumer ends a subscription whose buffer was full when an
	// event arrived: the subscriber has missed an event and must resync.
	ErrSlowConsumer = errors.New("realtime: subscriber too slow, events dropped")
	// ErrClosed ends subscriptions when their broker closes, and is what
	// Publish and Subscribe return afterwards.
	ErrClosed = errors.New("realtime: broker closed")
)

// DefaultBuffer is how many undelivered events a subscriber may hold before
// it counts as too slow. Events are rare per user (a few a minute at most),
// so a full buffer means a stuck connection, not a burst.
const DefaultBuffer = 64

// Notify publishes an event of type typ with data to topic and logs a
// failure instead of returning it. Domains call it after their change has
// committed: the change stands whether or not anyone hears of it, and a
// request must not fail because realtime is down. p may be nil.
func Notify(ctx context.Context, p Publisher, topic, typ string, data any) {
	if p == nil {
		return
	}
	ev, err := NewEvent(typ, data)
	if err == nil {
		err = p.Publish(ctx, topic, ev)
	}
	if err != nil {
		slog.WarnContext(ctx, "realtime publish failed", "topic", topic, "type", typ, "err", err)
	}
}

// Subscription receives one topic's events until it ends.
type Subscription struct {
	topic  string
	events chan Event
	done   chan struct{}
	hub    *hub

	// err is written once, before done is closed.
	err error
}

// Topic is the subscribed topic.
func (s *Subscription) Topic() string { return s.topic }

// Events delivers the topic's events. It is never closed: select on Done too.
func (s *Subscription) Events() <-chan Event { return s.events }

// Done is closed when the subscription ends.
func (s *Subscription) Done() <-chan struct{} { return s.done }

// Err says why the subscription ended: nil after Close, ErrSlowConsumer or
// ErrClosed. It is only meaningful once Done is closed.
func (s *Subscription) Err() error {
	select {
	case <-s.done:
		return s.err
	default:
		return nil
	}
}

// Close ends the subscription; calling it again does nothing.
func (s *Subscription) Close() { s.hub.remove(s, nil) }

// hub is the local fan-out both brokers share: topic -> subscribers.
// Delivery never blocks: a subscriber whose buffer is full is dropped on
// the spot (ErrSlowConsumer), so one stuck connection costs publishers
// nothing and cannot delay anyone else's events.
type hub struct {
	buffer int
	// onEmpty runs, with mu held, when a topic loses its last subscriber
	// (the Redis broker unsubscribes from the channel then).
	onEmpty func(topic string)

	mu     sync.Mutex
	topics map[string]map[*Subscription]struct{}
	closed bool
}

func newHub(buffer int) *hub {
	if buffer <= 0 {
		buffer = DefaultBuffer
	}
	return &hub{buffer: buffer, topics: make(map[string]map[*Subscription]struct{})}
}

// add registers a new subscription to topic; first reports whether the topic
// had no subscriber before.
func (h *hub) add(topic string) (s *Subscription, first bool, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, false, ErrClosed
	}
	s = &Subscription{topic: topic, events: make(chan Event, h.buffer), done: make(chan struct{}), hub: h}
	subs := h.topics[topic]
	if subs == nil {
		subs = make(map[*Subscription]struct{})
		h.topics[topic] = subs
		first = true
	}
	subs[s] = struct{}{}
	return s, first, nil
}

// remove ends s with err, once.
func (h *hub) remove(s *Subscription, err error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.removeLocked(s, err)
}

func (h *hub) removeLocked(s *Subscription, err error) {
	subs, ok := h.topics[s.topic]
	if !ok {
		return
	}
	if _, ok := subs[s]; !ok {
		return
	}
	delete(subs, s)
	s.err = err
	close(s.done)
	if len(subs) == 0 {
		delete(h.topics, s.topic)
		if h.onEmpty != nil {
			h.onEmpty(s.topic)
		}
	}
}

// deliver hands ev to every local subscriber of topic without waiting.
func (h *hub) deliver(topic string, ev Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.topics[topic] {
		select {
		case s.events <- ev:
		default:
			h.removeLocked(s, ErrSlowConsumer)
		}
	}
}

// has reports whether topic has a local subscriber.
func (h *hub) has(topic string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.topics[topic]) > 0
}

// active lists the topics that have local subscribers.
func (h *hub) active() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]string, 0, len(h.topics))
	for t := range h.topics {
		out = append(out, t)
	}
	return out
}

// close ends every subscription with ErrClosed and refuses new ones.
func (h *hub) close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	for _, subs := range h.topics {
		for s := range subs {
			h.removeLocked(s, ErrClosed)
		}
	}
}

// Memory is the in-process Broker: publishers and subscribers share one
// process, so the hub is all there is.
type Memory struct{ hub *hub }

// NewMemory returns an in-process broker whose subscribers buffer up to
// buffer events (DefaultBuffer when buffer <= 0).
func NewMemory(buffer int) *Memory { return &Memory{hub: newHub(buffer)} }

// Publish implements Publisher.
func (m *Memory) Publish(ctx context.Context, topic string, ev Event) error {
	if err := checkTopic(topic); err != nil {
		return err
	}
	m.hub.mu.Lock()
	closed := m.hub.closed
	m.hub.mu.Unlock()
	if closed {
		return ErrClosed
	}
	m.hub.deliver(topic, ev)
	return nil
}

// Subscribe implements Broker.
func (m *Memory) Subscribe(ctx context.Context, topic string) (*Subscription, error) {
	if err := checkTopic(topic); err != nil {
		return nil, err
	}
	s, _, err := m.hub.add(topic)
	return s, err
}

// Close implements Broker.
func (m *Memory) Close() error {
	m.hub.close()
	return nil
}

// checkTopic refuses topics that could not be a channel name we made.
func checkTopic(topic string) error {
	if topic == "" || len(topic) > 128 {
		return fmt.Errorf("realtime: topic %q must be 1-128 bytes", topic)
	}
	return nil
}
