package community

// Publishing: a registered user writes a picture, video or article post.
// Everything the post points at is checked inside the transaction that
// writes it: the author is registered and not muted, the pictures and the
// video are the author's own uploads, the topic is shown, the sub-module is
// the community's. Review on (community_settings) holds the post as
// pending; otherwise it is published at once.
//
// A retried publish (the same clientID from the same author) answers the
// first post and writes nothing: the unique index posts_client decides, so
// parallel retries are one post too. The same clientID with another body
// is a client bug, answered 409.

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"prima/internal/media"
	"prima/internal/platform/db"
	"prima/internal/platform/ratelimit"
	"prima/internal/platform/realtime"
	"prima/internal/search"
)

// Publishing limits (GET /api/app/community/rules hands them to clients).
const (
	PostTitleMax    = 50
	ArticleTitleMin = 2
	PostTextMax     = 2000
	ArticleTextMax  = 20000
	PostMaxVipLevel = 2
	PostMaxCoins    = 100000
	postClientIDMax = 64
)

// PublishRate bounds new posts per user.
var PublishRate = struct {
	N   int
	Per time.Duration
}{10, 10 * time.Minute}

var (
	// ErrGuestPublish: guests cannot publish (403).
	ErrGuestPublish = errors.New("community: guests cannot publish")
	// ErrClientIDReused: the clientID names another post's body (409).
	ErrClientIDReused = errors.New("community: clientID already used for another post")
	// ErrPublishAsset: a picture or video the caller does not own or that does
	// not exist (404, one answer for both).
	ErrPublishAsset = errors.New("community: no such upload")
	// ErrPublishTopic: the topic does not exist or is hidden (404).
	ErrPublishTopic = errors.New("community: no such topic")
	// ErrPublishModule: the module is not a community sub-module (404).
	ErrPublishModule = errors.New("community: no such community sub-module")
)

// PostInputError is input that breaks a publishing rule (422); Tip is the
// user's message, Msg the developer's.
type PostInputError struct{ Tip, Msg string }

func (e *PostInputError) Error() string { return "community: " + e.Msg }

func publishBad(tip, msg string) error { return &PostInputError{Tip: tip, Msg: msg} }

// PostInput is what POST /api/app/community/post sends.
type PostInput struct {
	Kind         string  `json:"kind"`
	Title        string  `json:"title"`
	Text         string  `json:"text" text:"multiline"`
	HTML         string  `json:"html" text:"multiline"`
	Pictures     []int64 `json:"pictures"`
	VideoAssetID int64   `json:"videoAssetID"`
	TopicID      int64   `json:"topicID"`
	ModuleID     int64   `json:"moduleID"`
	VipLevel     int     `json:"vipLevel"`
	Coins        int64   `json:"coins"`
	ClientID     string  `json:"clientID"`
}

// Created answers a publish: the post's id and state (published or pending).
type Created struct {
	ID    int64  `json:"id"`
	State string `json:"state"`
}

// publishDraft is a PostInput checked and normalised: what the row holds.
type publishDraft struct {
	kind, title, body, clientID string
	pictures                    []int64 // picture posts' pictures in order
	articleAssets               []int64 // an article's inline pictures
	video, topic, module        int64
	vipLevel                    int
	coins                       int64
}

// publishText trims s, folds \r\n to \n, and refuses what the text rule
// refuses (Decode already does for HTTP; the Go call checks again).
func publishText(field, s string, multiline bool) (string, error) {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	for _, r := range s {
		if r == '\n' || r == '\t' {
			if multiline {
				continue
			}
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0xfffe || r == 0xffff {
			return "", publishBad(field+" 含有不允许的字符", field+" holds a control or invalid character")
		}
	}
	return strings.TrimSpace(s), nil
}

// checkPostInput applies the rules that need no database.
func checkPostInput(in PostInput) (publishDraft, error) {
	d := publishDraft{kind: in.Kind, video: in.VideoAssetID, topic: in.TopicID, module: in.ModuleID,
		vipLevel: in.VipLevel, coins: in.Coins}
	var err error
	if d.title, err = publishText("标题", in.Title, false); err != nil {
		return d, err
	}
	text, err := publishText("正文", in.Text, true)
	if err != nil {
		return d, err
	}
	if d.clientID, err = publishText("clientID", in.ClientID, false); err != nil {
		return d, err
	}
	if publishRunes(d.clientID) > postClientIDMax {
		return d, publishBad("clientID 过长", "clientID is at most 64 characters")
	}
	if publishRunes(d.title) > PostTitleMax {
		return d, publishBad("标题最多 50 个字", "title is at most 50 characters")
	}
	if in.TopicID < 0 || in.TopicID > publishMaxID || in.ModuleID < 0 || in.ModuleID > publishMaxID {
		return d, publishBad("话题或分区无效", "topicID and moduleID are 0 or a positive id")
	}
	if in.VipLevel < 0 || in.VipLevel > PostMaxVipLevel {
		return d, publishBad("会员等级无效", "vipLevel is 0, 1 or 2")
	}
	if in.Coins < 0 || in.Coins > PostMaxCoins {
		return d, publishBad("金币价格无效", "coins is 0 to 100000")
	}
	if in.Kind != KindPicture && len(in.Pictures) > 0 {
		return d, publishBad("只有图片帖可以带图片", "pictures belong to picture posts (articles put <img data-asset> in html)")
	}
	if in.Kind != KindVideo && in.VideoAssetID != 0 {
		return d, publishBad("只有视频帖可以带视频", "videoAssetID belongs to video posts")
	}
	if in.Kind != KindArticle && strings.TrimSpace(in.HTML) != "" {
		return d, publishBad("只有文章可以带 html", "html belongs to articles")
	}
	switch in.Kind {
	case KindPicture:
		if len(in.Pictures) == 0 {
			return d, publishBad("请至少选择一张图片", "a picture post needs 1 to 9 pictures")
		}
		if len(in.Pictures) > MaxPictures {
			return d, publishBad("最多 9 张图片", "a picture post holds at most 9 pictures")
		}
		for i, id := range in.Pictures {
			if id < 1 || id > publishMaxID {
				return d, publishBad("图片无效", "pictures["+strconv.Itoa(i)+"] is not a valid id")
			}
			if slices.Contains(in.Pictures[:i], id) {
				return d, publishBad("图片重复", "pictures["+strconv.Itoa(i)+"] repeats an earlier picture")
			}
		}
		d.pictures = slices.Clone(in.Pictures)
		d.body = text
	case KindVideo:
		if in.VideoAssetID < 1 || in.VideoAssetID > publishMaxID {
			return d, publishBad("请先上传视频", "a video post needs videoAssetID")
		}
		d.body = text
	case KindArticle:
		if text != "" {
			return d, publishBad("文章正文请放在 html 中", "an article's body is html, not text")
		}
		if n := publishRunes(d.title); n < ArticleTitleMin {
			return d, publishBad("文章标题需 2–50 个字", "an article's title is 2 to 50 characters")
		}
		html, err := publishText("正文", in.HTML, true)
		if err != nil {
			return d, err
		}
		d.body, d.articleAssets = sanitizeArticle(html)
		n := publishRunes(articleText(d.body))
		if n > ArticleTextMax {
			return d, publishBad("文章正文最多 20000 个字", "an article's text is at most 20000 characters")
		}
		if len(d.body) > articleMaxBytes {
			return d, publishBad("文章内容过长", "the article's markup is too large")
		}
		if n == 0 && len(d.articleAssets) == 0 {
			return d, publishBad("文章正文不能为空", "the article has no text or picture after sanitising")
		}
		if len(d.articleAssets) > ArticleMaxPictures {
			return d, publishBad("文章最多 50 张图片", "an article shows at most 50 pictures")
		}
		return d, nil
	default:
		return d, publishBad("帖子类型无效", "kind must be picture, video or article")
	}
	if publishRunes(d.body) > PostTextMax {
		return d, publishBad("正文最多 2000 个字", "text is at most 2000 characters")
	}
	return d, nil
}

// publishMaxID bounds ids the way httpx.MaxID does (2^53-1).
const publishMaxID = 1<<53 - 1

// CreatePost publishes in for uid. See the file comment for the rules.
func (s *Service) CreatePost(ctx context.Context, uid int64, in PostInput) (Created, error) {
	d, err := checkPostInput(in)
	if err != nil {
		return Created{}, err
	}
	// An article's body is sanitised html: its words are checked, not its
	// markup (a blocked "strong" must not refuse every bold text).
	text := d.body
	if d.kind == KindArticle {
		text = articleText(d.body)
	}
	if err := s.checkWords(ctx, d.title, text); err != nil {
		return Created{}, err
	}
	// A retry is answered before the rate limit: it writes nothing.
	if d.clientID != "" {
		if c, ok, err := s.publishRetry(ctx, s.db, uid, d); ok || err != nil {
			return c, err
		}
	}
	if s.Limiter != nil {
		if err := ratelimit.Enforce(ctx, s.Limiter, "post:uid:"+strconv.FormatInt(uid, 10), PublishRate.N, PublishRate.Per, ratelimit.FailOpen); err != nil {
			return Created{}, err
		}
	}
	now := s.now()
	var out Created
	fresh := false
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		me, err := s.userCard(ctx, tx, uid)
		if err != nil {
			return err
		}
		if me.guest {
			return ErrGuestPublish
		}
		if err := checkMuted(ctx, tx, uid, now); err != nil {
			return err
		}
		if err := s.publishRefs(ctx, tx, uid, d); err != nil {
			return err
		}
		st, err := loadSettings(ctx, tx)
		if err != nil {
			return err
		}
		out.State, fresh = StatePublished, true
		published := now.Unix()
		if st.Review {
			out.State, published = StatePending, 0
		}
		err = tx.QueryRow(ctx, `INSERT INTO posts (author_id, kind, module_id, topic_id, title, body, video_asset_id,
			vip_level, coins, state, client_id, created_at, published_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (author_id, client_id) WHERE client_id <> '' DO NOTHING RETURNING id`,
			uid, d.kind, d.module, d.topic, d.title, d.body, d.video, d.vipLevel, d.coins, out.State, d.clientID,
			now.Unix(), published, now.Unix()).Scan(&out.ID)
		if errors.Is(err, sql.ErrNoRows) {
			// A parallel retry committed first: answer its post.
			fresh = false
			c, ok, err := s.publishRetry(ctx, tx, uid, d)
			if err == nil && !ok {
				err = errors.New("community: client_id conflict without a row")
			}
			out = c
			return err
		}
		if err != nil {
			return err
		}
		for i, a := range d.pictures {
			if _, err := tx.Exec(ctx, `INSERT INTO post_pictures (post_id, pos, asset_id) VALUES (?, ?, ?)`, out.ID, i, a); err != nil {
				return err
			}
		}
		return search.Touch(ctx, tx, search.KindPost, out.ID)
	})
	if err != nil {
		return Created{}, err
	}
	if fresh {
		realtime.Notify(ctx, s.Events, realtime.UserTopic(uid), "post.changed", map[string]any{"id": out.ID, "state": out.State})
	}
	return out, nil
}

// publishRetry finds uid's post with d's clientID: ok with the post when it
// exists and holds d's body, ErrClientIDReused when it holds another.
func (s *Service) publishRetry(ctx context.Context, q db.Querier, uid int64, d publishDraft) (Created, bool, error) {
	r, err := scanPost(q.QueryRow(ctx, `SELECT `+postColumns+` FROM posts p WHERE p.author_id = ? AND p.client_id = ?`, uid, d.clientID))
	if errors.Is(err, sql.ErrNoRows) {
		return Created{}, false, nil
	}
	if err != nil {
		return Created{}, false, err
	}
	pics, err := pictureIDs(ctx, q, []int64{r.id})
	if err != nil {
		return Created{}, false, err
	}
	same := r.kind == d.kind && r.title == d.title && r.body == d.body && r.videoAsset == d.video &&
		r.topic == d.topic && r.module == d.module && r.vipLevel == d.vipLevel && r.coins == d.coins &&
		slices.Equal(pics[r.id], d.pictures)
	if !same {
		return Created{}, false, ErrClientIDReused
	}
	return Created{ID: r.id, State: r.state}, true, nil
}

// publishRefs checks what d points at, inside the writing transaction.
func (s *Service) publishRefs(ctx context.Context, tx db.Querier, uid int64, d publishDraft) error {
	for _, id := range append(slices.Clone(d.pictures), d.articleAssets...) {
		kind, state, err := s.publishAsset(ctx, tx, uid, id)
		if err != nil {
			return err
		}
		if kind != "image" {
			return publishBad("只能选择图片", "asset "+strconv.FormatInt(id, 10)+" is not a picture")
		}
		if state != "ready" {
			return publishBad("图片尚未处理完成", "picture "+strconv.FormatInt(id, 10)+" is not ready")
		}
	}
	if d.video != 0 {
		kind, state, err := s.publishAsset(ctx, tx, uid, d.video)
		if err != nil {
			return err
		}
		if kind != "video" {
			return publishBad("请选择视频文件", "videoAssetID is not a video")
		}
		if state == "failed" {
			return publishBad("视频处理失败，请重新上传", "the video failed to transcode")
		}
	}
	if d.topic != 0 {
		var n int64
		if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM topics WHERE id = ? AND status = 1`, d.topic).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return ErrPublishTopic
		}
	}
	if d.module != 0 {
		if s.Modules == nil {
			return errNoModules
		}
		pid, typ, err := s.Modules(ctx, tx, d.module)
		if errors.Is(err, db.ErrNotFound) || (err == nil && (pid == 0 || typ != 1)) {
			return ErrPublishModule
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// publishAsset is uid's own upload id's kind and state; another user's
// upload is ErrPublishAsset, as a missing one.
func (s *Service) publishAsset(ctx context.Context, q db.Querier, uid, id int64) (kind, state string, err error) {
	if s.Assets == nil {
		return "", "", errNoAssets
	}
	a, err := s.Assets(ctx, q, id)
	if errors.Is(err, media.ErrNotFound) || (err == nil && a.OwnerUID != uid) {
		return "", "", ErrPublishAsset
	}
	return string(a.Kind), string(a.State), err
}

// PublishLimits are the publishing limits clients show.
type PublishLimits struct {
	TitleMax   int `json:"titleMax"`
	TextMax    int `json:"textMax"`
	ArticleMax int `json:"articleMax"`
	Pictures   int `json:"pictures"`
}

// RulesView answers GET /api/app/community/rules.
type RulesView struct {
	Rules  string        `json:"rules"`
	Review bool          `json:"review"`
	Limits PublishLimits `json:"limits"`
}

// PublishRules is the operator's rules text, whether review is on, and the limits.
func (s *Service) PublishRules(ctx context.Context) (RulesView, error) {
	st, err := loadSettings(ctx, s.db)
	if err != nil {
		return RulesView{}, err
	}
	return RulesView{Rules: st.Rules, Review: st.Review,
		Limits: PublishLimits{TitleMax: PostTitleMax, TextMax: PostTextMax, ArticleMax: ArticleTextMax, Pictures: MaxPictures}}, nil
}
