package community

import (
	"net/http"

	"prima/internal/platform/httpx"
)

// CreatePost is POST /api/app/community/post (a user; guests 403).
func (h *Handler) CreatePost(w http.ResponseWriter, r *http.Request) error {
	var in PostInput
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	c, err := h.s.CreatePost(r.Context(), httpx.UserID(r.Context()), in)
	if err != nil {
		return publishErrs.Map(err)
	}
	return httpx.OK(w, c)
}

// PublishRules is GET /api/app/community/rules (public).
func (h *Handler) PublishRules(w http.ResponseWriter, r *http.Request) error {
	v, err := h.s.PublishRules(r.Context())
	if err != nil {
		return err
	}
	return httpx.OK(w, v)
}
