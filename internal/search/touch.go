package search

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"html"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"prima/internal/platform/db"
)

// doc is what the index holds of one visible item.
type doc struct {
	kind        string
	refID       int64
	moduleID    int64
	subModuleID int64
	vipLevel    int
	coins       int64
	title       string // shown, highlighted; also indexed in the title column
	body        string // indexed only: tags, post text, bio, description
	popularity  int64
	publishedAt int64
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

// load reads item (kind, id) from its source table inside tx; ok is false
// when nobody may see it (or it does not exist). For videos, kind is
// decided here from the module: KindVideo and KindShort name the same row.
func load(ctx context.Context, tx *db.Tx, kind string, id int64) (d doc, ok bool, err error) {
	d.refID = id
	switch kind {
	case KindVideo, KindShort:
		var published int
		var mtype sql.NullInt64
		var sub sql.NullInt64
		err = tx.QueryRow(ctx, `SELECT v.title, v.module_id, v.sub_module_id, v.vip_level, v.coins, v.play_count, v.created_at, v.published, m.module_type, s.id
			FROM videos v LEFT JOIN modules m ON m.id = v.module_id LEFT JOIN modules s ON s.id = v.sub_module_id WHERE v.id = ?`, id).
			Scan(&d.title, &d.moduleID, &d.subModuleID, &d.vipLevel, &d.coins, &d.popularity, &d.publishedAt, &published, &mtype, &sub)
		if err != nil {
			break
		}
		if published != 1 || !mtype.Valid || !sub.Valid {
			return d, false, nil
		}
		d.kind = KindVideo
		if mtype.Int64 == 4 {
			d.kind = KindShort
		}
		var tags []string
		tags, err = db.All(ctx, tx, func(r db.Scanner) (string, error) {
			var s string
			return s, r.Scan(&s)
		}, `SELECT t.name FROM video_tags vt JOIN tags t ON t.id = vt.tag_id WHERE vt.video_id = ? ORDER BY t.id`, id)
		d.body = strings.Join(tags, " ")
	case KindGallery:
		var published int
		var mod, sub sql.NullInt64
		d.kind = kind
		err = tx.QueryRow(ctx, `SELECT g.title, g.module_id, g.sub_module_id, g.vip_level, g.coins,
			(SELECT COUNT(*) FROM gallery_collects c WHERE c.gallery_id = g.id), g.created_at, g.published, m.id, s.id
			FROM galleries g LEFT JOIN modules m ON m.id = g.module_id LEFT JOIN modules s ON s.id = g.sub_module_id WHERE g.id = ?`, id).
			Scan(&d.title, &d.moduleID, &d.subModuleID, &d.vipLevel, &d.coins, &d.popularity, &d.publishedAt, &published, &mod, &sub)
		if err == nil && (published != 1 || !mod.Valid || !sub.Valid) {
			return d, false, nil
		}
	case KindPost:
		var state, title, body string
		d.kind = kind
		err = tx.QueryRow(ctx, `SELECT title, body, module_id, vip_level, coins, like_count, published_at, state FROM posts WHERE id = ?`, id).
			Scan(&title, &body, &d.moduleID, &d.vipLevel, &d.coins, &d.popularity, &d.publishedAt, &state)
		if err == nil && state != "published" {
			return d, false, nil
		}
		text := plainText(body)
		d.title = strings.TrimSpace(title)
		if d.title == "" {
			d.title = firstLine(text)
		}
		d.body = cutRunes(text, maxBodyRunes)
	case KindTopic:
		var status int
		d.kind = kind
		err = tx.QueryRow(ctx, `SELECT t.name, t.description, t.status, t.created_at,
			(SELECT COUNT(*) FROM posts p WHERE p.topic_id = t.id AND p.state = 'published') FROM topics t WHERE t.id = ?`, id).
			Scan(&d.title, &d.body, &status, &d.publishedAt, &d.popularity)
		if err == nil && status != 1 {
			return d, false, nil
		}
	case KindUser:
		var account sql.NullString
		d.kind = kind
		err = tx.QueryRow(ctx, `SELECT u.name, u.bio, u.account, u.created_at,
			(SELECT COUNT(*) FROM follows f WHERE f.followee_id = u.id) FROM users u WHERE u.id = ?`, id).
			Scan(&d.title, &d.body, &account, &d.publishedAt, &d.popularity)
		if err == nil && !account.Valid {
			return d, false, nil
		}
	default:
		return d, false, ErrBadKind
	}
	if errors.Is(err, sql.ErrNoRows) {
		return d, false, nil
	}
	if err != nil {
		return d, false, err
	}
	d.title = cutRunes(strings.TrimSpace(d.title), maxTitleRunes)
	d.body = cutRunes(d.body, maxBodyRunes)
	if d.publishedAt < 0 {
		d.publishedAt = 0
	}
	if len(Tokens(d.title)) == 0 && len(Tokens(d.body)) == 0 {
		return d, false, nil // nothing a query could match
	}
	return d, true, nil
}

// facets are the filter tokens of d (SQLite: the facets column;
// PostgreSQL: weight-D lexemes of the tsvector).
func (d doc) facets() []string {
	f := []string{"k" + d.kind, "v" + strconv.Itoa(d.vipLevel)}
	if d.moduleID > 0 {
		f = append(f, "m"+strconv.FormatInt(d.moduleID, 10))
	}
	if d.subModuleID > 0 && d.subModuleID != d.moduleID {
		f = append(f, "m"+strconv.FormatInt(d.subModuleID, 10))
	}
	return f
}

// Touch makes the index agree with item (kind, id) as tx sees it: the doc
// exists exactly while anyone may see the item, with its current title,
// text and filters. Call it in the transaction that changes the item.
// KindVideo and KindShort name the same videos row; either re-reads it and
// files it under the kind its module gives it.
func Touch(ctx context.Context, tx *db.Tx, kind string, id int64) error {
	if !validKind(kind) {
		return ErrBadKind
	}
	if tx.Engine() == db.Postgres {
		// Two transactions touching one item take turns, so neither sees the
		// other's doc missing and inserts a second one.
		h := fnv.New32a()
		fmt.Fprintf(h, "%s/%d", sourceKind(kind), id)
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(7250028, ?)`, int32(h.Sum32())); err != nil {
			return err
		}
	}
	d, ok, err := load(ctx, tx, kind, id)
	if err != nil {
		return fmt.Errorf("search: load %s %d: %w", kind, id, err)
	}
	kinds := []string{kind}
	if kind == KindVideo || kind == KindShort {
		kinds = []string{KindVideo, KindShort}
	}
	keep := int64(0) // the doc id to reuse: an edit keeps its place in recency order
	for _, k := range kinds {
		var oldID int64
		err := tx.QueryRow(ctx, `SELECT id FROM search_docs WHERE kind = ? AND ref_id = ?`, k, id).Scan(&oldID)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return err
		}
		if ok && k == d.kind {
			keep = oldID
		}
		if err := deleteDoc(ctx, tx, oldID); err != nil {
			return err
		}
	}
	if !ok {
		return nil
	}
	return insertDoc(ctx, tx, keep, d)
}

func sourceKind(k string) string {
	if k == KindShort {
		return KindVideo
	}
	return k
}

func deleteDoc(ctx context.Context, tx *db.Tx, id int64) error {
	if tx.Engine() == db.SQLite {
		if _, err := tx.Exec(ctx, `DELETE FROM search_fts WHERE rowid = ?`, id); err != nil {
			return err
		}
	}
	// PostgreSQL: search_fts goes with it (ON DELETE CASCADE).
	_, err := tx.Exec(ctx, `DELETE FROM search_docs WHERE id = ?`, id)
	return err
}

// insertDoc writes d under id, or under the next id when id is 0.
func insertDoc(ctx context.Context, tx *db.Tx, id int64, d doc) error {
	var err error
	if id > 0 {
		_, err = tx.Exec(ctx, `INSERT INTO search_docs (id, kind, ref_id, module_id, sub_module_id, vip_level, coins, title, popularity, published_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, d.kind, d.refID, d.moduleID, d.subModuleID, d.vipLevel, d.coins, d.title, d.popularity, d.publishedAt)
	} else {
		err = tx.QueryRow(ctx, `INSERT INTO search_docs (kind, ref_id, module_id, sub_module_id, vip_level, coins, title, popularity, published_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, d.kind, d.refID, d.moduleID, d.subModuleID, d.vipLevel, d.coins, d.title, d.popularity, d.publishedAt).Scan(&id)
	}
	if err != nil {
		return err
	}
	title, body, facets := Tokens(d.title), Tokens(d.body), d.facets()
	if tx.Engine() == db.SQLite {
		_, err = tx.Exec(ctx, `INSERT INTO search_fts (rowid, title, body, facets) VALUES (?, ?, ?, ?)`,
			id, strings.Join(title, " "), strings.Join(body, " "), strings.Join(facets, " "))
		return err
	}
	// array_to_tsvector takes the tokens as they are (no parser, no
	// dictionary); it refuses empty elements, so empty lists become NULL
	// arrays and COALESCE keeps the tsvector non-null.
	_, err = tx.Exec(ctx, `INSERT INTO search_fts (id, tsv) VALUES (?,
		COALESCE(setweight(array_to_tsvector(string_to_array(NULLIF(?, ''), ' ')), 'A'), ''::tsvector) ||
		COALESCE(setweight(array_to_tsvector(string_to_array(NULLIF(?, ''), ' ')), 'B'), ''::tsvector) ||
		setweight(array_to_tsvector(string_to_array(?, ' ')), 'D'))`,
		id, strings.Join(title, " "), strings.Join(body, " "), strings.Join(facets, " "))
	return err
}
