-- Community moderation (internal/community admin*.go, report.go) and paid
-- posts (internal/wallet purchase.go).

-- A post purchase is written by the same generic buy as a video's, so it
-- keeps the same two columns: how it was paid (coins; posts take no
-- coupons, the column is there for the shared statement) and the coupon.
ALTER TABLE post_purchases ADD COLUMN paid_with TEXT NOT NULL DEFAULT 'coins';
ALTER TABLE post_purchases ADD COLUMN coupon_id BIGINT NOT NULL DEFAULT 0;

-- The operator's report queue reads one target's reports together (how
-- many users reported it), and a resolve closes every open report of it.
CREATE INDEX post_reports_target ON post_reports(post_id, comment_id, state);
