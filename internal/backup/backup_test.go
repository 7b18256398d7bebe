package backup_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"prima/internal/backup"
	"prima/internal/earnings"
	"prima/internal/platform/audit"
	"prima/internal/platform/blob"
	"prima/internal/platform/blob/s3test"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/jobs"
	"prima/internal/wallet"
)

// writer commits one write after another until stopped, each a ledger
// movement, an audit row and a media object with the row naming it, and
// remembers when each was acknowledged (its commit returned).
type writer struct {
	d     *db.DB
	media blob.Store
	uid   int64
	ledg  *wallet.Ledger
	mu    sync.Mutex
	acked map[int]time.Time
	n     atomic.Int64
}

func (w *writer) write(ctx context.Context, i int) error {
	key := fmt.Sprintf("covers/backup-%d.jpg", i)
	// The object first, then the row that names it: as uploads do.
	if err := w.media.Put(ctx, key, strings.NewReader(fmt.Sprintf("jpeg %d", i)), ""); err != nil {
		return err
	}
	now := time.Now()
	err := w.d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := w.ledg.Post(ctx, tx, wallet.Transfer{Kind: "adjust", Key: fmt.Sprintf("backup:%d", i), UserID: w.uid,
			Legs: []wallet.Leg{{Account: wallet.UserCoins(w.uid), Amount: 1}, {Account: wallet.System(wallet.SysCoinsAdjust), Amount: -1}}}, now); err != nil {
			return err
		}
		if err := audit.RecordAt(ctx, tx, audit.Entry{Action: "backup.test", TargetType: "write", TargetID: fmt.Sprint(i)}, now); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO media_assets (owner_uid, kind, state, source_key, created_at, updated_at) VALUES (?, 'image', 'ready', ?, ?, ?)`,
			w.uid, key, now.Unix(), now.Unix())
		return err
	})
	if err != nil {
		return err
	}
	w.mu.Lock()
	w.acked[i] = time.Now()
	w.mu.Unlock()
	return nil
}

// run writes from several goroutines until ctx ends.
func (w *writer) run(ctx context.Context, t *testing.T, workers int) *sync.WaitGroup {
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(w.n.Add(1))
				if err := w.write(context.WithoutCancel(ctx), i); err != nil {
					t.Errorf("write %d: %v", i, err)
					return
				}
			}
		}()
	}
	return &wg
}

// A backup taken while writes keep coming restores into an empty install
// with every write acknowledged before it began, a ledger and an audit
// chain that check out, and every media object a row names. SQLite with
// media and backups in local folders (one machine); PostgreSQL with media
// in S3 and the backup at s3://bucket/prefix (a cluster).
func TestBackupWhileWritingRestores(t *testing.T) {
	for _, e := range []db.Engine{db.SQLite, db.Postgres} {
		t.Run(string(e), func(t *testing.T) {
			ctx := context.Background()
			d := dbtest.Open(t, e)
			var (
				media, dst, restoredMedia blob.Store
				err                       error
			)
			if e == db.SQLite {
				media, dst, restoredMedia = localStore(t), localStore(t), localStore(t)
			} else {
				s3 := s3test.Start(t)
				media, restoredMedia = s3.Store(t, "media"), s3.Store(t, "")
				cfg := s3.Config(t, "")
				if dst, err = backup.Target("s3://"+cfg.Bucket+"/nightly", cfg); err != nil {
					t.Fatal(err)
				}
			}
			var uid int64
			if err := d.QueryRow(ctx, `INSERT INTO users (name, account, created_at, updated_at) VALUES ('b', 'backup', 1, 1) RETURNING id`).Scan(&uid); err != nil {
				t.Fatal(err)
			}
			w := &writer{d: d, media: media, uid: uid, ledg: wallet.NewLedger(), acked: map[int]time.Time{}}
			for i := range 50 { // some history before the writers start
				if err := w.write(ctx, -1-i); err != nil {
					t.Fatal(err)
				}
			}
			wctx, stop := context.WithCancel(ctx)
			wg := w.run(wctx, t, 4)
			time.Sleep(300 * time.Millisecond)

			began := time.Now()
			m, err := backup.Run(ctx, d, media, dst, t.TempDir(), began)
			if err != nil {
				stop()
				t.Fatal(err)
			}
			time.Sleep(100 * time.Millisecond) // writes go on after it too
			stop()
			wg.Wait()

			var before []int
			w.mu.Lock()
			for i, at := range w.acked {
				if at.Before(began) {
					before = append(before, i)
				}
			}
			total := len(w.acked)
			w.mu.Unlock()
			if len(before) < 50 || total <= len(before) {
				t.Fatalf("the writers did not overlap the backup: %d of %d writes acknowledged before it", len(before), total)
			}
			if m.Rows["ledger_txns"] < int64(len(before)) || len(m.Media) < len(before) {
				t.Fatalf("manifest counts %d movements and %d media for %d acknowledged writes", m.Rows["ledger_txns"], len(m.Media), len(before))
			}

			names, err := backup.List(ctx, dst)
			if err != nil || len(names) != 1 || names[0] != m.Name {
				t.Fatalf("List = %v, %v; want [%s]", names, err, m.Name)
			}
			restoredURL := dbtest.URL(t, e)
			if _, err := backup.Restore(ctx, dst, m.Name, restoredURL, restoredMedia, t.TempDir()); err != nil {
				t.Fatal(err)
			}
			r, err := db.Open(ctx, restoredURL)
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			keys, err := wallet.PostedKeys(ctx, r, "backup:")
			if err != nil {
				t.Fatal(err)
			}
			for _, i := range before {
				if !keys[fmt.Sprintf("backup:%d", i)] {
					t.Errorf("write %d was acknowledged before the backup began but is not in the restore", i)
				}
			}
			if err := wallet.Check(ctx, r, earnings.Check); err != nil {
				t.Errorf("wallet check on the restore: %v", err)
			}
			rep, err := audit.Verify(ctx, r)
			if err != nil || rep.Broken != nil {
				t.Errorf("audit verify on the restore: %v %v", err, rep.Broken)
			}
			rows, err := r.Query(ctx, `SELECT source_key FROM media_assets`)
			if err != nil {
				t.Fatal(err)
			}
			var named int
			for rows.Next() {
				var k string
				if err := rows.Scan(&k); err != nil {
					t.Fatal(err)
				}
				named++
				if ok, err := restoredMedia.Exists(ctx, k); err != nil || !ok {
					t.Errorf("the restore names media %s but it is not there (%v)", k, err)
				}
			}
			rows.Close()
			if named < len(before) {
				t.Errorf("restore names %d media for %d acknowledged writes", named, len(before))
			}

			// A second restore over the first is refused: restores go into
			// an empty install only.
			if _, err := backup.Restore(ctx, dst, m.Name, restoredURL, restoredMedia, t.TempDir()); !errors.Is(err, db.ErrNotEmpty) {
				t.Errorf("restore over a restored install: %v, want ErrNotEmpty", err)
			}
		})
	}
}

// A damaged backup is refused with the file named, and an unfinished one
// (no manifest) is neither listed nor restored.
func TestDamagedOrUnfinishedBackupIsRefused(t *testing.T) {
	ctx := context.Background()
	d := dbtest.Open(t, db.SQLite)
	media := localStore(t)
	if err := media.Put(ctx, "covers/a.jpg", strings.NewReader("picture"), ""); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	dst, err := blob.NewLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := backup.Run(ctx, d, media, dst, t.TempDir(), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, m.Name, "media", "covers", "a.jpg"), []byte("pictura"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = backup.Restore(ctx, dst, m.Name, filepath.Join(t.TempDir(), "r.db"), localStore(t), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "covers/a.jpg") || !strings.Contains(err.Error(), "checksum") {
		t.Errorf("restore of a damaged backup: %v", err)
	}

	if err := dst.Put(ctx, "prima-20990101T000000.000Z/db.sqlite", strings.NewReader("half"), ""); err != nil {
		t.Fatal(err)
	}
	names, _ := backup.List(ctx, dst)
	if len(names) != 1 || names[0] != m.Name {
		t.Errorf("List = %v: an unfinished backup is listed", names)
	}
	if _, err := backup.Restore(ctx, dst, "prima-20990101T000000.000Z", filepath.Join(t.TempDir(), "r.db"), localStore(t), t.TempDir()); err == nil {
		t.Error("an unfinished backup was restored")
	}
}

// Prune keeps the newest backups.
func TestPruneKeepsNewest(t *testing.T) {
	ctx := context.Background()
	d := dbtest.Open(t, db.SQLite)
	dst := localStore(t)
	var made []string
	for i := range 3 {
		m, err := backup.Run(ctx, d, localStore(t), dst, t.TempDir(), time.Date(2026, 12, 1+i, 3, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, m.Name)
	}
	gone, err := backup.Prune(ctx, dst, 2)
	if err != nil || len(gone) != 1 || gone[0] != made[0] {
		t.Fatalf("Prune = %v, %v; want [%s]", gone, err, made[0])
	}
	names, _ := backup.List(ctx, dst)
	if strings.Join(names, ",") != strings.Join(made[1:], ",") {
		t.Errorf("left %v, want %v", names, made[1:])
	}
}

func localStore(t *testing.T) *blob.Local {
	s, err := blob.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The scheduled backup runs from the job queue and keeps Keep backups.
func TestScheduledBackup(t *testing.T) {
	ctx := context.Background()
	d := dbtest.Open(t, db.SQLite)
	dst := localStore(t)
	q := jobs.New(d, jobs.Config{Workers: 1, PollInterval: 50 * time.Millisecond})
	backup.Schedule{DB: d, Media: localStore(t), To: dst, Every: time.Second, Keep: 2, Work: t.TempDir(), Log: slog.Default()}.Register(q)
	if err := q.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer q.Stop(ctx) //nolint:errcheck // test cleanup
	deadline := time.Now().Add(20 * time.Second)
	for {
		names, err := backup.List(ctx, dst)
		if err != nil {
			t.Fatal(err)
		}
		if len(names) >= 3 {
			t.Fatalf("Keep 2 left %v", names)
		}
		if len(names) == 2 {
			// Two periods done; after a third, still two.
			time.Sleep(2500 * time.Millisecond)
			if names, _ = backup.List(ctx, dst); len(names) != 2 {
				t.Fatalf("after another period: %v", names)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("scheduled backups after 20 s: %v", names)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
