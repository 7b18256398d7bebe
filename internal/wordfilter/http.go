package wordfilter

import (
	"net/http"

	"prima/internal/platform/audit"
	"prima/internal/platform/httpx"
)

// Handler serves GET/POST /api/admin/moderation/words (mounted behind the
// console's gate, the moderator role, in internal/app/routes.go).
type Handler struct{ s *Service }

// NewHandler serves s.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

// AdminWords answers GET /api/admin/moderation/words -> {words, updatedAt, version}.
func (h *Handler) AdminWords(w http.ResponseWriter, r *http.Request) error {
	l, err := h.s.List(r.Context())
	if err != nil {
		return err
	}
	return httpx.OK(w, l)
}

// AdminSetWords answers POST /api/admin/moderation/words {words: [string]}.
func (h *Handler) AdminSetWords(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Words *[]string `json:"words"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if in.Words == nil {
		return httpx.Invalid("缺少参数 words", "words is required (an empty list clears it)")
	}
	l, err := h.s.Set(r.Context(), audit.ActorFrom(r), *in.Words)
	if err != nil {
		return err
	}
	return httpx.OK(w, l)
}
