package httpx

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

var (
	errGone  = errors.New("thing: gone")
	errBusy  = errors.New("thing: busy")
	errField = errors.New("thing: invalid")
)

// limited is a rate limit as a domain reports it: it matches errBusy and
// says when it frees.
type limited struct{ after time.Duration }

func (e *limited) Error() string          { return "thing: too many" }
func (e *limited) Is(t error) bool        { return t == errBusy }
func (e *limited) RetryIn() time.Duration { return e.after }

type fieldErr struct{ field string }

func (e *fieldErr) Error() string   { return "thing: bad " + e.field }
func (e *fieldErr) Is(t error) bool { return t == errField }
func (e *fieldErr) Detail() (string, string) {
	return "参数 " + e.field + " 无效", e.field + " is out of range"
}

var thingErrs = ErrorMap{
	{Err: errGone, Status: http.StatusNotFound, Tip: "不存在", Msg: "no such thing"},
	{Err: errBusy, Status: http.StatusTooManyRequests, Tip: "太频繁了"},
	{Err: errField, Status: http.StatusUnprocessableEntity},
}

func TestErrorMap(t *testing.T) {
	if thingErrs.Map(nil) != nil {
		t.Fatal("nil must stay nil")
	}
	wrapped := fmt.Errorf("load: %w", errGone)
	e, ok := thingErrs.Map(wrapped).(*Error)
	if !ok || e.Status != 404 || e.Tip != "不存在" || e.Msg != "no such thing" || e.Err != wrapped {
		t.Fatalf("wrapped sentinel: %#v", e)
	}
	// An empty Msg is the error's own text.
	e = thingErrs.Map(&limited{time.Second}).(*Error)
	if e.Status != 429 || e.Msg != "thing: too many" {
		t.Fatalf("limit: %#v", e)
	}
	// Empty Tip and Msg come from the error's Detail.
	e = thingErrs.Map(fmt.Errorf("x: %w", &fieldErr{"age"})).(*Error)
	if e.Status != 422 || e.Tip != "参数 age 无效" || e.Msg != "age is out of range" {
		t.Fatalf("detailed: %#v", e)
	}
	// An answer already made and an error no case knows pass as they are.
	made := fmt.Errorf("w: %w", NotFound("别的", "other"))
	if got := thingErrs.Map(made); got != made {
		t.Fatalf("made answer changed: %v", got)
	}
	odd := errors.New("disk on fire")
	if got := thingErrs.Map(odd); got != odd {
		t.Fatalf("unmatched error changed: %v", got)
	}
}

// A mapped limit keeps its cause, so WriteError can say when to come back.
func TestErrorMapKeepsRetryIn(t *testing.T) {
	w := httptest.NewRecorder()
	r := httptest.NewRequest("GET", "/api/x", nil)
	WriteError(w, r, thingErrs.Map(fmt.Errorf("post: %w", &limited{1500 * time.Millisecond})))
	if w.Code != 429 || w.Header().Get("Retry-After") != "2" {
		t.Fatalf("status %d, Retry-After %q", w.Code, w.Header().Get("Retry-After"))
	}
	var env Envelope
	if err := json.Unmarshal(w.Body.Bytes(), &env); err != nil || env.Tip != "太频繁了" || env.Code != 429 {
		t.Fatalf("envelope %+v (%v)", env, err)
	}
	// Unmatched stays the 500 it was.
	w = httptest.NewRecorder()
	WriteError(w, r, thingErrs.Map(errors.New("disk on fire")))
	if w.Code != 500 {
		t.Fatalf("unmatched: %d", w.Code)
	}
}

// A refusal matches its sentinel and answers in its own words where the
// table leaves them open; the table's words come first.
func TestRefuse(t *testing.T) {
	m := ErrorMap{{Err: errGone, Status: http.StatusNotFound}, {Err: errBusy, Status: http.StatusConflict, Tip: "忙"}}
	err := Refuse(errGone, "模块 3 不存在", "no module 3")
	if !errors.Is(err, errGone) || err.Error() != "no module 3" {
		t.Fatalf("refusal: %v", err)
	}
	got, _ := errors.AsType[*Error](m.Map(err))
	if got == nil || got.Status != 404 || got.Tip != "模块 3 不存在" || got.Msg != "no module 3" {
		t.Fatalf("mapped: %+v", got)
	}
	got, _ = errors.AsType[*Error](m.Map(Refuse(errBusy, "别的", "busy now")))
	if got == nil || got.Tip != "忙" || got.Msg != "busy now" {
		t.Fatalf("table's tip first: %+v", got)
	}
}
