package media

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"prima/internal/catalog"
	"prima/internal/platform/blob"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func TestSniff(t *testing.T) {
	cases := []struct {
		name string
		head string
		want string // Format.Name, "" for refused
	}{
		{"jpeg", "\xff\xd8\xff\xe0\x00\x10JFIF\x00", "jpeg"},
		{"png", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "png"},
		{"gif87", "GIF87a\x01\x00", "gif"},
		{"gif89", "GIF89a\x01\x00", "gif"},
		{"webp", "RIFF\x24\x00\x00\x00WEBPVP8 ", "webp"},
		{"wav is RIFF but not WEBP", "RIFF\x24\x00\x00\x00WAVEfmt ", ""},
		{"mp4", "\x00\x00\x00\x20ftypisom\x00\x00", "mp4"},
		{"mov", "\x00\x00\x00\x14ftypqt  \x00\x00", "mov"},
		{"m4a audio", "\x00\x00\x00\x20ftypM4A \x00\x00", ""},
		{"webm", "\x1a\x45\xdf\xa3\x01\x00\x00\x00", "matroska"},
		{"elf", "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00", ""},
		{"svg", "<svg xmlns=\"http", ""},
		{"html", "<!doctype html><h", ""},
		{"short", "\xff\xd8", ""},
		{"empty", "", ""},
	}
	for _, c := range cases {
		f, ok := Sniff([]byte(c.head))
		if ok != (c.want != "") || f.Name != c.want {
			t.Errorf("%s: %+v %v, want %q", c.name, f, ok, c.want)
		}
	}
}

func TestLadder(t *testing.T) {
	cases := map[int]string{
		2160: "360@800 720@2500 1080@5000",
		1080: "360@800 720@2500 1080@5000",
		720:  "360@800 720@2500",
		480:  "360@800 480@1666",
		360:  "180@266 360@800",
		240:  "120@177 240@533",
		101:  "50@100 100@222",
	}
	for h, want := range cases {
		var got []string
		for _, r := range Ladder(h) {
			got = append(got, strings.Join([]string{strconv.Itoa(r.Height), strconv.Itoa(r.Bitrate)}, "@"))
		}
		if strings.Join(got, " ") != want {
			t.Errorf("Ladder(%d) = %v, want %s", h, got, want)
		}
	}
}

func TestProcessImageFormats(t *testing.T) {
	// A transparent PNG: JPEG has no alpha, the corner must come out white.
	rgba := image.NewNRGBA(image.Rect(0, 0, 300, 200))
	rgba.Set(150, 100, color.NRGBA{255, 0, 0, 255})
	var pngBuf bytes.Buffer
	png.Encode(&pngBuf, rgba)
	p, err := ProcessImage(pngBuf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	thumb, err := decodeJPEG(p.Thumb)
	if err != nil {
		t.Fatal(err)
	}
	if r, g, b, _ := thumb.At(0, 0).RGBA(); r>>8 < 250 || g>>8 < 250 || b>>8 < 250 {
		t.Fatalf("transparent corner became %d,%d,%d, want white", r>>8, g>>8, b>>8)
	}
	if p.Width != 300 || p.Height != 200 || thumb.Bounds().Dx() != 300 {
		t.Fatalf("%dx%d, thumb %v (a small picture is not upscaled)", p.Width, p.Height, thumb.Bounds())
	}

	// GIF: the first frame.
	pal := image.NewPaletted(image.Rect(0, 0, 40, 500), []color.Color{color.Black, color.White})
	var gifBuf bytes.Buffer
	gif.Encode(&gifBuf, pal, nil)
	if p, err = ProcessImage(gifBuf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if th, _ := decodeJPEG(p.Thumb); th.Bounds().Dy() != ThumbSide || th.Bounds().Dx() != 28 {
		t.Fatalf("tall gif thumb %v", th.Bounds())
	}

	// WebP (decoded by x/image), made by ffmpeg.
	dir := t.TempDir()
	out := filepath.Join(dir, "a.webp")
	if b, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=1600x900", "-frames:v", "1", "-c:v", "libwebp", out).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, b)
	}
	data, _ := os.ReadFile(out)
	if f, ok := Sniff(data); !ok || f.Name != "webp" {
		t.Fatalf("sniffed %+v", f)
	}
	if p, err = ProcessImage(data); err != nil || p.Width != 1600 {
		t.Fatalf("webp: %v %+v", err, p)
	}
	if d, _ := decodeJPEG(p.Display); d.Bounds().Dx() != DisplaySide || d.Bounds().Dy() != 720 {
		t.Fatalf("webp display %v", d.Bounds())
	}

	// Limits are read from the header: a declared 12001-wide PNG.
	if _, err := ProcessImage(DeclaredPNG(pngBuf.Bytes(), 12001, 1)); !errors.Is(err, ErrBadImage) || !strings.Contains(err.Error(), "over the limit") {
		t.Fatalf("12001x1: %v", err)
	}
	// 8000x8000 is within each side but over the pixel budget.
	if _, err := ProcessImage(DeclaredPNG(pngBuf.Bytes(), 8000, 8000)); !errors.Is(err, ErrBadImage) || !strings.Contains(err.Error(), "over the limit") {
		t.Fatalf("8000x8000: %v", err)
	}
}

func decodeJPEG(b []byte) (image.Image, error) {
	img, _, err := image.Decode(bytes.NewReader(b))
	return img, err
}

func newTestService(t *testing.T, d *db.DB) (*Service, blob.Store) {
	t.Helper()
	store, err := blob.NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	signer, err := blob.NewSigner("test-secret-0123456789abcdef")
	if err != nil {
		t.Fatal(err)
	}
	s := NewService(d, store, signer, Options{VideoMedia: catalog.MediaOf}) // the catalog's videos, as the app wires them
	s.TempDir = t.TempDir()
	return s, store
}

func countBlobs(t *testing.T, store blob.Store) int {
	n := 0
	for _, err := range store.List(context.Background(), "") {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	return n
}

// When the row cannot be written (here: no such owner, a foreign key),
// the blobs already stored are removed: nothing is half-written.
func TestRowFailureRemovesBlobs(t *testing.T) {
	var pngBuf bytes.Buffer
	png.Encode(&pngBuf, image.NewRGBA(image.Rect(0, 0, 50, 50)))
	dir := t.TempDir()
	img := filepath.Join(dir, "a.png")
	os.WriteFile(img, pngBuf.Bytes(), 0o600)
	vid := filepath.Join(dir, "v.mp4")
	if b, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10", "-t", "1", "-pix_fmt", "yuv420p", vid).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, b)
	}
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s, store := newTestService(t, d)
		for _, p := range []string{img, vid} {
			fi, _ := os.Stat(p)
			if _, err := s.Upload(context.Background(), 424242, p, fi.Size()); err == nil {
				t.Fatalf("%s: an upload for a missing user was recorded", p)
			}
			if n := countBlobs(t, store); n != 0 {
				t.Fatalf("%s: %d blobs left after the row failed", p, n)
			}
			var jobs int
			d.QueryRow(context.Background(), `SELECT COUNT(*) FROM jobs`).Scan(&jobs)
			if jobs != 0 {
				t.Fatalf("a job without its row")
			}
		}
	})
}

// TestTranscodeSpeed measures the transcode job against the same ffmpeg
// ladder command run alone on a 10 s 640x360 clip, and checks that the job
// leaves no temp files. The ratio is logged (go test -v -run Speed).
func TestTranscodeSpeed(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "clip.mp4")
	if b, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=size=640x360:rate=25",
		"-f", "lavfi", "-i", "sine", "-t", "10", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", src).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, b)
	}
	d := dbtest.Open(t, db.SQLite)
	s, store := newTestService(t, d)
	ctx := context.Background()
	probe, err := s.Tools.ProbeVideo(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	// Alone: the ladder command, straight from exec.
	alone := filepath.Join(dir, "alone")
	start := time.Now()
	if b, err := exec.Command("ffmpeg", s.Tools.hlsArgs(src, alone, probe, Ladder(probe.Height))...).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, b)
	}
	aloneTime := time.Since(start)

	var uid int64
	if err := d.QueryRow(ctx, `INSERT INTO users (created_at, updated_at) VALUES (0, 0) RETURNING id`).Scan(&uid); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(src)
	a, err := s.Upload(ctx, uid, src, fi.Size())
	if err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	if err := s.runTranscode(ctx, a); err != nil {
		t.Fatal(err)
	}
	jobTime := time.Since(start)
	a, _ = s.Get(ctx, a.ID)
	if a.State != Ready {
		t.Fatalf("state %s", a.State)
	}
	left, _ := os.ReadDir(s.TempDir)
	if len(left) != 0 {
		t.Fatalf("the transcode left %d entries in its temp dir", len(left))
	}
	t.Logf("10 s 640x360 clip: ladder alone %v; whole job (fetch, ladder, preview cut, poster, %d uploads, row) %v; ratio %.2f",
		aloneTime.Round(time.Millisecond), countBlobs(t, store), jobTime.Round(time.Millisecond), float64(jobTime)/float64(aloneTime))
}

// withOrientation puts an EXIF APP1 segment (big- or little-endian TIFF)
// with orientation o right after a JPEG's SOI marker.
func withOrientation(jpg []byte, o uint16, little bool) []byte {
	var tiff []byte
	if little {
		tiff = []byte{'I', 'I', 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, byte(o), 0, 0, 0, 0, 0, 0, 0}
	} else {
		tiff = []byte{'M', 'M', 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, byte(o), 0, 0, 0, 0, 0, 0}
	}
	payload := append([]byte("Exif\x00\x00"), tiff...)
	seg := []byte{0xFF, 0xE1, byte((len(payload) + 2) >> 8), byte(len(payload) + 2)}
	out := append([]byte{0xFF, 0xD8}, seg...)
	out = append(out, payload...)
	return append(out, jpg[2:]...)
}

func TestEXIFOrientation(t *testing.T) {
	// 80x40: left half red, right half blue.
	src := image.NewRGBA(image.Rect(0, 0, 80, 40))
	for y := range 40 {
		for x := range 80 {
			c := color.RGBA{220, 0, 0, 255}
			if x >= 40 {
				c = color.RGBA{0, 0, 220, 255}
			}
			src.Set(x, y, c)
		}
	}
	var buf bytes.Buffer
	jpeg.Encode(&buf, src, &jpeg.Options{Quality: 95})
	red := func(c color.Color) bool { r, _, b, _ := c.RGBA(); return r>>8 > 150 && b>>8 < 80 }
	blue := func(c color.Color) bool { r, _, b, _ := c.RGBA(); return b>>8 > 150 && r>>8 < 80 }
	cases := []struct {
		o        uint16
		little   bool
		w, h     int
		at1, at2 image.Point // at1 must be red, at2 blue
	}{
		{1, false, 80, 40, image.Pt(5, 20), image.Pt(75, 20)},
		{2, true, 80, 40, image.Pt(75, 20), image.Pt(5, 20)},  // mirrored
		{3, false, 80, 40, image.Pt(75, 20), image.Pt(5, 20)}, // upside down
		{6, true, 40, 80, image.Pt(20, 5), image.Pt(20, 75)},  // turned a quarter clockwise: left comes on top
		{8, false, 40, 80, image.Pt(20, 75), image.Pt(20, 5)}, // a quarter anticlockwise
	}
	for _, c := range cases {
		data := withOrientation(buf.Bytes(), c.o, c.little)
		if got := jpegOrientation(data); got != int(c.o) {
			t.Fatalf("read orientation %d, want %d", got, c.o)
		}
		p, err := ProcessImage(data)
		if err != nil {
			t.Fatal(err)
		}
		img, _ := decodeJPEG(p.Display)
		if p.Width != c.w || p.Height != c.h || img.Bounds().Dx() != c.w || img.Bounds().Dy() != c.h {
			t.Fatalf("o=%d: %dx%d, display %v, want %dx%d", c.o, p.Width, p.Height, img.Bounds(), c.w, c.h)
		}
		if !red(img.At(c.at1.X, c.at1.Y)) || !blue(img.At(c.at2.X, c.at2.Y)) {
			t.Fatalf("o=%d: %v at %v, %v at %v", c.o, img.At(c.at1.X, c.at1.Y), c.at1, img.At(c.at2.X, c.at2.Y), c.at2)
		}
	}
	// Malformed segments are ignored, never a panic.
	for _, bad := range [][]byte{
		{0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x01},
		{0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF, 'E', 'x'},
		append([]byte{0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x10}, []byte("Exif\x00\x00MM\x00\x2a\xff\xff\xff\xff")...),
	} {
		if o := jpegOrientation(bad); o != 1 {
			t.Fatalf("malformed %x: %d", bad, o)
		}
	}
}
