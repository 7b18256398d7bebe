package sms

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
)

func TestRecorderKeepsTheLastMessagePerNumberAndPassesItOn(t *testing.T) {
	var buf bytes.Buffer
	r := &Recorder{Next: Log{Logger: slog.New(slog.NewTextHandler(&buf, nil))}}
	ctx := context.Background()
	if _, ok := r.Last("13800000000"); ok {
		t.Fatal("a message before any was sent")
	}
	for _, m := range []struct{ to, text string }{{"13800000000", "one"}, {"13900000000", "other"}, {"13800000000", "two"}} {
		if err := r.Send(ctx, m.to, m.text); err != nil {
			t.Fatal(err)
		}
	}
	if got, ok := r.Last("13800000000"); !ok || got != "two" {
		t.Fatalf("last = %q %v", got, ok)
	}
	if got, _ := r.Last("13900000000"); got != "other" {
		t.Fatalf("other = %q", got)
	}
	if !strings.Contains(buf.String(), "mobile=13900000000") || strings.Count(buf.String(), "msg=sms") != 3 {
		t.Fatalf("log = %s", buf.String())
	}
}
