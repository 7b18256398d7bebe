package wordfilter_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/platform/httpx"
	"prima/internal/wordfilter"
)

func TestFold(t *testing.T) {
	for in, want := range map[string]string{"ＢＡＤ": "bad", "BaD": "bad", "ｂａｄ１２３": "bad123", "广告": "广告", "Ａ　Ｂ": "a b"} {
		if got := wordfilter.Fold(in); got != want {
			t.Errorf("Fold(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNormalize(t *testing.T) {
	got, err := wordfilter.Normalize([]string{" bad ", "", "ＢＡＤ", "Bad", "广告", "　"})
	if err != nil || len(got) != 2 || got[0] != "bad" || got[1] != "广告" {
		t.Fatalf("Normalize = %q, %v", got, err)
	}
	for name, words := range map[string][]string{
		"control": {"a\x07b"}, "newline": {"a\nb"}, "long": {"123456789012345678901234567890123"},
	} {
		if _, err := wordfilter.Normalize(words); !errors.Is(err, wordfilter.ErrInput) {
			t.Errorf("%s: %v, want ErrInput", name, err)
		}
	}
	many := make([]string, wordfilter.MaxWords+1)
	for i := range many {
		many[i] = string(rune(0x4e00 + i))
	}
	if _, err := wordfilter.Normalize(many); !errors.Is(err, wordfilter.ErrInput) {
		t.Errorf("too many: %v", err)
	}
}

// Two nodes over one database: the one that saves applies the list at once,
// the other within its check interval (the version row), and both fold.
func TestCheckAcrossNodes(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		now := time.Unix(1_800_000_000, 0)
		clock := func() time.Time { return now }
		a, b := wordfilter.New(d), wordfilter.New(d)
		a.SetClock(clock)
		b.SetClock(clock)
		if err := b.Check(ctx, "ＢＡＤ"); err != nil { // b caches the empty list
			t.Fatal(err)
		}
		if _, err := a.Set(ctx, audit.Actor{UID: 1}, []string{"Bad"}); err != nil {
			t.Fatal(err)
		}
		err := a.Check(ctx, "so ＢａＤ")
		var he *httpx.Error
		if !errors.Is(err, wordfilter.ErrBlocked) || !errors.As(err, &he) || he.Status != 422 || he.Tip != "内容包含违禁词「Bad」，请修改后再发送" {
			t.Fatalf("a.Check = %#v", err)
		}
		if err := b.Check(ctx, "ＢＡＤ"); err != nil {
			t.Fatalf("b reloaded before its interval: %v", err)
		}
		now = now.Add(wordfilter.CheckEvery)
		if err := b.Check(ctx, "ＢＡＤ"); !errors.Is(err, wordfilter.ErrBlocked) {
			t.Fatalf("b after the interval: %v", err)
		}
		if err := b.Check(ctx, "good"); err != nil {
			t.Fatal(err)
		}
	})
}
