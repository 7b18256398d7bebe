package support

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"prima/internal/media"
	"prima/internal/messaging"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// Feedback limits (characters; pictures).
const (
	MinFeedback    = 5
	MaxFeedback    = 500
	MaxContact     = 100
	MaxImages      = 4
	MaxReply       = 1000
	FeedbackOpen   = "open"
	FeedbackAnswer = "replied"
)

// FeedbackInput is POST /api/app/mine/feedback.
type FeedbackInput struct {
	Content string  `json:"content" text:"multiline"`
	Images  []int64 `json:"images"`
	Contact string  `json:"contact"`
}

// Picture is a feedback picture: signed URLs of its variants.
type Picture struct {
	ID          int64  `json:"id"`
	Thumb       string `json:"thumb"`
	Display     string `json:"display"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	Placeholder string `json:"placeholder"`
}

// Reply is an operator's answer.
type Reply struct {
	ID        int64     `json:"id"`
	Body      string    `json:"body"`
	CreatedAt time.Time `json:"createdAt"`
}

// Feedback is one feedback as its author sees it (operators also get uid
// and the replying operators' uids through AdminFeedback).
type Feedback struct {
	ID        int64     `json:"id"`
	Content   string    `json:"content"`
	Contact   string    `json:"contact"`
	Status    string    `json:"status"` // open | replied
	Images    []Picture `json:"images"`
	Replies   []Reply   `json:"replies"`
	CreatedAt time.Time `json:"createdAt"`
	RepliedAt time.Time `json:"repliedAt,omitzero"`
	UserID    int64     `json:"uid,omitempty"` // operators' list only
}

// CheckFeedback validates in (not the pictures' owner: that needs the
// database) and returns it trimmed.
func CheckFeedback(in FeedbackInput) (FeedbackInput, error) {
	var err error
	if in.Content, err = checkText(in.Content, "反馈内容", MinFeedback, MaxFeedback, true); err != nil {
		return in, err
	}
	if in.Contact, err = checkText(in.Contact, "联系方式", 0, MaxContact, false); err != nil {
		return in, err
	}
	if len(in.Images) > MaxImages {
		return in, invalid(fmt.Sprintf("最多上传 %d 张图片", MaxImages), "too many images")
	}
	seen := map[int64]bool{}
	for _, id := range in.Images {
		if id < 1 || id > httpx.MaxID {
			return in, invalid("图片参数无效", "images must be asset ids")
		}
		if seen[id] {
			return in, invalid("图片重复", "an image appears twice")
		}
		seen[id] = true
	}
	return in, nil
}

// SendFeedback stores uid's feedback with its pictures, which must be
// ready pictures uid uploaded: another user's asset, a video or a failed
// upload is refused the same way, so ids reveal nothing.
func (s *Service) SendFeedback(ctx context.Context, uid int64, in FeedbackInput) (int64, error) {
	in, err := CheckFeedback(in)
	if err != nil {
		return 0, err
	}
	if err := s.limit(ctx, "feedback", uid, FeedbackRate); err != nil {
		return 0, err
	}
	var id int64
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		for _, a := range in.Images {
			asset, err := s.asset(ctx, tx, a)
			if errors.Is(err, media.ErrNotFound) || (err == nil && (asset.OwnerUID != uid || asset.Kind != "image" || asset.State != "ready")) {
				return ErrNotYourPicture
			}
			if err != nil {
				return err
			}
		}
		if err := tx.QueryRow(ctx, `INSERT INTO feedback (user_id, content, contact, status, created_at) VALUES (?, ?, ?, 'open', ?) RETURNING id`,
			uid, in.Content, in.Contact, s.now().Unix()).Scan(&id); err != nil {
			return err
		}
		for i, a := range in.Images {
			if _, err := tx.Exec(ctx, `INSERT INTO feedback_images (feedback_id, position, asset_id) VALUES (?, ?, ?)`, id, i, a); err != nil {
				return err
			}
		}
		return nil
	})
	return id, err
}

const feedbackColumns = `id, user_id, content, contact, status, created_at, replied_at`

func scanFeedback(r db.Scanner) (Feedback, error) {
	var f Feedback
	var created, replied int64
	err := r.Scan(&f.ID, &f.UserID, &f.Content, &f.Contact, &f.Status, &created, &replied)
	f.CreatedAt = time.Unix(created, 0).UTC()
	if replied > 0 {
		f.RepliedAt = time.Unix(replied, 0).UTC()
	}
	return f, err
}

// MyFeedback is one page of uid's feedback, newest first, with pictures
// and replies.
func (s *Service) MyFeedback(ctx context.Context, uid int64, num, size int) (httpx.Page[Feedback], error) {
	var w db.Where
	w.And("user_id = ?", uid)
	p, err := s.listFeedback(ctx, &w, num, size)
	for i := range p.List {
		p.List[i].UserID = 0
	}
	return p, err
}

// AdminFeedback is one page of every user's feedback (uid 0) or one
// user's, of one status ("" any), newest first by id: a keyset page after
// feedback id after (0 for the first), without a count or an offset (a
// walk of feedback_user, feedback_status or the primary key).
func (s *Service) AdminFeedback(ctx context.Context, uid int64, status string, after int64, size int) (httpx.KeyPage[Feedback], error) {
	var w db.Where
	if uid > 0 {
		w.And("user_id = ?", uid)
	}
	if status != "" {
		w.And("status = ?", status)
	}
	if after > 0 {
		w.And("id < ?", after)
	}
	list, err := db.All(ctx, s.db, scanFeedback, `SELECT `+feedbackColumns+` FROM feedback`+w.Clause()+` ORDER BY id DESC LIMIT ?`,
		append(w.Args(), size+1)...)
	if err != nil {
		return httpx.KeyPage[Feedback]{}, err
	}
	p := httpx.NewKeyPage(list, size, func(f Feedback) []int64 { return []int64{f.ID} })
	if err := s.fill(ctx, s.db, p.List); err != nil {
		return httpx.KeyPage[Feedback]{}, err
	}
	return p, nil
}

func (s *Service) listFeedback(ctx context.Context, w *db.Where, num, size int) (httpx.Page[Feedback], error) {
	var total int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM feedback`+w.Clause(), w.Args()...).Scan(&total); err != nil {
		return httpx.Page[Feedback]{}, err
	}
	list, err := db.All(ctx, s.db, scanFeedback, `SELECT `+feedbackColumns+` FROM feedback`+w.Clause()+` ORDER BY id DESC LIMIT ? OFFSET ?`,
		append(w.Args(), size, (num-1)*size)...)
	if err != nil {
		return httpx.Page[Feedback]{}, err
	}
	if err := s.fill(ctx, s.db, list); err != nil {
		return httpx.Page[Feedback]{}, err
	}
	return httpx.NewPage(list, total, num, size), nil
}

// fill attaches pictures (signed) and replies to fs.
func (s *Service) fill(ctx context.Context, q db.Querier, fs []Feedback) error {
	for i := range fs {
		f := &fs[i]
		ids, err := db.All(ctx, q, func(r db.Scanner) (int64, error) {
			var id int64
			return id, r.Scan(&id)
		}, `SELECT asset_id FROM feedback_images WHERE feedback_id = ? ORDER BY position`, f.ID)
		if err != nil {
			return err
		}
		f.Images = make([]Picture, 0, len(ids))
		for _, id := range ids {
			a, err := s.asset(ctx, q, id)
			if errors.Is(err, media.ErrNotFound) {
				continue // an asset gone since is not shown, as a join would drop it
			}
			if err != nil {
				return err
			}
			p := Picture{ID: a.ID, Width: a.Width, Height: a.Height, Placeholder: a.Placeholder}
			if p.Thumb, err = s.sign(a.ThumbKey); err != nil {
				return err
			}
			if p.Display, err = s.sign(a.DisplayKey); err != nil {
				return err
			}
			f.Images = append(f.Images, p)
		}
		f.Replies, err = db.All(ctx, q, func(r db.Scanner) (Reply, error) {
			var rp Reply
			var at int64
			err := r.Scan(&rp.ID, &rp.Body, &at)
			rp.CreatedAt = time.Unix(at, 0).UTC()
			return rp, err
		}, `SELECT id, body, created_at FROM feedback_replies WHERE feedback_id = ? ORDER BY id`, f.ID)
		if err != nil {
			return err
		}
		if f.Replies == nil {
			f.Replies = []Reply{}
		}
	}
	return nil
}

// ReplyFeedback adds an operator's reply to feedback id (it may be answered
// more than once), marks it replied, records the audit row and writes the
// author a system notice (kind "feedback_reply", ref the feedback id), all
// in one transaction.
func (s *Service) ReplyFeedback(ctx context.Context, actor audit.Actor, id int64, body string) (Feedback, error) {
	body, err := checkText(body, "回复内容", 1, MaxReply, true)
	if err != nil {
		return Feedback{}, err
	}
	now := s.now()
	var f Feedback
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		f, err = scanFeedback(tx.QueryRow(ctx, `SELECT `+feedbackColumns+` FROM feedback WHERE id = ?`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNoFeedback
		}
		if err != nil {
			return err
		}
		before := f.Status
		if _, err := tx.Exec(ctx, `INSERT INTO feedback_replies (feedback_id, operator_id, body, created_at) VALUES (?, ?, ?, ?)`,
			id, actor.UID, body, now.Unix()); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE feedback SET status = 'replied', replied_at = ? WHERE id = ?`, now.Unix(), id); err != nil {
			return err
		}
		if err := audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "feedback.reply", TargetType: "feedback", TargetID: strconv.FormatInt(id, 10),
			Before: map[string]string{"status": before}, After: map[string]any{"status": FeedbackAnswer, "uid": f.UserID, "reply": body}}, now); err != nil {
			return err
		}
		if err := messaging.Notify(ctx, tx, s.Events, messaging.Notice{UserID: f.UserID, Category: messaging.CategorySystem,
			Kind: "feedback_reply", Title: "客服回复了你的反馈", Body: body, Ref: strconv.FormatInt(id, 10)}, now); err != nil {
			return err
		}
		f, err = scanFeedback(tx.QueryRow(ctx, `SELECT `+feedbackColumns+` FROM feedback WHERE id = ?`, id))
		if err != nil {
			return err
		}
		list := []Feedback{f}
		if err := s.fill(ctx, tx, list); err != nil {
			return err
		}
		f = list[0]
		return nil
	})
	return f, err
}

// CheckFeedbackStatus validates a status filter ("" = all).
func CheckFeedbackStatus(st string) error {
	switch st {
	case "", FeedbackOpen, FeedbackAnswer:
		return nil
	}
	return invalid("参数 status 无效", "status must be open or replied")
}
