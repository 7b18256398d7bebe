package catalog

import (
	"context"
	"fmt"
	"strings"
	"time"

	"prima/internal/platform/db"
)

// The SQL of the catalog. Every list query names its columns and its order;
// the video listings are shaped to walk one index each (see 0002_catalog.sql).

// Module is a top-level module (a tab) with its sub-modules.
type Module struct {
	ID         int64       `json:"moduleID"`
	Name       string      `json:"moduleName"`
	Type       int         `json:"moduleType"`
	Sort       int         `json:"sort"`
	SubModules []SubModule `json:"subModules"`
}

// SubModule is a section of a module.
type SubModule struct {
	ID   int64  `json:"id"`
	Name string `json:"moduleName"`
	Type int    `json:"moduleType"`
	PID  int64  `json:"pid"`
	Sort int    `json:"sort"`
}

// Video is a video as lists show it.
type Video struct {
	ID          int64     `json:"id"`
	Title       string    `json:"title"`
	Cover       string    `json:"cover"`
	Duration    int       `json:"duration"`
	PlayCount   int64     `json:"playCount"`
	LikeCount   int64     `json:"likeCount"`
	Tags        []string  `json:"tags"`
	VipLevel    int       `json:"vipLevel"`
	Coins       int64     `json:"coins"`
	ModuleID    int64     `json:"moduleID"`
	SubModuleID int64     `json:"subModuleID"`
	CreatedAt   time.Time `json:"createdAt"`
}

// Tag is a video tag.
type Tag struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Sort int    `json:"sort"`
}

// Announcement is a notice shown on the home page.
type Announcement struct {
	ID      int64  `json:"id"`
	Title   string `json:"title"`
	Content string `json:"content"`
	Link    string `json:"link"`
}

// Ad is an advertisement in a named slot.
type Ad struct {
	ID       int64  `json:"id"`
	Title    string `json:"title"`
	Image    string `json:"image"`
	Link     string `json:"link"`
	Position string `json:"position"`
}

// SourceEntry is one item of a remote-configuration key.
type SourceEntry struct {
	// ID is the entry's row id: stable across the operator's edits of its
	// key (source_admin.go), so clicks on an APPS entry count to it.
	ID     int64  `json:"id"`
	Title  string `json:"title"`
	URL    string `json:"url"`
	Weight int    `json:"weight"`
	// Icon (an http(s) URL or a /media/ path) and Desc are used by APPS
	// entries (the application centre); other keys leave them empty.
	Icon string `json:"icon,omitempty"`
	Desc string `json:"desc,omitempty"`
}

// PreSale is a pre-sale banner.
type PreSale struct {
	Type   int    `json:"type"`
	Status int    `json:"status"`
	URL    string `json:"url"`
}

// Sort orders of moduleVideo (sortType).
const (
	SortNewest = 0
	SortPlayed = 1
	SortLiked  = 2
)

// Duration bands of moduleVideo (playTimeType), in seconds.
const (
	PlayTimeAny   = 0
	PlayTimeShort = 1 // under 5 min
	PlayTimeMid   = 2 // 5 to 20 min
	PlayTimeLong  = 3 // 20 min and over
)

// videoFilter is what a video listing selects: one scope (a sub-module when
// SubModuleID is set, else a module), a duration band and an optional
// earliest creation time.
type videoFilter struct {
	ModuleID    int64
	SubModuleID int64
	PlayTime    int
	Since       int64 // created_at >= Since when > 0
}

// cursor is the sort key of a row: where a keyset page starts after.
type cursor struct {
	Val int64
	ID  int64
}

// sortColumn is the column an order sorts by; ids break ties, newest first.
func sortColumn(sort int) string {
	switch sort {
	case SortPlayed:
		return "play_count"
	case SortLiked:
		return "like_count"
	default:
		return "created_at"
	}
}

// sortKey is v's value in the sort column.
func sortKey(v Video, sort int) cursor {
	switch sort {
	case SortPlayed:
		return cursor{v.PlayCount, v.ID}
	case SortLiked:
		return cursor{v.LikeCount, v.ID}
	default:
		return cursor{v.CreatedAt.Unix(), v.ID}
	}
}

// where builds the filter: the scope equality first, then `published = 1`
// written as a literal, because it is the partial indexes' predicate and a
// planner can only prove a parameter matches it by peeking at the value
// (PostgreSQL's generic plans for cached statements do not), then the
// filters the indexes cover.
func (f videoFilter) where() (string, []any) {
	var b strings.Builder
	var args []any
	if f.SubModuleID > 0 {
		b.WriteString("sub_module_id = ?")
		args = append(args, f.SubModuleID)
	} else {
		b.WriteString("module_id = ?")
		args = append(args, f.ModuleID)
	}
	b.WriteString(" AND published = 1")
	switch f.PlayTime {
	case PlayTimeShort:
		b.WriteString(" AND duration < 300")
	case PlayTimeMid:
		b.WriteString(" AND duration >= 300 AND duration < 1200")
	case PlayTimeLong:
		b.WriteString(" AND duration >= 1200")
	}
	if f.Since > 0 {
		b.WriteString(" AND created_at >= ?")
		args = append(args, f.Since)
	}
	return b.String(), args
}

const videoCols = "v.id, v.title, v.cover, v.duration, v.play_count, v.like_count, v.vip_level, v.coins, v.module_id, v.sub_module_id, v.created_at"

// listVideosOffset reads limit videos after skipping offset. The skip runs in
// a subquery that selects only ids, which the (scope, sort, id, duration,
// created_at) indexes cover, so a deep page walks index entries and reads
// just the page's rows from the table ("deferred join").
func listVideosOffset(ctx context.Context, q db.Querier, f videoFilter, sort, offset, limit int) ([]Video, error) {
	w, args := f.where()
	col := sortColumn(sort)
	query := "SELECT " + videoCols + " FROM videos v JOIN (SELECT id FROM videos WHERE " + w +
		" ORDER BY " + col + " DESC, id DESC LIMIT ? OFFSET ?) p ON p.id = v.id ORDER BY v." + col + " DESC, v.id DESC"
	args = append(args, limit, offset)
	return db.All(ctx, q, scanVideo, query, args...)
}

// listVideosAfter reads limit videos that sort after c: a keyset page, an
// index range that starts at c whatever the depth.
func listVideosAfter(ctx context.Context, q db.Querier, f videoFilter, sort int, c cursor, limit int) ([]Video, error) {
	w, args := f.where()
	col := sortColumn(sort)
	query := "SELECT " + videoCols + " FROM videos v WHERE " + w + " AND (" + col + ", id) < (?, ?) ORDER BY " + col + " DESC, id DESC LIMIT ?"
	args = append(args, c.Val, c.ID, limit)
	return db.All(ctx, q, scanVideo, query, args...)
}

// countVideos counts the filter's videos up to limit, so a scope of a
// million rows costs at most limit index entries.
func countVideos(ctx context.Context, q db.Querier, f videoFilter, limit int) (int, error) {
	w, args := f.where()
	var n int
	err := q.QueryRow(ctx, "SELECT COUNT(*) FROM (SELECT 1 FROM videos WHERE "+w+" LIMIT ?) c", append(args, limit)...).Scan(&n)
	return n, err
}

// sectionVideos reads the newest n videos of each sub-module in one round
// trip: one index range per section, glued with UNION ALL.
func sectionVideos(ctx context.Context, q db.Querier, subIDs []int64, n int) (map[int64][]Video, error) {
	out := make(map[int64][]Video, len(subIDs))
	if len(subIDs) == 0 || n <= 0 {
		return out, nil
	}
	parts := make([]string, len(subIDs))
	args := make([]any, 0, 2*len(subIDs))
	for i, id := range subIDs {
		parts[i] = fmt.Sprintf("SELECT * FROM (SELECT %s FROM videos v WHERE v.sub_module_id = ? AND v.published = 1 ORDER BY v.created_at DESC, v.id DESC LIMIT ?) s%d", videoCols, i)
		args = append(args, id, n)
	}
	vs, err := db.All(ctx, q, scanVideo, strings.Join(parts, " UNION ALL "), args...)
	if err != nil {
		return nil, err
	}
	for _, v := range vs {
		out[v.SubModuleID] = append(out[v.SubModuleID], v)
	}
	return out, nil
}

func scanVideo(r db.Scanner) (Video, error) {
	var v Video
	var created int64
	err := r.Scan(&v.ID, &v.Title, &v.Cover, &v.Duration, &v.PlayCount, &v.LikeCount, &v.VipLevel, &v.Coins, &v.ModuleID, &v.SubModuleID, &created)
	v.CreatedAt = time.Unix(created, 0).UTC()
	v.Tags = []string{}
	return v, err
}

// attachTags fills in the tag names of vs with one query, in tag order.
func attachTags(ctx context.Context, q db.Querier, vs []Video) error {
	if len(vs) == 0 {
		return nil
	}
	idx := make(map[int64][]int, len(vs))
	args := make([]any, 0, len(vs))
	for i, v := range vs {
		if _, seen := idx[v.ID]; !seen {
			args = append(args, v.ID)
		}
		idx[v.ID] = append(idx[v.ID], i)
	}
	query := "SELECT vt.video_id, t.name FROM video_tags vt JOIN tags t ON t.id = vt.tag_id WHERE vt.video_id IN (" +
		db.Placeholders(len(args)) + ") ORDER BY vt.video_id, t.sort, t.id"
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return err
		}
		for _, i := range idx[id] {
			vs[i].Tags = append(vs[i].Tags, name)
		}
	}
	return rows.Err()
}

// topModules reads the top-level modules, of one type when moduleType >= 0.
func topModules(ctx context.Context, q db.Querier, moduleType int) ([]Module, error) {
	query := "SELECT id, name, module_type, sort FROM modules WHERE pid = 0"
	var args []any
	if moduleType >= 0 {
		query += " AND module_type = ?"
		args = append(args, moduleType)
	}
	return db.All(ctx, q, func(r db.Scanner) (Module, error) {
		m := Module{SubModules: []SubModule{}}
		err := r.Scan(&m.ID, &m.Name, &m.Type, &m.Sort)
		return m, err
	}, query+" ORDER BY sort, id", args...)
}

// subModules reads the sub-modules of the given parents (all parents when
// pids is empty), each parent's in sort order.
func subModules(ctx context.Context, q db.Querier, pids []int64) ([]SubModule, error) {
	query := "SELECT id, name, module_type, pid, sort FROM modules WHERE pid <> 0"
	args := make([]any, 0, len(pids))
	if len(pids) > 0 {
		query = "SELECT id, name, module_type, pid, sort FROM modules WHERE pid IN (" + db.Placeholders(len(pids)) + ")"
		for _, p := range pids {
			args = append(args, p)
		}
	}
	return db.All(ctx, q, scanSubModule, query+" ORDER BY pid, sort, id", args...)
}

func scanSubModule(r db.Scanner) (SubModule, error) {
	var s SubModule
	err := r.Scan(&s.ID, &s.Name, &s.Type, &s.PID, &s.Sort)
	return s, err
}

// moduleRow reads one module of either level; db.ErrNotFound when absent.
func moduleRow(ctx context.Context, q db.Querier, id int64) (SubModule, error) {
	m, err := scanSubModule(q.QueryRow(ctx, "SELECT id, name, module_type, pid, sort FROM modules WHERE id = ?", id))
	return m, db.NotFound(err)
}

// subModulePage reads one page of a module's sub-modules and how many it has.
func subModulePage(ctx context.Context, q db.Querier, pid int64, offset, limit int) ([]SubModule, int, error) {
	var total int
	if err := q.QueryRow(ctx, "SELECT COUNT(*) FROM modules WHERE pid = ?", pid).Scan(&total); err != nil {
		return nil, 0, err
	}
	subs, err := db.All(ctx, q, scanSubModule, "SELECT id, name, module_type, pid, sort FROM modules WHERE pid = ? ORDER BY sort, id LIMIT ? OFFSET ?", pid, limit, offset)
	return subs, total, err
}

func listTags(ctx context.Context, q db.Querier) ([]Tag, error) {
	return db.All(ctx, q, func(r db.Scanner) (Tag, error) {
		var t Tag
		err := r.Scan(&t.ID, &t.Name, &t.Sort)
		return t, err
	}, "SELECT id, name, sort FROM tags ORDER BY sort, id")
}

// currentAnnouncements are those whose window holds now.
func currentAnnouncements(ctx context.Context, q db.Querier, now int64) ([]Announcement, error) {
	return db.All(ctx, q, func(r db.Scanner) (Announcement, error) {
		var a Announcement
		err := r.Scan(&a.ID, &a.Title, &a.Content, &a.Link)
		return a, err
	}, "SELECT id, title, content, link FROM announcements WHERE starts_at <= ? AND (ends_at = 0 OR ends_at > ?) ORDER BY sort, id DESC", now, now)
}

// currentAds are the ads whose window holds now, by slot then sort.
func currentAds(ctx context.Context, q db.Querier, now int64) ([]Ad, error) {
	return db.All(ctx, q, func(r db.Scanner) (Ad, error) {
		var a Ad
		err := r.Scan(&a.ID, &a.Title, &a.Image, &a.Link, &a.Position)
		return a, err
	}, "SELECT id, title, image, link, position FROM ads WHERE starts_at <= ? AND (ends_at = 0 OR ends_at > ?) ORDER BY position, sort, id", now, now)
}

// countAdClick adds one to an ad's clicks; it reports db.ErrNotFound for an
// unknown ad. One UPDATE, so concurrent clicks are all counted.
func countAdClick(ctx context.Context, q db.Querier, id int64) error {
	res, err := q.Exec(ctx, "UPDATE ads SET clicks = clicks + 1 WHERE id = ?", id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return db.ErrNotFound
	}
	return nil
}

// sourceEntries reads every remote-configuration entry grouped by key.
func sourceEntries(ctx context.Context, q db.Querier) (map[string][]SourceEntry, error) {
	rows, err := q.Query(ctx, "SELECT config_key, id, title, url, weight, icon, description FROM source_entries ORDER BY config_key, sort, id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]SourceEntry{}
	for rows.Next() {
		var k string
		var e SourceEntry
		if err := rows.Scan(&k, &e.ID, &e.Title, &e.URL, &e.Weight, &e.Icon, &e.Desc); err != nil {
			return nil, err
		}
		out[k] = append(out[k], e)
	}
	return out, rows.Err()
}

func preSaleEntries(ctx context.Context, q db.Querier) ([]PreSale, error) {
	return db.All(ctx, q, func(r db.Scanner) (PreSale, error) {
		var p PreSale
		err := r.Scan(&p.Type, &p.Status, &p.URL)
		return p, err
	}, "SELECT type, status, url FROM presale_entries ORDER BY sort, id")
}

// Writes. The seed (and later the operator's API) builds the catalogue with
// these inside one transaction; INSERT ... RETURNING needs the write
// connection, hence *db.Tx.

// NewVideo is a video to insert.
type NewVideo struct {
	Title       string
	Cover       string
	Duration    int
	PlayCount   int64
	LikeCount   int64
	ModuleID    int64
	SubModuleID int64
	VipLevel    int
	Coins       int64
	Width       int
	Height      int
	Published   bool
	CreatedAt   int64
}

// InsertModule adds a module (pid 0) or a sub-module and returns its id.
func InsertModule(ctx context.Context, tx *db.Tx, pid int64, name string, moduleType, sort int, now int64) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, "INSERT INTO modules (pid, name, module_type, sort, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
		pid, name, moduleType, sort, now).Scan(&id)
	return id, err
}

// InsertVideo adds a video and returns its id.
func InsertVideo(ctx context.Context, tx *db.Tx, v NewVideo) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, `INSERT INTO videos (title, cover, duration, play_count, like_count, module_id, sub_module_id, vip_level, coins, width, height, published, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		v.Title, v.Cover, v.Duration, v.PlayCount, v.LikeCount, v.ModuleID, v.SubModuleID, v.VipLevel, v.Coins, v.Width, v.Height, db.BoolInt(v.Published), v.CreatedAt, v.CreatedAt).Scan(&id)
	return id, err
}

// SetVideoCover points a video at its cover image.
func SetVideoCover(ctx context.Context, tx *db.Tx, id int64, cover string) error {
	_, err := tx.Exec(ctx, "UPDATE videos SET cover = ? WHERE id = ?", cover, id)
	return err
}

// InsertTag adds a tag and returns its id.
func InsertTag(ctx context.Context, tx *db.Tx, name string, sort int, now int64) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, "INSERT INTO tags (name, sort, created_at) VALUES (?, ?, ?) RETURNING id", name, sort, now).Scan(&id)
	return id, err
}

// TagVideo attaches a tag to a video.
func TagVideo(ctx context.Context, tx *db.Tx, videoID, tagID int64) error {
	_, err := tx.Exec(ctx, "INSERT INTO video_tags (video_id, tag_id) VALUES (?, ?)", videoID, tagID)
	return err
}

// InsertAnnouncement adds an announcement shown from startsAt until endsAt (0: no end).
func InsertAnnouncement(ctx context.Context, tx *db.Tx, a Announcement, sort int, startsAt, endsAt, now int64) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, "INSERT INTO announcements (title, content, link, sort, starts_at, ends_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
		a.Title, a.Content, a.Link, sort, startsAt, endsAt, now).Scan(&id)
	return id, err
}

// InsertAd adds an ad shown from startsAt until endsAt (0: no end).
func InsertAd(ctx context.Context, tx *db.Tx, a Ad, sort int, startsAt, endsAt, now int64) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, "INSERT INTO ads (title, image, link, position, sort, starts_at, ends_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
		a.Title, a.Image, a.Link, a.Position, sort, startsAt, endsAt, now).Scan(&id)
	return id, err
}

// InsertSourceEntry adds an entry to a remote-configuration key.
func InsertSourceEntry(ctx context.Context, tx *db.Tx, key string, e SourceEntry, sort int) error {
	if !isSourceKey(key) {
		return fmt.Errorf("catalog: unknown remote configuration key %q", key)
	}
	_, err := tx.Exec(ctx, "INSERT INTO source_entries (config_key, title, url, weight, sort, icon, description) VALUES (?, ?, ?, ?, ?, ?, ?)",
		key, e.Title, e.URL, e.Weight, sort, e.Icon, e.Desc)
	return err
}

// InsertPreSale adds a pre-sale banner.
func InsertPreSale(ctx context.Context, tx *db.Tx, p PreSale, sort int) error {
	_, err := tx.Exec(ctx, "INSERT INTO presale_entries (type, status, url, sort) VALUES (?, ?, ?, ?)", p.Type, p.Status, p.URL, sort)
	return err
}

// CountAllVideos counts every video, published or not.
func CountAllVideos(ctx context.Context, q db.Querier) (int, error) {
	var n int
	err := q.QueryRow(ctx, "SELECT COUNT(*) FROM videos").Scan(&n)
	return n, err
}

// ModuleKind is module id's parent (0 for a top-level module) and type,
// db.ErrNotFound when there is none, read on q: what galleries and
// community posts check the module they are filed under against.
func ModuleKind(ctx context.Context, q db.Querier, id int64) (pid int64, moduleType int, err error) {
	err = q.QueryRow(ctx, `SELECT pid, module_type FROM modules WHERE id = ?`, id).Scan(&pid, &moduleType)
	return pid, moduleType, db.NotFound(err)
}
