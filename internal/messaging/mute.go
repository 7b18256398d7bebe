package messaging

import (
	"context"
	"errors"
	"fmt"
	"time"

	"prima/internal/platform/audit"
)

// Mutes is the community's mute (internal/community: one rule for posts,
// comments and messages). It is wired in internal/app; nil mutes no one.
type Mutes interface {
	// MutedUntil is when uid's mute ends (unix seconds), 0 when they are
	// not muted now.
	MutedUntil(ctx context.Context, uid int64) (int64, error)
	// Mute mutes uid for minutes from now with a reason, audited by the
	// owner (a report handled by muting, reports_admin.go).
	Mute(ctx context.Context, actor audit.Actor, uid, minutes int64, reason string) error
}

// ErrMuted: the sender is muted (403); the error is a *MutedError.
var ErrMuted = errors.New("messaging: muted")

// MutedError is a message refused because its sender is muted until Until.
type MutedError struct{ Until int64 }

func (e *MutedError) Error() string {
	return fmt.Sprintf("messaging: muted until %s", time.Unix(e.Until, 0).UTC().Format(time.RFC3339))
}

func (e *MutedError) Is(target error) bool { return target == ErrMuted }

// Detail names the mute's end (Beijing time, as the mute notice does).
func (e *MutedError) Detail() (tip, msg string) {
	loc := time.FixedZone("CST", 8*3600)
	return "你已被禁言至 " + time.Unix(e.Until, 0).In(loc).Format("2006-01-02 15:04") + "，解除前不能发私信", e.Error()
}

// checkMuted refuses a muted sender.
func (s *Service) checkMuted(ctx context.Context, uid int64) error {
	if s.Mutes == nil {
		return nil
	}
	until, err := s.Mutes.MutedUntil(ctx, uid)
	if err != nil {
		return err
	}
	if until > 0 {
		return &MutedError{Until: until}
	}
	return nil
}
