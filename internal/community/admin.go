package community

// The operator's community calls (/api/admin/community/..., admin_http.go):
// review, pin, feature and remove posts, remove comments, the report
// queue, mutes and the settings; topics are in topic_admin.go.
//
// Each action runs in one transaction with its audit row and its notice to
// the user it concerns, so the three commit together or not at all. A
// decision is a conditional statement on the state it decides from
// (UPDATE ... WHERE state = 'pending'): of two operators deciding at once,
// one changes the row and the other finds nothing to change and gets 409,
// with no second notice and no second audit row. Refusals are the
// sentinels of errors.go, which modErrs answers; bad input is ErrModInput
// with the rule's words.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"prima/internal/messaging"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/realtime"
	"prima/internal/search"
)

// Bounds of the operator's input.
const (
	ModReasonMax  = 200     // characters of a reject, remove or mute reason
	RulesMax      = 5000    // characters of the community rules
	MaxMuteMinute = 525_600 // a year
)

// EventPostChanged is the realtime event a post's author receives when an
// operator changes its state: {"id", "state"}.
const EventPostChanged = "post.changed"

// modShanghai is the zone notices write times in (the users' own).
var modShanghai = time.FixedZone("Asia/Shanghai", 8*3600)

// modReason trims a reason and checks it holds 1..ModReasonMax characters.
func modReason(s string) (string, error) {
	s = strings.TrimSpace(s)
	n := utf8.RuneCountInString(s)
	if n == 0 {
		return "", modInvalid("请填写原因", "reason is required")
	}
	if n > ModReasonMax {
		return "", modInvalid(fmt.Sprintf("原因不能超过 %d 个字", ModReasonMax), fmt.Sprintf("reason is longer than %d characters", ModReasonMax))
	}
	return s, nil
}

// postLabel names a post in a notice: its title, else the start of its text.
func (r postRow) label() string {
	if t := strings.TrimSpace(r.title); t != "" {
		return cutRunes(t, 20)
	}
	if s := r.summary(); s != "" {
		return cutRunes(strings.TrimSuffix(s, "…"), 20)
	}
	return "#" + strconv.FormatInt(r.id, 10)
}

// postChanged tells the author's open apps, once tx commits, that post id
// is now in state.
func (s *Service) postChanged(tx *db.Tx, author, id int64, state string) {
	tx.AfterCommit(func() {
		realtime.Notify(context.Background(), s.Events, realtime.UserTopic(author), EventPostChanged, map[string]any{"id": id, "state": state})
	})
}

// modNotice writes a system notice about post ref to uid.
func (s *Service) modNotice(ctx context.Context, tx *db.Tx, uid int64, kind, title, body string, ref int64, now time.Time) error {
	return messaging.Notify(ctx, tx, s.Events, messaging.Notice{UserID: uid, Category: messaging.CategorySystem, Kind: kind,
		Title: title, Body: body, Ref: strconv.FormatInt(ref, 10)}, now)
}

// ---- Posts ----

// AdminPost is a post as operators see it: the card with its state and
// reason, the whole body (an article's sanitised HTML) and how many open
// reports it has.
type AdminPost struct {
	Post
	Body        string `json:"body"`
	OpenReports int64  `json:"openReports"`
}

// AdminPostQuery filters the operator's post list: State "" any, UID 0 any.
// After, when set, is the (created_at, id) of the last post of the page
// before (the cursor).
type AdminPostQuery struct {
	State    string
	UID      int64
	After    []int64
	PageSize int
}

// ValidPostState reports whether s names a post state.
func ValidPostState(s string) bool {
	switch s {
	case StatePending, StatePublished, StateRejected, StateRemoved, StateDeleted:
		return true
	}
	return false
}

// AdminPosts lists posts in any state, a keyset page at a time. The
// pending queue is oldest first (first come, first reviewed); every other
// list newest first; both by (created_at, id), the cursor's keys. No
// count and no offset: a page of one state walks posts_state_created, of
// one author posts_author, of every post posts_created (migration 0075).
func (s *Service) AdminPosts(ctx context.Context, viewer int64, q AdminPostQuery) (httpx.KeyPage[AdminPost], error) {
	var w db.Where
	if q.State != "" {
		w.And(`p.state = ?`, q.State)
	}
	if q.UID != 0 {
		w.And(`p.author_id = ?`, q.UID)
	}
	order, cmp := ` ORDER BY p.created_at DESC, p.id DESC`, `<`
	if q.State == StatePending {
		order, cmp = ` ORDER BY p.created_at, p.id`, `>`
	}
	if len(q.After) == 2 {
		w.And(`(p.created_at, p.id) `+cmp+` (?, ?)`, q.After[0], q.After[1])
	}
	rows, err := db.All(ctx, s.db, scanPost, `SELECT `+postColumns+` FROM posts p`+w.Clause()+order+` LIMIT ?`,
		append(w.Args(), q.PageSize+1)...)
	if err != nil {
		return httpx.KeyPage[AdminPost]{}, err
	}
	page := httpx.NewKeyPage(rows, q.PageSize, func(r postRow) []int64 { return []int64{r.created, r.id} })
	list, err := s.adminPosts(ctx, viewer, page.List)
	if err != nil {
		return httpx.KeyPage[AdminPost]{}, err
	}
	return httpx.KeyPage[AdminPost]{List: list, PageSize: page.PageSize, HasMore: page.HasMore, NextCursor: page.NextCursor}, nil
}

func (s *Service) adminPosts(ctx context.Context, viewer int64, rows []postRow) ([]AdminPost, error) {
	cards, err := s.cards(ctx, viewer, rows, true)
	if err != nil {
		return nil, err
	}
	out := make([]AdminPost, len(rows))
	ids := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = AdminPost{Post: cards[i], Body: r.body}
		ids[i] = r.id
	}
	if len(ids) == 0 {
		return out, nil
	}
	counts, err := db.All(ctx, s.db, scanPair[int64], `SELECT post_id, COUNT(*) FROM post_reports WHERE state = 'open' AND comment_id = 0
		AND post_id IN (`+db.Placeholders(len(ids))+`) GROUP BY post_id`, idArgs(ids)...)
	for _, c := range counts {
		for i := range out {
			if out[i].ID == c.a {
				out[i].OpenReports = c.b
			}
		}
	}
	return out, err
}

// AdminPost is post id as operators see it (404 when there is no such row).
func (s *Service) AdminPost(ctx context.Context, viewer, id int64) (AdminPost, error) {
	r, err := loadPost(ctx, s.db, id)
	if errors.Is(err, ErrNoPost) {
		return AdminPost{}, modErr(ErrNoPost, "no post "+strconv.FormatInt(id, 10))
	}
	if err != nil {
		return AdminPost{}, err
	}
	ps, err := s.adminPosts(ctx, viewer, []postRow{r})
	if err != nil {
		return AdminPost{}, err
	}
	return ps[0], nil
}

// modPost reads post id inside tx for an operator's action (404 when none).
func modPost(ctx context.Context, tx *db.Tx, id int64) (postRow, error) {
	r, err := scanPost(tx.QueryRow(ctx, `SELECT `+postColumns+` FROM posts p WHERE p.id = ?`+tx.ForUpdate(), id))
	if errors.Is(err, sql.ErrNoRows) {
		return r, modErr(ErrNoPost, "no post "+strconv.FormatInt(id, 10))
	}
	return r, err
}

// setPostState moves post id from state from to state to (with reason),
// and reports whether it did: false means another decision came first.
func setPostState(ctx context.Context, tx *db.Tx, id int64, from, to, reason string, now int64) (bool, error) {
	q := `UPDATE posts SET state = ?, reason = ?, updated_at = ?`
	args := []any{to, reason, now}
	if to == StatePublished {
		q += `, published_at = ?`
		args = append(args, now)
	}
	res, err := tx.Exec(ctx, q+` WHERE id = ? AND state = ?`, append(args, id, from)...)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ReviewPost decides pending post id: approve publishes it (published_at
// now), reject needs a reason and keeps it the author's with that reason.
// Either way the author gets a "post_review" notice and a post.changed
// event. A post that is not pending (decided already, or never held) is
// 409 and nothing changes.
func (s *Service) ReviewPost(ctx context.Context, actor audit.Actor, id int64, approve bool, reason string) (AdminPost, error) {
	reason, err := reviewReason(approve, reason)
	if err != nil {
		return AdminPost{}, err
	}
	now := s.now()
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		p, err := modPost(ctx, tx, id)
		if err != nil {
			return err
		}
		decided := modErr(ErrNotPending, "post "+strconv.FormatInt(id, 10)+" is "+p.state+", not pending")
		if p.state != StatePending {
			return decided
		}
		ok, err := s.review(ctx, tx, actor, p, approve, reason, now)
		if err == nil && !ok {
			return decided
		}
		return err
	})
	if err != nil {
		return AdminPost{}, err
	}
	return s.AdminPost(ctx, actor.UID, id)
}

// MaxReviewBatch bounds the posts one bulk review decides.
const MaxReviewBatch = 100

// Reviewed answers a bulk review: the posts it decided (Changed of them,
// in the order asked) and those it left because they were no longer
// pending (another operator, or the author, came first).
type Reviewed struct {
	Changed int     `json:"changed"`
	IDs     []int64 `json:"ids"`
	Skipped []int64 `json:"skipped"`
}

// ReviewPosts decides the pending posts among ids (1..MaxReviewBatch,
// repeats counted once) the same way, in one transaction: each decided
// post gets its notice, event and audit row as ReviewPost gives them. A
// post that is not pending is skipped and listed; an id with no post is
// 404 and nothing changes.
func (s *Service) ReviewPosts(ctx context.Context, actor audit.Actor, ids []int64, approve bool, reason string) (Reviewed, error) {
	out := Reviewed{IDs: []int64{}, Skipped: []int64{}}
	if len(ids) == 0 || len(ids) > MaxReviewBatch {
		return out, modInvalid(fmt.Sprintf("一次可审核 1 到 %d 个帖子", MaxReviewBatch), fmt.Sprintf("ids must hold 1 to %d post ids", MaxReviewBatch))
	}
	seen := make(map[int64]bool, len(ids))
	uniq := make([]int64, 0, len(ids))
	for _, id := range ids {
		if id < 1 || id > httpx.MaxID {
			return out, modInvalid("帖子 id 无效", "ids must be positive integers")
		}
		if !seen[id] {
			seen[id] = true
			uniq = append(uniq, id)
		}
	}
	reason, err := reviewReason(approve, reason)
	if err != nil {
		return out, err
	}
	now := s.now()
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		out = Reviewed{IDs: []int64{}, Skipped: []int64{}}
		for _, id := range uniq {
			p, err := modPost(ctx, tx, id)
			if err != nil {
				return err
			}
			ok := false
			if p.state == StatePending {
				if ok, err = s.review(ctx, tx, actor, p, approve, reason, now); err != nil {
					return err
				}
			}
			if ok {
				out.IDs = append(out.IDs, id)
			} else {
				out.Skipped = append(out.Skipped, id)
			}
		}
		out.Changed = len(out.IDs)
		return nil
	})
	return out, err
}

// reviewReason checks a review's reason: a rejection needs one, an
// approval carries none.
func reviewReason(approve bool, reason string) (string, error) {
	if approve {
		reason = strings.TrimSpace(reason)
		if utf8.RuneCountInString(reason) > ModReasonMax {
			return "", modInvalid(fmt.Sprintf("原因不能超过 %d 个字", ModReasonMax), "reason is too long")
		}
		return "", nil // an approved post carries no reason
	}
	reason, err := modReason(reason)
	if err != nil {
		return "", modInvalid("驳回需填写原因", "a rejection needs a reason")
	}
	return reason, nil
}

// review decides pending post p inside tx: its state, search entry,
// notice, event and audit row; false when another decision came first.
func (s *Service) review(ctx context.Context, tx *db.Tx, actor audit.Actor, p postRow, approve bool, reason string, now time.Time) (bool, error) {
	id := p.id
	to, action, title, body := StatePublished, "post.approve", "你的帖子已通过审核", "「"+p.label()+"」已发布到社区。"
	if !approve {
		to, action, title, body = StateRejected, "post.reject", "你的帖子未通过审核", "「"+p.label()+"」未通过审核，原因："+reason
	}
	ok, err := setPostState(ctx, tx, id, StatePending, to, reason, now.Unix())
	if err != nil || !ok {
		return false, err
	}
	if err := search.Touch(ctx, tx, search.KindPost, id); err != nil {
		return false, err
	}
	if err := s.modNotice(ctx, tx, p.author, "post_review", title, body, id, now); err != nil {
		return false, err
	}
	s.postChanged(tx, p.author, id, to)
	return true, audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: action, TargetType: "post", TargetID: strconv.FormatInt(id, 10),
		Before: map[string]any{"state": p.state}, After: map[string]any{"state": to, "reason": reason}}, now)
}

// RemovePost takes post id down with a reason: any state but removed or
// deleted becomes removed, the author gets a "post_removed" notice and a
// post.changed event, and the open reports of the post are resolved.
// Removing it again is 409.
func (s *Service) RemovePost(ctx context.Context, actor audit.Actor, id int64, reason string) (AdminPost, error) {
	reason, err := modReason(reason)
	if err != nil {
		return AdminPost{}, err
	}
	now := s.now()
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		p, err := modPost(ctx, tx, id)
		if err != nil {
			return err
		}
		gone := modErr(ErrPostGone, "post "+strconv.FormatInt(id, 10)+" is "+p.state)
		if p.state == StateRemoved || p.state == StateDeleted {
			return gone
		}
		ok, err := setPostState(ctx, tx, id, p.state, StateRemoved, reason, now.Unix())
		if err != nil {
			return err
		}
		if !ok {
			return gone
		}
		if err := search.Touch(ctx, tx, search.KindPost, id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE post_reports SET state = 'resolved' WHERE post_id = ? AND comment_id = 0 AND state = 'open'`, id); err != nil {
			return err
		}
		if err := s.modNotice(ctx, tx, p.author, "post_removed", "你的帖子已被删除", "「"+p.label()+"」因违反社区规范已被删除，原因："+reason, id, now); err != nil {
			return err
		}
		s.postChanged(tx, p.author, id, StateRemoved)
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "post.remove", TargetType: "post", TargetID: strconv.FormatInt(id, 10),
			Before: map[string]any{"state": p.state}, After: map[string]any{"state": StateRemoved, "reason": reason}}, now)
	})
	if err != nil {
		return AdminPost{}, err
	}
	return s.AdminPost(ctx, actor.UID, id)
}

// PinPost pins (on) or unpins post id at the head of its sub-module and
// topic lists; FeaturePost marks it 精华 or not. Only published posts take
// either (409); asking for what is already so changes nothing and writes
// no audit row.
func (s *Service) PinPost(ctx context.Context, actor audit.Actor, id int64, on bool) (AdminPost, error) {
	return s.flagPost(ctx, actor, id, on, "pin")
}

// FeaturePost: see PinPost.
func (s *Service) FeaturePost(ctx context.Context, actor audit.Actor, id int64, on bool) (AdminPost, error) {
	return s.flagPost(ctx, actor, id, on, "feature")
}

func (s *Service) flagPost(ctx context.Context, actor audit.Actor, id int64, on bool, flag string) (AdminPost, error) {
	now := s.now()
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		p, err := modPost(ctx, tx, id)
		if err != nil {
			return err
		}
		if p.state != StatePublished {
			return modErr(ErrNotPublished, "post "+strconv.FormatInt(id, 10)+" is "+p.state)
		}
		was := p.pinned > 0
		set, val := `pinned_at = ?`, any(int64(0))
		if on {
			val = now.Unix()
		}
		if flag == "feature" {
			was, set, val = p.featured, `featured = ?`, db.BoolInt(on)
		}
		if was == on {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE posts SET `+set+`, updated_at = ? WHERE id = ?`, val, now.Unix(), id); err != nil {
			return err
		}
		action := "post." + flag
		if !on {
			action = "post.un" + flag
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: action, TargetType: "post", TargetID: strconv.FormatInt(id, 10),
			Before: map[string]bool{flag: was}, After: map[string]bool{flag: on}}, now)
	})
	if err != nil {
		return AdminPost{}, err
	}
	return s.AdminPost(ctx, actor.UID, id)
}

// ---- Comments ----

// AdminComment is a comment as operators see it: its text whatever its
// state.
type AdminComment struct {
	ID         int64   `json:"id"`
	PostID     int64   `json:"postId"`
	ParentID   int64   `json:"parentId"`
	Author     Author  `json:"author"`
	ReplyTo    *Author `json:"replyTo,omitempty"`
	Text       string  `json:"text"`
	State      string  `json:"state"`
	ReplyCount int64   `json:"replyCount"`
	CreatedAt  int64   `json:"createdAt"`
}

type modCommentRow struct {
	AdminComment
	author, replyTo int64
}

// AdminComments lists comments newest first (by id, a keyset page after
// comment id after, 0 for the first): of post postID (index
// comments_post_id), or of every post when postID is 0 (the primary key).
func (s *Service) AdminComments(ctx context.Context, postID, after int64, pageSize int) (httpx.KeyPage[AdminComment], error) {
	page := httpx.KeyPage[AdminComment]{List: []AdminComment{}, PageSize: pageSize}
	var w db.Where
	if postID != 0 {
		w.And(`post_id = ?`, postID)
	}
	if after > 0 {
		w.And(`id < ?`, after)
	}
	where, args := w.Clause(), w.Args()
	rows, err := db.All(ctx, s.db, func(sc db.Scanner) (modCommentRow, error) {
		var c modCommentRow
		err := sc.Scan(&c.ID, &c.PostID, &c.ParentID, &c.author, &c.replyTo, &c.Text, &c.State, &c.ReplyCount, &c.CreatedAt)
		return c, err
	}, `SELECT id, post_id, parent_id, author_id, reply_to_uid, body, state, reply_count, created_at FROM comments`+where+
		` ORDER BY id DESC LIMIT ?`, append(args, pageSize+1)...)
	if err != nil {
		return page, err
	}
	if len(rows) > pageSize {
		rows, page.HasMore = rows[:pageSize], true
		c := httpx.Cursor(rows[pageSize-1].ID)
		page.NextCursor = &c
	}
	var uids []int64
	for _, c := range rows {
		uids = append(uids, c.author)
		if c.replyTo != 0 {
			uids = append(uids, c.replyTo)
		}
	}
	people, err := s.authors(ctx, uids)
	if err != nil {
		return page, err
	}
	for _, c := range rows {
		c.Author = people[c.author]
		if c.replyTo != 0 {
			a := people[c.replyTo]
			c.ReplyTo = &a
		}
		page.List = append(page.List, c.AdminComment)
	}
	return page, nil
}

// RemoveComment takes published comment id down with a reason: it becomes
// removed (a top-level one keeps its place and its replies), the post's
// comment_count and, for a reply, the parent's reply_count drop by one in
// the same transaction (never below 0), its open reports are resolved,
// and its author gets a "comment_removed" notice. A comment not published
// (removed or deleted already) is 409.
func (s *Service) RemoveComment(ctx context.Context, actor audit.Actor, id int64, reason string) error {
	reason, err := modReason(reason)
	if err != nil {
		return err
	}
	now := s.now()
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var post, parent, author int64
		var body, state string
		err := tx.QueryRow(ctx, `SELECT post_id, parent_id, author_id, body, state FROM comments WHERE id = ?`+tx.ForUpdate(), id).
			Scan(&post, &parent, &author, &body, &state)
		if errors.Is(err, sql.ErrNoRows) {
			return modErr(ErrNoComment, "no comment "+strconv.FormatInt(id, 10))
		}
		if err != nil {
			return err
		}
		gone := modErr(ErrCommentGone, "comment "+strconv.FormatInt(id, 10)+" is "+state)
		if state != "published" {
			return gone
		}
		res, err := tx.Exec(ctx, `UPDATE comments SET state = 'removed' WHERE id = ? AND state = 'published'`, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			if err != nil {
				return err
			}
			return gone
		}
		if _, err := tx.Exec(ctx, `UPDATE posts SET comment_count = comment_count - 1 WHERE id = ? AND comment_count > 0`, post); err != nil {
			return err
		}
		if parent != 0 {
			if _, err := tx.Exec(ctx, `UPDATE comments SET reply_count = reply_count - 1 WHERE id = ? AND reply_count > 0`, parent); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE post_reports SET state = 'resolved' WHERE post_id = ? AND comment_id = ? AND state = 'open'`, post, id); err != nil {
			return err
		}
		if err := s.modNotice(ctx, tx, author, "comment_removed", "你的评论已被删除",
			"「"+cutRunes(body, 20)+"」因违反社区规范已被删除，原因："+reason, post, now); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "comment.remove", TargetType: "comment", TargetID: strconv.FormatInt(id, 10),
			Before: map[string]any{"state": state, "postId": post}, After: map[string]any{"state": "removed", "reason": reason}}, now)
	})
}

// ---- Reports ----

// AdminReport is one report with what it is about: the reporter, the
// post (and comment) with its author, text and state, and how many open
// reports the same target has.
type AdminReport struct {
	ID           int64  `json:"id"`
	PostID       int64  `json:"postId"`
	CommentID    int64  `json:"commentId"`
	Reason       string `json:"reason"`
	State        string `json:"state"`
	CreatedAt    int64  `json:"createdAt"`
	Reporter     Author `json:"reporter"`
	TargetAuthor Author `json:"targetAuthor"`
	PostTitle    string `json:"postTitle"`
	PostState    string `json:"postState"`
	// Text is the comment's text, or the post's summary.
	Text        string `json:"text"`
	TargetState string `json:"targetState"` // the comment's state, or the post's
	OpenReports int64  `json:"openReports"` // open reports of the same target
}

// AdminReports lists reports in state (open: oldest first, the queue;
// resolved: newest first), by id, a keyset page after report id after (0
// for the first): a walk of post_reports_state.
func (s *Service) AdminReports(ctx context.Context, state string, after int64, pageSize int) (httpx.KeyPage[AdminReport], error) {
	page := httpx.KeyPage[AdminReport]{List: []AdminReport{}, PageSize: pageSize}
	order, cmp := `r.id`, `>`
	if state != "open" {
		order, cmp = `r.id DESC`, `<`
	}
	args := []any{state}
	where := `r.state = ?`
	if after > 0 {
		where, args = where+` AND r.id `+cmp+` ?`, append(args, after)
	}
	type row struct {
		AdminReport
		reporter, postAuthor, commentAuthor int64
		kind, body, comment, commentState   string
	}
	rows, err := db.All(ctx, s.db, func(sc db.Scanner) (row, error) {
		var r row
		err := sc.Scan(&r.ID, &r.reporter, &r.PostID, &r.CommentID, &r.Reason, &r.State, &r.CreatedAt,
			&r.postAuthor, &r.PostTitle, &r.body, &r.kind, &r.PostState, &r.commentAuthor, &r.comment, &r.commentState, &r.OpenReports)
		return r, err
	}, `SELECT r.id, r.reporter_id, r.post_id, r.comment_id, r.reason, r.state, r.created_at,
		COALESCE(p.author_id, 0), COALESCE(p.title, ''), COALESCE(p.body, ''), COALESCE(p.kind, ''), COALESCE(p.state, ''),
		COALESCE(c.author_id, 0), COALESCE(c.body, ''), COALESCE(c.state, ''),
		(SELECT COUNT(*) FROM post_reports o WHERE o.post_id = r.post_id AND o.comment_id = r.comment_id AND o.state = 'open')
		FROM post_reports r LEFT JOIN posts p ON p.id = r.post_id LEFT JOIN comments c ON r.comment_id <> 0 AND c.id = r.comment_id
		WHERE `+where+` ORDER BY `+order+` LIMIT ?`, append(args, pageSize+1)...)
	if err != nil {
		return page, err
	}
	if len(rows) > pageSize {
		rows, page.HasMore = rows[:pageSize], true
		c := httpx.Cursor(rows[pageSize-1].ID)
		page.NextCursor = &c
	}
	var uids []int64
	for _, r := range rows {
		uids = append(uids, r.reporter, r.postAuthor, r.commentAuthor)
	}
	people, err := s.authors(ctx, uids)
	if err != nil {
		return page, err
	}
	for _, r := range rows {
		rep := r.AdminReport
		rep.Reporter = people[r.reporter]
		if r.CommentID != 0 {
			rep.TargetAuthor, rep.Text, rep.TargetState = people[r.commentAuthor], r.comment, r.commentState
		} else {
			p := postRow{id: r.PostID, kind: r.kind, title: r.PostTitle, body: r.body}
			rep.TargetAuthor, rep.Text, rep.TargetState = people[r.postAuthor], p.summary(), r.PostState
		}
		page.List = append(page.List, rep)
	}
	return page, nil
}

// ResolveReport closes report id and every other open report of the same
// target (the operator has looked at it); it answers how many it closed.
// A resolved report is 409.
func (s *Service) ResolveReport(ctx context.Context, actor audit.Actor, id int64) (int64, error) {
	now := s.now()
	var n int64
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var post, comment int64
		var state string
		err := tx.QueryRow(ctx, `SELECT post_id, comment_id, state FROM post_reports WHERE id = ?`+tx.ForUpdate(), id).Scan(&post, &comment, &state)
		if errors.Is(err, sql.ErrNoRows) {
			return modErr(ErrNoReport, "no report "+strconv.FormatInt(id, 10))
		}
		if err != nil {
			return err
		}
		done := modErr(ErrReportDone, "report "+strconv.FormatInt(id, 10)+" is resolved")
		if state != "open" {
			return done
		}
		res, err := tx.Exec(ctx, `UPDATE post_reports SET state = 'resolved' WHERE post_id = ? AND comment_id = ? AND state = 'open'`, post, comment)
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil {
			return err
		}
		if n == 0 {
			return done
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "report.resolve", TargetType: "report", TargetID: strconv.FormatInt(id, 10),
			Before: map[string]any{"state": "open"}, After: map[string]any{"state": "resolved", "postId": post, "commentId": comment, "closed": n}}, now)
	})
	return n, err
}

// ---- Mutes ----

// Mute is a user's mute as the operator's call answers it: MutedUntil 0
// when not muted.
type Mute struct {
	UID        int64  `json:"uid"`
	MutedUntil int64  `json:"mutedUntil"`
	Reason     string `json:"reason"`
}

// MuteUser mutes uid for minutes (1..MaxMuteMinute, with a reason) from
// now, replacing any mute they have, or with minutes 0 lifts their mute.
// The user gets a "muted" notice either way; lifting a mute that is not
// there changes nothing and tells no one.
func (s *Service) MuteUser(ctx context.Context, actor audit.Actor, uid int64, minutes int64, reason string) (Mute, error) {
	if minutes < 0 || minutes > MaxMuteMinute {
		return Mute{}, modInvalid("禁言时长应在 0 到 525600 分钟（一年）之间", "minutes must be 0-525600")
	}
	if minutes > 0 {
		var err error
		if reason, err = modReason(reason); err != nil {
			return Mute{}, err
		}
	} else {
		reason = ""
	}
	now := s.now()
	out := Mute{UID: uid, Reason: reason}
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if _, err := s.userCard(ctx, tx, uid); errors.Is(err, ErrNoUser) {
			return modErr(ErrNoUser, "no user "+strconv.FormatInt(uid, 10))
		} else if err != nil {
			return err
		}
		var before int64
		err := tx.QueryRow(ctx, `SELECT muted_until FROM community_mutes WHERE user_id = ?`+tx.ForUpdate(), uid).Scan(&before)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if minutes == 0 {
			if before <= now.Unix() {
				// Not muted now: nothing to lift, no one to tell (an
				// expired row is tidied away).
				if before > 0 {
					_, err := tx.Exec(ctx, `DELETE FROM community_mutes WHERE user_id = ?`, uid)
					return err
				}
				return nil
			}
			if _, err := tx.Exec(ctx, `DELETE FROM community_mutes WHERE user_id = ?`, uid); err != nil {
				return err
			}
			if err := messaging.Notify(ctx, tx, s.Events, messaging.Notice{UserID: uid, Category: messaging.CategorySystem, Kind: "muted",
				Title: "你的禁言已解除", Body: "你可以继续在社区发帖、评论和发私信了。"}, now); err != nil {
				return err
			}
			return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "user.unmute", TargetType: "user", TargetID: strconv.FormatInt(uid, 10),
				Before: map[string]int64{"mutedUntil": before}, After: map[string]int64{"mutedUntil": 0}}, now)
		}
		out.MutedUntil = now.Add(time.Duration(minutes) * time.Minute).Unix()
		if _, err := tx.Exec(ctx, `INSERT INTO community_mutes (user_id, muted_until, reason, operator_id, created_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (user_id) DO UPDATE SET muted_until = excluded.muted_until, reason = excluded.reason,
			operator_id = excluded.operator_id, created_at = excluded.created_at`, uid, out.MutedUntil, reason, actor.UID, now.Unix()); err != nil {
			return err
		}
		until := time.Unix(out.MutedUntil, 0).In(modShanghai).Format("2006-01-02 15:04")
		if err := messaging.Notify(ctx, tx, s.Events, messaging.Notice{UserID: uid, Category: messaging.CategorySystem, Kind: "muted",
			Title: "你已被禁言至 " + until, Body: "禁言期间不能在社区发帖、评论和发私信，原因：" + reason}, now); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "user.mute", TargetType: "user", TargetID: strconv.FormatInt(uid, 10),
			Before: map[string]int64{"mutedUntil": before}, After: map[string]any{"mutedUntil": out.MutedUntil, "minutes": minutes, "reason": reason}}, now)
	})
	return out, err
}

// ---- Settings ----

// AdminSettings is the community settings.
func (s *Service) AdminSettings(ctx context.Context) (Settings, error) {
	return loadSettings(ctx, s.db)
}

// SaveSettings sets review and/or rules (≤ RulesMax characters, trimmed),
// audited as "community.settings" when something changed.
func (s *Service) SaveSettings(ctx context.Context, actor audit.Actor, review *bool, rules *string) (Settings, error) {
	if review == nil && rules == nil {
		return Settings{}, modInvalid("缺少参数 review 或 rules", "give review, rules or both")
	}
	if rules != nil {
		r := strings.TrimSpace(*rules)
		if n := utf8.RuneCountInString(r); n > RulesMax {
			return Settings{}, modInvalid(fmt.Sprintf("社区规则不能超过 %d 个字", RulesMax), fmt.Sprintf("rules is longer than %d characters", RulesMax))
		}
		rules = &r
	}
	now := s.now()
	var out Settings
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		before, err := loadSettings(ctx, tx)
		if err != nil {
			return err
		}
		out = before
		if review != nil {
			out.Review = *review
		}
		if rules != nil {
			out.Rules = *rules
		}
		if out.Review == before.Review && out.Rules == before.Rules {
			return nil
		}
		out.UpdatedAt = now.Unix()
		if _, err := tx.Exec(ctx, `UPDATE community_settings SET review = ?, rules = ?, updated_at = ? WHERE id = 1`, db.BoolInt(out.Review), out.Rules, out.UpdatedAt); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "community.settings", TargetType: "community_settings", TargetID: "1",
			Before: map[string]any{"review": before.Review, "rulesLength": utf8.RuneCountInString(before.Rules)},
			After:  map[string]any{"review": out.Review, "rulesLength": utf8.RuneCountInString(out.Rules)}}, now)
	})
	return out, err
}
