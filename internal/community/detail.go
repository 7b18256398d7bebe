package community

// The post detail (GET /api/app/community/post) and the author deleting
// their own post. The detail is the card (cards) plus what only the detail
// shows: the full text or the article's html, the access decision, the
// video's playlists, whether the caller follows the author. Access is
// membership's rule (membership.Decide) over the caller's VIP columns and
// post_purchases, so a paid post opens exactly as a paid video does.

import (
	"context"
	"errors"
	"html"
	"regexp"
	"strconv"

	"prima/internal/media"
	"prima/internal/membership"
	"prima/internal/platform/db"
	"prima/internal/platform/realtime"
	"prima/internal/search"
)

// LockedArticleRunes is how much of a locked paid article's text anyone
// may read (as plain text, never html).
const LockedArticleRunes = 200

// ReasonAuthor is the access reason of a post's own author: they always
// see all of it.
const ReasonAuthor = "author"

// ErrNotOpen: the post is visible to the caller (their own pending or
// rejected post) but not published, so nobody may like or comment on it
// yet (409).
var ErrNotOpen = errors.New("community: the post is not published")

// PostPlayback is a video post's playlists: Preview (the first seconds)
// for everyone, Master (the whole video) only when access allows it.
type PostPlayback struct {
	Master  string `json:"master,omitempty"`
	Preview string `json:"preview,omitempty"`
}

// PostDetail is GET /api/app/community/post's answer.
type PostDetail struct {
	Post
	// Text is a picture or video post's full text; for a locked paid
	// article, its first LockedArticleRunes characters as plain text.
	Text string `json:"text"`
	// HTML is an article's sanitised body with its pictures' signed
	// srcs; '' when the article is locked.
	HTML      string            `json:"html"`
	Access    membership.Access `json:"access"`
	Playback  *PostPlayback     `json:"playback"`
	Following bool              `json:"following"`
	Mine      bool              `json:"mine"`
}

// Detail is post id as viewer (0 anonymous) sees it, counting one view
// unless the viewer is the author. ErrNoPost when the viewer may not see it.
func (s *Service) Detail(ctx context.Context, viewer, id int64) (PostDetail, error) {
	r, err := loadPost(ctx, s.db, id)
	if err != nil {
		return PostDetail{}, err
	}
	if !r.visible(viewer) {
		return PostDetail{}, ErrNoPost
	}
	mine := viewer != 0 && viewer == r.author
	if !mine && r.state == StatePublished {
		// One statement, no read-modify-write: parallel views all count.
		if _, err := s.db.Exec(ctx, `UPDATE posts SET view_count = view_count + 1 WHERE id = ?`, id); err != nil {
			return PostDetail{}, err
		}
		r.views++
	}
	cards, err := s.cards(ctx, viewer, []postRow{r}, false)
	if err != nil {
		return PostDetail{}, err
	}
	d := PostDetail{Post: cards[0], Mine: mine}
	if d.Access, err = s.postAccess(ctx, viewer, r); err != nil {
		return PostDetail{}, err
	}
	if d.Access.Allowed && r.paid() && !mine {
		// cards locks a paid post's pictures to its preview; this viewer
		// may open them all.
		ids, err := pictureIDs(ctx, s.db, []int64{r.id})
		if err != nil {
			return PostDetail{}, err
		}
		if d.Pictures, err = s.pictures(ctx, ids[r.id]); err != nil {
			return PostDetail{}, err
		}
	}
	switch r.kind {
	case KindArticle:
		if d.Access.Allowed {
			if d.HTML, err = s.articleHTML(ctx, r.author, r.body); err != nil {
				return PostDetail{}, err
			}
		} else {
			d.Text = cutRunes(plainText(r.body), LockedArticleRunes)
		}
	default:
		d.Text = r.body
	}
	if r.kind == KindVideo && r.videoAsset != 0 {
		if d.Playback, err = s.postPlayback(ctx, r.videoAsset, d.Access.Allowed); err != nil {
			return PostDetail{}, err
		}
	}
	if viewer != 0 && !mine {
		f, err := following(ctx, s.db, viewer, []int64{r.author})
		if err != nil {
			return PostDetail{}, err
		}
		d.Following = f[r.author]
	}
	return d, nil
}

var errNoAccessRule = errors.New("community: paid posts need Tiers and Purchases wired")

// postAccess decides whether viewer may open all of post r: its author
// always; anyone else by membership's rule over their tiers (Tiers) and
// their purchase of the post (Purchases; the buy call writes it).
func (s *Service) postAccess(ctx context.Context, viewer int64, r postRow) (membership.Access, error) {
	if viewer != 0 && viewer == r.author {
		return membership.Access{Allowed: true, Reason: ReasonAuthor}, nil
	}
	now := s.now()
	v := r.access()
	if viewer == 0 || !r.paid() {
		return membership.Decide(nil, v, now, false), nil
	}
	if s.Tiers == nil || s.Purchases == nil {
		return membership.Access{}, errNoAccessRule
	}
	u, err := s.Tiers.Tiers(ctx, viewer)
	if errors.Is(err, db.ErrNotFound) {
		return membership.Decide(nil, v, now, false), nil
	}
	if err != nil {
		return membership.Access{}, err
	}
	bought := false
	if v.IsGold() {
		if bought, err = s.Purchases.HasBoughtPost(ctx, viewer, r.id); err != nil {
			return membership.Access{}, err
		}
	}
	return membership.Decide(&u, v, now, bought), nil
}

// postPlayback signs a video post's playlists once its asset is ready: the
// preview always, the master only when allowed (a refused caller never
// receives a URL whose token covers the full ladder).
func (s *Service) postPlayback(ctx context.Context, assetID int64, allowed bool) (*PostPlayback, error) {
	if s.Media == nil {
		return nil, nil
	}
	a, err := s.Media.Get(ctx, assetID)
	if errors.Is(err, media.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if a.Kind != media.Video || a.State != media.Ready {
		return nil, nil
	}
	v, err := s.Media.View(a)
	if err != nil {
		return nil, err
	}
	p := &PostPlayback{Preview: v.Preview}
	if allowed {
		p.Master = v.Master
	}
	return p, nil
}

// articleImg matches the picture placeholders the publish call's sanitiser
// leaves in an article: <img data-asset="N"> (attributes in any order,
// nothing else survives sanitising).
var articleImg = regexp.MustCompile(`<img\b[^>]*?\bdata-asset="(\d{1,16})"[^>]*>`)

// articleHTML gives the pictures of a sanitised article body signed srcs.
// Only ready picture uploads of the post's author are shown; any other id
// (someone else's upload, a video, a deleted asset) drops its img, so an
// article cannot be used to publish another user's private uploads.
func (s *Service) articleHTML(ctx context.Context, author int64, body string) (string, error) {
	var firstErr error
	out := articleImg.ReplaceAllStringFunc(body, func(tag string) string {
		m := articleImg.FindStringSubmatch(tag)
		id, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil || s.Media == nil || firstErr != nil {
			return ""
		}
		a, err := s.Media.Get(ctx, id)
		if errors.Is(err, media.ErrNotFound) {
			return ""
		}
		if err != nil {
			firstErr = err
			return ""
		}
		if a.OwnerUID != author || a.Kind != media.Image || a.State != media.Ready {
			return ""
		}
		v, err := s.Media.View(a)
		if err != nil {
			firstErr = err
			return ""
		}
		return `<img src="` + html.EscapeString(v.Display) + `" data-asset="` + m[1] + `" width="` + strconv.Itoa(v.Width) +
			`" height="` + strconv.Itoa(v.Height) + `" alt="" loading="lazy">`
	})
	return out, firstErr
}

// DeletePost marks uid's own post id deleted, whatever its state (a
// deleted one is gone: ErrNoPost, as is anyone else's post). The post
// leaves every list and count at once; its rows stay for operators.
func (s *Service) DeletePost(ctx context.Context, uid, id int64) error {
	now := s.now()
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE posts SET state = ?, updated_at = ? WHERE id = ? AND author_id = ? AND state <> ?`,
			StateDeleted, now.Unix(), id, uid, StateDeleted)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err == nil {
				err = ErrNoPost
			}
			return err
		}
		if err := search.Touch(ctx, tx, search.KindPost, id); err != nil {
			return err
		}
		tx.AfterCommit(func() {
			realtime.Notify(context.Background(), s.Events, realtime.UserTopic(uid), "post.changed",
				map[string]any{"id": id, "state": StateDeleted})
		})
		return nil
	})
	return err
}
