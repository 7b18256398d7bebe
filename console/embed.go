// Package console embeds the built operator console (console/dist, made by
// `make console`) into the binary; it is served at /admin/. A tree that has
// not been built embeds only the placeholder file, and the server says how
// to build it.
package console

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist is the built console: index.html at its root, hashed files under
// assets/ (the paths the page names start with /admin/).
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // the embed pattern guarantees the directory
	}
	return sub
}
