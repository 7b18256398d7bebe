-- issue 21: the numbers. Each figure's raw record lives with its owner; the
-- statistics tables (internal/stats) hold what the rollup job makes of one
-- Asia/Shanghai day (YYYY-MM-DD), so no chart scans the raw tables.

-- account: when a user registered (0: a guest still) and whether they began
-- as a guest (a device's first open) rather than registering straight away.
-- Rows from before this migration: registered users count as registered when
-- they were created, guests as guests.
ALTER TABLE users ADD COLUMN registered_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN began_guest SMALLINT NOT NULL DEFAULT 0;
UPDATE users SET registered_at = created_at WHERE account IS NOT NULL;
UPDATE users SET began_guest = 1 WHERE account IS NULL;
CREATE INDEX users_created_at ON users(created_at);
CREATE INDEX users_registered_at ON users(registered_at) WHERE registered_at > 0;

-- account: who used the app on a day (a signed-in request, guests
-- included), written at most once per user and day per process.
CREATE TABLE user_days (
    day     TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    PRIMARY KEY (day, user_id)
);

-- catalog: plays per video and day, bumped with videos.play_count.
CREATE TABLE video_plays_daily (
    day      TEXT NOT NULL,
    video_id BIGINT NOT NULL,
    plays    BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (day, video_id)
);

-- search: searched words per Asia/Shanghai day (search_queries counts UTC
-- days for the hot-word window).
CREATE TABLE search_days (
    day   TEXT NOT NULL,
    word  TEXT NOT NULL,
    count BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (day, word)
);

-- wallet: a day's paid orders and paid withdrawals without a scan.
-- Orders by paid_at: orders_paid_at of migration 0083 (the reconciliation) serves these days too.
CREATE INDEX withdrawals_decided_at ON withdrawals(decided_at) WHERE decided_at > 0;

-- stats: one row per rolled-up day. Money in cents; by_provider is a JSON
-- object {pay_type: cents}.
CREATE TABLE stats_daily (
    day            TEXT PRIMARY KEY,
    active_users   BIGINT NOT NULL DEFAULT 0,
    new_guests     BIGINT NOT NULL DEFAULT 0,
    registrations  BIGINT NOT NULL DEFAULT 0,
    payers         BIGINT NOT NULL DEFAULT 0,
    first_payments BIGINT NOT NULL DEFAULT 0,
    topup_cents    BIGINT NOT NULL DEFAULT 0,
    vip_cents      BIGINT NOT NULL DEFAULT 0,
    by_provider    TEXT NOT NULL DEFAULT '{}',
    withdraw_count BIGINT NOT NULL DEFAULT 0,
    withdraw_cents BIGINT NOT NULL DEFAULT 0,
    plays          BIGINT NOT NULL DEFAULT 0,
    searches       BIGINT NOT NULL DEFAULT 0,
    visits         BIGINT NOT NULL DEFAULT 0,
    updated_at     BIGINT NOT NULL
);

-- stats: a day's most played videos (kind 'video', item the id, title as it
-- was at the rollup) and most searched words (kind 'search'), the first
-- 200 of each.
CREATE TABLE stats_top (
    day   TEXT NOT NULL,
    kind  TEXT NOT NULL CHECK (kind IN ('video', 'search')),
    item  TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    count BIGINT NOT NULL,
    PRIMARY KEY (day, kind, item)
);
