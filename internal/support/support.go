// Package support holds what users send the operators and what the
// operators answer: feedback with pictures (mine/suggest) and its replies,
// and creator applications (mine/settled) with their review. Every answer
// reaches the user as a system notice written through messaging.Notify in
// the operator's transaction, next to its audit row.
package support

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"prima/internal/media"
	"prima/internal/platform/blob"
	"prima/internal/platform/db"
	"prima/internal/platform/ratelimit"
	"prima/internal/platform/realtime"
)

// URLTTL is how long the signed picture URLs handed out live.
const URLTTL = 2 * time.Hour

// Service holds the support rules.
type Service struct {
	db     *db.DB
	signer *blob.Signer
	// Events carries the notices' realtime hint (nil: none).
	Events realtime.Publisher
	// Limiter throttles submissions per user (nil: no limit, for tests).
	Limiter ratelimit.Limiter
	// Assets reads the uploads a feedback is sent with (media.AssetOn,
	// wired in internal/app: media owns media_assets).
	Assets AssetOn
	now    func() time.Time
}

// AssetOn reads an upload on q, media.ErrNotFound when there is none.
type AssetOn func(ctx context.Context, q db.Querier, id int64) (media.Asset, error)

var errNoAssets = errors.New("support: Assets is not wired")

func (s *Service) asset(ctx context.Context, q db.Querier, id int64) (media.Asset, error) {
	if s.Assets == nil {
		return media.Asset{}, errNoAssets
	}
	return s.Assets(ctx, q, id)
}

// NewService builds the service over d, signing picture URLs with signer,
// throttling submissions with limiter, hinting notices through events and
// reading feedback pictures with assets.
func NewService(d *db.DB, signer *blob.Signer, limiter ratelimit.Limiter, events realtime.Publisher, assets AssetOn) *Service {
	return &Service{db: d, signer: signer, Limiter: limiter, Events: events, Assets: assets, now: time.Now}
}

// Rates of what a user may send. Submissions are cheap to make and each is
// read by a person, so a burst is refused; the limiter failing lets them
// through (nothing of value is at stake).
var (
	FeedbackRate = Rate{N: 5, Per: time.Hour}
	SettledRate  = Rate{N: 5, Per: 24 * time.Hour}
)

// Rate is N calls per Per.
type Rate struct {
	N   int
	Per time.Duration
}

func (s *Service) limit(ctx context.Context, what string, uid int64, r Rate) error {
	if s.Limiter == nil {
		return nil
	}
	err := ratelimit.Enforce(ctx, s.Limiter, fmt.Sprintf("support:%s:%d", what, uid), r.N, r.Per, ratelimit.FailOpen)
	return err
}

// checkText trims s and checks its length in characters (min..max) and,
// unless multiline, that it is one line. field names it in the tip.
func checkText(s, field string, min, max int, multiline bool) (string, error) {
	s = strings.TrimSpace(s)
	n := utf8.RuneCountInString(s)
	switch {
	case n == 0 && min > 0:
		return "", invalid("请填写"+field, field+" is required")
	case n < min:
		return "", invalid(fmt.Sprintf("%s至少 %d 个字", field, min), fmt.Sprintf("%s is at least %d characters", field, min))
	case n > max:
		return "", invalid(fmt.Sprintf("%s最多 %d 个字", field, max), fmt.Sprintf("%s is at most %d characters", field, max))
	}
	for _, c := range s {
		if (!multiline && (c == '\n' || c == '\r' || c == '\t')) || (c != '\n' && c != '\r' && c != '\t' && unicode.IsControl(c)) {
			return "", invalid(field+"包含无效字符", field+" holds control characters")
		}
	}
	return s, nil
}

// sign makes a signed URL of key ("" stays "").
func (s *Service) sign(key string) (string, error) {
	if key == "" {
		return "", nil
	}
	return s.signer.URL(key, URLTTL)
}
