package audit

import (
	"context"
	"database/sql"
	"encoding/json"
	"strconv"
	"time"

	"prima/internal/platform/db"
)

// Row is one stored entry as the operator API shows it.
type Row struct {
	ID         int64           `json:"id"`
	ActorUID   int64           `json:"actorUID"`
	Action     string          `json:"action"`
	TargetType string          `json:"targetType"`
	TargetID   string          `json:"targetID"`
	Before     json.RawMessage `json:"before"`
	After      json.RawMessage `json:"after"`
	IP         string          `json:"ip"`
	RequestID  string          `json:"requestID"`
	CreatedAt  time.Time       `json:"createdAt"`
}

// Filter narrows a listing; zero fields do not filter. Actor < 0 means any
// actor (0 is the command line).
type Filter struct {
	Actor      int64
	Action     string
	TargetType string
	TargetID   string
	// BeforeID starts the page after this id (keyset): a client paging
	// through a log that grows meanwhile sees no row twice.
	BeforeID int64
}

// Window is how deep pageNumber paging reaches; BeforeID reaches anywhere.
const Window = 10000

// Page is one page of the log, newest first.
type Page struct {
	List       []Row `json:"list"`
	Total      int   `json:"total"` // capped at Window
	PageNumber int   `json:"pageNumber"`
	PageSize   int   `json:"pageSize"`
	HasMore    bool  `json:"hasMore"`
	// NextBeforeID continues after this page by keyset; 0 when it is the last.
	NextBeforeID int64 `json:"nextBeforeID"`
}

func (f Filter) where() (string, []any) {
	var w db.Where
	if f.Actor >= 0 {
		w.And("actor_uid = ?", f.Actor)
	}
	if f.Action != "" {
		w.And("action = ?", f.Action)
	}
	if f.TargetType != "" {
		w.And("target_type = ?", f.TargetType)
	}
	if f.TargetID != "" {
		w.And("target_id = ?", f.TargetID)
	}
	if f.BeforeID > 0 {
		w.And("id < ?", f.BeforeID)
	}
	return w.Clause(), w.Args()
}

// List reads page pageNumber (from 1) of pageSize rows matching f, newest
// first. The page's first id is found by skipping over ids alone (an index
// range on the filter's index), then the rows are read by keyset from it,
// so a deep page never reads the skipped rows themselves.
func List(ctx context.Context, q db.Querier, f Filter, pageNumber, pageSize int) (Page, error) {
	page := Page{List: []Row{}, PageNumber: pageNumber, PageSize: pageSize}
	where, args := f.where()
	offset := (pageNumber - 1) * pageSize
	limit := min(pageSize, Window-offset)
	if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM audit_log`+where+` LIMIT `+strconv.Itoa(Window)+`) t`, args...).Scan(&page.Total); err != nil {
		return page, err
	}
	if limit <= 0 {
		return page, nil
	}
	var start int64
	err := q.QueryRow(ctx, `SELECT id FROM audit_log`+where+` ORDER BY id DESC LIMIT 1 OFFSET `+strconv.Itoa(offset), args...).Scan(&start)
	if err == sql.ErrNoRows {
		return page, nil
	}
	if err != nil {
		return page, err
	}
	kf := f
	kf.BeforeID = start + 1
	kwhere, kargs := kf.where()
	rows, err := q.Query(ctx, `SELECT id, actor_uid, action, target_type, target_id, before, after, ip, request_id, created_at
		FROM audit_log`+kwhere+` ORDER BY id DESC LIMIT `+strconv.Itoa(limit+1), kargs...)
	if err != nil {
		return page, err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			r             Row
			before, after sql.NullString
			at            int64
		)
		if err := rows.Scan(&r.ID, &r.ActorUID, &r.Action, &r.TargetType, &r.TargetID, &before, &after, &r.IP, &r.RequestID, &at); err != nil {
			return page, err
		}
		r.Before, r.After = raw(before), raw(after)
		r.CreatedAt = time.Unix(at, 0).UTC()
		page.List = append(page.List, r)
	}
	if err := rows.Err(); err != nil {
		return page, err
	}
	if len(page.List) > limit {
		page.List = page.List[:limit]
		page.HasMore = true
	}
	if page.HasMore {
		page.NextBeforeID = page.List[len(page.List)-1].ID
	}
	return page, nil
}

func raw(s sql.NullString) json.RawMessage {
	if !s.Valid {
		return json.RawMessage("null")
	}
	return json.RawMessage(s.String)
}
