package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func record(t *testing.T, d *db.DB, e Entry) {
	t.Helper()
	err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error { return Record(context.Background(), tx, e) })
	if err != nil {
		t.Fatal(err)
	}
}

func ids(p Page) []int64 {
	var out []int64
	for _, r := range p.List {
		out = append(out, r.ID)
	}
	return out
}

func TestRecordAndList(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		// 25 entries: actors 1 and 2 alternate, every third is a role change.
		for i := 1; i <= 25; i++ {
			action := "user.sessions.revoke"
			if i%3 == 0 {
				action = "user.role"
			}
			record(t, d, Entry{
				Actor:  Actor{UID: int64(1 + i%2), IP: "10.0.0.1", RequestID: fmt.Sprint("req", i)},
				Action: action, TargetType: "user", TargetID: fmt.Sprint(100 + i%4),
				Before: map[string]any{"n": i}, After: nil,
			})
		}
		all, err := List(ctx, d, Filter{Actor: -1}, 1, 10)
		if err != nil {
			t.Fatal(err)
		}
		if all.Total != 25 || len(all.List) != 10 || !all.HasMore || all.List[0].ID <= all.List[9].ID {
			t.Fatalf("first page: total %d, %d rows, more %v, ids %v", all.Total, len(all.List), all.HasMore, ids(all))
		}
		newest := all.List[0]
		if newest.RequestID != "req25" || newest.IP != "10.0.0.1" || string(newest.Before) != `{"n":25}` || string(newest.After) != "null" || newest.CreatedAt.IsZero() {
			t.Fatalf("newest row %+v", newest)
		}
		// Page 3 by offset is the last five; by keyset from page 2 the same.
		p3, err := List(ctx, d, Filter{Actor: -1}, 3, 10)
		if err != nil || len(p3.List) != 5 || p3.HasMore || p3.NextBeforeID != 0 {
			t.Fatalf("page 3: %+v, %v", p3, err)
		}
		p2, _ := List(ctx, d, Filter{Actor: -1}, 2, 10)
		k3, err := List(ctx, d, Filter{Actor: -1, BeforeID: p2.NextBeforeID}, 1, 10)
		if err != nil || !slices.Equal(ids(k3), ids(p3)) {
			t.Fatalf("keyset after page 2: %v, offset page 3: %v (%v)", ids(k3), ids(p3), err)
		}
		// Filters combine.
		f, err := List(ctx, d, Filter{Actor: 2, Action: "user.role"}, 1, 50)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range f.List {
			if r.ActorUID != 2 || r.Action != "user.role" {
				t.Fatalf("filtered row %+v", r)
			}
		}
		if f.Total != 4 || len(f.List) != 4 { // i = 3, 9, 15, 21 are odd multiples of 3
			t.Fatalf("actor 2 role changes: total %d, %d rows", f.Total, len(f.List))
		}
		tg, _ := List(ctx, d, Filter{Actor: -1, TargetType: "user", TargetID: "101"}, 1, 50)
		if tg.Total != 7 { // i = 1, 5, 9, 13, 17, 21, 25
			t.Fatalf("target 101: %d rows", tg.Total)
		}
		cli, _ := List(ctx, d, Filter{Actor: CLI}, 1, 50)
		if cli.Total != 0 || cli.List == nil {
			t.Fatalf("actor 0: %+v", cli)
		}
		// Past the end: an empty list, not an error.
		past, err := List(ctx, d, Filter{Actor: -1}, 9, 10)
		if err != nil || len(past.List) != 0 || past.HasMore {
			t.Fatalf("past the end: %+v, %v", past, err)
		}
	})
}

// The row belongs to its transaction: a rolled-back action leaves no trace.
func TestRecordRollsBackWithTheAction(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		boom := errors.New("action failed")
		err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			if err := Record(ctx, tx, Entry{Action: "user.role", TargetType: "user", TargetID: "1"}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatal(err)
		}
		if p, _ := List(ctx, d, Filter{Actor: -1}, 1, 10); p.Total != 0 {
			t.Fatalf("%d rows after rollback", p.Total)
		}
	})
}

func TestRecordRefusesBadEntries(t *testing.T) {
	d := dbtest.Open(t, db.SQLite)
	ctx := context.Background()
	for _, e := range []Entry{
		{Action: ""},
		{Action: strings.Repeat("a", 65)},
		{Action: "x", TargetID: strings.Repeat("9", 129)},
		{Action: "x", After: func() {}}, // cannot be JSON
	} {
		err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error { return RecordAt(ctx, tx, e, time.Now()) })
		if err == nil {
			t.Errorf("entry %+v recorded", e.Action)
		}
	}
	var n int
	d.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log`).Scan(&n)
	if n != 0 {
		t.Fatalf("%d bad entries stored", n)
	}
	// JSON survives as JSON.
	record(t, d, Entry{Action: "x", After: map[string]string{"role": "operator"}})
	p, _ := List(ctx, d, Filter{Actor: -1}, 1, 1)
	var m map[string]string
	if err := json.Unmarshal(p.List[0].After, &m); err != nil || m["role"] != "operator" || p.List[0].Before == nil {
		t.Fatalf("after = %s, before = %s", p.List[0].After, p.List[0].Before)
	}
}
