package media

import (
	"context"
	"errors"
	"path"
	"strconv"
	"strings"
	"time"

	"prima/internal/catalog"
	"prima/internal/membership"
	"prima/internal/platform/blob"
	"prima/internal/platform/db"
)

// PlaybackTTL is how long a playback URL lives: long enough for a film,
// short enough that a shared link dies the same day.
const PlaybackTTL = 4 * time.Hour

// Playback implements catalog.PlaybackSource: the video's asset (the
// catalog's videos.media_id, through VideoMedia) when it is ready, as a folder-signed master playlist.
// A caller whose access is refused gets the preview only (preview.go): a
// folder of the first whole segments under the operator's rule, whose
// token opens that folder and nothing else, so neither the full ladder in
// "<asset>/hls/" nor a longer cut can be reached from it (the signature
// binds the scope). A video too short for a preview gives a refused
// caller no playback at all.
func (s *Service) Playback(ctx context.Context, v catalog.Video, access membership.Access) (*catalog.Playback, error) {
	if s.VideoMedia == nil {
		return nil, nil
	}
	id, err := s.VideoMedia(ctx, s.db, v.ID)
	if errors.Is(err, db.ErrNotFound) || err == nil && id == 0 {
		return nil, nil // no such video, or no media attached
	}
	if err != nil {
		return nil, err
	}
	a, err := AssetOn(ctx, s.db, id)
	if errors.Is(err, ErrNotFound) || err == nil && (a.State != Ready || a.HLSPrefix == "") {
		return nil, nil // not transcoded yet
	}
	if err != nil {
		return nil, err
	}
	hls := a.HLSPrefix
	folder, length := hls, time.Duration(0)
	if !access.Allowed {
		rule, err := s.previewRule(ctx)
		if err != nil {
			return nil, err
		}
		// Beside hls/, one folder per length in segments: every rule that
		// cuts as many segments shares it, and no token of one opens another.
		asset := path.Dir(strings.TrimSuffix(hls, "/"))
		folder, length, err = s.previewCut(ctx, hls, rule, func(n int) string { return asset + "/preview-" + strconv.Itoa(n) + "/" })
		if err != nil {
			return nil, err
		}
		if folder == "" {
			return nil, nil // too short for a preview: the paywall at once
		}
	}
	url, err := s.signer.FolderURL(folder, folder+"master.m3u8", PlaybackTTL)
	if err != nil {
		return nil, err
	}
	return &catalog.Playback{URL: url, Preview: !access.Allowed, PreviewMs: length.Milliseconds(), ExpiresAt: expiresAt(url)}, nil
}

var _ catalog.PlaybackSource = (*Service)(nil)

// expiresAt reads the expiry from a signed URL's token
// (/media/s/<kid>.<exp>.<depth>.<sig>/...): the signer rounds it up, so
// now+ttl would understate it.
func expiresAt(url string) time.Time {
	tok, _, _ := strings.Cut(strings.TrimPrefix(url, blob.MountPath+"s/"), "/")
	if f := strings.Split(tok, "."); len(f) == 4 {
		if n, err := strconv.ParseInt(f[1], 10, 64); err == nil {
			return time.Unix(n, 0).UTC()
		}
	}
	return time.Time{}
}
