package media

import "context"

// LikesReceived implements community.LikesReceived: the likes other users
// gave to videos whose media asset uid uploaded. Videos an operator made
// from their own uploads count for the operator; a user's likes of their
// own videos do not count.
func (s *Service) LikesReceived(ctx context.Context, uid int64) (int64, error) {
	var n int64
	err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM video_likes l
		JOIN videos v ON v.id = l.video_id
		JOIN media_assets m ON m.id = v.media_id
		WHERE m.owner_uid = ? AND l.user_id <> ?`, uid, uid).Scan(&n)
	return n, err
}
