// Package audit writes and reads the operator audit log.
//
// Every operator action writes one row through Record, inside the same
// transaction as the change it records: the action and its row commit
// together or not at all. A domain that adds an operator call imports this
// package (never internal/admin) and calls Record with the *db.Tx its
// change runs in. The log is append-only and hash-chained (chain.go):
// Verify names the first row that was changed, removed or slipped in.
package audit

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// CLI is the actor uid of actions taken on the command line (prima admin).
const CLI int64 = 0

// Actor is who acts and from where.
type Actor struct {
	UID       int64  // the operator's uid; CLI (0) for the command line
	IP        string // the client address, empty on the command line
	RequestID string // the request's X-Request-Id, empty on the command line
}

// ActorFrom is the signed-in caller of r as an Actor.
func ActorFrom(r *http.Request) Actor {
	p, _ := httpx.PrincipalFrom(r.Context())
	return Actor{UID: p.UID, IP: httpx.ClientIP(r), RequestID: httpx.RequestID(r.Context())}
}

// Entry is one action. Before and After are marshalled to JSON (nil stores
// NULL): keep them to the fields the action changed, never secrets.
type Entry struct {
	Actor
	Action     string // dotted verb, e.g. "user.role"
	TargetType string // what was acted on, e.g. "user"
	TargetID   string // its id, as text so any domain's key fits
	Before     any
	After      any
}

// Longest values stored; a longer one is a programming error.
const (
	maxAction = 64
	maxTarget = 128
)

// ErrBadEntry is an entry that cannot be recorded (no action, too long).
var ErrBadEntry = errors.New("audit: bad entry")

// Record writes e in tx, stamped now. Its error must fail the transaction:
// an action that cannot be audited does not happen.
func Record(ctx context.Context, tx *db.Tx, e Entry) error {
	return RecordAt(ctx, tx, e, time.Now())
}

// RecordAt is Record with the time given, for services that run on their
// own clock.
func RecordAt(ctx context.Context, tx *db.Tx, e Entry, at time.Time) error {
	if e.Action == "" || len(e.Action) > maxAction || len(e.TargetType) > maxTarget || len(e.TargetID) > maxTarget {
		return fmt.Errorf("%w: action %q target %q/%q", ErrBadEntry, e.Action, e.TargetType, e.TargetID)
	}
	before, err := marshal(e.Before)
	if err != nil {
		return fmt.Errorf("audit %s before: %w", e.Action, err)
	}
	after, err := marshal(e.After)
	if err != nil {
		return fmt.Errorf("audit %s after: %w", e.Action, err)
	}
	if e.RequestID == "" {
		e.RequestID = httpx.RequestID(ctx)
	}
	r := stored{createdAt: at.Unix(), actor: e.UID, action: e.Action, targetType: e.TargetType, targetID: e.TargetID,
		before: before, after: after, ip: clip(e.IP, 64), requestID: clip(e.RequestID, 64)}
	if err := appendRow(ctx, tx, r); err != nil {
		return fmt.Errorf("audit %s: %w", e.Action, err)
	}
	return nil
}

// marshal is v as JSON text (NULL for nil), with <, > and & as they are:
// the log is read in the console and in CSV, never pasted into HTML.
func marshal(v any) (sql.NullString, error) {
	if v == nil {
		return sql.NullString{}, nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return sql.NullString{}, err
	}
	return sql.NullString{String: strings.TrimSuffix(buf.String(), "\n"), Valid: true}, nil
}

// clip bounds text that comes from a client (addresses, request ids) at a
// rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return strings.TrimSpace(s)
}
