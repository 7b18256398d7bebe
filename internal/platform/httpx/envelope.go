// Package httpx is Prima's HTTP plumbing: the response envelope, handlers
// that return errors, request decoding with clear tips, and middleware.
//
// Every API response is {code, tip, msg, data}. code 200 is success; on
// failure tip is a short zh-CN message for the user, msg a detail for
// developers, and the HTTP status carries the class (docs/design.md).
package httpx

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"time"
)

// Envelope is the body of every API response.
type Envelope struct {
	Code int    `json:"code"`
	Tip  string `json:"tip"`
	Msg  string `json:"msg"`
	Data any    `json:"data"`
}

// Error is an error a handler returns to answer with a status and a tip.
// Tip is safe to show a user; Msg and the wrapped cause are for developers,
// and the cause is only logged.
type Error struct {
	Status int    // HTTP status
	Code   int    // envelope code; the status when zero
	Tip    string // for the user, zh-CN
	Msg    string // for developers
	Err    error  // cause, logged, never sent
	// Data goes into the envelope's data beside the tip, for an answer a
	// client acts on (the operator console's enrolment ticket with a 428,
	// {stepUp: true} with a 403); nil sends null as for any error.
	Data any
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%d %s: %v", e.Status, e.Msg, e.Err)
	}
	return fmt.Sprintf("%d %s", e.Status, e.Msg)
}

func (e *Error) Unwrap() error { return e.Err }

func newErr(status int, tip, msg string) *Error { return &Error{Status: status, Tip: tip, Msg: msg} }

// The status classes of docs/design.md.
func BadRequest(tip, msg string) *Error   { return newErr(http.StatusBadRequest, tip, msg) }
func Unauthorized(tip, msg string) *Error { return newErr(http.StatusUnauthorized, tip, msg) }
func Forbidden(tip, msg string) *Error    { return newErr(http.StatusForbidden, tip, msg) }
func NotFound(tip, msg string) *Error     { return newErr(http.StatusNotFound, tip, msg) }
func Conflict(tip, msg string) *Error     { return newErr(http.StatusConflict, tip, msg) }
func Invalid(tip, msg string) *Error      { return newErr(http.StatusUnprocessableEntity, tip, msg) }
func TooMany(tip, msg string) *Error      { return newErr(http.StatusTooManyRequests, tip, msg) }

// Internal wraps an unexpected error: the user sees a generic tip, the log
// sees the cause.
func Internal(err error) *Error {
	return &Error{Status: http.StatusInternalServerError, Tip: "服务器开小差了，请稍后再试", Msg: "internal error", Err: err}
}

// Handler is an HTTP handler that returns an error instead of writing one,
// so no path can write an error and forget to return.
type Handler func(w http.ResponseWriter, r *http.Request) error

func (h Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := h(w, r); err != nil {
		WriteError(w, r, err)
	}
}

// OK writes a success envelope around data.
func OK(w http.ResponseWriter, data any) error {
	writeJSON(w, http.StatusOK, Success(data))
	return nil
}

// Success is the envelope OK writes around data (the page cache encodes
// the same one ahead of time).
func Success(data any) Envelope { return Envelope{Code: 200, Msg: "success", Data: data} }

// WriteError turns any error into an envelope; errors that are not *Error
// become a 500 and are logged with the request id.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	var e *Error
	if !errors.As(err, &e) {
		e = Internal(err)
	}
	switch {
	case e.Status >= 500 && r.Context().Err() != nil:
		// The client went away mid-request (a closed tab, an aborted
		// fetch), which cancels the database work too: not a server fault
		// for anyone to be paged about, and no one reads the answer.
		slog.InfoContext(r.Context(), "request abandoned by the client", "err", err, "path", r.URL.Path, "request_id", RequestID(r.Context()))
	case e.Status >= 500:
		slog.ErrorContext(r.Context(), "request failed", "err", err, "path", r.URL.Path, "request_id", RequestID(r.Context()))
	}
	// A limit that says when it frees (ratelimit.LimitedError) tells the
	// client too, whichever handler returned it.
	var ra interface{ RetryIn() time.Duration }
	if e.Status == http.StatusTooManyRequests && w.Header().Get("Retry-After") == "" && errors.As(err, &ra) {
		w.Header().Set("Retry-After", strconv.Itoa(max(1, int((ra.RetryIn()+time.Second-1)/time.Second))))
	}
	code := e.Code
	if code == 0 {
		code = e.Status
	}
	writeJSON(w, e.Status, Envelope{Code: code, Tip: e.Tip, Msg: safeMsg(e.Msg), Data: e.Data})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// NotFoundAPI answers an /api path that no route matched.
func NotFoundAPI(w http.ResponseWriter, r *http.Request) {
	WriteError(w, r, NotFound("请求地址不存在", "no route for "+Echo(r.Method)+" "+Echo(r.URL.Path)))
}
