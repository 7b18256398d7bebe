package community

// Comments in two levels: a comment on a post (parent 0) and replies under
// it (parent = that comment). A reply answers someone taking part under
// the same comment (its author or a replier), named by reply_to_uid. The
// counters (posts.comment_count: published comments and replies;
// comments.reply_count: a comment's published replies) move only in the
// transaction that inserts or deletes what they count. A deleted or removed
// comment with replies keeps its place, with no text, so its replies keep
// their context.

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"prima/internal/messaging"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/ratelimit"
)

// Comment limits.
const (
	CommentMaxRunes = 500
	// CommentPreviewReplies is how many replies each comment of the first
	// level carries in the list; the rest are fetched with parentID.
	CommentPreviewReplies = 3
	commentClientIDMax    = 64
)

// CommentRate bounds comments per user (the muted and guests never get
// here; this stops a script flooding a post).
var CommentRate = struct {
	N   int
	Per time.Duration
}{20, time.Minute}

// Comment states.
const (
	CommentPublished = "published"
	CommentDeleted   = "deleted"
	CommentRemoved   = "removed"
)

var (
	// ErrNoComment: no such comment under the post, or not one the caller
	// may act on (404).
	ErrNoComment = errors.New("community: no such comment")
	// ErrTooDeep: the parent is itself a reply (422).
	ErrTooDeep = errors.New("community: replies go two levels deep")
	// ErrNotParticipant: replyToUID is nobody taking part under the
	// parent comment (422).
	ErrNotParticipant = errors.New("community: reply to someone under this comment")
	// ErrCommentText: empty or longer than CommentMaxRunes (422).
	ErrCommentText = errors.New("community: comment text must be 1 to 500 characters")
	// ErrCommentClient: the clientID is too long (422).
	ErrCommentClient = errors.New("community: clientID too long")
)

// Comment is a comment or a reply as the list shows it.
type Comment struct {
	ID         int64     `json:"id"`
	PostID     int64     `json:"postId"`
	ParentID   int64     `json:"parentId"`
	Author     Author    `json:"author"`
	ReplyTo    *Author   `json:"replyTo,omitempty"`
	Text       string    `json:"text"`
	State      string    `json:"state"`
	ReplyCount int64     `json:"replyCount"`
	Replies    []Comment `json:"replies"`
	Mine       bool      `json:"mine"`
	CreatedAt  int64     `json:"createdAt"`
}

type commentRow struct {
	id, post, parent, author, replyTo int64
	body, state                       string
	replies, created                  int64
}

const commentColumns = `c.id, c.post_id, c.parent_id, c.author_id, c.reply_to_uid, c.body, c.state, c.reply_count, c.created_at`

func scanComment(sc db.Scanner) (commentRow, error) {
	var c commentRow
	err := sc.Scan(&c.id, &c.post, &c.parent, &c.author, &c.replyTo, &c.body, &c.state, &c.replies, &c.created)
	return c, err
}

func loadComment(ctx context.Context, q db.Querier, id int64) (commentRow, error) {
	c, err := scanComment(q.QueryRow(ctx, `SELECT `+commentColumns+` FROM comments c WHERE c.id = ?`, id))
	if err != nil {
		if errors.Is(db.NotFound(err), db.ErrNotFound) {
			return commentRow{}, ErrNoComment
		}
		return commentRow{}, err
	}
	return c, nil
}

// CommentQuery is GET /api/app/community/comments.
type CommentQuery struct {
	Viewer, PostID, ParentID int64
	PageNumber, PageSize     int
}

// Comments lists a post's comments (ParentID 0: the first level, oldest
// first, each with its first CommentPreviewReplies replies; a deleted one
// stays while it has replies) or one comment's replies (oldest first).
// A post the viewer may not see is ErrNoPost; a parent that is not a
// first-level comment of the post is ErrNoComment.
func (s *Service) Comments(ctx context.Context, q CommentQuery) (httpx.Page[Comment], error) {
	out := httpx.Page[Comment]{List: []Comment{}, PageNumber: q.PageNumber, PageSize: q.PageSize}
	r, err := loadPost(ctx, s.db, q.PostID)
	if err != nil {
		return out, err
	}
	if !r.visible(q.Viewer) {
		return out, ErrNoPost
	}
	where, args := `c.post_id = ? AND c.parent_id = 0 AND (c.state = 'published' OR c.reply_count > 0)`, []any{q.PostID}
	if q.ParentID != 0 {
		p, err := loadComment(ctx, s.db, q.ParentID)
		if err != nil {
			return out, err
		}
		if p.post != q.PostID || p.parent != 0 {
			return out, ErrNoComment
		}
		where, args = `c.post_id = ? AND c.parent_id = ? AND c.state = 'published'`, []any{q.PostID, q.ParentID}
	}
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM comments c WHERE `+where, args...).Scan(&out.Total); err != nil {
		return out, err
	}
	rows, err := db.All(ctx, s.db, scanComment, `SELECT `+commentColumns+` FROM comments c WHERE `+where+
		` ORDER BY c.id LIMIT ? OFFSET ?`, append(args, q.PageSize, (q.PageNumber-1)*q.PageSize)...)
	if err != nil {
		return out, err
	}
	out.HasMore = (q.PageNumber-1)*q.PageSize+len(rows) < out.Total
	var replies []commentRow
	if q.ParentID == 0 && len(rows) > 0 {
		ids := make([]int64, len(rows))
		for i, c := range rows {
			ids[i] = c.id
		}
		replies, err = db.All(ctx, s.db, scanComment, `SELECT `+commentColumns+` FROM (
			SELECT cc.*, ROW_NUMBER() OVER (PARTITION BY cc.parent_id ORDER BY cc.id) AS rn
			FROM comments cc WHERE cc.parent_id IN (`+db.Placeholders(len(ids))+`) AND cc.state = 'published') c
			WHERE c.rn <= `+strconv.Itoa(CommentPreviewReplies)+` ORDER BY c.parent_id, c.id`, idArgs(ids)...)
		if err != nil {
			return out, err
		}
	}
	list, err := s.commentCards(ctx, q.Viewer, append(rows, replies...))
	if err != nil {
		return out, err
	}
	byParent := map[int64][]Comment{}
	for _, c := range list[len(rows):] {
		byParent[c.ParentID] = append(byParent[c.ParentID], c)
	}
	out.List = list[:len(rows)]
	for i := range out.List {
		if rs, ok := byParent[out.List[i].ID]; ok {
			out.List[i].Replies = rs
		}
	}
	return out, nil
}

// commentCards names the authors and whom each reply answers; the text of
// a comment that is not published is never handed out.
func (s *Service) commentCards(ctx context.Context, viewer int64, rows []commentRow) ([]Comment, error) {
	uids := make([]int64, 0, 2*len(rows))
	for _, c := range rows {
		uids = append(uids, c.author)
		if c.replyTo != 0 {
			uids = append(uids, c.replyTo)
		}
	}
	people, err := s.authors(ctx, uids)
	if err != nil {
		return nil, err
	}
	out := make([]Comment, len(rows))
	for i, c := range rows {
		cm := Comment{ID: c.id, PostID: c.post, ParentID: c.parent, Author: people[c.author], State: c.state,
			ReplyCount: c.replies, Replies: []Comment{}, Mine: viewer != 0 && viewer == c.author, CreatedAt: c.created}
		if c.state == CommentPublished {
			cm.Text = c.body
		} else {
			cm.Mine = false
		}
		if c.replyTo != 0 && c.parent != 0 {
			a := people[c.replyTo]
			cm.ReplyTo = &a
		}
		out[i] = cm
	}
	return out, nil
}

// NewComment is POST /api/app/community/comment's body after decoding.
type NewComment struct {
	PostID, ParentID, ReplyToUID int64
	Text, ClientID               string
}

// AddComment writes uid's comment (ParentID 0) or reply. The text is
// trimmed and must hold 1 to CommentMaxRunes characters. A repeated
// ClientID from the same user answers the first comment and writes
// nothing. Guests (ErrGuest) and the muted (*MutedError) are refused; the
// post must be published and visible (ErrNoPost, ErrNotOpen); a parent must
// be a published first-level comment of the post (ErrNoComment, ErrTooDeep)
// and ReplyToUID someone taking part under it (ErrNotParticipant; 0 means
// the parent's author). It notices the post's author ("comment") or the
// one replied to ("reply").
func (s *Service) AddComment(ctx context.Context, uid int64, in NewComment) (Comment, error) {
	in.Text = strings.TrimSpace(in.Text)
	if n := utf8.RuneCountInString(in.Text); n == 0 || n > CommentMaxRunes {
		return Comment{}, ErrCommentText
	}
	in.ClientID = strings.TrimSpace(in.ClientID)
	if utf8.RuneCountInString(in.ClientID) > commentClientIDMax {
		return Comment{}, ErrCommentClient
	}
	if in.ParentID == 0 && in.ReplyToUID != 0 {
		return Comment{}, ErrNotParticipant
	}
	if err := s.checkWords(ctx, in.Text); err != nil {
		return Comment{}, err
	}
	if s.Limiter != nil {
		if err := ratelimit.Enforce(ctx, s.Limiter, "comment:uid:"+strconv.FormatInt(uid, 10), CommentRate.N, CommentRate.Per, ratelimit.FailOpen); err != nil {
			return Comment{}, err
		}
	}
	now := s.now()
	var id int64
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		r, err := s.openPost(ctx, tx, uid, in.PostID)
		if err != nil {
			return err
		}
		if err := checkMuted(ctx, tx, uid, now); err != nil {
			return err
		}
		if in.ClientID != "" {
			err := tx.QueryRow(ctx, `SELECT id FROM comments WHERE author_id = ? AND client_id = ?`, uid, in.ClientID).Scan(&id)
			if err == nil {
				return nil
			}
			if !errors.Is(db.NotFound(err), db.ErrNotFound) {
				return err
			}
		}
		var parent commentRow
		if in.ParentID != 0 {
			if parent, err = loadComment(ctx, tx, in.ParentID); err != nil {
				return err
			}
			if parent.post != in.PostID || parent.state != CommentPublished {
				return ErrNoComment
			}
			if parent.parent != 0 {
				return ErrTooDeep
			}
			if in.ReplyToUID == 0 {
				in.ReplyToUID = parent.author
			} else if in.ReplyToUID != parent.author {
				var n int64
				if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM comments WHERE parent_id = ? AND author_id = ? AND state = 'published'`,
					parent.id, in.ReplyToUID).Scan(&n); err != nil {
					return err
				}
				if n == 0 {
					return ErrNotParticipant
				}
			}
		}
		err = tx.QueryRow(ctx, `INSERT INTO comments (post_id, parent_id, author_id, reply_to_uid, body, state, client_id, created_at)
			VALUES (?, ?, ?, ?, ?, 'published', ?, ?) ON CONFLICT (author_id, client_id) WHERE client_id <> '' DO NOTHING RETURNING id`,
			in.PostID, in.ParentID, uid, in.ReplyToUID, in.Text, in.ClientID, now.Unix()).Scan(&id)
		if errors.Is(db.NotFound(err), db.ErrNotFound) {
			// A parallel retry with the same clientID won: answer its comment.
			return tx.QueryRow(ctx, `SELECT id FROM comments WHERE author_id = ? AND client_id = ?`, uid, in.ClientID).Scan(&id)
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE posts SET comment_count = comment_count + 1 WHERE id = ?`, in.PostID); err != nil {
			return err
		}
		ref := strconv.FormatInt(in.PostID, 10)
		if in.ParentID == 0 {
			return messaging.Notify(ctx, tx, s.Events, messaging.Notice{UserID: r.author, Category: messaging.CategoryInteraction,
				Kind: "comment", ActorID: uid, Title: "评论了你的帖子", Body: in.Text, Ref: ref}, now)
		}
		if _, err := tx.Exec(ctx, `UPDATE comments SET reply_count = reply_count + 1 WHERE id = ?`, in.ParentID); err != nil {
			return err
		}
		return messaging.Notify(ctx, tx, s.Events, messaging.Notice{UserID: in.ReplyToUID, Category: messaging.CategoryInteraction,
			Kind: "reply", ActorID: uid, Title: "回复了你的评论", Body: in.Text, Ref: ref}, now)
	})
	if err != nil {
		return Comment{}, err
	}
	c, err := loadComment(ctx, s.db, id)
	if err != nil {
		return Comment{}, err
	}
	list, err := s.commentCards(ctx, uid, []commentRow{c})
	if err != nil {
		return Comment{}, err
	}
	return list[0], nil
}

// DeleteComment marks comment id deleted: its author or the post's author
// may. Anyone else, a comment already gone, or a post the caller may not
// see is ErrNoComment / ErrNoPost. The post's comment_count and the
// parent's reply_count drop by one in the same transaction.
func (s *Service) DeleteComment(ctx context.Context, uid, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		c, err := loadComment(ctx, tx, id)
		if err != nil {
			return err
		}
		r, err := loadPost(ctx, tx, c.post)
		if err != nil {
			return err
		}
		if !r.visible(uid) {
			return ErrNoComment
		}
		if c.author != uid && r.author != uid {
			return ErrNoComment
		}
		res, err := tx.Exec(ctx, `UPDATE comments SET state = 'deleted' WHERE id = ? AND state = 'published'`, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err == nil {
				err = ErrNoComment
			}
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE posts SET comment_count = comment_count - 1 WHERE id = ? AND comment_count > 0`, c.post); err != nil {
			return err
		}
		if c.parent != 0 {
			if _, err := tx.Exec(ctx, `UPDATE comments SET reply_count = reply_count - 1 WHERE id = ? AND reply_count > 0`, c.parent); err != nil {
				return err
			}
		}
		return nil
	})
}
