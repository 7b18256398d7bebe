package gen

import (
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"prima/internal/migrations"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

const testVideos = 3000

// generated opens a fresh migrated database of engine e and generates
// testVideos videos into it.
func generated(t *testing.T, e db.Engine) (*db.DB, Report, []string) {
	t.Helper()
	ctx := context.Background()
	u := dbtest.URL(t, e)
	d, err := db.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if _, err := migrations.Apply(ctx, d); err != nil {
		t.Fatal(err)
	}
	before := indexNames(t, d)
	rep, err := Generate(ctx, d, u, testVideos, nil)
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	if after := indexNames(t, d); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Fatalf("indexes after generation %v, want the migrations' %v", after, before)
	}
	return d, rep, before
}

func indexNames(t *testing.T, d *db.DB) []string {
	t.Helper()
	q := `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('videos', 'video_tags') ORDER BY name`
	if d.Engine == db.Postgres {
		q = `SELECT indexname FROM pg_indexes WHERE tablename IN ('videos', 'video_tags') ORDER BY indexname`
	}
	rows, err := d.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	return out
}

func count(t *testing.T, d *db.DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := d.QueryRow(context.Background(), q, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// digest summarises the generated videos' engine-independent columns.
func digest(t *testing.T, d *db.DB) string {
	t.Helper()
	rows, err := d.Query(context.Background(), `SELECT id, title, cover, duration, play_count, like_count, module_id, sub_module_id, vip_level, coins, published FROM videos ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	h := fnv.New64a()
	for rows.Next() {
		var id, dur, plays, likes, mod, sub, vip, coins, pub int64
		var title, cover string
		if err := rows.Scan(&id, &title, &cover, &dur, &plays, &likes, &mod, &sub, &vip, &coins, &pub); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(h, id, title, cover, dur, plays, likes, mod, sub, vip, coins, pub)
	}
	return fmt.Sprintf("%x", h.Sum64())
}

func TestGenerate(t *testing.T) {
	digests := map[db.Engine]string{}
	// dbtest.Each would hand over an open database; COPY needs its URL.
	for _, e := range []db.Engine{db.SQLite, db.Postgres} {
		t.Run(string(e), func(t *testing.T) { checkGenerated(t, e, digests) })
	}
	if digests[db.SQLite] != digests[db.Postgres] {
		t.Fatalf("the engines got different catalogues: %v", digests)
	}
}

// checkGenerated generates into a fresh database of e and checks the
// catalogue's shape, recording its digest.
func checkGenerated(t *testing.T, e db.Engine, digests map[db.Engine]string) {
	d, rep, indexes := generated(t, e)
	ctx := context.Background()
	if len(indexes) < 2 {
		t.Fatalf("expected the catalog migration's indexes on videos, found %v", indexes)
	}
	if got := count(t, d, `SELECT COUNT(*) FROM videos`); got != testVideos {
		t.Fatalf("videos = %d, want %d", got, testVideos)
	}
	if got := count(t, d, `SELECT COUNT(*) FROM video_tags`); got != rep.VideoTags || got < testVideos {
		t.Fatalf("video_tags = %d, report says %d; want about 1.4 per video", got, rep.VideoTags)
	}
	// Every video sits in a sub-module of a video module, under that
	// sub-module's parent.
	if n := count(t, d, `SELECT COUNT(*) FROM videos v JOIN modules s ON s.id = v.sub_module_id WHERE s.pid <> v.module_id OR s.pid = 0 OR s.module_type NOT IN (0, 2, 4)`); n != 0 {
		t.Fatalf("%d videos are filed under the wrong module", n)
	}
	if n := count(t, d, `SELECT COUNT(DISTINCT sub_module_id) FROM videos`); n != rep.SubModule {
		t.Fatalf("videos use %d sub-modules, report says %d", n, rep.SubModule)
	}
	if n := count(t, d, `SELECT COUNT(*) FROM (SELECT video_id FROM video_tags GROUP BY video_id HAVING COUNT(*) > 3) x`); n != 0 {
		t.Fatalf("%d videos have more than 3 tags", n)
	}
	drafts := count(t, d, `SELECT COUNT(*) FROM videos WHERE published = 0`)
	if drafts == 0 || drafts > testVideos/10 {
		t.Fatalf("drafts = %d, want a few percent", drafts)
	}
	// The skew is real: the biggest section holds several times the smallest.
	big := count(t, d, `SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM videos GROUP BY sub_module_id) x`)
	small := count(t, d, `SELECT MIN(n) FROM (SELECT COUNT(*) AS n FROM videos GROUP BY sub_module_id) x`)
	if big < 5*small {
		t.Fatalf("section sizes %d..%d are not skewed", small, big)
	}
	// The id sequence continues after the generated ids.
	var id int64
	err := d.QueryRow(ctx, `INSERT INTO videos (title, module_id, sub_module_id, created_at, updated_at) SELECT 'after', module_id, sub_module_id, 1, 1 FROM videos WHERE id = 1 RETURNING id`).Scan(&id)
	if err != nil || id != testVideos+1 {
		t.Fatalf("insert after generation: id %d, %v; want %d", id, err, testVideos+1)
	}
	if _, err := d.Exec(ctx, `DELETE FROM videos WHERE id = ?`, id); err != nil {
		t.Fatal(err)
	}
	// A second generation into the same database is refused.
	if _, err := Generate(ctx, d, "", 10, nil); err == nil {
		t.Fatal("Generate into a database with videos succeeded")
	}
	digests[e] = digest(t, d)
}

func TestEnsureSQLiteReuses(t *testing.T) {
	ctx := context.Background()
	migs := os.DirFS(filepath.Join("..", "..", "..", "internal", "migrations"))
	path := filepath.Join(t.TempDir(), "catalog.db")
	ensure := func(n int, force bool) Report {
		t.Helper()
		rep, err := EnsureSQLite(ctx, migs, path, n, force, nil)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	if ensure(500, false).Reused {
		t.Fatal("first run reused a data set that did not exist")
	}
	if !ensure(500, false).Reused {
		t.Fatal("second run of the same size rebuilt")
	}
	if ensure(500, true).Reused {
		t.Fatal("-force reused")
	}
	if ensure(600, false).Reused {
		t.Fatal("a different size reused the old data set")
	}
	d, err := db.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if got := count(t, d, `SELECT COUNT(*) FROM videos`); got != 600 {
		t.Fatalf("videos = %d after rebuilding for 600", got)
	}
	// An interrupted generation never wrote its fingerprint.
	if _, err := d.Exec(ctx, `DELETE FROM bench_meta`); err != nil {
		t.Fatal(err)
	}
	d.Close()
	if ensure(600, false).Reused {
		t.Fatal("a data set without its completion mark was reused")
	}
}

func TestFingerprint(t *testing.T) {
	migs := fstest.MapFS{
		"sqlite/0001_a.sql":   {Data: []byte("CREATE TABLE a (id INTEGER)")},
		"postgres/0001_a.sql": {Data: []byte("CREATE TABLE a (id BIGINT)")},
	}
	fp := func(e db.Engine, n int) string {
		s, err := Fingerprint(migs, e, n)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	base := fp(db.SQLite, 100)
	if base != fp(db.SQLite, 100) {
		t.Fatal("fingerprint is not stable")
	}
	if base == fp(db.SQLite, 101) {
		t.Fatal("fingerprint ignores the size")
	}
	if base == fp(db.Postgres, 100) {
		t.Fatal("fingerprint ignores the engine")
	}
	migs["sqlite/0001_a.sql"] = &fstest.MapFile{Data: []byte("CREATE TABLE a (id INTEGER, b TEXT)")}
	if base == fp(db.SQLite, 100) {
		t.Fatal("fingerprint ignores an edited migration")
	}
	migs["sqlite/0001_a.sql"] = &fstest.MapFile{Data: []byte("CREATE TABLE a (id INTEGER)")}
	migs["sqlite/0002_b.sql"] = &fstest.MapFile{Data: []byte("CREATE TABLE b (id INTEGER)")}
	if base == fp(db.SQLite, 100) {
		t.Fatal("fingerprint ignores a new migration")
	}
	if _, err := Fingerprint(fstest.MapFS{}, db.SQLite, 1); err == nil {
		t.Fatal("fingerprint of no migrations succeeded")
	}
}
