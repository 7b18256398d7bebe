// Package report keeps the error reports clients send (spec §9: "POST to
// an admin error-report service" for unreachable lines and for payment
// errors) and lists them for operators.
//
// It is its own package rather than part of catalog because two domains
// feed it: the delivery lines (catalog) and payments (wallet). Each
// would otherwise import the other's error reporting; here neither depends
// on the other, and an operator reads one list.
package report

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"prima/internal/platform/db"
	"prima/internal/platform/ratelimit"
)

// Kinds of report.
const (
	KindLine    = "line"
	KindPayment = "payment"
)

// Limits on what a report may hold. A report is diagnostics, not data: a
// few short fields and, for a line report, the lines that failed.
const (
	MaxBody      = 8 << 10 // bytes of the JSON body
	maxField     = 128     // bytes of appname, appv, dev, the payment fields
	maxMessage   = 1024    // bytes of emsg
	maxLines     = 40      // lines in one report: 20 API lines and a fallback list's
	maxLineURL   = 512
	maxReason    = 64
	PerIPLimit   = 6 // reports a minute from one address
	perIPWindow  = time.Minute
	countsWindow = 24 * time.Hour
)

// ErrInvalid is a report that breaks a rule; the *Invalid says which.
var ErrInvalid = errors.New("report: invalid")

// Invalid names the field of a refused report.
type Invalid struct{ Field, Problem string }

func (e *Invalid) Error() string     { return fmt.Sprintf("report: %s: %s", e.Field, e.Problem) }
func (e *Invalid) Is(err error) bool { return err == ErrInvalid }

// Input is what a client sends; UID and IP are set by the server (the token
// and the connection), never taken from the body.
type Input struct {
	Kind    string
	AppName string
	AppV    string
	Dev     string
	// Line reports: line URL -> how it failed (timeout, network, http 502 ...).
	Domain map[string]string
	// Payment reports.
	PayName, PayID, PayType, PayAdds, EMsg string

	UID int64
	IP  string
}

// Report is one stored report as operators see it.
type Report struct {
	ID        int64           `json:"id"`
	Kind      string          `json:"kind"`
	UID       int64           `json:"uid"`
	IP        string          `json:"ip"`
	AppName   string          `json:"appname"`
	AppV      string          `json:"appv"`
	Dev       string          `json:"dev"`
	Detail    json.RawMessage `json:"detail"`
	CreatedAt time.Time       `json:"createdAt"`
}

// paymentDetail is the payment fields as stored in detail.
type paymentDetail struct {
	PayName string `json:"payname"`
	PayID   string `json:"payid"`
	PayType string `json:"paytype"`
	PayAdds string `json:"payadds"`
	EMsg    string `json:"emsg"`
}

// Service stores and lists reports.
type Service struct {
	db      *db.DB
	limiter ratelimit.Limiter
	now     func() time.Time
}

// NewService stores reports in d, throttled per address by limiter.
func NewService(d *db.DB, limiter ratelimit.Limiter) *Service {
	return &Service{db: d, limiter: limiter, now: time.Now}
}

// check validates in and returns the JSON detail to store.
func check(in *Input) ([]byte, error) {
	for _, f := range []struct{ name, v string }{{"appname", in.AppName}, {"appv", in.AppV}, {"dev", in.Dev}} {
		if len(f.v) > maxField {
			return nil, &Invalid{f.name, fmt.Sprintf("longer than %d bytes", maxField)}
		}
	}
	switch in.Kind {
	case KindLine:
		if len(in.Domain) == 0 {
			return nil, &Invalid{"domain", "names no line"}
		}
		if len(in.Domain) > maxLines {
			return nil, &Invalid{"domain", fmt.Sprintf("more than %d lines", maxLines)}
		}
		for line, reason := range in.Domain {
			if len(line) > maxLineURL {
				return nil, &Invalid{"domain", fmt.Sprintf("a line longer than %d bytes", maxLineURL)}
			}
			u, err := url.Parse(line)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
				return nil, &Invalid{"domain", "a key is not an http(s) URL without credentials"}
			}
			if strings.TrimSpace(reason) == "" || len(reason) > maxReason {
				return nil, &Invalid{"domain", fmt.Sprintf("a reason is empty or longer than %d bytes", maxReason)}
			}
		}
		return json.Marshal(map[string]any{"domain": in.Domain})
	case KindPayment:
		d := paymentDetail{in.PayName, in.PayID, in.PayType, in.PayAdds, in.EMsg}
		for _, f := range []struct{ name, v string }{{"payname", d.PayName}, {"payid", d.PayID}, {"paytype", d.PayType}, {"payadds", d.PayAdds}} {
			if len(f.v) > maxField {
				return nil, &Invalid{f.name, fmt.Sprintf("longer than %d bytes", maxField)}
			}
		}
		if len(d.EMsg) > maxMessage {
			return nil, &Invalid{"emsg", fmt.Sprintf("longer than %d bytes", maxMessage)}
		}
		if d.PayID == "" && d.EMsg == "" {
			return nil, &Invalid{"payid", "a payment report needs payid or emsg"}
		}
		return json.Marshal(d)
	case "":
		return nil, &Invalid{"kind", "is required (line or payment)"}
	default:
		return nil, &Invalid{"kind", "must be line or payment"}
	}
}

// Submit stores a report after the per-address limit (a *ratelimit.LimitedError
// when over it). The limit fails open: a report is diagnostics, bounded in
// size, and losing reports during a Redis outage would hide the outage.
func (s *Service) Submit(ctx context.Context, in Input) (int64, error) {
	detail, err := check(&in)
	if err != nil {
		return 0, err
	}
	if err := ratelimit.Enforce(ctx, s.limiter, "report:ip:"+in.IP, PerIPLimit, perIPWindow, ratelimit.FailOpen); err != nil {
		return 0, err
	}
	now := s.now().Unix()
	var id int64
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := tx.QueryRow(ctx, `INSERT INTO error_reports (kind, uid, ip, appname, appv, dev, detail, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			in.Kind, in.UID, in.IP, in.AppName, in.AppV, in.Dev, string(detail), now).Scan(&id); err != nil {
			return err
		}
		for line, reason := range in.Domain {
			if _, err := tx.Exec(ctx, `INSERT INTO error_report_lines (report_id, line, reason, created_at) VALUES (?, ?, ?, ?)`,
				id, line, reason, now); err != nil {
				return err
			}
		}
		return nil
	})
	return id, err
}

// LineCount is how often a line was reported down in the window.
type LineCount struct {
	Line    string `json:"line"`
	Reports int    `json:"reports"`
	// LastReason is the reason of the newest report of the line.
	LastReason string    `json:"lastReason"`
	LastAt     time.Time `json:"lastAt"`
}

// Listing is a page of reports, newest first, with the per-line counts of
// the last 24 hours.
type Listing struct {
	List         []Report    `json:"list"`
	Total        int         `json:"total"`
	PageNumber   int         `json:"pageNumber"`
	PageSize     int         `json:"pageSize"`
	HasMore      bool        `json:"hasMore"`
	FailingLines []LineCount `json:"failingLines"`
}

// List reads a page of reports of kind ("" for every kind).
func (s *Service) List(ctx context.Context, kind string, page, size int) (Listing, error) {
	where, args := "", []any{}
	if kind != "" {
		where, args = " WHERE kind = ?", append(args, kind)
	}
	var total int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM error_reports`+where, args...).Scan(&total); err != nil {
		return Listing{}, err
	}
	list, err := db.All(ctx, s.db, scanReport, `SELECT id, kind, uid, ip, appname, appv, dev, detail, created_at
		FROM error_reports`+where+` ORDER BY id DESC LIMIT ? OFFSET ?`, append(args, size, (page-1)*size)...)
	if err != nil {
		return Listing{}, err
	}
	counts, err := s.lineCounts(ctx)
	if err != nil {
		return Listing{}, err
	}
	return Listing{List: list, Total: total, PageNumber: page, PageSize: size, HasMore: page*size < total, FailingLines: counts}, nil
}

// lineCounts groups the last 24 hours of failed lines, most reported first.
func (s *Service) lineCounts(ctx context.Context) ([]LineCount, error) {
	since := s.now().Add(-countsWindow).Unix()
	type agg struct {
		line   string
		n      int
		lastAt int64
	}
	rows, err := db.All(ctx, s.db, func(sc db.Scanner) (agg, error) {
		var a agg
		return a, sc.Scan(&a.line, &a.n, &a.lastAt)
	}, `SELECT line, COUNT(*), MAX(created_at) FROM error_report_lines WHERE created_at >= ?
		GROUP BY line ORDER BY COUNT(*) DESC, line LIMIT 100`, since)
	if err != nil {
		return nil, err
	}
	out := make([]LineCount, 0, len(rows))
	for _, a := range rows {
		var reason string
		if err := s.db.QueryRow(ctx, `SELECT reason FROM error_report_lines WHERE line = ? AND created_at = ?
			ORDER BY report_id DESC LIMIT 1`, a.line, a.lastAt).Scan(&reason); err != nil {
			return nil, err
		}
		out = append(out, LineCount{Line: a.line, Reports: a.n, LastReason: reason, LastAt: time.Unix(a.lastAt, 0).UTC()})
	}
	return out, nil
}

func scanReport(sc db.Scanner) (Report, error) {
	var (
		r      Report
		detail string
		at     int64
	)
	err := sc.Scan(&r.ID, &r.Kind, &r.UID, &r.IP, &r.AppName, &r.AppV, &r.Dev, &detail, &at)
	if !utf8.ValidString(detail) || !json.Valid([]byte(detail)) {
		detail = "null"
	}
	r.Detail = json.RawMessage(detail)
	r.CreatedAt = time.Unix(at, 0).UTC()
	return r, err
}
