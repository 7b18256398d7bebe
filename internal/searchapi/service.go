// Package searchapi is the search calls (docs/api.md, *Search*): one kind
// paged, the overview of every kind, suggestions, hot words and the
// operator's pinned words. The engine (internal/search) answers ids and
// titles with marks; this package turns them into the cards each domain's
// own lists show (the domains' search_cards.go loaders), so a hit looks
// like the same item anywhere else, and drops any hit its domain no longer
// shows. It lives apart from internal/search because the engine may import
// no domain, and the cards are the domains'.
package searchapi

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"strconv"
	"time"

	"prima/internal/catalog"
	"prima/internal/community"
	"prima/internal/gallery"
	"prima/internal/platform/db"
	"prima/internal/platform/ratelimit"
	"prima/internal/search"
	"prima/internal/stats"
)

// Limits of the calls.
const (
	// OverviewSize is how many results each kind shows in the overview.
	OverviewSize = 4
	// SuggestSize is the most suggestions a prefix gets.
	SuggestSize = 8
	// HotSize is the most hot words listed (pins included).
	HotSize = 10
	// MaxPins is the most words an operator may pin; MaxPinRunes the
	// longest one (they show as chips on a phone).
	MaxPins     = HotSize
	MaxPinRunes = 20
	// RecordEvery is how often one client's search for one word counts
	// towards the hot words: a refresh loop adds one a minute at most.
	RecordEvery = time.Minute
)

// Rate bounds one client's public search calls (search, overview, suggest,
// hot together): a person typing with suggestions debounced stays far
// below it; a script walking the index does not.
var Rate = struct {
	N   int
	Per time.Duration
}{300, time.Minute}

// Service answers the search calls over the engine and the domains' cards.
type Service struct {
	db        *db.DB
	videos    *catalog.Service
	galleries *gallery.Service
	community *community.Service
	// Limiter keeps a client's repeats of a word from counting more than
	// once per RecordEvery; nil counts every search (tests).
	Limiter ratelimit.Limiter
	now     func() time.Time
}

// New builds the search calls over d and the domains that own the cards;
// limiter spaces a client's repeats of a word.
func New(d *db.DB, limiter ratelimit.Limiter, videos *catalog.Service, galleries *gallery.Service, com *community.Service) *Service {
	return &Service{db: d, Limiter: limiter, videos: videos, galleries: galleries, community: com, now: time.Now}
}

// SetClock replaces the clock (tests).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// Result is one hit as the client shows it: the index's title with the
// rune ranges that matched (the client highlights them as text, never as
// HTML) and the card of its kind (video and short: catalog.Video).
type Result struct {
	Kind    string            `json:"kind"`
	ID      int64             `json:"id"`
	Title   string            `json:"title"`
	Marks   [][2]int          `json:"marks"`
	Video   *catalog.Video    `json:"video,omitempty"`
	Gallery *gallery.Gallery  `json:"gallery,omitempty"`
	Post    *community.Post   `json:"post,omitempty"`
	Topic   *community.Topic  `json:"topic,omitempty"`
	User    *community.Person `json:"user,omitempty"`
}

// hydrate turns hits into results in the hits' order, loading each kind's
// cards in one batch; a hit whose card its domain does not give (the item
// was just unpublished, removed, hidden) is dropped.
func (s *Service) hydrate(ctx context.Context, viewer int64, hits []search.Hit) ([]Result, error) {
	ids := map[string][]int64{}
	for _, h := range hits {
		k := h.Kind
		if k == search.KindShort {
			k = search.KindVideo // one loader for both
		}
		ids[k] = append(ids[k], h.ID)
	}
	var (
		videos    map[int64]catalog.Video
		galleries map[int64]gallery.Gallery
		posts     map[int64]community.Post
		topics    map[int64]community.Topic
		people    map[int64]community.Person
		err       error
	)
	if len(ids[search.KindVideo]) > 0 {
		if videos, err = s.videos.VideosByIDs(ctx, ids[search.KindVideo]); err != nil {
			return nil, err
		}
	}
	if len(ids[search.KindGallery]) > 0 {
		if galleries, err = s.galleries.GalleriesByIDs(ctx, ids[search.KindGallery]); err != nil {
			return nil, err
		}
	}
	if len(ids[search.KindPost]) > 0 {
		if posts, err = s.community.PostsByIDs(ctx, viewer, ids[search.KindPost]); err != nil {
			return nil, err
		}
	}
	if len(ids[search.KindTopic]) > 0 {
		if topics, err = s.community.TopicsByIDs(ctx, viewer, ids[search.KindTopic]); err != nil {
			return nil, err
		}
	}
	if len(ids[search.KindUser]) > 0 {
		if people, err = s.community.PeopleByIDs(ctx, viewer, ids[search.KindUser]); err != nil {
			return nil, err
		}
	}
	out := make([]Result, 0, len(hits))
	for _, h := range hits {
		r := Result{Kind: h.Kind, ID: h.ID, Title: h.Title, Marks: h.Marks}
		if r.Marks == nil {
			r.Marks = [][2]int{}
		}
		var found bool
		switch h.Kind {
		case search.KindVideo, search.KindShort:
			r.Video = ref(videos, h.ID)
			found = r.Video != nil
		case search.KindGallery:
			r.Gallery = ref(galleries, h.ID)
			found = r.Gallery != nil
		case search.KindPost:
			r.Post = ref(posts, h.ID)
			found = r.Post != nil
		case search.KindTopic:
			r.Topic = ref(topics, h.ID)
			found = r.Topic != nil
		case search.KindUser:
			r.User = ref(people, h.ID)
			found = r.User != nil
		}
		if !found {
			continue // gone since it was indexed, or a kind this build does not know
		}
		out = append(out, r)
	}
	return out, nil
}

// ref is a pointer to m[id], nil when the loader did not find it.
func ref[T any](m map[int64]T, id int64) *T {
	if v, ok := m[id]; ok {
		return &v
	}
	return nil
}

// record counts text towards the hot words, once per client per word per
// RecordEvery. It never fails the search: a lost count is logged.
func (s *Service) record(ctx context.Context, client, text string) {
	if s.Limiter != nil {
		sum := sha256.Sum256([]byte(search.Normalize(text)))
		key := "searchq:" + client + ":" + hex.EncodeToString(sum[:12])
		ok, _, err := s.Limiter.Allow(ctx, key, 1, RecordEvery)
		if err != nil || !ok {
			return // over the window, or no limiter to ask: not counted
		}
	}
	if err := search.RecordQuery(ctx, s.db, text, s.now()); err != nil {
		slog.WarnContext(ctx, "search: recording a query failed", "err", err)
	}
}

// enforce counts one call of the client against Rate (FailOpen: search is
// read-only, and an outage of Redis should not take it down); over it, the
// limit's error, which the table answers 429 with its Retry-After.
func (s *Service) enforce(ctx context.Context, client string) error {
	if s.Limiter == nil {
		return nil
	}
	err := ratelimit.Enforce(ctx, s.Limiter, "search:"+client, Rate.N, Rate.Per, ratelimit.FailOpen)
	return err
}

// clientKey names who searches, for record: the signed-in user, else the
// client's address (a devID is the client's to choose).
func clientKey(uid int64, ip string) string {
	if uid != 0 {
		return "u" + strconv.FormatInt(uid, 10)
	}
	return "ip" + ip
}

// SearchFigures is a day's searches for the statistics (stats.Searches).
func (s *Service) SearchFigures(ctx context.Context, day string, limit int) (int64, []stats.Count, error) {
	return search.DayFigures(ctx, s.db, day, limit)
}
