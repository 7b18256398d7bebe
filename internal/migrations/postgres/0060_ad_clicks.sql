-- An ad's clicks per Asia/Shanghai day (YYYY-MM-DD), so the console shows
-- today, the last 7 days and the total (ads.clicks stays the running total).
-- Rows of a deleted ad are removed with it (internal/catalog, admin_ads.go).
CREATE TABLE ad_clicks (
    ad_id  BIGINT NOT NULL,
    day    TEXT NOT NULL,
    clicks BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (ad_id, day)
);
-- The console lists announcements newest first by id (keyset); ads by
-- position then id.
CREATE INDEX ads_position_id ON ads(position, id);
