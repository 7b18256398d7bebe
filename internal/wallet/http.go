package wallet

import (
	"net/http"

	"prima/internal/platform/httpx"
)

// Handler serves the wallet's calls. Each part of the wallet adds its
// handlers as methods in its own file.
type Handler struct{ s *Service }

// NewHandler serves s.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

// Wallet is GET /api/app/mine/wallet: the caller's balances and the rules
// that bound exchanges and withdrawals.
func (h *Handler) Wallet(w http.ResponseWriter, r *http.Request) error {
	sum, err := h.s.Summary(r.Context(), httpx.UserID(r.Context()))
	if err != nil {
		return err
	}
	return httpx.OK(w, sum)
}
