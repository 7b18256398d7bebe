package earnings_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"prima/internal/account"
	"prima/internal/earnings"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/rewards"
	"prima/internal/support"
	"prima/internal/wallet"
)

// now is the tests' clock: a Wednesday noon in Shanghai.
var now = time.Date(2026, 11, 25, 4, 0, 0, 0, time.UTC)

// env is the earnings over a fresh database, wired as internal/app wires
// it: the wallet's ledger, rewards' invitations, the account's people and
// support's creators.
type env struct {
	d      *db.DB
	s      *earnings.Service
	wallet *wallet.Service
	inv    *rewards.Invites
	clock  *time.Time
}

// testPeople is internal/app's earningsPeople over the account functions.
type testPeople struct{ d *db.DB }

func (testPeople) Joined(ctx context.Context, q db.Querier, uid int64) (int64, bool, error) {
	return account.Joined(ctx, q, uid)
}

func (testPeople) SharesDevice(ctx context.Context, q db.Querier, a, b int64) (bool, error) {
	return account.SharesDevice(ctx, q, a, b)
}

func (p testPeople) People(ctx context.Context, uids []int64) (map[int64]earnings.Person, error) {
	out := map[int64]earnings.Person{}
	for _, uid := range uids {
		var name string
		var acct *string
		err := p.d.QueryRow(ctx, `SELECT name, account FROM users WHERE id = ?`, uid).Scan(&name, &acct)
		if errors.Is(db.NotFound(err), db.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		pp := earnings.Person{Name: name}
		if acct != nil {
			pp.Account = *acct
		}
		out[uid] = pp
	}
	return out, nil
}

type invitePeople struct{ testPeople }

func (invitePeople) InvitePeople(ctx context.Context, uids []int64) (map[int64]rewards.InvitePerson, error) {
	return map[int64]rewards.InvitePerson{}, nil
}

func (invitePeople) FirstDevice(ctx context.Context, q db.Querier, uid int64) (string, error) {
	return account.FirstDevice(ctx, q, uid)
}

func newEnv(t testing.TB, d *db.DB) *env {
	t.Helper()
	clock := now
	w := wallet.NewService(d)
	w.SetClock(func() time.Time { return clock })
	inv := rewards.NewInvites(d, w, invitePeople{testPeople{d}}, nil, nil, "https://prima.example")
	s := earnings.NewService(d, w.Ledger, inv, testPeople{d}, support.IsCreator)
	s.SetClock(func() time.Time { return clock })
	s.PublicURL = "https://prima.example"
	return &env{d: d, s: s, wallet: w, inv: inv, clock: &clock}
}

// exec runs one statement in its own transaction.
func (e *env) exec(t testing.TB, q string, args ...any) {
	t.Helper()
	if err := e.d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		_, err := tx.Exec(ctx, q, args...)
		return err
	}); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// user inserts a registered user (account name) and returns its id.
func (e *env) user(t testing.TB, name string) int64 {
	t.Helper()
	var id int64
	err := e.d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		return tx.QueryRow(ctx, `INSERT INTO users (name, account, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id`,
			name, name, now.Unix(), now.Unix()).Scan(&id)
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// guest inserts a user without an account.
func (e *env) guest(t testing.TB) int64 {
	t.Helper()
	var id int64
	err := e.d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
		return tx.QueryRow(ctx, `INSERT INTO users (name, created_at, updated_at) VALUES ('游客1', ?, ?) RETURNING id`, now.Unix(), now.Unix()).Scan(&id)
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// bind makes inviter invitee's inviter, registered (as rewards records a
// registration).
func (e *env) bind(t testing.TB, inviter, invitee int64) {
	t.Helper()
	e.exec(t, `INSERT INTO invite_bindings (invitee_id, inviter_id, dev_id, source, bound_at, registered_at, reward_state) VALUES (?, ?, '', 'code', ?, ?, 'off')`,
		invitee, inviter, now.Unix(), now.Unix())
}

// device puts uid on device dev (a guest login's row).
func (e *env) device(t testing.TB, uid int64, dev string) {
	t.Helper()
	e.exec(t, `INSERT INTO devices (dev_id, user_id, created_at, last_seen_at) VALUES (?, ?, ?, ?)`, dev, uid, now.Unix(), now.Unix())
}

// config sets the operator's settings.
func (e *env) config(t testing.TB, c earnings.Config) {
	t.Helper()
	if _, err := e.s.SetConfig(context.Background(), opActor, c); err != nil {
		t.Fatal(err)
	}
}

// count runs a COUNT query.
func (e *env) count(t testing.TB, q string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := e.d.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// income is uid's withdrawable income.
func (e *env) income(t testing.TB, uid int64) int64 {
	t.Helper()
	b, err := wallet.Balance(context.Background(), e.d, wallet.UserIncome(uid))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// check runs the ledger's invariants with earnings' own.
func (e *env) check(t testing.TB) {
	t.Helper()
	if err := wallet.Check(context.Background(), e.d, earnings.Check); err != nil {
		t.Fatal(err)
	}
}

// status is the HTTP status err answers with (the handlers' table).
func status(err error) int {
	if err == nil {
		return 200
	}
	var he *httpx.Error
	if errors.As(earnings.Errs.Map(err), &he) {
		return he.Status
	}
	return 500
}

// tip is the user-facing words err answers with.
func tip(err error) string {
	var he *httpx.Error
	if errors.As(earnings.Errs.Map(err), &he) {
		return he.Tip
	}
	return fmt.Sprint(err)
}
