// Package gen builds the bench catalogue: modules, sub-modules, tags and N
// videos with their tags, written straight into Prima's schema as fast as
// each engine takes rows.
//
// The catalogue is deterministic for a given N (one seeded random stream),
// except that creation times end at the moment of generation so "new this
// week" filters see a realistic share. Sub-module sizes are skewed (a Zipf-
// like spread from a few thousand to over a hundred thousand videos) because
// real catalogues are, and a uniform one would hide the cost of big scopes.
//
// Bulk loading drops the non-unique indexes of videos and video_tags, loads
// rows (multi-row INSERTs in large transactions on SQLite, COPY on
// PostgreSQL), then recreates exactly the indexes it dropped, read back from
// the engine's own catalogue so the generator follows the migrations without
// repeating them.
package gen

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"time"

	"prima/internal/platform/db"
)

// Version changes whenever the generated data changes shape, so cached data
// sets made by an older generator are rebuilt.
const Version = "gen-1"

// Report says what a generation did.
type Report struct {
	Engine    db.Engine
	Videos    int
	VideoTags int
	SubModule int           // sub-modules that hold videos
	Reused    bool          // the cached data set was used as is
	Load      time.Duration // inserting rows
	Index     time.Duration // recreating indexes, statistics
	Total     time.Duration
}

func (r Report) String() string {
	if r.Reused {
		return fmt.Sprintf("%s: reused cached catalogue of %d videos", r.Engine, r.Videos)
	}
	return fmt.Sprintf("%s: %d videos, %d video tags over %d sub-modules in %s (rows %s, indexes %s)",
		r.Engine, r.Videos, r.VideoTags, r.SubModule, r.Total.Round(100*time.Millisecond),
		r.Load.Round(100*time.Millisecond), r.Index.Round(100*time.Millisecond))
}

// Fingerprint identifies a data set: the generator version, the size and the
// engine's migration files (name and content), so a data set is reused only
// when the schema it was built on is the one Prima would build today.
// migrations is the internal/migrations directory.
func Fingerprint(migrations fs.FS, engine db.Engine, videos int) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%d\x00", Version, engine, videos)
	names, err := fs.Glob(migrations, string(engine)+"/*.sql")
	if err != nil {
		return "", err
	}
	if len(names) == 0 {
		return "", fmt.Errorf("no %s migrations found", engine)
	}
	sort.Strings(names)
	for _, n := range names {
		b, err := fs.ReadFile(migrations, n)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", n, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// module is a top-level module of the layout with its sub-modules' names.
type module struct {
	name   string
	typ    int // 0 home, 1 community, 2 dark, 3 image, 4 short video
	subs   []string
	videos bool // whether its sub-modules hold videos
}

var subSuffix = []string{"热门", "最新", "精选", "独家", "高清", "经典", "推荐", "排行"}

func subs(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + "·" + subSuffix[i%len(subSuffix)]
		if i >= len(subSuffix) {
			out[i] += strconv.Itoa(i/len(subSuffix) + 1)
		}
	}
	return out
}

// layout is the module tree: the tabs of the spec's client, with video
// sections under home, dark and short video; community and image modules
// exist (the client lists them) but their content lives in other tables.
var layout = []module{
	{"推荐", 0, subs("推荐", 8), true},
	{"国产", 0, subs("国产", 8), true},
	{"日韩", 0, subs("日韩", 8), true},
	{"欧美", 0, subs("欧美", 8), true},
	{"动漫", 0, subs("动漫", 8), true},
	{"社区", 1, []string{"推荐", "最新", "精华", "关注"}, false},
	{"暗网", 2, subs("暗网", 6), true},
	{"图集", 3, []string{"写真", "漫画", "壁纸", "插画"}, false},
	{"短视频", 4, []string{"搞笑", "颜值", "舞蹈", "音乐", "美食", "旅行", "萌宠", "生活"}, true},
}

var tagNames = []string{
	"剧情", "高清", "独家", "热门", "经典", "喜剧", "动作", "爱情", "科幻", "悬疑",
	"恐怖", "纪录", "动画", "音乐", "舞蹈", "美食", "旅行", "萌宠", "运动", "游戏",
	"搞笑", "励志", "校园", "都市", "古装", "武侠", "战争", "历史", "家庭", "青春",
	"犯罪", "奇幻", "冒险", "短片", "访谈", "综艺", "直播", "教学", "生活", "时尚",
}

var titleA = []string{"午夜", "深海", "城市", "边境", "最后的", "秘密", "失落的", "燃烧的", "沉默的", "遥远的", "破晓", "无尽的", "疯狂的", "温柔的", "孤独的", "危险的"}
var titleB = []string{"追踪", "旅程", "少年", "列车", "花园", "告白", "之夜", "对决", "迷宫", "信号", "回声", "约定", "风暴", "乐章", "猎人", "天空"}

// sub is a sub-module that holds videos, with its share of the catalogue.
type sub struct {
	id, moduleID int64
	short        bool // a short-video section: portrait, short clips
	weight       float64
}

// video is one generated row of the videos table.
type video struct {
	id                    int64
	title, cover          string
	duration              int
	playCount, likeCount  int64
	moduleID, subModuleID int64
	vipLevel              int
	coins                 int64
	width, height         int
	published             int
	createdAt             int64
	tags                  []int64
}

// source yields the catalogue's videos in id order from one seeded stream.
type source struct {
	rng   *rand.Rand
	subs  []sub
	cum   []float64 // cumulative weights of subs, for picking one
	n     int
	end   int64 // creation time of the newest video
	span  int64 // seconds between the oldest and the newest
	tagID []int64
	next  int64
	tags  []int64               // reused for each video's tags; a video is consumed before the next is made
	title func(id int64) string // when set, replaces the generated title (the search bench)
}

func newSource(n int, subs []sub, tagIDs []int64, end time.Time) *source {
	s := &source{rng: rand.New(rand.NewPCG(20261121, uint64(n))), subs: subs, n: n,
		end: end.Unix(), span: 2 * 365 * 24 * 3600, tagID: tagIDs}
	total := 0.0
	for _, sb := range subs {
		total += sb.weight
		s.cum = append(s.cum, total)
	}
	for i := range s.cum {
		s.cum[i] /= total
	}
	return s
}

// more reports whether another video is left.
func (s *source) more() bool { return s.next < int64(s.n) }

func (s *source) video() video {
	s.next++
	r := s.rng
	i := s.next
	sb := s.subs[sort.SearchFloat64s(s.cum, r.Float64())]
	if sb.id == 0 {
		panic("gen: unassigned sub-module")
	}
	v := video{id: i, moduleID: sb.moduleID, subModuleID: sb.id, published: 1, width: 1280, height: 720}
	v.title = fmt.Sprintf("%s%s 第%d集", titleA[r.IntN(len(titleA))], titleB[r.IntN(len(titleB))], 1+r.IntN(40))
	if s.title != nil {
		v.title = s.title(i)
	}
	v.cover = "/media/covers/" + strconv.Itoa(int(i%16)) + ".png"
	// Durations: a third short, half mid-length, the rest long; short-video
	// sections are all under a minute and portrait.
	switch d := r.Float64(); {
	case sb.short:
		v.duration, v.width, v.height = 8+r.IntN(52), 720, 1280
	case d < 0.3:
		v.duration = 30 + r.IntN(270)
	case d < 0.8:
		v.duration = 300 + r.IntN(900)
	default:
		v.duration = 1200 + r.IntN(6000)
	}
	// Plays are heavy-tailed (most videos few, a few very many); likes a
	// small, varying share of plays.
	v.playCount = int64(math.Exp(r.Float64() * 14))
	v.likeCount = int64(float64(v.playCount) * r.Float64() * 0.05)
	switch x := r.IntN(10); {
	case x < 7:
		v.vipLevel = 0
	case x < 9:
		v.vipLevel = 1
	default:
		v.vipLevel = 2
	}
	if r.IntN(5) == 0 {
		v.coins = int64(1+r.IntN(10)) * 10
	}
	if r.IntN(50) == 0 {
		v.published = 0 // drafts: 2%, which the listings must skip
	}
	// Ids follow creation order, with up to an hour of jitter so equal
	// timestamps and out-of-order ids both occur.
	v.createdAt = s.end - s.span*(int64(s.n)-i)/int64(s.n) - r.Int64N(3600)
	nt := [...]int{0, 0, 1, 1, 1, 2, 2, 2, 2, 3}[r.IntN(10)]
	v.tags = s.tags[:0]
	for len(v.tags) < nt {
		t := s.tagID[r.IntN(len(s.tagID))]
		dup := false
		for _, have := range v.tags {
			dup = dup || have == t
		}
		if !dup {
			v.tags = append(v.tags, t)
		}
	}
	s.tags = v.tags
	return v
}

// Generate fills d, a freshly migrated database holding no catalogue, with n
// videos. pgURL is d's connection URL on PostgreSQL (COPY needs its own
// connection) and ignored on SQLite. progress, when not nil, hears about
// each phase.
func Generate(ctx context.Context, d *db.DB, pgURL string, n int, progress func(string)) (Report, error) {
	return GenerateTitled(ctx, d, pgURL, n, nil, progress)
}

// GenerateTitled is Generate with video id's title made by title (when not
// nil); every other column is exactly what Generate makes. The search bench
// uses it to load its own titles through the same bulk path.
func GenerateTitled(ctx context.Context, d *db.DB, pgURL string, n int, title func(id int64) string, progress func(string)) (Report, error) {
	if progress == nil {
		progress = func(string) {}
	}
	rep := Report{Engine: d.Engine, Videos: n}
	start := time.Now()
	var have int
	if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM videos`).Scan(&have); err != nil {
		return rep, err
	}
	if have > 0 {
		return rep, fmt.Errorf("gen: the database already has %d videos; generate into an empty one", have)
	}
	now := time.Now()
	subs, tagIDs, err := writeTree(ctx, d, now.Unix())
	if err != nil {
		return rep, fmt.Errorf("modules: %w", err)
	}
	rep.SubModule = len(subs)
	src := newSource(n, subs, tagIDs, now)
	src.title = title

	dropped, err := dropIndexes(ctx, d)
	if err != nil {
		return rep, fmt.Errorf("drop indexes: %w", err)
	}
	progress(fmt.Sprintf("%s: loading %d videos (%d indexes dropped for the load)", d.Engine, n, len(dropped)))
	t0 := time.Now()
	if d.Engine == db.Postgres {
		rep.VideoTags, err = copyPostgres(ctx, pgURL, src)
	} else {
		rep.VideoTags, err = insertSQLite(ctx, d, src, progress)
	}
	if err != nil {
		return rep, fmt.Errorf("load: %w", err)
	}
	rep.Load = time.Since(t0)
	progress(fmt.Sprintf("%s: rows in %s; rebuilding %d indexes", d.Engine, rep.Load.Round(100*time.Millisecond), len(dropped)))

	t0 = time.Now()
	if err := finish(ctx, d, pgURL, dropped); err != nil {
		return rep, fmt.Errorf("indexes: %w", err)
	}
	rep.Index = time.Since(t0)
	rep.Total = time.Since(start)
	return rep, nil
}

// writeTree inserts the modules, sub-modules and tags and returns the
// sub-modules that take videos, weighted, and the tag ids.
func writeTree(ctx context.Context, d *db.DB, now int64) ([]sub, []int64, error) {
	var out []sub
	var tagIDs []int64
	err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		for i, m := range layout {
			var mid int64
			if err := tx.QueryRow(ctx, `INSERT INTO modules (pid, name, module_type, sort, created_at) VALUES (0, ?, ?, ?, ?) RETURNING id`,
				m.name, m.typ, i+1, now).Scan(&mid); err != nil {
				return err
			}
			for j, name := range m.subs {
				var sid int64
				if err := tx.QueryRow(ctx, `INSERT INTO modules (pid, name, module_type, sort, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
					mid, name, m.typ, j+1, now).Scan(&sid); err != nil {
					return err
				}
				if m.videos {
					out = append(out, sub{id: sid, moduleID: mid, short: m.typ == 4})
				}
			}
		}
		for i, name := range tagNames {
			var id int64
			if err := tx.QueryRow(ctx, `INSERT INTO tags (name, sort, created_at) VALUES (?, ?, ?) RETURNING id`, name, i+1, now).Scan(&id); err != nil {
				return err
			}
			tagIDs = append(tagIDs, id)
		}
		return nil
	})
	// Zipf-like shares, assigned in a shuffled order so the biggest
	// sections are not all in the first module.
	rng := rand.New(rand.NewPCG(7, 11))
	perm := rng.Perm(len(out))
	for i, p := range perm {
		out[p].weight = 1 / math.Pow(float64(i+1), 0.8)
	}
	return out, tagIDs, err
}

// index is a secondary index to drop before a bulk load and recreate after.
type index struct{ name, ddl string }

// bulkTables are the tables the generator loads in bulk.
var bulkTables = []string{"videos", "video_tags"}

// dropIndexes drops the non-unique secondary indexes of the bulk tables and
// returns their definitions. Primary keys and unique constraints stay: they
// are what keeps the load honest.
func dropIndexes(ctx context.Context, d *db.DB) ([]index, error) {
	var q string
	if d.Engine == db.Postgres {
		q = `SELECT i.relname, pg_get_indexdef(i.oid) FROM pg_index x
			JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
			WHERE t.relname IN (?, ?) AND NOT x.indisprimary AND NOT x.indisunique ORDER BY i.relname`
	} else {
		q = `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN (?, ?) AND sql IS NOT NULL
			AND sql NOT LIKE 'CREATE UNIQUE%' ORDER BY name`
	}
	rows, err := d.Query(ctx, q, bulkTables[0], bulkTables[1])
	if err != nil {
		return nil, err
	}
	var out []index
	for rows.Next() {
		var ix index
		if err := rows.Scan(&ix.name, &ix.ddl); err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, ix)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, ix := range out {
		if _, err := d.Exec(ctx, `DROP INDEX `+ix.name); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// finish recreates the dropped indexes and brings the database to the state
// a long-running install would be in.
func finish(ctx context.Context, d *db.DB, pgURL string, dropped []index) error {
	if d.Engine == db.Postgres {
		return finishPostgres(ctx, pgURL, dropped)
	}
	for _, ix := range dropped {
		if _, err := d.Exec(ctx, ix.ddl); err != nil {
			return fmt.Errorf("%s: %w", ix.name, err)
		}
	}
	// Fold the WAL into the database file so the bench starts from a
	// compact file and an empty log. No ANALYZE: Prima itself does not run
	// one, so the bench sees the plans a real install gets.
	_, err := d.Exec(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	return err
}

// MarkComplete records the fingerprint in bench_meta; it is written last,
// so a data set whose generation was interrupted is never reused.
func MarkComplete(ctx context.Context, d *db.DB, fingerprint string, rep Report) error {
	if _, err := d.Exec(ctx, `CREATE TABLE IF NOT EXISTS bench_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)`); err != nil {
		return err
	}
	for k, v := range map[string]string{
		"fingerprint": fingerprint,
		"videos":      strconv.Itoa(rep.Videos),
		"generated":   time.Now().UTC().Format(time.RFC3339),
		"took":        rep.Total.String(),
	} {
		if _, err := d.Exec(ctx, `DELETE FROM bench_meta WHERE k = ?`, k); err != nil {
			return err
		}
		if _, err := d.Exec(ctx, `INSERT INTO bench_meta (k, v) VALUES (?, ?)`, k, v); err != nil {
			return err
		}
	}
	return nil
}

// StoredFingerprint reads the fingerprint MarkComplete wrote; "" when the
// data set is incomplete or not the bench's.
func StoredFingerprint(ctx context.Context, d *db.DB) string {
	var fp string
	if err := d.QueryRow(ctx, `SELECT v FROM bench_meta WHERE k = 'fingerprint'`).Scan(&fp); err != nil {
		return ""
	}
	return fp
}
