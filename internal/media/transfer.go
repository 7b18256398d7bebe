package media

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"prima/internal/platform/db"
)

// An asset can be copied out of one install and into another: Export
// writes a ready asset's files and a manifest to a folder, Import stores
// such a folder as a new ready asset. The seed uses it to keep the demo
// media it rendered and transcoded once in the user cache, so the next
// install copies files instead of running ffmpeg again (and to ship a few
// pre-made clips for machines without ffmpeg).

// Manifest is manifest.json of an exported asset. File names are relative
// to the folder; an empty one is a variant the asset does not have.
type Manifest struct {
	Kind        Kind   `json:"kind"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	DurationMS  int64  `json:"durationMs"`
	VideoCodec  string `json:"videoCodec,omitempty"`
	AudioCodec  string `json:"audioCodec,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	Source      string `json:"source,omitempty"`
	Display     string `json:"display,omitempty"`
	Thumb       string `json:"thumb,omitempty"`
	DisplayWebP string `json:"displayWebp,omitempty"`
	ThumbWebP   string `json:"thumbWebp,omitempty"`
	Poster      string `json:"poster,omitempty"`
	HLS         string `json:"hls,omitempty"`     // folder
	Preview     string `json:"preview,omitempty"` // folder
}

// ManifestName is the manifest's file name in an exported folder.
const ManifestName = "manifest.json"

// ErrNotReady is an asset that cannot be exported because it is not ready.
var ErrNotReady = errors.New("media: the asset is not ready")

// Export writes ready asset id into dir (created if missing): every
// variant under the names of Manifest, then the manifest last, so a
// folder with a manifest is complete.
func (s *Service) Export(ctx context.Context, id int64, dir string) error {
	a, err := s.Get(ctx, id)
	if err != nil {
		return err
	}
	if a.State != Ready {
		return ErrNotReady
	}
	m := Manifest{Kind: a.Kind, Width: a.Width, Height: a.Height, DurationMS: a.DurationMS, VideoCodec: a.VideoCodec,
		AudioCodec: a.AudioCodec, Placeholder: a.Placeholder}
	file := func(dst *string, key, name string) {
		if key == "" || err != nil {
			return
		}
		*dst = name
		err = s.fetch(ctx, key, filepath.Join(dir, name))
	}
	folder := func(dst *string, prefix, name string) {
		if prefix == "" || err != nil {
			return
		}
		*dst = name
		for info, lerr := range s.store.List(ctx, prefix) {
			if lerr != nil {
				err = lerr
				return
			}
			p := filepath.Join(dir, name, filepath.FromSlash(strings.TrimPrefix(info.Key, prefix)))
			if err = os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return
			}
			if err = s.fetch(ctx, info.Key, p); err != nil {
				return
			}
		}
	}
	if err = os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	file(&m.Source, a.SourceKey, "source"+path.Ext(a.SourceKey))
	file(&m.Display, a.DisplayKey, "display.jpg")
	file(&m.Thumb, a.ThumbKey, "thumb.jpg")
	file(&m.DisplayWebP, a.DisplayWebP, "display.webp")
	file(&m.ThumbWebP, a.ThumbWebP, "thumb.webp")
	file(&m.Poster, a.PosterKey, "poster.jpg")
	folder(&m.HLS, a.HLSPrefix, "hls")
	folder(&m.Preview, a.PreviewPrefix, "preview")
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ManifestName), b, 0o644)
}

// ErrBadExport is a folder Import cannot take.
var ErrBadExport = errors.New("media: not an exported asset")

// Import stores the exported asset in fsys (a folder written by Export)
// as a new ready asset of owner, under a new folder of the blob store.
// Like Upload, it leaves nothing behind when it fails.
func (s *Service) Import(ctx context.Context, owner int64, fsys fs.FS) (Asset, error) {
	b, err := fs.ReadFile(fsys, ManifestName)
	if err != nil {
		return Asset{}, fmt.Errorf("%w: %v", ErrBadExport, err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return Asset{}, fmt.Errorf("%w: manifest: %v", ErrBadExport, err)
	}
	switch {
	case m.Kind == Image && (m.Display == "" || m.Thumb == ""),
		m.Kind == Video && (m.HLS == "" || m.Poster == ""),
		m.Kind != Image && m.Kind != Video:
		return Asset{}, fmt.Errorf("%w: a %q without its variants", ErrBadExport, m.Kind)
	}
	folder, err := folderOf()
	if err != nil {
		return Asset{}, err
	}
	now := time.Now()
	a := Asset{OwnerUID: owner, Kind: m.Kind, State: Ready, Width: m.Width, Height: m.Height, DurationMS: m.DurationMS,
		VideoCodec: m.VideoCodec, AudioCodec: m.AudioCodec, Placeholder: m.Placeholder, CreatedAt: now, UpdatedAt: now}
	var stored []string
	cleanup := func() {
		bg := context.WithoutCancel(ctx)
		for _, k := range stored {
			_ = s.store.Delete(bg, k)
		}
	}
	put := func(dst *string, name, key string) error {
		if name == "" {
			return nil
		}
		f, err := fsys.Open(name)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrBadExport, err)
		}
		defer f.Close()
		stored = append(stored, key)
		if err := s.store.Put(ctx, key, f, ""); err != nil {
			return err
		}
		*dst = key
		return nil
	}
	// tree stores a folder, playlists last (as putTree does), and sets dst
	// to its prefix.
	tree := func(dst *string, name, prefix string) error {
		if name == "" {
			return nil
		}
		var files, playlists []string
		err := fs.WalkDir(fsys, name, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if strings.HasSuffix(p, ".m3u8") {
				playlists = append(playlists, p)
			} else {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("%w: %v", ErrBadExport, err)
		}
		for i, p := range playlists {
			if path.Base(p) == "master.m3u8" { // the master playlist last of all
				playlists = append(append(playlists[:i:i], playlists[i+1:]...), p)
				break
			}
		}
		for _, p := range append(files, playlists...) {
			var k string
			if err := put(&k, p, prefix+strings.TrimPrefix(p, name+"/")); err != nil {
				return err
			}
		}
		*dst = prefix
		return nil
	}
	var src string
	err = errors.Join(
		put(&src, m.Source, folder+"/source"+path.Ext(m.Source)),
		put(&a.DisplayKey, m.Display, folder+"/display.jpg"),
		put(&a.ThumbKey, m.Thumb, folder+"/thumb.jpg"),
		put(&a.DisplayWebP, m.DisplayWebP, folder+"/display.webp"),
		put(&a.ThumbWebP, m.ThumbWebP, folder+"/thumb.webp"),
		put(&a.PosterKey, m.Poster, folder+"/poster.jpg"),
		tree(&a.HLSPrefix, m.HLS, folder+"/hls/"),
		tree(&a.PreviewPrefix, m.Preview, folder+"/preview/"),
	)
	if err != nil {
		cleanup()
		return Asset{}, err
	}
	// An export without its original (the pre-made clips leave it out to
	// stay small) still names where one would be, so the column keeps its
	// meaning: the asset's folder.
	a.SourceKey = src
	if src == "" {
		a.SourceKey = folder + "/source"
	}
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		return tx.QueryRow(ctx, `INSERT INTO media_assets (owner_uid, kind, state, source_key, display_key, thumb_key,
			display_webp, thumb_webp, hls_prefix, poster_key, preview_prefix, width, height, duration_ms, video_codec, audio_codec,
			placeholder, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			a.OwnerUID, string(a.Kind), string(a.State), a.SourceKey, a.DisplayKey, a.ThumbKey, a.DisplayWebP, a.ThumbWebP,
			a.HLSPrefix, a.PosterKey, a.PreviewPrefix, a.Width, a.Height, a.DurationMS, a.VideoCodec, a.AudioCodec,
			a.Placeholder, now.UnixMilli(), now.UnixMilli()).Scan(&a.ID)
	})
	if err != nil {
		cleanup()
		return Asset{}, fmt.Errorf("media: recording: %w", err)
	}
	return a, nil
}

// TranscodeNow runs the transcode of video asset id in the caller, as the
// job would (for the seed and the command line, where no worker may run).
// The queued job then finds the asset ready and does nothing.
func (s *Service) TranscodeNow(ctx context.Context, id int64) error {
	a, err := s.Get(ctx, id)
	if err != nil {
		return err
	}
	if a.State != Processing {
		return nil
	}
	return s.runTranscode(ctx, a)
}
