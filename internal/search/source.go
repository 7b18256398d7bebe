package search

import (
	"context"
	"database/sql"
	"html"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"prima/internal/platform/db"
)

// The search index is the one package that reads other domains' tables
// (videos, video_tags, tags, modules, galleries, gallery_collects, posts,
// topics, users, follows): it is built from the items' own rows so that no
// copy of a title or a count can drift, and importing the domains instead
// would invert the dependency (they call it). The table-owner test
// (internal/migrations/owners_test.go) lists exactly these as reasoned.

// doc is one item as its own table has it now: what the index holds of it
// (tokens of title and body, filter tokens) and what a query ranks and
// shows (title, popularity). The index keeps no copy of any of it.
type doc struct {
	kind        string // KindVideo or KindShort for a videos row, by its module
	refID       int64
	moduleID    int64
	subModuleID int64
	vipLevel    int
	title       string // shown, highlighted, ranked; indexed
	body        string // indexed only: tags, post text, bio, description (read when withBody)
	popularity  int64  // plays, likes, favourites, posts, followers
	visible     bool   // anyone may see the item
}

const (
	maxTitleRunes = 200
	maxBodyRunes  = 2000
)

func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}

var (
	blockTag = regexp.MustCompile(`(?i)<\s*(br|/p|/div|/h[1-6]|/li|/blockquote)[^>]*>`)
	anyTag   = regexp.MustCompile(`<[^>]*>`)
)

// plainText turns a post body (plain text, or an article's sanitised HTML)
// into text with line breaks where blocks end.
func plainText(s string) string {
	if strings.Contains(s, "<") {
		s = blockTag.ReplaceAllString(s, "\n")
		s = anyTag.ReplaceAllString(s, " ")
	}
	return html.UnescapeString(s)
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return cutRunes(l, 60)
		}
	}
	return ""
}

// sourceKind is the kind whose table holds k's items: short videos are
// rows of videos like long ones.
func sourceKind(k string) string {
	if k == KindShort {
		return KindVideo
	}
	return k
}

// sourceTables name each source kind's table.
var sourceTables = map[string]string{
	KindVideo: "videos", KindGallery: "galleries", KindPost: "posts", KindTopic: "topics", KindUser: "users",
}

// loadDocs reads the items ids of source kind src (KindVideo for long and
// short videos) in one query: a doc per existing row, visible or not.
// withBody also reads what only indexing needs (a video's tags).
func loadDocs(ctx context.Context, q db.Querier, src string, ids []int64, withBody bool) (map[int64]*doc, error) {
	out := make(map[int64]*doc, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	in, args := inList(ids)
	var query string
	var scan func(r db.Scanner) (*doc, error)
	switch src {
	case KindVideo:
		query = `SELECT v.id, v.title, v.module_id, v.sub_module_id, v.vip_level, v.play_count, v.published, m.module_type, s.id
			FROM videos v LEFT JOIN modules m ON m.id = v.module_id LEFT JOIN modules s ON s.id = v.sub_module_id WHERE v.id IN ` + in
		scan = func(r db.Scanner) (*doc, error) {
			d := &doc{kind: KindVideo}
			var published int
			var mtype, sub sql.NullInt64
			err := r.Scan(&d.refID, &d.title, &d.moduleID, &d.subModuleID, &d.vipLevel, &d.popularity, &published, &mtype, &sub)
			d.visible = published == 1 && mtype.Valid && sub.Valid
			if mtype.Int64 == 4 {
				d.kind = KindShort
			}
			return d, err
		}
	case KindGallery:
		query = `SELECT g.id, g.title, g.module_id, g.sub_module_id, g.vip_level,
			(SELECT COUNT(*) FROM gallery_collects c WHERE c.gallery_id = g.id), g.published, m.id, s.id
			FROM galleries g LEFT JOIN modules m ON m.id = g.module_id LEFT JOIN modules s ON s.id = g.sub_module_id WHERE g.id IN ` + in
		scan = func(r db.Scanner) (*doc, error) {
			d := &doc{kind: KindGallery}
			var published int
			var mod, sub sql.NullInt64
			err := r.Scan(&d.refID, &d.title, &d.moduleID, &d.subModuleID, &d.vipLevel, &d.popularity, &published, &mod, &sub)
			d.visible = published == 1 && mod.Valid && sub.Valid
			return d, err
		}
	case KindPost:
		query = `SELECT id, title, body, module_id, vip_level, like_count, state FROM posts WHERE id IN ` + in
		scan = func(r db.Scanner) (*doc, error) {
			d := &doc{kind: KindPost}
			var state, body string
			err := r.Scan(&d.refID, &d.title, &body, &d.moduleID, &d.vipLevel, &d.popularity, &state)
			d.visible = state == "published"
			text := plainText(body)
			if d.title = strings.TrimSpace(d.title); d.title == "" {
				d.title = firstLine(text)
			}
			d.body = text
			return d, err
		}
	case KindTopic:
		query = `SELECT t.id, t.name, t.description, t.status,
			(SELECT COUNT(*) FROM posts p WHERE p.topic_id = t.id AND p.state = 'published') FROM topics t WHERE t.id IN ` + in
		scan = func(r db.Scanner) (*doc, error) {
			d := &doc{kind: KindTopic}
			var status int
			err := r.Scan(&d.refID, &d.title, &d.body, &status, &d.popularity)
			d.visible = status == 1
			return d, err
		}
	case KindUser:
		query = `SELECT u.id, u.name, u.bio, u.account,
			(SELECT COUNT(*) FROM follows f WHERE f.followee_id = u.id) FROM users u WHERE u.id IN ` + in
		scan = func(r db.Scanner) (*doc, error) {
			d := &doc{kind: KindUser}
			var account sql.NullString
			err := r.Scan(&d.refID, &d.title, &d.body, &account, &d.popularity)
			d.visible = account.Valid // guests are nobody to find
			return d, err
		}
	default:
		return nil, ErrBadKind
	}
	docs, err := db.All(ctx, q, scan, query, args...)
	if err != nil {
		return nil, err
	}
	for _, d := range docs {
		d.title = cutRunes(strings.TrimSpace(d.title), maxTitleRunes)
		d.body = cutRunes(d.body, maxBodyRunes)
		out[d.refID] = d
	}
	if src == KindVideo && withBody {
		type tag struct {
			video int64
			name  string
		}
		tags, err := db.All(ctx, q, func(r db.Scanner) (tag, error) {
			var t tag
			return t, r.Scan(&t.video, &t.name)
		}, `SELECT vt.video_id, t.name FROM video_tags vt JOIN tags t ON t.id = vt.tag_id WHERE vt.video_id IN `+in+` ORDER BY vt.video_id, t.id`, args...)
		if err != nil {
			return nil, err
		}
		for _, t := range tags {
			if d := out[t.video]; d != nil {
				d.body = strings.TrimPrefix(d.body+" "+t.name, " ")
			}
		}
	}
	return out, nil
}

// tokens are what the index holds of d: its title and body tokens, then its
// filter tokens; nil when nothing a query could match (the doc is then not
// indexed).
func (d *doc) tokens() []string {
	toks := append(Tokens(d.title), Tokens(d.body)...)
	if len(toks) == 0 {
		return nil
	}
	return append(toks, d.facets()...)
}

// facets are d's filter tokens: _v<vip level>, _m<module> and
// _m<sub-module>. '_' is never in a token the tokenizer makes from text.
func (d *doc) facets() []string {
	f := []string{"_v" + strconv.Itoa(d.vipLevel)}
	if d.moduleID > 0 {
		f = append(f, "_m"+strconv.FormatInt(d.moduleID, 10))
	}
	if d.subModuleID > 0 && d.subModuleID != d.moduleID {
		f = append(f, "_m"+strconv.FormatInt(d.subModuleID, 10))
	}
	return f
}

// inList is "(?, ?, …)" for ids, and ids as arguments.
func inList(ids []int64) (string, []any) {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return "(" + db.Placeholders(len(ids)) + ")", args
}
