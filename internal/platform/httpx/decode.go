package httpx

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// MaxBody is the largest JSON body the API reads; uploads have their own limit.
const MaxBody = 1 << 20

// Decode reads a JSON object body into dst. Malformed JSON and wrong types
// answer 400 with a tip that names the field; a body over MaxBody answers
// 413. Unknown fields are ignored so older clients keep working.
func Decode(w http.ResponseWriter, r *http.Request, dst any) error {
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	dec := json.NewDecoder(r.Body)
	dec.UseNumber()
	if err := dec.Decode(dst); err != nil {
		var (
			syn *json.SyntaxError
			typ *json.UnmarshalTypeError
			big *http.MaxBytesError
		)
		switch {
		case errors.As(err, &big):
			return &Error{Status: http.StatusRequestEntityTooLarge, Tip: "提交的内容过大", Msg: fmt.Sprintf("body over %d bytes", big.Limit)}
		case errors.Is(err, io.EOF):
			return BadRequest("请求内容不能为空", "empty body: a JSON object is expected")
		case errors.As(err, &syn), errors.Is(err, io.ErrUnexpectedEOF):
			return BadRequest("请求格式错误", "malformed JSON: "+err.Error())
		case errors.As(err, &typ):
			if typ.Field == "" {
				return BadRequest("请求格式错误", "a JSON object is expected, got "+typ.Value)
			}
			return BadRequest("参数 "+typ.Field+" 类型错误", fmt.Sprintf("field %s must be %s, got %s", typ.Field, typ.Type, typ.Value))
		default:
			return BadRequest("请求格式错误", err.Error())
		}
	}
	if dec.More() {
		return BadRequest("请求格式错误", "body holds more than one JSON value")
	}
	return nil
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
		q.fail(Invalid("参数 "+name+" 必须是整数", fmt.Sprintf("%s=%q is not an integer", name, s)))
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

// String returns the trimmed parameter.
func (q *Query) String(name string) string { return strings.TrimSpace(q.r.URL.Query().Get(name)) }

// Err is the first error recorded, or nil.
func (q *Query) Err() error { return q.err }

func (q *Query) fail(e *Error) {
	if q.err == nil {
		q.err = e
	}
}
