package catalog

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"prima/internal/platform/audit"
	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// The operator's remote configuration (GET/POST /api/admin/source), the
// customer-service link (GET /api/app/im/whiteSign) and the application
// centre's click counts (POST /api/app/apps/click, GET /api/admin/apps/clicks).
// docs/architecture.md, *Support and information*, says why they look so.

// Limits of an operator's entry list.
const (
	MaxSourceEntries = 50
	maxEntryTitle    = 100
	maxEntryURL      = 2000 // an FAQ answer is carried in url
	maxEntryIcon     = 500
	maxEntryDesc     = 200
	maxEntryWeight   = 1_000_000
)

// SourceInput is one entry of POST /api/admin/source. An entry with the id
// of an existing entry of the same key updates it in place (its clicks
// stay with it); one without an id is new. URL may hold lines only for FAQ,
// whose answers it carries.
type SourceInput struct {
	ID     *int64 `json:"id"`
	Title  string `json:"title"`
	URL    string `json:"url" text:"multiline"`
	Weight int64  `json:"weight"`
	Icon   string `json:"icon"`
	Desc   string `json:"desc"`
}

// linkKeys are the keys whose entries are opened as links by the pages that
// read them, so their url must be one: an app path or an http(s) address.
var linkKeys = map[string]bool{"GROUP": true, "CUST": true, "APPS": true}

// titled are the keys whose entries are shown by their title.
var titled = map[string]bool{"GROUP": true, "FAQ": true, "APPS": true, "CUST": true}

func bad(tip, msg string) error { return invalid(tip, msg) }

// IsLink reports whether u is an app path ("/mine/help") or an absolute
// http(s) URL with a host: never javascript:, data: or a scheme-relative
// "//host" that would leave the app unannounced.
func IsLink(u string) bool {
	if strings.HasPrefix(u, "/") {
		return !strings.HasPrefix(u, "//") && !strings.ContainsAny(u, "\\ ")
	}
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.Host != "" && !strings.ContainsAny(u, " ")
}

// hasOtherScheme reports whether u is a URL of a scheme other than http(s).
func hasOtherScheme(u string) bool {
	p, err := url.Parse(u)
	return err == nil && p.Scheme != "" && p.Scheme != "http" && p.Scheme != "https"
}

// isIcon is an icon address: a /media/ path or an http(s) URL.
func isIcon(u string) bool {
	if strings.HasPrefix(u, "/") {
		return strings.HasPrefix(u, "/media/") && IsLink(u)
	}
	return IsLink(u)
}

// CheckSource validates a whole list for key and returns it trimmed.
func CheckSource(key string, in []SourceInput) ([]SourceInput, error) {
	if !isSourceKey(key) {
		return nil, bad("配置项不存在", "key must be one of the remote configuration keys")
	}
	if len(in) > MaxSourceEntries {
		return nil, bad(fmt.Sprintf("每个配置项最多 %d 条", MaxSourceEntries), "too many entries")
	}
	seen := map[int64]bool{}
	out := make([]SourceInput, len(in))
	for i, e := range in {
		n := i + 1
		e.Title, e.URL, e.Icon, e.Desc = strings.TrimSpace(e.Title), strings.TrimSpace(e.URL), strings.TrimSpace(e.Icon), strings.TrimSpace(e.Desc)
		if e.ID != nil {
			if *e.ID < 1 || *e.ID > httpx.MaxID {
				return nil, bad(fmt.Sprintf("第 %d 条的 id 无效", n), "id must be a positive entry id")
			}
			if seen[*e.ID] {
				return nil, bad(fmt.Sprintf("第 %d 条的 id 重复", n), "an id appears twice")
			}
			seen[*e.ID] = true
		}
		switch {
		case titled[key] && e.Title == "":
			return nil, bad(fmt.Sprintf("第 %d 条缺少标题", n), "title is required for "+key)
		case utf8.RuneCountInString(e.Title) > maxEntryTitle:
			return nil, bad(fmt.Sprintf("第 %d 条标题最多 %d 个字", n, maxEntryTitle), "title too long")
		case utf8.RuneCountInString(e.URL) > maxEntryURL:
			return nil, bad(fmt.Sprintf("第 %d 条内容最多 %d 个字", n, maxEntryURL), "url too long")
		case e.Weight < 0 || e.Weight > maxEntryWeight:
			return nil, bad("权重应在 0 到 1000000 之间", "weight out of range")
		}
		if key == "FAQ" {
			if e.URL == "" {
				return nil, bad(fmt.Sprintf("第 %d 条缺少答案", n), "an FAQ entry needs its answer in url")
			}
		} else {
			if strings.ContainsAny(e.URL, "\r\n\t") {
				return nil, bad(fmt.Sprintf("第 %d 条链接不能换行", n), "url holds a line break")
			}
			if linkKeys[key] && e.URL == "" {
				return nil, bad(fmt.Sprintf("第 %d 条缺少链接", n), "url is required for "+key)
			}
			if e.URL != "" && !IsLink(e.URL) && linkKeys[key] {
				return nil, bad(fmt.Sprintf("第 %d 条链接无效：请填写 http(s):// 地址或以 / 开头的应用内路径", n), "url must be an http(s) URL or an app path")
			}
			if e.URL != "" && !linkKeys[key] && hasOtherScheme(e.URL) {
				// Other keys may hold plain values ("12:30" too), but never a
				// link of another scheme (javascript:, data:).
				return nil, bad(fmt.Sprintf("第 %d 条链接无效：请填写 http(s):// 地址或以 / 开头的应用内路径", n), "url holds a non-http scheme")
			}
		}
		if key != "APPS" && (e.Icon != "" || e.Desc != "") {
			return nil, bad("只有应用（APPS）可以设置图标和简介", "icon and desc are for APPS entries")
		}
		if e.Icon != "" && (utf8.RuneCountInString(e.Icon) > maxEntryIcon || !isIcon(e.Icon)) {
			return nil, bad(fmt.Sprintf("第 %d 条图标地址无效", n), "icon must be an http(s) URL or a /media/ path")
		}
		if utf8.RuneCountInString(e.Desc) > maxEntryDesc {
			return nil, bad(fmt.Sprintf("第 %d 条简介最多 %d 个字", n, maxEntryDesc), "desc too long")
		}
		out[i] = e
	}
	return out, nil
}

// SourceKey is one key's list as the operator sees it.
type SourceKey struct {
	Key     string        `json:"key"`
	Entries []SourceEntry `json:"entries"`
}

// AdminSource is every key's list (key "") or one key's.
func (s *Service) AdminSource(ctx context.Context, key string) ([]SourceKey, error) {
	if key != "" && !isSourceKey(key) {
		return nil, bad("配置项不存在", "key must be one of the remote configuration keys")
	}
	all, err := sourceEntries(ctx, s.db)
	if err != nil {
		return nil, err
	}
	out := []SourceKey{}
	for _, k := range SourceKeys {
		if key != "" && k != key {
			continue
		}
		list := all[k]
		if list == nil {
			list = []SourceEntry{}
		}
		out = append(out, SourceKey{Key: k, Entries: list})
	}
	return out, nil
}

// SetSource replaces key's list with in, in order: entries given with an
// id of this key are updated in place, the others of the key deleted, new
// ones inserted. One transaction with its audit row ("source.set").
func (s *Service) SetSource(ctx context.Context, actor audit.Actor, key string, in []SourceInput) ([]SourceEntry, error) {
	in, err := CheckSource(key, in)
	if err != nil {
		return nil, err
	}
	var out []SourceEntry
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		tx.AfterCommit(s.Invalidate) // the public pages show it (pagecache)
		all, err := sourceEntries(ctx, tx)
		if err != nil {
			return err
		}
		before := all[key]
		mine := map[int64]bool{}
		for _, e := range before {
			mine[e.ID] = true
		}
		kept := map[int64]bool{}
		for i, e := range in {
			if e.ID == nil {
				if _, err := tx.Exec(ctx, `INSERT INTO source_entries (config_key, title, url, weight, sort, icon, description) VALUES (?, ?, ?, ?, ?, ?, ?)`,
					key, e.Title, e.URL, e.Weight, i, e.Icon, e.Desc); err != nil {
					return err
				}
				continue
			}
			if !mine[*e.ID] {
				return bad(fmt.Sprintf("第 %d 条的 id %d 不属于 %s", i+1, *e.ID, key), "id is not an entry of this key")
			}
			kept[*e.ID] = true
			if _, err := tx.Exec(ctx, `UPDATE source_entries SET title = ?, url = ?, weight = ?, sort = ?, icon = ?, description = ? WHERE id = ?`,
				e.Title, e.URL, e.Weight, i, e.Icon, e.Desc, *e.ID); err != nil {
				return err
			}
		}
		for _, e := range before {
			if !kept[e.ID] {
				if _, err := tx.Exec(ctx, `DELETE FROM source_entries WHERE id = ?`, e.ID); err != nil {
					return err
				}
			}
		}
		after, err := sourceEntries(ctx, tx)
		if err != nil {
			return err
		}
		out = after[key]
		if out == nil {
			out = []SourceEntry{}
		}
		if before == nil {
			before = []SourceEntry{}
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "source.set", TargetType: "source", TargetID: key,
			Before: before, After: out}, s.now())
	})
	return out, err
}

// CustomerService is the first CUST entry with a link.
func (s *Service) CustomerService(ctx context.Context) (SourceEntry, error) {
	all, err := sourceEntries(ctx, s.db)
	if err != nil {
		return SourceEntry{}, err
	}
	for _, e := range all["CUST"] {
		if e.URL != "" && IsLink(e.URL) {
			return e, nil
		}
	}
	return SourceEntry{}, ErrNoCustomerService
}

// AppClick counts one click on APPS entry id today; another key's entry or
// an unknown id is db.ErrNotFound.
func (s *Service) AppClick(ctx context.Context, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var key string
		err := tx.QueryRow(ctx, `SELECT config_key FROM source_entries WHERE id = ?`, id).Scan(&key)
		if err != nil || key != "APPS" {
			return db.ErrNotFound
		}
		_, err = tx.Exec(ctx, `INSERT INTO app_clicks (entry_id, day, clicks) VALUES (?, ?, 1)
			ON CONFLICT (entry_id, day) DO UPDATE SET clicks = app_clicks.clicks + 1`, id, days.Of(s.now()))
		return err
	})
}

// AppClicks is one app's clicks on one day; Title is "" for an entry the
// operator has since removed.
type AppClicks struct {
	ID     int64  `json:"id"`
	Title  string `json:"title"`
	Day    string `json:"day"`
	Clicks int64  `json:"clicks"`
}

// MaxClickDays bounds the days GET /api/admin/apps/clicks reaches back.
const MaxClickDays = 366

// AdminAppClicks lists the clicks of the last n days (today included),
// newest day first, most clicked first within a day.
func (s *Service) AdminAppClicks(ctx context.Context, n int) ([]AppClicks, error) {
	from := days.Of(s.now().AddDate(0, 0, -(n - 1)))
	return db.All(ctx, s.db, func(r db.Scanner) (AppClicks, error) {
		var c AppClicks
		err := r.Scan(&c.ID, &c.Title, &c.Day, &c.Clicks)
		return c, err
	}, `SELECT c.entry_id, COALESCE(e.title, ''), c.day, c.clicks FROM app_clicks c
		LEFT JOIN source_entries e ON e.id = c.entry_id
		WHERE c.day >= ? ORDER BY c.day DESC, c.clicks DESC, c.entry_id`, from)
}

// Handlers.

// AdminSource answers GET /api/admin/source?key=.
func (h *Handler) AdminSource(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	key := q.String("key")
	if err := q.Err(); err != nil {
		return err
	}
	out, err := h.s.AdminSource(r.Context(), key)
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, out)
}

// AdminSetSource answers POST /api/admin/source {key, entries}.
func (h *Handler) AdminSetSource(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Key     string        `json:"key"`
		Entries []SourceInput `json:"entries"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if in.Entries == nil {
		return httpx.Invalid("缺少参数 entries", "entries is required ([] empties the key)")
	}
	out, err := h.s.SetSource(r.Context(), audit.ActorFrom(r), in.Key, in.Entries)
	if err != nil {
		return adminErrs.Map(err)
	}
	return httpx.OK(w, SourceKey{Key: in.Key, Entries: out})
}

// CustomerService answers GET /api/app/im/whiteSign: {url, title}.
func (h *Handler) CustomerService(w http.ResponseWriter, r *http.Request) error {
	e, err := h.s.CustomerService(r.Context())
	if err != nil {
		return customerServiceErrs.Map(err)
	}
	return httpx.OK(w, map[string]string{"url": e.URL, "title": e.Title})
}

// AppClick answers POST /api/app/apps/click {id}. The client ignores its
// failures; a wrong id still gets a clear answer.
func (h *Handler) AppClick(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.DecodeID(w, r)
	if err != nil {
		return err
	}
	if err := h.s.AppClick(r.Context(), id); err != nil {
		return appClickErrs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"id": id})
}

// AdminAppClicks answers GET /api/admin/apps/clicks?days= (1..366, default 7).
func (h *Handler) AdminAppClicks(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	n := q.Int("days", 7, 1, MaxClickDays)
	if err := q.Err(); err != nil {
		return err
	}
	out, err := h.s.AdminAppClicks(r.Context(), int(n))
	if err != nil {
		return err
	}
	return httpx.OK(w, map[string]any{"days": n, "since": days.Of(h.s.now().AddDate(0, 0, -int(n-1))), "list": out})
}
