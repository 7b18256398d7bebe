-- Galleries: ordered pictures (media assets of kind image) under a
-- sub-module of an images module (module_type 3), with the same access
-- levels as videos. The PostgreSQL file has the same tables and indexes;
-- only the id column differs.
CREATE TABLE galleries (
    id            INTEGER PRIMARY KEY,
    title         TEXT NOT NULL,
    module_id     BIGINT NOT NULL REFERENCES modules(id),
    sub_module_id BIGINT NOT NULL REFERENCES modules(id),
    vip_level     SMALLINT NOT NULL DEFAULT 0 CHECK (vip_level BETWEEN 0 AND 2),
    coins         BIGINT NOT NULL DEFAULT 0 CHECK (coins >= 0),
    image_count   INTEGER NOT NULL DEFAULT 0,
    published     SMALLINT NOT NULL DEFAULT 0,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);
-- Lists walk one scope newest first; partial like the video indexes, so
-- queries say `published = 1` literally.
CREATE INDEX galleries_sub ON galleries(sub_module_id, created_at DESC, id DESC) WHERE published = 1;
CREATE INDEX galleries_mod ON galleries(module_id, created_at DESC, id DESC) WHERE published = 1;
CREATE INDEX galleries_vip ON galleries(created_at DESC, id DESC) WHERE published = 1 AND vip_level > 0;

-- A gallery's pictures in order (position 0 is the cover). The same asset
-- may appear in several galleries, never twice in one.
CREATE TABLE gallery_images (
    gallery_id BIGINT NOT NULL REFERENCES galleries(id) ON DELETE CASCADE,
    position   BIGINT NOT NULL,
    asset_id   BIGINT NOT NULL REFERENCES media_assets(id),
    PRIMARY KEY (gallery_id, position),
    UNIQUE (gallery_id, asset_id)
);

-- A user's favourite galleries, one row per (user, gallery).
CREATE TABLE gallery_collects (
    user_id    BIGINT NOT NULL REFERENCES users(id),
    gallery_id BIGINT NOT NULL REFERENCES galleries(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, gallery_id)
);
CREATE INDEX gallery_collects_user ON gallery_collects(user_id, created_at, gallery_id);
