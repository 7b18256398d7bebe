package app

import "net/http"

// RenderHomeBoot runs the home boot of a against api for r, on index.
func RenderHomeBoot(a *App, api http.Handler, r *http.Request, index []byte) []byte {
	return (&homeBoot{api: api, lines: a.Catalog}).render(r, index)
}

var DefaultModule = defaultModule
