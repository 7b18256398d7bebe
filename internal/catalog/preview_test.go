package catalog

import (
	"context"
	"testing"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func TestPreviewRuleLimit(t *testing.T) {
	r := DefaultPreviewRule
	for _, c := range []struct {
		total, want time.Duration
	}{
		{60 * time.Second, 10 * time.Second},
		{20 * time.Second, 20 * time.Second / 3},
		{6 * time.Second, 2 * time.Second},
		{2 * time.Hour, 10 * time.Second},
		{0, 0},
	} {
		if got := r.Limit(c.total); got != c.want {
			t.Errorf("limit of %v: %v, want %v", c.total, got, c.want)
		}
	}
	if got := (PreviewRule{MaxSeconds: 0, MaxFraction: Fraction{1, 3}}).Limit(time.Minute); got != 0 {
		t.Errorf("0 s: %v", got)
	}
	if got := (PreviewRule{MaxSeconds: 10, MaxFraction: Fraction{0, 3}}).Limit(time.Minute); got != 0 {
		t.Errorf("a fraction of 0: %v", got)
	}
}

func TestSetPreviewRule(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		s := newTestService(d, Options{})
		ctx := context.Background()
		op := audit.Actor{UID: 1, IP: "127.0.0.1"}
		r, err := s.PreviewRule(ctx)
		if err != nil || r.MaxSeconds != 10 || r.MaxFraction != (Fraction{1, 3}) || r.UpdatedAt != 0 {
			t.Fatalf("a new install's rule: %+v %v", r, err)
		}
		n := func(v int64) *int64 { return &v }
		f := func(num, den int64) *Fraction { return &Fraction{num, den} }
		for _, bad := range []PreviewRuleInput{
			{},
			{MaxSeconds: n(-1)},
			{MaxSeconds: n(601)},
			{MaxFraction: f(1, 0)},
			{MaxFraction: f(-1, 3)},
			{MaxFraction: f(2, 3)},
			{MaxFraction: f(1, 1001)},
			{MaxSeconds: n(20), MaxFraction: f(3, 4)},
		} {
			if _, err := s.SetPreviewRule(ctx, op, bad); httpStatus(err) != 422 {
				t.Errorf("%+v: %v, want 422", bad, err)
			}
		}
		tick(s)
		r, err = s.SetPreviewRule(ctx, op, PreviewRuleInput{MaxSeconds: n(30), MaxFraction: f(1, 2)})
		if err != nil || r.MaxSeconds != 30 || r.MaxFraction != (Fraction{1, 2}) || r.UpdatedAt == 0 {
			t.Fatalf("set: %+v %v", r, err)
		}
		// One field keeps the other; the same values again change nothing.
		r, err = s.SetPreviewRule(ctx, op, PreviewRuleInput{MaxSeconds: n(8)})
		if err != nil || r.MaxSeconds != 8 || r.MaxFraction != (Fraction{1, 2}) {
			t.Fatalf("seconds only: %+v %v", r, err)
		}
		if _, err := s.SetPreviewRule(ctx, op, PreviewRuleInput{MaxSeconds: n(8), MaxFraction: f(1, 2)}); err != nil {
			t.Fatal(err)
		}
		if got, err := s.PreviewRule(ctx); err != nil || got != r {
			t.Fatalf("read back %+v, want %+v (%v)", got, r, err)
		}
		var audits int
		if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE action = 'preview.rule' AND actor_uid = 1`).Scan(&audits); err != nil || audits != 2 {
			t.Fatalf("%d audit rows, want 2 (refused and unchanged calls write none): %v", audits, err)
		}
	})
}
