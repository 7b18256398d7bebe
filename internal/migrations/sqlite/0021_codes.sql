-- Redemption codes (docs/architecture.md, *Redemption codes*).

-- A batch is what an operator makes at once: one reward, a number of
-- codes, how many different users each code serves, an optional expiry.
-- disabled_at > 0 stops every code of the batch.
CREATE TABLE code_batches (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL,
    coins         BIGINT NOT NULL DEFAULT 0,
    vip_level     INTEGER NOT NULL DEFAULT 0,
    vip_days      INTEGER NOT NULL DEFAULT 0,
    coupons       INTEGER NOT NULL DEFAULT 0,
    code_count    INTEGER NOT NULL,
    uses_per_code INTEGER NOT NULL CHECK (uses_per_code >= 1),
    expires_at    BIGINT NOT NULL DEFAULT 0,
    disabled_at   BIGINT NOT NULL DEFAULT 0,
    created_by    BIGINT NOT NULL,
    created_at    BIGINT NOT NULL
);

-- A code is stored only as an HMAC of its normalised text under the
-- install secret (codes are secrets, like passwords); prefix is its first
-- four characters, for the operator's and the user's lists. uses never
-- passes max_uses: redemption bumps it with a conditional update.
CREATE TABLE redeem_codes (
    id         INTEGER PRIMARY KEY,
    batch_id   BIGINT NOT NULL REFERENCES code_batches(id),
    hash       TEXT NOT NULL UNIQUE,
    prefix     TEXT NOT NULL,
    max_uses   INTEGER NOT NULL,
    uses       INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0 AND uses <= max_uses)
);
CREATE INDEX redeem_codes_batch ON redeem_codes(batch_id);

-- One row per user and code: the unique pair is what makes a user's second
-- try (or a parallel double tap) fail without granting anything.
CREATE TABLE code_redemptions (
    id         INTEGER PRIMARY KEY,
    code_id    BIGINT NOT NULL REFERENCES redeem_codes(id),
    user_id    BIGINT NOT NULL,
    batch_id   BIGINT NOT NULL,
    coins      BIGINT NOT NULL DEFAULT 0,
    vip_level  INTEGER NOT NULL DEFAULT 0,
    vip_days   INTEGER NOT NULL DEFAULT 0,
    coupons    INTEGER NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    UNIQUE (code_id, user_id)
);
CREATE INDEX code_redemptions_user ON code_redemptions(user_id, id);
