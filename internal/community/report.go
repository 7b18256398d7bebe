package community

// Reports: a registered user flags a post or one of its comments for the
// operators (POST /api/app/community/report). One report per reporter and
// target (post_reports' unique key): a repeat answers the same and writes
// nothing, so tapping 举报 twice, or a script, cannot stack a queue.

import (
	"context"
	"database/sql"
	"errors"
	"net/http"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// ReportReasons are the reasons a report may give.
var ReportReasons = []string{"spam", "porn", "abuse", "illegal", "other"}

func reportReasonOK(r string) bool {
	for _, x := range ReportReasons {
		if x == r {
			return true
		}
	}
	return false
}

// ReportInput is one report: commentID 0 reports the post itself.
type ReportInput struct {
	PostID, CommentID int64
	Reason            string
}

// Report files uid's report. The post must be one uid may see and the
// comment a published comment of that post (else ErrNoPost or
// ErrNoComment, as for a missing one); guests get ErrGuest, a reason
// outside the list ErrReportReason. It reports whether a row was written.
func (s *Service) Report(ctx context.Context, uid int64, in ReportInput) (bool, error) {
	if !reportReasonOK(in.Reason) {
		return false, ErrReportReason
	}
	now := s.now()
	var added bool
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		me, err := s.userCard(ctx, tx, uid)
		if err != nil {
			return err
		}
		if me.guest {
			return ErrGuest
		}
		p, err := loadPost(ctx, tx, in.PostID)
		if errors.Is(err, ErrNoPost) || (err == nil && !p.visible(uid)) {
			return ErrNoPost
		}
		if err != nil {
			return err
		}
		if in.CommentID != 0 {
			var state string
			err := tx.QueryRow(ctx, `SELECT state FROM comments WHERE id = ? AND post_id = ?`, in.CommentID, in.PostID).Scan(&state)
			if errors.Is(err, sql.ErrNoRows) || (err == nil && state != "published") {
				return ErrNoComment
			}
			if err != nil {
				return err
			}
		}
		res, err := tx.Exec(ctx, `INSERT INTO post_reports (reporter_id, post_id, comment_id, reason, state, created_at) VALUES (?, ?, ?, ?, 'open', ?)
			ON CONFLICT (reporter_id, post_id, comment_id) DO NOTHING`, uid, in.PostID, in.CommentID, in.Reason, now.Unix())
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		added = n == 1
		return err
	})
	return added, err
}

// ModHandler serves the moderation calls: reports, and the operator's
// calls under /api/admin/community (admin_http.go).
type ModHandler struct{ s *Service }

// NewModHandler returns the moderation handlers over s.
func NewModHandler(s *Service) *ModHandler { return &ModHandler{s: s} }

// Report answers POST /api/app/community/report {postID, commentID, reason}.
func (h *ModHandler) Report(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		PostID    *int64 `json:"postID"`
		CommentID *int64 `json:"commentID"`
		Reason    string `json:"reason"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	if in.PostID == nil {
		return httpx.Invalid("缺少参数 postID", "postID is required")
	}
	if *in.PostID < 1 || *in.PostID > httpx.MaxID {
		return httpx.Invalid("参数 postID 无效", "postID must be a positive id")
	}
	var comment int64
	if in.CommentID != nil {
		comment = *in.CommentID
		if comment < 0 || comment > httpx.MaxID {
			return httpx.Invalid("参数 commentID 无效", "commentID must be 0 (the post) or a comment id")
		}
	}
	if _, err := h.s.Report(r.Context(), httpx.UserID(r.Context()), ReportInput{PostID: *in.PostID, CommentID: comment, Reason: in.Reason}); err != nil {
		return reportErrs.Map(err)
	}
	return httpx.OK(w, struct{}{})
}
