package messaging

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/realtime"
)

func TestNotifyWritesWithTheChangeAndTellsAfterCommit(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		broker := realtime.NewMemory(0)
		defer broker.Close()
		sub, err := broker.Subscribe(ctx, realtime.UserTopic(7))
		if err != nil {
			t.Fatal(err)
		}
		now := time.Unix(1_800_000_000, 0)
		long := strings.Repeat("长", maxTitle+10)

		// A rolled-back change leaves no notice and tells nobody.
		boom := errors.New("boom")
		err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			if err := Notify(ctx, tx, broker, Notice{UserID: 7, Category: CategoryInteraction, Kind: "follow", ActorID: 9, Title: "x"}, now); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatal(err)
		}
		// A committed one is stored, cut to length, and announced.
		err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			if err := Notify(ctx, tx, broker, Notice{UserID: 7, Category: CategoryInteraction, Kind: "follow", ActorID: 9, Title: long, Ref: "9"}, now); err != nil {
				return err
			}
			// Nobody is told of what they did themselves.
			return Notify(ctx, tx, broker, Notice{UserID: 7, Category: CategoryInteraction, Kind: "like", ActorID: 7, Title: "self"}, now)
		})
		if err != nil {
			t.Fatal(err)
		}
		var n int
		var title, category string
		var actor int64
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM notices WHERE user_id = 7`).Scan(&n); err != nil || n != 1 {
			t.Fatalf("%d notices (%v), want 1", n, err)
		}
		if err := d.QueryRow(ctx, `SELECT title, category, actor_id FROM notices WHERE user_id = 7`).Scan(&title, &category, &actor); err != nil {
			t.Fatal(err)
		}
		if []rune(title)[0] != '长' || len([]rune(title)) != maxTitle || category != CategoryInteraction || actor != 9 {
			t.Fatalf("stored %d-character title, %q, actor %d", len([]rune(title)), category, actor)
		}
		select {
		case ev := <-sub.Events():
			if ev.Type != EventNotice || !strings.Contains(string(ev.Data), `"follow"`) {
				t.Fatalf("event %s %s", ev.Type, ev.Data)
			}
		case <-time.After(2 * time.Second):
			t.Fatal("no notice.new event after commit")
		}
		select {
		case ev := <-sub.Events():
			t.Fatalf("a second event %s %s: the rolled-back or self notice was announced", ev.Type, ev.Data)
		case <-time.After(50 * time.Millisecond):
		}
	})
}

func TestNotifyRefusesAnIncompleteNotice(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		for _, n := range []Notice{
			{Category: CategorySystem, Kind: "k", Title: "t"},
			{UserID: 1, Category: "other", Kind: "k", Title: "t"},
			{UserID: 1, Category: CategorySystem, Title: "t"},
			{UserID: 1, Category: CategorySystem, Kind: "k"},
		} {
			err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error { return Notify(ctx, tx, nil, n, time.Now()) })
			if !errors.Is(err, errNotice) {
				t.Errorf("%+v: %v, want errNotice", n, err)
			}
		}
	})
}

func TestNotifyOnceTellsOncePerWindow(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Unix(1_800_000_000, 0)
		like := func(at time.Time, actor int64, ref string) {
			t.Helper()
			err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				return NotifyOnce(ctx, tx, nil, Notice{UserID: 7, Category: CategoryInteraction, Kind: "like", ActorID: actor, Title: "x", Ref: ref}, 24*time.Hour, at)
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		count := func() (n int) {
			t.Helper()
			if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM notices WHERE user_id = 7`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		like(now, 9, "1")
		like(now.Add(time.Hour), 9, "1") // same actor and thing within the window
		if n := count(); n != 1 {
			t.Fatalf("%d notices within the window, want 1", n)
		}
		like(now.Add(time.Hour), 8, "1") // another actor
		like(now.Add(time.Hour), 9, "2") // another thing
		like(now.Add(25*time.Hour), 9, "1")
		if n := count(); n != 4 {
			t.Fatalf("%d notices, want 4", n)
		}
	})
}
