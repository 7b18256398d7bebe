package media

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // display variants are JPEG
	"io"
	"strconv"
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

// Card-size covers. A cover is shown mostly on a card half the phone wide
// (about 180 CSS px: 330 device px on a 1.75x Android, 540 on a 3x
// iPhone), while the picture behind it may be 1280 px wide. A cover whose
// key lies under covers/set/ (directly, as the seed's, or in a YYYY/MM
// folder, as PublishCover's) always has a second file beside it,
// <name>.w360.jpg, the same picture 360 px wide; the full one is at least
// CoverSetMinWidth wide. The web app (src/lib/cover.ts) gives such a cover
// a srcset of the two, so each phone downloads the smaller one that is
// sharp on it. Every writer of covers/set/ keys (PublishCover, the seed)
// writes both files; any other cover URL is used as it is.
const (
	CoverSetPrefix   = "covers/set"
	CardWidth        = 360
	CoverSetMinWidth = 480
)

// CardKey is the card-size sibling of a covers/set/ key.
func CardKey(key string) string {
	return strings.TrimSuffix(key, ".jpg") + ".w" + strconv.Itoa(CardWidth) + ".jpg"
}

// CardJPEG scales a picture to CardWidth wide, keeping its aspect.
func CardJPEG(img image.Image) ([]byte, error) {
	b := img.Bounds()
	h := max(1, b.Dy()*CardWidth/max(1, b.Dx()))
	return encodeJPEG(fit(img, max(CardWidth, h)))
}

// PublishCover implements catalog.CoverStore: it copies the display
// variant (JPEG, long side <= 1280) of picture asset id to
// covers/set/YYYY/MM/<random>.jpg with its card-size copy (a landscape
// picture at least CoverSetMinWidth wide) or covers/YYYY/MM/<random>.jpg
// (any other), and returns its URL path.
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
	r, err := s.store.Open(ctx, a.DisplayKey)
	if err != nil {
		return "", fmt.Errorf("media: cover source %s: %w", a.DisplayKey, err)
	}
	data, err := io.ReadAll(io.LimitReader(r, 64<<20))
	r.Close()
	if err != nil {
		return "", fmt.Errorf("media: cover source %s: %w", a.DisplayKey, err)
	}
	// A picture wide enough gets its card-size copy (a covers/set/ key);
	// a narrow one is the card size already.
	var card []byte
	prefix := "covers"
	if a.Width >= CoverSetMinWidth && a.Width >= a.Height {
		img, _, err := image.Decode(bytes.NewReader(data))
		if err != nil {
			return "", fmt.Errorf("media: cover source %s: %w", a.DisplayKey, err)
		}
		if img.Bounds().Dx() >= CoverSetMinWidth {
			if card, err = CardJPEG(img); err != nil {
				return "", err
			}
			prefix = CoverSetPrefix
		}
	}
	key, err := blob.NewKey(prefix, ".jpg")
	if err != nil {
		return "", err
	}
	cleanup := func() {
		_ = s.store.Delete(context.WithoutCancel(ctx), key)
		if card != nil {
			_ = s.store.Delete(context.WithoutCancel(ctx), CardKey(key))
		}
	}
	// The card first: once the full key exists, a client may ask for both.
	if card != nil {
		if err := s.store.Put(ctx, CardKey(key), bytes.NewReader(card), "image/jpeg"); err != nil {
			cleanup()
			return "", fmt.Errorf("media: storing the card cover: %w", err)
		}
	}
	if err := s.store.Put(ctx, key, bytes.NewReader(data), ""); err != nil {
		cleanup()
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
	if strings.HasPrefix(key, CoverSetPrefix+"/") {
		if err := s.store.Delete(ctx, CardKey(key)); err != nil {
			return err
		}
	}
	return s.store.Delete(ctx, key)
}

var _ catalog.CoverStore = (*Service)(nil)
