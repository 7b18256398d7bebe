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

func ids(rows []Row) []int64 {
	var out []int64
	for _, r := range rows {
		out = append(out, r.ID)
	}
	return out
}

func TestRecordAndList(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		// 25 entries: actors 1 and 2 alternate, every third is a role change,
		// one a minute from 2026-01-01 00:00 UTC.
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		for i := 1; i <= 25; i++ {
			action := "user.sessions.revoke"
			if i%3 == 0 {
				action = "user.role"
			}
			err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				return RecordAt(ctx, tx, Entry{
					Actor:  Actor{UID: int64(1 + i%2), IP: "10.0.0.1", RequestID: fmt.Sprint("req", i)},
					Action: action, TargetType: "user", TargetID: fmt.Sprint(100 + i%4),
					Before: map[string]any{"n": i}, After: nil,
				}, t0.Add(time.Duration(i)*time.Minute))
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		all, err := List(ctx, d, Filter{Actor: -1}, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) != 10 || all[0].ID != 25 || all[9].ID != 16 {
			t.Fatalf("first page: ids %v", ids(all))
		}
		newest := all[0]
		if newest.RequestID != "req25" || newest.IP != "10.0.0.1" || string(newest.Before) != `{"n":25}` || string(newest.After) != "null" ||
			!newest.CreatedAt.Equal(t0.Add(25*time.Minute)) || len(newest.Hash) != 64 || newest.PrevHash != all[1].Hash {
			t.Fatalf("newest row %+v", newest)
		}
		// Keyset: after the first ten, the next ten, then the last five.
		p2, _ := List(ctx, d, Filter{Actor: -1, BeforeID: all[9].ID}, 10)
		p3, err := List(ctx, d, Filter{Actor: -1, BeforeID: p2[9].ID}, 10)
		if err != nil || !slices.Equal(ids(p3), []int64{5, 4, 3, 2, 1}) {
			t.Fatalf("third page %v (%v)", ids(p3), err)
		}
		// Filters combine.
		f, err := List(ctx, d, Filter{Actor: 2, Action: "user.role"}, 50)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range f {
			if r.ActorUID != 2 || r.Action != "user.role" {
				t.Fatalf("filtered row %+v", r)
			}
		}
		if len(f) != 4 { // i = 3, 9, 15, 21 are odd multiples of 3
			t.Fatalf("actor 2 role changes: %d rows", len(f))
		}
		if tg, _ := List(ctx, d, Filter{Actor: -1, TargetType: "user", TargetID: "101"}, 50); len(tg) != 7 { // i = 1, 5, 9, 13, 17, 21, 25
			t.Fatalf("target 101: %d rows", len(tg))
		}
		if tg, _ := List(ctx, d, Filter{Actor: -1, TargetType: "user"}, 50); len(tg) != 25 {
			t.Fatalf("target type user: %d rows", len(tg))
		}
		// Time: from inclusive, to exclusive.
		tw, _ := List(ctx, d, Filter{Actor: -1, From: t0.Add(10 * time.Minute).Unix(), To: t0.Add(13 * time.Minute).Unix()}, 50)
		if !slices.Equal(ids(tw), []int64{12, 11, 10}) {
			t.Fatalf("minutes 10-12: %v", ids(tw))
		}
		cli, _ := List(ctx, d, Filter{Actor: CLI}, 50)
		if len(cli) != 0 || cli == nil {
			t.Fatalf("actor 0: %+v", cli)
		}
		// Each reads in batches up to max.
		var seen []int64
		if err := Each(ctx, d, Filter{Actor: -1}, 7, func(r Row) error { seen = append(seen, r.ID); return nil }); err != nil || len(seen) != 7 || seen[6] != 19 {
			t.Fatalf("each: %v %v", seen, err)
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
		if rows, _ := List(ctx, d, Filter{Actor: -1}, 10); len(rows) != 0 {
			t.Fatalf("%d rows after rollback", len(rows))
		}
		if rep, err := Verify(ctx, d); err != nil || rep.Broken != nil || rep.LastID != 0 || rep.Head != Genesis {
			t.Fatalf("the rolled-back row moved the chain head: %+v %v", rep, err)
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
	p, _ := List(ctx, d, Filter{Actor: -1}, 1)
	var m map[string]string
	if err := json.Unmarshal(p[0].After, &m); err != nil || m["role"] != "operator" || p[0].Before == nil {
		t.Fatalf("after = %s, before = %s", p[0].After, p[0].Before)
	}
}
