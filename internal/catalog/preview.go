package catalog

import (
	"context"
	"net/http"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// The preview rule (GET/POST /api/admin/preview): how much of a video a
// viewer who may not watch it sees before the paywall. internal/media
// applies it when it hands out a preview (docs/architecture.md, *Video
// previews*); it is kept here, with the rest of the operator's
// configuration of what clients see.

// Fraction is num/den, in integers so that 1/3 is exactly a third.
type Fraction struct {
	Num int64 `json:"num"`
	Den int64 `json:"den"`
}

// PreviewRule bounds a preview: at most MaxSeconds and at most MaxFraction
// of the video. Either at zero turns previews off.
type PreviewRule struct {
	MaxSeconds  int64    `json:"maxSeconds"`
	MaxFraction Fraction `json:"maxFraction"`
	UpdatedAt   int64    `json:"updatedAt"` // unix seconds; 0 until an operator sets it
}

// DefaultPreviewRule is the rule of a new install: 10 s, and never more
// than a third of the video.
var DefaultPreviewRule = PreviewRule{MaxSeconds: 10, MaxFraction: Fraction{Num: 1, Den: 3}}

// Bounds of the rule an operator may set. A preview of half the video or
// more would leave little to pay for, so the fraction stops at a half.
const (
	MaxPreviewSeconds = 600
	maxFractionDen    = 1000
	previewRuleAction = "preview.rule"
)

// Limit is the longest preview of a video that lasts total: the smaller
// of the two bounds (0 when the rule is off or total is unknown).
func (r PreviewRule) Limit(total time.Duration) time.Duration {
	if r.MaxFraction.Den <= 0 || r.MaxFraction.Num <= 0 || r.MaxSeconds <= 0 || total <= 0 {
		return 0
	}
	part := total * time.Duration(r.MaxFraction.Num) / time.Duration(r.MaxFraction.Den)
	return min(time.Duration(r.MaxSeconds)*time.Second, part)
}

// check validates a rule an operator sends.
func (r PreviewRule) check() error {
	switch {
	case r.MaxSeconds < 0 || r.MaxSeconds > MaxPreviewSeconds:
		return invalid("试看时长应在 0 到 600 秒之间", "maxSeconds must be 0..600")
	case r.MaxFraction.Den < 1 || r.MaxFraction.Den > maxFractionDen:
		return invalid("试看比例的分母应在 1 到 1000 之间", "maxFraction.den must be 1..1000")
	case r.MaxFraction.Num < 0 || r.MaxFraction.Num*2 > r.MaxFraction.Den:
		return invalid("试看比例应在 0 到 1/2 之间", "maxFraction must be between 0 and 1/2 (num*2 <= den)")
	}
	return nil
}

func loadPreviewRule(ctx context.Context, q db.Querier) (PreviewRule, error) {
	var r PreviewRule
	err := q.QueryRow(ctx, `SELECT max_seconds, fraction_num, fraction_den, updated_at FROM preview_rule WHERE id = 1`).
		Scan(&r.MaxSeconds, &r.MaxFraction.Num, &r.MaxFraction.Den, &r.UpdatedAt)
	return r, err
}

// PreviewRule is the operator's current rule (internal/media asks it for
// every preview it hands out, so a change applies at once).
func (s *Service) PreviewRule(ctx context.Context) (PreviewRule, error) {
	return loadPreviewRule(ctx, s.db)
}

// PreviewRuleInput is POST /api/admin/preview: either field or both.
type PreviewRuleInput struct {
	MaxSeconds  *int64    `json:"maxSeconds"`
	MaxFraction *Fraction `json:"maxFraction"`
}

// SetPreviewRule changes the rule, audited ("preview.rule") in the same
// transaction; a request that changes nothing writes nothing.
func (s *Service) SetPreviewRule(ctx context.Context, actor audit.Actor, in PreviewRuleInput) (PreviewRule, error) {
	if in.MaxSeconds == nil && in.MaxFraction == nil {
		return PreviewRule{}, invalid("缺少参数 maxSeconds 或 maxFraction", "give maxSeconds, maxFraction or both")
	}
	var out PreviewRule
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		before, err := loadPreviewRule(ctx, tx)
		if err != nil {
			return err
		}
		out = before
		if in.MaxSeconds != nil {
			out.MaxSeconds = *in.MaxSeconds
		}
		if in.MaxFraction != nil {
			out.MaxFraction = *in.MaxFraction
		}
		if err := out.check(); err != nil {
			return err
		}
		if out.MaxSeconds == before.MaxSeconds && out.MaxFraction == before.MaxFraction {
			return nil
		}
		out.UpdatedAt = s.now().Unix()
		if _, err := tx.Exec(ctx, `UPDATE preview_rule SET max_seconds = ?, fraction_num = ?, fraction_den = ?, updated_at = ? WHERE id = 1`,
			out.MaxSeconds, out.MaxFraction.Num, out.MaxFraction.Den, out.UpdatedAt); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: previewRuleAction, TargetType: "preview_rule", TargetID: "1",
			Before: before, After: out}, s.now())
	})
	return out, err
}

// AdminPreviewRule answers GET /api/admin/preview.
func (h *Handler) AdminPreviewRule(w http.ResponseWriter, r *http.Request) error {
	out, err := h.s.PreviewRule(r.Context())
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, out)
}

// AdminSetPreviewRule answers POST /api/admin/preview {maxSeconds?, maxFraction?}.
func (h *Handler) AdminSetPreviewRule(w http.ResponseWriter, r *http.Request) error {
	var in PreviewRuleInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	out, err := h.s.SetPreviewRule(r.Context(), audit.ActorFrom(r), in)
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, out)
}
