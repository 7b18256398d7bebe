// Package web embeds the built web app (web/dist, made by `make web`) into
// the binary. A tree that has not been built embeds only the placeholder
// file, and the server says how to build it.
package web

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist is the built app: index.html at its root, hashed files under assets/.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err) // the embed pattern guarantees the directory
	}
	return sub
}
