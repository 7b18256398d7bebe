package messaging

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"prima/internal/platform/db"
	"prima/internal/platform/ratelimit"
	"prima/internal/platform/realtime"
)

// Realtime events of direct messages. Like every realtime event they are
// hints to refetch: the database is the truth.
const (
	// EventMessage goes to the recipient and to the sender's other open
	// apps: {"from": uid, "to": uid, "id": message id}.
	EventMessage = "message.new"
	// EventRead goes to both people of a conversation when one reads it:
	// {"reader": uid, "peer": uid, "upTo": id}. The sender's app turns it
	// into read receipts, the reader's other apps clear their badge.
	EventRead = "message.read"
)

// Message kinds.
const (
	KindText  = "text"
	KindImage = "image"
)

// Limits of direct messages.
const (
	// MaxText is the longest text message, in characters after trimming.
	MaxText = 1000
	// MaxClientID bounds the idempotency key a client picks.
	MaxClientID = 64
	// MaxReason bounds a report's reason, in characters.
	MaxReason = 200
)

// Rates: a person chats at a few messages a minute; 30 stops a script
// flooding someone without ever getting in a person's way.
var (
	SendRate   = Rate{N: 30, Per: time.Minute}
	ReportRate = Rate{N: 10, Per: time.Hour}
)

// Rate is N calls per window.
type Rate struct {
	N   int
	Per time.Duration
}

// Errors the HTTP layer maps to envelopes (http.go).
var (
	ErrGuest       = errors.New("messaging: direct messages need a registered account")
	ErrPeerGuest   = errors.New("messaging: the peer is a guest and cannot receive messages")
	ErrNoPeer      = errors.New("messaging: no such user")
	ErrSelf        = errors.New("messaging: a message to oneself")
	ErrBlockedBy   = errors.New("messaging: the peer blocked the sender")
	ErrBlocking    = errors.New("messaging: the sender blocked the peer")
	ErrEmpty       = errors.New("messaging: empty message")
	ErrTooLong     = errors.New("messaging: message too long")
	ErrKind        = errors.New("messaging: unknown message kind")
	ErrClientID    = errors.New("messaging: clientId must be 1-64 letters, digits, '-' or '_'")
	ErrClientReuse = errors.New("messaging: clientId already used for another message")
	ErrNoPicture   = errors.New("messaging: no such picture of the sender's")
	ErrReason      = errors.New("messaging: a report needs a reason of 1-200 characters")
	ErrCategory    = errors.New("messaging: unknown notice category")
)

// LimitError is a rate limit that was hit; RetryIn feeds Retry-After.
type LimitError struct {
	What  string
	After time.Duration
}

func (e *LimitError) Error() string          { return "messaging: too many " + e.What }
func (e *LimitError) RetryIn() time.Duration { return e.After }
func (e *LimitError) Is(target error) bool   { return target == ratelimit.ErrLimited }
func limitErr(what string, err error) error {
	var le *ratelimit.LimitedError
	if errors.As(err, &le) {
		return &LimitError{What: what, After: le.RetryAfter}
	}
	return err
}

// Person is what messaging shows of a user. The account package owns
// users; messaging asks it through People.
type Person struct {
	UID      int64  `json:"uid"`
	Name     string `json:"name"`
	Portrait string `json:"portrait"`
	VipLevel int    `json:"vipLevel"`
	Guest    bool   `json:"-"`
}

// People looks users up; a uid with no user is absent from the map.
type People interface {
	People(ctx context.Context, uids []int64) (map[int64]Person, error)
}

// Picture is an image message's picture: signed, expiring URLs.
type Picture struct {
	URL    string `json:"url"`
	Thumb  string `json:"thumb"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// Pictures is the media pipeline as messaging needs it.
type Pictures interface {
	// OwnPicture reports whether asset id is a ready picture uploaded by owner.
	OwnPicture(ctx context.Context, owner, id int64) (bool, error)
	// Picture signs the URLs of picture id (zero Picture when it is gone).
	Picture(ctx context.Context, id int64) (Picture, error)
}

// Service holds the message centre: notices and direct messages.
type Service struct {
	db       *db.DB
	limiter  ratelimit.Limiter
	people   People
	Pictures Pictures // nil: image messages are refused
	// Events carries message.new / message.read; nil sends nothing.
	Events realtime.Publisher
	// Mutes is the community's mute (mute.go): it refuses a muted sender
	// and mutes a reported user when an operator resolves a report so
	// (reports_admin.go); nil mutes no one and refuses that handling.
	Mutes Mutes
	// Words refuses text messages holding a blocked word (the app wires
	// internal/wordfilter); nil checks nothing.
	Words Words
	now   func() time.Time
}

// NewService builds the message centre over d: users through people,
// image messages through pictures, realtime hints through events.
func NewService(d *db.DB, limiter ratelimit.Limiter, people People, pictures Pictures, events realtime.Publisher) *Service {
	return &Service{db: d, limiter: limiter, people: people, Pictures: pictures, Events: events, now: time.Now}
}

// Words refuses text holding a blocked word with an error the handlers
// answer as it is (422 naming the word; wordfilter.Service implements it).
type Words interface {
	Check(ctx context.Context, text string) error
}

// SetClock replaces the clock (tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// SendInput is POST /api/app/message/send.
type SendInput struct {
	UID      int64  `json:"uid"`
	Kind     string `json:"kind"`
	Text     string `json:"text" text:"multiline"`
	AssetID  int64  `json:"assetId"`
	ClientID string `json:"clientId"`
}

// Message is one direct message as either of its two people see it.
type Message struct {
	ID        int64     `json:"id"`
	From      int64     `json:"from"`
	To        int64     `json:"to"`
	Kind      string    `json:"kind"`
	Text      string    `json:"text"`
	Image     *Picture  `json:"image"`
	ClientID  string    `json:"clientId,omitempty"` // the sender's own key; only the sender sees it
	CreatedAt time.Time `json:"createdAt"`
	// Read: the recipient has read it (the sender's read receipt).
	Read   bool `json:"read"`
	FromMe bool `json:"fromMe"`

	assetID int64
}

// registered is the caller as a chatting user: registered, else ErrGuest.
func (s *Service) registered(ctx context.Context, uid int64) error {
	m, err := s.people.People(ctx, []int64{uid})
	if err != nil {
		return err
	}
	if p, ok := m[uid]; !ok || p.Guest {
		return ErrGuest
	}
	return nil
}

// peer is the other person of a conversation: a registered user, not me.
func (s *Service) peer(ctx context.Context, me, uid int64) (Person, error) {
	if uid == me {
		return Person{}, ErrSelf
	}
	m, err := s.people.People(ctx, []int64{me, uid})
	if err != nil {
		return Person{}, err
	}
	if p, ok := m[me]; !ok || p.Guest {
		return Person{}, ErrGuest
	}
	p, ok := m[uid]
	if !ok {
		return Person{}, ErrNoPeer
	}
	if p.Guest {
		return Person{}, ErrPeerGuest
	}
	return p, nil
}

// checkText trims and bounds a text message.
func checkText(s string) (string, error) {
	s = strings.TrimSpace(s)
	n := utf8.RuneCountInString(s)
	switch {
	case n == 0:
		return "", ErrEmpty
	case n > MaxText:
		return "", ErrTooLong
	}
	return s, nil
}

func checkClientID(id string) error {
	if id == "" || len(id) > MaxClientID {
		return ErrClientID
	}
	for _, c := range id {
		if !(c == '-' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return ErrClientID
		}
	}
	return nil
}

// Send stores a message from me to in.UID and tells both after commit.
// A retried send (same clientId, same content) returns the first message
// and stores nothing; the same clientId for something else is ErrClientReuse.
func (s *Service) Send(ctx context.Context, me int64, in SendInput) (Message, error) {
	if err := checkClientID(in.ClientID); err != nil {
		return Message{}, err
	}
	m := Message{From: me, To: in.UID, Kind: in.Kind, ClientID: in.ClientID, FromMe: true}
	switch in.Kind {
	case KindText:
		t, err := checkText(in.Text)
		if err != nil {
			return Message{}, err
		}
		if s.Words != nil {
			if err := s.Words.Check(ctx, t); err != nil {
				return Message{}, err
			}
		}
		m.Text = t
	case KindImage:
		if in.AssetID <= 0 {
			return Message{}, ErrNoPicture
		}
		m.assetID = in.AssetID
	default:
		return Message{}, ErrKind
	}
	if _, err := s.peer(ctx, me, in.UID); err != nil {
		return Message{}, err
	}
	if err := s.checkMuted(ctx, me); err != nil {
		return Message{}, err
	}
	// A retry of a message already stored answers it again, before the
	// rate limit counts it and whatever blocks came since.
	if prev, err := messageByClient(ctx, s.db, me, in.ClientID); err == nil {
		if prev.To != m.To || prev.Kind != m.Kind || prev.Text != m.Text || prev.assetID != m.assetID {
			return Message{}, ErrClientReuse
		}
		return s.present(ctx, me, prev)
	} else if !errors.Is(err, db.ErrNotFound) {
		return Message{}, err
	}
	if m.Kind == KindImage {
		if s.Pictures == nil {
			return Message{}, ErrNoPicture
		}
		ok, err := s.Pictures.OwnPicture(ctx, me, m.assetID)
		if err != nil {
			return Message{}, err
		}
		if !ok {
			return Message{}, ErrNoPicture
		}
	}
	if err := ratelimit.Enforce(ctx, s.limiter, "msg:send:"+strconv.FormatInt(me, 10), SendRate.N, SendRate.Per, ratelimit.FailOpen); err != nil {
		return Message{}, limitErr("messages", err)
	}
	now := s.now()
	m.CreatedAt = time.Unix(now.Unix(), 0).UTC()
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		// Both block directions are read inside the transaction that
		// writes, so a block that lands first is always honoured.
		blocked, err := blockedEither(ctx, tx, me, m.To)
		if err != nil {
			return err
		}
		switch blocked {
		case blockedByPeer:
			return ErrBlockedBy
		case blockingPeer:
			return ErrBlocking
		}
		id, err := insertMessage(ctx, tx, m, now.Unix())
		if err != nil {
			return err
		}
		m.ID = id
		if err := touchConversation(ctx, tx, me, m.To, id, 0, now.Unix()); err != nil {
			return err
		}
		if err := touchConversation(ctx, tx, m.To, me, id, 1, now.Unix()); err != nil {
			return err
		}
		from, to, mid := me, m.To, id
		tx.AfterCommit(func() {
			data := map[string]int64{"from": from, "to": to, "id": mid}
			realtime.Notify(context.Background(), s.Events, realtime.UserTopic(to), EventMessage, data)
			realtime.Notify(context.Background(), s.Events, realtime.UserTopic(from), EventMessage, data)
		})
		return nil
	})
	if db.IsUnique(err) {
		// Two copies of one send raced and the other won: answer it.
		prev, err := messageByClient(ctx, s.db, me, in.ClientID)
		if err != nil {
			return Message{}, err
		}
		return s.present(ctx, me, prev)
	}
	if err != nil {
		return Message{}, err
	}
	return s.present(ctx, me, m)
}

// present fills what a message shows its viewer: fromMe, the picture's
// signed URLs, and the clientId only to its sender.
func (s *Service) present(ctx context.Context, viewer int64, m Message) (Message, error) {
	m.FromMe = m.From == viewer
	if !m.FromMe {
		m.ClientID = ""
	}
	if m.Kind == KindImage && s.Pictures != nil && m.assetID > 0 {
		p, err := s.Pictures.Picture(ctx, m.assetID)
		if err != nil {
			return m, err
		}
		if p.URL != "" {
			m.Image = &p
		}
	}
	return m, nil
}

// History is one page of a conversation, newest first.
type History struct {
	Peer Person `json:"peer"`
	// Blocked: I blocked the peer; BlockedBy: the peer blocked me.
	Blocked   bool      `json:"blocked"`
	BlockedBy bool      `json:"blockedBy"`
	List      []Message `json:"list"`
	HasMore   bool      `json:"hasMore"`
	// Before is the cursor of the next (older) page: pass it as before.
	Before int64 `json:"before"`
	// PeerReadUpTo is the newest of my messages the peer has read.
	PeerReadUpTo int64 `json:"peerReadUpTo"`
}

// MaxHistoryPage bounds one page of history.
const MaxHistoryPage = 50

// History is my conversation with uid: messages older than before (0: the
// newest), newest first. Only messages between me and uid are ever read,
// so no parameter reaches someone else's conversation.
func (s *Service) History(ctx context.Context, me, uid, before int64, size int) (History, error) {
	p, err := s.peer(ctx, me, uid)
	if err != nil {
		return History{}, err
	}
	h := History{Peer: p, List: []Message{}}
	blocked, err := blockedEither(ctx, s.db, me, uid)
	if err != nil {
		return h, err
	}
	h.Blocked = blocked&blockingPeer != 0
	h.BlockedBy = blocked&blockedByPeer != 0
	list, err := pairPage(ctx, s.db, me, uid, before, size+1)
	if err != nil {
		return h, err
	}
	if len(list) > size {
		list, h.HasMore = list[:size], true
	}
	for _, m := range list {
		m, err := s.present(ctx, me, m)
		if err != nil {
			return h, err
		}
		h.List = append(h.List, m)
	}
	if n := len(h.List); n > 0 {
		h.Before = h.List[n-1].ID
	}
	h.PeerReadUpTo, err = readUpTo(ctx, s.db, me, uid)
	return h, err
}

// ReadResult is what POST message/read answers.
type ReadResult struct {
	UID    int64 `json:"uid"`
	UpTo   int64 `json:"upTo"`
	Marked int   `json:"marked"`
	Unread int   `json:"unread"`
}

// Read marks uid's messages to me up to id upTo (0: all) as read.
func (s *Service) Read(ctx context.Context, me, uid, upTo int64) (ReadResult, error) {
	if uid == me {
		return ReadResult{}, ErrSelf
	}
	if err := s.registered(ctx, me); err != nil {
		return ReadResult{}, err
	}
	r := ReadResult{UID: uid, UpTo: upTo}
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		n, err := markRead(ctx, tx, me, uid, upTo, s.now().Unix())
		if err != nil {
			return err
		}
		r.Marked = n
		if r.Unread, err = recountUnread(ctx, tx, me, uid); err != nil {
			return err
		}
		if n > 0 {
			reader, peer, up := me, uid, upTo
			tx.AfterCommit(func() {
				data := map[string]int64{"reader": reader, "peer": peer, "upTo": up}
				realtime.Notify(context.Background(), s.Events, realtime.UserTopic(peer), EventRead, data)
				realtime.Notify(context.Background(), s.Events, realtime.UserTopic(reader), EventRead, data)
			})
		}
		return nil
	})
	return r, err
}

// Conversation is one row of my conversation list.
type Conversation struct {
	Peer        Person      `json:"peer"`
	LastMessage LastMessage `json:"lastMessage"`
	Unread      int         `json:"unread"`
}

// LastMessage previews a conversation's newest message.
type LastMessage struct {
	ID     int64     `json:"id"`
	Kind   string    `json:"kind"`
	Text   string    `json:"text"` // the text, cut; "" for a picture
	At     time.Time `json:"at"`
	FromMe bool      `json:"fromMe"`
}

// previewLen is how much of a text the conversation list shows.
const previewLen = 60

// Block sets whether I refuse messages from uid.
func (s *Service) Block(ctx context.Context, me, uid int64, block bool) error {
	if _, err := s.peer(ctx, me, uid); err != nil && !errors.Is(err, ErrPeerGuest) {
		return err
	}
	if block {
		_, err := s.db.Exec(ctx, `INSERT INTO message_blocks (user_id, blocked_id, created_at) VALUES (?, ?, ?) ON CONFLICT (user_id, blocked_id) DO NOTHING`, me, uid, s.now().Unix())
		return err
	}
	_, err := s.db.Exec(ctx, `DELETE FROM message_blocks WHERE user_id = ? AND blocked_id = ?`, me, uid)
	return err
}

// Blocked is one user I blocked.
type Blocked struct {
	Person
	At time.Time `json:"at"`
}

// ReportInput is POST /api/app/message/report.
type ReportInput struct {
	UID    int64  `json:"uid"`
	Reason string `json:"reason" text:"multiline"`
}

// Report stores a report of uid (and our conversation) for operators.
func (s *Service) Report(ctx context.Context, me int64, in ReportInput) (int64, error) {
	reason := strings.TrimSpace(in.Reason)
	if n := utf8.RuneCountInString(reason); n == 0 || n > MaxReason {
		return 0, ErrReason
	}
	if _, err := s.peer(ctx, me, in.UID); err != nil && !errors.Is(err, ErrPeerGuest) {
		return 0, err
	}
	if err := ratelimit.Enforce(ctx, s.limiter, "msg:report:"+strconv.FormatInt(me, 10), ReportRate.N, ReportRate.Per, ratelimit.FailOpen); err != nil {
		return 0, limitErr("reports", err)
	}
	return insertReport(ctx, s.db, me, in.UID, reason, s.now().Unix())
}

// withPeople fills Person fields for uids from People.
func (s *Service) lookup(ctx context.Context, uids []int64) (map[int64]Person, error) {
	if len(uids) == 0 {
		return map[int64]Person{}, nil
	}
	return s.people.People(ctx, uids)
}

// personOr is the person uid, or a stand-in for a user that is gone.
func personOr(m map[int64]Person, uid int64) Person {
	if p, ok := m[uid]; ok {
		return p
	}
	return Person{UID: uid}
}
