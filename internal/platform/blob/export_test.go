package blob

import "time"

// SetClock lets tests move a signer's and a handler's "now" (expiry).
func SetClock(s *Signer, h *Handler, now func() time.Time) {
	s.now = now
	if h != nil {
		h.now = now
	}
}
