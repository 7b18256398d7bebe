package media

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"prima/internal/catalog"
	"prima/internal/platform/blob"
)

// A preview is the first whole segments of a video's lowest rendition,
// copied into a folder of their own (docs/architecture.md, *Video
// previews*). The folder holds those segments and nothing else, so the
// signed folder URL handed to a viewer who has not paid opens the preview
// and no byte beyond it, whatever the viewer asks for. Its length follows
// the operator's rule (catalog.PreviewRule) from the video's real length,
// rounded down to whole segments, and it never holds the last segment: a
// clip too short for one segment within the rule has no preview at all.

// PreviewRules gives the operator's preview rule; catalog.Service does.
type PreviewRules interface {
	PreviewRule(ctx context.Context) (catalog.PreviewRule, error)
}

func (s *Service) previewRule(ctx context.Context) (catalog.PreviewRule, error) {
	if s.Previews == nil {
		return catalog.DefaultPreviewRule, nil
	}
	return s.Previews.PreviewRule(ctx)
}

// maxPlaylist bounds a playlist read back from the store (a two-hour
// film in 2 s segments is about 150 KiB).
const maxPlaylist = 4 << 20

// hlsSegment is one media segment of a playlist: the tags before it (its
// #EXTINF among them), its URI and its length.
type hlsSegment struct {
	tags []string
	uri  string
	dur  time.Duration
}

// ladderInfo is what a preview is cut from: the lowest rendition of an
// HLS folder.
type ladderInfo struct {
	masterHead []string // the master's lines before its first variant
	streamInf  string   // the chosen variant's #EXT-X-STREAM-INF
	variant    string   // its playlist, relative to the folder ("v0/index.m3u8")
	mediaHead  []string // the variant playlist's lines before its first segment
	initURI    string   // #EXT-X-MAP's URI, relative to the variant; "" when none
	total      time.Duration
	// segments are the first ones, as many as the longest preview a rule
	// may ask for could take, and one more: what is kept of a two-hour
	// film stays small.
	segments []hlsSegment
}

// PreviewSegments is how many leading segments of durs a preview of at
// most limit holds, and their length: whole segments only, and never the
// last one, so a preview always stops before the end.
func PreviewSegments(durs []time.Duration, limit time.Duration) (int, time.Duration) {
	var n int
	var sum time.Duration
	for n < len(durs)-1 && sum+durs[n] <= limit {
		sum += durs[n]
		n++
	}
	return n, sum
}

// lines splits a playlist into its trimmed, non-empty lines.
func lines(b []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), maxPlaylist)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, l)
		}
	}
	return out
}

var errPlaylist = errors.New("media: unusable HLS playlist")

// relURI checks that a URI of a playlist is a plain relative path the
// store can hold (no scheme, no "..", no query) and returns its key.
func relURI(base, uri string) (string, error) {
	key := path.Join(base, uri)
	if strings.Contains(uri, ":") || strings.HasPrefix(uri, "/") || blob.CheckKey(uri) != nil || blob.CheckKey(key) != nil || !strings.HasPrefix(key, base+"/") {
		return "", fmt.Errorf("%w: URI %q", errPlaylist, uri)
	}
	return key, nil
}

// bandwidth reads BANDWIDTH= from an #EXT-X-STREAM-INF line (-1 without).
func bandwidth(inf string) int64 {
	_, rest, ok := strings.Cut(inf, "BANDWIDTH=")
	if !ok {
		return -1
	}
	end := strings.IndexByte(rest, ',')
	if end < 0 {
		end = len(rest)
	}
	n, err := strconv.ParseInt(rest[:end], 10, 64)
	if err != nil {
		return -1
	}
	return n
}

// parseMaster picks the variant of least bandwidth of a master playlist.
func parseMaster(b []byte, l *ladderInfo) error {
	ls := lines(b)
	best := int64(-1)
	for i, line := range ls {
		if !strings.HasPrefix(line, "#EXT-X-STREAM-INF:") {
			// The master's own header; other tags (alternate renditions)
			// are not made by this pipeline and not carried over.
			if l.variant == "" && (line == "#EXTM3U" || strings.HasPrefix(line, "#EXT-X-VERSION:") || line == "#EXT-X-INDEPENDENT-SEGMENTS") {
				l.masterHead = append(l.masterHead, line)
			}
			continue
		}
		if i+1 >= len(ls) || strings.HasPrefix(ls[i+1], "#") {
			return fmt.Errorf("%w: a variant without a URI", errPlaylist)
		}
		if bw := bandwidth(line); l.variant == "" || bw >= 0 && bw < best {
			best, l.streamInf, l.variant = bw, line, ls[i+1]
		}
	}
	if l.variant == "" || len(l.masterHead) == 0 || l.masterHead[0] != "#EXTM3U" {
		return fmt.Errorf("%w: no variant in the master", errPlaylist)
	}
	return nil
}

// parseMedia reads a VOD media playlist's segments.
func parseMedia(b []byte, l *ladderInfo) error {
	ls := lines(b)
	if len(ls) == 0 || ls[0] != "#EXTM3U" {
		return fmt.Errorf("%w: not a playlist", errPlaylist)
	}
	var tags []string
	var dur time.Duration
	seen, inf := false, false
	for _, line := range ls {
		switch {
		case line == "#EXT-X-ENDLIST":
		case strings.HasPrefix(line, "#EXTINF:"):
			v, _, _ := strings.Cut(strings.TrimPrefix(line, "#EXTINF:"), ",")
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || f < 0 || f > 3600 {
				return fmt.Errorf("%w: %q", errPlaylist, line)
			}
			// The playlist writes microseconds: round to them, so 2.000000
			// five times is exactly 10 s.
			dur = time.Duration(f*1e6+0.5) * time.Microsecond
			tags, seen, inf = append(tags, line), true, true
		case strings.HasPrefix(line, "#"):
			if !seen {
				if u, ok := strings.CutPrefix(line, `#EXT-X-MAP:URI="`); ok {
					l.initURI = strings.TrimSuffix(u, `"`)
				}
				l.mediaHead = append(l.mediaHead, line)
			} else {
				tags = append(tags, line)
			}
		default:
			if !inf {
				return fmt.Errorf("%w: a segment without #EXTINF", errPlaylist)
			}
			l.segments = append(l.segments, hlsSegment{tags: tags, uri: line, dur: dur})
			tags, inf = nil, false
		}
	}
	if len(l.segments) == 0 {
		return fmt.Errorf("%w: no segments", errPlaylist)
	}
	var start time.Duration
	for i, sg := range l.segments {
		l.total += sg.dur
		if start > catalog.MaxPreviewSeconds*time.Second && i+1 < len(l.segments) {
			// Past any preview and not the last: never listed, so not kept.
			l.segments[i] = hlsSegment{}
		}
		start += sg.dur
	}
	head := 0
	for head < len(l.segments) && l.segments[head].uri != "" {
		head++
	}
	l.segments = slices.Clip(l.segments[:head])
	return nil
}

// ladderCache remembers what was read of each HLS folder: a ladder is
// written once by its transcode, so what a node read stays true, and a
// preview then costs no store reads.
type ladderCache struct {
	mu   sync.Mutex
	info map[string]ladderInfo // by HLS prefix
	made map[string]bool       // preview folders known to be complete
}

const ladderCacheMax = 1024

func (c *ladderCache) get(hls string) (ladderInfo, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.info[hls]
	return l, ok
}

func (c *ladderCache) put(hls string, l ladderInfo) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.info == nil || len(c.info) >= ladderCacheMax {
		c.info = map[string]ladderInfo{}
	}
	c.info[hls] = l
}

func (c *ladderCache) isMade(folder string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.made[folder]
}

func (c *ladderCache) setMade(folder string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.made == nil || len(c.made) >= ladderCacheMax {
		c.made = map[string]bool{}
	}
	c.made[folder] = true
}

func (s *Service) readSmall(ctx context.Context, key string) ([]byte, error) {
	r, err := s.store.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, maxPlaylist+1))
	if err == nil && len(b) > maxPlaylist {
		err = fmt.Errorf("%w: %s is too large", errPlaylist, key)
	}
	return b, err
}

// ladder reads (or recalls) the lowest rendition of the HLS folder hls.
func (s *Service) ladder(ctx context.Context, hls string) (ladderInfo, error) {
	if l, ok := s.ladders.get(hls); ok {
		return l, nil
	}
	var l ladderInfo
	b, err := s.readSmall(ctx, hls+"master.m3u8")
	if err != nil {
		return l, err
	}
	if err := parseMaster(b, &l); err != nil {
		return l, err
	}
	vkey, err := relURI(strings.TrimSuffix(hls, "/"), l.variant)
	if err != nil {
		return l, err
	}
	if b, err = s.readSmall(ctx, vkey); err != nil {
		return l, err
	}
	if err := parseMedia(b, &l); err != nil {
		return l, err
	}
	vdir := path.Dir(vkey)
	for _, u := range append([]string{l.initURI}, segURIs(l.segments)...) {
		if u == "" {
			continue
		}
		if _, err := relURI(vdir, u); err != nil {
			return l, err
		}
	}
	s.ladders.put(hls, l)
	return l, nil
}

func segURIs(segs []hlsSegment) []string {
	out := make([]string, len(segs))
	for i, sg := range segs {
		out[i] = sg.uri
	}
	return out
}

// previewCut is the preview of the HLS folder hls under rule: its folder
// (with master.m3u8) and length, written to dst(n) (n segments) when not
// there yet; "" and 0 when the video is too short for one segment.
func (s *Service) previewCut(ctx context.Context, hls string, rule catalog.PreviewRule, dst func(n int) string) (string, time.Duration, error) {
	l, err := s.ladder(ctx, hls)
	if err != nil {
		return "", 0, err
	}
	durs := make([]time.Duration, len(l.segments))
	for i, sg := range l.segments {
		durs[i] = sg.dur
	}
	n, length := PreviewSegments(durs, rule.Limit(l.total))
	if n == 0 {
		return "", 0, nil
	}
	folder := dst(n)
	if err := s.writePreview(ctx, hls, folder, l, n); err != nil {
		return "", 0, err
	}
	return folder, length, nil
}

// writePreview copies the first n segments of l's rendition into folder
// with playlists that name only them: media first, the master last, so a
// player that finds the master finds everything it names. Two requests
// doing it at once write the same bytes.
func (s *Service) writePreview(ctx context.Context, hls, folder string, l ladderInfo, n int) error {
	if s.ladders.isMade(folder) {
		return nil
	}
	if ok, err := s.store.Exists(ctx, folder+"master.m3u8"); err != nil || ok {
		if ok {
			s.ladders.setMade(folder)
		}
		return err
	}
	src := path.Dir(path.Join(strings.TrimSuffix(hls, "/"), l.variant))
	dst := path.Dir(path.Join(strings.TrimSuffix(folder, "/"), l.variant))
	files := segURIs(l.segments[:n])
	if l.initURI != "" {
		files = append(files, l.initURI)
	}
	for _, f := range files {
		if err := s.copyBlob(ctx, path.Join(src, f), path.Join(dst, f)); err != nil {
			return err
		}
	}
	var media strings.Builder
	for _, h := range l.mediaHead {
		media.WriteString(h + "\n")
	}
	for _, sg := range l.segments[:n] {
		for _, tag := range sg.tags {
			media.WriteString(tag + "\n")
		}
		media.WriteString(sg.uri + "\n")
	}
	media.WriteString("#EXT-X-ENDLIST\n")
	master := strings.Join(l.masterHead, "\n") + "\n" + l.streamInf + "\n" + l.variant + "\n"
	if err := s.store.Put(ctx, path.Join(strings.TrimSuffix(folder, "/"), l.variant), strings.NewReader(media.String()), blob.ContentType(".m3u8")); err != nil {
		return err
	}
	if err := s.store.Put(ctx, folder+"master.m3u8", strings.NewReader(master), blob.ContentType(".m3u8")); err != nil {
		return err
	}
	s.ladders.setMade(folder)
	return nil
}

func (s *Service) copyBlob(ctx context.Context, from, to string) error {
	r, err := s.store.Open(ctx, from)
	if err != nil {
		return fmt.Errorf("media: preview from %s: %w", from, err)
	}
	defer r.Close()
	return s.store.Put(ctx, to, r, blob.ContentType(to))
}
