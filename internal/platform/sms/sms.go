// Package sms sends text messages through a provider. The built-in
// provider writes them to the server log; a real gateway is one more
// implementation of Sender, wired in internal/app.
package sms

import (
	"context"
	"log/slog"
	"sync"
)

// Sender delivers text to a mainland mobile number (11 digits).
type Sender interface {
	Send(ctx context.Context, mobile, text string) error
}

// Log is the built-in provider: each message goes to the server log at
// info level, which is where an operator without an SMS gateway reads the
// codes. The log line masks nothing: whoever reads the server log is
// already trusted with the install.
type Log struct{ Logger *slog.Logger }

// Send logs the message.
func (l Log) Send(ctx context.Context, mobile, text string) error {
	lg := l.Logger
	if lg == nil {
		lg = slog.Default()
	}
	lg.InfoContext(ctx, "sms", "mobile", mobile, "text", text)
	return nil
}

// Recorder wraps a Sender and remembers the last message sent to each
// number, so tests can read the codes back. It is only wired when the
// server runs in test mode (PRIMA_TEST_MODE); the numbers it keeps grow
// without bound, which is fine for a test run and a reason never to use
// it in production.
type Recorder struct {
	Next Sender
	mu   sync.Mutex
	last map[string]string
}

// Send records text for mobile, then passes it on.
func (r *Recorder) Send(ctx context.Context, mobile, text string) error {
	r.mu.Lock()
	if r.last == nil {
		r.last = map[string]string{}
	}
	r.last[mobile] = text
	r.mu.Unlock()
	if r.Next == nil {
		return nil
	}
	return r.Next.Send(ctx, mobile, text)
}

// Last is the last message sent to mobile, and whether there was one.
func (r *Recorder) Last(mobile string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t, ok := r.last[mobile]
	return t, ok
}
