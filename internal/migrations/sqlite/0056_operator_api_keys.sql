-- API keys for scripts (internal/operator): issued from the shell
-- (prima admin key -account NAME -ttl 24h), shown once, "pk_" and 32 random
-- bytes; only the SHA-256 is kept, with the first 8 characters (prefix) to
-- tell keys apart in lists. A key acts with its operator's role as it is
-- now; every use is audited.
CREATE TABLE operator_api_keys (
    id           INTEGER PRIMARY KEY,
    uid          BIGINT NOT NULL REFERENCES users(id),
    prefix       TEXT NOT NULL,
    key_hash     TEXT NOT NULL UNIQUE,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    last_used_at BIGINT NOT NULL DEFAULT 0,
    revoked_at   BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX operator_api_keys_uid ON operator_api_keys (uid, id);
