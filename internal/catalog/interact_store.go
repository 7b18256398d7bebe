package catalog

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"prima/internal/platform/db"
)

// The SQL of users' interactions with videos (0005_interactions.sql). Every
// write is one row per (user, video) under a primary key, so a repeated
// request finds its row already there (or already gone) and changes
// nothing; the counters on videos move only when a row did.

// mineList is one of a user's video lists: its table and time column.
type mineList struct {
	table, at string
}

var (
	likeList    = mineList{"video_likes", "created_at"}
	collectList = mineList{"video_collects", "created_at"}
	historyList = mineList{"video_history", "last_at"}
)

// videoByID reads a published video; db.ErrNotFound for an unknown or
// unpublished id, so a draft is as invisible here as in the listings.
func videoByID(ctx context.Context, q db.Querier, id int64) (Video, error) {
	v, err := scanVideo(q.QueryRow(ctx, "SELECT "+videoCols+" FROM videos v WHERE v.id = ? AND v.published = 1", id))
	return v, db.NotFound(err)
}

// checkPublished is db.ErrNotFound unless id is a published video.
func checkPublished(ctx context.Context, q db.Querier, id int64) error {
	var one int
	return db.NotFound(q.QueryRow(ctx, "SELECT 1 FROM videos WHERE id = ? AND published = 1", id).Scan(&one))
}

// addMark inserts (uid, vid) into l's table unless it is there; added
// reports whether this call made the row. ON CONFLICT DO NOTHING waits for a
// concurrent insert of the same key to finish instead of failing, so two
// racing likes make one row and one of them reports added.
func addMark(ctx context.Context, tx *db.Tx, l mineList, uid, vid, now int64) (added bool, err error) {
	res, err := tx.Exec(ctx, "INSERT INTO "+l.table+" (user_id, video_id, "+l.at+") VALUES (?, ?, ?) ON CONFLICT (user_id, video_id) DO NOTHING", uid, vid, now)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// removeMark deletes (uid, vid) from l's table; removed reports whether this
// call deleted the row (of two racing deletes only one does).
func removeMark(ctx context.Context, tx *db.Tx, l mineList, uid, vid int64) (removed bool, err error) {
	res, err := tx.Exec(ctx, "DELETE FROM "+l.table+" WHERE user_id = ? AND video_id = ?", uid, vid)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// hasMark reports whether (uid, vid) is in l's table.
func hasMark(ctx context.Context, q db.Querier, l mineList, uid, vid int64) (bool, error) {
	var one int
	err := q.QueryRow(ctx, "SELECT 1 FROM "+l.table+" WHERE user_id = ? AND video_id = ?", uid, vid).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// addLikes moves a video's like_count by delta (+1 or -1) and returns the
// new count. The count never goes below zero, whatever it was seeded with.
func addLikes(ctx context.Context, tx *db.Tx, vid int64, delta int) (int64, error) {
	var n int64
	err := tx.QueryRow(ctx, "UPDATE videos SET like_count = CASE WHEN like_count + ? < 0 THEN 0 ELSE like_count + ? END WHERE id = ? RETURNING like_count", delta, delta, vid).Scan(&n)
	return n, db.NotFound(err)
}

// likeCount reads a video's like_count.
func likeCount(ctx context.Context, q db.Querier, vid int64) (int64, error) {
	var n int64
	err := q.QueryRow(ctx, "SELECT like_count FROM videos WHERE id = ?", vid).Scan(&n)
	return n, db.NotFound(err)
}

// countPlay adds one to a published video's play_count and returns the new
// count; db.ErrNotFound when there is no such published video. One UPDATE,
// so concurrent plays are all counted.
func countPlay(ctx context.Context, q db.Querier, vid int64) (int64, error) {
	var n int64
	err := q.QueryRow(ctx, "UPDATE videos SET play_count = play_count + 1 WHERE id = ? AND published = 1 RETURNING play_count", vid).Scan(&n)
	return n, db.NotFound(err)
}

// touchHistory records that uid played vid at now (one row per pair, the
// time moves forward only) and drops the user's rows beyond the newest keep.
func touchHistory(ctx context.Context, tx *db.Tx, uid, vid, now int64, keep int) error {
	_, err := tx.Exec(ctx, `INSERT INTO video_history (user_id, video_id, last_at) VALUES (?, ?, ?)
		ON CONFLICT (user_id, video_id) DO UPDATE SET last_at = CASE WHEN excluded.last_at > video_history.last_at THEN excluded.last_at ELSE video_history.last_at END`,
		uid, vid, now)
	if err != nil {
		return err
	}
	// The trim reads at most keep+1 index entries of this user: cheap
	// enough to run on every play, and it keeps the bound exact.
	_, err = tx.Exec(ctx, `DELETE FROM video_history WHERE user_id = ? AND video_id NOT IN
		(SELECT video_id FROM video_history WHERE user_id = ? ORDER BY last_at DESC, video_id DESC LIMIT ?)`, uid, uid, keep)
	return err
}

// insertReport stores uid's report of vid unless one exists; added reports
// whether this call stored it (the first report's reason stays).
func insertReport(ctx context.Context, tx *db.Tx, uid, vid int64, reason string, now int64) (added bool, err error) {
	res, err := tx.Exec(ctx, "INSERT INTO video_reports (user_id, video_id, reason, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (user_id, video_id) DO NOTHING", uid, vid, reason, now)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// reportedVideos lists the ids of the videos uid reported, newest report
// first, at most limit.
func reportedVideos(ctx context.Context, q db.Querier, uid int64, limit int) ([]int64, error) {
	return db.All(ctx, q, func(r db.Scanner) (int64, error) {
		var id int64
		err := r.Scan(&id)
		return id, err
	}, "SELECT video_id FROM video_reports WHERE user_id = ? ORDER BY created_at DESC, video_id DESC LIMIT ?", uid, limit)
}

// relatedVideos picks up to n published videos near v: the newest of its
// sub-module first, then, if the section is small, videos sharing a tag
// with it. Both reads are bounded index ranges.
func relatedVideos(ctx context.Context, q db.Querier, v Video, n int) ([]Video, error) {
	out, err := db.All(ctx, q, scanVideo, "SELECT "+videoCols+" FROM videos v WHERE v.sub_module_id = ? AND v.published = 1 AND v.id <> ? ORDER BY v.created_at DESC, v.id DESC LIMIT ?",
		v.SubModuleID, v.ID, n)
	if err != nil || len(out) >= n {
		return out, err
	}
	more, err := db.All(ctx, q, scanVideo, "SELECT "+videoCols+" FROM videos v WHERE v.published = 1 AND v.sub_module_id <> ? AND v.id IN "+
		"(SELECT vt.video_id FROM video_tags vt WHERE vt.tag_id IN (SELECT tag_id FROM video_tags WHERE video_id = ?)) "+
		"ORDER BY v.created_at DESC, v.id DESC LIMIT ?", v.SubModuleID, v.ID, n-len(out))
	return append(out, more...), err
}

// MineVideo is a video in one of a user's lists, with when it got there
// (liked, collected, or last played).
type MineVideo struct {
	Video
	At time.Time `json:"at"`
}

func scanMineVideo(r db.Scanner) (MineVideo, error) {
	var m MineVideo
	var created, at int64
	err := r.Scan(&m.ID, &m.Title, &m.Cover, &m.Duration, &m.PlayCount, &m.LikeCount, &m.VipLevel, &m.Coins, &m.ModuleID, &m.SubModuleID, &created, &at)
	m.CreatedAt = time.Unix(created, 0).UTC()
	m.At = time.Unix(at, 0).UTC()
	m.Tags = []string{}
	return m, err
}

// listMine reads limit rows of uid's list l, newest first: after c when c
// is set (a keyset page), else after skipping offset rows. Only published
// videos show; an unpublished one reappears if it is published again.
func listMine(ctx context.Context, q db.Querier, l mineList, uid int64, c *cursor, offset, limit int) ([]MineVideo, error) {
	query := "SELECT " + videoCols + ", m." + l.at + " FROM " + l.table + " m JOIN videos v ON v.id = m.video_id WHERE m.user_id = ? AND v.published = 1"
	args := []any{uid}
	if c != nil {
		query += " AND (m." + l.at + ", m.video_id) < (?, ?)"
		args = append(args, c.Val, c.ID)
	}
	query += " ORDER BY m." + l.at + " DESC, m.video_id DESC LIMIT ?"
	args = append(args, limit)
	if c == nil {
		query += " OFFSET ?"
		args = append(args, offset)
	}
	return db.All(ctx, q, scanMineVideo, query, args...)
}

// countMine counts uid's list l (published videos), up to limit.
func countMine(ctx context.Context, q db.Querier, l mineList, uid int64, limit int) (int, error) {
	var n int
	err := q.QueryRow(ctx, "SELECT COUNT(*) FROM (SELECT 1 FROM "+l.table+" m JOIN videos v ON v.id = m.video_id WHERE m.user_id = ? AND v.published = 1 LIMIT ?) c", uid, limit).Scan(&n)
	return n, err
}

// VideoCards is the published videos among ids as lists show them (with
// tags), by id; an unknown or unpublished id is absent. Other packages
// that list videos of their own (the wallet's purchases) show them in the
// catalog's shape through it.
func (s *Service) VideoCards(ctx context.Context, ids []int64) (map[int64]Video, error) {
	out := make(map[int64]Video, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	vs, err := db.All(ctx, s.db, scanVideo, "SELECT "+videoCols+" FROM videos v WHERE v.published = 1 AND v.id IN ("+db.Placeholders(len(ids))+")", args...)
	if err != nil {
		return nil, err
	}
	if err := attachTags(ctx, s.db, vs); err != nil {
		return nil, err
	}
	for _, v := range vs {
		out[v.ID] = v
	}
	return out, nil
}

// PlayedSince counts the distinct videos uid played at or after since
// (unix seconds): video_history keeps a user's last play of each. The
// welfare tasks' watch metric (rewards.Counter).
func PlayedSince(ctx context.Context, q db.Querier, uid, since int64) (int64, error) {
	var n int64
	err := q.QueryRow(ctx, `SELECT COUNT(*) FROM video_history WHERE user_id = ? AND last_at >= ?`, uid, since).Scan(&n)
	return n, err
}

// LikedSince counts the videos uid liked at or after since: the welfare
// tasks' like metric (rewards.Counter).
func LikedSince(ctx context.Context, q db.Querier, uid, since int64) (int64, error) {
	var n int64
	err := q.QueryRow(ctx, `SELECT COUNT(*) FROM video_likes WHERE user_id = ? AND created_at >= ?`, uid, since).Scan(&n)
	return n, err
}
