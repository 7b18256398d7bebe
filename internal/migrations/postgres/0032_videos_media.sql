-- A user's page lists the videos that play their uploads: from the
-- uploads (media_assets_owner) to the videos by media id.
CREATE INDEX videos_media ON videos(media_id) WHERE media_id > 0;
