-- Profiles and follows (issue 8, people). A user's profile gains a gender
-- (0 unset, 1 male, 2 female) and a short bio, both shown to anyone.
ALTER TABLE users ADD COLUMN gender SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN bio TEXT NOT NULL DEFAULT '';

-- A follow: follower follows followee. The primary key makes parallel or
-- repeated follows one row; counts are COUNT(*) over the two indexes, so
-- they can never drift from the rows (no counter column to keep in step).
CREATE TABLE follows (
    follower_id BIGINT NOT NULL REFERENCES users(id),
    followee_id BIGINT NOT NULL REFERENCES users(id),
    created_at  BIGINT NOT NULL,
    PRIMARY KEY (follower_id, followee_id)
);
-- "Following" of a user newest first (keyset walk), and "fans" likewise.
CREATE INDEX follows_follower ON follows(follower_id, created_at, followee_id);
CREATE INDEX follows_followee ON follows(followee_id, created_at, follower_id);

-- When a pair last produced a "follow" notice. It outlives an unfollow, so
-- unfollowing and following again within a day notifies once, not each time.
CREATE TABLE follow_notices (
    follower_id BIGINT NOT NULL,
    followee_id BIGINT NOT NULL,
    notified_at BIGINT NOT NULL,
    PRIMARY KEY (follower_id, followee_id)
);
