package seed

import (
	"context"
	"fmt"
	"image/jpeg"
	"io"
	"log/slog"
	"maps"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"prima/internal/account"
	"prima/internal/app"
	"prima/internal/catalog"
	"prima/internal/media"
	"prima/internal/membership"
	"prima/internal/platform/audit"
	"prima/internal/platform/blob"
	"prima/internal/platform/config"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// newApp builds a whole App over a fresh database of engine e and a temp
// data dir, as `prima seed` does.
func newApp(t *testing.T, e db.Engine) *app.App {
	t.Helper()
	cfg := &config.Config{
		DataDir:     t.TempDir(),
		DatabaseURL: dbtest.URL(t, e),
		LogLevel:    "error",
		Gate:        "off",
		PublicURL:   "https://video.example.org",
		Secret:      strings.Repeat("s", 64),
		// A demo install, as make run starts it: top-ups through the sandbox.
		PaySandbox: true,
	}
	a, err := app.New(context.Background(), cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// snapshot counts the rows of every table the seed writes.
func snapshot(t *testing.T, a *app.App) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, table := range []string{"modules", "videos", "tags", "video_tags", "announcements", "ads", "source_entries", "presale_entries", "users",
		"topics", "posts", "post_pictures", "post_likes", "comments", "follows", "topic_follows"} {
		var n int
		if err := a.DB.QueryRow(context.Background(), "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[table] = n
	}
	return out
}

func titles(t *testing.T, a *app.App) []string {
	t.Helper()
	rows, err := a.DB.Query(context.Background(), "SELECT title FROM videos ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func TestSeed(t *testing.T) {
	ctx := context.Background()
	var runs [][]string // titles of each engine's seed
	for _, e := range []db.Engine{db.SQLite, db.Postgres} {
		t.Run(string(e), func(t *testing.T) {
			a := newApp(t, e)
			report, err := Run(ctx, a)
			if err != nil {
				t.Fatal(err)
			}
			t.Log(report)
			if !strings.Contains(report, "360 videos") || !strings.Contains(report, "demo accounts created") {
				t.Errorf("report does not say what was created:\n%s", report)
			}
			before := snapshot(t, a)
			if before["videos"] < 300 || before["tags"] < 10 || before["tags"] > 20 || before["announcements"] != 3 || before["ads"] == 0 ||
				before["presale_entries"] == 0 || before["users"] < len(account.DemoUsers) {
				t.Fatalf("seeded counts: %v", before)
			}
			checkSeedCommunity(t, a, before)
			// The demo coin packages, each with the sandbox to pay through.
			pkgs, err := a.Wallet.Packages(ctx, 1, false)
			if err != nil || len(pkgs) != 5 || pkgs[0].Price != 600 || pkgs[4].Coins != 5000 || pkgs[4].Bonus != 1500 || len(pkgs[0].PayTypes) != 1 {
				t.Fatalf("coin packages: %+v %v", pkgs, err)
			}

			// Every module type has named sub-modules.
			ms, err := a.Catalog.Modules(ctx, -1)
			if err != nil {
				t.Fatal(err)
			}
			types := map[int]int{}
			for _, m := range ms {
				types[m.Type] = len(m.SubModules)
				for _, s := range m.SubModules {
					if s.Name == "" || s.Type != m.Type {
						t.Errorf("sub-module %+v of %s", s, m.Name)
					}
				}
			}
			for typ := 0; typ <= 4; typ++ {
				if types[typ] < 3 || types[typ] > 8 {
					t.Errorf("module type %d has %d sub-modules", typ, types[typ])
				}
			}

			// Every video's cover is in the media store, at the size of its kind.
			rows, err := a.DB.Query(ctx, "SELECT v.id, v.cover, v.duration, m.module_type FROM videos v JOIN modules m ON m.id = v.module_id ORDER BY v.id")
			if err != nil {
				t.Fatal(err)
			}
			type row struct {
				id        int64
				cover     string
				duration  int
				shortType bool
			}
			var vs []row
			for rows.Next() {
				var r row
				var typ int
				if err := rows.Scan(&r.id, &r.cover, &r.duration, &typ); err != nil {
					t.Fatal(err)
				}
				r.shortType = typ == 4
				vs = append(vs, r)
			}
			rows.Close()
			checkDurations(t, a, hasFFmpeg(media.Tools{}))
			for _, v := range vs {
				// Immutable keys; a landscape cover is a card-size set.
				key, ok := strings.CutPrefix(v.cover, "/media/")
				folder := media.CoverSetPrefix + "/"
				if v.shortType {
					folder = "covers/"
				}
				if !ok || !strings.HasPrefix(key, folder) || strings.Contains(key[len(folder):], "/") || !blob.Immutable(key) {
					t.Fatalf("video %d cover %q", v.id, v.cover)
				}
				if ok, err := a.Media.Exists(ctx, key); !ok || err != nil {
					t.Fatalf("cover of video %d missing: %v", v.id, err)
				}
				if !v.shortType {
					if ok, err := a.Media.Exists(ctx, media.CardKey(key)); !ok || err != nil {
						t.Fatalf("card cover of video %d missing: %v", v.id, err)
					}
				}
			}
			for _, v := range []row{vs[0], vs[len(vs)-1]} {
				f, err := a.Media.Open(ctx, strings.TrimPrefix(v.cover, "/media/"))
				if err != nil {
					t.Fatal(err)
				}
				cfg, err := jpeg.DecodeConfig(f)
				f.Close()
				if err != nil {
					t.Fatalf("cover of %d is not a JPEG: %v", v.id, err)
				}
				want := [2]int{480, 270}
				if v.shortType {
					want = [2]int{270, 480}
				}
				if [2]int{cfg.Width, cfg.Height} != want {
					t.Errorf("cover of %d is %dx%d, want %v", v.id, cfg.Width, cfg.Height, want)
				}
				if !v.shortType {
					f, err := a.Media.Open(ctx, media.CardKey(strings.TrimPrefix(v.cover, "/media/")))
					if err != nil {
						t.Fatal(err)
					}
					cfg, err := jpeg.DecodeConfig(f)
					f.Close()
					if err != nil || cfg.Width != media.CardWidth || cfg.Height != 202 {
						t.Errorf("card cover of %d: %+v %v", v.id, cfg, err)
					}
				}
			}

			// The remote configuration has every key, ads and pre-sale
			// pictures exist, and no entry points at a placeholder domain.
			src, err := a.Catalog.Source(ctx, "http://req.test")
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range catalog.SourceKeys {
				if _, ok := src[k]; !ok {
					t.Errorf("source key %s missing", k)
				}
			}
			want := map[string]catalog.SourceEntry{
				"APPNAME": {Title: "精品"}, "COMMUNITYLAYOUT": {Title: "双列", Weight: 1}, "MODULESELECTINDEX": {Title: "1", Weight: 1},
				"IOSVERSION": {Title: "1.1.3", Weight: 1}, "OFFICALWEBSITEADDRESS": {Title: "官网", URL: "https://video.example.org/", Weight: 1},
			}
			for k, w := range want {
				got := src[k].([]catalog.SourceEntry)
				if len(got) == 1 {
					got[0].ID = 0 // a row id, whatever the engine gave
				}
				if len(got) != 1 || got[0] != w {
					t.Errorf("%s = %+v, want [%+v]", k, got, w)
				}
			}
			for _, k := range catalog.SourceKeys {
				if k == "FAQ" { // its url carries the answer's text
					continue
				}
				for _, e := range src[k].([]catalog.SourceEntry) {
					if e.URL != "" && !strings.HasPrefix(e.URL, "/") && !strings.HasPrefix(e.URL, "https://video.example.org") {
						t.Errorf("%s points outside the app: %q", k, e.URL)
					}
				}
			}
			for _, ad := range src["ads"].([]catalog.Ad) {
				if ok, _ := a.Media.Exists(ctx, strings.TrimPrefix(ad.Image, "/media/")); !ok || !strings.HasPrefix(ad.Link, "/") {
					t.Errorf("ad %+v: image missing or link not in the app", ad)
				}
			}
			for _, p := range src["preSaleConfig"].([]catalog.PreSale) {
				if ok, _ := a.Media.Exists(ctx, strings.TrimPrefix(p.URL, "/media/")); !ok {
					t.Errorf("pre-sale picture %s missing", p.URL)
				}
			}
			// The pictures the home page shows are served without a signature.
			h, err := a.Handler()
			if err != nil {
				t.Fatal(err)
			}
			pics := []string{vs[0].cover, "/media/" + media.CardKey(strings.TrimPrefix(vs[0].cover, "/media/"))}
			for _, ad := range src["ads"].([]catalog.Ad) {
				pics = append(pics, ad.Image)
			}
			for _, p := range src["preSaleConfig"].([]catalog.PreSale) {
				pics = append(pics, p.URL)
			}
			for _, u := range pics {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest("GET", u, nil))
				if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/jpeg" || rec.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
					t.Errorf("GET %s: %d %s %s", u, rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("Cache-Control"))
				}
			}

			// Seeding again changes nothing.
			report, err = Run(ctx, a)
			if err != nil {
				t.Fatal(err)
			}
			if report != "catalogue already present: 360 videos; nothing changed" {
				t.Errorf("second run: %q", report)
			}
			if after := snapshot(t, a); !maps.Equal(before, after) {
				t.Errorf("second run changed the database: %v -> %v", before, after)
			}
			// An install seeded before the support lists existed gets them:
			// FAQ still the old placeholder, APPS empty; GROUP emptied by an
			// operator (an audit row) stays empty.
			err = a.DB.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				for _, q := range []string{`DELETE FROM source_entries WHERE config_key IN ('FAQ', 'APPS', 'GROUP')`,
					`INSERT INTO source_entries (config_key, title, url) VALUES ('FAQ', '常见问题', '/mine/help')`} {
					if _, err := tx.Exec(ctx, q); err != nil {
						return err
					}
				}
				// The audit log is a hash chain: rows go in through Record.
				return audit.RecordAt(ctx, tx, audit.Entry{Actor: audit.Actor{UID: 1}, Action: "source.set", TargetType: "source", TargetID: "GROUP"}, time.Unix(1, 0))
			})
			if err != nil {
				t.Fatal(err)
			}
			faqs, apps := len(supportEntries("/")["FAQ"]), len(supportEntries("/")["APPS"])
			if report, err = Run(ctx, a); err != nil || report != fmt.Sprintf("catalogue already present: 360 videos; added %d help, group and app entries", faqs+apps) {
				t.Errorf("catch-up run: %q %v", report, err)
			}
			src, _ = a.Catalog.Source(ctx, "http://req.test")
			if len(src["FAQ"].([]catalog.SourceEntry)) != faqs || len(src["APPS"].([]catalog.SourceEntry)) != apps || len(src["GROUP"].([]catalog.SourceEntry)) != 0 {
				t.Errorf("after catch-up: FAQ %v APPS %v GROUP %v", src["FAQ"], src["APPS"], src["GROUP"])
			}
			runs = append(runs, titles(t, a))
		})
	}
	if len(runs) == 2 && !slices.Equal(runs[0], runs[1]) {
		t.Error("two seeds of fresh databases gave different titles")
	}
}

// A database with any catalogue content, even one module, is not seeded.
func TestSeedLeavesUsedInstallAlone(t *testing.T) {
	ctx := context.Background()
	a := newApp(t, db.SQLite)
	err := a.DB.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		_, err := catalog.InsertModule(ctx, tx, 0, "运营者的栏目", 0, 1, 1)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, a)
	report, err := Run(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if report != "catalogue already present: 0 videos; nothing changed" {
		t.Errorf("report %q", report)
	}
	if after := snapshot(t, a); !maps.Equal(before, after) {
		t.Errorf("seed changed a used install: %v -> %v", before, after)
	}
	for k, err := range a.Media.List(ctx, "covers/") {
		t.Errorf("covers written to a used install: %+v %v", k, err)
		break
	}
}

// checkDurations: every seeded video lasts as long as the clip it plays
// (rounded to the second), and with ffmpeg every VIP, super VIP and gold
// video plays a clip of a minute or more, longer than its preview, whose
// preview a guest gets, stopping before the end.
func checkDurations(t *testing.T, a *app.App, paidClips bool) {
	t.Helper()
	ctx := context.Background()
	type row struct {
		id, durationMs int64
		duration       int64
		paid           bool
	}
	rows, err := db.All(ctx, a.DB, func(s db.Scanner) (row, error) {
		var r row
		return r, s.Scan(&r.id, &r.duration, &r.durationMs, &r.paid)
	}, `SELECT v.id, v.duration, m.duration_ms, v.vip_level > 0 OR v.coins > 0 FROM videos v JOIN media_assets m ON m.id = v.media_id ORDER BY v.id`)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 360 {
		t.Fatalf("%d videos with media, want 360", len(rows))
	}
	refused := membership.Access{Reason: membership.ReasonLogin}
	paid := 0
	for _, r := range rows {
		if r.duration != (r.durationMs+500)/1000 || r.duration <= 0 {
			t.Fatalf("video %d lasts %d s, its clip %d ms", r.id, r.duration, r.durationMs)
		}
		if !r.paid {
			continue
		}
		paid++
		p, err := a.Uploads.Playback(ctx, catalog.Video{ID: r.id}, refused)
		if err != nil {
			t.Fatal(err)
		}
		if !paidClips {
			continue
		}
		if r.durationMs < 60_000 || p == nil || !p.Preview || p.PreviewMs != 10_000 || p.PreviewMs >= r.durationMs {
			t.Fatalf("paid video %d: a clip of %d ms, preview %+v", r.id, r.durationMs, p)
		}
	}
	if paid == 0 {
		t.Fatal("no paid video")
	}
}

func TestPlanIsDeterministic(t *testing.T) {
	a, b := planVideos(), planVideos()
	if len(a) != 360 {
		t.Fatalf("plan has %d videos", len(a))
	}
	for i := range a {
		if a[i].Title != b[i].Title || a[i].PlayCount != b[i].PlayCount || a[i].AgeSeconds != b[i].AgeSeconds || !slices.Equal(a[i].Tags, b[i].Tags) {
			t.Fatalf("video %d differs between plans: %+v / %+v", i, a[i], b[i])
		}
	}
	// The plan covers what the listings filter on.
	var bands [4]int
	var recent, vip, priced int
	for _, v := range a {
		switch {
		case v.Duration < 300:
			bands[1]++
		case v.Duration < 1200:
			bands[2]++
		default:
			bands[3]++
		}
		if v.AgeSeconds < 7*86400 {
			recent++
		}
		if v.VipLevel > 0 {
			vip++
		}
		if v.Coins > 0 {
			priced++
		}
		if v.LikeCount > v.PlayCount || v.PlayCount < 100 {
			t.Errorf("video %q: %d plays, %d likes", v.Title, v.PlayCount, v.LikeCount)
		}
	}
	if bands[1] == 0 || bands[2] == 0 || bands[3] == 0 || recent == 0 || vip == 0 || priced == 0 {
		t.Errorf("plan misses a case: bands %v, recent %d, vip %d, priced %d", bands, recent, vip, priced)
	}
}

func TestFontGlyphsAreWellFormed(t *testing.T) {
	for r, g := range font5x7 {
		for _, line := range g {
			if len(line) != 5 || strings.Trim(line, ".#") != "" {
				t.Errorf("glyph %q row %q", r, line)
			}
		}
	}
	// Every label the seed draws has its glyphs.
	labels := []string{coverArt(1234567890, 480, 270).Label}
	for _, ad := range ads {
		labels = append(labels, ad.Art.Label)
	}
	for _, p := range preSales() {
		labels = append(labels, p.Art.Label)
	}
	for _, l := range labels {
		for _, r := range l {
			if _, ok := font5x7[r]; !ok {
				t.Errorf("label %q: no glyph for %q", l, r)
			}
		}
	}
}

func TestCoversDifferByID(t *testing.T) {
	a, b := coverArt(1, 480, 270).render(), coverArt(2, 480, 270).render()
	if slices.Equal(a.Pix, b.Pix) {
		t.Fatal("two videos got the same cover")
	}
	// The label is drawn top right, clear of the app's badges: that corner
	// holds white text pixels.
	white := 0
	for y := 0; y < 70; y++ {
		for x := 280; x < 480; x++ {
			if c := a.RGBAAt(x, y); c.R == 255 && c.G == 255 && c.B == 255 {
				white++
			}
		}
	}
	if white < 100 {
		t.Errorf("label not drawn: %d white pixels", white)
	}
}
