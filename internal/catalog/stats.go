package catalog

import (
	"context"
	"strconv"

	"prima/internal/platform/db"
	"prima/internal/stats"
)

// countPlayDay adds one to video vid's plays on day (video_plays_daily),
// in the play's transaction, for the daily statistics.
func countPlayDay(ctx context.Context, q db.Querier, day string, vid int64) error {
	_, err := q.Exec(ctx, `INSERT INTO video_plays_daily (day, video_id, plays) VALUES (?, ?, 1)
		ON CONFLICT (day, video_id) DO UPDATE SET plays = video_plays_daily.plays + 1`, day, vid)
	return err
}

// PlayFigures is a day's plays for the statistics (stats.Plays): the
// total and the limit most played videos with their titles (the day's
// rows are sorted first, so only the kept ones are joined to videos).
func (s *Service) PlayFigures(ctx context.Context, day string, limit int) (int64, []stats.Count, error) {
	var total int64
	if err := s.db.QueryRow(ctx, `SELECT COALESCE(SUM(plays), 0) FROM video_plays_daily WHERE day = ?`, day).Scan(&total); err != nil {
		return 0, nil, err
	}
	top, err := db.All(ctx, s.db, func(r db.Scanner) (stats.Count, error) {
		var c stats.Count
		var id int64
		err := r.Scan(&id, &c.Title, &c.Count)
		c.Key = strconv.FormatInt(id, 10)
		return c, err
	}, `SELECT p.video_id, COALESCE(v.title, ''), p.plays FROM
		(SELECT video_id, plays FROM video_plays_daily WHERE day = ? ORDER BY plays DESC, video_id LIMIT ?) p
		LEFT JOIN videos v ON v.id = p.video_id ORDER BY p.plays DESC, p.video_id`, day, limit)
	return total, top, err
}
