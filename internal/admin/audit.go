package admin

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// Bounds of the audit listing and export.
const (
	defaultAuditLimit = 50
	maxAuditLimit     = 200
	// MaxAuditCSV rows at most go into one export.
	MaxAuditCSV = 100_000
)

// AuditRow is an audit-log row as the console shows it: target is
// "type:id" ("type" when the row names no id), actorAccount the actor's
// account ("" for the command line, actor 0), prevHash and hash its links
// in the chain ("" for rows from before it).
type AuditRow struct {
	ID           int64           `json:"id"`
	At           time.Time       `json:"at"`
	Actor        int64           `json:"actor"`
	ActorAccount string          `json:"actorAccount"`
	Action       string          `json:"action"`
	Target       string          `json:"target"`
	Before       json.RawMessage `json:"before"`
	After        json.RawMessage `json:"after"`
	IP           string          `json:"ip"`
	RequestID    string          `json:"requestId"`
	Hash         string          `json:"hash"`
	PrevHash     string          `json:"prevHash"`
}

// AuditPage is a page of the log, newest first; nextCursor continues it
// (null on the last page).
type AuditPage struct {
	List       []AuditRow `json:"list"`
	NextCursor *string    `json:"nextCursor"`
}

// auditFilter reads the listing's filters: actor (uid, 0 the command
// line), action, target ("type" or "type:id"), from and to (RFC 3339 or
// unix seconds; from <= at < to) and cursor (the previous page's
// nextCursor).
func auditFilter(r *http.Request) (audit.Filter, error) {
	q := httpx.Q(r)
	f := audit.Filter{
		Actor:    q.Int("actor", -1, 0, math.MaxInt64),
		Action:   q.String("action"),
		BeforeID: q.Int("cursor", 0, 1, math.MaxInt64),
	}
	target := q.String("target")
	if err := q.Err(); err != nil {
		return f, err
	}
	if len(f.Action) > 64 {
		return f, httpx.Invalid("参数 action 过长", "action is longer than 64 bytes")
	}
	if len(target) > 257 {
		return f, httpx.Invalid("参数 target 过长", "target is longer than 257 bytes")
	}
	f.TargetType, f.TargetID, _ = strings.Cut(target, ":")
	var err error
	if f.From, err = auditTime(r, "from"); err != nil {
		return f, err
	}
	if f.To, err = auditTime(r, "to"); err != nil {
		return f, err
	}
	return f, nil
}

// auditTime is the time parameter name as unix seconds (0 when absent).
func auditTime(r *http.Request, name string) (int64, error) {
	v := strings.TrimSpace(r.URL.Query().Get(name))
	if v == "" {
		return 0, nil
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 && n < 1<<40 {
		return n, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil && t.Unix() > 0 {
		return t.Unix(), nil
	}
	return 0, httpx.Invalid("参数 "+name+" 应为时间（RFC 3339 或 Unix 秒）", name+" is not an RFC 3339 time or unix seconds")
}

// rowView makes r the console's row, resolving the actor's account once
// per actor (names).
func (h *Handler) rowView(r *http.Request, row audit.Row, names map[int64]string) (AuditRow, error) {
	name, ok := names[row.ActorUID]
	if !ok && row.ActorUID != audit.CLI {
		u, err := h.users.User(r.Context(), row.ActorUID)
		if err != nil && !errors.Is(err, db.ErrNotFound) {
			return AuditRow{}, err
		}
		name = u.Account
		names[row.ActorUID] = name
	}
	target := row.TargetType
	if row.TargetID != "" {
		target += ":" + row.TargetID
	}
	return AuditRow{ID: row.ID, At: row.CreatedAt, Actor: row.ActorUID, ActorAccount: name, Action: row.Action, Target: target,
		Before: row.Before, After: row.After, IP: row.IP, RequestID: row.RequestID, Hash: row.Hash, PrevHash: row.PrevHash}, nil
}

// Audit is GET /api/admin/audit?actor&action&target&from&to&cursor&limit:
// the log newest first, by keyset (no count, no offset: every page costs
// what the first does).
func (h *Handler) Audit(w http.ResponseWriter, r *http.Request) error {
	f, err := auditFilter(r)
	if err != nil {
		return err
	}
	q := httpx.Q(r)
	limit := int(q.Int("limit", defaultAuditLimit, 1, maxAuditLimit))
	if err := q.Err(); err != nil {
		return err
	}
	rows, err := audit.List(r.Context(), h.db, f, limit+1)
	if err != nil {
		return httpx.Internal(err)
	}
	page := AuditPage{List: make([]AuditRow, 0, min(len(rows), limit))}
	names := map[int64]string{}
	for i, row := range rows {
		if i == limit {
			next := strconv.FormatInt(rows[limit-1].ID, 10)
			page.NextCursor = &next
			break
		}
		v, err := h.rowView(r, row, names)
		if err != nil {
			return httpx.Internal(err)
		}
		page.List = append(page.List, v)
	}
	return httpx.OK(w, page)
}

// AuditCSV is GET /api/admin/audit.csv with the listing's filters: at most
// MaxAuditCSV rows, newest first, as a UTF-8 CSV attachment (with a byte
// order mark, so spreadsheet programs read the Chinese right). A text cell
// that starts with = + - @ or a tab gets a leading ' (OWASP's defence
// against formula injection: a reason typed by a user is never run by a
// spreadsheet).
func (h *Handler) AuditCSV(w http.ResponseWriter, r *http.Request) error {
	f, err := auditFilter(r)
	if err != nil {
		return err
	}
	var cw *csv.Writer
	start := func() {
		hd := w.Header()
		hd.Set("Content-Type", "text/csv; charset=utf-8")
		hd.Set("Content-Disposition", `attachment; filename="audit-`+time.Now().UTC().Format("20060102-150405")+`.csv"`)
		hd.Set("Cache-Control", "no-store")
		_, _ = w.Write([]byte("\ufeff"))
		cw = csv.NewWriter(w)
		_ = cw.Write([]string{"id", "at", "actor", "actorAccount", "action", "target", "before", "after", "ip", "requestId", "prevHash", "hash"})
	}
	names := map[int64]string{}
	err = audit.Each(r.Context(), h.db, f, MaxAuditCSV, func(row audit.Row) error {
		v, err := h.rowView(r, row, names)
		if err != nil {
			return err
		}
		if cw == nil {
			start()
		}
		return cw.Write([]string{strconv.FormatInt(v.ID, 10), v.At.Format(time.RFC3339), strconv.FormatInt(v.Actor, 10), cell(v.ActorAccount),
			cell(v.Action), cell(v.Target), cell(string(v.Before)), cell(string(v.After)), cell(v.IP), cell(v.RequestID), v.PrevHash, v.Hash})
	})
	if err != nil {
		if cw == nil {
			return httpx.Internal(err)
		}
		// The answer has begun: it ends short, and the log says why.
		slog.ErrorContext(r.Context(), "audit export cut short", "err", err, "request_id", httpx.RequestID(r.Context()))
	}
	if cw == nil {
		start()
	}
	cw.Flush()
	return nil
}

// cell defuses text a spreadsheet would take for a formula.
func cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
