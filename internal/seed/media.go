package seed

import (
	"cmp"
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"prima/internal/app"
	"prima/internal/gallery"
	"prima/internal/media"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
)

// The demo plays: after the catalogue, the seed makes real media through
// the real pipeline. With ffmpeg it renders a few short clips (a coloured
// scene with a title, a moving clock and a tone), uploads them through
// internal/media, transcodes them to the HLS ladder and attaches them to
// the seeded videos (many videos share one clip), and a few clips of a
// minute or two for the VIP, super VIP and gold videos, so their preview
// stops well before the end and the paywall is there to see; every video
// takes the duration of the clip it plays. It draws pictures and
// uploads them as galleries of the images module. What came out is kept
// in the user cache under MediaVersion, so the next seed (every browser
// test seeds a fresh server) copies files instead of running ffmpeg.
// Without ffmpeg it says so and imports the pre-made clips in clips/.

// MediaVersion names the demo media's cache folder: bump it whenever the
// clips, pictures or the pipeline's outputs change.
const MediaVersion = "seed-media-v2"

// clipSpec is one demo clip.
type clipSpec struct {
	Name     string
	W, H     int
	Seconds  int
	FPS      int    // 25 when 0
	Colour   string // ffmpeg colour
	Title    string
	Hz       int // the tone
	Vertical bool
	// Paid clips play on the VIP, super VIP and gold videos: long enough
	// for a 10 s preview. They are cheap to make: 10 frames a second of a
	// flat scene, which the ladder keeps (it never raises the frame rate).
	Paid bool
}

var clips = []clipSpec{
	{Name: "paid-1", W: 640, H: 360, Seconds: 60, FPS: 10, Colour: "0x264653", Title: "会员精选 一", Hz: 330, Paid: true},
	{Name: "paid-2", W: 640, H: 360, Seconds: 75, FPS: 10, Colour: "0x5f0f40", Title: "会员精选 二", Hz: 370, Paid: true},
	{Name: "paid-short-1", W: 360, H: 640, Seconds: 60, FPS: 10, Colour: "0x9a031e", Title: "会员短片", Hz: 415, Vertical: true, Paid: true},
	{Name: "long-1", W: 640, H: 360, Seconds: 5, Colour: "0x2a6f97", Title: "精品演示 一", Hz: 440},
	{Name: "long-2", W: 640, H: 360, Seconds: 4, Colour: "0x7b2d26", Title: "精品演示 二", Hz: 523},
	{Name: "long-3", W: 640, H: 360, Seconds: 6, Colour: "0x3d5a40", Title: "精品演示 三", Hz: 659},
	{Name: "short-1", W: 360, H: 640, Seconds: 3, Colour: "0x6a4c93", Title: "短视频 一", Hz: 392, Vertical: true},
	{Name: "short-2", W: 360, H: 640, Seconds: 4, Colour: "0xc05621", Title: "短视频 二", Hz: 494, Vertical: true},
	{Name: "short-3", W: 360, H: 640, Seconds: 5, Colour: "0x1b7f79", Title: "短视频 三", Hz: 587, Vertical: true},
	{Name: "short-4", W: 360, H: 640, Seconds: 3, Colour: "0x8d3b72", Title: "短视频 四", Hz: 698, Vertical: true},
}

// fontFile is the CJK font drawtext uses (fonts-noto-cjk); without it the
// clips carry their title in Latin letters from ffmpeg's default font.
const fontFile = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"

// pictureCount is how many demo pictures the galleries draw from.
const pictureCount = 24

// premade holds exports (media.Export, without the source) of a few clips
// for machines without ffmpeg; TestMakePremadeClips makes them again
// (PRIMA_MAKE_CLIPS=1 go test ./internal/seed -run TestMakePremadeClips).
//
//go:embed clips
var premade embed.FS

// Options tune a seed.
type Options struct {
	// CacheDir keeps the rendered demo media between seeds; "" is
	// <user cache dir>/prima/<MediaVersion>, "-" keeps none.
	CacheDir string
	// Stderr hears what the seed has to say about the media (no ffmpeg,
	// no cache); os.Stderr when nil.
	Stderr io.Writer
}

func (o Options) stderr() io.Writer {
	if o.Stderr == nil {
		return os.Stderr
	}
	return o.Stderr
}

func (o Options) cacheDir() string {
	switch o.CacheDir {
	case "-":
		return ""
	case "":
		d, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		return filepath.Join(d, "prima", MediaVersion)
	}
	return o.CacheDir
}

// mediaStats is what the media step made, for the report.
type mediaStats struct {
	clips, pictures, withMedia, galleries int
	source                                string // "ffmpeg", "cache" or "pre-made clips"
	took                                  time.Duration
}

// hasFFmpeg reports whether the pipeline's ffmpeg and ffprobe run.
func hasFFmpeg(t media.Tools) bool {
	for _, name := range []string{cmpStr(t.FFmpeg, "ffmpeg"), cmpStr(t.FFprobe, "ffprobe")} {
		if _, err := exec.LookPath(name); err != nil {
			return false
		}
	}
	return true
}

func cmpStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// seedMedia makes the demo media and ties it to the catalogue just seeded:
// clips to the videos, pictures into galleries. owner owns the assets.
func seedMedia(ctx context.Context, a *app.App, owner int64, o Options) (mediaStats, error) {
	start := time.Now()
	var st mediaStats
	ff := hasFFmpeg(a.Uploads.Tools)
	cache := o.cacheDir()
	if !ff {
		fmt.Fprintln(o.stderr(), "seed: ffmpeg/ffprobe not found: the demo videos use the pre-made clips in the repository, and the pictures get no WebP copies")
		// Said once here; not again by the pipeline for every picture.
		log := a.Uploads.Log
		a.Uploads.Log = slog.New(slog.NewTextHandler(o.stderr(), &slog.HandlerOptions{Level: slog.LevelError}))
		defer func() { a.Uploads.Log = log }()
	}
	if cache != "" {
		if err := os.MkdirAll(cache, 0o755); err != nil {
			fmt.Fprintf(o.stderr(), "seed: no media cache (%v): rendering everything\n", err)
			cache = ""
		}
	}
	m := maker{a: a, owner: owner, ff: ff, cache: cache, tmp: a.Uploads.TempDir, stderr: o.stderr()}

	// Clips and pictures are independent: a few at a time, so a cold
	// seed keeps both cores busy and a warm one overlaps its fsyncs.
	clipIDs := make([]int64, len(clips))
	picIDs := make([]int64, pictureCount)
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		errs    []error
		sources = map[string]int{}
	)
	work := make(chan func() (string, error))
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for fn := range work {
				src, err := fn()
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else if src != "" {
					sources[src]++
				}
				mu.Unlock()
			}
		}()
	}
	// The long paid clips first, so a cold seed renders them while the
	// others and the pictures fill the other workers.
	for _, paid := range []bool{true, false} {
		for i, c := range clips {
			if c.Paid != paid {
				continue
			}
			work <- func() (string, error) {
				id, src, err := m.clip(ctx, c)
				clipIDs[i] = id
				return src, err
			}
		}
	}
	for i := range pictureCount {
		work <- func() (string, error) {
			id, src, err := m.picture(ctx, i)
			picIDs[i] = id
			return src, err
		}
	}
	close(work)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return st, err
	}
	var names []string
	for _, k := range []string{"cache", "ffmpeg", "pre-made clips", "drawn"} {
		if sources[k] > 0 {
			names = append(names, fmt.Sprintf("%d from %s", sources[k], k))
		}
	}
	st.source = strings.Join(names, ", ")
	var free, paid clipSets
	for i, c := range clips {
		if clipIDs[i] == 0 {
			continue // a clip the pre-made set does not have
		}
		set := &free
		if c.Paid {
			set = &paid
		}
		if c.Vertical {
			set.short = append(set.short, clipIDs[i])
		} else {
			set.long = append(set.long, clipIDs[i])
		}
		st.clips++
	}
	st.pictures = pictureCount
	n, err := attachClips(ctx, a.DB, free, paid)
	if err != nil {
		return st, err
	}
	st.withMedia = n
	if st.galleries, err = makeGalleries(ctx, a, picIDs); err != nil {
		return st, err
	}
	st.took = time.Since(start)
	return st, nil
}

// maker makes one asset: from the cache, or rendered and cached.
type maker struct {
	a      *app.App
	owner  int64
	ff     bool
	cache  string
	tmp    string
	stderr io.Writer
}

// fromCache imports the cached export name, if there is one.
func (m maker) fromCache(ctx context.Context, name string) (int64, bool, error) {
	if m.cache == "" {
		return 0, false, nil
	}
	dir := filepath.Join(m.cache, name)
	if _, err := os.Stat(filepath.Join(dir, media.ManifestName)); err != nil {
		return 0, false, nil
	}
	as, err := m.a.Uploads.Import(ctx, m.owner, os.DirFS(dir))
	if errors.Is(err, media.ErrBadExport) {
		// A damaged entry (files removed by hand, a disk that filled up)
		// is made again rather than failing the seed.
		fmt.Fprintf(m.stderr, "seed: the cached %s is damaged (%v): making it again\n", name, err)
		if err := os.RemoveAll(dir); err != nil {
			return 0, false, err
		}
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("seed: cached %s: %w", name, err)
	}
	return as.ID, true, nil
}

// keep exports asset id into the cache as name: into a temp folder first,
// renamed into place, so a half-written export is never read and two
// seeds at once do not collide.
func (m maker) keep(ctx context.Context, id int64, name string) error {
	if m.cache == "" {
		return nil
	}
	tmp, err := os.MkdirTemp(m.cache, ".tmp-"+name+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := m.a.Uploads.Export(ctx, id, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(m.cache, name)); err != nil && !errors.Is(err, fs.ErrExist) {
		if _, serr := os.Stat(filepath.Join(m.cache, name, media.ManifestName)); serr == nil {
			return nil // another seed cached it first
		}
		return err
	}
	return nil
}

// clip is the asset of clip c.
func (m maker) clip(ctx context.Context, c clipSpec) (int64, string, error) {
	if id, ok, err := m.fromCache(ctx, "clip-"+c.Name); ok || err != nil {
		return id, "cache", err
	}
	if !m.ff {
		sub, err := fs.Sub(premade, "clips/"+c.Name)
		if err != nil {
			return 0, "", err
		}
		if _, err := fs.Stat(sub, media.ManifestName); err != nil {
			return 0, "", nil // not every clip is pre-made
		}
		as, err := m.a.Uploads.Import(ctx, m.owner, sub)
		if err != nil {
			return 0, "", fmt.Errorf("seed: pre-made clip %s: %w", c.Name, err)
		}
		return as.ID, "pre-made clips", nil
	}
	dir, err := os.MkdirTemp(m.tmp, "prima-seed-clip-")
	if err != nil {
		return 0, "", err
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, c.Name+".mp4")
	if err := renderClip(ctx, m.a.Uploads.Tools, c, src); err != nil {
		return 0, "", err
	}
	fi, err := os.Stat(src)
	if err != nil {
		return 0, "", err
	}
	as, err := m.a.Uploads.Upload(ctx, m.owner, src, fi.Size())
	if err != nil {
		return 0, "", fmt.Errorf("seed: clip %s: %w", c.Name, err)
	}
	if err := m.a.Uploads.TranscodeNow(ctx, as.ID); err != nil {
		return 0, "", fmt.Errorf("seed: transcoding clip %s: %w", c.Name, err)
	}
	if err := m.keep(ctx, as.ID, "clip-"+c.Name); err != nil {
		return 0, "", fmt.Errorf("seed: caching clip %s: %w", c.Name, err)
	}
	return as.ID, "ffmpeg", nil
}

// renderClip draws clip c with ffmpeg: its colour, its title, a clock and
// a tone.
func renderClip(ctx context.Context, t media.Tools, c clipSpec, out string) error {
	d := strconv.Itoa(c.Seconds)
	fps := cmp.Or(c.FPS, 25)
	title := c.Title
	font := "fontfile=" + fontFile + ":"
	if _, err := os.Stat(fontFile); err != nil {
		font, title = "", "PRIMA DEMO "+strings.ToUpper(c.Name)
	}
	size := c.W / 12
	vf := fmt.Sprintf("drawtext=%stext='%s':fontsize=%d:fontcolor=white:x=(w-tw)/2:y=(h-th)/2-%d,"+
		"drawtext=%stext='%%{pts\\:hms}':fontsize=%d:fontcolor=white@0.8:x=(w-tw)/2:y=(h/2)+%d,"+
		"drawbox=x='mod(t*120\\,w)':y=h-24:w=48:h=12:color=white@0.7:t=fill",
		font, title, size, size/2, font, size/2, size)
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cmpStr(t.FFmpeg, "ffmpeg"), "-nostdin", "-hide_banner", "-v", "error", "-y",
		"-f", "lavfi", "-i", fmt.Sprintf("color=c=%s:s=%dx%d:d=%s:r=%d", c.Colour, c.W, c.H, d, fps),
		"-f", "lavfi", "-i", fmt.Sprintf("sine=frequency=%d:duration=%s", c.Hz, d),
		"-vf", vf, "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "64k",
		"-shortest", "-movflags", "+faststart", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("seed: rendering %s: %v: %s", c.Name, err, strings.TrimSpace(string(b)))
	}
	return nil
}

// picture is the asset of demo picture i.
func (m maker) picture(ctx context.Context, i int) (int64, string, error) {
	name := fmt.Sprintf("picture-%02d", i)
	if id, ok, err := m.fromCache(ctx, name); ok || err != nil {
		return id, "cache", err
	}
	b, err := pictureArt(i).jpegBytes()
	if err != nil {
		return 0, "", err
	}
	f, err := os.CreateTemp(m.tmp, "prima-seed-picture-")
	if err != nil {
		return 0, "", err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, "", err
	}
	as, err := m.a.Uploads.Upload(ctx, m.owner, f.Name(), int64(len(b)))
	if err != nil {
		return 0, "", fmt.Errorf("seed: %s: %w", name, err)
	}
	if m.ff && as.DisplayWebP != "" {
		if err := m.keep(ctx, as.ID, name); err != nil {
			return 0, "", fmt.Errorf("seed: caching %s: %w", name, err)
		}
	}
	return as.ID, "drawn", nil
}

// pictureArt is demo picture i: portrait mostly, every third landscape.
func pictureArt(i int) artwork {
	w, h := 720, 960
	if i%3 == 2 {
		w, h = 960, 640
	}
	return artwork{W: w, H: h, Hue: float64(i+7) * golden, Label: fmt.Sprintf("PIC %02d", i+1), Scene: true}
}

// clipSets are clip assets by shape: landscape and vertical.
type clipSets struct{ long, short []int64 }

// attachClips shares the landscape clips among the videos of module types
// 0-2 and the vertical ones among the short videos (type 4), round robin
// by id: the paid clips among the VIP, super VIP and gold videos (the free
// ones when there are no paid ones, as without ffmpeg), the free clips
// among the rest. Every video with a clip then takes its duration. It
// reports how many videos got media.
func attachClips(ctx context.Context, d *db.DB, free, paid clipSets) (int, error) {
	type row struct {
		id   int64
		typ  int
		paid bool
	}
	rows, err := db.All(ctx, d, func(s db.Scanner) (row, error) {
		var r row
		return r, s.Scan(&r.id, &r.typ, &r.paid)
	}, `SELECT v.id, m.module_type, v.vip_level > 0 OR v.coins > 0 FROM videos v JOIN modules m ON m.id = v.module_id ORDER BY v.id`)
	if err != nil {
		return 0, err
	}
	byAsset := map[int64][]any{}
	next := map[*[]int64]int{}
	give := func(list *[]int64, id int64) {
		a := (*list)[next[list]%len(*list)]
		next[list]++
		byAsset[a] = append(byAsset[a], id)
	}
	n := 0
	for _, r := range rows {
		set := &free
		if r.paid {
			set = &paid
		}
		list, fallback := &set.long, &free.long
		if r.typ == 4 {
			list, fallback = &set.short, &free.short
		} else if r.typ > 2 {
			continue
		}
		if len(*list) == 0 {
			list = fallback
		}
		if len(*list) == 0 {
			continue
		}
		give(list, r.id)
		n++
	}
	err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		for asset, ids := range byAsset {
			for len(ids) > 0 {
				chunk := ids[:min(len(ids), 200)]
				ids = ids[len(chunk):]
				q := `UPDATE videos SET media_id = ? WHERE id IN (` + db.Placeholders(len(chunk)) + `)`
				if _, err := tx.Exec(ctx, q, append([]any{asset}, chunk...)...); err != nil {
					return err
				}
			}
		}
		// A card's length is its clip's, rounded to the second, so a
		// bought video is visibly longer than its preview.
		_, err := tx.Exec(ctx, `UPDATE videos SET duration = (SELECT (m.duration_ms + 500) / 1000 FROM media_assets m WHERE m.id = videos.media_id)
			WHERE media_id <> 0`)
		return err
	})
	return n, err
}

// Gallery titles are built from these.
var galleryWords = [][]string{
	{"写真", "光影", "日常", "旅拍", "私房", "街拍"},
	{"风景", "山川", "海岸", "城市夜景", "森林", "雪山"},
	{"插画", "水彩", "像素画", "漫画", "线稿", "涂鸦"},
	{"壁纸", "极简壁纸", "渐变壁纸", "手机壁纸", "星空壁纸", "抽象壁纸"},
}

// galleriesPerSub is how many galleries each images sub-module gets.
const galleriesPerSub = 4

// makeGalleries makes the demo galleries through the gallery service (so
// each is audited as made by the command line): per sub-module of the
// images module, galleries of 4-8 pictures at every access level.
func makeGalleries(ctx context.Context, a *app.App, pics []int64) (int, error) {
	subs, err := db.All(ctx, a.DB, func(s db.Scanner) (int64, error) {
		var id int64
		return id, s.Scan(&id)
	}, `SELECT s.id FROM modules s JOIN modules m ON m.id = s.pid WHERE m.module_type = ? ORDER BY s.sort, s.id`, gallery.ImagesModuleType)
	if err != nil {
		return 0, err
	}
	n := 0
	for si, sub := range subs {
		words := galleryWords[si%len(galleryWords)]
		for gi := range galleriesPerSub {
			k := si*galleriesPerSub + gi
			count := 4 + k%5
			assets := make([]int64, count)
			for j := range assets {
				assets[j] = pics[(k*5+j)%len(pics)]
			}
			ng := gallery.NewGallery{
				Title:       fmt.Sprintf("%s·第%d辑", words[(gi+si)%len(words)], gi+1),
				SubModuleID: sub, Published: true, Assets: assets,
			}
			// Free, VIP, super VIP and priced, in turn.
			switch k % 4 {
			case 1:
				ng.VipLevel = 1
			case 2:
				ng.VipLevel = 2
			case 3:
				ng.Coins = 10
			}
			if _, err := a.Galleries.Create(ctx, audit.Actor{UID: audit.CLI}, ng); err != nil {
				return n, fmt.Errorf("seed: gallery %q: %w", ng.Title, err)
			}
			n++
		}
	}
	return n, nil
}
