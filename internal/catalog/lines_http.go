package catalog

import (
	"errors"
	"net/http"
	"strconv"

	"prima/internal/platform/audit"
	"prima/internal/platform/httpx"
)

// AdminLines is GET /api/admin/lines: the stored lists (empty lists mean
// this server's origin, and no fallback).
func (h *Handler) AdminLines(w http.ResponseWriter, r *http.Request) error {
	l, err := h.s.Lines(r.Context())
	if err != nil {
		return err
	}
	return httpx.OK(w, l)
}

// SetLines is POST /api/admin/lines {api, image, video, fallback}: replace
// every list (a list left out is emptied). 422 names the first bad entry.
func (h *Handler) SetLines(w http.ResponseWriter, r *http.Request) error {
	var req Lines
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	l, err := h.s.SetLines(r.Context(), audit.ActorFrom(r), req)
	var le *LineError
	if errors.As(err, &le) {
		return httpx.Invalid("线路地址无效："+le.List+" 第 "+strconv.Itoa(le.Index+1)+" 项", le.Error())
	}
	if err != nil {
		return err
	}
	return httpx.OK(w, l)
}
