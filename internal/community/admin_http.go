package community

import (
	"net/http"

	"prima/internal/platform/audit"
	"prima/internal/platform/httpx"
)

// The operator's community calls, mounted under /api/admin/community behind
// the console's gate (the moderator role) in internal/app/routes.go (docs/api.md, *Community →
// Reports, purchases and moderation*). Handlers decode and check the body;
// the rules live in admin.go and topic_admin.go.

// modBool checks a required boolean field.
func modBool(name string, b *bool) (bool, error) {
	if b == nil {
		return false, httpx.Invalid("缺少参数 "+name, name+" is required")
	}
	return *b, nil
}

// AdminPosts answers GET /api/admin/community/posts?state=&uid=&cursor=&pageSize=
// (keyset: the cursor is the nextCursor of the page before).
func (h *ModHandler) AdminPosts(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	aq := AdminPostQuery{State: q.String("state"), UID: q.Int("uid", 0, 0, httpx.MaxID)}
	aq.After, aq.PageSize = httpx.KeyParams(q, 2, 20)
	if err := q.Err(); err != nil {
		return err
	}
	if aq.State != "" && !ValidPostState(aq.State) {
		return httpx.Invalid("帖子状态无效", "state must be pending, published, rejected, removed or deleted, got "+httpx.Echo(aq.State))
	}
	page, err := h.s.AdminPosts(r.Context(), httpx.UserID(r.Context()), aq)
	if err != nil {
		return modErrs.Map(err)
	}
	return httpx.OK(w, page)
}

// AdminReview answers POST /api/admin/community/posts/review {id, approve,
// reason} with the post, or {ids: [...], approve, reason} (bulk, in place
// of id) with Reviewed.
func (h *ModHandler) AdminReview(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		ID      *int64   `json:"id"`
		IDs     *[]int64 `json:"ids"`
		Approve *bool    `json:"approve"`
		Reason  string   `json:"reason" text:"multiline"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	approve, err := modBool("approve", in.Approve)
	if err != nil {
		return err
	}
	if in.IDs != nil {
		if in.ID != nil {
			return httpx.Invalid("id 与 ids 只能填一个", "give id or ids, not both")
		}
		out, err := h.s.ReviewPosts(r.Context(), audit.ActorFrom(r), *in.IDs, approve, in.Reason)
		if err != nil {
			return modErrs.Map(err)
		}
		return httpx.OK(w, out)
	}
	id, err := httpx.BodyIDOf("id", in.ID)
	if err != nil {
		return err
	}
	p, err := h.s.ReviewPost(r.Context(), audit.ActorFrom(r), id, approve, in.Reason)
	if err != nil {
		return modErrs.Map(err)
	}
	return httpx.OK(w, p)
}

// decodeFlag reads {id, on}.
func decodeFlag(w http.ResponseWriter, r *http.Request) (int64, bool, error) {
	var in struct {
		ID *int64 `json:"id"`
		On *bool  `json:"on"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return 0, false, err
	}
	id, err := httpx.BodyIDOf("id", in.ID)
	if err != nil {
		return 0, false, err
	}
	on, err := modBool("on", in.On)
	return id, on, err
}

// AdminPin answers POST /api/admin/community/posts/pin {id, on}.
func (h *ModHandler) AdminPin(w http.ResponseWriter, r *http.Request) error {
	id, on, err := decodeFlag(w, r)
	if err != nil {
		return err
	}
	p, err := h.s.PinPost(r.Context(), audit.ActorFrom(r), id, on)
	if err != nil {
		return modErrs.Map(err)
	}
	return httpx.OK(w, p)
}

// AdminFeature answers POST /api/admin/community/posts/feature {id, on}.
func (h *ModHandler) AdminFeature(w http.ResponseWriter, r *http.Request) error {
	id, on, err := decodeFlag(w, r)
	if err != nil {
		return err
	}
	p, err := h.s.FeaturePost(r.Context(), audit.ActorFrom(r), id, on)
	if err != nil {
		return modErrs.Map(err)
	}
	return httpx.OK(w, p)
}

// decodeRemove reads {id, reason}.
func decodeRemove(w http.ResponseWriter, r *http.Request) (int64, string, error) {
	var in struct {
		ID     *int64 `json:"id"`
		Reason string `json:"reason" text:"multiline"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return 0, "", err
	}
	id, err := httpx.BodyIDOf("id", in.ID)
	return id, in.Reason, err
}

// AdminRemovePost answers POST /api/admin/community/posts/remove {id, reason}.
func (h *ModHandler) AdminRemovePost(w http.ResponseWriter, r *http.Request) error {
	id, reason, err := decodeRemove(w, r)
	if err != nil {
		return err
	}
	p, err := h.s.RemovePost(r.Context(), audit.ActorFrom(r), id, reason)
	if err != nil {
		return modErrs.Map(err)
	}
	return httpx.OK(w, p)
}

// AdminComments answers GET /api/admin/community/comments?postID=&cursor=&pageSize=.
func (h *ModHandler) AdminComments(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	post := q.Int("postID", 0, 0, httpx.MaxID)
	after, size := httpx.KeyParams(q, 1, 20)
	if err := q.Err(); err != nil {
		return err
	}
	page, err := h.s.AdminComments(r.Context(), post, first(after), size)
	if err != nil {
		return modErrs.Map(err)
	}
	return httpx.OK(w, page)
}

// AdminRemoveComment answers POST /api/admin/community/comments/remove {id, reason}.
func (h *ModHandler) AdminRemoveComment(w http.ResponseWriter, r *http.Request) error {
	id, reason, err := decodeRemove(w, r)
	if err != nil {
		return err
	}
	if err := h.s.RemoveComment(r.Context(), audit.ActorFrom(r), id, reason); err != nil {
		return modErrs.Map(err)
	}
	return httpx.OK(w, map[string]any{"id": id, "state": "removed"})
}

// AdminReports answers GET /api/admin/community/reports?state=open|resolved&cursor=&pageSize=.
func (h *ModHandler) AdminReports(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	state := q.String("state")
	after, size := httpx.KeyParams(q, 1, 20)
	if err := q.Err(); err != nil {
		return err
	}
	switch state {
	case "":
		state = "open"
	case "open", "resolved":
	default:
		return httpx.Invalid("举报状态无效", "state must be open or resolved, got "+httpx.Echo(state))
	}
	page, err := h.s.AdminReports(r.Context(), state, first(after), size)
	if err != nil {
		return modErrs.Map(err)
	}
	return httpx.OK(w, page)
}

// AdminResolveReport answers POST /api/admin/community/reports/resolve {id}.
func (h *ModHandler) AdminResolveReport(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		ID *int64 `json:"id"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	id, err := httpx.BodyIDOf("id", in.ID)
	if err != nil {
		return err
	}
	n, err := h.s.ResolveReport(r.Context(), audit.ActorFrom(r), id)
	if err != nil {
		return modErrs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"id": id, "resolved": n})
}

// AdminMute answers POST /api/admin/community/mute {uid, minutes, reason}.
func (h *ModHandler) AdminMute(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		UID     *int64 `json:"uid"`
		Minutes *int64 `json:"minutes"`
		Reason  string `json:"reason" text:"multiline"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	uid, err := httpx.BodyIDOf("uid", in.UID)
	if err != nil {
		return err
	}
	if in.Minutes == nil {
		return httpx.Invalid("缺少参数 minutes", "minutes is required (0 unmutes)")
	}
	m, err := h.s.MuteUser(r.Context(), audit.ActorFrom(r), uid, *in.Minutes, in.Reason)
	if err != nil {
		return modErrs.Map(err)
	}
	return httpx.OK(w, m)
}

// AdminSettings answers GET /api/admin/community/settings.
func (h *ModHandler) AdminSettings(w http.ResponseWriter, r *http.Request) error {
	st, err := h.s.AdminSettings(r.Context())
	if err != nil {
		return modErrs.Map(err)
	}
	return httpx.OK(w, st)
}

// AdminSaveSettings answers POST /api/admin/community/settings {review?, rules?}.
func (h *ModHandler) AdminSaveSettings(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Review *bool   `json:"review"`
		Rules  *string `json:"rules" text:"multiline"`
	}
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	st, err := h.s.SaveSettings(r.Context(), audit.ActorFrom(r), in.Review, in.Rules)
	if err != nil {
		return modErrs.Map(err)
	}
	return httpx.OK(w, st)
}

// AdminTopics answers GET /api/admin/community/topics?pageNumber=&pageSize=.
func (h *ModHandler) AdminTopics(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	num, size := httpx.PageParams(q, 20)
	if err := q.Err(); err != nil {
		return err
	}
	page, err := h.s.AdminTopics(r.Context(), num, size)
	if err != nil {
		return modErrs.Map(err)
	}
	return httpx.OK(w, page)
}

type topicBody struct {
	ID          *int64  `json:"id"`
	Name        *string `json:"name"`
	Description *string `json:"description" text:"multiline"`
	Cover       *int64  `json:"cover"`
	Sort        *int64  `json:"sort"`
	Status      *int64  `json:"status"`
}

func (b topicBody) input() TopicInput {
	return TopicInput{Name: b.Name, Description: b.Description, CoverID: b.Cover, Sort: b.Sort, Status: b.Status}
}

// AdminCreateTopic answers POST /api/admin/community/topics {name, description, cover, sort}.
func (h *ModHandler) AdminCreateTopic(w http.ResponseWriter, r *http.Request) error {
	var in topicBody
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	t, err := h.s.CreateTopic(r.Context(), audit.ActorFrom(r), in.input())
	if err != nil {
		return modErrs.Map(err)
	}
	return httpx.OK(w, t)
}

// AdminUpdateTopic answers POST /api/admin/community/topics/update {id, name?, description?, cover?, sort?, status?}.
func (h *ModHandler) AdminUpdateTopic(w http.ResponseWriter, r *http.Request) error {
	var in topicBody
	if err := httpx.Decode(w, r, &in); err != nil {
		return err
	}
	id, err := httpx.BodyIDOf("id", in.ID)
	if err != nil {
		return err
	}
	t, err := h.s.UpdateTopic(r.Context(), audit.ActorFrom(r), id, in.input())
	if err != nil {
		return modErrs.Map(err)
	}
	return httpx.OK(w, t)
}

// first is a one-key cursor's key, 0 for none (the first page).
func first(keys []int64) int64 {
	if len(keys) == 0 {
		return 0
	}
	return keys[0]
}
