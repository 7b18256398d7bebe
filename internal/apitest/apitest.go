// Package apitest runs API request scenarios against an http.Handler and
// checks the envelope of every answer. A domain's own tests run them over
// the domain's handlers (package account mounts its routes on a mux); tests
// of the whole server build a real app on both engines with
// internal/app/apptest and run the same scenarios through app.Handler().
//
// This package imports nothing of Prima's, so any package's in-package
// tests can use it without an import cycle.
package apitest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Envelope is the body of every API answer.
type Envelope struct {
	Code int             `json:"code"`
	Tip  string          `json:"tip"`
	Msg  string          `json:"msg"`
	Data json.RawMessage `json:"data"`
}

// Scenario is one request and what its answer must be.
type Scenario struct {
	Name   string
	Method string // GET when empty
	URL    string // path and query; an absolute URL also sets the Host
	Body   string
	// Headers are set on the request. Content-Type defaults to
	// application/json when Body is not empty; set it to "" to send none.
	// "Host" sets the request's host.
	Headers    map[string]string
	Token      string // sent as Authorization: Bearer <Token>
	RemoteAddr string // the peer; httptest's 192.0.2.1:1234 when empty

	ExpectedStatus     int
	ExpectedCode       int      // the envelope's code; ExpectedStatus when 0
	ExpectedTip        string   // the tip must contain this
	ExpectedContent    []string // the raw body must contain each
	NotExpectedContent []string // and none of these
	Check              func(t *testing.T, res *Response)
}

// Response is what a scenario's request got back.
type Response struct {
	*httptest.ResponseRecorder
	Envelope Envelope // zero when the answer is not JSON
}

// Data unmarshals the envelope's data into a T, failing the test when it
// does not fit.
func Data[T any](t testing.TB, res *Response) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(res.Envelope.Data, &v); err != nil {
		t.Fatalf("data does not fit %T: %v\n%s", v, err, res.Envelope.Data)
	}
	return v
}

// Request builds the scenario's request.
func (s Scenario) Request() *http.Request {
	method := s.Method
	if method == "" {
		method = http.MethodGet
	}
	r := httptest.NewRequest(method, s.URL, strings.NewReader(s.Body))
	if s.Body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	for k, v := range s.Headers {
		switch {
		case strings.EqualFold(k, "Host"):
			r.Host = v
		case v == "":
			r.Header.Del(k)
		default:
			r.Header.Set(k, v)
		}
	}
	if s.Token != "" {
		r.Header.Set("Authorization", "Bearer "+s.Token)
	}
	if s.RemoteAddr != "" {
		r.RemoteAddr = s.RemoteAddr
	}
	return r
}

// Send serves the scenario's request on h and decodes the envelope,
// checking nothing else.
func (s Scenario) Send(t testing.TB, h http.Handler) *Response {
	t.Helper()
	r := s.Request()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	res := &Response{ResponseRecorder: rec}
	isJSON := strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json")
	if isJSON {
		if err := json.Unmarshal(rec.Body.Bytes(), &res.Envelope); err != nil {
			t.Fatalf("%s %s: the answer is not an envelope: %v\n%s", r.Method, s.URL, err, rec.Body)
		}
	} else if strings.HasPrefix(r.URL.Path, "/api/") && (rec.Code < 300 || rec.Code >= 400) {
		// Only a redirect (to a cleaned path) may be something else.
		t.Fatalf("%s %s: an API answer that is not JSON (%q): %s", r.Method, s.URL, rec.Header().Get("Content-Type"), rec.Body)
	}
	return res
}

// Run serves the scenario on h and checks its expectations in t: the
// status, the envelope's code (every API answer is an envelope, and every
// error carries a tip), the tip and the content.
func (s Scenario) Run(t *testing.T, h http.Handler) *Response {
	t.Helper()
	res := s.Send(t, h)
	what := fmt.Sprintf("%s %s", s.Request().Method, s.URL)
	if res.Code != s.ExpectedStatus {
		t.Fatalf("%s: status %d, want %d\n%s", what, res.Code, s.ExpectedStatus, res.Body)
	}
	isEnvelope := strings.HasPrefix(res.Header().Get("Content-Type"), "application/json") && strings.HasPrefix(s.Request().URL.Path, "/api/")
	if isEnvelope {
		want := s.ExpectedCode
		if want == 0 {
			want = s.ExpectedStatus
		}
		if res.Envelope.Code != want {
			t.Fatalf("%s: envelope code %d, want %d\n%s", what, res.Envelope.Code, want, res.Body)
		}
		if res.Envelope.Code != http.StatusOK && res.Envelope.Tip == "" {
			t.Fatalf("%s: an error without a tip: %s", what, res.Body)
		}
	}
	if s.ExpectedTip != "" && !strings.Contains(res.Envelope.Tip, s.ExpectedTip) {
		t.Fatalf("%s: tip %q, want it to contain %q (msg %q)", what, res.Envelope.Tip, s.ExpectedTip, res.Envelope.Msg)
	}
	body := res.Body.String()
	for _, c := range s.ExpectedContent {
		if !strings.Contains(body, c) {
			t.Fatalf("%s: the answer lacks %q\n%s", what, c, body)
		}
	}
	for _, c := range s.NotExpectedContent {
		if strings.Contains(body, c) {
			t.Fatalf("%s: the answer holds %q\n%s", what, c, body)
		}
	}
	if s.Check != nil {
		s.Check(t, res)
	}
	return res
}

// Run runs each scenario as a subtest of t, in order, stopping at the first
// failure: scenarios often build on what earlier ones changed.
func Run(t *testing.T, h http.Handler, scenarios ...Scenario) {
	t.Helper()
	for _, s := range scenarios {
		if !t.Run(s.Name, func(t *testing.T) { s.Run(t, h) }) {
			t.FailNow()
		}
	}
}

// DevID is a well-formed device id (the client's 16 characters and a
// millisecond timestamp), distinct for each n.
func DevID(n int) string { return fmt.Sprintf("dev%013d1772366400000", n) }

// GuestLogin signs a new device in as a guest and returns its token.
func GuestLogin(t *testing.T, h http.Handler, devID string) string {
	t.Helper()
	res := Scenario{
		Method: http.MethodPost, URL: "/api/app/mine/login",
		Body:           `{"devID":"` + devID + `","sysType":"ios"}`,
		ExpectedStatus: http.StatusOK,
	}.Run(t, h)
	d := Data[struct {
		Token string `json:"token"`
	}](t, res)
	if d.Token == "" {
		t.Fatalf("guest login gave no token: %s", res.Body)
	}
	return d.Token
}

// Raw sends one request over a fresh TCP connection to addr (host:port of
// a real listener) the way a browser does: the head and the whole body in
// one write, and only then reads the answer. A server that answers early
// and drops the rest of a large body resets such a client before it reads
// anything, which an http.Client (reading while it writes) would hide.
// headers are "Name: value" lines; Content-Length is added.
func Raw(addr, method, path string, headers []string, body []byte) (*http.Response, []byte, error) {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, nil, err
	}
	defer conn.Close()
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(64 << 10) // see NewServer
	}
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	var req bytes.Buffer
	fmt.Fprintf(&req, "%s %s HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\n", method, path, addr, len(body))
	for _, h := range headers {
		req.WriteString(h + "\r\n")
	}
	req.WriteString("\r\n")
	req.Write(body)
	if _, err := conn.Write(req.Bytes()); err != nil {
		return nil, nil, fmt.Errorf("writing the request: %w", err)
	}
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the answer: %w", err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res, b, err
}

// NewServer serves h on a real loopback listener whose connections have
// small socket buffers, as over a real network: on loopback the kernel
// would otherwise buffer megabytes, and a client's large write would
// finish before the server had refused it. Pair it with Raw.
func NewServer(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	srv.Listener = smallBuffers{srv.Listener}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetReadBuffer(64 << 10)
	}
	return c, err
}
