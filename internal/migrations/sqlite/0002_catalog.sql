-- Catalog: modules and their sub-modules (sections), videos, tags,
-- announcements, ads and the remote configuration the client reads at start.
-- The PostgreSQL file has the same tables and indexes; only the id column differs.

-- One table for both levels: pid 0 is a top-level module (a tab: 0 home,
-- 1 community, 2 dark, 3 image, 4 short video); a sub-module carries its
-- parent's id and the parent's module_type.
CREATE TABLE modules (
    id          INTEGER PRIMARY KEY,
    pid         BIGINT NOT NULL DEFAULT 0,
    name        TEXT NOT NULL,
    module_type SMALLINT NOT NULL CHECK (module_type BETWEEN 0 AND 4),
    sort        INTEGER NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL
);
CREATE INDEX modules_tree ON modules(pid, sort, id);
CREATE INDEX modules_type ON modules(module_type, pid, sort, id);

CREATE TABLE videos (
    id            INTEGER PRIMARY KEY,
    title         TEXT NOT NULL,
    cover         TEXT NOT NULL DEFAULT '',
    duration      INTEGER NOT NULL DEFAULT 0,
    play_count    BIGINT NOT NULL DEFAULT 0,
    like_count    BIGINT NOT NULL DEFAULT 0,
    module_id     BIGINT NOT NULL REFERENCES modules(id),
    sub_module_id BIGINT NOT NULL REFERENCES modules(id),
    vip_level     SMALLINT NOT NULL DEFAULT 0 CHECK (vip_level BETWEEN 0 AND 2),
    coins         BIGINT NOT NULL DEFAULT 0 CHECK (coins >= 0),
    width         INTEGER NOT NULL DEFAULT 0,
    height        INTEGER NOT NULL DEFAULT 0,
    published     SMALLINT NOT NULL DEFAULT 1,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);
-- moduleVideo lists one module or one sub-module in one of three orders.
-- Each (scope, order) pair has its own index whose leading columns are the
-- equality filter and then the ORDER BY, so a page is an index range walk
-- that stops after offset+limit entries instead of sorting the scope. The
-- trailing columns (duration, created_at) let the playTimeType and newsType
-- filters, and the page-id subquery, be answered from the index alone
-- (covering), so skipping to a deep page never touches table rows.
-- The indexes are partial (published = 1): drafts cost nothing to skip and
-- the indexes stay smaller; queries must say `published = 1` literally (a
-- parameter does not match the predicate in a generic plan).
CREATE INDEX videos_sub_new  ON videos(sub_module_id, created_at DESC, id DESC, duration) WHERE published = 1;
CREATE INDEX videos_sub_play ON videos(sub_module_id, play_count DESC, id DESC, duration, created_at) WHERE published = 1;
CREATE INDEX videos_sub_like ON videos(sub_module_id, like_count DESC, id DESC, duration, created_at) WHERE published = 1;
CREATE INDEX videos_mod_new  ON videos(module_id, created_at DESC, id DESC, duration) WHERE published = 1;
CREATE INDEX videos_mod_play ON videos(module_id, play_count DESC, id DESC, duration, created_at) WHERE published = 1;
CREATE INDEX videos_mod_like ON videos(module_id, like_count DESC, id DESC, duration, created_at) WHERE published = 1;

CREATE TABLE tags (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    sort       INTEGER NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);

CREATE TABLE video_tags (
    video_id BIGINT NOT NULL REFERENCES videos(id) ON DELETE CASCADE,
    tag_id   BIGINT NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
    PRIMARY KEY (video_id, tag_id)
);
-- Videos of a tag (tag pages, search facets).
CREATE INDEX video_tags_tag ON video_tags(tag_id, video_id);

-- Announcements show between starts_at and ends_at (0: no end).
CREATE TABLE announcements (
    id         INTEGER PRIMARY KEY,
    title      TEXT NOT NULL,
    content    TEXT NOT NULL DEFAULT '',
    link       TEXT NOT NULL DEFAULT '',
    sort       INTEGER NOT NULL DEFAULT 0,
    starts_at  BIGINT NOT NULL DEFAULT 0,
    ends_at    BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);

-- Ads: position names the slot the client shows them in (splash,
-- home_banner, popup, ...); the same window rule as announcements.
CREATE TABLE ads (
    id         INTEGER PRIMARY KEY,
    title      TEXT NOT NULL DEFAULT '',
    image      TEXT NOT NULL DEFAULT '',
    link       TEXT NOT NULL DEFAULT '',
    position   TEXT NOT NULL,
    sort       INTEGER NOT NULL DEFAULT 0,
    starts_at  BIGINT NOT NULL DEFAULT 0,
    ends_at    BIGINT NOT NULL DEFAULT 0,
    clicks     BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
CREATE INDEX ads_position ON ads(position, sort, id);

-- Remote configuration ("source info"): each key (APPNAME, CUST, VID, ...)
-- holds an ordered list of {title, url, weight}.
CREATE TABLE source_entries (
    id         INTEGER PRIMARY KEY,
    config_key TEXT NOT NULL,
    title      TEXT NOT NULL DEFAULT '',
    url        TEXT NOT NULL DEFAULT '',
    weight     INTEGER NOT NULL DEFAULT 0,
    sort       INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX source_entries_key ON source_entries(config_key, sort, id);

-- Pre-sale banners: type 1 cover, 2 float, 3 popup; status 1 before sale,
-- 2 after sale.
CREATE TABLE presale_entries (
    id     INTEGER PRIMARY KEY,
    type   SMALLINT NOT NULL CHECK (type BETWEEN 1 AND 3),
    status SMALLINT NOT NULL CHECK (status BETWEEN 1 AND 2),
    url    TEXT NOT NULL,
    sort   INTEGER NOT NULL DEFAULT 0
);
