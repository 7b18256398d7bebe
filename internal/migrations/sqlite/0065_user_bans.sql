-- Bans (internal/account, docs/api.md *Operator API → Ban*): one row per
-- banned user. While banned_until is in the future the user cannot sign in
-- (every way opens its session through one check) and a token of theirs
-- answers 403; the operator's ban also ended every session at once.
-- Lifting deletes the row; an expired row means nothing and is replaced by
-- the next ban. A ban "forever" stores 253402300799 (9999-12-31).
CREATE TABLE user_bans (
    user_id      BIGINT PRIMARY KEY REFERENCES users(id),
    banned_until BIGINT NOT NULL,
    reason       TEXT NOT NULL,
    operator_id  BIGINT NOT NULL DEFAULT 0,
    created_at   BIGINT NOT NULL
);
