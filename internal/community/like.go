package community

// Liking posts. The like row and posts.like_count move in one transaction,
// and the count moves only when a row was really inserted or deleted, so
// it equals the rows however likes, unlikes and retries race.

import (
	"context"
	"strconv"
	"time"

	"prima/internal/messaging"
	"prima/internal/platform/db"
)

// PostLikeNoticeEvery is how often one user's likes of one post tell its
// author: liking, unliking and liking again is one notice a day.
const PostLikeNoticeEvery = 24 * time.Hour

// PostLikeResult answers POST /api/app/community/post/like.
type PostLikeResult struct {
	Liked     bool  `json:"liked"`
	LikeCount int64 `json:"likeCount"`
}

// LikePost sets whether uid likes post id. Only registered users like
// (ErrGuest), only published posts the caller may see (ErrNoPost, or
// ErrNotOpen for their own pending post). A new like tells the author
// ("post_like"), at most once per PostLikeNoticeEvery per liker and post.
func (s *Service) LikePost(ctx context.Context, uid, id int64, on bool) (PostLikeResult, error) {
	out := PostLikeResult{Liked: on}
	now := s.now()
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		r, err := s.openPost(ctx, tx, uid, id)
		if err != nil {
			return err
		}
		changed := false
		if on {
			res, err := tx.Exec(ctx, `INSERT INTO post_likes (user_id, post_id, created_at) VALUES (?, ?, ?)
				ON CONFLICT (user_id, post_id) DO NOTHING`, uid, id, now.Unix())
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			if changed = n == 1; changed {
				if _, err := tx.Exec(ctx, `UPDATE posts SET like_count = like_count + 1 WHERE id = ?`, id); err != nil {
					return err
				}
			}
		} else {
			res, err := tx.Exec(ctx, `DELETE FROM post_likes WHERE user_id = ? AND post_id = ?`, uid, id)
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			if n == 1 {
				if _, err := tx.Exec(ctx, `UPDATE posts SET like_count = like_count - 1 WHERE id = ? AND like_count > 0`, id); err != nil {
					return err
				}
			}
		}
		if err := tx.QueryRow(ctx, `SELECT like_count FROM posts WHERE id = ?`, id).Scan(&out.LikeCount); err != nil {
			return err
		}
		if !changed || !on {
			return nil
		}
		return s.noticePostLike(ctx, tx, uid, r, now)
	})
	if err != nil {
		return PostLikeResult{}, err
	}
	return out, nil
}

// noticePostLike tells post r's author that uid liked it, unless uid
// already told them of this post within PostLikeNoticeEvery (or is the
// author: Notify writes nothing then).
func (s *Service) noticePostLike(ctx context.Context, tx *db.Tx, uid int64, r postRow, now time.Time) error {
	return messaging.NotifyOnce(ctx, tx, s.Events, messaging.Notice{UserID: r.author, Category: messaging.CategoryInteraction,
		Kind: "post_like", ActorID: uid, Title: "赞了你的帖子", Body: postLabel(r), Ref: strconv.FormatInt(r.id, 10)}, PostLikeNoticeEvery, now)
}

// postLabel names a post in a notice: its title, else the start of its text.
func postLabel(r postRow) string {
	if r.title != "" {
		return r.title
	}
	return cutRunes(r.summary(), 40)
}

// openPost reads post id for a registered user's like or comment inside
// tx: guests are refused (ErrGuest), a post uid may not see is ErrNoPost,
// and one they may see but that is not published is ErrNotOpen.
func (s *Service) openPost(ctx context.Context, tx *db.Tx, uid, id int64) (postRow, error) {
	me, err := s.userCard(ctx, tx, uid)
	if err != nil {
		return postRow{}, err
	}
	if me.guest {
		return postRow{}, ErrGuest
	}
	r, err := loadPost(ctx, tx, id)
	if err != nil {
		return postRow{}, err
	}
	if !r.visible(uid) {
		return postRow{}, ErrNoPost
	}
	if r.state != StatePublished {
		return postRow{}, ErrNotOpen
	}
	return r, nil
}
