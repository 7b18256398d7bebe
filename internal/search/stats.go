package search

import (
	"context"

	"prima/internal/platform/db"
	"prima/internal/stats"
)

// DayFigures is a day's searches for the statistics (stats.Searches, through
// searchapi): the searches counted (junk queries are not) and the limit
// most searched words.
func DayFigures(ctx context.Context, q db.Querier, day string, limit int) (int64, []stats.Count, error) {
	var total int64
	if err := q.QueryRow(ctx, `SELECT COALESCE(SUM(count), 0) FROM search_days WHERE day = ?`, day).Scan(&total); err != nil {
		return 0, nil, err
	}
	top, err := db.All(ctx, q, func(r db.Scanner) (stats.Count, error) {
		var c stats.Count
		err := r.Scan(&c.Key, &c.Count)
		return c, err
	}, `SELECT word, count FROM search_days WHERE day = ? ORDER BY count DESC, word LIMIT ?`, day, limit)
	return total, top, err
}
