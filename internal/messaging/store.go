package messaging

import (
	"context"
	"database/sql"
	"math"
	"time"

	"prima/internal/platform/db"
)

const messageColumns = `id, sender_id, recipient_id, kind, body, asset_id, client_id, created_at, read_at`

func scanMessage(r db.Scanner) (Message, error) {
	var m Message
	var created, read int64
	err := r.Scan(&m.ID, &m.From, &m.To, &m.Kind, &m.Text, &m.assetID, &m.ClientID, &created, &read)
	m.CreatedAt = time.Unix(created, 0).UTC()
	m.Read = read != 0
	return m, err
}

func messageByClient(ctx context.Context, q db.Querier, sender int64, clientID string) (Message, error) {
	m, err := scanMessage(q.QueryRow(ctx, `SELECT `+messageColumns+` FROM messages WHERE sender_id = ? AND client_id = ?`, sender, clientID))
	return m, db.NotFound(err)
}

func insertMessage(ctx context.Context, tx *db.Tx, m Message, now int64) (int64, error) {
	var id int64
	err := tx.QueryRow(ctx, `INSERT INTO messages (sender_id, recipient_id, kind, body, asset_id, client_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		m.From, m.To, m.Kind, m.Text, m.assetID, m.ClientID, now).Scan(&id)
	return id, err
}

// touchConversation moves (user, peer) to the top with message id, adding
// unread to its unread count.
func touchConversation(ctx context.Context, tx *db.Tx, user, peer, id int64, unread int, now int64) error {
	_, err := tx.Exec(ctx, `INSERT INTO conversations (user_id, peer_id, last_message_id, unread, updated_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (user_id, peer_id) DO UPDATE SET last_message_id = excluded.last_message_id,
		unread = conversations.unread + excluded.unread, updated_at = excluded.updated_at`, user, peer, id, unread, now)
	return err
}

// Block directions between me and a peer, as bits.
const (
	blockingPeer  = 1 // I blocked the peer
	blockedByPeer = 2 // the peer blocked me
)

func blockedEither(ctx context.Context, q db.Querier, me, peer int64) (int, error) {
	rows, err := q.Query(ctx, `SELECT user_id FROM message_blocks WHERE (user_id = ? AND blocked_id = ?) OR (user_id = ? AND blocked_id = ?)`, me, peer, peer, me)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	bits := 0
	for rows.Next() {
		var by int64
		if err := rows.Scan(&by); err != nil {
			return 0, err
		}
		if by == me {
			bits |= blockingPeer
		} else {
			bits |= blockedByPeer
		}
	}
	return bits, rows.Err()
}

// pairPage is up to limit messages between a and b older than before
// (0: from the newest), newest first: keyset on id.
func pairPage(ctx context.Context, q db.Querier, a, b, before int64, limit int) ([]Message, error) {
	if before <= 0 {
		before = math.MaxInt64
	}
	return db.All(ctx, q, scanMessage, `SELECT `+messageColumns+` FROM messages
		WHERE ((sender_id = ? AND recipient_id = ?) OR (sender_id = ? AND recipient_id = ?)) AND id < ?
		ORDER BY id DESC LIMIT ?`, a, b, b, a, before, limit)
}

// readUpTo is the newest message from me to peer that peer has read.
func readUpTo(ctx context.Context, q db.Querier, me, peer int64) (int64, error) {
	var id sql.NullInt64
	err := q.QueryRow(ctx, `SELECT MAX(id) FROM messages WHERE sender_id = ? AND recipient_id = ? AND read_at <> 0`, me, peer).Scan(&id)
	return id.Int64, err
}

// markRead marks peer's unread messages to me up to upTo (0: all) read.
func markRead(ctx context.Context, tx *db.Tx, me, peer, upTo, now int64) (int, error) {
	if upTo <= 0 {
		upTo = math.MaxInt64
	}
	res, err := tx.Exec(ctx, `UPDATE messages SET read_at = ? WHERE recipient_id = ? AND sender_id = ? AND read_at = 0 AND id <= ?`, now, me, peer, upTo)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}

// recountUnread sets and returns the unread count of my conversation with
// peer from the messages themselves.
func recountUnread(ctx context.Context, tx *db.Tx, me, peer int64) (int, error) {
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM messages WHERE recipient_id = ? AND sender_id = ? AND read_at = 0`, me, peer).Scan(&n); err != nil {
		return 0, err
	}
	_, err := tx.Exec(ctx, `UPDATE conversations SET unread = ? WHERE user_id = ? AND peer_id = ?`, n, me, peer)
	return n, err
}

func insertReport(ctx context.Context, d *db.DB, reporter, reported int64, reason string, now int64) (int64, error) {
	var id int64
	err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var last sql.NullInt64
		if err := tx.QueryRow(ctx, `SELECT MAX(id) FROM messages WHERE (sender_id = ? AND recipient_id = ?) OR (sender_id = ? AND recipient_id = ?)`,
			reporter, reported, reported, reporter).Scan(&last); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `INSERT INTO message_reports (reporter_id, reported_id, reason, last_message_id, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`,
			reporter, reported, reason, last.Int64, now).Scan(&id)
	})
	return id, err
}
