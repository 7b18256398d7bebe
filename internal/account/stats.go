package account

import (
	"context"
	"log/slog"
	"sync"

	"prima/internal/platform/days"
	"prima/internal/stats"
)

// activeDays is the users already counted active on day by this process.
type activeDays struct {
	mu   sync.Mutex
	day  string
	seen map[int64]struct{}
}

// markActive records that uid used the app today (user_days): a signed-in
// request, a guest's first open, a sign-in or a registration; at most once
// per user and day in this process: the set is kept in memory and starts
// over when the day turns. Another process writing the same row is
// harmless (ON CONFLICT DO NOTHING). A failed write is logged and retried
// on the user's next request; the request itself goes on.
func (s *Service) markActive(ctx context.Context, uid int64) {
	day := days.Of(s.now())
	a := &s.active
	a.mu.Lock()
	if a.day != day {
		a.day, a.seen = day, map[int64]struct{}{}
	}
	_, done := a.seen[uid]
	if !done {
		a.seen[uid] = struct{}{}
	}
	a.mu.Unlock()
	if done {
		return
	}
	if _, err := s.db.Exec(ctx, `INSERT INTO user_days (day, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING`, day, uid); err != nil {
		slog.WarnContext(ctx, "marking the user active failed", "uid", uid, "err", err)
		a.mu.Lock()
		if a.day == day {
			delete(a.seen, uid)
		}
		a.mu.Unlock()
	}
}

// UserFigures is a day's people for the statistics (stats.Users): users
// active (user_days), users created as guests and users registered, the
// console's operator accounts left out.
func (s *Service) UserFigures(ctx context.Context, sp stats.Span) (stats.UserFigures, error) {
	var f stats.UserFigures
	from, to := sp.From.Unix(), sp.To.Unix()
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM user_days d JOIN users u ON u.id = d.user_id WHERE d.day = ? AND u.role = 'user'`,
		sp.Day).Scan(&f.ActiveUsers); err != nil {
		return f, err
	}
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM users WHERE created_at >= ? AND created_at < ? AND began_guest = 1 AND role = 'user'`,
		from, to).Scan(&f.NewGuests); err != nil {
		return f, err
	}
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM users WHERE registered_at > 0 AND registered_at >= ? AND registered_at < ? AND role = 'user'`,
		from, to).Scan(&f.Registrations)
	return f, err
}
