// Package media is Prima's upload and media pipeline: uploads sniffed from
// their bytes, pictures resized in process, videos probed at upload and
// transcoded to an HLS ladder by a background job, and signed URLs for
// what came out (docs/architecture.md, "Media pipeline").
package media

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"prima/internal/platform/blob"
	"prima/internal/platform/db"
	"prima/internal/platform/jobs"
)

// State is where an asset is in the pipeline.
type State string

const (
	Processing State = "processing"
	Ready      State = "ready"
	Failed     State = "failed"
)

// Limits bound what an upload may be.
type Limits struct {
	ImageBytes int64
	VideoBytes int64
}

// DefaultLimits: a phone photo fits in 10 MiB, a few minutes of phone
// video in 500 MiB.
var DefaultLimits = Limits{ImageBytes: 10 << 20, VideoBytes: 500 << 20}

// TranscodeKind is the job kind of a video transcode.
const TranscodeKind = "media.transcode"

// TranscodeAttempts is how often a transcode is tried: a failure that
// repeats three times is the file's fault, not the machine's.
const TranscodeAttempts = 3

// DefaultTranscodeTimeout is ample for 500 MiB of phone video on two threads.
const DefaultTranscodeTimeout = time.Hour

// URLTTL is how long the signed URLs handed out live.
const URLTTL = 2 * time.Hour

// Asset is a row of media_assets.
type Asset struct {
	ID            int64
	OwnerUID      int64
	Kind          Kind
	State         State
	SourceKey     string
	DisplayKey    string
	ThumbKey      string
	DisplayWebP   string
	ThumbWebP     string
	HLSPrefix     string
	PosterKey     string
	PreviewPrefix string
	Width, Height int
	DurationMS    int64
	VideoCodec    string
	AudioCodec    string
	Placeholder   string
	Error         string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// Service runs the pipeline.
type Service struct {
	db     *db.DB
	store  blob.Store
	signer *blob.Signer
	Tools  Tools
	Limits Limits
	// TempDir holds uploads and transcodes while they are worked on ("" is os.TempDir()).
	TempDir string
	// TranscodeTimeout bounds one transcode attempt (DefaultTranscodeTimeout
	// when zero); read by RegisterJobs.
	TranscodeTimeout time.Duration
	// Options are the dependencies NewService was given; tests may swap
	// one after construction.
	Options
	// ladders remembers the HLS folders previews were cut from.
	ladders ladderCache
	// decodes bounds pictures decoded at once: a 50 MP picture takes
	// 200 MB, and uploads arrive in parallel.
	decodes chan struct{}
}

// MaxParallelDecodes is how many pictures one process decodes at once.
const MaxParallelDecodes = 2

// Options are what the pipeline is built with. app.New sets every one
// (TestEveryDependencyIsWired); a test leaves out what it does not
// exercise, and each says what nil does.
type Options struct {
	// Log takes the pipeline's warnings (nil: slog.Default()).
	Log *slog.Logger
	// Previews is the operator's preview rule (catalog.Service); nil is
	// catalog.DefaultPreviewRule.
	Previews PreviewRules
	// VideoMedia is the asset a catalogue video plays (catalog.MediaOf);
	// nil: no video has one, so none has playback.
	VideoMedia VideoMedia
}

// VideoMedia reads the asset catalogue video id plays (0: none) on q,
// db.ErrNotFound when there is no such video. The videos are the
// catalog's.
type VideoMedia func(ctx context.Context, q db.Querier, video int64) (int64, error)

// NewService builds a pipeline over d, the blob store and its signer,
// with its dependencies opts.
func NewService(d *db.DB, store blob.Store, signer *blob.Signer, opts Options) *Service {
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	return &Service{db: d, store: store, signer: signer, Limits: DefaultLimits, Options: opts,
		decodes: make(chan struct{}, MaxParallelDecodes)}
}

// Upload errors the HTTP layer turns into 4xx answers.
var (
	ErrUnsupported = errors.New("media: unsupported type")
	ErrTooLarge    = errors.New("media: file too large")
	ErrEmpty       = errors.New("media: empty file")
)

const assetColumns = `id, owner_uid, kind, state, source_key, display_key, thumb_key, display_webp, thumb_webp, hls_prefix, poster_key,
	preview_prefix, width, height, duration_ms, video_codec, audio_codec, placeholder, error, created_at, updated_at`

func scanAsset(s db.Scanner) (Asset, error) {
	var a Asset
	var created, updated int64
	err := s.Scan(&a.ID, &a.OwnerUID, &a.Kind, &a.State, &a.SourceKey, &a.DisplayKey, &a.ThumbKey, &a.DisplayWebP, &a.ThumbWebP, &a.HLSPrefix,
		&a.PosterKey, &a.PreviewPrefix, &a.Width, &a.Height, &a.DurationMS, &a.VideoCodec, &a.AudioCodec,
		&a.Placeholder, &a.Error, &created, &updated)
	a.CreatedAt, a.UpdatedAt = time.UnixMilli(created), time.UnixMilli(updated)
	return a, err
}

// ErrNotFound is an asset that does not exist (or is not the caller's).
var ErrNotFound = errors.New("media: no such asset")

// Get reads asset id.
func (s *Service) Get(ctx context.Context, id int64) (Asset, error) {
	return AssetOn(ctx, s.db, id)
}

// AssetOn reads asset id on q (a caller's transaction when there is one),
// ErrNotFound when there is none: what another domain checks an upload it
// is handed against (its owner, kind and state).
func AssetOn(ctx context.Context, q db.Querier, id int64) (Asset, error) {
	a, err := scanAsset(q.QueryRow(ctx, `SELECT `+assetColumns+` FROM media_assets WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return a, ErrNotFound
	}
	return a, err
}

// AssetsOn reads the assets among ids on q in one query, by id; an id with
// no asset is absent: what another domain shows a page of uploads with.
func AssetsOn(ctx context.Context, q db.Querier, ids []int64) (map[int64]Asset, error) {
	out := make(map[int64]Asset, len(ids))
	args := make([]any, 0, len(ids))
	seen := make(map[int64]bool, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			args = append(args, id)
		}
	}
	if len(args) == 0 {
		return out, nil
	}
	list, err := db.All(ctx, q, scanAsset, `SELECT `+assetColumns+` FROM media_assets WHERE id IN (`+db.Placeholders(len(args))+`)`, args...)
	for _, a := range list {
		out[a.ID] = a
	}
	return out, err
}

// List is the operators' list: newest first, optionally of one state.
func (s *Service) List(ctx context.Context, state State, pageNumber, pageSize int) ([]Asset, int, error) {
	where, args := "", []any{}
	if state != "" {
		where, args = " WHERE state = ?", append(args, string(state))
	}
	var total int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM media_assets`+where, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	list, err := db.All(ctx, s.db, scanAsset, `SELECT `+assetColumns+` FROM media_assets`+where+
		` ORDER BY id DESC LIMIT ? OFFSET ?`, append(args, pageSize, (pageNumber-1)*pageSize)...)
	return list, total, err
}

// ListOwn lists one page of owner's assets, newest first; kind "" is every
// kind. The (owner_uid, id) index answers it.
func (s *Service) ListOwn(ctx context.Context, owner int64, kind Kind, pageNumber, pageSize int) ([]Asset, int, error) {
	where, args := ` WHERE owner_uid = ?`, []any{owner}
	if kind != "" {
		where, args = where+` AND kind = ?`, append(args, string(kind))
	}
	var total int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM media_assets`+where, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	list, err := db.All(ctx, s.db, scanAsset, `SELECT `+assetColumns+` FROM media_assets`+where+
		` ORDER BY id DESC LIMIT ? OFFSET ?`, append(args, pageSize, (pageNumber-1)*pageSize)...)
	return list, total, err
}

// folderOf is a new asset's folder: media/YYYY/MM/<random>, a name the
// server picks (blob.NewKey) and that no client input reaches.
func folderOf() (string, error) {
	k, err := blob.NewKey("media", ".jpg")
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(k, ".jpg"), nil
}

// Upload takes a file the HTTP layer spooled to path (size bytes, already
// checked against the largest limit), sniffs it, checks it, stores it and
// records the asset. An image is ready when Upload returns; a video is
// processing, with its transcode job enqueued in the row's transaction.
// On any error nothing is left behind: no row, no blob.
func (s *Service) Upload(ctx context.Context, owner int64, path string, size int64) (Asset, error) {
	if size == 0 {
		return Asset{}, ErrEmpty
	}
	f, err := os.Open(path)
	if err != nil {
		return Asset{}, err
	}
	head := make([]byte, sniffLen)
	n, _ := io.ReadFull(f, head)
	f.Close()
	format, ok := Sniff(head[:n])
	if !ok {
		return Asset{}, ErrUnsupported
	}
	limit := s.Limits.ImageBytes
	if format.Kind == Video {
		limit = s.Limits.VideoBytes
	}
	if size > limit {
		return Asset{}, fmt.Errorf("%w: %d bytes, the limit for a %s is %d", ErrTooLarge, size, format.Kind, limit)
	}
	folder, err := folderOf()
	if err != nil {
		return Asset{}, err
	}
	now := time.Now()
	a := Asset{OwnerUID: owner, Kind: format.Kind, State: Processing, SourceKey: folder + "/source" + format.Ext, CreatedAt: now, UpdatedAt: now}
	var stored []string
	// cleanup removes what was stored when the asset does not come to be.
	cleanup := func() {
		bg := context.WithoutCancel(ctx)
		for _, k := range stored {
			if err := s.store.Delete(bg, k); err != nil {
				s.Log.Error("media: removing an orphaned blob", "key", k, "err", err)
			}
		}
	}
	put := func(key string, b []byte) error {
		stored = append(stored, key)
		return s.store.Put(ctx, key, bytes.NewReader(b), "")
	}
	var probe Probe
	switch format.Kind {
	case Image:
		data, err := os.ReadFile(path)
		if err != nil {
			return Asset{}, err
		}
		select {
		case s.decodes <- struct{}{}:
		case <-ctx.Done():
			return Asset{}, ctx.Err()
		}
		p, err := ProcessImage(data)
		<-s.decodes
		if err != nil {
			return Asset{}, err
		}
		a.State, a.Width, a.Height, a.Placeholder = Ready, p.Width, p.Height, p.Placeholder
		a.DisplayKey, a.ThumbKey = folder+"/display.jpg", folder+"/thumb.jpg"
		if err := errors.Join(put(a.SourceKey, data), put(a.DisplayKey, p.Display), put(a.ThumbKey, p.Thumb)); err != nil {
			cleanup()
			return Asset{}, fmt.Errorf("media: storing: %w", err)
		}
		// WebP copies are smaller for the same look; the JPEGs are the
		// contract, so an ffmpeg without libwebp only costs the copies.
		if dw, tw, err := s.Tools.WebP(ctx, s.TempDir, p.Display, p.Thumb); err != nil {
			s.Log.Warn("media: no WebP variants", "err", err)
		} else {
			a.DisplayWebP, a.ThumbWebP = folder+"/display.webp", folder+"/thumb.webp"
			if err := errors.Join(put(a.DisplayWebP, dw), put(a.ThumbWebP, tw)); err != nil {
				cleanup()
				return Asset{}, fmt.Errorf("media: storing: %w", err)
			}
		}
	case Video:
		if probe, err = s.Tools.ProbeVideo(ctx, path); err != nil {
			return Asset{}, err
		}
		a.Width, a.Height, a.DurationMS = probe.Width, probe.Height, probe.Duration.Milliseconds()
		a.VideoCodec, a.AudioCodec = probe.VideoCodec, probe.AudioCodec
		stored = append(stored, a.SourceKey)
		if err := s.store.PutFile(ctx, a.SourceKey, path); err != nil {
			cleanup()
			return Asset{}, fmt.Errorf("media: storing: %w", err)
		}
	}
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		err := tx.QueryRow(ctx, `INSERT INTO media_assets (owner_uid, kind, state, source_key, display_key, thumb_key,
			display_webp, thumb_webp, width, height, duration_ms, video_codec, audio_codec, placeholder, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			a.OwnerUID, string(a.Kind), string(a.State), a.SourceKey, a.DisplayKey, a.ThumbKey, a.DisplayWebP, a.ThumbWebP, a.Width, a.Height,
			a.DurationMS, a.VideoCodec, a.AudioCodec, a.Placeholder, now.UnixMilli(), now.UnixMilli()).Scan(&a.ID)
		if err != nil {
			return err
		}
		if a.Kind == Video {
			_, err = jobs.Enqueue(ctx, tx, TranscodeKind, transcodeJob{AssetID: a.ID},
				jobs.Opts{UniqueKey: fmt.Sprintf("media.transcode:%d", a.ID)})
		}
		return err
	})
	if err != nil {
		cleanup()
		return Asset{}, fmt.Errorf("media: recording: %w", err)
	}
	return a, nil
}

type transcodeJob struct {
	AssetID int64 `json:"assetID"`
}

// RegisterJobs adds the transcode handler to q.
func (s *Service) RegisterJobs(q *jobs.Queue) {
	timeout := s.TranscodeTimeout
	if timeout <= 0 {
		timeout = DefaultTranscodeTimeout
	}
	jobs.Register(q, TranscodeKind, s.transcode, jobs.KindOpts{MaxAttempts: TranscodeAttempts, Timeout: timeout})
}

// transcode is the job: fetch the source, run ffmpeg into a temp dir that
// is always removed, upload the outputs under the asset's folder, mark the
// asset ready. A failure is returned so the queue retries; on the last
// attempt the asset is marked failed with the reason first. Re-running is
// safe: outputs are rewritten under the same keys and a finished asset is
// left alone.
func (s *Service) transcode(ctx context.Context, j jobs.Job, p transcodeJob) error {
	a, err := s.Get(ctx, p.AssetID)
	if errors.Is(err, ErrNotFound) {
		return jobs.Permanent(err)
	}
	if err != nil {
		return err
	}
	if a.State != Processing {
		return nil
	}
	runErr := s.runTranscode(ctx, a)
	if runErr == nil {
		return nil
	}
	// The last attempt marks the asset failed, unless it was cancelled
	// (shutdown or a lost lease: the queue runs it again). Running out of
	// the kind's time limit is a failure like any other.
	if j.Attempt >= j.MaxAttempts && !errors.Is(ctx.Err(), context.Canceled) {
		folder := path.Dir(a.SourceKey)
		bg := context.WithoutCancel(ctx)
		_ = s.store.DeletePrefix(bg, folder+"/hls/")
		_ = s.store.DeletePrefix(bg, folder+"/preview/")
		_ = s.store.Delete(bg, folder+"/poster.jpg")
		msg := runErr.Error()
		if len(msg) > 1000 {
			msg = msg[:1000]
		}
		if _, err := s.db.Exec(bg, `UPDATE media_assets SET state = ?, error = ?, updated_at = ? WHERE id = ? AND state = ?`,
			string(Failed), msg, time.Now().UnixMilli(), a.ID, string(Processing)); err != nil {
			return errors.Join(runErr, err)
		}
	}
	return runErr
}

func (s *Service) runTranscode(ctx context.Context, a Asset) error {
	dir, err := os.MkdirTemp(s.TempDir, "prima-transcode-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	src := filepath.Join(dir, "source"+path.Ext(a.SourceKey))
	if err := s.fetch(ctx, a.SourceKey, src); err != nil {
		return err
	}
	probe := Probe{Width: a.Width, Height: a.Height, Duration: time.Duration(a.DurationMS) * time.Millisecond, VideoCodec: a.VideoCodec, AudioCodec: a.AudioCodec}
	out, err := s.Tools.Transcode(ctx, src, filepath.Join(dir, "out"), probe)
	if err != nil {
		return err
	}
	folder := path.Dir(a.SourceKey)
	hls, poster := folder+"/hls/", folder+"/poster.jpg"
	if err := s.putTree(ctx, out.HLS, hls); err != nil {
		return err
	}
	// The asset's own preview (its owner's view, a community post's
	// preview): the first segments of the ladder under the rule of now,
	// none for a clip too short for one.
	rule, err := s.previewRule(ctx)
	if err != nil {
		return err
	}
	preview, _, err := s.previewCut(ctx, hls, rule, func(int) string { return folder + "/preview/" })
	if err != nil {
		return fmt.Errorf("preview: %w", err)
	}
	if err := s.store.PutFile(ctx, poster, out.Poster); err != nil {
		return err
	}
	_, err = s.db.Exec(ctx, `UPDATE media_assets SET state = ?, hls_prefix = ?, preview_prefix = ?, poster_key = ?, error = '', updated_at = ?
		WHERE id = ? AND state = ?`, string(Ready), hls, preview, poster, time.Now().UnixMilli(), a.ID, string(Processing))
	return err
}

// fetch copies a stored file to a local path for ffmpeg.
func (s *Service) fetch(ctx context.Context, key, dst string) error {
	r, err := s.store.Open(ctx, key)
	if err != nil {
		return fmt.Errorf("media: source %s: %w", key, err)
	}
	defer r.Close()
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// putTree uploads every file under dir to prefix, playlists last, so a
// player that finds a playlist finds every segment it names.
func (s *Service) putTree(ctx context.Context, dir, prefix string) error {
	var files, playlists []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
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
		return err
	}
	// The master playlist last of all: it names the others.
	sort.SliceStable(playlists, func(i, j int) bool {
		return filepath.Base(playlists[j]) == "master.m3u8" && filepath.Base(playlists[i]) != "master.m3u8"
	})
	for _, p := range append(files, playlists...) {
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if err := s.store.PutFile(ctx, prefix+filepath.ToSlash(rel), p); err != nil {
			return fmt.Errorf("media: upload %s: %w", rel, err)
		}
	}
	return nil
}
