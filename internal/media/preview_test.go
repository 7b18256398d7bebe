package media

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"testing"
	"time"

	"prima/internal/catalog"
	"prima/internal/membership"
	"prima/internal/platform/audit"
	"prima/internal/platform/blob"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func TestPreviewSegments(t *testing.T) {
	two := func(n int, last time.Duration) []time.Duration {
		d := make([]time.Duration, n)
		for i := range d {
			d[i] = 2 * time.Second
		}
		if last > 0 {
			d[n-1] = last
		}
		return d
	}
	rule := catalog.DefaultPreviewRule
	for _, c := range []struct {
		name  string
		durs  []time.Duration
		wantN int
		want  time.Duration
	}{
		{"6 s: a third is one segment", two(3, 0), 1, 2 * time.Second},
		{"20 s: a third is 6.67 s, three segments", two(10, 0), 3, 6 * time.Second},
		{"60 s: 10 s", two(30, 0), 5, 10 * time.Second},
		{"12 s: 4 s", two(6, 0), 2, 4 * time.Second},
		{"5 s: 1.67 s is less than a segment", two(3, time.Second), 0, 0},
		{"3 s", two(2, time.Second), 0, 0},
		{"one segment of 2 s: never the last", two(1, 0), 0, 0},
		{"2 h: 10 s", two(3600, 0), 5, 10 * time.Second},
	} {
		var total time.Duration
		for _, d := range c.durs {
			total += d
		}
		n, got := PreviewSegments(c.durs, rule.Limit(total))
		if n != c.wantN || got != c.want {
			t.Errorf("%s: %d segments, %v; want %d, %v", c.name, n, got, c.wantN, c.want)
		}
		if n >= len(c.durs) || got > 10*time.Second || 3*got > total {
			t.Errorf("%s: a preview of %v (%d of %d segments) breaks the rule", c.name, got, n, len(c.durs))
		}
	}
	// Whatever the limit, the last segment stays out.
	if n, _ := PreviewSegments(two(4, 0), time.Hour); n != 3 {
		t.Errorf("an unbounded limit took %d of 4 segments", n)
	}
	if n, _ := PreviewSegments(nil, time.Hour); n != 0 {
		t.Errorf("no segments, %d taken", n)
	}
}

// fakeLadder stores an HLS folder like the transcode's (two renditions of
// 2 s fMP4 segments, the last one shorter when secs is odd) under
// <folder>/hls/ and returns the prefix.
func fakeLadder(t *testing.T, store blob.Store, folder string, secs int) string {
	t.Helper()
	ctx := context.Background()
	hls := folder + "/hls/"
	put := func(key, body string) {
		if err := store.Put(ctx, key, strings.NewReader(body), blob.ContentType(key)); err != nil {
			t.Fatal(err)
		}
	}
	for v := range 2 {
		var pl strings.Builder
		pl.WriteString("#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n")
		fmt.Fprintf(&pl, "#EXT-X-MAP:URI=\"init_%d.mp4\"\n", v)
		put(fmt.Sprintf("%sv%d/init_%d.mp4", hls, v, v), "init")
		for i := 0; i*2 < secs; i++ {
			d := min(2, secs-i*2)
			fmt.Fprintf(&pl, "#EXTINF:%d.000000,\nseg%d.m4s\n", d, i)
			put(fmt.Sprintf("%sv%d/seg%d.m4s", hls, v, i), fmt.Sprintf("v%d seg%d", v, i))
		}
		pl.WriteString("#EXT-X-ENDLIST\n")
		put(fmt.Sprintf("%sv%d/index.m3u8", hls, v), pl.String())
	}
	put(hls+"master.m3u8", "#EXTM3U\n#EXT-X-VERSION:7\n"+
		"#EXT-X-STREAM-INF:BANDWIDTH=2000000,RESOLUTION=640x360,CODECS=\"avc1.4d401e,mp4a.40.2\"\nv1/index.m3u8\n\n"+
		"#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=320x180,CODECS=\"avc1.4d400d,mp4a.40.2\"\nv0/index.m3u8\n")
	return hls
}

// TestPreviewPlaylist: a refused caller's playback of 6, 20 and 60 s videos
// is a folder of the first whole segments of the lowest rendition, within
// the operator's rule (which applies at once when changed), never holding
// the last segment, and its token opens nothing else; a clip too short for
// one segment gets no playback at all.
func TestPreviewPlaylist(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, store := newTestService(t, d)
		cat := catalog.NewService(d, catalog.Options{})
		s.Previews = cat
		media := http.StripPrefix("/media", blob.NewHandler(store, s.signer, nil))
		get := func(url string) *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			media.ServeHTTP(rec, httptest.NewRequest("GET", url, nil))
			return rec
		}
		var uid, mod int64
		if err := d.QueryRow(ctx, `INSERT INTO users (created_at, updated_at) VALUES (0, 0) RETURNING id`).Scan(&uid); err != nil {
			t.Fatal(err)
		}
		if err := d.QueryRow(ctx, `INSERT INTO modules (pid, name, module_type, sort, created_at) VALUES (0, 'm', 0, 0, 0) RETURNING id`).Scan(&mod); err != nil {
			t.Fatal(err)
		}
		video := func(secs int) (catalog.Video, string) {
			folder := fmt.Sprintf("media/test/clip%d", secs)
			hls := fakeLadder(t, store, folder, secs)
			var asset, id int64
			if err := d.QueryRow(ctx, `INSERT INTO media_assets (owner_uid, kind, state, source_key, hls_prefix, width, height, duration_ms, created_at, updated_at)
				VALUES (?, 'video', 'ready', ?, ?, 640, 360, ?, 0, 0) RETURNING id`, uid, folder+"/source.mp4", hls, secs*1000).Scan(&asset); err != nil {
				t.Fatal(err)
			}
			if err := d.QueryRow(ctx, `INSERT INTO videos (title, module_id, sub_module_id, vip_level, published, media_id, created_at, updated_at)
				VALUES ('v', ?, ?, 1, 1, ?, 0, 0) RETURNING id`, mod, mod, asset).Scan(&id); err != nil {
				t.Fatal(err)
			}
			return catalog.Video{ID: id}, hls
		}
		refused := membership.Access{Allowed: false, Reason: membership.ReasonNeedVIP}
		// preview plays v's preview as a player does and returns the
		// segments its playlist lists.
		preview := func(v catalog.Video, hls string, wantMs int64) []string {
			t.Helper()
			p, err := s.Playback(ctx, v, refused)
			if err != nil {
				t.Fatal(err)
			}
			if wantMs == 0 {
				if p != nil {
					t.Fatalf("a clip too short for a preview got playback %+v", p)
				}
				return nil
			}
			if p == nil || !p.Preview || p.PreviewMs != wantMs {
				t.Fatalf("playback %+v, want a preview of %d ms", p, wantMs)
			}
			master := get(p.URL)
			if master.Code != 200 || strings.Count(master.Body.String(), "#EXT-X-STREAM-INF") != 1 || !strings.Contains(master.Body.String(), "v0/index.m3u8") {
				t.Fatalf("preview master: %d %s", master.Code, master.Body)
			}
			base := path.Dir(p.URL)
			pl := get(base + "/v0/index.m3u8")
			if pl.Code != 200 || !strings.HasSuffix(pl.Body.String(), "#EXT-X-ENDLIST\n") {
				t.Fatalf("preview playlist: %d %s", pl.Code, pl.Body)
			}
			var segs []string
			var total time.Duration
			for _, l := range strings.Split(pl.Body.String(), "\n") {
				if v, ok := strings.CutPrefix(l, "#EXTINF:"); ok {
					var f float64
					fmt.Sscanf(strings.TrimSuffix(v, ","), "%g", &f)
					total += time.Duration(f * float64(time.Second))
				}
				if strings.HasSuffix(l, ".m4s") {
					segs = append(segs, l)
					if rec := get(base + "/v0/" + l); rec.Code != 200 || rec.Body.String() != "v0 "+strings.TrimSuffix(l, ".m4s") {
						t.Fatalf("segment %s: %d %q", l, rec.Code, rec.Body)
					}
				}
			}
			if total.Milliseconds() != wantMs {
				t.Fatalf("the playlist lasts %v, want %d ms:\n%s", total, wantMs, pl.Body)
			}
			if rec := get(base + "/v0/init_0.mp4"); rec.Code != 200 {
				t.Fatalf("init segment: %d", rec.Code)
			}
			// The next segment is not in the folder; the full ladder is
			// outside the token's scope.
			if rec := get(fmt.Sprintf("%s/v0/seg%d.m4s", base, len(segs))); rec.Code != 404 {
				t.Fatalf("the segment after the preview: %d, want 404", rec.Code)
			}
			tok := strings.Split(strings.TrimPrefix(p.URL, "/media/s/"), "/")[0]
			for _, k := range []string{hls + "master.m3u8", hls + "v0/seg0.m4s", hls + fmt.Sprintf("v0/seg%d.m4s", len(segs))} {
				if rec := get("/media/s/" + tok + "/" + k); rec.Code != 403 {
					t.Fatalf("the preview's token on %s: %d, want 403", k, rec.Code)
				}
			}
			return segs
		}
		v6, h6 := video(6)
		v20, h20 := video(20)
		v60, h60 := video(60)
		v5, h5 := video(5)
		if segs := preview(v6, h6, 2000); len(segs) != 1 {
			t.Fatalf("6 s: %v", segs)
		}
		if segs := preview(v20, h20, 6000); len(segs) != 3 {
			t.Fatalf("20 s: %v", segs)
		}
		if segs := preview(v60, h60, 10000); len(segs) != 5 || segs[4] != "seg4.m4s" {
			t.Fatalf("60 s: %v", segs)
		}
		preview(v5, h5, 0)
		// Asked again (another node, the cache cold), the same answer.
		s.ladders = ladderCache{}
		preview(v60, h60, 10000)

		// The full video for a caller who may watch it.
		if p, err := s.Playback(ctx, v6, membership.Access{Allowed: true}); err != nil || p == nil || p.Preview || p.PreviewMs != 0 || !strings.HasSuffix(p.URL, "/hls/master.m3u8") {
			t.Fatalf("allowed: %+v %v", p, err)
		}

		// The operator's rule applies to the next answer: 30 s and a half
		// give 30 s of 60 s and still one segment of 6 s; previews off
		// give none.
		secs, half := int64(30), catalog.Fraction{Num: 1, Den: 2}
		if _, err := cat.SetPreviewRule(ctx, audit.Actor{UID: audit.CLI}, catalog.PreviewRuleInput{MaxSeconds: &secs, MaxFraction: &half}); err != nil {
			t.Fatal(err)
		}
		preview(v60, h60, 30000)
		preview(v6, h6, 2000)
		zero := int64(0)
		if _, err := cat.SetPreviewRule(ctx, audit.Actor{UID: audit.CLI}, catalog.PreviewRuleInput{MaxSeconds: &zero}); err != nil {
			t.Fatal(err)
		}
		preview(v60, h60, 0)
	})
}

// A two-hour rendition keeps only the segments a preview could list (the
// longest rule allows 600 s), with the whole length.
func TestParseMediaKeepsTheHead(t *testing.T) {
	var pl strings.Builder
	pl.WriteString("#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI=\"init_0.mp4\"\n")
	for i := range 3600 {
		fmt.Fprintf(&pl, "#EXTINF:2.000000,\nseg%d.m4s\n", i)
	}
	pl.WriteString("#EXT-X-ENDLIST\n")
	var l ladderInfo
	if err := parseMedia([]byte(pl.String()), &l); err != nil {
		t.Fatal(err)
	}
	if l.total != 2*time.Hour || l.initURI != "init_0.mp4" || len(l.segments) != 301 || l.segments[300].uri != "seg300.m4s" {
		t.Fatalf("total %v, init %q, %d segments kept", l.total, l.initURI, len(l.segments))
	}
	durs := make([]time.Duration, len(l.segments))
	for i, sg := range l.segments {
		durs[i] = sg.dur
	}
	rule := catalog.PreviewRule{MaxSeconds: catalog.MaxPreviewSeconds, MaxFraction: catalog.Fraction{Num: 1, Den: 2}}
	if n, got := PreviewSegments(durs, rule.Limit(l.total)); n != 300 || got != 600*time.Second {
		t.Fatalf("the longest preview: %d segments, %v", n, got)
	}
	if n, got := PreviewSegments(durs, catalog.DefaultPreviewRule.Limit(l.total)); n != 5 || got != 10*time.Second {
		t.Fatalf("the default preview: %d segments, %v", n, got)
	}
	for _, bad := range []string{"#EXTM3U\nseg0.m4s\n", "#EXTM3U\n#EXTINF:x,\nseg0.m4s\n", "nope", "#EXTM3U\n#EXT-X-ENDLIST\n"} {
		if err := parseMedia([]byte(bad), &ladderInfo{}); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	for _, uri := range []string{"../hls/v1/seg0.m4s", "/etc/passwd", "https://x.example/seg.m4s", ".hidden"} {
		if _, err := relURI("media/a/hls/v0", uri); err == nil {
			t.Errorf("URI %q accepted", uri)
		}
	}
}
