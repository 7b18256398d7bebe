-- The audit log becomes a hash chain (internal/platform/audit, chain.go):
-- each row written from now on carries the hash of the row before it
-- (prev_hash) and its own (hash, SHA-256 over prev_hash and the row's
-- canonical serialisation). audit_chain is the one row every append locks
-- (so concurrent writers take turns and cannot fork the chain) and the head
-- that prima audit verify checks the last row against. Rows from before
-- this migration (id <= start_id) keep empty hashes: the chain starts
-- here, its first row's prev_hash is 64 zeros.
ALTER TABLE audit_log ADD COLUMN prev_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_log ADD COLUMN hash TEXT NOT NULL DEFAULT '';
-- The console filters the log by time.
CREATE INDEX audit_log_created ON audit_log (created_at, id);
CREATE TABLE audit_chain (
    id         SMALLINT PRIMARY KEY CHECK (id = 1),
    start_id   BIGINT NOT NULL,
    last_id    BIGINT NOT NULL,
    last_hash  TEXT NOT NULL,
    started_at BIGINT NOT NULL
);
INSERT INTO audit_chain (id, start_id, last_id, last_hash, started_at)
    SELECT 1, COALESCE(MAX(id), 0), COALESCE(MAX(id), 0), '0000000000000000000000000000000000000000000000000000000000000000', CAST(EXTRACT(EPOCH FROM now()) AS BIGINT)
    FROM audit_log;
