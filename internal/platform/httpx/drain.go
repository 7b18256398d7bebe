package httpx

import (
	"io"
	"net/http"
	"strings"
	"time"
)

// What DrainBody reads of a body its handler left unread, at most: enough
// for a JSON body a few MiB over MaxBody or a picture a little over its
// limit, not a refused video (the web app checks a video's size before
// sending it).
const (
	DrainMax  = 8 << 20
	DrainTime = 10 * time.Second
)

// DrainBody reads and discards what the handler left of the request body,
// up to DrainMax bytes within DrainTime, once the handler has returned (a
// short answer is then still in the server's buffer).
//
// A handler that answers early (413 over a body limit, 401 before reading
// an upload, 429) leaves the rest of the body on the wire. Go's server
// discards at most 256 KiB of it and otherwise closes the connection with
// unread bytes, which the kernel turns into a reset: a client that writes
// its whole body before reading (as browsers do) then sees the connection
// reset instead of the answer. Reading the rest lets the close be clean
// and the client read the envelope. A body bigger still is cut off as
// before; the deadline keeps a slow sender from holding the handler.
//
// It goes outermost: the deadline is set on the server's own connection.
func DrainBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		body := &watchedBody{ReadCloser: r.Body}
		r2 := new(http.Request)
		*r2 = *r
		r2.Body = body
		next.ServeHTTP(w, r2)
		// A client that asked to be told to go on (Expect: 100-continue)
		// sends nothing until the body is first read: there is nothing on
		// the wire to drain.
		if body.eof || body.read == 0 && strings.EqualFold(r.Header.Get("Expect"), "100-continue") {
			return
		}
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(DrainTime))
		_, _ = io.CopyN(io.Discard, body.ReadCloser, DrainMax)
	})
}

// watchedBody notes whether the handler read the body to its end.
type watchedBody struct {
	io.ReadCloser
	read int64
	eof  bool
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	if err == io.EOF {
		b.eof = true
	}
	return n, err
}
