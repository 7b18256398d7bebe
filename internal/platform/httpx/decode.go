package httpx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxBody is the largest JSON body the API reads; uploads have their own limit.
const MaxBody = 1 << 20

// Decode reads a JSON object body into dst. Malformed JSON and wrong types
// answer 400 with a tip that names the field; a body over MaxBody answers
// 413; a string that breaks the text rule (text.go) answers 422 naming its
// field. Unknown fields are ignored so older clients keep working.
func Decode(w http.ResponseWriter, r *http.Request, dst any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var big *http.MaxBytesError
		if errors.As(err, &big) {
			return &Error{Status: http.StatusRequestEntityTooLarge, Tip: "提交的内容过大", Msg: fmt.Sprintf("body over %d bytes", big.Limit)}
		}
		return BadRequest("请求读取失败", "reading the body: "+err.Error())
	}
	dec := json.NewDecoder(bytes.NewReader(markInvalid(body)))
	dec.UseNumber()
	if err := dec.Decode(dst); err != nil {
		var (
			syn *json.SyntaxError
			typ *json.UnmarshalTypeError
		)
		switch {
		case errors.Is(err, io.EOF):
			return BadRequest("请求内容不能为空", "empty body: a JSON object is expected")
		case errors.As(err, &syn), errors.Is(err, io.ErrUnexpectedEOF):
			return BadRequest("请求格式错误", "malformed JSON: "+err.Error())
		case errors.As(err, &typ):
			if typ.Field == "" {
				return BadRequest("请求格式错误", "a JSON object is expected, got "+typ.Value)
			}
			return BadRequest("参数 "+clip(typ.Field)+" 类型错误", fmt.Sprintf("field %s must be %s, got %s", Echo(typ.Field), typ.Type, typ.Value))
		default:
			return BadRequest("请求格式错误", err.Error())
		}
	}
	if dec.More() {
		return BadRequest("请求格式错误", "body holds more than one JSON value")
	}
	return checkValue(reflect.ValueOf(dst), "", textMode{})
}

// markInvalid rewrites what encoding/json would silently turn into U+FFFD
// (bytes that are not UTF-8, \u escapes of unpaired surrogates) into the
// escape \uffff, a noncharacter the text rule refuses, so the 422 can name
// the field that held it. Clean bodies, nearly all of them, are returned as
// they are.
func markInvalid(b []byte) []byte {
	if utf8.Valid(b) && !bytes.Contains(b, []byte(`\u`)) {
		return b
	}
	const mark = `\uffff`
	out := make([]byte, 0, len(b)+len(mark))
	inString := false
	for i := 0; i < len(b); {
		c := b[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				out = append(out, mark...)
			} else {
				out = append(out, b[i:i+n]...)
			}
			i += n
			continue
		}
		switch {
		case c == '"':
			inString = !inString
		case c == '\\' && inString && i+1 < len(b):
			if b[i+1] == 'u' {
				if r, ok := hex4(b[i+2:]); ok && utf16.IsSurrogate(r) {
					if r < 0xdc00 && i+12 <= len(b) && b[i+6] == '\\' && b[i+7] == 'u' {
						if r2, ok := hex4(b[i+8:]); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
							out = append(out, b[i:i+12]...) // a proper pair
							i += 12
							continue
						}
					}
					out = append(out, mark...)
					i += 6
					continue
				}
			}
			out = append(out, c, b[i+1]) // the escaped byte cannot end the string
			i += 2
			continue
		}
		out = append(out, c)
		i++
	}
	return out
}

// hex4 reads the four hex digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[:4]), 16, 16)
	return rune(n), err == nil
}

// Query reads integer query parameters with defaults and bounds, answering
// 422 with a tip naming the parameter when one is not a number or out of range.
type Query struct {
	r   *http.Request
	err error
}

// Q starts reading r's query parameters.
func Q(r *http.Request) *Query { return &Query{r: r} }

// Int returns the parameter name, def when absent or empty, and records an
// error when it is not an integer within [min, max].
func (q *Query) Int(name string, def, min, max int64) int64 {
	s := strings.TrimSpace(q.r.URL.Query().Get(name))
	if s == "" {
		return def
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		q.fail(Invalid("参数 "+name+" 必须是整数", fmt.Sprintf("%s=%s is not an integer", name, Echo(s))))
		return def
	}
	if n < min || n > max {
		q.fail(Invalid(fmt.Sprintf("参数 %s 应在 %d 到 %d 之间", name, min, max), fmt.Sprintf("%s=%d is outside [%d, %d]", name, n, min, max)))
		return def
	}
	return n
}

// Required is Int for a parameter that must be present.
func (q *Query) Required(name string, min, max int64) int64 {
	if strings.TrimSpace(q.r.URL.Query().Get(name)) == "" {
		q.fail(Invalid("缺少参数 "+name, name+" is required"))
		return 0
	}
	return q.Int(name, 0, min, max)
}

// String returns the trimmed parameter; one that breaks the text rule
// (text.go) records a 422 naming it and reads as "".
func (q *Query) String(name string) string {
	s := strings.TrimSpace(q.r.URL.Query().Get(name))
	if p := textProblem(s, textMode{}); p != "" {
		q.fail(TextError(name, p))
		return ""
	}
	return s
}

// Err is the first error recorded, or nil.
func (q *Query) Err() error { return q.err }

func (q *Query) fail(e *Error) {
	if q.err == nil {
		q.err = e
	}
}

// MaxID is the largest id a request may name: ids are BIGINT, but JSON
// numbers past 2^53 lose precision in a browser, no table is near it, and a
// bound keeps garbage out of the SQL.
const MaxID = 1<<53 - 1

// BodyID checks an id read from a JSON body: present (422 "缺少参数 id"),
// and within 1..MaxID (422 "参数 id 无效").
func BodyID(id *int64) (int64, error) { return BodyIDOf("id", id) }

// BodyIDOf is BodyID for a field of another name (uid, postID, ...): the
// tips name that field.
func BodyIDOf(name string, id *int64) (int64, error) {
	if id == nil {
		return 0, Invalid("缺少参数 "+name, name+" is required")
	}
	if *id < 1 || *id > MaxID {
		return 0, Invalid("参数 "+name+" 无效", name+" must be a positive integer up to 2^53-1")
	}
	return *id, nil
}

// DecodeID reads a body that names one thing, {id}, and checks the id as
// BodyID does: the shape of every "do this to that" call (play, delete,
// claim, click).
func DecodeID(w http.ResponseWriter, r *http.Request) (int64, error) {
	var in struct {
		ID *int64 `json:"id"`
	}
	if err := Decode(w, r, &in); err != nil {
		return 0, err
	}
	return BodyID(in.ID)
}
