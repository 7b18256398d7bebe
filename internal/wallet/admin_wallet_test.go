package wallet

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// fakePoints is a points ledger in memory, standing in for rewards'.
type fakePoints struct {
	bal     map[int64]int64
	entries []AdminEntry // oldest first
	uids    []int64
}

var errShort = errors.New("short")

func (p *fakePoints) Points(_ context.Context, uid int64) (int64, error) { return p.bal[uid], nil }

func (p *fakePoints) PointEntries(_ context.Context, uid, at, id int64, limit int) ([]AdminEntry, error) {
	var out []AdminEntry
	for i := len(p.entries) - 1; i >= 0; i-- {
		e := p.entries[i]
		if p.uids[i] != uid {
			continue
		}
		if at > 0 && !(e.CreatedAt.Unix() < at || (e.CreatedAt.Unix() == at && e.ID < id)) {
			continue
		}
		if len(out) == limit {
			break
		}
		out = append(out, e)
	}
	return out, nil
}

func (p *fakePoints) AdjustPoints(_ context.Context, _ *db.Tx, uid, delta int64, key, memo string, now time.Time) (int64, error) {
	if p.bal[uid]+delta < 0 {
		return 0, errShort
	}
	p.bal[uid] += delta
	p.entries = append(p.entries, AdminEntry{ID: int64(len(p.entries) + 1), Account: Points, Type: "adjust", Amount: delta,
		Balance: p.bal[uid], Memo: memo, CreatedAt: now.UTC()})
	p.uids = append(p.uids, uid)
	return p.bal[uid], nil
}

func (p *fakePoints) PointsShort(err error) bool { return errors.Is(err, errShort) }

// The wallet view merges coins, income and points newest first, pages by
// keyset without losing or repeating an entry (several in one second
// included), and filters by account; points adjust through the book.
func TestAdminWalletEntries(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newFixture(t, d)
		f.s.Limiter = nil
		pts := &fakePoints{bal: map[int64]int64{}}
		f.s.Points = pts
		op := audit.Actor{UID: 9}
		adjust := func(account string, amount int64, key string) error {
			_, _, err := f.s.Adjust(ctx, op, Adjustment{UID: 1, Account: account, Amount: amount, Reason: "补偿 " + key}, key)
			return err
		}
		// Three seconds, several entries in each, of every account.
		for sec := range 3 {
			f.now = f.now.Add(time.Second)
			for i, acct := range []string{Coins, Points, Income, Points} {
				if err := adjust(acct, int64(10*(sec+1)+i), fmt.Sprintf("k-%d-%d", sec, i)); err != nil {
					t.Fatal(err)
				}
			}
		}
		want := 12
		walk := func(account string, size int) []AdminEntry {
			t.Helper()
			var all []AdminEntry
			var cursor []int64
			for range 50 {
				p, err := f.s.AdminWallet(ctx, 1, account, cursor, size)
				if err != nil {
					t.Fatal(err)
				}
				all = append(all, p.Entries...)
				if !p.HasMore {
					return all
				}
				cursor = parseCursor3(t, *p.NextCursor)
			}
			t.Fatal("pages never ended")
			return nil
		}
		for _, size := range []int{1, 2, 3, 5, 50} {
			all := walk("", size)
			if len(all) != want {
				t.Fatalf("size %d: %d entries, want %d", size, len(all), want)
			}
			seen := map[string]bool{}
			for i, e := range all {
				k := e.Account + fmt.Sprint(e.ID)
				if e.Account != Points {
					k = "l" + fmt.Sprint(e.ID)
				}
				if seen[k] {
					t.Fatalf("size %d: %s twice", size, k)
				}
				seen[k] = true
				if i > 0 && all[i-1].CreatedAt.Before(e.CreatedAt) {
					t.Fatalf("size %d: not newest first at %d", size, i)
				}
			}
		}
		for acct, n := range map[string]int{Coins: 3, Income: 3, Points: 6} {
			got := walk(acct, 2)
			if len(got) != n || slices.ContainsFunc(got, func(e AdminEntry) bool { return e.Account != acct }) {
				t.Fatalf("%s: %d entries %+v", acct, len(got), got)
			}
		}
		p, _ := f.s.AdminWallet(ctx, 1, "", nil, 50)
		if p.Points != pts.bal[1] || p.Points != 11+13+21+23+31+33 || !strings.HasPrefix(p.Entries[0].Memo, "补偿") {
			t.Fatalf("points %d; first %+v", p.Points, p.Entries[0])
		}
		// A points debit below zero: 409, nothing moved, no audit row.
		var before int
		d.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE action = 'wallet.adjust'`).Scan(&before)
		if err := adjust(Points, -1_000_000, "too-much"); status(adminWalletErrs.Map(err)) != 409 {
			t.Fatalf("points below zero: %v", err)
		}
		var after int
		d.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE action = 'wallet.adjust'`).Scan(&after)
		if after != before || before != 12 {
			t.Fatalf("audit rows %d -> %d", before, after)
		}
		if _, err := f.s.AdminWallet(ctx, 424242, "", nil, 10); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("unknown user: %v", err)
		}
		mustCheck(t, d)
	})
}

func parseCursor3(t *testing.T, c string) []int64 {
	t.Helper()
	var keys []int64
	var ok bool
	if keys, ok = parseCursorN(c, 3); !ok {
		t.Fatalf("cursor %q", c)
	}
	return keys
}
