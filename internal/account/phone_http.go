package account

import (
	"errors"
	"net/http"
	"strings"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/platform/sms"
)

// SMSCaptcha is POST /api/app/sms/captcha {mobile, type: 1, purpose?}.
// Public: the forget purpose is asked for signed out; bind and pwd need a
// registered caller.
func (h *Handler) SMSCaptcha(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Mobile  string `json:"mobile"`
		Type    int    `json:"type"`
		Purpose string `json:"purpose"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	in := CodeRequest{Mobile: req.Mobile, Type: req.Type, Purpose: req.Purpose, IP: httpx.ClientIP(r)}
	if sess := CurrentSession(r.Context()); sess != nil {
		in.UID = sess.UserID
	}
	if err := h.s.RequestCode(r.Context(), in); err != nil {
		if errors.Is(err, ErrSessionInvalid) {
			return signedIn(r.Context())
		}
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]int{"expiresIn": int(CodeTTL.Seconds()), "resendIn": int(CodeCooldown.Seconds())})
}

// BindPhone is POST /api/app/mine/bindphone {mobile, code, pwd}.
func (h *Handler) BindPhone(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Mobile string `json:"mobile"`
		Code   string `json:"code"`
		Pwd    string `json:"pwd"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	u, err := h.s.BindPhone(r.Context(), httpx.UserID(r.Context()), req.Mobile, req.Code, req.Pwd, httpx.ClientIP(r))
	if err != nil {
		return passwordErrs.Map(err)
	}
	return httpx.OK(w, h.s.Info(u))
}

// Forget is POST /api/app/mine/forget {mobile, code, pwd}: a new password
// by SMS. Public; every session of the user ends.
func (h *Handler) Forget(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		Mobile string `json:"mobile"`
		Code   string `json:"code"`
		Pwd    string `json:"pwd"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	if err := h.s.ResetPassword(r.Context(), req.Mobile, req.Code, req.Pwd); err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, nil)
}

// LoginPwd is POST /api/app/mine/loginpwd {sysType, uid, pwd, oldPwd | code}.
func (h *Handler) LoginPwd(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		SysType string `json:"sysType"`
		UID     int64  `json:"uid"`
		Pwd     string `json:"pwd"`
		OldPwd  string `json:"oldPwd"`
		Code    string `json:"code"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	sess := CurrentSession(r.Context())
	err := h.s.ChangePassword(r.Context(), *sess, PasswordChange{UID: req.UID, SysType: req.SysType, Pwd: req.Pwd, OldPwd: req.OldPwd, Code: req.Code, IP: httpx.ClientIP(r)})
	if err != nil {
		return passwordErrs.Map(err)
	}
	return httpx.OK(w, nil)
}

// Sessions is GET /api/app/mine/sessions: the caller's signed-in devices.
func (h *Handler) Sessions(w http.ResponseWriter, r *http.Request) error {
	list, err := h.s.Sessions(r.Context(), *CurrentSession(r.Context()))
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]any{"list": list})
}

// RevokeSessions is POST /api/app/mine/sessions/revoke {id} or {others: true}.
func (h *Handler) RevokeSessions(w http.ResponseWriter, r *http.Request) error {
	var req struct {
		ID     string `json:"id"`
		Others bool   `json:"others"`
	}
	if err := httpx.Decode(w, r, &req); err != nil {
		return err
	}
	sess := *CurrentSession(r.Context())
	switch {
	case req.Others && req.ID != "":
		return httpx.Invalid("参数错误", "give id or others, not both")
	case req.Others:
		n, err := h.s.RevokeOtherSessions(r.Context(), sess)
		if err != nil {
			return errs.Map(err)
		}
		return httpx.OK(w, map[string]int{"revoked": n})
	case req.ID == "":
		return httpx.Invalid("参数错误", "id or others: true is required")
	}
	err := h.s.RevokeSession(r.Context(), sess, strings.TrimSpace(req.ID))
	if errors.Is(err, db.ErrNotFound) {
		return httpx.NotFound("该设备已退出", "no live session of the caller with this id")
	}
	if err != nil {
		return errs.Map(err)
	}
	return httpx.OK(w, map[string]int{"revoked": 1})
}

// TestLastSMS is GET /api/test/sms/last?mobile=...: the last message sent
// to the number. Mounted only in test mode (PRIMA_TEST_MODE=1), so end-
// to-end tests can read codes; in normal mode the path does not exist.
func TestLastSMS(rec *sms.Recorder) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		mobile, err := NormalizeMobile(r.URL.Query().Get("mobile"))
		if err != nil {
			return errs.Map(err)
		}
		text, ok := rec.Last(mobile)
		if !ok {
			return httpx.NotFound("没有短信", "no message sent to this number")
		}
		code := ""
		if i := strings.Index(text, "验证码 "); i >= 0 && len(text) >= i+len("验证码 ")+codeDigits {
			code = text[i+len("验证码 ") : i+len("验证码 ")+codeDigits]
		}
		return httpx.OK(w, map[string]string{"mobile": mobile, "text": text, "code": code})
	}
}
