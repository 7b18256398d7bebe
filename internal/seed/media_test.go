package seed

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"prima/internal/account"
	"prima/internal/app"
	"prima/internal/media"
	"prima/internal/platform/db"
)

func call(t *testing.T, h http.Handler, url string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
	return rec
}

func apiData[T any](t *testing.T, h http.Handler, url string) T {
	t.Helper()
	rec := call(t, h, url)
	var env struct {
		Code int `json:"code"`
		Data T   `json:"data"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil || rec.Code != 200 || env.Code != 200 {
		t.Fatalf("%s: %d %s (%v)", url, rec.Code, rec.Body, err)
	}
	return env.Data
}

// firstVideo is the lowest id of a free, published video of module type typ.
func firstVideo(t *testing.T, a *app.App, typ int) int64 {
	t.Helper()
	var id int64
	err := a.DB.QueryRow(context.Background(), `SELECT MIN(v.id) FROM videos v JOIN modules m ON m.id = v.module_id
		WHERE m.module_type = ? AND v.vip_level = 0 AND v.coins = 0 AND v.published = 1`, typ).Scan(&id)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// checkPlays opens the playback of video id the way a player does: the
// master playlist, then each variant playlist it names and the first
// segment (and init segment) of each, all through the real /media/ handler.
func checkPlays(t *testing.T, h http.Handler, id int64) {
	t.Helper()
	d := apiData[struct {
		Playback *struct {
			URL     string `json:"url"`
			Preview bool   `json:"preview"`
		} `json:"playback"`
	}](t, h, fmt.Sprintf("/api/app/vid/info?id=%d", id))
	if d.Playback == nil || d.Playback.URL == "" || d.Playback.Preview {
		t.Fatalf("video %d: playback %+v", id, d.Playback)
	}
	master := call(t, h, d.Playback.URL)
	if master.Code != 200 {
		t.Fatalf("master: %d", master.Code)
	}
	var variants []string
	for _, line := range strings.Split(master.Body.String(), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			variants = append(variants, line)
		}
	}
	if n := strings.Count(master.Body.String(), "#EXT-X-STREAM-INF"); n < 2 || len(variants) != n {
		t.Fatalf("master playlist has %d streams: %s", n, master.Body)
	}
	base := path.Dir(d.Playback.URL)
	for _, v := range variants {
		vu := base + "/" + v
		pl := call(t, h, vu)
		if pl.Code != 200 || !strings.Contains(pl.Body.String(), "#EXTINF") {
			t.Fatalf("variant %s: %d %s", v, pl.Code, pl.Body)
		}
		var seg, init string
		for _, line := range strings.Split(pl.Body.String(), "\n") {
			if strings.HasPrefix(line, "#EXT-X-MAP:URI=") {
				init = strings.Trim(strings.TrimPrefix(line, "#EXT-X-MAP:URI="), `"`)
			}
			if line != "" && !strings.HasPrefix(line, "#") && seg == "" {
				seg = line
			}
		}
		for _, f := range []string{init, seg} {
			if f == "" {
				t.Fatalf("variant %s names no segment: %s", v, pl.Body)
			}
			if rec := call(t, h, path.Dir(vu)+"/"+f); rec.Code != 200 || rec.Body.Len() == 0 {
				t.Fatalf("segment %s: %d", f, rec.Code)
			}
		}
	}
}

type galleryImage struct {
	Display, Thumb, DisplayWebp string
	Locked                      bool
}

// checkGallery opens a free seeded gallery and every picture of it.
func checkGallery(t *testing.T, a *app.App, h http.Handler, wantWebP bool) {
	t.Helper()
	var mod int64
	if err := a.DB.QueryRow(context.Background(), "SELECT id FROM modules WHERE module_type = 3 AND pid = 0").Scan(&mod); err != nil {
		t.Fatal(err)
	}
	page := apiData[struct {
		Total int `json:"total"`
		List  []struct {
			ID       int64 `json:"id"`
			VipLevel int   `json:"vipLevel"`
			Coins    int64 `json:"coins"`
		} `json:"list"`
	}](t, h, fmt.Sprintf("/api/app/gallery/list?moduleID=%d&pageSize=50", mod))
	if page.Total != 16 {
		t.Fatalf("%d galleries", page.Total)
	}
	for _, g := range page.List {
		if g.VipLevel != 0 || g.Coins != 0 {
			continue
		}
		d := apiData[struct {
			Images []galleryImage `json:"images"`
		}](t, h, fmt.Sprintf("/api/app/gallery/info?id=%d", g.ID))
		if len(d.Images) < 4 {
			t.Fatalf("gallery %d: %d images", g.ID, len(d.Images))
		}
		for _, im := range d.Images {
			if im.Locked || (im.DisplayWebp != "") != wantWebP {
				t.Fatalf("image %+v", im)
			}
			for _, u := range []string{im.Display, im.Thumb, im.DisplayWebp} {
				if u == "" {
					continue
				}
				if rec := call(t, h, u); rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "image/") {
					t.Fatalf("%s: %d %v", u, rec.Code, rec.Header())
				}
			}
		}
		return
	}
	t.Fatal("no free gallery")
}

func countRows(t *testing.T, a *app.App) map[string]int {
	t.Helper()
	out := snapshot(t, a)
	for _, table := range []string{"media_assets", "galleries", "gallery_images", "audit_log"} {
		var n int
		if err := a.DB.QueryRow(context.Background(), "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		out[table] = n
	}
	var attached int
	if err := a.DB.QueryRow(context.Background(), "SELECT COUNT(*) FROM videos WHERE media_id <> 0").Scan(&attached); err != nil {
		t.Fatal(err)
	}
	out["videos with media"] = attached
	return out
}

// The first engine seeds cold (ffmpeg renders and transcodes, and fills
// the cache), the second warm (from the cache); both must play.
func TestSeededMediaPlays(t *testing.T) {
	if !hasFFmpeg(media.Tools{}) {
		t.Skip("ffmpeg is not installed")
	}
	cache := t.TempDir()
	for i, e := range []db.Engine{db.SQLite, db.Postgres} {
		t.Run(string(e), func(t *testing.T) {
			a := newApp(t, e)
			var stderr bytes.Buffer
			report, err := RunWith(context.Background(), a, Options{CacheDir: cache, Stderr: &stderr})
			if err != nil {
				t.Fatal(err)
			}
			want := "10 from ffmpeg, 24 from drawn"
			if i == 1 {
				want = "34 from cache"
			}
			if !strings.Contains(report, want) || !strings.Contains(report, "10 clips on 360 videos") || !strings.Contains(report, "16 galleries") {
				t.Fatalf("report:\n%s", report)
			}
			h, err := a.Handler()
			if err != nil {
				t.Fatal(err)
			}
			checkPlays(t, h, firstVideo(t, a, 0))
			checkPlays(t, h, firstVideo(t, a, 2))
			checkPlays(t, h, firstVideo(t, a, 4))
			checkGallery(t, a, h, true)
			// The short videos play vertical clips.
			var w, hgt int
			if err := a.DB.QueryRow(context.Background(), `SELECT m.width, m.height FROM videos v JOIN media_assets m ON m.id = v.media_id
				WHERE v.id = ?`, firstVideo(t, a, 4)).Scan(&w, &hgt); err != nil || w >= hgt {
				t.Fatalf("short video clip %dx%d (%v)", w, hgt, err)
			}
			checkDurations(t, a, true)
			before := countRows(t, a)
			if before["videos with media"] != 360 || before["galleries"] != 16 {
				t.Fatalf("rows %v", before)
			}
			report, err = RunWith(context.Background(), a, Options{CacheDir: cache, Stderr: &stderr})
			if err != nil || !strings.Contains(report, "nothing changed") {
				t.Fatalf("second seed: %v %s", err, report)
			}
			if after := countRows(t, a); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Fatalf("a second seed changed rows: %v -> %v", before, after)
			}
			if stderr.Len() != 0 {
				t.Fatalf("stderr: %s", stderr.String())
			}
		})
	}
}

// Without ffmpeg the seed says so and the videos play the pre-made clips.
// A damaged cache entry is dropped and made again, not a failed seed.
func TestSeedWithoutFFmpeg(t *testing.T) {
	a := newApp(t, db.SQLite)
	missing := filepath.Join(t.TempDir(), "no-such-ffmpeg")
	a.Uploads.Tools.FFmpeg, a.Uploads.Tools.FFprobe = missing, missing
	cache := t.TempDir()
	damaged := filepath.Join(cache, "clip-long-1")
	if err := os.MkdirAll(damaged, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(damaged, media.ManifestName), []byte(`{"kind":"video","hls":"hls","poster":"poster.jpg"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	report, err := RunWith(context.Background(), a, Options{CacheDir: cache, Stderr: &stderr})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "ffmpeg/ffprobe not found") || !strings.Contains(stderr.String(), "cached clip-long-1 is damaged") {
		t.Fatalf("stderr %q", stderr.String())
	}
	if _, err := os.Stat(damaged); !os.IsNotExist(err) {
		t.Fatalf("the damaged entry is still there: %v", err)
	}
	if !strings.Contains(report, "4 clips on 360 videos") || !strings.Contains(report, "4 from pre-made clips, 24 from drawn") {
		t.Fatalf("report:\n%s", report)
	}
	// The demo account's uploads (the community writers hold copies).
	var orphans int
	if err := a.DB.QueryRow(context.Background(), "SELECT COUNT(*) FROM media_assets WHERE owner_uid = (SELECT id FROM users WHERE account = 'demo')").Scan(&orphans); err != nil || orphans != 4+24 {
		t.Fatalf("%d assets (%v), want 28: a failed import left a row", orphans, err)
	}
	h, err := a.Handler()
	if err != nil {
		t.Fatal(err)
	}
	checkPlays(t, h, firstVideo(t, a, 0))
	checkPlays(t, h, firstVideo(t, a, 4))
	checkGallery(t, a, h, false)
	checkDurations(t, a, false)
}

// The pre-made clips stay small: they are in the repository.
func TestPremadeClipsAreSmall(t *testing.T) {
	var total int64
	n := 0
	err := filepath.Walk("clips", func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			total += fi.Size()
			if fi.Name() == media.ManifestName {
				n++
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 2 || total > 2<<20 {
		t.Fatalf("%d pre-made clips in %d bytes", n, total)
	}
}

// TestMakePremadeClips writes clips/ again (PRIMA_MAKE_CLIPS=1): a long and
// a vertical clip or two, exported without their source.
func TestMakePremadeClips(t *testing.T) {
	if os.Getenv("PRIMA_MAKE_CLIPS") == "" {
		t.Skip("set PRIMA_MAKE_CLIPS=1 to write internal/seed/clips")
	}
	a := newApp(t, db.SQLite)
	ctx := context.Background()
	if _, err := account.SeedDemoUsers(ctx, a.Account); err != nil {
		t.Fatal(err)
	}
	u, err := a.Account.UserByAccount(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	m := maker{a: a, owner: u.ID, ff: true}
	for _, c := range clips {
		if c.Name != "long-1" && c.Name != "long-2" && c.Name != "short-1" && c.Name != "short-2" {
			continue
		}
		id, _, err := m.clip(ctx, c)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join("clips", c.Name)
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := a.Uploads.Export(ctx, id, dir); err != nil {
			t.Fatal(err)
		}
		// Leave the source out: it is never served.
		mf := filepath.Join(dir, media.ManifestName)
		b, err := os.ReadFile(mf)
		if err != nil {
			t.Fatal(err)
		}
		var man media.Manifest
		if err := json.Unmarshal(b, &man); err != nil {
			t.Fatal(err)
		}
		os.Remove(filepath.Join(dir, man.Source))
		man.Source = ""
		b, _ = json.MarshalIndent(man, "", "  ")
		if err := os.WriteFile(mf, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
