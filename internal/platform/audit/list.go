package audit

import (
	"context"
	"database/sql"
	"encoding/json"
	"strconv"
	"time"

	"prima/internal/platform/db"
)

// Row is one stored entry.
type Row struct {
	ID         int64
	ActorUID   int64
	Action     string
	TargetType string
	TargetID   string
	Before     json.RawMessage // JSON, or null
	After      json.RawMessage
	IP         string
	RequestID  string
	CreatedAt  time.Time
	PrevHash   string // "" for rows from before the chain
	Hash       string
}

// Filter narrows a listing; zero fields do not filter. Actor < 0 means any
// actor (0 is the command line). TargetID narrows within TargetType.
type Filter struct {
	Actor      int64
	Action     string
	TargetType string
	TargetID   string
	// From and To bound created_at (unix seconds): From <= created_at < To;
	// 0 leaves that end open.
	From, To int64
	// BeforeID lists rows older than this id (keyset): a client paging
	// through a log that grows meanwhile sees no row twice.
	BeforeID int64
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
		if f.TargetID != "" {
			w.And("target_id = ?", f.TargetID)
		}
	}
	if f.From > 0 {
		w.And("created_at >= ?", f.From)
	}
	if f.To > 0 {
		w.And("created_at < ?", f.To)
	}
	if f.BeforeID > 0 {
		w.And("id < ?", f.BeforeID)
	}
	return w.Clause(), w.Args()
}

// List reads up to limit rows matching f, newest first, by keyset (no
// offset and no count, so a deep page costs what the first does: each
// filter has an index ending in id).
func List(ctx context.Context, q db.Querier, f Filter, limit int) ([]Row, error) {
	where, args := f.where()
	return db.All(ctx, q, scanRow, `SELECT id, actor_uid, action, target_type, target_id, before, after, ip, request_id, created_at, prev_hash, hash
		FROM audit_log`+where+` ORDER BY id DESC LIMIT `+strconv.Itoa(limit), args...)
}

// Each calls fn with up to max rows matching f, newest first, reading them
// in batches (the CSV export streams them).
func Each(ctx context.Context, q db.Querier, f Filter, max int, fn func(Row) error) error {
	for max > 0 {
		rows, err := List(ctx, q, f, min(max, 1000))
		if err != nil {
			return err
		}
		for _, r := range rows {
			if err := fn(r); err != nil {
				return err
			}
		}
		if len(rows) < min(max, 1000) {
			return nil
		}
		max -= len(rows)
		f.BeforeID = rows[len(rows)-1].ID
	}
	return nil
}

func scanRow(s db.Scanner) (Row, error) {
	var (
		r             Row
		before, after sql.NullString
		at            int64
	)
	err := s.Scan(&r.ID, &r.ActorUID, &r.Action, &r.TargetType, &r.TargetID, &before, &after, &r.IP, &r.RequestID, &at, &r.PrevHash, &r.Hash)
	r.Before, r.After = raw(before), raw(after)
	r.CreatedAt = time.Unix(at, 0).UTC()
	return r, err
}

func raw(s sql.NullString) json.RawMessage {
	if !s.Valid {
		return json.RawMessage("null")
	}
	return json.RawMessage(s.String)
}
