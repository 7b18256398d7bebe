package httpx

import "errors"

// ErrorCase answers the errors that match Err (errors.Is) with Status and
// Tip. Msg is for developers; left empty it is the error's own text.
type ErrorCase struct {
	Err    error
	Status int
	Tip    string // for the user, zh-CN; empty takes the error's Detail
	Msg    string // for developers; empty takes the error's Detail, else its text
}

// ErrorMap is a domain's table from its sentinel errors to answers: the one
// place a domain says how its errors reach the client (docs/architecture.md,
// "How errors answer").
type ErrorMap []ErrorCase

// Detailed is a typed error whose words change with each instance (the field
// a validation names, the time a mute ends). It still matches a sentinel
// through its Is method; a case that leaves Tip or Msg empty takes them from
// Detail.
type Detailed interface {
	error
	Detail() (tip, msg string)
}

// Map answers err by the first case it matches, keeping err as the cause so
// that what it carries (a RetryIn for Retry-After, the log's detail) goes on
// to WriteError. An *Error passes as it is, and so does an error no case
// matches: it stays the 500 it was.
func (m ErrorMap) Map(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := errors.AsType[*Error](err); ok {
		return err
	}
	for _, c := range m {
		if !errors.Is(err, c.Err) {
			continue
		}
		tip, msg := c.Tip, c.Msg
		if d, ok := errors.AsType[Detailed](err); ok && (tip == "" || msg == "") {
			dt, dm := d.Detail()
			if tip == "" {
				tip = dt
			}
			if msg == "" {
				msg = dm
			}
		}
		if msg == "" {
			msg = err.Error()
		}
		return &Error{Status: c.Status, Tip: tip, Msg: msg, Err: err}
	}
	return err
}

// Refuse is sentinel in the words of this instance (which module, which
// field, which bound): it matches sentinel, its text is msg, and a case
// that leaves Tip or Msg empty takes tip and msg from it.
func Refuse(sentinel error, tip, msg string) error { return &refusal{sentinel, tip, msg} }

type refusal struct {
	err      error
	tip, msg string
}

func (e *refusal) Error() string             { return e.msg }
func (e *refusal) Unwrap() error             { return e.err }
func (e *refusal) Detail() (tip, msg string) { return e.tip, e.msg }
