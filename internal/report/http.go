package report

import (
	"net/http"
	"strconv"

	"prima/internal/platform/httpx"
)

// Handler serves the report calls.
type Handler struct{ s *Service }

// NewHandler wraps s.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

// request is the body of POST /api/app/report/error: the spec's two shapes
// in one object, told apart by kind. userid and userip are accepted (the
// observed client sends them) and ignored: the uid comes from the token and
// the address from the connection.
type request struct {
	Kind    string            `json:"kind"`
	AppName string            `json:"appname"`
	AppV    string            `json:"appv"`
	Dev     string            `json:"dev"`
	Domain  map[string]string `json:"domain"`
	PayName string            `json:"payname"`
	PayID   string            `json:"payid"`
	PayType string            `json:"paytype"`
	PayAdds string            `json:"payadds"`
	EMsg    string            `json:"emsg" text:"multiline,strip"`
	UserID  any               `json:"userid"`
	UserIP  any               `json:"userip"`
}

// Submit is POST /api/app/report/error. Public: a client whose API line is
// down reports through another, maybe before it has a session.
func (h *Handler) Submit(w http.ResponseWriter, r *http.Request) error {
	// A report is small; the general 1 MiB body limit is far too generous
	// for an unauthenticated call that stores what it gets.
	if r.ContentLength > MaxBody {
		return &httpx.Error{Status: http.StatusRequestEntityTooLarge, Tip: "提交的内容过大", Msg: "report body over " + strconv.Itoa(MaxBody) + " bytes"}
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	var req request
	// Decode answers 413 when this reader trips (a chunked body).
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	id, err := h.s.Submit(r.Context(), Input{
		Kind: req.Kind, AppName: req.AppName, AppV: req.AppV, Dev: req.Dev, Domain: req.Domain,
		PayName: req.PayName, PayID: req.PayID, PayType: req.PayType, PayAdds: req.PayAdds, EMsg: req.EMsg,
		UID: httpx.UserID(r.Context()), IP: httpx.ClientIP(r),
	})
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]int64{"id": id})
}

// Page sizes of the operator listing.
const (
	defaultPageSize = 20
	maxPageSize     = 100
)

// List is GET /api/admin/reports?kind=&pageNumber=&pageSize=: reports
// newest first, and which lines were reported down in the last 24 hours.
func (h *Handler) List(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	kind := q.String("kind")
	page := q.Int("pageNumber", 1, 1, 10000)
	size := q.Int("pageSize", defaultPageSize, 1, maxPageSize)
	if err := q.Err(); err != nil {
		return err
	}
	if kind != "" && kind != KindLine && kind != KindPayment {
		return httpx.Invalid("类型无效，应为 line 或 payment", "kind must be line, payment or empty")
	}
	l, err := h.s.List(r.Context(), kind, int(page), int(size))
	if err != nil {
		return err
	}
	return httpx.OK(w, l)
}
