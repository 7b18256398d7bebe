package search

import (
	"context"
	"testing"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/stats"
)

// Searches count towards their Beijing day (search_days) beside the hot
// words' UTC day; junk counts nowhere; the day's figures are the total and
// the most searched words, most first, normalised.
func TestDayFigures(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		late := time.Date(2026, 3, 1, 15, 30, 0, 0, time.UTC) // 23:30 in Shanghai, still 03-01 in UTC
		next := late.Add(time.Hour)                           // 00:30 on 03-02 in Shanghai, 03-01 in UTC
		for _, r := range []struct {
			text string
			at   time.Time
			n    int
		}{{"北京", late, 3}, {"ＢＥＩＪＩＮＧ", late, 2}, {"beijing", late, 1}, {"!!!", late, 5}, {"猫", next, 4}} {
			for range r.n {
				if err := RecordQuery(ctx, d, r.text, r.at); err != nil {
					t.Fatal(err)
				}
			}
		}
		total, top, err := DayFigures(ctx, d, "2026-03-01", 10)
		if err != nil {
			t.Fatal(err)
		}
		want := []stats.Count{{Key: "beijing", Count: 3}, {Key: "北京", Count: 3}}
		if total != 6 || len(top) != 2 || top[0] != want[0] || top[1] != want[1] {
			t.Fatalf("2026-03-01: %d %+v", total, top)
		}
		if total, top, err = DayFigures(ctx, d, "2026-03-02", 1); err != nil || total != 4 || len(top) != 1 || top[0].Key != "猫" {
			t.Fatalf("2026-03-02: %d %+v %v", total, top, err)
		}
	})
}
