package messaging

// The operator's handling of message reports (POST
// /api/admin/message/reports/resolve; issue 20 §5). A report is open until
// an operator dismisses it or mutes the reported user (the community's
// mute, which the people section extends to messages; Mutes, wired in
// internal/app). Resolving writes the state and one audit row
// "message.report.resolve" in one transaction; a report resolved already
// is 409. A mute is its own call with its own audit row ("user.mute"),
// made after checking the report is open and before it is resolved: if
// another operator resolves it in between, the mute stays and this call
// answers 409.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// Report states and handlings.
const (
	ReportOpen     = "open"
	ReportResolved = "resolved"

	ReportDismiss = "dismiss"
	ReportMute    = "mute"
)

// Bounds of a handling.
const (
	MaxMuteMinutes  = 525_600 // a year, the community mute's bound
	ReportReasonMax = 200
)

var (
	// ErrNoReport: no such report (404).
	ErrNoReport = errors.New("messaging: no such report")
	// ErrReportDone: the report is resolved already (409).
	ErrReportDone = errors.New("messaging: report resolved")
	// ErrResolveInput: the handling breaks a rule (422).
	ErrResolveInput = errors.New("messaging: invalid report handling")
	// errNoMutes: Mutes is not wired.
	errNoMutes = errors.New("messaging: Mutes is not wired")
)

// ResolveInput is POST /api/admin/message/reports/resolve.
type ResolveInput struct {
	ID      int64  `json:"id"`
	Action  string `json:"action"`
	Minutes int64  `json:"minutes"` // mute: 1..MaxMuteMinutes
	Reason  string `json:"reason"`  // mute: 1..ReportReasonMax characters
}

// Resolved answers a handling.
type Resolved struct {
	ID         int64  `json:"id"`
	State      string `json:"state"`
	Resolution string `json:"resolution"`
	MutedUID   int64  `json:"mutedUid,omitempty"`
}

var reportErrs = httpx.ErrorMap{
	{Err: ErrNoReport, Status: http.StatusNotFound, Tip: "举报不存在", Msg: "no such report"},
	{Err: ErrReportDone, Status: http.StatusConflict, Tip: "该举报已处理", Msg: "the report is resolved already"},
	{Err: ErrResolveInput, Status: http.StatusUnprocessableEntity},
}

func resolveInvalid(tip, msg string) error { return httpx.Refuse(ErrResolveInput, tip, msg) }

// ResolveReport handles report in.ID with in.Action: dismiss closes it,
// mute mutes the reported user for in.Minutes with in.Reason (Mutes) and
// closes it.
func (s *Service) ResolveReport(ctx context.Context, actor audit.Actor, in ResolveInput) (Resolved, error) {
	out := Resolved{ID: in.ID}
	switch in.Action {
	case ReportDismiss:
	case ReportMute:
		if in.Minutes < 1 || in.Minutes > MaxMuteMinutes {
			return out, resolveInvalid(fmt.Sprintf("禁言时长应在 1 到 %d 分钟之间", MaxMuteMinutes), fmt.Sprintf("minutes must be 1-%d", MaxMuteMinutes))
		}
		in.Reason = strings.TrimSpace(in.Reason)
		if n := utf8.RuneCountInString(in.Reason); n == 0 || n > ReportReasonMax {
			return out, resolveInvalid(fmt.Sprintf("请填写禁言原因（最多 %d 字）", ReportReasonMax), "a mute needs a reason of 1-200 characters")
		}
		if s.Mutes == nil {
			return out, errNoMutes
		}
	default:
		return out, resolveInvalid("处理方式无效", "action must be dismiss or mute, got "+httpx.Echo(in.Action))
	}
	var reported int64
	var state string
	err := s.db.QueryRow(ctx, `SELECT reported_id, state FROM message_reports WHERE id = ?`, in.ID).Scan(&reported, &state)
	if errors.Is(err, sql.ErrNoRows) {
		return out, httpx.Refuse(ErrNoReport, "", "no report "+strconv.FormatInt(in.ID, 10))
	}
	if err != nil {
		return out, err
	}
	if state != ReportOpen {
		return out, httpx.Refuse(ErrReportDone, "", "report "+strconv.FormatInt(in.ID, 10)+" is "+state)
	}
	if in.Action == ReportMute {
		if err := s.Mutes.Mute(ctx, actor, reported, in.Minutes, in.Reason); err != nil {
			return out, err
		}
		out.MutedUID = reported
	}
	now := s.now()
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		res, err := tx.Exec(ctx, `UPDATE message_reports SET state = ?, resolution = ?, resolved_at = ? WHERE id = ? AND state = ?`,
			ReportResolved, in.Action, now.Unix(), in.ID, ReportOpen)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return httpx.Refuse(ErrReportDone, "", "report "+strconv.FormatInt(in.ID, 10)+" was resolved meanwhile")
		}
		after := map[string]any{"state": ReportResolved, "action": in.Action, "reportedUid": reported}
		if in.Action == ReportMute {
			after["minutes"], after["reason"] = in.Minutes, in.Reason
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "message.report.resolve", TargetType: "message_report",
			TargetID: strconv.FormatInt(in.ID, 10), Before: map[string]string{"state": ReportOpen}, After: after}, now)
	})
	if err != nil {
		return out, err
	}
	out.State, out.Resolution = ReportResolved, in.Action
	return out, nil
}

// AdminResolveReport is POST /api/admin/message/reports/resolve {id, action, minutes?, reason?}.
func (h *Handler) AdminResolveReport(w http.ResponseWriter, r *http.Request) error {
	var b struct {
		ID      *int64 `json:"id"`
		Action  string `json:"action"`
		Minutes int64  `json:"minutes"`
		Reason  string `json:"reason"`
	}
	if err := httpx.Decode(w, r, &b); err != nil {
		return err
	}
	id, err := httpx.BodyID(b.ID)
	if err != nil {
		return err
	}
	out, err := h.s.ResolveReport(r.Context(), audit.ActorFrom(r), ResolveInput{ID: id, Action: b.Action, Minutes: b.Minutes, Reason: b.Reason})
	if err != nil {
		return reportErrs.Map(err)
	}
	return httpx.OK(w, out)
}
