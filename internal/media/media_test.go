package media_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
	"prima/internal/media"
	"prima/internal/platform/httpx"
	"prima/internal/platform/jobs"
)

// ffmpegFile runs ffmpeg to make a test file in dir and returns its path.
func ffmpegFile(t testing.TB, dir, name string, args ...string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	cmd := exec.Command("ffmpeg", append(append([]string{"-nostdin", "-v", "error", "-y"}, args...), out)...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg %s: %v\n%s", name, err, b)
	}
	return out
}

// clip is a 3 s 640x360 video with sound.
func clip(t testing.TB, dir string) []byte { return clipOf(t, dir, 3) }

// clipOf is a secs long 640x360 video with sound.
func clipOf(t testing.TB, dir string, secs int) []byte {
	t.Helper()
	p := ffmpegFile(t, dir, fmt.Sprintf("clip%d.mp4", secs), "-f", "lavfi", "-i", "testsrc=size=640x360:rate=25", "-f", "lavfi", "-i", "sine",
		"-t", strconv.Itoa(secs), "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func pngOf(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), 128, 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func jpegOf(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 3), uint8(y * 5), 60, 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// form is a multipart body with data in field, named filename.
func form(t testing.TB, field, filename string, data []byte) (body, contentType string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("note", "ignored")
	fw, err := mw.CreateFormFile(field, filename)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	mw.Close()
	return buf.String(), mw.FormDataContentType()
}

func upload(token, field, filename string, data []byte, t testing.TB) apitest.Scenario {
	body, ct := form(t, field, filename, data)
	return apitest.Scenario{Method: http.MethodPost, URL: "/api/app/vid/uploadStatic", Body: body,
		Headers: map[string]string{"Content-Type": ct}, Token: token}
}

// counts is how many asset rows and blobs under media/ exist.
func counts(t testing.TB, s *apptest.Server) (rows, blobs int) {
	t.Helper()
	ctx := context.Background()
	if err := s.App.DB.QueryRow(ctx, `SELECT COUNT(*) FROM media_assets`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	for _, err := range s.App.Media.List(ctx, "media/") {
		if err != nil {
			t.Fatal(err)
		}
		blobs++
	}
	return rows, blobs
}

func TestBadUploadsStoreNothing(t *testing.T) {
	dir := t.TempDir()
	audioOnly, err := os.ReadFile(ffmpegFile(t, dir, "audio.mp4", "-f", "lavfi", "-i", "sine", "-t", "2", "-c:a", "aac", "-f", "mp4"))
	if err != nil {
		t.Fatal(err)
	}
	elf := append([]byte("\x7fELF\x02\x01\x01\x00"), bytes.Repeat([]byte{0}, 200)...)
	good := jpegOf(t, 64, 48)
	// A huge declared size: a valid PNG header that claims 20000x20000
	// (the pixels are never reached).
	bomb := media.DeclaredPNG(pngOf(t, 4, 4), 20000, 20000)
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		s.App.Uploads.Limits.ImageBytes = 64 << 10 // small, to test the limit cheaply
		tok := apitest.GuestLogin(t, s.Handler, apitest.DevID(1))
		cases := []struct {
			name   string
			sc     apitest.Scenario
			status int
			tip    string
		}{
			{"text renamed .jpg", upload(tok, "file", "a.jpg", []byte("hello, this is not a picture\n"), t), 415, "不支持"},
			{"ELF renamed .mp4", upload(tok, "file", "a.mp4", elf, t), 415, "不支持"},
			{"truncated JPEG", upload(tok, "file", "a.jpg", good[:len(good)/2], t), 422, "图片"},
			{"huge declared size", upload(tok, "file", "a.png", bomb, t), 422, "尺寸"},
			{"empty file", upload(tok, "file", "a.jpg", nil, t), 400, "空"},
			{"ftyp header, then junk ffprobe cannot read", upload(tok, "file", "a.mp4", append([]byte("\x00\x00\x00\x18ftypisom"), bytes.Repeat([]byte("junk"), 500)...), t), 422, "视频"},
			{"audio-only mp4", upload(tok, "file", "a.mp4", audioOnly, t), 422, "视频"},
			{"image over the limit", upload(tok, "file", "a.png", append(pngOf(t, 4, 4), make([]byte, 100<<10)...), t), 413, "太大"},
			{"no file field", upload(tok, "picture", "a.jpg", good, t), 400, "选择"},
			{"JSON instead of multipart", apitest.Scenario{Method: "POST", URL: "/api/app/vid/uploadStatic", Body: `{"file":"x"}`, Token: tok}, 415, ""},
			{"no token", upload("", "file", "a.jpg", good, t), 401, ""},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				sc := c.sc
				sc.ExpectedStatus, sc.ExpectedTip = c.status, c.tip
				sc.Run(t, s.Handler)
				if rows, blobs := counts(t, s); rows != 0 || blobs != 0 {
					t.Fatalf("a refused upload left %d rows and %d blobs", rows, blobs)
				}
			})
		}
		t.Run("body over the largest limit", func(t *testing.T) {
			s.App.Uploads.Limits.VideoBytes = 32 << 10
			defer func() { s.App.Uploads.Limits.VideoBytes = media.DefaultLimits.VideoBytes }()
			sc := upload(tok, "file", "big.mp4", append([]byte("\x00\x00\x00\x18ftypisom"), make([]byte, 2<<20)...), t)
			sc.ExpectedStatus = 413
			sc.Run(t, s.Handler)
			if rows, blobs := counts(t, s); rows != 0 || blobs != 0 {
				t.Fatalf("left %d rows and %d blobs", rows, blobs)
			}
		})
	})
}

func TestImageUpload(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		alice := apitest.GuestLogin(t, s.Handler, apitest.DevID(1))
		bob := apitest.GuestLogin(t, s.Handler, apitest.DevID(2))
		sc := upload(alice, "file", "photo.txt", pngOf(t, 2000, 1000), t) // the name is ignored
		sc.ExpectedStatus = 200
		res := sc.Run(t, s.Handler)
		v := apitest.Data[media.View](t, res)
		if v.Kind != media.Image || v.State != media.Ready || v.Width != 2000 || v.Height != 1000 || len(v.Placeholder) < 6 {
			t.Fatalf("asset %+v", v)
		}
		for name, u := range map[string]string{"display": v.Display, "thumb": v.Thumb} {
			rec := httptest.NewRecorder()
			s.Handler.ServeHTTP(rec, httptest.NewRequest("GET", u, nil))
			if rec.Code != 200 || rec.Header().Get("Content-Type") != "image/jpeg" {
				t.Fatalf("%s %s: %d %s", name, u, rec.Code, rec.Header().Get("Content-Type"))
			}
			cfg, err := jpeg.DecodeConfig(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string][2]int{"display": {1280, 640}, "thumb": {360, 180}}[name]
			if cfg.Width != want[0] || cfg.Height != want[1] {
				t.Fatalf("%s is %dx%d, want %v", name, cfg.Width, cfg.Height, want)
			}
		}
		// Unsigned, the same key is refused.
		rec := httptest.NewRecorder()
		key := v.Display[strings.Index(v.Display, "/media/"+"s/")+len("/media/s/"):]
		key = key[strings.IndexByte(key, '/'):]
		s.Handler.ServeHTTP(rec, httptest.NewRequest("GET", "/media"+key, nil))
		if rec.Code != 403 {
			t.Fatalf("unsigned display: %d", rec.Code)
		}
		url := fmt.Sprintf("/api/app/vid/uploadStatic?id=%d", v.ID)
		apitest.Run(t, s.Handler,
			apitest.Scenario{Name: "owner", URL: url, Token: alice, ExpectedStatus: 200, ExpectedContent: []string{`"state":"ready"`, v.Placeholder}},
			apitest.Scenario{Name: "another user", URL: url, Token: bob, ExpectedStatus: 404},
			apitest.Scenario{Name: "missing", URL: "/api/app/vid/uploadStatic?id=999999", Token: alice, ExpectedStatus: 404},
			apitest.Scenario{Name: "bad id", URL: "/api/app/vid/uploadStatic?id=x", Token: alice, ExpectedStatus: 422},
			apitest.Scenario{Name: "no token", URL: url, ExpectedStatus: 401},
		)
		for _, u := range []string{v.DisplayWebP, v.ThumbWebP} {
			rec := get(t, s.Handler, u)
			if b := rec.Body.Bytes(); rec.Code != 200 || len(b) < 12 || string(b[8:12]) != "WEBP" {
				t.Fatalf("webp %s: %d", u, rec.Code)
			}
		}
		if rows, blobs := counts(t, s); rows != 1 || blobs != 5 {
			t.Fatalf("%d rows, %d blobs; want 1 and 5 (source, display and thumb as JPEG and WebP)", rows, blobs)
		}
	})
}

// operator makes an operator (an owner) and returns its console token.
func operator(t *testing.T, s *apptest.Server) string {
	t.Helper()
	return s.Operator(t, "ops_1", httpx.RoleOwner).Token
}

// startQueue runs a queue of the app's jobs with quick retries until t ends.
func startQueue(t *testing.T, s *apptest.Server) {
	t.Helper()
	q := jobs.New(s.App.DB, jobs.Config{Workers: 1, PollInterval: 50 * time.Millisecond,
		Backoff: func(int) time.Duration { return 50 * time.Millisecond }})
	s.App.Uploads.RegisterJobs(q)
	if err := q.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		q.Stop(ctx)
	})
}

// waitState polls the asset until it leaves processing.
func waitState(t *testing.T, s *apptest.Server, token string, id int64) media.View {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		res := apitest.Scenario{URL: fmt.Sprintf("/api/app/vid/uploadStatic?id=%d", id), Token: token, ExpectedStatus: 200}.Run(t, s.Handler)
		v := apitest.Data[media.View](t, res)
		if v.State != media.Processing {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("asset %d still processing", id)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func get(t *testing.T, h http.Handler, url string, hdr ...string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec
}

func TestVideoTranscodesToHLS(t *testing.T) {
	dir := t.TempDir()
	data, short := clipOf(t, dir, 7), clip(t, dir)
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		tmp := t.TempDir()
		s.App.Uploads.TempDir = tmp
		startQueue(t, s)
		tok := apitest.GuestLogin(t, s.Handler, apitest.DevID(1))
		sc := upload(tok, "file", "clip.bin", data, t)
		sc.ExpectedStatus = 200
		v := apitest.Data[media.View](t, sc.Run(t, s.Handler))
		if v.Kind != media.Video || v.State != media.Processing || v.Width != 640 || v.Height != 360 || v.Duration < 6900 || v.VideoCodec != "h264" || v.AudioCodec != "aac" {
			t.Fatalf("uploaded %+v", v)
		}
		v = waitState(t, s, tok, v.ID)
		if v.State != media.Ready || v.Master == "" || v.Preview == "" || v.Poster == "" {
			t.Fatalf("after the job: %+v", v)
		}
		// A 3 s clip is too short for a preview of a whole segment.
		sc = upload(tok, "file", "short.mp4", short, t)
		sc.ExpectedStatus = 200
		sv := waitState(t, s, tok, apitest.Data[media.View](t, sc.Run(t, s.Handler)).ID)
		if sv.State != media.Ready || sv.Master == "" || sv.Preview != "" {
			t.Fatalf("the 3 s clip after the job: %+v", sv)
		}
		noTemp(t, tmp)
		rec := get(t, s.Handler, v.Master)
		if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/vnd.apple.mpegurl" {
			t.Fatalf("master %s: %d %s", v.Master, rec.Code, rec.Body)
		}
		master := rec.Body.String()
		if n := strings.Count(master, "#EXT-X-STREAM-INF"); n != 2 {
			t.Fatalf("master has %d variant streams, want 2 (180p, 360p):\n%s", n, master)
		}
		// Follow the first variant relatively, as a player does.
		base := v.Master[:strings.LastIndexByte(v.Master, '/')+1]
		var variant string
		for _, l := range strings.Split(master, "\n") {
			if l != "" && !strings.HasPrefix(l, "#") {
				variant = l
				break
			}
		}
		rec = get(t, s.Handler, base+variant)
		if rec.Code != 200 {
			t.Fatalf("variant %s: %d", variant, rec.Code)
		}
		var seg string
		for _, l := range strings.Split(rec.Body.String(), "\n") {
			if strings.HasSuffix(l, ".m4s") {
				seg = l
				break
			}
		}
		vbase := base + variant[:strings.LastIndexByte(variant, '/')+1]
		if rec = get(t, s.Handler, vbase+seg); rec.Code != 200 || rec.Body.Len() == 0 {
			t.Fatalf("segment %s: %d", seg, rec.Code)
		}
		if rec = get(t, s.Handler, vbase+seg, "Range", "bytes=0-99"); rec.Code != 206 || rec.Body.Len() != 100 {
			t.Fatalf("segment range: %d, %d bytes", rec.Code, rec.Body.Len())
		}
		if rec = get(t, s.Handler, v.Poster); rec.Code != 200 || rec.Header().Get("Content-Type") != "image/jpeg" {
			t.Fatalf("poster: %d", rec.Code)
		}
		// The preview is its own, shorter HLS folder: a third of 7 s in
		// whole 2 s segments is one.
		rec = get(t, s.Handler, v.Preview)
		if rec.Code != 200 || strings.Count(rec.Body.String(), "#EXT-X-STREAM-INF") != 1 {
			t.Fatalf("preview: %d %s", rec.Code, rec.Body)
		}
		if segs := previewSegments(t, s.Handler, v.Preview); len(segs) != 1 {
			t.Fatalf("the asset's preview lists %v", segs)
		}
		op := operator(t, s)
		t.Run("playback", func(t *testing.T) { playback(t, s, tok, op, v, sv) })
		apitest.Run(t, s.Handler,
			apitest.Scenario{Name: "operators list ready", URL: "/api/admin/media?state=ready", Token: op, ExpectedStatus: 200,
				ExpectedContent: []string{`"total":3`, `"state":"ready"`, `"kind":"video"`, `"kind":"image"`}},
			apitest.Scenario{Name: "none failed", URL: "/api/admin/media?state=failed", Token: op, ExpectedStatus: 200, ExpectedContent: []string{`"total":0`}},
			apitest.Scenario{Name: "bad state", URL: "/api/admin/media?state=odd", Token: op, ExpectedStatus: 422},
			apitest.Scenario{Name: "a user may not", URL: "/api/admin/media", Token: tok, ExpectedStatus: 401},
		)
	})
}

// A video that probes but cannot be transcoded (ffmpeg swapped for one
// that always fails) ends failed with the reason after the retries.
func TestFailingTranscodeEndsFailed(t *testing.T) {
	data := clip(t, t.TempDir())
	fake := filepath.Join(t.TempDir(), "ffmpeg")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho 'Conversion failed: encoder exploded' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		s.App.Uploads.Tools.FFmpeg = fake
		tmp := t.TempDir()
		s.App.Uploads.TempDir = tmp
		startQueue(t, s)
		tok := apitest.GuestLogin(t, s.Handler, apitest.DevID(1))
		sc := upload(tok, "file", "clip.mp4", data, t)
		sc.ExpectedStatus = 200
		v := apitest.Data[media.View](t, sc.Run(t, s.Handler))
		v = waitState(t, s, tok, v.ID)
		if v.State != media.Failed || !strings.Contains(v.Error, "encoder exploded") || v.Master != "" {
			t.Fatalf("after the retries: %+v", v)
		}
		noTemp(t, tmp)
		var attempts int
		var state string
		if err := s.App.DB.QueryRow(context.Background(), `SELECT attempt, state FROM jobs WHERE kind = ?`, media.TranscodeKind).Scan(&attempts, &state); err != nil {
			t.Fatal(err)
		}
		if attempts != media.TranscodeAttempts {
			t.Fatalf("tried %d times, want %d", attempts, media.TranscodeAttempts)
		}
		op := operator(t, s)
		apitest.Scenario{URL: "/api/admin/media?state=failed", Token: op, ExpectedStatus: 200,
			ExpectedContent: []string{`"total":1`, "encoder exploded"}}.Run(t, s.Handler)
	})
}

// previewSegments follows a preview's master to its one variant and lists
// the segments it names.
func previewSegments(t *testing.T, h http.Handler, master string) []string {
	t.Helper()
	var variant string
	for _, l := range strings.Split(get(t, h, master).Body.String(), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") {
			variant = l
		}
	}
	rec := get(t, h, master[:strings.LastIndexByte(master, '/')+1]+variant)
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "#EXT-X-ENDLIST") {
		t.Fatalf("preview variant %s: %d %s", variant, rec.Code, rec.Body)
	}
	var segs []string
	for _, l := range strings.Split(rec.Body.String(), "\n") {
		if strings.HasSuffix(l, ".m4s") {
			segs = append(segs, l)
		}
	}
	return segs
}

// playback attaches the ready asset to a free and a VIP video: the free one
// plays the full ladder, the VIP one (refused to a guest) only the preview,
// which stops before the end, and the preview's token opens nothing of the
// full folder; the short asset on a VIP video gives a guest no playback.
func playback(t *testing.T, s *apptest.Server, tok, op string, asset, short media.View) {
	ctx := context.Background()
	now := time.Now().Unix() // the catalog keeps seconds
	var mod int64
	if err := s.App.DB.QueryRow(ctx, `INSERT INTO modules (pid, name, module_type, sort, created_at) VALUES (0, 'm', 0, 0, ?) RETURNING id`, now).Scan(&mod); err != nil {
		t.Fatal(err)
	}
	ids := map[int]int64{}
	for _, vip := range []int{0, 1, 2} {
		var id int64
		if err := s.App.DB.QueryRow(ctx, `INSERT INTO videos (title, module_id, sub_module_id, vip_level, published, created_at, updated_at)
			VALUES ('v', ?, ?, ?, 1, ?, ?) RETURNING id`, mod, mod, vip, now, now).Scan(&id); err != nil {
			t.Fatal(err)
		}
		ids[vip] = id
	}
	sc := upload(tok, "file", "p.jpg", jpegOf(t, 20, 20), t)
	sc.ExpectedStatus = 200
	picture := apitest.Data[media.View](t, sc.Run(t, s.Handler))
	attach := func(name, token string, video, asset int64, status int, tip string) apitest.Scenario {
		return apitest.Scenario{Name: name, Method: "POST", URL: "/api/admin/videos/media", Token: token,
			Body: fmt.Sprintf(`{"videoId":%d,"mediaId":%d}`, video, asset), ExpectedStatus: status, ExpectedTip: tip}
	}
	apitest.Run(t, s.Handler,
		attach("no token", "", ids[0], asset.ID, 401, ""),
		attach("a user", tok, ids[0], asset.ID, 401, ""), // a phone-app token opens nothing under /api/admin
		attach("unknown video", op, 999999, asset.ID, 404, "视频不存在"),
		attach("unknown asset", op, ids[0], 999999, 404, "文件不存在"),
		attach("a picture", op, ids[0], picture.ID, 422, "只能关联视频"),
		apitest.Scenario{Name: "no videoId", Method: "POST", URL: "/api/admin/videos/media", Token: op, Body: `{"mediaId":1}`, ExpectedStatus: 422},
		apitest.Scenario{Name: "negative mediaId", Method: "POST", URL: "/api/admin/videos/media", Token: op, Body: fmt.Sprintf(`{"videoId":%d,"mediaId":-1}`, ids[0]), ExpectedStatus: 422},
		attach("free video", op, ids[0], asset.ID, 200, ""),
		attach("again: no change", op, ids[0], asset.ID, 200, ""),
		attach("vip video", op, ids[1], asset.ID, 200, ""),
		attach("super VIP video, short clip", op, ids[2], short.ID, 200, ""),
	)
	var audits int
	if err := s.App.DB.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE action = 'video.media'`).Scan(&audits); err != nil {
		t.Fatal(err)
	}
	if audits != 3 {
		t.Fatalf("%d audit rows, want 3 (the repeat changes nothing)", audits)
	}
	type info struct {
		Access struct {
			Allowed bool `json:"allowed"`
		} `json:"access"`
		Paywall *struct {
			PreviewMs int64 `json:"previewMs"`
		} `json:"paywall"`
		Playback *struct {
			URL       string `json:"url"`
			Preview   bool   `json:"preview"`
			PreviewMs int64  `json:"previewMs"`
		} `json:"playback"`
	}
	detail := func(id int64) info {
		res := apitest.Scenario{URL: fmt.Sprintf("/api/app/vid/info?id=%d", id), Token: tok, ExpectedStatus: 200}.Run(t, s.Handler)
		return apitest.Data[info](t, res)
	}
	free := detail(ids[0])
	if !free.Access.Allowed || free.Playback == nil || free.Playback.Preview || !strings.HasSuffix(free.Playback.URL, "/hls/master.m3u8") {
		t.Fatalf("free video: %+v %+v", free.Access, free.Playback)
	}
	if rec := get(t, s.Handler, free.Playback.URL); rec.Code != 200 || strings.Count(rec.Body.String(), "#EXT-X-STREAM-INF") != 2 {
		t.Fatalf("full master: %d", rec.Code)
	}
	vip := detail(ids[1])
	if vip.Access.Allowed || vip.Playback == nil || !vip.Playback.Preview || !strings.HasSuffix(vip.Playback.URL, "/preview-1/master.m3u8") ||
		vip.Playback.PreviewMs != 2000 || vip.Paywall == nil || vip.Paywall.PreviewMs != 2000 {
		t.Fatalf("VIP video as a guest: %+v %+v %+v", vip.Access, vip.Playback, vip.Paywall)
	}
	// One 2 s segment of the four (2+2+2+1 s): never the last.
	if segs := previewSegments(t, s.Handler, vip.Playback.URL); len(segs) != 1 || segs[0] != "seg0.m4s" {
		t.Fatalf("the preview lists %v", segs)
	}
	// The preview token on the full folder's keys: refused, whether the
	// key is swapped in or reached by relative resolution.
	full := strings.Replace(vip.Playback.URL, "/preview-1/master.m3u8", "/hls/master.m3u8", 1)
	dotdot := strings.Replace(vip.Playback.URL, "/preview-1/master.m3u8", "/preview-1/../hls/master.m3u8", 1)
	for _, u := range []string{full, strings.Replace(vip.Playback.URL, "/preview-1/master.m3u8", "/hls/v1/index.m3u8", 1),
		strings.Replace(vip.Playback.URL, "/preview-1/master.m3u8", "/hls/v0/seg3.m4s", 1),
		strings.Replace(vip.Playback.URL, "/preview-1/master.m3u8", "/preview/master.m3u8", 1)} {
		if rec := get(t, s.Handler, u); rec.Code != http.StatusForbidden {
			t.Fatalf("the preview's token on %s: %d, want 403", u, rec.Code)
		}
	}
	// A client resolving "../hls/" gets the cleaned path, the case above.
	if rec := get(t, s.Handler, dotdot); rec.Code < 300 || rec.Code >= 400 && rec.Code != http.StatusForbidden {
		t.Fatalf("the preview's token on %s: %d", dotdot, rec.Code)
	}
	// Too short for a preview: no playback, the paywall at once.
	if d := detail(ids[2]); d.Access.Allowed || d.Playback != nil || d.Paywall == nil || d.Paywall.PreviewMs != 0 {
		t.Fatalf("a 3 s clip refused: %+v %+v %+v", d.Access, d.Playback, d.Paywall)
	}
	// A video without media still says playback null.
	attach("detach", op, ids[0], 0, 200, "").Run(t, s.Handler)
	if d := detail(ids[0]); d.Playback != nil {
		t.Fatalf("no media, yet playback %+v", d.Playback)
	}
}

// An upload may take longer than the server's read timeout (made 300 ms
// here): the handler extends its own deadline through every middleware.
func TestSlowUploadOutlivesReadTimeout(t *testing.T) {
	s := apptest.New(t, "sqlite")
	srv := httptest.NewUnstartedServer(s.Handler)
	srv.Config.ReadTimeout = 300 * time.Millisecond
	srv.Start()
	defer srv.Close()
	tok := apitest.GuestLogin(t, s.Handler, apitest.DevID(1))
	body, ct := form(t, "file", "a.jpg", jpegOf(t, 32, 32))
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte(body[:len(body)/2]))
		time.Sleep(700 * time.Millisecond)
		pw.Write([]byte(body[len(body)/2:]))
		pw.Close()
	}()
	req, _ := http.NewRequest("POST", srv.URL+"/api/app/vid/uploadStatic", pr)
	req.Header.Set("Content-Type", ct)
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if b, _ := io.ReadAll(res.Body); res.StatusCode != 200 {
		t.Fatalf("slow upload: %d %s", res.StatusCode, b)
	}
}

// An ffmpeg that hangs is killed at the attempt's time limit, and after the
// last attempt the asset is failed with that reason.
func TestHangingTranscodeIsKilled(t *testing.T) {
	data := clip(t, t.TempDir())
	fake := filepath.Join(t.TempDir(), "ffmpeg")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		s.App.Uploads.Tools.FFmpeg = fake
		tmp := t.TempDir()
		s.App.Uploads.TempDir = tmp
		s.App.Uploads.TranscodeTimeout = 300 * time.Millisecond
		start := time.Now()
		startQueue(t, s)
		tok := apitest.GuestLogin(t, s.Handler, apitest.DevID(1))
		sc := upload(tok, "file", "clip.mp4", data, t)
		sc.ExpectedStatus = 200
		v := apitest.Data[media.View](t, sc.Run(t, s.Handler))
		v = waitState(t, s, tok, v.ID)
		if v.State != media.Failed || !strings.Contains(v.Error, "time limit") {
			t.Fatalf("after the retries: %+v", v)
		}
		noTemp(t, tmp)
		if d := time.Since(start); d > 10*time.Second {
			t.Fatalf("three 300 ms attempts took %v: ffmpeg was not killed", d)
		}
	})
}

// noTemp fails when dir still holds anything: uploads and transcodes clean up.
func noTemp(t *testing.T, dir string) {
	t.Helper()
	// The job's result is recorded just after the row changes; give its
	// deferred cleanup a moment.
	for range 50 {
		if left, _ := os.ReadDir(dir); len(left) == 0 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	left, _ := os.ReadDir(dir)
	t.Fatalf("%d entries left in the temp dir, e.g. %s", len(left), left[0].Name())
}

// TestMineUploads: each user lists only their own uploads, newest first,
// filtered by kind and paged; bad parameters are refused.
func TestMineUploads(t *testing.T) {
	video := clip(t, t.TempDir())
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		s.App.Uploads.TempDir = t.TempDir()
		alice := apitest.GuestLogin(t, s.Handler, apitest.DevID(1))
		bob := apitest.GuestLogin(t, s.Handler, apitest.DevID(2))
		var ids []int64
		for i, sc := range []apitest.Scenario{
			upload(alice, "file", "a.jpg", jpegOf(t, 40, 30), t),
			upload(bob, "file", "b.jpg", jpegOf(t, 20, 20), t),
			upload(alice, "file", "c.mp4", video, t), // processing: no queue runs here
			upload(alice, "file", "d.png", pngOf(t, 30, 20), t),
		} {
			sc.ExpectedStatus = 200
			v := apitest.Data[media.View](t, sc.Run(t, s.Handler))
			if i != 1 {
				ids = append(ids, v.ID)
			}
		}
		type page struct {
			List    []media.View `json:"list"`
			Total   int          `json:"total"`
			HasMore bool         `json:"hasMore"`
		}
		list := func(tok, q string) page {
			t.Helper()
			return apitest.Data[page](t, apitest.Scenario{URL: "/api/app/mine/uploads" + q, Token: tok, ExpectedStatus: 200}.Run(t, s.Handler))
		}
		idsOf := func(p page) []int64 {
			var out []int64
			for _, v := range p.List {
				out = append(out, v.ID)
			}
			return out
		}
		all := list(alice, "")
		if got := idsOf(all); fmt.Sprint(got) != fmt.Sprint([]int64{ids[2], ids[1], ids[0]}) || all.Total != 3 || all.HasMore {
			t.Fatalf("alice's uploads %v total %d hasMore %v; want %v newest first", got, all.Total, all.HasMore, ids)
		}
		if v := all.List[1]; v.Kind != media.Video || v.State != media.Processing || v.Master != "" {
			t.Fatalf("the video %+v", v)
		}
		if v := all.List[0]; v.State != media.Ready || v.Thumb == "" || v.OwnerUID != 0 {
			t.Fatalf("the picture %+v", v)
		}
		if got := idsOf(list(alice, "?kind=video")); fmt.Sprint(got) != fmt.Sprint([]int64{ids[1]}) {
			t.Fatalf("videos %v", got)
		}
		if got := idsOf(list(alice, "?kind=image")); fmt.Sprint(got) != fmt.Sprint([]int64{ids[2], ids[0]}) {
			t.Fatalf("images %v", got)
		}
		p1, p2 := list(alice, "?pageSize=2"), list(alice, "?pageSize=2&pageNumber=2")
		if fmt.Sprint(idsOf(p1)) != fmt.Sprint([]int64{ids[2], ids[1]}) || !p1.HasMore || fmt.Sprint(idsOf(p2)) != fmt.Sprint([]int64{ids[0]}) || p2.HasMore {
			t.Fatalf("pages %v (%v) %v (%v)", idsOf(p1), p1.HasMore, idsOf(p2), p2.HasMore)
		}
		if b := list(bob, ""); b.Total != 1 || len(b.List) != 1 {
			t.Fatalf("bob sees %+v", b)
		}
		fresh := apitest.GuestLogin(t, s.Handler, apitest.DevID(3))
		if e := list(fresh, ""); e.Total != 0 || e.List == nil || len(e.List) != 0 {
			t.Fatalf("a user with no uploads: %+v (want an empty list, not null)", e)
		}
		apitest.Run(t, s.Handler,
			apitest.Scenario{Name: "no token", URL: "/api/app/mine/uploads", ExpectedStatus: 401},
			apitest.Scenario{Name: "unknown kind", URL: "/api/app/mine/uploads?kind=audio", Token: alice, ExpectedStatus: 422, ExpectedTip: "类型"},
			apitest.Scenario{Name: "page size 0", URL: "/api/app/mine/uploads?pageSize=0", Token: alice, ExpectedStatus: 422},
			apitest.Scenario{Name: "page size huge", URL: "/api/app/mine/uploads?pageSize=51", Token: alice, ExpectedStatus: 422},
			apitest.Scenario{Name: "negative page", URL: "/api/app/mine/uploads?pageNumber=-1", Token: alice, ExpectedStatus: 422},
			apitest.Scenario{Name: "fractional page", URL: "/api/app/mine/uploads?pageNumber=1.5", Token: alice, ExpectedStatus: 422},
			apitest.Scenario{Name: "page past the end", URL: "/api/app/mine/uploads?pageNumber=501", Token: alice, ExpectedStatus: 422},
			apitest.Scenario{Name: "NUL in kind", URL: "/api/app/mine/uploads?kind=%00", Token: alice, ExpectedStatus: 422},
		)
	})
}

// TestCoverSets: a wide picture published as a cover becomes a card-size
// set (the picture and its 360 px copy, both public and immutable); a
// narrow or portrait one stays a single file; removing a set removes both.
func TestCoverSets(t *testing.T) {
	apptest.Each(t, func(t *testing.T, s *apptest.Server) {
		ctx := context.Background()
		tok := apitest.GuestLogin(t, s.Handler, apitest.DevID(1))
		pub := func(data []byte) string {
			t.Helper()
			sc := upload(tok, "file", "c.jpg", data, t)
			sc.ExpectedStatus = 200
			v := apitest.Data[media.View](t, sc.Run(t, s.Handler))
			u, err := s.App.Uploads.PublishCover(ctx, v.ID)
			if err != nil {
				t.Fatal(err)
			}
			return u
		}
		serve := func(u string) *httptest.ResponseRecorder {
			t.Helper()
			rec := get(t, s.Handler, u)
			if rec.Code != 200 || rec.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
				t.Fatalf("%s: %d %v", u, rec.Code, rec.Header())
			}
			return rec
		}
		wide := pub(jpegOf(t, 1000, 560))
		// The shape the web app (src/lib/cover.ts) and home's preload know.
		if !regexp.MustCompile(`^/media/covers/set/[0-9]{4}/[0-9]{2}/[a-z0-9]{20,64}\.jpg$`).MatchString(wide) {
			t.Fatalf("wide cover %s", wide)
		}
		card := "/media/" + media.CardKey(strings.TrimPrefix(wide, "/media/"))
		cfg, err := jpeg.DecodeConfig(serve(card).Body)
		if err != nil || cfg.Width != media.CardWidth || cfg.Height != 201 {
			t.Fatalf("card %s: %+v %v", card, cfg, err)
		}
		if cfg, err := jpeg.DecodeConfig(serve(wide).Body); err != nil || cfg.Width != 1000 {
			t.Fatalf("full %+v %v", cfg, err)
		}
		for _, data := range [][]byte{jpegOf(t, 400, 225), pngOf(t, 600, 900)} {
			u := pub(data)
			if strings.Contains(u, "/set/") || !strings.HasPrefix(u, "/media/covers/") {
				t.Fatalf("narrow or portrait cover %s", u)
			}
			serve(u)
		}
		if err := s.App.Uploads.RemoveCover(ctx, wide); err != nil {
			t.Fatal(err)
		}
		for _, u := range []string{wide, card} {
			if ok, _ := s.App.Media.Exists(ctx, strings.TrimPrefix(u, "/media/")); ok {
				t.Fatalf("%s left after RemoveCover", u)
			}
		}
	})
}
