package community

// An article's body is HTML written in the app's little editor. It is
// sanitised here, once, when it is published, and stored sanitised: the
// detail call hands it out as it is (after signing its pictures). The
// allow-list, as docs/api.md gives it for an article: paragraphs and line
// breaks, bold, italic, underline, strike, quotes, two heading levels,
// lists, links to http(s) only (rel nofollow noopener, target _blank) and
// pictures.
//
// Pictures: an article never carries a URL of a picture. The editor writes
// <img data-asset="123"> for one of the caller's own picture uploads; the
// sanitiser keeps only that attribute (digits), so the stored body holds
// exactly <img data-asset="123"> and nothing else of an img. The publish
// call then checks each id is the author's own ready picture; the detail
// call replaces each with a signed src (articleAssets lists them).

import (
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/microcosm-cc/bluemonday"
	"golang.org/x/net/html"
)

// ArticleMaxPictures bounds the pictures of one article.
const ArticleMaxPictures = 50

// articleMaxBytes bounds the stored body whatever its text (markup-heavy
// bodies would otherwise grow without a text limit noticing).
const articleMaxBytes = 256 << 10

// articlePolicy is the one allow-list, built once.
var articlePolicy = func() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("p", "br", "b", "strong", "i", "em", "u", "s", "blockquote", "h2", "h3", "ul", "ol", "li")
	p.AllowAttrs("href").OnElements("a")
	p.AllowURLSchemes("http", "https")
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false)
	p.RequireNoFollowOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true) // adds rel="noopener" too
	p.AllowAttrs("data-asset").Matching(regexp.MustCompile(`^[1-9][0-9]{0,15}$`)).OnElements("img")
	return p
}()

// sanitizeArticle returns the safe body of raw and the picture asset ids it
// shows, in order, each once (a picture shown twice keeps only its first
// place). An img without a valid data-asset is dropped.
func sanitizeArticle(raw string) (string, []int64) {
	clean := articlePolicy.Sanitize(raw)
	// A second pass over the sanitiser's own output: imgs keep data-asset
	// alone and only once per id; empty links bluemonday left are fine.
	var b strings.Builder
	var ids []int64
	seen := map[int64]bool{}
	z := html.NewTokenizer(strings.NewReader(clean))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		tok := z.Token()
		if (tt == html.StartTagToken || tt == html.SelfClosingTagToken) && tok.Data == "img" {
			var id int64
			for _, a := range tok.Attr {
				if a.Key == "data-asset" {
					id, _ = strconv.ParseInt(a.Val, 10, 64)
				}
			}
			if id > 0 && !seen[id] {
				seen[id] = true
				ids = append(ids, id)
				b.WriteString(`<img data-asset="` + strconv.FormatInt(id, 10) + `">`)
			}
			continue
		}
		b.WriteString(tok.String())
	}
	return strings.TrimSpace(b.String()), ids
}

// articleText is the text of a sanitised body, for its length rule.
func articleText(clean string) string { return plainText(clean) }

// imgAsset matches the one img form a stored body holds.
var imgAsset = regexp.MustCompile(`<img data-asset="([0-9]+)">`)

// ArticleAssets lists the picture asset ids of a stored article body in
// order (the detail call signs them: see ReplaceArticleAssets).
func ArticleAssets(body string) []int64 {
	var out []int64
	for _, m := range imgAsset.FindAllStringSubmatch(body, -1) {
		if id, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			out = append(out, id)
		}
	}
	return out
}

// ReplaceArticleAssets rewrites each <img data-asset="N"> of a stored body
// with what src returns for N: a whole tag (for instance
// `<img src="signed" width=".." height=".." loading="lazy" alt="">`), or ""
// to drop the picture (gone, or locked). src's output is trusted: it must
// escape what it puts in attributes (html.EscapeString).
func ReplaceArticleAssets(body string, src func(id int64) string) string {
	return imgAsset.ReplaceAllStringFunc(body, func(m string) string {
		sub := imgAsset.FindStringSubmatch(m)
		id, err := strconv.ParseInt(sub[1], 10, 64)
		if err != nil {
			return ""
		}
		return src(id)
	})
}

// publishRunes counts characters.
func publishRunes(s string) int { return utf8.RuneCountInString(s) }
