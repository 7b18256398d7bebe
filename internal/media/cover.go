package media

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"prima/internal/catalog"
	"prima/internal/platform/blob"
)

// Covers. Pictures are stored under signed keys (media/...), but a cover is
// shown on public pages to everyone, cached by browsers and CDNs for a
// long time, and read by every listing: signing it would put a fresh URL
// in every answer (defeating those caches) for a picture anyone may see.
// So an operator's chosen picture is copied once, when it is set, to a new
// key under the public covers/ folder. The key is random (blob.NewKey), so
// the file is immutable and cached for a year, and a replaced cover gets a
// new URL instead of a stale cached one.

// coverPath is where covers/ keys are served.
const coverPath = blob.MountPath + "covers/"

// PublishCover implements catalog.CoverStore: it copies the display
// variant (JPEG, long side <= 1280) of picture asset id to
// covers/YYYY/MM/<random>.jpg and returns its URL path.
func (s *Service) PublishCover(ctx context.Context, id int64) (string, error) {
	a, err := s.Get(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return "", catalog.ErrCoverNotFound
	}
	if err != nil {
		return "", err
	}
	if a.Kind != Image || a.State != Ready || a.DisplayKey == "" {
		return "", catalog.ErrCoverNotImage
	}
	key, err := blob.NewKey("covers", ".jpg")
	if err != nil {
		return "", err
	}
	r, err := s.store.Open(ctx, a.DisplayKey)
	if err != nil {
		return "", fmt.Errorf("media: cover source %s: %w", a.DisplayKey, err)
	}
	defer r.Close()
	if err := s.store.Put(ctx, key, r, ""); err != nil {
		_ = s.store.Delete(context.WithoutCancel(ctx), key)
		return "", fmt.Errorf("media: storing cover: %w", err)
	}
	return blob.MountPath + key, nil
}

// RemoveCover implements catalog.CoverStore: it deletes the file behind a
// /media/covers/ URL; any other URL is left alone.
func (s *Service) RemoveCover(ctx context.Context, url string) error {
	key, ok := strings.CutPrefix(url, blob.MountPath)
	if !ok || !strings.HasPrefix(url, coverPath) || blob.CheckKey(key) != nil {
		return nil
	}
	return s.store.Delete(ctx, key)
}

var _ catalog.CoverStore = (*Service)(nil)
