package app

import (
	"encoding/json"
	"html"
	"strings"
)

// The first screen drawn by the server. Preloading the LCP picture (the
// first home banner, the first short clip's poster, a detail page's cover)
// made it arrive with the HTML, but it could only be painted once React had
// drawn the element that shows it, after the entry script: on a slow phone
// the script's run is most of the wait. So the page also carries that
// picture as plain markup, placed where the app will draw it: a layer over
// the app (#prima-first, styled by web/src/styles/global.css) with the
// bars' surfaces, the picture, and nothing else. It paints before any
// script runs; web/src/app/first-screen.ts removes it once React shows the
// same picture in the same place (an element replaced by one of the same
// size does not move LCP), or when the app goes elsewhere.
//
// Everything in it comes from the data embedded beside it, and the only
// value written is the picture's path, escaped and always one of this
// server's own (/media/...). No text: titles and names are user text, and
// the app's own strings depend on a language only the client knows.

type firstKind int

const (
	firstHome   firstKind = iota // header, [announcement], banner, tab bar
	firstShort                   // the black reel with the poster, tab bar
	firstDetail                  // navigation bar, the player with its poster
)

// firstScreen is the layer for a page at path whose LCP picture is img;
// note says home shows the announcement bar above its banner. via, when
// not "", is the path the page was opened at and the app passes through
// on its way to path: splash's "/" on its way to /home.
func firstScreen(kind firstKind, path, via, img string, note bool) string {
	if !strings.HasPrefix(img, "/media/") {
		return ""
	}
	pic := `<img src="` + html.EscapeString(img) + `" alt="">`
	var b strings.Builder
	b.WriteString(`<div id="prima-first" class="prima-first" data-path="` + html.EscapeString(path) + `"`)
	if via != "" {
		b.WriteString(` data-via="` + html.EscapeString(via) + `"`)
	}
	b.WriteString(` aria-hidden="true">`)
	switch kind {
	case firstHome:
		b.WriteString(`<div class="prima-first-head"></div>`)
		if note {
			b.WriteString(`<div class="prima-first-note"></div>`)
		}
		b.WriteString(`<div class="prima-first-banner">` + pic + `</div><div class="prima-first-tabs"></div>`)
	case firstShort:
		b.WriteString(`<div class="prima-first-reel">` + pic + `</div><div class="prima-first-tabs"></div>`)
	case firstDetail:
		b.WriteString(`<div class="prima-first-nav"></div><div class="prima-first-player">` + pic + `</div>`)
	default:
		return ""
	}
	b.WriteString("</div>\n")
	return b.String()
}

// hasAnnouncements says whether home shows its announcement bar
// (web/src/features/catalog/components/AnnounceBar.tsx: any announcement).
func hasAnnouncements(announce json.RawMessage) bool {
	var list []json.RawMessage
	return json.Unmarshal(announce, &list) == nil && len(list) > 0
}
