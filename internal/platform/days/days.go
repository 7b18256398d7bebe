// Package days is the calendar Prima counts its days and months in:
// Asia/Shanghai, UTC+8 all year (no daylight saving since 1991). Daily
// limits, check-in streaks, click counts and monthly bills all turn over at
// Beijing midnight, whatever zone the server runs in. The zone is fixed
// rather than loaded, so a server without a time zone database agrees.
package days

import "time"

// Zone is Asia/Shanghai.
var Zone = time.FixedZone("Asia/Shanghai", 8*3600)

// Of is t's date in Zone, YYYY-MM-DD.
func Of(t time.Time) string { return t.In(Zone).Format(time.DateOnly) }

// Start is the instant t's day began in Zone.
func Start(t time.Time) time.Time {
	s := t.In(Zone)
	return time.Date(s.Year(), s.Month(), s.Day(), 0, 0, 0, 0, Zone)
}
