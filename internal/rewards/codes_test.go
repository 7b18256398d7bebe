package rewards

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
	"prima/internal/wallet"
)

var codeNow = time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)

func codeUser(t *testing.T, d *db.DB) int64 {
	t.Helper()
	var id int64
	err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		return tx.QueryRow(ctx, `INSERT INTO users (created_at, updated_at) VALUES (?, ?) RETURNING id`, codeNow.Unix(), codeNow.Unix()).Scan(&id)
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// codesFixture is a service on a fixed clock the test can move.
type codesFixture struct {
	s   *Codes
	d   *db.DB
	clk *time.Time
}

func newCodes(t *testing.T, d *db.DB) codesFixture {
	clk := codeNow
	s := NewCodes(d, wallet.NewService(d), ratelimit.NewMemory(), "test-secret")
	s.SetClock(func() time.Time { return clk })
	return codesFixture{s: s, d: d, clk: &clk}
}

func (f codesFixture) batch(t *testing.T, in NewBatch) (Batch, []string) {
	t.Helper()
	b, codes, err := f.s.CreateBatch(context.Background(), audit.Actor{UID: audit.CLI}, in)
	if err != nil {
		t.Fatal(err)
	}
	return b, codes
}

func coins(t *testing.T, d *db.DB, uid int64) int64 {
	t.Helper()
	n, err := wallet.Balance(context.Background(), d, wallet.UserCoins(uid))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestNormalizeCodeIgnoresCaseSpacesAndDashes(t *testing.T) {
	for in, want := range map[string]string{
		"ABCD-EFGH-JKMN":     "ABCDEFGHJKMN",
		"abcd efgh jkmn":     "ABCDEFGHJKMN",
		" abcd-EFGH jkmn \t": "ABCDEFGHJKMN",
		"23456789ABCD":       "23456789ABCD",
	} {
		if got, ok := NormalizeCode(in); !ok || got != want {
			t.Errorf("%q: %q %v, want %q", in, got, ok, want)
		}
	}
	// Misreadable characters are not in the alphabet; wrong lengths,
	// other scripts and control characters are refused.
	for _, in := range []string{"", "ABCD-EFGH-JKM", "ABCD-EFGH-JKMNP", "ABCD-EFGH-JKM0", "OBCD-EFGH-JKMN",
		"1BCD-EFGH-JKMN", "IBCD-EFGH-JKMN", "LBCD-EFGH-JKMN", "ＡBCD-EFGH-JKMN", "ABCD\x00EFGH-JKMN", strings.Repeat("A", 100)} {
		if got, ok := NormalizeCode(in); ok {
			t.Errorf("%q accepted as %q", in, got)
		}
	}
	if got := FormatCode("ABCDEFGHJKMN"); got != "ABCD-EFGH-JKMN" {
		t.Errorf("format %q", got)
	}
	c, err := newCode()
	if err != nil || len(c) != CodeLen {
		t.Fatalf("%q %v", c, err)
	}
	if n, ok := NormalizeCode(strings.ToLower(FormatCode(c))); !ok || n != c {
		t.Fatalf("a new code %q does not survive its own format: %q", c, n)
	}
}

func TestRedeemGrantsOnceAndRefusesEachWayClearly(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newCodes(t, d)
		b, codes := f.batch(t, NewBatch{Name: "开业福利", Reward: wallet.Reward{Coins: 88, VIPLevel: 1, VIPDays: 3, Coupons: 1},
			Count: 3, UsesPerCode: 1, ExpiresAt: codeNow.Add(24 * time.Hour).Unix()})
		if len(codes) != 3 || b.ID == 0 || !strings.Contains(codes[0], "-") {
			t.Fatalf("batch %+v codes %v", b, codes)
		}
		alice, bob := codeUser(t, d), codeUser(t, d)

		// Typed in lower case with spaces instead of dashes: still the code.
		typed := strings.ToLower(strings.ReplaceAll(codes[0], "-", " "))
		red, err := f.s.Redeem(ctx, alice, "10.0.0.1", typed)
		if err != nil {
			t.Fatal(err)
		}
		if red.Reward.Coins != 88 || red.Reward.VIPDays != 3 || red.Code != codes[0][:4]+"-****-****" || red.Name != "开业福利" {
			t.Fatalf("redemption %+v", red)
		}
		if got := coins(t, d, alice); got != 88 {
			t.Fatalf("alice has %d coins, want 88", got)
		}
		// Alice again: her own tip; Bob on the same single-use code: used up.
		if _, err := f.s.Redeem(ctx, alice, "10.0.0.1", codes[0]); !errors.Is(err, ErrCodeRedeemed) {
			t.Fatalf("alice again: %v", err)
		}
		if _, err := f.s.Redeem(ctx, bob, "10.0.0.2", codes[0]); !errors.Is(err, ErrCodeUsedUp) {
			t.Fatalf("bob on a used code: %v", err)
		}
		if got := coins(t, d, bob); got != 0 {
			t.Fatalf("bob got %d coins from refused tries", got)
		}
		// A well-formed code nobody made, and garbage: the same answer.
		for _, in := range []string{"2345-6789-ABCD", "not a code"} {
			if _, err := f.s.Redeem(ctx, bob, "10.0.0.2", in); !errors.Is(err, ErrCodeInvalid) {
				t.Fatalf("%q: %v", in, err)
			}
		}

		// Expiry is at the batch's second, on the service's clock.
		*f.clk = time.Unix(b.ExpiresAt, 0)
		if _, err := f.s.Redeem(ctx, bob, "10.0.0.2", codes[1]); !errors.Is(err, ErrCodeExpired) {
			t.Fatalf("expired: %v", err)
		}
		*f.clk = codeNow

		// A disabled batch's codes answer like unknown ones.
		if err := f.s.DisableBatch(ctx, audit.Actor{UID: audit.CLI}, b.ID); err != nil {
			t.Fatal(err)
		}
		if err := f.s.DisableBatch(ctx, audit.Actor{UID: audit.CLI}, b.ID); !errors.Is(err, ErrBatchDisabled) {
			t.Fatalf("disable twice: %v", err)
		}
		if err := f.s.DisableBatch(ctx, audit.Actor{UID: audit.CLI}, b.ID+100); !errors.Is(err, ErrBatchNotFound) {
			t.Fatalf("disable unknown: %v", err)
		}
		if _, err := f.s.Redeem(ctx, bob, "10.0.0.2", codes[1]); !errors.Is(err, ErrCodeInvalid) {
			t.Fatalf("disabled batch: %v", err)
		}
		var audits int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE action LIKE 'codes.batch.%'`).Scan(&audits); err != nil || audits != 2 {
			t.Fatalf("%d audit rows (%v), want create + disable", audits, err)
		}

		// Lists: alice's one redemption; the batch with one use.
		recs, total, err := f.s.Records(ctx, alice, 1, 20)
		if err != nil || total != 1 || len(recs) != 1 || recs[0].Reward.Coins != 88 {
			t.Fatalf("records %+v %d %v", recs, total, err)
		}
		if recs, total, _ := f.s.Records(ctx, bob, 1, 20); total != 0 || len(recs) != 0 {
			t.Fatalf("bob's records %+v", recs)
		}
		bs, err := f.s.Batches(ctx, 0, 20)
		if err != nil || len(bs) != 1 || bs[0].Redeemed != 1 || bs[0].CodesUsedUp != 1 || bs[0].DisabledAt == 0 {
			t.Fatalf("batches %+v %v", bs, err)
		}
		if err := wallet.Check(ctx, d); err != nil {
			t.Fatalf("ledger: %v", err)
		}
	})
}

func TestCreateBatchRefusesBadInputAndNeverStoresPlainCodes(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newCodes(t, d)
		good := NewBatch{Name: "n", Reward: wallet.Reward{Coins: 1}, Count: 1, UsesPerCode: 1}
		for name, mut := range map[string]func(*NewBatch){
			"no name":     func(b *NewBatch) { b.Name = "  " },
			"long name":   func(b *NewBatch) { b.Name = strings.Repeat("名", MaxBatchNameLen+1) },
			"zero count":  func(b *NewBatch) { b.Count = 0 },
			"huge count":  func(b *NewBatch) { b.Count = MaxBatchCodes + 1 },
			"zero uses":   func(b *NewBatch) { b.UsesPerCode = 0 },
			"past expiry": func(b *NewBatch) { b.ExpiresAt = codeNow.Unix() - 1 },
			"no reward":   func(b *NewBatch) { b.Reward = wallet.Reward{} },
			"negative":    func(b *NewBatch) { b.Reward = wallet.Reward{Coins: -5} },
			"absurd":      func(b *NewBatch) { b.Reward = wallet.Reward{Coins: 1 << 40} },
			"vip level":   func(b *NewBatch) { b.Reward = wallet.Reward{VIPDays: 3} },
		} {
			in := good
			mut(&in)
			if _, _, err := f.s.CreateBatch(ctx, audit.Actor{}, in); !errors.Is(err, ErrBadBatch) && !errors.Is(err, wallet.ErrBadReward) {
				t.Errorf("%s: %v", name, err)
			}
		}
		var n int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM code_batches`).Scan(&n); err != nil || n != 0 {
			t.Fatalf("%d batches after refusals (%v)", n, err)
		}

		_, codes := f.batch(t, NewBatch{Name: "大批", Reward: wallet.Reward{Coins: 5}, Count: 500, UsesPerCode: 2})
		seen := map[string]bool{}
		for _, c := range codes {
			if seen[c] {
				t.Fatalf("duplicate code %s", c)
			}
			seen[c] = true
		}
		// Nothing in any code table or the audit log holds a plain code,
		// grouped or not.
		var dump strings.Builder
		for _, q := range []string{`SELECT hash || '|' || prefix FROM redeem_codes`, `SELECT name FROM code_batches`,
			`SELECT COALESCE(CAST(after AS TEXT), '') FROM audit_log`} {
			rows, err := d.Query(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var s string
				if err := rows.Scan(&s); err != nil {
					t.Fatal(err)
				}
				dump.WriteString(s + "\n")
			}
			rows.Close()
		}
		all := dump.String()
		if strings.Count(all, "\n") < 500 {
			t.Fatalf("read only %d rows", strings.Count(all, "\n"))
		}
		for _, c := range codes {
			plain, _ := NormalizeCode(c)
			if strings.Contains(all, plain) || strings.Contains(all, c) {
				t.Fatalf("plain code %s stored", c)
			}
		}
	})
}

func TestRedeemLimitsFailedTriesPerUserAndAddress(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newCodes(t, d)
		_, codes := f.batch(t, NewBatch{Name: "n", Reward: wallet.Reward{Coins: 1}, Count: 2, UsesPerCode: 1})
		mallory, other := codeUser(t, d), codeUser(t, d)
		for i := range FailLimit {
			if _, err := f.s.Redeem(ctx, mallory, "10.9.9.9", fmt.Sprintf("2345-6789-AB%02d", 22+i)); !errors.Is(err, ErrCodeInvalid) {
				t.Fatalf("try %d: %v", i, err)
			}
		}
		// Past the limit even a good code is refused, for this user and,
		// from the same address, for another account too.
		if _, err := f.s.Redeem(ctx, mallory, "10.1.1.1", codes[0]); !errors.Is(err, ratelimit.ErrLimited) {
			t.Fatalf("user over the limit: %v", err)
		}
		if _, err := f.s.Redeem(ctx, other, "10.9.9.9", codes[0]); !errors.Is(err, ratelimit.ErrLimited) {
			t.Fatalf("address over the limit: %v", err)
		}
		// Another user elsewhere is untouched, and so is the code.
		if _, err := f.s.Redeem(ctx, other, "10.2.2.2", codes[0]); err != nil {
			t.Fatal(err)
		}
		if got := coins(t, d, mallory); got != 0 {
			t.Fatalf("mallory got %d coins", got)
		}
	})
}

// downCounter is a limiter that cannot answer (Redis gone).
type downCounter struct{ ratelimit.Counter }

func (downCounter) Peek(context.Context, ...string) ([]ratelimit.Count, error) {
	return nil, errors.New("redis: connection refused")
}

func TestRedeemFailsClosedWhenTheLimiterIsDown(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		f := newCodes(t, d)
		_, codes := f.batch(t, NewBatch{Name: "n", Reward: wallet.Reward{Coins: 1}, Count: 1, UsesPerCode: 1})
		f.s.counter = downCounter{}
		uid := codeUser(t, d)
		_, err := f.s.Redeem(context.Background(), uid, "10.0.0.1", codes[0])
		if !errors.Is(err, ErrCodeLimiterDown) {
			t.Fatalf("%v, want ErrCodeLimiterDown", err)
		}
		if e := codeErrs.Map(err).(*httpx.Error); e.Status != http.StatusServiceUnavailable {
			t.Fatalf("status %d, want 503", e.Status)
		}
		if got := coins(t, d, uid); got != 0 {
			t.Fatalf("%d coins granted with the limiter down", got)
		}
	})
}

func TestRedeemRacesHaveOneWinner(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newCodes(t, d)
		_, single := f.batch(t, NewBatch{Name: "单次", Reward: wallet.Reward{Coins: 100}, Count: 1, UsesPerCode: 1})
		_, multi := f.batch(t, NewBatch{Name: "多次", Reward: wallet.Reward{Coins: 7}, Count: 1, UsesPerCode: 50})

		// 20 users, one single-use code, all at once: exactly one wins.
		users := make([]int64, 20)
		for i := range users {
			users[i] = codeUser(t, d)
		}
		var wg sync.WaitGroup
		errs := make([]error, len(users))
		for i, uid := range users {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = f.s.Redeem(ctx, uid, fmt.Sprintf("10.0.1.%d", i), single[0])
			}()
		}
		wg.Wait()
		wins := 0
		for _, err := range errs {
			switch {
			case err == nil:
				wins++
			case !errors.Is(err, ErrCodeUsedUp):
				t.Errorf("loser's error: %v", err)
			}
		}
		var paid int64
		for _, uid := range users {
			paid += coins(t, d, uid)
		}
		if wins != 1 || paid != 100 {
			t.Fatalf("%d winners, %d coins paid; want 1 and 100", wins, paid)
		}

		// One user tapping a multi-use code 10 times at once: one redemption.
		uid := users[0]
		before := coins(t, d, uid)
		errs = make([]error, 10)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = f.s.Redeem(ctx, uid, "10.0.2.1", multi[0])
			}()
		}
		wg.Wait()
		wins = 0
		for _, err := range errs {
			switch {
			case err == nil:
				wins++
			case !errors.Is(err, ErrCodeRedeemed):
				t.Errorf("double tap's error: %v", err)
			}
		}
		if got := coins(t, d, uid) - before; wins != 1 || got != 7 {
			t.Fatalf("%d redemptions, %d coins; want 1 and 7", wins, got)
		}
		var uses int
		if err := d.QueryRow(ctx, `SELECT uses FROM redeem_codes WHERE max_uses = 50`).Scan(&uses); err != nil || uses != 1 {
			t.Fatalf("uses %d (%v), want 1", uses, err)
		}
		if err := wallet.Check(ctx, d); err != nil {
			t.Fatalf("ledger: %v", err)
		}
	})
}

func TestCodeErrorsAnswerTheirStatusAndTip(t *testing.T) {
	for _, c := range []struct {
		err    error
		status int
		tip    string
	}{
		{ErrCodeInvalid, 404, "兑换码无效"},
		{ErrCodeExpired, 410, "兑换码已过期"},
		{ErrCodeUsedUp, 409, "兑换码已被使用"},
		{ErrCodeRedeemed, 409, "你已兑换过该兑换码"},
		{&ratelimit.LimitedError{Key: "k", RetryAfter: time.Minute}, 429, "尝试次数过多，请稍后再试"},
		{fmt.Errorf("%w: x", ErrCodeLimiterDown), 503, "兑换暂不可用，请稍后再试"},
		{ErrBatchNotFound, 404, "批次不存在"},
		{fmt.Errorf("%w: x", ErrBadBatch), 422, "批次参数无效"},
	} {
		e, ok := codeErrs.Map(c.err).(*httpx.Error)
		if !ok || e.Status != c.status || e.Tip != c.tip {
			t.Errorf("%v: %+v, want %d %s", c.err, e, c.status, c.tip)
		}
	}
}

// The batch list pages by keyset: newest first, each page after the id the
// last one ended on, one extra row telling there is more.
func TestBatchesPageByKeyset(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		f := newCodes(t, d)
		var ids []int64
		for i := 0; i < 5; i++ {
			b, _ := f.batch(t, NewBatch{Name: fmt.Sprintf("b%d", i), Reward: wallet.Reward{Coins: 1}, Count: 2, UsesPerCode: 1})
			ids = append(ids, b.ID)
		}
		var got []int64
		after := int64(0)
		for pages := 0; ; pages++ {
			if pages > 5 {
				t.Fatal("paging does not end")
			}
			bs, err := f.s.Batches(ctx, after, 2)
			if err != nil {
				t.Fatal(err)
			}
			more := len(bs) > 2
			if more {
				bs = bs[:2]
			}
			for _, b := range bs {
				if b.Count != 2 {
					t.Fatalf("batch %+v", b)
				}
				got = append(got, b.ID)
			}
			if !more {
				break
			}
			after = bs[len(bs)-1].ID
		}
		want := []int64{ids[4], ids[3], ids[2], ids[1], ids[0]}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("pages gave %v, want %v", got, want)
		}
	})
}
