package account

import (
	"context"
	"errors"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
)

// mustInsertUser stores u in its own transaction and returns its id.
func mustInsertUser(t *testing.T, d *db.DB, u User) int64 {
	t.Helper()
	var id int64
	err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) (err error) {
		id, err = insertUser(context.Background(), tx, &u)
		return err
	})
	if err != nil {
		t.Fatalf("insert user %+v: %v", u, err)
	}
	return id
}

func TestStoreUsers(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		disc := int64(15)
		id := mustInsertUser(t, d, User{Name: "Alice", Portrait: "/p.png", Account: "Alice_1", PasswordHash: "h", Points: 7,
			SvipExpireAt: 2500, VipExpireAt: 2000, TxDiscount: &disc, GoldVideoFreeUntil: 3000, VideoFreeUntil: 4000, CreatedAt: 100, UpdatedAt: 101})
		u, err := userByID(ctx, d, id)
		if err != nil {
			t.Fatal(err)
		}
		if u.Name != "Alice" || u.Portrait != "/p.png" || u.Account != "Alice_1" || u.PasswordHash != "h" || u.Points != 7 ||
			u.SvipExpireAt != 2500 || u.VipExpireAt != 2000 || u.TxDiscount == nil || *u.TxDiscount != 15 ||
			u.GoldVideoFreeUntil != 3000 || u.VideoFreeUntil != 4000 || u.CreatedAt != 100 || u.UpdatedAt != 101 || u.IsGuest() {
			t.Fatalf("read back %+v", u)
		}

		// Accounts match and collide regardless of case.
		if got, err := userByAccount(ctx, d, "alice_1"); err != nil || got.ID != id {
			t.Fatalf("userByAccount(lower) = %v, %v; want id %d", got.ID, err, id)
		}
		err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
			_, err := insertUser(ctx, tx, &User{Account: "ALICE_1", CreatedAt: 1, UpdatedAt: 1})
			return err
		})
		if !db.IsUnique(err) {
			t.Fatalf("insert ALICE_1 beside Alice_1: err = %v, want a unique violation", err)
		}

		// Guests have no account (NULL), and any number of them may exist.
		g1 := mustInsertUser(t, d, User{Name: "游客A", CreatedAt: 1, UpdatedAt: 1})
		mustInsertUser(t, d, User{Name: "游客B", CreatedAt: 1, UpdatedAt: 1})
		g, err := userByID(ctx, d, g1)
		if err != nil || !g.IsGuest() || g.TxDiscount != nil {
			t.Fatalf("guest = %+v, %v; want a guest with no discount", g, err)
		}
		if _, err := userByID(ctx, d, 999999); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("missing user err = %v, want ErrNotFound", err)
		}
		if _, err := userByAccount(ctx, d, "nobody"); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("missing account err = %v, want ErrNotFound", err)
		}

		// setCredentials upgrades a guest once, never a registered user.
		if ok, err := setCredentials(ctx, d, g1, "guest_up", "guest_up", "h2", 50); !ok || err != nil {
			t.Fatalf("upgrade guest: %v, %v", ok, err)
		}
		if ok, err := setCredentials(ctx, d, g1, "again", "again", "h3", 51); ok || err != nil {
			t.Fatalf("second upgrade of the same user: %v, %v; want false", ok, err)
		}
		if ok, err := setCredentials(ctx, d, id, "other", "other", "h4", 52); ok || err != nil {
			t.Fatalf("upgrade of a registered user: %v, %v; want false", ok, err)
		}
		g, _ = userByID(ctx, d, g1)
		if g.Account != "guest_up" || g.PasswordHash != "h2" || g.UpdatedAt != 50 {
			t.Fatalf("upgraded guest = %+v", g)
		}
		if err := setPasswordHash(ctx, d, g1, "h9", 60); err != nil {
			t.Fatal(err)
		}
		if g, _ = userByID(ctx, d, g1); g.PasswordHash != "h9" {
			t.Fatalf("password hash = %q, want h9", g.PasswordHash)
		}
	})
}

func TestStoreDevices(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		uid := mustInsertUser(t, d, User{CreatedAt: 1, UpdatedAt: 1})
		const dev = "abcdefghABCDEFGH1700000000000"
		if _, _, err := deviceUser(ctx, d, dev); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("unknown device err = %v", err)
		}
		if err := insertDevice(ctx, d, dev, uid, "ios", "invite=42", 10); err != nil {
			t.Fatal(err)
		}
		if err := insertDevice(ctx, d, dev, uid, "ios", "", 11); !db.IsUnique(err) {
			t.Fatalf("second insert of one device: %v, want a unique violation", err)
		}
		if got, guest, err := deviceUser(ctx, d, dev); err != nil || got != uid || !guest {
			t.Fatalf("deviceUser = %d, %v", got, err)
		}
		if err := touchDevice(ctx, d, dev, "android", 20); err != nil {
			t.Fatal(err)
		}
		var sys string
		var seen int64
		if err := d.QueryRow(ctx, `SELECT sys_type, last_seen_at FROM devices WHERE dev_id = ?`, dev).Scan(&sys, &seen); err != nil {
			t.Fatal(err)
		}
		if sys != "android" || seen != 20 {
			t.Fatalf("after touch sys_type=%q last_seen_at=%d", sys, seen)
		}
		if ci, err := deviceCutInfos(ctx, d, dev); err != nil || ci != "invite=42" {
			t.Fatalf("cut_infos = %q, %v; want the first install's", ci, err)
		}
	})
}

func TestStoreSessions(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		uid := mustInsertUser(t, d, User{CreatedAt: 1, UpdatedAt: 1})
		s := &Session{TokenHash: "h1", UserID: uid, DevID: "dev", CreatedAt: 10, LastSeenAt: 10, ExpiresAt: 100}
		if err := insertSession(ctx, d, s); err != nil {
			t.Fatal(err)
		}
		got, err := sessionByHash(ctx, d, "h1")
		want := *s
		want.Role = httpx.RoleUser // read from the user with the session
		if err != nil || got != want {
			t.Fatalf("read back %+v, %v; want %+v", got, err, want)
		}
		if _, err := sessionByHash(ctx, d, "nope"); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("unknown session err = %v", err)
		}
		if err := touchSession(ctx, d, "h1", 50, 150); err != nil {
			t.Fatal(err)
		}
		if got, _ = sessionByHash(ctx, d, "h1"); got.LastSeenAt != 50 || got.ExpiresAt != 150 {
			t.Fatalf("after touch %+v", got)
		}
		if err := revokeSession(ctx, d, "h1", 60); err != nil {
			t.Fatal(err)
		}
		// A touch racing a logout must not bring the session back or move it.
		if err := touchSession(ctx, d, "h1", 70, 170); err != nil {
			t.Fatal(err)
		}
		if err := revokeSession(ctx, d, "h1", 80); err != nil {
			t.Fatal(err)
		}
		if got, _ = sessionByHash(ctx, d, "h1"); got.RevokedAt != 60 || got.ExpiresAt != 150 {
			t.Fatalf("after revoke and late touch %+v; want revoked at 60, expiry 150", got)
		}
	})
}
