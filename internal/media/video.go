package media

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Tools are the ffmpeg and ffprobe binaries and how hard they may work.
type Tools struct {
	FFmpeg  string // path or name; "ffmpeg" when empty
	FFprobe string // "ffprobe" when empty
	// Threads bounds each encoder (the machine is shared with the API).
	Threads int
}

func (t Tools) ffmpeg() string  { return cmp(t.FFmpeg, "ffmpeg") }
func (t Tools) ffprobe() string { return cmp(t.FFprobe, "ffprobe") }
func (t Tools) threads() int {
	if t.Threads > 0 {
		return t.Threads
	}
	return 2
}

func cmp(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// ErrBadVideo is a video that cannot be taken: unreadable, no picture, no length.
var ErrBadVideo = errors.New("media: bad video")

// Probe is what ffprobe says about a video.
type Probe struct {
	Width, Height int
	Duration      time.Duration
	VideoCodec    string
	AudioCodec    string // "" when there is no audio
}

// MaxVideoSide bounds a source's frame so a tiny file cannot ask the
// encoder for gigapixel frames.
const MaxVideoSide = 8192

// ProbeVideo runs ffprobe on path and checks that it is a video Prima can
// transcode: a readable container with a video stream of sane size and a
// positive duration.
func (t Tools) ProbeVideo(ctx context.Context, path string) (Probe, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, t.ffprobe(), "-v", "error", "-print_format", "json",
		"-show_format", "-show_streams", path)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return Probe{}, fmt.Errorf("%w: ffprobe cannot read it: %v %s", ErrBadVideo, err, lastLine(stderr.String()))
	}
	var res struct {
		Streams []struct {
			CodecType string `json:"codec_type"`
			CodecName string `json:"codec_name"`
			Width     int    `json:"width"`
			Height    int    `json:"height"`
			Duration  string `json:"duration"`
			Disp      struct {
				AttachedPic int `json:"attached_pic"`
			} `json:"disposition"`
		} `json:"streams"`
		Format struct {
			Duration string `json:"duration"`
		} `json:"format"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return Probe{}, fmt.Errorf("%w: ffprobe output: %v", ErrBadVideo, err)
	}
	var p Probe
	for _, s := range res.Streams {
		switch {
		case s.CodecType == "video" && s.Disp.AttachedPic == 0 && p.VideoCodec == "":
			p.VideoCodec, p.Width, p.Height = s.CodecName, s.Width, s.Height
		case s.CodecType == "audio" && p.AudioCodec == "":
			p.AudioCodec = s.CodecName
		}
	}
	if p.VideoCodec == "" {
		return Probe{}, fmt.Errorf("%w: no video stream", ErrBadVideo)
	}
	if p.Width <= 0 || p.Height <= 0 || p.Width > MaxVideoSide || p.Height > MaxVideoSide {
		return Probe{}, fmt.Errorf("%w: frame %dx%d", ErrBadVideo, p.Width, p.Height)
	}
	secs, err := strconv.ParseFloat(res.Format.Duration, 64)
	if err != nil || math.IsNaN(secs) || secs <= 0 {
		return Probe{}, fmt.Errorf("%w: no duration", ErrBadVideo)
	}
	p.Duration = time.Duration(secs * float64(time.Second))
	return p, nil
}

// Rendition is one rung of the HLS ladder.
type Rendition struct {
	Height  int
	Bitrate int // video, kbit/s
}

var rungs = []Rendition{{360, 800}, {720, 2500}, {1080, 5000}}

// Ladder is the renditions for a source of height h: the standard rungs
// below it plus the source's own height (at most 1080p), never upscaling.
// A source below 360p gets itself and half of itself, so every video has
// at least two renditions to switch between.
func Ladder(h int) []Rendition {
	top := min(even(h), 1080)
	var l []Rendition
	for _, r := range rungs {
		if r.Height < top {
			l = append(l, r)
		}
	}
	br := 5000
	for _, r := range rungs {
		if r.Height >= top {
			br = r.Bitrate * top / r.Height
			break
		}
	}
	l = append(l, Rendition{top, max(br, 150)})
	if len(l) < 2 {
		l = append([]Rendition{{max(even(top/2), 2), max(br/3, 100)}}, l...)
	}
	return l
}

func even(n int) int { return n &^ 1 }

// hlsArgs is the ffmpeg command that packages src into an fMP4 HLS ladder
// in dir (master.m3u8, v<i>/index.m3u8, v<i>/seg<n>.m4s).
func (t Tools) hlsArgs(src, dir string, p Probe, ladder []Rendition) []string {
	args := []string{"-nostdin", "-hide_banner", "-v", "error", "-y", "-threads", strconv.Itoa(t.threads()), "-i", src}
	var split strings.Builder
	fmt.Fprintf(&split, "[0:v]split=%d", len(ladder))
	for i := range ladder {
		fmt.Fprintf(&split, "[s%d]", i)
	}
	for i, r := range ladder {
		// Even width for yuv420p; the frame rate stays the source's.
		fmt.Fprintf(&split, ";[s%d]scale=-2:%d,format=yuv420p[o%d]", i, r.Height, i)
	}
	args = append(args, "-filter_complex", split.String())
	var streams []string
	for i, r := range ladder {
		args = append(args, "-map", fmt.Sprintf("[o%d]", i))
		if p.AudioCodec != "" {
			args = append(args, "-map", "0:a:0")
			streams = append(streams, fmt.Sprintf("v:%d,a:%d", i, i))
		} else {
			streams = append(streams, fmt.Sprintf("v:%d", i))
		}
		args = append(args, fmt.Sprintf("-b:v:%d", i), fmt.Sprintf("%dk", r.Bitrate),
			fmt.Sprintf("-maxrate:v:%d", i), fmt.Sprintf("%dk", r.Bitrate*3/2),
			fmt.Sprintf("-bufsize:v:%d", i), fmt.Sprintf("%dk", r.Bitrate*2))
	}
	args = append(args,
		"-c:v", "libx264", "-preset", "veryfast", "-profile:v", "main",
		// A key frame every 2 s exactly, so segments cut at 2 s and the
		// renditions' segments line up for switching.
		"-force_key_frames", "expr:gte(t,n_forced*2)", "-sc_threshold", "0")
	if p.AudioCodec != "" {
		args = append(args, "-c:a", "aac", "-b:a", "96k", "-ac", "2")
	}
	args = append(args,
		"-f", "hls", "-hls_time", "2", "-hls_playlist_type", "vod", "-hls_segment_type", "fmp4",
		"-hls_fmp4_init_filename", "init.mp4",
		"-hls_segment_filename", filepath.Join(dir, "v%v", "seg%d.m4s"),
		"-master_pl_name", "master.m3u8",
		"-var_stream_map", strings.Join(streams, " "),
		filepath.Join(dir, "v%v", "index.m3u8"))
	return args
}

// posterArgs writes one JPEG frame at about 1 s (the first frame of a
// shorter video), at most 1280 px wide.
func (t Tools) posterArgs(src, out string, p Probe) []string {
	at := "1"
	if p.Duration <= time.Second {
		at = "0"
	}
	return []string{"-nostdin", "-hide_banner", "-v", "error", "-y", "-threads", strconv.Itoa(t.threads()),
		"-ss", at, "-i", src, "-frames:v", "1", "-vf", "scale='min(1280,iw)':-2", "-q:v", "4", out}
}

// run runs ffmpeg with args; ctx ends it (the queue cancels ctx at
// shutdown or when the job's lease is lost, and the process is killed).
func (t Tools) run(ctx context.Context, args []string) error {
	cmd := exec.CommandContext(ctx, t.ffmpeg(), args...)
	cmd.WaitDelay = 5 * time.Second
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return fmt.Errorf("ffmpeg ran past its time limit: %w", ctx.Err())
		}
		if ctx.Err() != nil {
			return fmt.Errorf("ffmpeg stopped: %w", ctx.Err())
		}
		return fmt.Errorf("ffmpeg failed: %v: %s", err, lastLine(stderr.String()))
	}
	return nil
}

// Outputs are the files a transcode wrote, relative to its directory.
type Outputs struct {
	Dir    string
	HLS    string // folder with master.m3u8
	Poster string // file
}

// Transcode writes the ladder and the poster of src into dir. Previews are
// cut from the ladder's lowest rung afterwards (preview.go): segments
// copied, nothing encoded again.
func (t Tools) Transcode(ctx context.Context, src, dir string, p Probe) (Outputs, error) {
	o := Outputs{Dir: dir, HLS: filepath.Join(dir, "hls"), Poster: filepath.Join(dir, "poster.jpg")}
	ladder := Ladder(p.Height)
	if err := t.run(ctx, t.hlsArgs(src, o.HLS, p, ladder)); err != nil {
		return o, err
	}
	if err := t.run(ctx, t.posterArgs(src, o.Poster, p)); err != nil {
		return o, fmt.Errorf("poster: %w", err)
	}
	if _, err := os.Stat(filepath.Join(o.HLS, "master.m3u8")); err != nil {
		return o, fmt.Errorf("ffmpeg wrote no master playlist: %w", err)
	}
	return o, nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}

// WebP re-encodes the display and thumbnail JPEGs as WebP with one ffmpeg
// run (Go's standard library has no WebP encoder, and x/image only decodes).
func (t Tools) WebP(ctx context.Context, tmp string, display, thumb []byte) (dw, tw []byte, err error) {
	dir, err := os.MkdirTemp(tmp, "prima-webp-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(dir)
	in1, in2 := filepath.Join(dir, "d.jpg"), filepath.Join(dir, "t.jpg")
	out1, out2 := filepath.Join(dir, "d.webp"), filepath.Join(dir, "t.webp")
	if err := errors.Join(os.WriteFile(in1, display, 0o600), os.WriteFile(in2, thumb, 0o600)); err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	err = t.run(ctx, []string{"-nostdin", "-hide_banner", "-v", "error", "-y", "-threads", "1", "-i", in1, "-i", in2,
		"-map", "0:v", "-c:v", "libwebp", "-quality", "80", out1,
		"-map", "1:v", "-c:v", "libwebp", "-quality", "80", out2})
	if err != nil {
		return nil, nil, err
	}
	if dw, err = os.ReadFile(out1); err != nil {
		return nil, nil, err
	}
	if tw, err = os.ReadFile(out2); err != nil {
		return nil, nil, err
	}
	return dw, tw, nil
}
