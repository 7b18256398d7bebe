package community

// The post as every community call hands it out. Feeds, topic pages, a
// user's posts, the detail and the operator's lists all read posts through
// postColumns/scanPost and turn them into Post with Service.cards, so a
// post looks the same wherever it appears and nothing reaches a client that
// the visibility rules (Visible) would hide.

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"prima/internal/media"
	"prima/internal/membership"
	"prima/internal/platform/db"
)

// Post kinds.
const (
	KindPicture = "picture"
	KindVideo   = "video"
	KindArticle = "article"
)

// Post states (migration 0023 explains each).
const (
	StatePending   = "pending"
	StatePublished = "published"
	StateRejected  = "rejected"
	StateRemoved   = "removed"
	StateDeleted   = "deleted"
)

// MaxPictures is how many pictures a picture post holds.
const MaxPictures = 9

// SummaryRunes is how much of a post's text a card shows.
const SummaryRunes = 140

// ErrNoPost: the post does not exist or the caller may not see it (404;
// one answer for both, so ids of hidden posts are not confirmed).
var ErrNoPost = errors.New("community: no such post")

// Author is a post's or comment's author as cards show them.
type Author struct {
	UID      int64  `json:"uid"`
	Name     string `json:"name"`
	Portrait string `json:"portrait"`
	VipLevel int    `json:"vipLevel"`
}

// Picture is one picture of a post: signed, expiring URLs and a BlurHash.
type Picture struct {
	ID          int64  `json:"id"`
	URL         string `json:"url"`
	Thumb       string `json:"thumb"`
	URLWebP     string `json:"urlWebp,omitempty"`
	ThumbWebP   string `json:"thumbWebp,omitempty"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	Placeholder string `json:"placeholder"`
}

// TopicRef names a post's topic.
type TopicRef struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// VideoInfo is a video post's video as a card shows it; the playlists come
// with the detail, after the access decision.
type VideoInfo struct {
	AssetID    int64  `json:"assetId"`
	State      string `json:"state"` // the media asset's state: processing, ready, failed
	DurationMS int64  `json:"durationMs"`
	Poster     string `json:"poster,omitempty"`
	Width      int    `json:"width"`
	Height     int    `json:"height"`
}

// Post is a post as lists show it. Pictures of a paid post the viewer may
// not open are its preview only (PreviewPictures of them); State and Reason
// are the author's own business and empty for everyone else unless the
// list is the operator's.
type Post struct {
	ID           int64      `json:"id"`
	Kind         string     `json:"kind"`
	Title        string     `json:"title"`
	Summary      string     `json:"summary"`
	Pictures     []Picture  `json:"pictures"`
	PictureCount int        `json:"pictureCount"`
	Video        *VideoInfo `json:"video,omitempty"`
	Author       Author     `json:"author"`
	Topic        *TopicRef  `json:"topic,omitempty"`
	ModuleID     int64      `json:"moduleID"`
	VipLevel     int        `json:"vipLevel"`
	Coins        int64      `json:"coins"`
	State        string     `json:"state,omitempty"`
	Reason       string     `json:"reason,omitempty"`
	LikeCount    int64      `json:"likeCount"`
	CommentCount int64      `json:"commentCount"`
	ViewCount    int64      `json:"viewCount"`
	Liked        bool       `json:"liked"`
	Pinned       bool       `json:"pinned"`
	Featured     bool       `json:"featured"`
	CreatedAt    int64      `json:"createdAt"`   // Unix seconds
	PublishedAt  int64      `json:"publishedAt"` // 0 until published
}

// PreviewPictures is how many pictures of a paid post anyone may see.
const PreviewPictures = 1

// postRow is one row of posts.
type postRow struct {
	id, author, module, topic, videoAsset int64
	kind, title, body, state, reason      string
	vipLevel                              int
	coins, likes, comments, views, pinned int64
	featured                              bool
	created, published, updated           int64
}

// postColumns are the columns scanPost reads, in its order; queries select
// them as "SELECT " + postColumns + " FROM posts p ...".
const postColumns = `p.id, p.author_id, p.kind, p.module_id, p.topic_id, p.title, p.body, p.video_asset_id,
	p.vip_level, p.coins, p.state, p.reason, p.like_count, p.comment_count, p.view_count, p.pinned_at,
	p.featured, p.created_at, p.published_at, p.updated_at`

func scanPost(s db.Scanner) (postRow, error) {
	var r postRow
	var featured int
	err := s.Scan(&r.id, &r.author, &r.kind, &r.module, &r.topic, &r.title, &r.body, &r.videoAsset,
		&r.vipLevel, &r.coins, &r.state, &r.reason, &r.likes, &r.comments, &r.views, &r.pinned,
		&featured, &r.created, &r.published, &r.updated)
	r.featured = featured != 0
	return r, err
}

// loadPost reads post id whatever its state (ErrNoPost when there is no
// such row); callers decide visibility with visible.
func loadPost(ctx context.Context, q db.Querier, id int64) (postRow, error) {
	r, err := scanPost(q.QueryRow(ctx, `SELECT `+postColumns+` FROM posts p WHERE p.id = ?`, id))
	if err != nil {
		return postRow{}, orNoPost(err)
	}
	return r, nil
}

func orNoPost(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return ErrNoPost
	}
	return err
}

// visible is the one visibility rule: a published post is anyone's to see;
// a pending or rejected one only its author's; removed and deleted ones
// nobody's (operators read them through their own lists).
func (r postRow) visible(viewer int64) bool {
	switch r.state {
	case StatePublished:
		return true
	case StatePending, StateRejected:
		return viewer != 0 && viewer == r.author
	}
	return false
}

// summary is the first SummaryRunes characters of a post's text: an
// article's body is HTML, so its text is what a card shows.
func (r postRow) summary() string {
	text := r.body
	if r.kind == KindArticle {
		text = plainText(text)
	}
	return cutRunes(strings.TrimSpace(text), SummaryRunes)
}

func cutRunes(s string, n int) string {
	rs := []rune(s)
	if len(rs) <= n {
		return s
	}
	return string(rs[:n]) + "…"
}

// plainText is the text of sanitised HTML: tags dropped (a block's edge
// becomes a space, an inline tag nothing, so 开头<b>粗体</b> stays one
// word), the entities the sanitiser writes decoded, whitespace runs folded.
func plainText(html string) string {
	var b, tag strings.Builder
	in := false
	for _, c := range html {
		switch {
		case c == '<':
			in = true
			tag.Reset()
		case c == '>' && in:
			in = false
			if blockTag(tag.String()) {
				b.WriteByte(' ')
			}
		case in:
			tag.WriteRune(c)
		default:
			b.WriteRune(c)
		}
	}
	s := strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", `"`, "&#34;", `"`, "&#39;", "'", "&nbsp;", " ", "&amp;", "&").Replace(b.String())
	return strings.Join(strings.Fields(s), " ")
}

// blockTag reports whether the tag (its text between < and >) opens or
// closes a block: paragraphs, breaks, headings, lists, quotes, pictures.
func blockTag(t string) bool {
	name := strings.TrimPrefix(t, "/")
	if i := strings.IndexAny(name, " /\t\n"); i >= 0 {
		name = name[:i]
	}
	switch strings.ToLower(name) {
	case "p", "br", "div", "h1", "h2", "h3", "h4", "ul", "ol", "li", "blockquote", "img", "hr", "pre":
		return true
	}
	return false
}

// cards turns rows into Posts for viewer (0 anonymous): authors, topics,
// pictures (signed), the video's state and poster, and whether the viewer
// liked each, in a handful of queries for the whole page. owner=true (the
// author's own lists, operators' lists) includes State and Reason and
// every picture of a paid post (an operator reviews all of them).
func (s *Service) cards(ctx context.Context, viewer int64, rows []postRow, owner bool) ([]Post, error) {
	out := make([]Post, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	var authorIDs, topicIDs, postIDs []int64
	for _, r := range rows {
		authorIDs = append(authorIDs, r.author)
		postIDs = append(postIDs, r.id)
		if r.topic != 0 {
			topicIDs = append(topicIDs, r.topic)
		}
	}
	authors, err := s.authors(ctx, authorIDs)
	if err != nil {
		return nil, err
	}
	topics, err := topicNames(ctx, s.db, topicIDs)
	if err != nil {
		return nil, err
	}
	pics, err := pictureIDs(ctx, s.db, postIDs)
	if err != nil {
		return nil, err
	}
	liked, err := likedPosts(ctx, s.db, viewer, postIDs)
	if err != nil {
		return nil, err
	}
	for i, r := range rows {
		p := Post{
			ID: r.id, Kind: r.kind, Title: r.title, Summary: r.summary(), Author: authors[r.author],
			ModuleID: r.module, VipLevel: r.vipLevel, Coins: r.coins, LikeCount: r.likes,
			CommentCount: r.comments, ViewCount: r.views, Liked: liked[r.id], Pinned: r.pinned > 0,
			Featured: r.featured, CreatedAt: r.created, PublishedAt: r.published, Pictures: []Picture{},
		}
		if owner || (viewer != 0 && viewer == r.author) {
			p.State, p.Reason = r.state, r.reason
		}
		if name, ok := topics[r.topic]; ok {
			p.Topic = &TopicRef{ID: r.topic, Name: name}
		}
		ids := pics[r.id]
		p.PictureCount = len(ids)
		if r.paid() && !owner && viewer != r.author && len(ids) > PreviewPictures {
			ids = ids[:PreviewPictures]
		}
		if p.Pictures, err = s.pictures(ctx, ids); err != nil {
			return nil, err
		}
		if r.kind == KindVideo && r.videoAsset != 0 {
			if p.Video, err = s.videoInfo(ctx, r.videoAsset); err != nil {
				return nil, err
			}
		}
		out[i] = p
	}
	return out, nil
}

// paid reports whether the post has an access level or a price.
func (r postRow) paid() bool { return r.vipLevel > 0 || r.coins > 0 }

// access is what membership decides for the post; gold posts ask bought.
func (r postRow) access() membership.Video {
	return membership.Video{ID: r.id, VipLevel: r.vipLevel, Coins: r.coins}
}

// authors reads the cards of uids (a missing user is an empty Author with
// the uid, never an error: a post outlives nothing, but be safe).
func (s *Service) authors(ctx context.Context, uids []int64) (map[int64]Author, error) {
	out := make(map[int64]Author, len(uids))
	uids = unique(uids)
	if len(uids) == 0 {
		return out, nil
	}
	cards, err := s.people(ctx, s.db, uids)
	if err != nil {
		return out, err
	}
	now := s.now()
	for _, id := range uids {
		a := Author{UID: id}
		if c, ok := cards[id]; ok {
			a.Name, a.Portrait, a.VipLevel = c.Name, c.Portrait, c.VipLevel(now)
		}
		out[id] = a
	}
	return out, nil
}

// topicNames is the names of the shown topics among ids.
func topicNames(ctx context.Context, q db.Querier, ids []int64) (map[int64]string, error) {
	out := map[int64]string{}
	ids = unique(ids)
	if len(ids) == 0 {
		return out, nil
	}
	list, err := db.All(ctx, q, scanPair[string], `SELECT id, name FROM topics WHERE status = 1 AND id IN (`+db.Placeholders(len(ids))+`)`, idArgs(ids)...)
	for _, t := range list {
		out[t.a] = t.b
	}
	return out, err
}

// pictureIDs is each post's picture asset ids in order.
func pictureIDs(ctx context.Context, q db.Querier, posts []int64) (map[int64][]int64, error) {
	out := map[int64][]int64{}
	if len(posts) == 0 {
		return out, nil
	}
	list, err := db.All(ctx, q, scanPair[int64], `SELECT post_id, asset_id FROM post_pictures WHERE post_id IN (`+db.Placeholders(len(posts))+`) ORDER BY post_id, pos`, idArgs(posts)...)
	for _, p := range list {
		out[p.a] = append(out[p.a], p.b)
	}
	return out, err
}

// likedPosts is which of posts viewer liked.
func likedPosts(ctx context.Context, q db.Querier, viewer int64, posts []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	if viewer == 0 || len(posts) == 0 {
		return out, nil
	}
	list, err := db.All(ctx, q, scanPair[int64], `SELECT post_id, post_id FROM post_likes WHERE user_id = ? AND post_id IN (`+db.Placeholders(len(posts))+`)`, append([]any{viewer}, idArgs(posts)...)...)
	for _, p := range list {
		out[p.a] = true
	}
	return out, err
}

// pictures signs the picture assets ids; an asset that is gone or not a
// ready picture is left out rather than failing the page.
func (s *Service) pictures(ctx context.Context, ids []int64) ([]Picture, error) {
	out := make([]Picture, 0, len(ids))
	if s.Media == nil {
		return out, nil
	}
	for _, id := range ids {
		a, err := s.Media.Get(ctx, id)
		if errors.Is(err, media.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if a.Kind != media.Image || a.State != media.Ready {
			continue
		}
		v, err := s.Media.View(a)
		if err != nil {
			return nil, err
		}
		out = append(out, Picture{ID: id, URL: v.Display, Thumb: v.Thumb, URLWebP: v.DisplayWebP, ThumbWebP: v.ThumbWebP,
			Width: v.Width, Height: v.Height, Placeholder: v.Placeholder})
	}
	return out, nil
}

// videoInfo is a video post's asset as a card shows it (nil when gone).
func (s *Service) videoInfo(ctx context.Context, id int64) (*VideoInfo, error) {
	if s.Media == nil {
		return nil, nil
	}
	a, err := s.Media.Get(ctx, id)
	if errors.Is(err, media.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	v, err := s.Media.View(a)
	if err != nil {
		return nil, err
	}
	return &VideoInfo{AssetID: id, State: string(a.State), DurationMS: a.DurationMS, Poster: v.Poster, Width: a.Width, Height: a.Height}, nil
}

// pair is a row of an id and one value.
type pair[T any] struct {
	a int64
	b T
}

func scanPair[T any](sc db.Scanner) (pair[T], error) {
	var p pair[T]
	err := sc.Scan(&p.a, &p.b)
	return p, err
}

func unique(ids []int64) []int64 {
	seen := make(map[int64]bool, len(ids))
	out := ids[:0:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

func idArgs(ids []int64) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}
