package audit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func exec(t *testing.T, d *db.DB, q string, args ...any) {
	t.Helper()
	if _, err := d.Exec(context.Background(), q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func verify(t *testing.T, d *db.DB) Report {
	t.Helper()
	rep, err := Verify(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func fill(t *testing.T, d *db.DB, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		record(t, d, Entry{Actor: Actor{UID: int64(i), IP: "10.0.0.1", RequestID: fmt.Sprint("r", i)}, Action: "video.publish",
			TargetType: "video", TargetID: fmt.Sprint(i), Before: map[string]any{"published": false}, After: map[string]any{"published": true, "note": "<&>"}})
	}
}

// The chain's serialisation is the documented one: SHA-256 of prev_hash,
// a newline and the JSON array of the stored values, HTML characters
// unescaped.
func TestChainSerialisation(t *testing.T) {
	d := dbtest.Open(t, db.SQLite)
	ctx := context.Background()
	err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		return RecordAt(ctx, tx, Entry{Actor: Actor{UID: 7, IP: "10.0.0.1", RequestID: "req-1"}, Action: "tag.create", TargetType: "tag",
			TargetID: "3", After: map[string]any{"name": "<猫>"}}, time.Unix(1767225600, 0))
	})
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := List(ctx, d, Filter{Actor: -1}, 1)
	canonical := `[1,1767225600,7,"tag.create","tag","3",null,"{\"name\":\"<猫>\"}","10.0.0.1","req-1"]`
	sum := sha256.Sum256([]byte(Genesis + "\n" + canonical))
	if r := rows[0]; r.PrevHash != Genesis || r.Hash != hex.EncodeToString(sum[:]) {
		t.Fatalf("row %d: prev %s hash %s, want %s", r.ID, r.PrevHash, r.Hash, hex.EncodeToString(sum[:]))
	}
}

// Verify finds every kind of tampering and names the first broken row:
// an edited field, an edited hash, a deleted row in the middle or at the
// end, a row slipped in; the log restored, it is intact again.
func TestChainTamperDetection(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		fill(t, d, 6)
		rep := verify(t, d)
		if rep.Broken != nil || rep.Chained != 6 || rep.LastID != 6 || rep.Unchained != 0 {
			t.Fatalf("fresh log %+v", rep)
		}
		expectBroken := func(id int64, reason string) {
			t.Helper()
			rep := verify(t, d)
			if rep.Broken == nil || rep.Broken.ID != id || !strings.Contains(rep.Broken.Reason, reason) {
				t.Fatalf("broken %+v, want row %d %q", rep.Broken, id, reason)
			}
		}
		for _, c := range []struct {
			name, tamper, undo string
			id                 int64
			reason             string
		}{
			{"action", `UPDATE audit_log SET action = 'video.unpublish' WHERE id = 3`, `UPDATE audit_log SET action = 'video.publish' WHERE id = 3`, 3, "contents do not match"},
			{"after", `UPDATE audit_log SET after = '{"published":false}' WHERE id = 4`, `UPDATE audit_log SET after = '{"note":"<&>","published":true}' WHERE id = 4`, 4, "contents do not match"},
			{"actor", `UPDATE audit_log SET actor_uid = 99 WHERE id = 2`, `UPDATE audit_log SET actor_uid = 2 WHERE id = 2`, 2, "contents do not match"},
			{"time", `UPDATE audit_log SET created_at = created_at + 1 WHERE id = 5`, `UPDATE audit_log SET created_at = created_at - 1 WHERE id = 5`, 5, "contents do not match"},
			{"ip", `UPDATE audit_log SET ip = '' WHERE id = 1`, `UPDATE audit_log SET ip = '10.0.0.1' WHERE id = 1`, 1, "contents do not match"},
		} {
			exec(t, d, c.tamper)
			expectBroken(c.id, c.reason)
			exec(t, d, c.undo)
			if rep := verify(t, d); rep.Broken != nil {
				t.Fatalf("%s restored: %+v", c.name, rep.Broken)
			}
		}

		// A row's hash rewritten to match its edited contents: the next
		// row's prev_hash no longer agrees.
		var r4 stored
		r4rows, _ := List(context.Background(), d, Filter{Actor: -1, BeforeID: 5}, 1)
		exec(t, d, `UPDATE audit_log SET action = 'video.delete' WHERE id = 4`)
		r4 = stored{id: 4, createdAt: r4rows[0].CreatedAt.Unix(), actor: 4, action: "video.delete", targetType: "video", targetID: "4", ip: "10.0.0.1", requestID: "r4"}
		r4.before.String, r4.before.Valid = string(r4rows[0].Before), true
		r4.after.String, r4.after.Valid = string(r4rows[0].After), true
		exec(t, d, `UPDATE audit_log SET hash = ? WHERE id = 4`, rowHash(r4rows[0].PrevHash, r4))
		expectBroken(5, "prev_hash")

		// Deleted rows: from the middle, the next row is named; from the
		// end, the first missing one.
		d2 := dbtest.Open(t, d.Engine)
		fill(t, d2, 5)
		exec(t, d2, `DELETE FROM audit_log WHERE id = 3`)
		if rep := verify(t, d2); rep.Broken == nil || rep.Broken.ID != 4 || !strings.Contains(rep.Broken.Reason, "missing") {
			t.Fatalf("a deleted middle row: %+v", rep.Broken)
		}
		d3 := dbtest.Open(t, d.Engine)
		fill(t, d3, 5)
		exec(t, d3, `DELETE FROM audit_log WHERE id >= 4`)
		if rep := verify(t, d3); rep.Broken == nil || rep.Broken.ID != 4 || !strings.Contains(rep.Broken.Reason, "rows 4 to 5 are missing") {
			t.Fatalf("rows cut from the end: %+v", rep.Broken)
		}
		// A row slipped in past the head, or without a hash.
		d4 := dbtest.Open(t, d.Engine)
		fill(t, d4, 3)
		exec(t, d4, `INSERT INTO audit_log (id, actor_uid, action, created_at) VALUES (4, 1, 'user.role', 1)`)
		if rep := verify(t, d4); rep.Broken == nil || rep.Broken.ID != 4 {
			t.Fatalf("a row without a hash: %+v", rep.Broken)
		}
	})
}

// Rows from before the chain (migration 0057 marks them by start_id) are
// left out; the chain starts after them from Genesis.
func TestChainStartsAfterOlderRows(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		for i := 1; i <= 3; i++ {
			exec(t, d, `INSERT INTO audit_log (id, actor_uid, action, created_at) VALUES (?, 0, 'user.create', 1)`, i)
		}
		exec(t, d, `UPDATE audit_chain SET start_id = 3, last_id = 3`)
		fill(t, d, 2)
		rep := verify(t, d)
		if rep.Broken != nil || rep.Unchained != 3 || rep.Chained != 2 || rep.StartID != 3 || rep.LastID != 5 {
			t.Fatalf("%+v %+v", rep, rep.Broken)
		}
		rows, _ := List(context.Background(), d, Filter{Actor: -1}, 5)
		if rows[1].ID != 4 || rows[1].PrevHash != Genesis || rows[2].Hash != "" {
			t.Fatalf("rows %+v", rows)
		}
	})
}

// 20 writers appending at once (on PostgreSQL truly in parallel, each in
// its own transaction) make one chain: 20 rows, consecutive ids, intact.
func TestChainConcurrentWriters(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		fill(t, d, 2)
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make(chan error, 20)
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs <- d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
					// Some work before the append, as an action does.
					if _, err := tx.Exec(ctx, `SELECT COUNT(*) FROM audit_log`); err != nil {
						return err
					}
					return Record(ctx, tx, Entry{Actor: Actor{UID: int64(100 + i)}, Action: "wallet.adjust", TargetType: "user", TargetID: fmt.Sprint(i)})
				})
			}()
		}
		close(start)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		rep := verify(t, d)
		if rep.Broken != nil || rep.Chained != 22 || rep.LastID != 22 {
			t.Fatalf("%+v %+v", rep, rep.Broken)
		}
		var n, distinct int
		if err := d.QueryRow(ctx, `SELECT COUNT(*), COUNT(DISTINCT prev_hash) FROM audit_log`).Scan(&n, &distinct); err != nil || n != 22 || distinct != 22 {
			t.Fatalf("%d rows, %d distinct prev hashes (a fork repeats one) %v", n, distinct, err)
		}
	})
}
