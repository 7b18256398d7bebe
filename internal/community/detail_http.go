package community

import (
	"net/http"

	"prima/internal/platform/httpx"
)

// PostDetail is GET /api/app/community/post?id=: public; personal (liked,
// following, access) with a token.
func (h *Handler) PostDetail(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	id := q.Required("id", 1, httpx.MaxID)
	if err := q.Err(); err != nil {
		return err
	}
	d, err := h.s.Detail(r.Context(), httpx.UserID(r.Context()), id)
	if err != nil {
		return detailErrs.Map(err)
	}
	return httpx.OK(w, d)
}

// PostLike is POST /api/app/community/post/like {id, isLike}.
func (h *Handler) PostLike(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		ID     *int64 `json:"id"`
		IsLike *bool  `json:"isLike"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	id, err := httpx.BodyID(req.ID)
	if err != nil {
		return err
	}
	if req.IsLike == nil {
		return httpx.Invalid("缺少参数 isLike", "isLike is required: true to like, false to unlike")
	}
	res, err := h.s.LikePost(r.Context(), httpx.UserID(r.Context()), id, *req.IsLike)
	if err != nil {
		return detailErrs.Map(err)
	}
	return httpx.OK(w, res)
}

// PostDelete is POST /api/app/community/post/delete {id}: the author's own.
func (h *Handler) PostDelete(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.DecodeID(w, r)
	if err != nil {
		return err
	}
	if err := h.s.DeletePost(r.Context(), httpx.UserID(r.Context()), id); err != nil {
		return detailErrs.Map(err)
	}
	return httpx.OK(w, struct{}{})
}

// PostComments is GET /api/app/community/comments?postID=&parentID=&pageNumber=&pageSize=.
func (h *Handler) PostComments(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	cq := CommentQuery{Viewer: httpx.UserID(r.Context())}
	cq.PostID = q.Required("postID", 1, httpx.MaxID)
	cq.ParentID = q.Int("parentID", 0, 0, httpx.MaxID)
	cq.PageNumber, cq.PageSize = httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	page, err := h.s.Comments(r.Context(), cq)
	if err != nil {
		return detailErrs.Map(err)
	}
	return httpx.OK(w, page)
}

// CommentCreate is POST /api/app/community/comment {postID, parentID,
// replyToUID, text, clientID}.
func (h *Handler) CommentCreate(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		PostID     *int64 `json:"postID"`
		ParentID   int64  `json:"parentID"`
		ReplyToUID int64  `json:"replyToUID"`
		Text       string `json:"text" text:"multiline"`
		ClientID   string `json:"clientID"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	if req.PostID == nil {
		return httpx.Invalid("缺少参数 postID", "postID is required")
	}
	if *req.PostID < 1 || *req.PostID > httpx.MaxID {
		return httpx.Invalid("参数 postID 无效", "postID must be a positive integer up to 2^53-1")
	}
	if req.ParentID < 0 || req.ParentID > httpx.MaxID {
		return httpx.Invalid("参数 parentID 无效", "parentID must be 0 or a comment id")
	}
	if req.ReplyToUID < 0 || req.ReplyToUID > httpx.MaxID {
		return httpx.Invalid("参数 replyToUID 无效", "replyToUID must be 0 or a user id")
	}
	c, err := h.s.AddComment(r.Context(), httpx.UserID(r.Context()), NewComment{PostID: *req.PostID, ParentID: req.ParentID,
		ReplyToUID: req.ReplyToUID, Text: req.Text, ClientID: req.ClientID})
	if err != nil {
		return detailErrs.Map(err)
	}
	return httpx.OK(w, c)
}

// CommentDelete is POST /api/app/community/comment/delete {id}.
func (h *Handler) CommentDelete(w http.ResponseWriter, r *http.Request) error {
	id, err := httpx.DecodeID(w, r)
	if err != nil {
		return err
	}
	if err := h.s.DeleteComment(r.Context(), httpx.UserID(r.Context()), id); err != nil {
		return detailErrs.Map(err)
	}
	return httpx.OK(w, struct{}{})
}
