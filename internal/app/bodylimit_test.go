package app_test

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"strings"
	"testing"

	"prima/internal/apitest"
	"prima/internal/app/apptest"
)

// Through the whole server on a real listener, a client that writes a body
// over a limit in one piece and only then reads (as browsers do) gets the
// answer's envelope, not a reset connection: a JSON call over its 1 MiB,
// the error report over its own limit (refused from Content-Length alone),
// an upload refused before it is read, and a picture over its limit.
func TestLargeBodiesAreAnswered(t *testing.T) {
	s := apptest.New(t, "sqlite")
	srv := apitest.NewServer(t, s.Handler)
	addr := srv.Listener.Addr().String()
	user := apitest.GuestLogin(t, s.Handler, apitest.DevID(1))

	json3 := []byte(`{"devID":"` + strings.Repeat("a", 3<<20) + `","sysType":"ios"}`)
	form := func(name string, file []byte) ([]byte, string) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		fw, _ := mw.CreateFormFile("file", name)
		fw.Write(file)
		mw.Close()
		return b.Bytes(), mw.FormDataContentType()
	}
	// 3 MiB of anything, and a JPEG 12 MiB long (its limit is 10 MiB).
	anyForm, anyType := form("a.mp4", bytes.Repeat([]byte{0}, 3<<20))
	bigJPEG, jpegType := form("a.jpg", append([]byte{0xFF, 0xD8, 0xFF, 0xE0}, bytes.Repeat([]byte{0}, 12<<20)...))

	for _, c := range []struct {
		name    string
		path    string
		headers []string
		body    []byte
		status  int
		tip     string
	}{
		{"a JSON call", "/api/app/mine/login", []string{"Content-Type: application/json"}, json3, 413, "提交的内容过大"},
		{"an error report", "/api/app/report/error", []string{"Content-Type: application/json"}, json3, 413, "提交的内容过大"},
		{"an upload signed out", "/api/app/vid/uploadStatic", []string{"Content-Type: " + anyType}, anyForm, 401, "请先登录"},
		{"a picture over its limit", "/api/app/vid/uploadStatic", []string{"Content-Type: " + jpegType, "Authorization: Bearer " + user}, bigJPEG, 413, "文件太大"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, body, err := apitest.Raw(addr, "POST", c.path, c.headers, c.body)
			if err != nil {
				t.Fatal(err)
			}
			var env apitest.Envelope
			if res.StatusCode != c.status || json.Unmarshal(body, &env) != nil || env.Code != c.status || !strings.Contains(env.Tip, c.tip) {
				t.Fatalf("%d %s", res.StatusCode, body)
			}
		})
	}
}
