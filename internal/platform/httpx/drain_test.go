package httpx

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"prima/internal/apitest"
)

// A client that writes a body far over the limit in one piece, as browsers
// do, and only then reads, gets the 413 envelope, not a reset connection.
// So does one refused before its body was read at all.
func TestLargeBodyIsAnswered(t *testing.T) {
	decode := Handler(func(w http.ResponseWriter, r *http.Request) error {
		var v map[string]any
		if err := Decode(w, r, &v); err != nil {
			return err
		}
		return OK(w, nil)
	})
	refuse := Handler(func(w http.ResponseWriter, r *http.Request) error {
		return Unauthorized("请先登录", "no token")
	})
	big := append([]byte(`{"x":"`), bytes.Repeat([]byte("a"), 3<<20)...)
	big = append(big, `"}`...)
	for _, c := range []struct {
		name   string
		h      http.Handler
		status int
		tip    string
	}{
		{"over the JSON limit", decode, 413, "提交的内容过大"},
		// The app's own middleware wraps the writer, which MaxBytesReader
		// cannot reach: the server is never told the limit was hit.
		{"over the JSON limit, wrapped", Gzip(decode), 413, "提交的内容过大"},
		{"refused unread", refuse, 401, "请先登录"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := apitest.NewServer(t, DrainBody(c.h))
			for i := range 2 { // a reset is not always the first time
				res, body, err := apitest.Raw(srv.Listener.Addr().String(), "POST", "/", []string{"Content-Type: application/json"}, big)
				if err != nil {
					t.Fatalf("try %d: %v", i, err)
				}
				var env struct {
					Code int    `json:"code"`
					Tip  string `json:"tip"`
				}
				if res.StatusCode != c.status || json.Unmarshal(body, &env) != nil || env.Code != c.status || env.Tip != c.tip {
					t.Fatalf("try %d: %d %s", i, res.StatusCode, body)
				}
			}
		})
	}

	// A body read to its end needs nothing: it answers as before.
	srv := apitest.NewServer(t, DrainBody(decode))
	res, body, err := apitest.Raw(srv.Listener.Addr().String(), "POST", "/", []string{"Content-Type: application/json"}, []byte(`{"x":1}`))
	if err != nil || res.StatusCode != 200 || !strings.Contains(string(body), `"code":200`) {
		t.Fatalf("a small body: %v %v %s", err, res, body)
	}
}

// The drain is bounded: a body much larger than DrainMax is cut off, and
// the handler returns rather than reading all of it.
func TestDrainIsBounded(t *testing.T) {
	read := int64(0)
	h := DrainBody(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}))
	body := &countingReader{n: DrainMax * 4, read: &read}
	r := httptest.NewRequest("POST", "/", body)
	h.ServeHTTP(httptest.NewRecorder(), r)
	if read > DrainMax+64<<10 {
		t.Fatalf("drained %d bytes, at most %d", read, DrainMax)
	}
	if read < DrainMax {
		t.Fatalf("drained %d bytes, want %d", read, DrainMax)
	}
}

type countingReader struct {
	n    int64
	read *int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.n <= 0 {
		return 0, io.EOF
	}
	k := min(int64(len(p)), c.n)
	c.n -= k
	*c.read += k
	return int(k), nil
}
