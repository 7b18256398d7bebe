package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"prima/internal/platform/db"
)

// Operator content: modules and sub-modules, videos and tags, edited under
// /api/admin (admin_http.go). Every action runs in one transaction with its
// audit row, and clears the listing caches once it commits (Invalidate).
//
// The rules refuse with the sentinels of errors.go, each carrying its
// words (ErrNoModule and the like for a named thing that does not exist,
// ErrInUse for a state that forbids the action, ErrInput for a value out of
// range); adminErrs answers them at the handler, and a refused action rolls
// its transaction back, so nothing is half-written.

// Bounds of operator input.
const (
	MaxTitle      = 80 // characters, after trimming
	MaxModuleName = 20
	MaxTagName    = 20
	MaxCoins      = 1_000_000
	MaxSort       = 1_000_000
	MaxDuration   = 24 * 3600 // seconds
	MaxDimension  = 16384     // pixels
	MaxVideoTags  = 20
	// Image modules (type 3) hold galleries, not videos.
	imageModuleType = 3
)

// CoverStore turns an uploaded picture into a public cover (internal/media
// implements it). PublishCover copies the picture's display variant to a
// new key under the public covers/ folder and returns its URL path;
// RemoveCover deletes a cover made that way, by its URL.
type CoverStore interface {
	PublishCover(ctx context.Context, assetID int64) (string, error)
	RemoveCover(ctx context.Context, url string) error
}

// Cover errors a CoverStore reports.
var (
	ErrCoverNotFound = errors.New("catalog: no such picture")
	ErrCoverNotImage = errors.New("catalog: the asset is not a ready picture")
)

// noCovers is the CoverStore of a catalog without the media pipeline.
type noCovers struct{}

func (noCovers) PublishCover(context.Context, int64) (string, error) { return "", ErrCoverNotFound }
func (noCovers) RemoveCover(context.Context, string) error           { return nil }

// Invalidate drops the cached pages of the public calls on every node
// (Pages; with Redis it returns once every node has dropped them), and this
// node's listing totals and page anchors, so the next listing reflects an
// operator's change at once. Other nodes forget their totals within
// countTTL (30 s) and anchors within anchorTTL; a keyset anchor only says
// where a page starts, so a stale one never shows a draft.
func (s *Service) Invalidate() {
	s.counts.clear()
	s.anchors.clear()
	s.moduleCounts.clear()
	s.Pages.Invalidate(context.Background())
}

func (c *ttlCache[K, V]) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.m)
}

// cleanText trims s and checks it holds 1..max characters.
func cleanText(field, label, s string, max int) (string, error) {
	s = strings.TrimSpace(s)
	n := utf8.RuneCountInString(s)
	if n == 0 {
		return "", invalid("请输入"+label, field+" is required")
	}
	if n > max {
		return "", invalid(fmt.Sprintf("%s不能超过 %d 个字", label, max), fmt.Sprintf("%s is longer than %d characters", field, max))
	}
	return s, nil
}

func checkSort(sort int64) error {
	if sort < 0 || sort > MaxSort {
		return invalid(fmt.Sprintf("排序应在 0 到 %d 之间", MaxSort), "sort is outside [0, 1000000]")
	}
	return nil
}

// fkConflict maps a foreign-key violation (a row another table still
// points at) to 409: the thing is in use.
func fkConflict(err error, tip string) error {
	if db.IsForeignKey(err) {
		return detailed(ErrInUse, tip, "still referenced: "+err.Error())
	}
	return err
}
