-- Account certificates (mine/accountcode): a credential a user saves as a QR
-- picture and later uploads, or opens as a link, to sign in on another
-- device. The credential itself is never stored: it is derived from seed
-- with a key made from the server secret (internal/account/certificate.go),
-- and only its SHA-256 is kept for the lookup. A user has at most one live
-- certificate; a reset revokes it (revoked_at) and issues the next.
CREATE TABLE account_certificates (
    id           INTEGER PRIMARY KEY,
    user_id      BIGINT NOT NULL REFERENCES users(id),
    seed         TEXT NOT NULL,
    hash         TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    last_used_at BIGINT NOT NULL DEFAULT 0,
    revoked_at   BIGINT NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX account_certificates_hash ON account_certificates(hash);
CREATE UNIQUE INDEX account_certificates_live ON account_certificates(user_id) WHERE revoked_at = 0;
