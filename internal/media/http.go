package media

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"os"
	"strconv"
	"time"

	"prima/internal/platform/httpx"
)

// Handler serves the media calls.
type Handler struct{ s *Service }

// NewHandler returns the handlers of s.
func NewHandler(s *Service) *Handler { return &Handler{s: s} }

// View is an asset as its owner and operators see it.
type View struct {
	ID          int64  `json:"id"`
	Kind        Kind   `json:"kind"`
	State       State  `json:"state"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	Duration    int64  `json:"durationMs"`
	VideoCodec  string `json:"videoCodec,omitempty"`
	AudioCodec  string `json:"audioCodec,omitempty"`
	Placeholder string `json:"placeholder"` // BlurHash; "" until known
	Error       string `json:"error,omitempty"`
	// Signed URLs, present once there is something to fetch.
	Display string `json:"display,omitempty"`
	Thumb   string `json:"thumb,omitempty"`
	// The same pictures as WebP, when ffmpeg could make them.
	DisplayWebP string    `json:"displayWebp,omitempty"`
	ThumbWebP   string    `json:"thumbWebp,omitempty"`
	Poster      string    `json:"poster,omitempty"`
	Master      string    `json:"master,omitempty"`  // HLS master playlist of the full video
	Preview     string    `json:"preview,omitempty"` // HLS master playlist of the first 10 s
	ExpiresAt   time.Time `json:"expiresAt,omitzero"`
	OwnerUID    int64     `json:"ownerUid,omitempty"` // operators' list only
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// View signs the asset's URLs for about URLTTL.
func (s *Service) View(a Asset) (View, error) {
	v := View{ID: a.ID, Kind: a.Kind, State: a.State, Width: a.Width, Height: a.Height, Duration: a.DurationMS,
		VideoCodec: a.VideoCodec, AudioCodec: a.AudioCodec, Placeholder: a.Placeholder, Error: a.Error,
		CreatedAt: a.CreatedAt, UpdatedAt: a.UpdatedAt}
	if a.State != Ready {
		return v, nil
	}
	var err error
	sign := func(dst *string, key string) {
		if key != "" && err == nil {
			*dst, err = s.signer.URL(key, URLTTL)
		}
	}
	folder := func(dst *string, prefix string) {
		if prefix != "" && err == nil {
			*dst, err = s.signer.FolderURL(prefix, prefix+"master.m3u8", URLTTL)
		}
	}
	sign(&v.Display, a.DisplayKey)
	sign(&v.Thumb, a.ThumbKey)
	sign(&v.DisplayWebP, a.DisplayWebP)
	sign(&v.ThumbWebP, a.ThumbWebP)
	sign(&v.Poster, a.PosterKey)
	folder(&v.Master, a.HLSPrefix)
	folder(&v.Preview, a.PreviewPrefix)
	if err == nil {
		v.ExpiresAt = expiresAt(cmpStr(v.Display, v.Master))
	}
	return v, err
}

// UploadTimeout is how long one upload may take to arrive.
const UploadTimeout = 30 * time.Minute

// multipartOverhead is room for the form's boundaries and headers on top
// of the file itself.
const multipartOverhead = 1 << 20

// Upload is POST /api/app/vid/uploadStatic: multipart/form-data with the
// file in the field "file". The file is streamed to a temp file (never
// held in memory whole), then Service.Upload sniffs and stores it.
func (h *Handler) Upload(w http.ResponseWriter, r *http.Request) error {
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "multipart/form-data" {
		return &httpx.Error{Status: http.StatusUnsupportedMediaType, Tip: "请以表单方式上传文件",
			Msg: "the body must be multipart/form-data with the file in the field \"file\""}
	}
	largest := max(h.s.Limits.ImageBytes, h.s.Limits.VideoBytes)
	r.Body = http.MaxBytesReader(w, r.Body, largest+multipartOverhead)
	// The server's read timeout (60 s) suits JSON calls, not 500 MiB over a
	// phone's uplink: this request alone gets longer. Where the writer
	// cannot say (a test recorder), the server's timeouts simply stand.
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(UploadTimeout))
	_ = rc.SetWriteDeadline(time.Now().Add(UploadTimeout + time.Minute))
	mr, err := r.MultipartReader()
	if err != nil {
		return httpx.BadRequest("上传格式错误", "multipart body: "+err.Error())
	}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return httpx.BadRequest("请选择要上传的文件", "the form has no field \"file\"")
		}
		if err != nil {
			return bodyError(err)
		}
		if part.FormName() != "file" {
			part.Close()
			continue
		}
		return h.receive(w, r, part, largest)
	}
}

func (h *Handler) receive(w http.ResponseWriter, r *http.Request, part io.Reader, largest int64) error {
	// Sniff before spooling: an unknown type is refused before its bytes
	// touch the disk, and a picture is cut off at the picture limit rather
	// than the video one. Service.Upload sniffs and checks again.
	br := bufio.NewReaderSize(part, 4096)
	head, err := br.Peek(sniffLen)
	if err != nil && !errors.Is(err, io.EOF) {
		return bodyError(err)
	}
	limit := largest
	if len(head) > 0 {
		format, ok := Sniff(head)
		if !ok {
			return uploadErrs.Map(ErrUnsupported)
		}
		if format.Kind == Image {
			limit = h.s.Limits.ImageBytes
		} else {
			limit = h.s.Limits.VideoBytes
		}
	}
	f, err := os.CreateTemp(h.s.TempDir, "prima-upload-")
	if err != nil {
		return httpx.Internal(err)
	}
	defer os.Remove(f.Name())
	n, err := io.Copy(f, io.LimitReader(br, limit+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return bodyError(err)
	}
	if n > limit {
		return uploadErrs.Map(fmt.Errorf("%w: over %d bytes", ErrTooLarge, limit))
	}
	a, err := h.s.Upload(r.Context(), httpx.UserID(r.Context()), f.Name(), n)
	if err != nil {
		return uploadErrs.Map(err)
	}
	v, err := h.s.View(a)
	if err != nil {
		return httpx.Internal(err)
	}
	return httpx.OK(w, v)
}

func bodyError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return tooLarge("the body is over " + strconv.FormatInt(mbe.Limit, 10) + " bytes")
	}
	return httpx.BadRequest("上传中断，请重试", "reading the upload: "+err.Error())
}

func tooLarge(msg string) error {
	return &httpx.Error{Status: http.StatusRequestEntityTooLarge, Tip: "文件太大", Msg: msg}
}

// Status is GET /api/app/vid/uploadStatic?id=N: the caller's own asset.
// Another user's asset is a 404, as is one that does not exist, so ids
// reveal nothing.
func (h *Handler) Status(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	id := q.Required("id", 1, math.MaxInt64)
	if err := q.Err(); err != nil {
		return err
	}
	a, err := h.s.Get(r.Context(), id)
	if errors.Is(err, ErrNotFound) || err == nil && a.OwnerUID != httpx.UserID(r.Context()) {
		return httpx.NotFound("文件不存在", "no asset "+strconv.FormatInt(id, 10)+" of yours")
	}
	if err != nil {
		return httpx.Internal(err)
	}
	v, err := h.s.View(a)
	if err != nil {
		return httpx.Internal(err)
	}
	return httpx.OK(w, v)
}

// MaxOwnPage is the deepest page of a user's own uploads.
const MaxOwnPage = 500

// Mine is GET /api/app/mine/uploads?kind=&pageNumber=&pageSize=: the
// caller's own uploads, newest first, each as Status answers it.
func (h *Handler) Mine(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	pageSize := int(q.Int("pageSize", 20, 1, 50))
	pageNumber := int(q.Int("pageNumber", 1, 1, MaxOwnPage))
	kind := Kind(q.String("kind"))
	if err := q.Err(); err != nil {
		return err
	}
	switch kind {
	case "", Image, Video:
	default:
		return httpx.Invalid("类型参数错误", "kind must be image or video")
	}
	list, total, err := h.s.ListOwn(r.Context(), httpx.UserID(r.Context()), kind, pageNumber, pageSize)
	if err != nil {
		return httpx.Internal(err)
	}
	views := make([]View, 0, len(list))
	for _, a := range list {
		v, err := h.s.View(a)
		if err != nil {
			return httpx.Internal(err)
		}
		views = append(views, v)
	}
	return httpx.OK(w, map[string]any{"list": views, "total": total, "pageNumber": pageNumber, "pageSize": pageSize,
		"hasMore": pageNumber*pageSize < total && pageNumber < MaxOwnPage})
}

// AdminList is GET /api/admin/media?state=&pageNumber=&pageSize= (or ?id=N: that one asset).
func (h *Handler) AdminList(w http.ResponseWriter, r *http.Request) error {
	q := httpx.Q(r)
	pageSize := int(q.Int("pageSize", 20, 1, 100))
	pageNumber := int(q.Int("pageNumber", 1, 1, 100000))
	state := State(q.String("state"))
	id := q.Int("id", 0, 1, math.MaxInt64)
	if err := q.Err(); err != nil {
		return err
	}
	if id > 0 {
		// One asset by id (the console follows the upload a video plays):
		// a list of it, or an empty one.
		views := []View{}
		a, err := h.s.Get(r.Context(), id)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return httpx.Internal(err)
		}
		if err == nil {
			v, err := h.s.View(a)
			if err != nil {
				return httpx.Internal(err)
			}
			v.OwnerUID = a.OwnerUID
			views = append(views, v)
		}
		return httpx.OK(w, map[string]any{"list": views, "total": len(views), "pageNumber": 1, "pageSize": pageSize, "hasMore": false})
	}
	switch state {
	case "", Processing, Ready, Failed:
	default:
		return httpx.Invalid("状态参数错误", "state must be processing, ready or failed")
	}
	list, total, err := h.s.List(r.Context(), state, pageNumber, pageSize)
	if err != nil {
		return httpx.Internal(err)
	}
	views := make([]View, 0, len(list))
	for _, a := range list {
		v, err := h.s.View(a)
		if err != nil {
			return httpx.Internal(err)
		}
		v.OwnerUID = a.OwnerUID
		views = append(views, v)
	}
	return httpx.OK(w, map[string]any{"list": views, "total": total, "pageNumber": pageNumber, "pageSize": pageSize,
		"hasMore": pageNumber*pageSize < total})
}

func cmpStr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
