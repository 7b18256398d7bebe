package days

import (
	"testing"
	"time"
)

// A day turns over at Beijing midnight: 16:00 UTC.
func TestBeijingMidnight(t *testing.T) {
	before := time.Date(2026, 11, 23, 15, 59, 59, 0, time.UTC)
	after := before.Add(time.Second)
	if Of(before) != "2026-11-23" || Of(after) != "2026-11-24" {
		t.Fatalf("days: %s, %s", Of(before), Of(after))
	}
	if got := Start(after); !got.Equal(after) {
		t.Fatalf("Start(%v) = %v", after, got)
	}
	if got := Start(before); !got.Equal(time.Date(2026, 11, 22, 16, 0, 0, 0, time.UTC)) {
		t.Fatalf("Start(%v) = %v", before, got)
	}
}
