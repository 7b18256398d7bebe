package messaging

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/ratelimit"
	"prima/internal/platform/realtime"
)

// Named people of the tests: alice and bob chat, carol is a third user
// whose conversations alice must never see, gus is a guest.
const (
	alice int64 = 1
	bob   int64 = 2
	carol int64 = 3
	gus   int64 = 4
)

type fakePeople map[int64]Person

func (f fakePeople) People(_ context.Context, uids []int64) (map[int64]Person, error) {
	out := map[int64]Person{}
	for _, u := range uids {
		if p, ok := f[u]; ok {
			out[u] = p
		}
	}
	return out, nil
}

// fakePictures: asset 10 is alice's ready picture, 11 bob's.
type fakePictures struct{}

func (fakePictures) OwnPicture(_ context.Context, owner, id int64) (bool, error) {
	return (id == 10 && owner == alice) || (id == 11 && owner == bob), nil
}

func (fakePictures) Picture(_ context.Context, id int64) (Picture, error) {
	return Picture{URL: fmt.Sprintf("/media/s/tok/%d.jpg", id), Thumb: "t", Width: 4, Height: 3}, nil
}

type fixture struct {
	s      *Service
	d      *db.DB
	broker *realtime.Memory
}

func newFixture(t *testing.T, d *db.DB) *fixture {
	people := fakePeople{
		alice: {UID: alice, Name: "alice"}, bob: {UID: bob, Name: "bob"},
		carol: {UID: carol, Name: "carol"}, gus: {UID: gus, Name: "guest", Guest: true},
	}
	b := realtime.NewMemory(0)
	t.Cleanup(func() { b.Close() })
	s := NewService(d, ratelimit.NewMemory(), people, fakePictures{}, b)
	return &fixture{s: s, d: d, broker: b}
}

func (f *fixture) send(t *testing.T, from, to int64, text string) Message {
	t.Helper()
	m, err := f.s.Send(context.Background(), from, SendInput{UID: to, Kind: KindText, Text: text, ClientID: fmt.Sprintf("c%d-%d", from, time.Now().UnixNano())})
	if err != nil {
		t.Fatalf("send %d->%d: %v", from, to, err)
	}
	return m
}

func (f *fixture) count(t *testing.T) int {
	t.Helper()
	var n int
	if err := f.d.QueryRow(context.Background(), `SELECT COUNT(*) FROM messages`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSendTellsBothAndRetriesMakeOneMessage(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		toBob, _ := f.broker.Subscribe(ctx, realtime.UserTopic(bob))
		toAlice, _ := f.broker.Subscribe(ctx, realtime.UserTopic(alice))
		in := SendInput{UID: bob, Kind: KindText, Text: "  hello\nbob  ", ClientID: "k-1"}
		m, err := f.s.Send(ctx, alice, in)
		if err != nil {
			t.Fatal(err)
		}
		if m.ID == 0 || m.Text != "hello\nbob" || !m.FromMe || m.Read || m.ClientID != "k-1" {
			t.Fatalf("sent %+v", m)
		}
		for name, sub := range map[string]*realtime.Subscription{"bob": toBob, "alice": toAlice} {
			select {
			case ev := <-sub.Events():
				if ev.Type != EventMessage || string(ev.Data) != fmt.Sprintf(`{"from":1,"id":%d,"to":2}`, m.ID) {
					t.Fatalf("%s heard %s %s", name, ev.Type, ev.Data)
				}
			case <-time.After(2 * time.Second):
				t.Fatalf("%s heard nothing", name)
			}
		}
		// The same send again (a retry after a lost answer) and many in
		// parallel: still one message, the same id.
		var wg sync.WaitGroup
		ids := make(chan int64, 8)
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				again, err := f.s.Send(ctx, alice, in)
				if err != nil {
					t.Error(err)
					return
				}
				ids <- again.ID
			}()
		}
		wg.Wait()
		close(ids)
		for id := range ids {
			if id != m.ID {
				t.Fatalf("retry answered message %d, want %d", id, m.ID)
			}
		}
		if n := f.count(t); n != 1 {
			t.Fatalf("%d messages after retries", n)
		}
		// The same key for something else is a conflict.
		if _, err := f.s.Send(ctx, alice, SendInput{UID: bob, Kind: KindText, Text: "other", ClientID: "k-1"}); !errors.Is(err, ErrClientReuse) {
			t.Fatalf("reused key: %v", err)
		}
		// Parallel first sends of one key also make one message.
		var wg2 sync.WaitGroup
		for range 6 {
			wg2.Add(1)
			go func() {
				defer wg2.Done()
				if _, err := f.s.Send(ctx, alice, SendInput{UID: bob, Kind: KindText, Text: "race", ClientID: "k-race"}); err != nil {
					t.Error(err)
				}
			}()
		}
		wg2.Wait()
		if n := f.count(t); n != 2 {
			t.Fatalf("%d messages after a racing first send, want 2", n)
		}
	})
}

func TestSendRefusesBadInputAndChangesNothing(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		cases := []struct {
			name string
			from int64
			in   SendInput
			want error
		}{
			{"empty", alice, SendInput{UID: bob, Kind: KindText, Text: "", ClientID: "a"}, ErrEmpty},
			{"only spaces", alice, SendInput{UID: bob, Kind: KindText, Text: " \n\t ", ClientID: "a"}, ErrEmpty},
			{"oversized", alice, SendInput{UID: bob, Kind: KindText, Text: strings.Repeat("字", MaxText+1), ClientID: "a"}, ErrTooLong},
			{"to self", alice, SendInput{UID: alice, Kind: KindText, Text: "me", ClientID: "a"}, ErrSelf},
			{"unknown user", alice, SendInput{UID: 999, Kind: KindText, Text: "hi", ClientID: "a"}, ErrNoPeer},
			{"to a guest", alice, SendInput{UID: gus, Kind: KindText, Text: "hi", ClientID: "a"}, ErrPeerGuest},
			{"from a guest", gus, SendInput{UID: alice, Kind: KindText, Text: "hi", ClientID: "a"}, ErrGuest},
			{"unknown kind", alice, SendInput{UID: bob, Kind: "video", Text: "hi", ClientID: "a"}, ErrKind},
			{"no client id", alice, SendInput{UID: bob, Kind: KindText, Text: "hi"}, ErrClientID},
			{"client id with a space", alice, SendInput{UID: bob, Kind: KindText, Text: "hi", ClientID: "a b"}, ErrClientID},
			{"client id too long", alice, SendInput{UID: bob, Kind: KindText, Text: "hi", ClientID: strings.Repeat("a", MaxClientID+1)}, ErrClientID},
			{"someone else's picture", alice, SendInput{UID: bob, Kind: KindImage, AssetID: 11, ClientID: "a"}, ErrNoPicture},
			{"no picture", alice, SendInput{UID: bob, Kind: KindImage, ClientID: "a"}, ErrNoPicture},
		}
		for _, c := range cases {
			if _, err := f.s.Send(ctx, c.from, c.in); !errors.Is(err, c.want) {
				t.Errorf("%s: %v, want %v", c.name, err, c.want)
			}
		}
		if n := f.count(t); n != 0 {
			t.Fatalf("%d messages stored by refused sends", n)
		}
		// Exactly the limit is fine; one more characters is not (above).
		if _, err := f.s.Send(ctx, alice, SendInput{UID: bob, Kind: KindText, Text: strings.Repeat("字", MaxText), ClientID: "max"}); err != nil {
			t.Fatal(err)
		}
		// A picture of one's own is sent with signed URLs.
		m, err := f.s.Send(ctx, alice, SendInput{UID: bob, Kind: KindImage, AssetID: 10, ClientID: "pic"})
		if err != nil || m.Image == nil || m.Image.URL != "/media/s/tok/10.jpg" {
			t.Fatalf("picture: %+v %v", m, err)
		}
	})
}

func TestBlockedSenderIsRefusedAndNothingStored(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		f.send(t, alice, bob, "before")
		if err := f.s.Block(ctx, bob, alice, true); err != nil {
			t.Fatal(err)
		}
		// Blocking twice is the same as once.
		if err := f.s.Block(ctx, bob, alice, true); err != nil {
			t.Fatal(err)
		}
		if _, err := f.s.Send(ctx, alice, SendInput{UID: bob, Kind: KindText, Text: "let me in", ClientID: "b1"}); !errors.Is(err, ErrBlockedBy) {
			t.Fatalf("blocked send: %v", err)
		}
		if _, err := f.s.Send(ctx, bob, SendInput{UID: alice, Kind: KindText, Text: "hm", ClientID: "b2"}); !errors.Is(err, ErrBlocking) {
			t.Fatalf("the blocker sends: %v", err)
		}
		if n := f.count(t); n != 1 {
			t.Fatalf("%d messages, want the one before the block", n)
		}
		h, err := f.s.History(ctx, alice, bob, 0, 20)
		if err != nil || !h.BlockedBy || h.Blocked {
			t.Fatalf("alice's view: blocked %v blockedBy %v (%v)", h.Blocked, h.BlockedBy, err)
		}
		list, err := f.s.BlockedList(ctx, bob, 1, 20)
		if err != nil || list.Total != 1 || list.List[0].UID != alice || list.List[0].Name != "alice" {
			t.Fatalf("bob's blocked list: %+v %v", list, err)
		}
		if err := f.s.Block(ctx, bob, alice, false); err != nil {
			t.Fatal(err)
		}
		f.send(t, alice, bob, "after")
		if err := f.s.Block(ctx, bob, 999, true); !errors.Is(err, ErrNoPeer) {
			t.Fatalf("blocking nobody: %v", err)
		}
		if err := f.s.Block(ctx, bob, bob, true); !errors.Is(err, ErrSelf) {
			t.Fatalf("blocking oneself: %v", err)
		}
	})
}

func TestHistoryPagesByKeysetAndStaysInTheConversation(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		var sent []int64
		for i := range 7 {
			from, to := alice, bob
			if i%2 == 1 {
				from, to = bob, alice
			}
			sent = append(sent, f.send(t, from, to, fmt.Sprintf("m%d", i)).ID)
		}
		// bob and carol talk too: none of it may reach alice.
		secret := f.send(t, bob, carol, "secret")
		f.send(t, carol, bob, "secret reply")

		var got []int64
		before := int64(0)
		for pages := 0; ; pages++ {
			h, err := f.s.History(ctx, alice, bob, before, 3)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range h.List {
				if m.Text == "secret" || m.Text == "secret reply" {
					t.Fatal("another conversation leaked into alice's history")
				}
				if (m.From == alice) != m.FromMe {
					t.Fatalf("fromMe wrong on %+v", m)
				}
				if !m.FromMe && m.ClientID != "" {
					t.Fatalf("alice sees bob's clientId %q", m.ClientID)
				}
				got = append(got, m.ID)
			}
			if !h.HasMore {
				break
			}
			before = h.Before
			if pages > 5 {
				t.Fatal("pagination does not end")
			}
		}
		if len(got) != len(sent) {
			t.Fatalf("paged %d messages, want %d", len(got), len(sent))
		}
		for i := range got {
			if got[i] != sent[len(sent)-1-i] {
				t.Fatalf("order %v, want newest first of %v", got, sent)
			}
		}
		// alice asking for carol's conversation sees only her own with
		// carol: none.
		h, err := f.s.History(ctx, alice, carol, 0, 50)
		if err != nil || len(h.List) != 0 {
			t.Fatalf("alice reads carol: %d messages (%v)", len(h.List), err)
		}
		// Reading up to bob-carol's id marks nothing of theirs.
		if _, err := f.s.Read(ctx, alice, carol, secret.ID); err != nil {
			t.Fatal(err)
		}
		var read int
		_ = d.QueryRow(ctx, `SELECT COUNT(*) FROM messages WHERE read_at <> 0`).Scan(&read)
		if read != 0 {
			t.Fatalf("%d messages marked read by an outsider", read)
		}
		// Carol's conversation list does not hold alice.
		c, err := f.s.Conversations(ctx, carol, 1, 20)
		if err != nil || c.Total != 1 || c.List[0].Peer.UID != bob {
			t.Fatalf("carol's conversations: %+v %v", c, err)
		}
	})
}

func TestReadStateUnreadCountsAndHasNew(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		has := func(uid int64) bool {
			t.Helper()
			ok, err := f.s.HasNew(ctx, uid)
			if err != nil {
				t.Fatal(err)
			}
			return ok
		}
		if has(bob) {
			t.Fatal("a fresh user has news")
		}
		m1 := f.send(t, alice, bob, "one")
		m2 := f.send(t, alice, bob, "two")
		f.send(t, carol, bob, "hey")
		u, err := f.s.Unread(ctx, bob)
		if err != nil || u.Messages != 3 {
			t.Fatalf("bob's unread: %+v %v", u, err)
		}
		if !has(bob) || has(alice) {
			t.Fatal("hasNew: bob should, alice should not")
		}
		conv, _ := f.s.Conversations(ctx, bob, 1, 20)
		if conv.Total != 2 || conv.List[0].Peer.UID != carol || conv.List[0].Unread != 1 || conv.List[1].Unread != 2 || conv.List[1].LastMessage.Text != "two" {
			t.Fatalf("bob's conversations: %+v", conv)
		}
		sub, _ := f.broker.Subscribe(ctx, realtime.UserTopic(alice))
		r, err := f.s.Read(ctx, bob, alice, m1.ID)
		if err != nil || r.Marked != 1 || r.Unread != 1 {
			t.Fatalf("read up to m1: %+v %v", r, err)
		}
		select {
		case ev := <-sub.Events():
			if ev.Type != EventRead || string(ev.Data) != fmt.Sprintf(`{"peer":1,"reader":2,"upTo":%d}`, m1.ID) {
				t.Fatalf("alice heard %s %s", ev.Type, ev.Data)
			}
		case <-time.After(2 * time.Second):
			t.Fatal("alice heard no read receipt")
		}
		h, _ := f.s.History(ctx, alice, bob, 0, 20)
		if h.PeerReadUpTo != m1.ID || h.List[0].ID != m2.ID || h.List[0].Read || !h.List[1].Read {
			t.Fatalf("alice's receipts: upTo %d, %+v", h.PeerReadUpTo, h.List)
		}
		// Reading again marks nothing and tells nobody.
		if r, _ := f.s.Read(ctx, bob, alice, m1.ID); r.Marked != 0 {
			t.Fatalf("read twice marked %d", r.Marked)
		}
		select {
		case ev := <-sub.Events():
			t.Fatalf("a read of nothing was announced: %s", ev.Type)
		case <-time.After(50 * time.Millisecond):
		}
		// Alice cannot mark her own sent messages read for bob.
		if r, _ := f.s.Read(ctx, alice, bob, 0); r.Marked != 0 {
			t.Fatalf("alice marked %d of her own", r.Marked)
		}
		if _, err := f.s.Read(ctx, bob, alice, 0); err != nil {
			t.Fatal(err)
		}
		if _, err := f.s.Read(ctx, bob, carol, 0); err != nil {
			t.Fatal(err)
		}
		if has(bob) {
			t.Fatal("bob still has news after reading everything")
		}
		if u, _ := f.s.Unread(ctx, bob); u.Messages != 0 {
			t.Fatalf("bob's unread after reading: %+v", u)
		}
	})
}

func TestNoticesListReadAndCount(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		now := time.Unix(1_800_000_000, 0)
		err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			for _, n := range []Notice{
				{UserID: bob, Category: CategorySystem, Kind: "withdraw", Title: "提现成功", Ref: "W1"},
				{UserID: bob, Category: CategoryInteraction, Kind: "follow", ActorID: alice, Title: "关注了你", Ref: "1"},
				{UserID: bob, Category: CategoryInteraction, Kind: "follow", ActorID: carol, Title: "关注了你", Ref: "3"},
				{UserID: alice, Category: CategoryInteraction, Kind: "follow", ActorID: bob, Title: "关注了你", Ref: "2"},
			} {
				if err := Notify(ctx, tx, nil, n, now); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		u, _ := f.s.Unread(ctx, bob)
		if u.Notices.System != 1 || u.Notices.Interaction != 2 {
			t.Fatalf("bob's unread notices: %+v", u)
		}
		if ok, _ := f.s.HasNew(ctx, bob); !ok {
			t.Fatal("unread notices are news")
		}
		p, err := f.s.Notices(ctx, bob, CategoryInteraction, 1, 1)
		if err != nil || p.Total != 2 || !p.HasMore || len(p.List) != 1 || p.List[0].Actor == nil || p.List[0].Actor.Name != "carol" {
			t.Fatalf("interaction page 1: %+v %v", p, err)
		}
		sys, _ := f.s.Notices(ctx, bob, CategorySystem, 1, 20)
		if sys.Total != 1 || sys.List[0].Actor != nil || sys.List[0].Ref != "W1" {
			t.Fatalf("system notices: %+v", sys)
		}
		if _, err := f.s.Notices(ctx, bob, "secret", 1, 20); !errors.Is(err, ErrCategory) {
			t.Fatalf("unknown category: %v", err)
		}
		// Marking alice's notice by id from bob's account marks nothing.
		alicesID := int64(0)
		_ = d.QueryRow(ctx, `SELECT id FROM notices WHERE user_id = ?`, alice).Scan(&alicesID)
		if n, err := f.s.ReadNotices(ctx, bob, "", []int64{alicesID}); err != nil || n != 0 {
			t.Fatalf("bob marked alice's notice: %d %v", n, err)
		}
		if n, _ := f.s.ReadNotices(ctx, bob, CategoryInteraction, nil); n != 2 {
			t.Fatalf("marked %d interaction notices, want 2", n)
		}
		if n, _ := f.s.ReadNotices(ctx, bob, "", []int64{sys.List[0].ID}); n != 1 {
			t.Fatalf("marked %d by id, want 1", n)
		}
		if ok, _ := f.s.HasNew(ctx, bob); ok {
			t.Fatal("news after reading every notice")
		}
		if ok, _ := f.s.HasNew(ctx, alice); !ok {
			t.Fatal("alice's notice was read by bob")
		}
		if _, err := f.s.ReadNotices(ctx, bob, "", nil); !errors.Is(err, ErrCategory) {
			t.Fatalf("read with neither category nor ids: %v", err)
		}
	})
}

func TestSendRateLimitAndReports(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		for i := range SendRate.N {
			f.send(t, alice, bob, fmt.Sprintf("spam %d", i))
		}
		_, err := f.s.Send(ctx, alice, SendInput{UID: bob, Kind: KindText, Text: "one too many", ClientID: "over"})
		var le *LimitError
		if !errors.As(err, &le) || le.After <= 0 {
			t.Fatalf("over the limit: %v", err)
		}
		if n := f.count(t); n != SendRate.N {
			t.Fatalf("%d messages, want %d", n, SendRate.N)
		}
		if _, err := f.s.Report(ctx, bob, ReportInput{UID: alice, Reason: "  "}); !errors.Is(err, ErrReason) {
			t.Fatalf("empty reason: %v", err)
		}
		if _, err := f.s.Report(ctx, bob, ReportInput{UID: alice, Reason: strings.Repeat("x", MaxReason+1)}); !errors.Is(err, ErrReason) {
			t.Fatalf("long reason: %v", err)
		}
		if _, err := f.s.Report(ctx, bob, ReportInput{UID: 999, Reason: "spam"}); !errors.Is(err, ErrNoPeer) {
			t.Fatalf("unknown user: %v", err)
		}
		id, err := f.s.Report(ctx, bob, ReportInput{UID: alice, Reason: "spam"})
		if err != nil || id == 0 {
			t.Fatal(err)
		}
		p, err := f.s.Reports(ctx, alice, "", 0, 20)
		if err != nil || len(p.List) != 1 || p.NextCursor != nil || p.List[0].Reporter.Name != "bob" || p.List[0].Reason != "spam" || len(p.List[0].Messages) != reportContext {
			t.Fatalf("operators' reports: %+v %v", p, err)
		}
		if p, _ := f.s.Reports(ctx, bob, "", 0, 20); len(p.List) != 0 {
			t.Fatalf("reports about bob: %d", len(p.List))
		}
	})
}
