// Package catalog serves what the client browses: modules and their
// sections, video listings, tags, announcements, ads and the remote
// configuration it reads at start.
package catalog

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/url"
	"strings"
	"sync"
	"time"

	"prima/internal/membership"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/pagecache"
	"prima/internal/platform/realtime"
)

// Options are the operator settings the catalog reports to clients.
type Options struct {
	Gate      string // off, mobile or ios
	GateURL   string // where a gated device is sent; empty: the QR hand-off page
	PublicURL string // the address phones open; empty: the request's own origin
}

// Window is how deep a video listing pages: the first Window videos of any
// listing are reachable, which is far more than anyone scrolls on a phone,
// and it bounds the cost of both a deep page and a count (docs/design.md:
// lists have a bounded page size and depth).
const Window = httpx.PageWindow

// Listing limits.
const (
	MaxPageSize    = httpx.MaxPageSize
	MaxSectionSize = 12 // pSize: videos per section
	countTTL       = 30 * time.Second
	anchorTTL      = 10 * time.Minute
	cacheEntries   = 8192
)

// ErrMismatch is returned when a sub-module is asked for under a module it
// does not belong to.
var ErrMismatch = errors.New("catalog: sub-module not in module")

// Service holds the catalog's rules.
type Service struct {
	db   *db.DB
	opts Options
	now  func() time.Time
	// intn picks the batch of a section change; tests replace it.
	intn func(n int) int

	// counts caches listing totals: counting is the expensive part of a
	// listing and a total a few seconds old is fine for a pager.
	counts *ttlCache[countKey, int]
	// anchors remembers where the next page of a listing starts, so a
	// client scrolling page after page gets keyset pages (an index range
	// from the last row) instead of re-skipping everything before it. It is
	// only a shortcut: any node without the anchor answers by offset.
	anchors *ttlCache[pageKey, cursor]
	// mineAnchors does the same for users' likes, favourites and history.
	mineAnchors *ttlCache[mineKey, cursor]
	// moduleCounts holds the operators' per-sub-module video counts
	// (admin_modules.go) for moduleCountTTL; Invalidate drops them.
	moduleCounts *ttlCache[int, map[int64][2]int]

	// Access decides who may watch what; Media hands out playback URLs.
	// NewService sets membership's rules with no tiers and no purchases
	// (the app replaces them with rules over account's tiers and the
	// wallet's purchases) and NoMedia (the media package replaces it).
	Access Entitlements
	Media  PlaybackSource
	// Covers makes uploaded pictures into public covers for the operator
	// calls (admin.go); internal/media replaces the default, which has none.
	Covers CoverStore
	// Events tells the uploader of a liked video (like notices,
	// interact.go); nil publishes nothing, the notice is still written.
	Events realtime.Publisher
	// Follows answers a video's uploader.isFollow (the community's
	// follows); nil answers false.
	Follows Follows
	// Uploads and People find a video's uploader (uploads.go); NewService
	// sets none of either (the app wires internal/media and account.Cards).
	Uploads Uploads
	People  People
	// historyLimit is HistoryLimit; tests lower it.
	historyLimit int
	// lines caches the delivery lines (lines.go).
	lines linesCache
	// Pages keeps the public calls' encoded answers (http.go); nil serves
	// every call from the database. Every write that changes what they
	// show ends in Invalidate, which drops them.
	Pages *pagecache.Cache
}

// Follows answers whether follower follows followee (community.Service).
type Follows interface {
	IsFollowing(ctx context.Context, follower, followee int64) (bool, error)
}

// NewService builds the catalog over d.
func NewService(d *db.DB, opts Options) *Service {
	s := &Service{
		db:      d,
		opts:    opts,
		now:     time.Now,
		intn:    rand.IntN,
		counts:  newTTLCache[countKey, int](countTTL, cacheEntries),
		anchors: newTTLCache[pageKey, cursor](anchorTTL, cacheEntries),

		mineAnchors:  newTTLCache[mineKey, cursor](anchorTTL, cacheEntries),
		moduleCounts: newTTLCache[int, map[int64][2]int](moduleCountTTL, 1),
		Access:       membership.NewService(d, membership.NoTiers, membership.NoPurchases{}),
		Media:        NoMedia{},
		Covers:       noCovers{},
		Uploads:      noUploads{},
		People:       noPeople,
		historyLimit: HistoryLimit,
	}
	// The caches expire on the service's clock, which tests move.
	clock := func() time.Time { return s.now() }
	s.counts.now, s.anchors.now, s.mineAnchors.now = clock, clock, clock
	return s
}

// Modules lists the top-level modules in sort order, each with its
// sub-modules; moduleType < 0 means every type.
func (s *Service) Modules(ctx context.Context, moduleType int) ([]Module, error) {
	ms, err := topModules(ctx, s.db, moduleType)
	if err != nil || len(ms) == 0 {
		return ms, err
	}
	pids := make([]int64, len(ms))
	at := make(map[int64]int, len(ms))
	for i, m := range ms {
		pids[i] = m.ID
		at[m.ID] = i
	}
	subs, err := subModules(ctx, s.db, pids)
	if err != nil {
		return nil, err
	}
	for _, sm := range subs {
		i := at[sm.PID]
		ms[i].SubModules = append(ms[i].SubModules, sm)
	}
	return ms, nil
}

// ChildModules lists a top-level module's sub-modules; db.ErrNotFound when
// pid is not a top-level module.
func (s *Service) ChildModules(ctx context.Context, pid int64) ([]SubModule, error) {
	if _, err := s.topModule(ctx, pid); err != nil {
		return nil, err
	}
	return subModules(ctx, s.db, []int64{pid})
}

// topModule reads a top-level module; db.ErrNotFound for a sub-module id too.
func (s *Service) topModule(ctx context.Context, id int64) (SubModule, error) {
	m, err := moduleRow(ctx, s.db, id)
	if err == nil && m.PID != 0 {
		err = db.ErrNotFound
	}
	return m, err
}

// subModule reads a sub-module; db.ErrNotFound for a top-level id too.
func (s *Service) subModule(ctx context.Context, id int64) (SubModule, error) {
	m, err := moduleRow(ctx, s.db, id)
	if err == nil && m.PID == 0 {
		err = db.ErrNotFound
	}
	return m, err
}

// AdClick counts a click on an ad, for the operator's reports.
func (s *Service) AdClick(ctx context.Context, id int64) error {
	return s.countAdClickDay(ctx, id) // admin_ads.go: the total and today's count
}

// Announcements are the announcements showing now.
func (s *Service) Announcements(ctx context.Context) ([]Announcement, error) {
	return currentAnnouncements(ctx, s.db, s.now().Unix())
}

// Tags lists every tag in sort order.
func (s *Service) Tags(ctx context.Context) ([]Tag, error) {
	return listTags(ctx, s.db)
}

// VideoQuery is a moduleVideo request, already range-checked by the handler.
type VideoQuery struct {
	ModuleID    int64
	SubModuleID int64
	PageNumber  int
	PageSize    int
	Sort        int // SortNewest, SortPlayed, SortLiked
	PlayTime    int // PlayTimeAny ... PlayTimeLong
	News        int // 0 any, 1 published in the last 7 days
}

type countKey struct {
	ModuleID, SubModuleID int64
	PlayTime, News        int
}

type pageKey struct {
	countKey
	Sort, PageSize, PageNumber int
}

// ModuleVideos lists one page of a module's or a sub-module's videos.
//
// Pages within Window are served by offset through the covering indexes,
// unless this node served the previous page recently: then the page is read
// by keyset from that page's last row, which costs the same at page 400 as
// at page 2 and does not repeat a video when new ones arrive mid-scroll.
func (s *Service) ModuleVideos(ctx context.Context, q VideoQuery) (httpx.Page[Video], error) {
	page := httpx.Page[Video]{List: []Video{}, PageNumber: q.PageNumber, PageSize: q.PageSize}
	if q.SubModuleID > 0 {
		sm, err := s.subModule(ctx, q.SubModuleID)
		if err != nil {
			return page, err
		}
		if q.ModuleID > 0 && sm.PID != q.ModuleID {
			return page, ErrMismatch
		}
		q.ModuleID = 0 // the sub-module is the narrower scope; its index serves it
	} else if _, err := s.topModule(ctx, q.ModuleID); err != nil {
		return page, err
	}

	f := videoFilter{ModuleID: q.ModuleID, SubModuleID: q.SubModuleID, PlayTime: q.PlayTime}
	if q.News == 1 {
		f.Since = s.now().Add(-7 * 24 * time.Hour).Unix()
	}
	ck := countKey{q.ModuleID, q.SubModuleID, q.PlayTime, q.News}
	total, err := s.count(ctx, ck, f)
	if err != nil {
		return page, err
	}

	offset := (q.PageNumber - 1) * q.PageSize
	limit := min(q.PageSize, Window-offset)
	if limit <= 0 {
		page.Total = total
		return page, nil
	}
	// One row more than the page says whether another page exists.
	pk := pageKey{ck, q.Sort, q.PageSize, q.PageNumber}
	var vs []Video
	if c, ok := s.anchors.get(pk); ok {
		vs, err = listVideosAfter(ctx, s.db, f, q.Sort, c, limit+1)
	} else {
		vs, err = listVideosOffset(ctx, s.db, f, q.Sort, offset, limit+1)
	}
	if err != nil {
		return page, err
	}
	more := len(vs) > limit
	if more {
		vs = vs[:limit]
	}
	page.HasMore = more && offset+len(vs) < Window
	if page.HasMore {
		next := pk
		next.PageNumber++
		s.anchors.put(next, sortKey(vs[len(vs)-1], q.Sort))
	}
	if err := attachTags(ctx, s.db, vs); err != nil {
		return page, err
	}
	page.List = vs
	// The cached total may trail inserts; never report fewer than this page
	// shows to exist.
	page.Total = total
	if len(vs) > 0 {
		page.Total = max(total, offset+len(vs)+db.BoolInt(page.HasMore))
	}
	return page, nil
}

// count is the listing's total, capped at Window and cached for countTTL.
func (s *Service) count(ctx context.Context, k countKey, f videoFilter) (int, error) {
	if n, ok := s.counts.get(k); ok {
		return n, nil
	}
	n, err := countVideos(ctx, s.db, f, Window)
	if err != nil {
		return 0, err
	}
	s.counts.put(k, n)
	return n, nil
}

// Section is a sub-module with its first videos, as the home page shows it.
type Section struct {
	ID       int64   `json:"id"`
	Name     string  `json:"moduleName"`
	ModuleID int64   `json:"moduleID"`
	Videos   []Video `json:"videos"`
}

// ModuleSections lists a page of a module's sections, each with its newest
// pSize videos.
func (s *Service) ModuleSections(ctx context.Context, moduleID int64, pageNumber, pageSize, pSize int) (httpx.Page[Section], error) {
	page := httpx.Page[Section]{List: []Section{}, PageNumber: pageNumber, PageSize: pageSize}
	if _, err := s.topModule(ctx, moduleID); err != nil {
		return page, err
	}
	offset := (pageNumber - 1) * pageSize
	subs, total, err := subModulePage(ctx, s.db, moduleID, offset, pageSize)
	if err != nil {
		return page, err
	}
	ids := make([]int64, len(subs))
	for i, sm := range subs {
		ids[i] = sm.ID
	}
	byID, err := sectionVideos(ctx, s.db, ids, pSize)
	if err != nil {
		return page, err
	}
	var all []Video
	for _, sm := range subs {
		all = append(all, byID[sm.ID]...)
	}
	if err := attachTags(ctx, s.db, all); err != nil {
		return page, err
	}
	for _, sm := range subs {
		sec := Section{ID: sm.ID, Name: sm.Name, ModuleID: sm.PID, Videos: []Video{}}
		n := len(byID[sm.ID])
		sec.Videos = append(sec.Videos, all[:n]...)
		all = all[n:]
		page.List = append(page.List, sec)
	}
	page.Total = total
	page.HasMore = offset+len(subs) < total
	return page, nil
}

// SectionChange returns another batch of a section's videos ("换一批"):
// pageSize consecutive videos (newest first, within the newest Window) from
// a random start after the first video, so consecutive calls show different
// videos without the server remembering what a client saw.
func (s *Service) SectionChange(ctx context.Context, subModuleID int64, pageSize int) ([]Video, error) {
	if _, err := s.subModule(ctx, subModuleID); err != nil {
		return nil, err
	}
	f := videoFilter{SubModuleID: subModuleID}
	n, err := s.count(ctx, countKey{SubModuleID: subModuleID}, f)
	if err != nil {
		return nil, err
	}
	// Any window but the first (which the section already shows), starting
	// anywhere: page-aligned batches of a small section repeat too often for
	// "换一批" to look like it did anything.
	offset := 0
	if n > pageSize {
		offset = 1 + s.intn(n-pageSize)
	}
	vs, err := listVideosOffset(ctx, s.db, f, SortNewest, offset, pageSize)
	if err != nil {
		return nil, err
	}
	return vs, attachTags(ctx, s.db, vs)
}

// SourceKeys are the remote-configuration keys of the spec (§3), each
// reported as a list even when empty so the client can read any of them.
var SourceKeys = []string{"APPNAME", "OFFICALWEBSITEADDRESS", "COMMUNITYLAYOUT", "GROUP", "CUST", "GUIDE", "IMAGE", "VID",
	"LAND", "PROXYRULE", "FAQ", "QRCODE", "WELFARE", "ACT", "AppStore", "VIPCARD", "MODULESELECTINDEX", "ANDROIDVERSION",
	"IOSVERSION", "UP", "NAVOPEN",
	// Prima's own: the application centre's apps (title, url, icon, desc).
	"APPS"}

func isSourceKey(k string) bool {
	for _, s := range SourceKeys {
		if s == k {
			return true
		}
	}
	return false
}

// Gate is the platform gate as the client needs it.
type Gate struct {
	Mode        string `json:"mode"`
	RedirectURL string `json:"redirectURL"`
	PublicURL   string `json:"publicURL"`
}

// Source is the remote configuration: the SourceKeys, pre-sale banners, the
// gate and the ads, as one JSON object.
func (s *Service) Source(ctx context.Context, origin string) (map[string]any, error) {
	entries, err := sourceEntries(ctx, s.db)
	if err != nil {
		return nil, err
	}
	pre, err := preSaleEntries(ctx, s.db)
	if err != nil {
		return nil, err
	}
	ads, err := currentAds(ctx, s.db, s.now().Unix())
	if err != nil {
		return nil, err
	}
	out := make(map[string]any, len(SourceKeys)+3)
	for _, k := range SourceKeys {
		list := entries[k]
		if list == nil {
			list = []SourceEntry{}
		}
		out[k] = list
	}
	mode := s.opts.Gate
	if mode == "" {
		mode = "off"
	}
	out["preSaleConfig"] = pre
	out["ads"] = ads
	out["gate"] = Gate{Mode: mode, RedirectURL: s.opts.GateURL, PublicURL: s.publicOrigin(origin)}
	return out, nil
}

// Domains are the delivery lines handed to clients: API lines in the order
// they are tried, media lines to race, and fallback sources.
type Domains struct {
	API      []string `json:"api"`
	Image    []string `json:"image"`
	Video    []string `json:"video"`
	Fallback []string `json:"fallback"`
}

// Domains lists the lines the client may use: the operator's lists, and
// for any list left empty this server's origin (the configured public URL,
// else the request's own), so a single-origin install needs no setup.
func (s *Service) Domains(ctx context.Context, origin string) (Domains, error) {
	l, err := s.Lines(ctx)
	if err != nil {
		return Domains{}, err
	}
	o := s.publicOrigin(origin)
	or := func(list []string) []string {
		if len(list) == 0 {
			return []string{o}
		}
		return list
	}
	return Domains{API: or(l.API), Image: or(l.Image), Video: or(l.Video), Fallback: l.Fallback}, nil
}

// publicOrigin is the configured public URL's origin (scheme://host[:port])
// or else the request's.
func (s *Service) publicOrigin(origin string) string {
	if s.opts.PublicURL != "" {
		if u, err := url.Parse(s.opts.PublicURL); err == nil && u.Scheme != "" && u.Host != "" {
			return strings.ToLower(u.Scheme) + "://" + u.Host
		}
	}
	return origin
}

// ttlCache is a small concurrent map whose entries expire. When full it
// first drops expired entries and, if that is not enough, starts over: the
// values are only shortcuts, so losing them costs a query, never a result.
type ttlCache[K comparable, V any] struct {
	mu  sync.Mutex
	ttl time.Duration
	max int
	m   map[K]ttlEntry[V]
	now func() time.Time
}

type ttlEntry[V any] struct {
	v   V
	exp time.Time
}

func newTTLCache[K comparable, V any](ttl time.Duration, max int) *ttlCache[K, V] {
	return &ttlCache[K, V]{ttl: ttl, max: max, m: make(map[K]ttlEntry[V]), now: time.Now}
}

func (c *ttlCache[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || c.now().After(e.exp) {
		var zero V
		return zero, false
	}
	return e.v, true
}

func (c *ttlCache[K, V]) put(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if len(c.m) >= c.max {
		for k, e := range c.m {
			if now.After(e.exp) {
				delete(c.m, k)
			}
		}
		if len(c.m) >= c.max {
			clear(c.m)
		}
	}
	c.m[k] = ttlEntry[V]{v: v, exp: now.Add(c.ttl)}
}
