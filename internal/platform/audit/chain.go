package audit

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"prima/internal/platform/db"
)

// The hash chain.
//
// Every row written by Record carries prev_hash, the hash of the row
// before it, and hash, its own:
//
//	hash = hex(SHA-256(prev_hash + "\n" + canonical))
//	canonical = the JSON array [id, created_at, actor_uid, action,
//	            target_type, target_id, before, after, ip, request_id]
//
// with the values as stored (numbers as JSON integers, texts as JSON
// strings, before and after as the JSON text they hold as a JSON string,
// or null), written without spaces and without escaping <, > and & (Go's
// encoding/json with SetEscapeHTML(false)). The first chained row's
// prev_hash is Genesis.
//
// Appends are serialised: Record locks the one audit_chain row, reads the
// head (last id and hash), writes the next row with id last_id + 1 and
// moves the head, all in the action's transaction. Two writers on
// PostgreSQL take turns on the lock, so the chain cannot fork; on SQLite
// the write transaction already holds the database. A rolled-back action
// rolls its row and the head back with it.
//
// Verify walks the rows from the chain's start and names the first one
// whose prev_hash, hash or id breaks the chain, and checks the head: an
// edited, deleted, inserted or reordered row, or rows cut from the end, is
// found, unless whoever changed it also rewrote every later row and the
// head. Keep copies of the head hash prima audit verify prints (a
// ticket, a mail) to close that too. Rows from before the chain
// (migration 0057) are not covered.

// Genesis is the prev_hash of the first chained row.
const Genesis = "0000000000000000000000000000000000000000000000000000000000000000"

// stored is a row as the table holds it, the input of its hash.
type stored struct {
	id, createdAt, actor          int64
	action, targetType, targetID  string
	before, after                 sql.NullString
	ip, requestID, prevHash, hash string
}

func nullable(s sql.NullString) any {
	if !s.Valid {
		return nil
	}
	return s.String
}

// rowHash is the chain hash of r after prev.
func rowHash(prev string, r stored) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// Encoding these types cannot fail.
	_ = enc.Encode([]any{r.id, r.createdAt, r.actor, r.action, r.targetType, r.targetID, nullable(r.before), nullable(r.after), r.ip, r.requestID})
	canonical := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	h := sha256.New()
	h.Write([]byte(prev))
	h.Write([]byte("\n"))
	h.Write(canonical)
	return hex.EncodeToString(h.Sum(nil))
}

// appendRow writes r as the chain's next row in tx: it takes the head's
// lock, gives r the next id and the head's hash as prev_hash, stores it
// with its hash and moves the head.
func appendRow(ctx context.Context, tx *db.Tx, r stored) error {
	var lastID int64
	var lastHash string
	if err := tx.QueryRow(ctx, `SELECT last_id, last_hash FROM audit_chain WHERE id = 1`+tx.ForUpdate()).Scan(&lastID, &lastHash); err != nil {
		return fmt.Errorf("audit chain head: %w", err)
	}
	r.id, r.prevHash = lastID+1, lastHash
	r.hash = rowHash(lastHash, r)
	if _, err := tx.Exec(ctx, `INSERT INTO audit_log (id, actor_uid, action, target_type, target_id, before, after, ip, request_id, created_at, prev_hash, hash)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.id, r.actor, r.action, r.targetType, r.targetID, nullable(r.before), nullable(r.after), r.ip, r.requestID, r.createdAt, r.prevHash, r.hash); err != nil {
		return err
	}
	_, err := tx.Exec(ctx, `UPDATE audit_chain SET last_id = ?, last_hash = ? WHERE id = 1`, r.id, r.hash)
	return err
}

// Report is what Verify found.
type Report struct {
	Unchained int   // rows from before the chain started, not covered
	Chained   int   // rows checked
	StartID   int64 // rows up to this id predate the chain
	LastID    int64 // the head: the last chained row's id
	Head      string
	// Broken names the first row that breaks the chain (nil: intact).
	Broken *Break
}

// Break is the first row found to break the chain and why.
type Break struct {
	ID     int64
	Reason string
}

func (b *Break) Error() string { return fmt.Sprintf("audit log broken at row %d: %s", b.ID, b.Reason) }

// Verify recomputes the chain over the whole log, in id order, in batches.
func Verify(ctx context.Context, q db.Querier) (Report, error) {
	var rep Report
	if err := q.QueryRow(ctx, `SELECT start_id, last_id, last_hash FROM audit_chain WHERE id = 1`).Scan(&rep.StartID, &rep.LastID, &rep.Head); err != nil {
		return rep, fmt.Errorf("audit chain head: %w", err)
	}
	prevID, prevHash := rep.StartID, Genesis
	after := int64(-1 << 62)
	for rep.Broken == nil {
		batch, err := db.All(ctx, q, scanStored, `SELECT id, created_at, actor_uid, action, target_type, target_id, before, after, ip, request_id, prev_hash, hash
			FROM audit_log WHERE id > ? ORDER BY id LIMIT 1000`, after)
		if err != nil {
			return rep, err
		}
		if len(batch) == 0 {
			break
		}
		for _, r := range batch {
			after = r.id
			if r.id <= rep.StartID {
				rep.Unchained++
				continue
			}
			switch {
			case r.id != prevID+1:
				rep.Broken = &Break{r.id, fmt.Sprintf("the row before it is missing: the chain expects id %d here", prevID+1)}
			case r.prevHash != prevHash:
				rep.Broken = &Break{r.id, fmt.Sprintf("its prev_hash %s is not the hash of row %d (%s)", short(r.prevHash), prevID, short(prevHash))}
			case rowHash(r.prevHash, r) != r.hash:
				rep.Broken = &Break{r.id, "its contents do not match its hash: the row was changed"}
			}
			if rep.Broken != nil {
				return rep, nil
			}
			rep.Chained++
			prevID, prevHash = r.id, r.hash
		}
	}
	switch {
	case prevID < rep.LastID:
		rep.Broken = &Break{prevID + 1, fmt.Sprintf("rows %d to %d are missing: the chain head names row %d", prevID+1, rep.LastID, rep.LastID)}
	case prevID > rep.LastID:
		rep.Broken = &Break{rep.LastID + 1, fmt.Sprintf("rows after the chain head (row %d) were added outside the chain", rep.LastID)}
	case prevHash != rep.Head:
		rep.Broken = &Break{prevID, fmt.Sprintf("its hash is not the chain head's (%s)", short(rep.Head))}
	}
	return rep, nil
}

func scanStored(r db.Scanner) (stored, error) {
	var s stored
	err := r.Scan(&s.id, &s.createdAt, &s.actor, &s.action, &s.targetType, &s.targetID, &s.before, &s.after, &s.ip, &s.requestID, &s.prevHash, &s.hash)
	return s, err
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12] + "…"
	}
	if strings.TrimSpace(h) == "" {
		return "(empty)"
	}
	return h
}
