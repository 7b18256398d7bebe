-- Interactions of users with videos: likes, favourites (collects), browse
-- history and reports. Each is one row per (user, video), so the primary key
-- makes a double click or a retried request a no-op instead of a second row.
-- The PostgreSQL file has the same tables and indexes.

-- A like; videos.like_count moves in the same transaction as the row.
CREATE TABLE video_likes (
    user_id    BIGINT NOT NULL REFERENCES users(id),
    video_id   BIGINT NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, video_id)
);
-- The likes list: a user's rows newest first, a keyset walk.
CREATE INDEX video_likes_user ON video_likes(user_id, created_at, video_id);

-- A favourite (collect).
CREATE TABLE video_collects (
    user_id    BIGINT NOT NULL REFERENCES users(id),
    video_id   BIGINT NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, video_id)
);
CREATE INDEX video_collects_user ON video_collects(user_id, created_at, video_id);

-- Browse history: the last time a user played a video; the service keeps
-- the newest rows of each user only (catalog.HistoryLimit).
CREATE TABLE video_history (
    user_id  BIGINT NOT NULL REFERENCES users(id),
    video_id BIGINT NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
    last_at  BIGINT NOT NULL,
    PRIMARY KEY (user_id, video_id)
);
CREATE INDEX video_history_user ON video_history(user_id, last_at, video_id);

-- A report of a video, one per user and video; reason is a code from a
-- fixed list (catalog.ReportReasons). Operators read them by video.
CREATE TABLE video_reports (
    user_id    BIGINT NOT NULL REFERENCES users(id),
    video_id   BIGINT NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
    reason     TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, video_id)
);
CREATE INDEX video_reports_video ON video_reports(video_id, created_at);
