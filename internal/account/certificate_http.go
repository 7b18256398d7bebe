package account

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"

	"prima/internal/platform/httpx"
)

const (
	tipCertInvalid  = "账号凭证无效或已重置"
	tipCertNotFound = "未识别到账号凭证"
)

// Certificate is GET /api/app/mine/certificate/qr: the caller's live
// certificate {uid, qrCnt, createdAt}, issued on first use. Guests get one
// too: it is how a guest keeps the account on a new phone.
func (h *Handler) Certificate(w http.ResponseWriter, r *http.Request) error {
	c, err := h.s.Certificate(r.Context(), httpx.UserID(r.Context()))
	if err != nil {
		return errs.Map(err)
	}
	w.Header().Set("Cache-Control", "no-store")
	return httpx.OK(w, c)
}

// ResetCertificate is POST /api/app/mine/certificate/reset: the old
// certificate stops working and the new one is answered. The body, if
// any, is not read: the call takes no parameters.
func (h *Handler) ResetCertificate(w http.ResponseWriter, r *http.Request) error {
	c, err := h.s.ResetCertificate(r.Context(), httpx.UserID(r.Context()))
	if err != nil {
		return errs.Map(err)
	}
	w.Header().Set("Cache-Control", "no-store")
	return httpx.OK(w, c)
}

// qrOverhead is room for the form's boundaries and part headers.
const qrOverhead = 64 << 10

// ExtractQR is POST /api/app/mine/qrcode/extract: multipart with the
// picture in "file". It finds the QR code, reads a certificate link from
// it and checks that the certificate is live, answering {uid, qrCnt}; it
// does not sign in (the page asks the user to confirm the account first,
// then calls mine/login with them). Public, limited per address.
func (h *Handler) ExtractQR(w http.ResponseWriter, r *http.Request) error {
	ctx := r.Context()
	ip := httpx.ClientIP(r)
	if err := h.s.LimitExtract(ctx, ip); err != nil {
		return errs.Map(err)
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "multipart/form-data" {
		return &httpx.Error{Status: http.StatusUnsupportedMediaType, Tip: "请以表单方式上传图片",
			Msg: "the body must be multipart/form-data with the picture in the field \"file\""}
	}
	r.Body = http.MaxBytesReader(w, r.Body, QRMaxBytes+qrOverhead)
	mr, err := r.MultipartReader()
	if err != nil {
		return httpx.BadRequest("上传格式错误", "multipart body: "+err.Error())
	}
	var data []byte
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return httpx.BadRequest("请选择账号凭证图片", "the form has no field \"file\"")
		}
		if err != nil {
			return qrBodyError(err)
		}
		if part.FormName() != "file" {
			part.Close()
			continue
		}
		data, err = io.ReadAll(io.LimitReader(part, QRMaxBytes+1))
		if err != nil {
			return qrBodyError(err)
		}
		break
	}
	switch {
	case len(data) == 0:
		return httpx.BadRequest("图片是空的", "the file has no bytes")
	case len(data) > QRMaxBytes:
		return qrTooLarge("the picture is over " + strconv.Itoa(QRMaxBytes) + " bytes")
	}
	text, err := DecodeQR(data)
	switch {
	case errors.Is(err, errQRHEIC):
		return &httpx.Error{Status: http.StatusUnsupportedMediaType, Tip: "暂不支持HEIC格式，请截屏后上传截图", Msg: err.Error()}
	case errors.Is(err, errQRFormat):
		return &httpx.Error{Status: http.StatusUnsupportedMediaType, Tip: "请上传PNG、JPEG或WebP格式的图片", Msg: err.Error()}
	case errors.Is(err, errQRTooBig):
		return httpx.Invalid("图片尺寸过大", err.Error())
	case errors.Is(err, errQRBroken):
		return httpx.Invalid("图片已损坏或无法识别", err.Error())
	case err != nil:
		return httpx.Invalid(tipCertNotFound, err.Error())
	}
	uid, qrCnt, ok := ParseCertificateLink(text)
	if !ok {
		return httpx.Invalid(tipCertNotFound, "the QR code is not an account certificate")
	}
	if err := h.s.CheckCertificate(ctx, uid, qrCnt, ip); err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]any{"uid": uid, "qrCnt": qrCnt})
}

func qrBodyError(err error) error {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return qrTooLarge("the body is over " + strconv.FormatInt(mbe.Limit, 10) + " bytes")
	}
	return httpx.BadRequest("上传中断，请重试", "reading the upload: "+err.Error())
}

func qrTooLarge(msg string) error {
	return &httpx.Error{Status: http.StatusRequestEntityTooLarge, Tip: "图片太大（不超过 5MB）", Msg: msg}
}
