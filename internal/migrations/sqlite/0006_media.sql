-- Media assets: files users upload (pictures and videos) and what the
-- pipeline made of them. Keys are blob-store keys chosen by the server,
-- all under one folder per asset (see internal/media). The PostgreSQL file
-- has the same table and indexes.
CREATE TABLE media_assets (
    id             INTEGER PRIMARY KEY,
    owner_uid      BIGINT NOT NULL REFERENCES users(id),
    kind           TEXT NOT NULL,            -- image | video
    state          TEXT NOT NULL,            -- processing | ready | failed
    source_key     TEXT NOT NULL,            -- the upload as received (never served)
    display_key    TEXT NOT NULL DEFAULT '', -- image: JPEG, long side <= 1280
    thumb_key      TEXT NOT NULL DEFAULT '', -- image: JPEG, long side <= 360
    display_webp   TEXT NOT NULL DEFAULT '', -- image: the display variant as WebP ('' if ffmpeg could not)
    thumb_webp     TEXT NOT NULL DEFAULT '', -- image: the thumbnail as WebP
    hls_prefix     TEXT NOT NULL DEFAULT '', -- video: folder holding master.m3u8 and the ladder
    poster_key     TEXT NOT NULL DEFAULT '', -- video: JPEG frame at about 1 s
    preview_prefix TEXT NOT NULL DEFAULT '', -- video: folder of the first 10 s as HLS
    width          BIGINT NOT NULL DEFAULT 0,
    height         BIGINT NOT NULL DEFAULT 0,
    duration_ms    BIGINT NOT NULL DEFAULT 0,
    video_codec    TEXT NOT NULL DEFAULT '',
    audio_codec    TEXT NOT NULL DEFAULT '',
    placeholder    TEXT NOT NULL DEFAULT '', -- BlurHash
    error          TEXT NOT NULL DEFAULT '', -- why the asset failed
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL
);
-- An owner's assets, newest first.
CREATE INDEX media_assets_owner ON media_assets(owner_uid, id);
-- The operators' list filtered by state.
CREATE INDEX media_assets_state ON media_assets(state, id);

-- A video's media: 0 while none is attached.
ALTER TABLE videos ADD COLUMN media_id BIGINT NOT NULL DEFAULT 0;
