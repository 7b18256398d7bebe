CREATE TABLE users (
    id                    INTEGER PRIMARY KEY,
    name                  TEXT NOT NULL DEFAULT '',
    portrait              TEXT NOT NULL DEFAULT '',
    account               TEXT,
    password_hash         TEXT NOT NULL DEFAULT '',
    points                BIGINT NOT NULL DEFAULT 0,
    vip_level             SMALLINT NOT NULL DEFAULT 0,
    vip_expire_at         BIGINT NOT NULL DEFAULT 0,
    tx_discount           INTEGER,
    gold_video_free_until BIGINT NOT NULL DEFAULT 0,
    video_free_until      BIGINT NOT NULL DEFAULT 0,
    created_at            BIGINT NOT NULL,
    updated_at            BIGINT NOT NULL
);
-- Accounts are unique regardless of case, so "Alice" cannot register beside
-- "alice"; the row keeps the case the user typed. Guests have NULL here.
CREATE UNIQUE INDEX users_account ON users (lower(account));

CREATE TABLE devices (
    dev_id       TEXT PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users(id),
    sys_type     TEXT NOT NULL DEFAULT '',
    cut_infos    TEXT NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
);
CREATE INDEX devices_user ON devices(user_id);

CREATE TABLE sessions (
    token_hash   TEXT PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users(id),
    dev_id       TEXT NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    revoked_at   BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX sessions_user ON sessions(user_id);
