package community

// What the operator sets for the whole community (community_settings, one
// row) and whom they muted (community_mutes). Publishing and commenting read
// both inside their own transactions; the operator's calls write them.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"prima/internal/platform/db"
)

// Settings is the community_settings row.
type Settings struct {
	// Review holds new posts as pending until an operator approves them.
	Review bool `json:"review"`
	// Rules is the text /community/publish/rule shows ('' until written).
	Rules     string `json:"rules"`
	UpdatedAt int64  `json:"updatedAt"`
}

// loadSettings reads the settings (the migration writes the row).
func loadSettings(ctx context.Context, q db.Querier) (Settings, error) {
	var st Settings
	var review int
	err := q.QueryRow(ctx, `SELECT review, rules, updated_at FROM community_settings WHERE id = 1`).Scan(&review, &st.Rules, &st.UpdatedAt)
	st.Review = review != 0
	return st, err
}

// MutedError: the user is muted by an operator until Until (403); posts and
// comments are refused, reading is not.
type MutedError struct{ Until time.Time }

func (e *MutedError) Error() string {
	return fmt.Sprintf("community: muted until %s", e.Until.UTC().Format(time.RFC3339))
}

// checkMuted returns a *MutedError when uid is muted at now.
func checkMuted(ctx context.Context, q db.Querier, uid int64, now time.Time) error {
	var until int64
	err := q.QueryRow(ctx, `SELECT muted_until FROM community_mutes WHERE user_id = ?`, uid).Scan(&until)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	if until > now.Unix() {
		return &MutedError{Until: time.Unix(until, 0)}
	}
	return nil
}

// MutedUntil is when uid's mute ends (unix seconds), 0 when they are not
// muted now: the message centre refuses a muted sender by it (one mute for
// posts, comments and messages, wired in internal/app).
func (s *Service) MutedUntil(ctx context.Context, uid int64) (int64, error) {
	m, err := s.MuteOf(ctx, uid)
	return m.MutedUntil, err
}

// MuteOf is uid's mute now (MutedUntil 0: none), for the operator's user page.
func (s *Service) MuteOf(ctx context.Context, uid int64) (Mute, error) {
	m := Mute{UID: uid}
	err := s.db.QueryRow(ctx, `SELECT muted_until, reason FROM community_mutes WHERE user_id = ?`, uid).Scan(&m.MutedUntil, &m.Reason)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && m.MutedUntil <= s.now().Unix()) {
		return Mute{UID: uid}, nil
	}
	return m, err
}
