package community

import (
	"context"

	"prima/internal/platform/db"
)

type card struct {
	name  string
	guest bool
}

// userCard is user uid's name and whether they are a guest, read on q
// through People, or ErrNoUser.
func (s *Service) userCard(ctx context.Context, q db.Querier, uid int64) (card, error) {
	cards, err := s.people(ctx, q, []int64{uid})
	if err != nil {
		return card{}, err
	}
	c, ok := cards[uid]
	if !ok {
		return card{}, ErrNoUser
	}
	return card{name: c.Name, guest: c.Guest}, nil
}

// insertFollow adds the follow and reports whether it is new; a parallel or
// repeated follow finds the primary key taken and adds nothing.
func insertFollow(ctx context.Context, q db.Querier, follower, followee, now int64) (bool, error) {
	res, err := q.Exec(ctx, `INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)
		ON CONFLICT (follower_id, followee_id) DO NOTHING`, follower, followee, now)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func deleteFollow(ctx context.Context, q db.Querier, follower, followee int64) error {
	_, err := q.Exec(ctx, `DELETE FROM follows WHERE follower_id = ? AND followee_id = ?`, follower, followee)
	return err
}

// markNotice records that the pair notifies now, and reports whether it is
// due: the pair never notified, or last did at least every seconds ago. The
// conditional upsert decides in one statement, so parallel follows cannot
// both find it due.
func markNotice(ctx context.Context, q db.Querier, follower, followee, now, every int64) (bool, error) {
	res, err := q.Exec(ctx, `INSERT INTO follow_notices (follower_id, followee_id, notified_at) VALUES (?, ?, ?)
		ON CONFLICT (follower_id, followee_id) DO UPDATE SET notified_at = excluded.notified_at
		WHERE follow_notices.notified_at <= ?`, follower, followee, now, now-every)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func countFans(ctx context.Context, q db.Querier, uid int64) (int64, error) {
	var n int64
	err := q.QueryRow(ctx, `SELECT COUNT(*) FROM follows WHERE followee_id = ?`, uid).Scan(&n)
	return n, err
}

// counts is how many users uid follows and how many follow uid.
func counts(ctx context.Context, q db.Querier, uid int64) (follow, fans int64, err error) {
	err = q.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM follows WHERE follower_id = ?), (SELECT COUNT(*) FROM follows WHERE followee_id = ?)`,
		uid, uid).Scan(&follow, &fans)
	return follow, fans, err
}

// following is which of ids follower follows.
func following(ctx context.Context, q db.Querier, follower int64, ids []int64) (map[int64]bool, error) {
	out := make(map[int64]bool, len(ids))
	if follower == 0 || len(ids) == 0 {
		return out, nil
	}
	rows, err := q.Query(ctx, `SELECT followee_id FROM follows WHERE follower_id = ? AND followee_id IN (`+db.Placeholders(len(ids))+`)`, append([]any{follower}, idArgs(ids)...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}

type followRow struct {
	uid int64 // the other side of the follow
	at  int64 // when it began
}

// listFollows reads up to limit rows of uid's list, newest follow first,
// after the cursor when there is one, else from offset: the follows
// table's own keyset (follows_follower, follows_followee). The people
// on a page are read after it, in one query (Service.List).
func listFollows(ctx context.Context, q db.Querier, kind string, uid int64, after *cursor, offset, limit int) ([]followRow, error) {
	mine, other := "follower_id", "followee_id" // ListFollow: uid follows them
	if kind == ListFans {
		mine, other = "followee_id", "follower_id"
	}
	query := `SELECT f.` + other + `, f.created_at FROM follows f WHERE f.` + mine + ` = ?`
	args := []any{uid}
	if after != nil {
		query += ` AND (f.created_at < ? OR (f.created_at = ? AND f.` + other + ` < ?))`
		args = append(args, after.at, after.at, after.uid)
	}
	query += ` ORDER BY f.created_at DESC, f.` + other + ` DESC LIMIT ? OFFSET ?`
	args = append(args, limit, offset)
	return db.All(ctx, q, func(s db.Scanner) (followRow, error) {
		var r followRow
		err := s.Scan(&r.uid, &r.at)
		return r, err
	}, query, args...)
}

// FollowedSince counts the users uid followed at or after since (unix
// seconds): the welfare tasks' follow metric (rewards.Counter).
func FollowedSince(ctx context.Context, q db.Querier, uid, since int64) (int64, error) {
	var n int64
	err := q.QueryRow(ctx, `SELECT COUNT(*) FROM follows WHERE follower_id = ? AND created_at >= ?`, uid, since).Scan(&n)
	return n, err
}
